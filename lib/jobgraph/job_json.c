/* pl_jobset_load_json(): jobs described in JSON (schema and a full example:
 * doc/jobs.md). As in the topology loader, every object's keys are checked
 * so a misspelt key is an error rather than a silently ignored setting, and
 * every error names the JSON path of the bad field. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal/job_impl.h"
#include "internal/json.h"

/* Tasks per job in a file. Machines hold tens of GPUs; the cap keeps a typo
 * ("gpus": 1e9) from asking for a quadratic all-to-all graph. */
#define MAX_TASKS 4096

/* obj[key] or NULL in *v, its path in sub. */
static void opt_member(const json_t *obj, const char *path, const char *key, const json_t **v, char *sub)
{
    pl_json_key(sub, path, key);
    *v = json_object_get(obj, key);
}

/* opt_member, and a member that is present must be of the given type. */
static pl_status opt_typed(const json_t *obj, const char *path, const char *key, json_type type,
                           const json_t **v, char *sub)
{
    opt_member(obj, path, key, v, sub);
    return *v ? pl_json_expect(*v, type, sub) : PL_OK;
}

/* {"key": "value"} of obj[name] as node Must (must_not 0) or MustNot rules of
 * task (or PL_JOB_ALL_TASKS). A MustNot value may be an array of values, one
 * rule each; a Must takes one value, since several Musts on one key
 * intersect (the thesis's rule) and a list would read as "one of". */
static pl_status load_rules(pl_job *job, int32_t task, const json_t *obj, const char *path,
                            const char *name, int must_not)
{
    char rp[PL_JSON_PATH], kp[PL_JSON_PATH], ip[PL_JSON_PATH];
    const json_t *rules, *val;
    const char *key;
    pl_status st = opt_typed(obj, path, name, JSON_OBJECT, &rules, rp);
    if (!rules)
        return st;
    json_object_foreach((json_t *)rules, key, val) {
        if (st)
            break;
        pl_json_key(kp, rp, key);
        if (!*key)
            return pl_json_fail(kp, "an attribute key must be non-empty");
        size_t n = json_is_array(val) && must_not ? json_array_size(val) : 1;
        if (json_is_array(val) && must_not && n == 0)
            return pl_json_fail(kp, "expected at least one value");
        for (size_t i = 0; i < n && !st; i++) {
            const json_t *x = json_is_array(val) && must_not ? json_array_get(val, i) : val;
            if (json_is_array(val) && must_not)
                pl_json_index(ip, kp, i);
            else
                snprintf(ip, sizeof ip, "%s", kp);
            if (!json_is_string(x))
                return pl_json_fail(ip, "expected a string%s", must_not ? " or an array of strings" :
                                    " (several Must values of one key intersect: give one)");
            if (!*json_string_value(x))
                return pl_json_fail(ip, "an attribute value must be non-empty");
            st = must_not ? pl_job_add_node_must_not(job, task, key, json_string_value(x))
                          : pl_job_add_node_must(job, task, key, json_string_value(x));
        }
    }
    return st;
}

static pl_status load_task_rules(pl_job *job, int32_t task, const json_t *obj, const char *path)
{
    pl_status st = load_rules(job, task, obj, path, "must", 0);
    return st ? st : load_rules(job, task, obj, path, "must_not", 1);
}

static pl_status load_task(pl_job *job, const json_t *v, const char *path)
{
    static const char *const keys[] = {"gpus", "cores", "memory", "gpu_memory", "bandwidth", "gpu_milli",
                                       "cpu_milli", "storage_bw", "storage_bytes", "must", "must_not", NULL};
    static const char *const names[] = {"gpus", "cores", "memory", "gpu_memory", "bandwidth", "gpu_milli",
                                        "cpu_milli", "storage_bw", "storage_bytes"};
    pl_status st = pl_json_expect(v, JSON_OBJECT, path);
    if (st || (st = pl_json_check_keys(v, path, keys)))
        return st;
    pl_task_demand d = {.gpus = 1};
    int64_t *fields[] = {&d.gpus, &d.cores, &d.memory, &d.gpu_memory, &d.bandwidth, &d.gpu_milli,
                         &d.cpu_milli, &d.storage_bw, &d.storage_bytes};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        char sub[PL_JSON_PATH];
        const json_t *x;
        opt_member(v, path, names[i], &x, sub);
        /* A share of one GPU: 1000 would be a whole GPU, said with "gpus".
         * A task's GPUs are as many tasks to the policies: capped as tasks are. */
        int64_t most = fields[i] == &d.gpu_milli ? 999 : fields[i] == &d.gpus ? MAX_TASKS : INT64_MAX;
        if (x && (st = pl_json_int(x, sub, 0, most, fields[i])))
            return st;
    }
    if (d.gpu_milli > 0 && d.gpus > 1)
        return pl_json_fail(path, "a task with gpu_milli takes a share of one GPU, not %lld GPUs",
                            (long long)d.gpus);
    int32_t id;
    if ((st = pl_job_add_task(job, &d, &id)))
        return st;
    return load_task_rules(job, id, v, path);
}

