/* pl_jobset_load_sc17(): the workload files of the SC17 topology-aware GPU
 * scheduling artifact (workloads-5/100/1000.json), mapped to jobs as
 * include/placement/job.h and doc/jobs.md describe. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/job_impl.h"
#include "internal/json.h"

/* The artifact's "mem" is in GB; the builtin machines count memory in GiB
 * (a 16 GB P100 is 16 GiB there), so GB is read as 2^30 bytes to keep a
 * job's demand comparable with the capacities it is placed against. */
#define GB_BYTES 1073741824.0
#define MAX_GPUS 4096

typedef struct entry {
    int64_t id;
    const char *key;
    const json_t *job;
} entry;

static int by_id(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    return (a->id > b->id) - (a->id < b->id);
}

/* "0", "17": decimal, no sign, no leading zero, fits int64. */
static int parse_id(const char *key, int64_t *id)
{
    if (!*key || (key[0] == '0' && key[1]) || strlen(key) > 18)
        return 0;
    int64_t v = 0;
    for (const char *c = key; *c; c++) {
        if (*c < '0' || *c > '9')
            return 0;
        v = v * 10 + (*c - '0');
    }
    *id = v;
    return 1;
}

/* seed 002 sec. 5: traffic "ranging from 4 to 1" for tiny to big batches. */
double pl_sc17_batch_traffic(const char *size)
{
    static const char *const sizes[] = {"1", "4", "64", "128"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(size, sizes[i]))
            return 4.0 - i;
    return 1.0;
}

static pl_status required(const json_t *obj, const char *path, const char *key, const json_t **v, char *sub)
{
    pl_json_key(sub, path, key);
    *v = json_object_get(obj, key);
    return *v ? PL_OK : pl_json_fail(sub, "missing (the SC17 format requires it)");
}

/* The batch size as text: the artifact writes "64"; 64 is accepted too. */
static pl_status batch_size(const json_t *v, const char *path, char *buf, size_t n)
{
    int64_t x;
    pl_status st;
    if (json_is_string(v)) {
        snprintf(buf, n, "%s", json_string_value(v));
        return PL_OK;
    }
    if (!json_is_number(v))
        return pl_json_expect(v, JSON_STRING, path);
    if ((st = pl_json_int(v, path, 0, INT64_MAX, &x)))
        return st;
    snprintf(buf, n, "%lld", (long long)x);
    return PL_OK;
}

static pl_status load_job(const entry *e, pl_job **out)
{
    static const char *const keys[] = {"arrival", "color", "gpus", "id", "mem", "minimal_utility",
                                       "size", "tasks", "time", "type", NULL};
    char path[PL_JSON_PATH], sub[PL_JSON_PATH], size[64], name[32];
    const json_t *v;
    int64_t gpus, cores, id;
    double arrival, mem, min_utility = 0;
    pl_status st;
    *out = NULL;
    snprintf(path, sizeof path, "$[\"%s\"]", e->key);
    if ((st = pl_json_expect(e->job, JSON_OBJECT, path)) || (st = pl_json_check_keys(e->job, path, keys)))
        return st;
    if ((st = required(e->job, path, "arrival", &v, sub)) || (st = pl_json_number(v, sub, 0, INFINITY, &arrival)))
        return st;
    if ((st = required(e->job, path, "gpus", &v, sub)) || (st = pl_json_int(v, sub, 1, MAX_GPUS, &gpus)))
        return st;
    if ((st = required(e->job, path, "tasks", &v, sub)) || (st = pl_json_int(v, sub, 0, INT64_MAX, &cores)))
        return st;
    if ((st = required(e->job, path, "mem", &v, sub)) || (st = pl_json_number(v, sub, 0, 8.0e9, &mem)))
        return st;
    if ((st = required(e->job, path, "size", &v, sub)) || (st = batch_size(v, sub, size, sizeof size)))
        return st;
    if ((st = required(e->job, path, "type", &v, sub)) || (st = pl_json_expect(v, JSON_STRING, sub)))
        return st;
    const char *type = json_string_value(v);
    pl_json_key(sub, path, "minimal_utility");
    if ((v = json_object_get(e->job, "minimal_utility")) && (st = pl_json_number(v, sub, 0, 1, &min_utility)))
        return st;
    pl_json_key(sub, path, "id");
    if ((v = json_object_get(e->job, "id"))) {
        if ((st = pl_json_int(v, sub, 0, INT64_MAX, &id)))
            return st;
        if (id != e->id)
            return pl_json_fail(sub, "the id %lld differs from the job's key \"%s\"", (long long)id, e->key);
    }

    /* 8e9 GB * 2^30 < 2^63, so the product fits. */
    int64_t memory = (int64_t)llround(mem * GB_BYTES);
    snprintf(name, sizeof name, "job%lld", (long long)e->id);
    pl_job *job;
    if ((st = pl_job_create(name, &job)))
        return st;
    /* Whole units cannot split evenly; the remainder goes to task 0. */
    for (int64_t i = 0; !st && i < gpus; i++) {
        pl_task_demand d = {.gpus = 1, .cores = cores / gpus, .memory = memory / gpus};
        if (i == 0) {
            d.cores += cores % gpus;
            d.memory += memory % gpus;
        }
        st = pl_job_add_task(job, &d, NULL);
    }
    if (!st)
        st = pl_job_add_all_to_all(job, pl_sc17_batch_traffic(size));
    if (!st)
        st = pl_job_set_workload(job, type, size);
    if (!st)
        st = pl_job_set_min_utility(job, min_utility);
    if (!st)
        st = pl_job_set_arrival(job, arrival);
    if (!st)
        st = pl_job_set_single_node(job, 1);
    if (st)
        st = pl_json_prefixed(st, path);
    return PL_HAND_OUT(st, job, pl_job_free, out);
}

static pl_status load_doc(json_t *doc, void **out)
{
    entry *entries = NULL;
    pl_jobset *set = NULL;
    size_t n = 0;
    pl_status st = pl_json_expect(doc, JSON_OBJECT, "$");
    if (!st && json_object_size(doc) > 0 && !(entries = pl_alloc(json_object_size(doc), sizeof *entries)))
        st = PL_ENOMEM;
    if (!st) {
        const char *key;
        json_t *val;
        json_object_foreach(doc, key, val) {
            char sub[PL_JSON_PATH];
            if (!parse_id(key, &entries[n].id)) {
                snprintf(sub, sizeof sub, "$[\"%.200s\"]", key);
                st = pl_json_fail(sub, "expected a job id (\"0\", \"1\", ...) as the key");
                break;
            }
            entries[n].key = key;
            entries[n++].job = val;
        }
    }
    /* Keys are unique and canonical, so ids are unique: numeric order puts
     * job 10 after job 9, where the text order would not. */
    if (!st && n > 1)
        qsort(entries, n, sizeof *entries, by_id);
    if (!st)
        st = pl_jobset_create(&set);
    for (size_t i = 0; !st && i < n; i++) {
        pl_job *job;
        if (!(st = load_job(&entries[i], &job)))
            st = pl_jobset_add(set, job, NULL);
    }
    free(entries);
    return PL_HAND_OUT(st, set, pl_jobset_free, out);
}

pl_status pl_jobset_load_sc17_string(const char *text, size_t length, pl_jobset **out)
{
    return pl_json_load("pl_jobset_load_sc17_string", text, length, NULL, load_doc, (void **)out);
}

pl_status pl_jobset_load_sc17(const char *path, pl_jobset **out)
{
    return pl_json_load("pl_jobset_load_sc17", NULL, 0, path, load_doc, (void **)out);
}