static pl_status load_tasks(pl_job *job, const json_t *obj, const char *path)
{
    char gp[PL_JSON_PATH], tp[PL_JSON_PATH];
    const json_t *gpus, *tasks;
    opt_member(obj, path, "gpus", &gpus, gp);
    opt_member(obj, path, "tasks", &tasks, tp);
    if (gpus && tasks)
        return pl_json_fail(path, "give either \"gpus\" or \"tasks\", not both");
    if (!gpus && !tasks)
        return pl_json_fail(path, "missing \"gpus\" or \"tasks\" (a job needs at least one task)");
    pl_status st;
    if (gpus) {
        int64_t n;
        if ((st = pl_json_int(gpus, gp, 1, MAX_TASKS, &n)))
            return st;
        for (int64_t i = 0; i < n; i++)
            if ((st = pl_job_add_task(job, NULL, NULL)))
                return st;
        return PL_OK;
    }
    if ((st = pl_json_expect(tasks, JSON_ARRAY, tp)))
        return st;
    size_t n = json_array_size(tasks);
    if (n < 1 || n > MAX_TASKS)
        return pl_json_fail(tp, "expected 1 to %d tasks, got %zu", MAX_TASKS, n);
    for (size_t i = 0; i < n; i++) {
        char sub[PL_JSON_PATH];
        pl_json_index(sub, tp, i);
        if ((st = load_task(job, json_array_get(tasks, i), sub)))
            return st;
    }
    return PL_OK;
}

/* A task id of job at v. */
static pl_status task_id(const pl_job *job, const json_t *v, const char *path, int32_t *out)
{
    int64_t id;
    pl_status st = pl_json_int(v, path, 0, INT32_MAX, &id);
    if (st)
        return st;
    if (id >= pl_job_task_count(job))
        return pl_json_fail(path, "no task %lld (the job has %d tasks, ids 0 to %d)", (long long)id,
                          (int)pl_job_task_count(job), (int)pl_job_task_count(job) - 1);
    *out = (int32_t)id;
    return PL_OK;
}

static pl_status distinct(int32_t a, int32_t b, const char *path)
{
    return a == b ? pl_json_fail(path, "a task cannot be paired with itself (both ids are %d)", (int)a)
                  : PL_OK;
}

static pl_status load_edges(pl_job *job, const json_t *obj, const char *path)
{
    static const char *const keys[] = {"a", "b", "traffic", NULL};
    char ep[PL_JSON_PATH], tp[PL_JSON_PATH];
    const json_t *edges, *all;
    pl_status st = PL_OK;
    opt_member(obj, path, "traffic", &all, tp);
    if (all) {
        double t;
        if ((st = pl_json_number(all, tp, 0, INFINITY, &t)) || (st = pl_job_add_all_to_all(job, t)))
            return st;
    }
    if ((st = opt_typed(obj, path, "edges", JSON_ARRAY, &edges, ep)) || !edges)
        return st;
    for (size_t i = 0; i < json_array_size(edges); i++) {
        char p[PL_JSON_PATH], sub[PL_JSON_PATH];
        const json_t *e = json_array_get(edges, i), *x;
        int32_t ab[2];
        double t;
        pl_json_index(p, ep, i);
        if ((st = pl_json_expect(e, JSON_OBJECT, p)) || (st = pl_json_check_keys(e, p, keys)))
            return st;
        for (int k = 0; k < 3; k++) {
            const char *key = keys[k];
            opt_member(e, p, key, &x, sub);
            if (!x)
                return pl_json_fail(sub, "missing (%s is required)", k < 2 ? "a task id" : "a number");
            st = k < 2 ? task_id(job, x, sub, &ab[k]) : pl_json_number(x, sub, 0, INFINITY, &t);
            if (st)
                return st;
        }
        if ((st = distinct(ab[0], ab[1], p)) || (st = pl_job_add_edge(job, ab[0], ab[1], t)))
            return st;
    }
    return PL_OK;
}

static pl_status load_workload(pl_job *job, const json_t *obj, const char *path)
{
    static const char *const keys[] = {"type", "size", NULL};
    char wp[PL_JSON_PATH], sub[PL_JSON_PATH], num[32];
    const json_t *w, *type, *size;
    pl_status st = opt_typed(obj, path, "workload", JSON_OBJECT, &w, wp);
    if (st || !w || (st = pl_json_check_keys(w, wp, keys)))
        return st;
    opt_member(w, wp, "type", &type, sub);
    if (!type)
        return pl_json_fail(sub, "missing (a string is required)");
    if ((st = pl_json_expect(type, JSON_STRING, sub)))
        return st;
    opt_member(w, wp, "size", &size, sub);
    const char *s = NULL;
    if (size && json_is_string(size)) {
        s = json_string_value(size);
    } else if (size) {
        /* Batch sizes are naturally written as numbers: 64 means "64". */
        int64_t n;
        if (!json_is_number(size))
            return pl_json_expect(size, JSON_STRING, sub);
        if ((st = pl_json_int(size, sub, 0, INT64_MAX, &n)))
            return st;
        snprintf(num, sizeof num, "%lld", (long long)n);
        s = num;
    }
    return pl_job_set_workload(job, json_string_value(type), s);
}

static pl_status load_numbers(pl_job *job, const json_t *obj, const char *path)
{
    static const char *const keys[] = {"arrival", "min_utility", "slo", "duration"};
    pl_status (*const set[])(pl_job *, double) = {pl_job_set_arrival, pl_job_set_min_utility,
                                                  pl_job_set_slo, pl_job_set_duration};
    for (int i = 0; i < 4; i++) {
        char sub[PL_JSON_PATH];
        const json_t *v;
        double x;
        opt_member(obj, path, keys[i], &v, sub);
        if (!v)
            continue;
        pl_status st = pl_json_number(v, sub, 0, i == 1 ? 1.0 : INFINITY, &x);
        if (st || (st = set[i](job, x)))
            return st;
    }
    char sub[PL_JSON_PATH];
    const json_t *v;
    opt_member(obj, path, "gpu_model", &v, sub);
    if (v) {
        pl_status st = pl_json_expect(v, JSON_STRING, sub);
        if (!st && !*json_string_value(v))
            st = pl_json_fail(sub, "a GPU model must be non-empty");
        if (st || (st = pl_job_set_gpu_model(job, json_string_value(v))))
            return st == PL_EINVAL ? pl_json_fail(sub, "%s", pl_last_error()) : st;
    }
    pl_status st = opt_typed(obj, path, "single_node", JSON_TRUE, &v, sub);
    return st || !v ? st : pl_job_set_single_node(job, json_is_true(v));
}

/* obj[name]: an array of [a, b] task pairs, each passed to add. */
static pl_status load_pairs(pl_job *job, const json_t *obj, const char *path, const char *name,
                            pl_status (*add)(pl_job *, int32_t, int32_t))
{
    char ap[PL_JSON_PATH];
    const json_t *anti;
    pl_status st = opt_typed(obj, path, name, JSON_ARRAY, &anti, ap);
    for (size_t i = 0; !st && anti && i < json_array_size(anti); i++) {
        char p[PL_JSON_PATH], sub[PL_JSON_PATH];
        const json_t *pair = json_array_get(anti, i);
        int32_t ab[2];
        pl_json_index(p, ap, i);
        if ((st = pl_json_expect(pair, JSON_ARRAY, p)))
            return st;
        if (json_array_size(pair) != 2)
            return pl_json_fail(p, "expected a pair of task ids [a, b], got %zu elements", json_array_size(pair));
        for (size_t k = 0; k < 2; k++) {
            pl_json_index(sub, p, k);
            if ((st = task_id(job, json_array_get(pair, k), sub, &ab[k])))
                return st;
        }
        if (!(st = distinct(ab[0], ab[1], p)))
            st = add(job, ab[0], ab[1]);
    }
    return st;
}

/* obj[name]: an array of non-empty strings, each passed to add. */
static pl_status load_labels(pl_job *job, const json_t *obj, const char *path, const char *name,
                             pl_status (*add)(pl_job *, const char *))
{
    char lp[PL_JSON_PATH], sub[PL_JSON_PATH];
    const json_t *arr;
    pl_status st = opt_typed(obj, path, name, JSON_ARRAY, &arr, lp);
    for (size_t i = 0; !st && arr && i < json_array_size(arr); i++) {
        const json_t *v = json_array_get(arr, i);
        pl_json_index(sub, lp, i);
        if (!(st = pl_json_expect(v, JSON_STRING, sub)) && !*json_string_value(v))
            st = pl_json_fail(sub, "a label must be non-empty");
        if (!st)
            st = add(job, json_string_value(v));
    }
    return st;
}

static pl_status load_constraints(pl_job *job, const json_t *obj, const char *path)
{
    pl_status st;
    if ((st = load_pairs(job, obj, path, "anti_collocation", pl_job_add_anti_collocation)) ||
        (st = load_pairs(job, obj, path, "collocation", pl_job_add_collocation)) ||
        (st = load_task_rules(job, PL_JOB_ALL_TASKS, obj, path)) ||
        (st = load_labels(job, obj, path, "labels", pl_job_add_label)))
        return st;
    return load_labels(job, obj, path, "anti_affinity", pl_job_add_anti_affinity);
}

static pl_status load_nodes(pl_job *job, const json_t *obj, const char *path)
{
    char np[PL_JSON_PATH];
    const json_t *nodes;
    pl_status st = opt_typed(obj, path, "nodes", JSON_ARRAY, &nodes, np);
    if (st || !nodes)
        return st;
    size_t n = json_array_size(nodes);
    if (n > INT32_MAX)
        return pl_json_fail(np, "too many names");
    const char **names = n ? pl_alloc(n, sizeof *names) : NULL;
    if (n && !names)
        return PL_ENOMEM;
    for (size_t i = 0; !st && i < n; i++) {
        char sub[PL_JSON_PATH];
        const json_t *v = json_array_get(nodes, i);
        pl_json_index(sub, np, i);
        if (!(st = pl_json_expect(v, JSON_STRING, sub)) && !*(names[i] = json_string_value(v)))
            st = pl_json_fail(sub, "a node name must be non-empty");
    }
    if (!st)
        st = pl_job_set_node_filter(job, names, (int32_t)n);
    pl_free(names);
    return st;
}

static pl_status load_job(const json_t *v, const char *path, size_t index, pl_job **out)
{
    static const char *const keys[] = {"name", "arrival", "gpus", "tasks", "traffic", "edges", "workload",
                                       "min_utility", "slo", "duration", "single_node",
                                       "anti_collocation", "nodes", "collocation", "must",
                                       "must_not", "labels", "anti_affinity", "gpu_model", NULL};
    *out = NULL;
    pl_status st = pl_json_expect(v, JSON_OBJECT, path);
    if (st || (st = pl_json_check_keys(v, path, keys)))
        return st;
    char sub[PL_JSON_PATH], dflt[32];
    const json_t *name;
    opt_member(v, path, "name", &name, sub);
    if (name && ((st = pl_json_expect(name, JSON_STRING, sub)) || !*json_string_value(name)))
        return st ? st : pl_json_fail(sub, "a job name must be non-empty");
    snprintf(dflt, sizeof dflt, "job%zu", index);
    pl_job *job;
    if ((st = pl_job_create(name ? json_string_value(name) : dflt, &job)))
        return st;
    static pl_status (*const parts[])(pl_job *, const json_t *, const char *) = {
        load_tasks, load_edges, load_workload, load_numbers, load_constraints, load_nodes};
    for (size_t i = 0; !st && i < sizeof parts / sizeof *parts; i++)
        st = parts[i](job, v, path);
    return PL_HAND_OUT(st, job, pl_job_free, out);
}

static pl_status load_doc(json_t *doc, pl_jobset **out)
{
    static const char *const keys[] = {"jobs", NULL};
    pl_jobset *set = NULL;
    const json_t *jobs = NULL;
    pl_status st = pl_json_expect(doc, JSON_OBJECT, "$");
    if (!st)
        st = pl_json_check_keys(doc, "$", keys);
    if (!st && !(jobs = json_object_get(doc, "jobs")))
        st = pl_json_fail("$.jobs", "missing (an array is required)");
    if (!st)
        st = pl_json_expect(jobs, JSON_ARRAY, "$.jobs");
    if (!st)
        st = pl_jobset_create(&set);
    for (size_t i = 0; !st && i < json_array_size(jobs); i++) {
        char path[PL_JSON_PATH];
        pl_job *job;
        pl_json_index(path, "$.jobs", i);
        if (!(st = load_job(json_array_get(jobs, i), path, i, &job)))
            st = pl_jobset_add(set, job, NULL);
    }
    json_decref(doc);
    return PL_HAND_OUT(st, set, pl_jobset_free, out);
}

pl_status pl_jobset_load_json_string(const char *text, size_t length, pl_jobset **out)
{
    if (!text || !out)
        return pl_err(PL_EINVAL, "pl_jobset_load_json_string: NULL argument");
    *out = NULL;
    json_t *doc;
    pl_status st = pl_json_parse_text(text, length, &doc);
    return st ? st : load_doc(doc, out);
}

pl_status pl_jobset_load_json(const char *path, pl_jobset **out)
{
    if (!path || !out)
        return pl_err(PL_EINVAL, "pl_jobset_load_json: NULL argument");
    *out = NULL;
    json_t *doc;
    pl_status st = pl_json_parse_file("pl_jobset_load_json", path, &doc);
    return st ? st : load_doc(doc, out);
}
