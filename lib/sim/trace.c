/* Workload traces (doc/simulator.md sec. 6b): CSV or JSON records of
 * arrival, resources, profile, duration, deadline and priority, or the SC17
 * artifact's workload JSON. Each record becomes a job as the SC17 loader
 * builds them, plus the per-job priority and startup delay the simulator
 * options take. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "csv.h"
#include "internal/job_impl.h"
#include "internal/columns.h"
#include "internal/json.h"

/* As the SC17 loader: GB read as 2^30 bytes, at most 4096 GPUs per job
 * (its tasks talk all to all: the graph is quadratic). */
#define GIB 1073741824.0
#define MAX_GPUS 4096
#define MAX_MEMORY_GIB 8.0e9
/* NVMe demands in decimal units, as devices are rated and as the topology
 * JSON's capacities read (2e9 B/s = 2000 MB/s, 600e9 B = 600 GB); the
 * bounds keep the bytes below 2^63. */
#define MB 1.0e6
#define GB 1.0e9
#define MAX_STORAGE_BW_MBPS 1.0e12
#define MAX_STORAGE_GB 1.0e9

struct pl_sim_trace {
    pl_jobset *jobs;
    double *priority;
    double *startup;
    int64_t cap;                 /* rows of job_cols */
    const char *format;
};

/* Per job. */
static const pl_column job_cols[] = {PL_COLUMN(pl_sim_trace, priority), PL_COLUMN(pl_sim_trace, startup)};

/* The fields of one record; strings borrowed from the input. */
typedef struct trace_row {
    const char *name, *type, *size;
    double arrival, cores, memory_gib, duration, deadline, priority, min_utility, startup;
    double storage_bw_mbps, storage_gb;
    int64_t gpus;
} trace_row;

/* The columns (CSV) and keys (JSON), aliases after their main name. */
enum { C_NAME, C_ARRIVAL, C_GPUS, C_TASKS, C_CORES, C_MEMORY, C_TYPE, C_PROFILE, C_WORKLOAD, C_SIZE,
       C_DURATION, C_DEADLINE, C_SLO, C_PRIORITY, C_MIN_UTILITY, C_STARTUP, C_STORAGE_BW, C_STORAGE, C_COUNT };
static const char *const columns[] = {"name", "arrival", "gpus", "tasks", "cores", "memory", "type",
                                      "profile", "workload", "size", "duration", "deadline", "slo",
                                      "priority", "min_utility", "startup", "storage_bw", "storage", NULL};

static pl_status build_job(const trace_row *w, int64_t index, pl_job **out)
{
    char name[32];
    if (!w->name || !*w->name)
        snprintf(name, sizeof name, "job%lld", (long long)index);
    pl_job *job;
    pl_status st = pl_job_create(w->name && *w->name ? w->name : name, &job);
    if (st)
        return st;
    int64_t cores = (int64_t)llround(w->cores), memory = (int64_t)llround(w->memory_gib * GIB);
    int64_t k = w->gpus > 0 ? w->gpus : 1;
    /* Whole units cannot split evenly; the remainder goes to task 0. The
     * NVMe demand is one volume: all of it on task 0, so one device holds
     * it (split, the engine would give each task its own device). */
    for (int64_t i = 0; !st && i < k; i++) {
        pl_task_demand d = {.gpus = w->gpus > 0, .cores = cores / k, .memory = memory / k};
        if (i == 0) {
            d.cores += cores % k;
            d.memory += memory % k;
            d.storage_bw = (int64_t)llround(w->storage_bw_mbps * MB);
            d.storage_bytes = (int64_t)llround(w->storage_gb * GB);
        }
        st = pl_job_add_task(job, &d, NULL);
    }
    if (!st && k > 1)
        st = pl_job_add_all_to_all(job, pl_sc17_batch_traffic(w->size ? w->size : ""));
    if (!st && ((w->type && *w->type) || (w->size && *w->size)))
        st = pl_job_set_workload(job, w->type ? w->type : "", w->size ? w->size : "");
    if (!st)
        st = pl_job_set_arrival(job, w->arrival);
    if (!st && w->duration > 0)
        st = pl_job_set_duration(job, w->duration);
    if (!st && w->deadline > 0)
        st = pl_job_set_slo(job, w->deadline);
    if (!st)
        st = pl_job_set_min_utility(job, w->min_utility);
    if (!st)
        st = pl_job_set_single_node(job, 1);
    return PL_HAND_OUT(st, job, pl_job_free, out);
}

static pl_status trace_add(pl_sim_trace *t, const trace_row *w)
{
    int32_t n = pl_jobset_count(t->jobs);
    if (n >= INT32_MAX - 1)
        return pl_err(PL_ELIMIT, "trace: too many jobs");
    pl_status st = PL_OK;
    if (n + 1 > t->cap) {
        int64_t cap = pl_next_cap(t->cap, n + 1);
        if (!(st = pl_columns_grow(t, job_cols, PL_NCOLUMNS(job_cols), t->cap, cap)))
            t->cap = cap;
    }
    pl_job *job = NULL;
    if (!st)
        st = build_job(w, n, &job);
    if (!st)
        st = pl_jobset_add(t->jobs, job, NULL);
    if (st)
        return st;
    t->priority[n] = w->priority;
    t->startup[n] = w->startup;
    return PL_OK;
}

/* Put "SOURCE:LINE: " (CSV) or "SOURCE: " in front of the last error,
 * keeping its status; "<string>" from the JSON parser becomes SOURCE. */
static pl_status located(pl_status st, const char *src, int64_t line)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", pl_last_error());
    if (line > 0)
        return pl_err(st, "%s:%lld: %s", src, (long long)line, msg);
    if (!strncmp(msg, "<string>", 8))
        return pl_err(st, "%s%s", src, msg + 8);
    return pl_err(st, "%s: %s", src, msg);
}

/* ---- CSV ---------------------------------------------------------------------- */

static int32_t either(const int32_t *col, int a, int b)
{
    return col[a] >= 0 ? col[a] : col[b];
}

static pl_status alias_check(const pl_csv *c, const int32_t *col, int a, int b)
{
    if (col[a] >= 0 && col[b] >= 0)
        return pl_err(PL_EPARSE, "%s:%lld: columns '%s' and '%s' are the same field: give one",
                      c->source, (long long)c->line, columns[a], columns[b]);
    return PL_OK;
}

static pl_status csv_row(const pl_csv *c, const int32_t *col, trace_row *w)
{
    double gpus;
    pl_status st;
    int32_t g = either(col, C_GPUS, C_TASKS);
    const char *gname = col[C_GPUS] >= 0 ? "gpus" : "tasks";
    memset(w, 0, sizeof *w);
    w->name = pl_csv_field(c, col[C_NAME]);
    w->type = pl_csv_field(c, col[C_TYPE] >= 0 ? col[C_TYPE] : either(col, C_PROFILE, C_WORKLOAD));
    w->size = pl_csv_field(c, col[C_SIZE]);
    if ((st = pl_csv_number(c, col[C_ARRIVAL], "arrival", 0, PL_SIM_MAX_SECONDS, 0, 0, &w->arrival)) ||
        (st = pl_csv_number(c, g, gname, 0, MAX_GPUS, 0, 0, &gpus)))
        return st;
    if (gpus != floor(gpus))
        return pl_csv_fail(c, gname, "expected a whole number, got '%s'", pl_csv_field(c, g));
    w->gpus = (int64_t)gpus;
    if ((st = pl_csv_number(c, col[C_CORES], "cores", 0, 1e15, 1, 0, &w->cores)))
        return st;
    if (w->cores != floor(w->cores))
        return pl_csv_fail(c, "cores", "expected a whole number, got '%s'", pl_csv_field(c, col[C_CORES]));
    if ((st = pl_csv_number(c, col[C_MEMORY], "memory", 0, MAX_MEMORY_GIB, 1, 0, &w->memory_gib)) ||
        (st = pl_csv_number(c, col[C_DURATION], "duration", 0, PL_SIM_MAX_SECONDS, 1, 0, &w->duration)) ||
        (st = pl_csv_number(c, either(col, C_DEADLINE, C_SLO), col[C_DEADLINE] >= 0 ? "deadline" : "slo", 0,
                            PL_SIM_MAX_SECONDS, 1, 0, &w->deadline)) ||
        (st = pl_csv_number(c, col[C_PRIORITY], "priority", -1e15, 1e15, 1, 0, &w->priority)) ||
        (st = pl_csv_number(c, col[C_MIN_UTILITY], "min_utility", 0, 1, 1, 0, &w->min_utility)) ||
        (st = pl_csv_number(c, col[C_STARTUP], "startup", 0, PL_SIM_MAX_SECONDS, 1, 0, &w->startup)) ||
        (st = pl_csv_number(c, col[C_STORAGE_BW], "storage_bw", 0, MAX_STORAGE_BW_MBPS, 1, 0, &w->storage_bw_mbps)) ||
        (st = pl_csv_number(c, col[C_STORAGE], "storage", 0, MAX_STORAGE_GB, 1, 0, &w->storage_gb)))
        return st;
    return PL_OK;
}

static pl_status load_csv(pl_csv *c, pl_sim_trace *t)
{
    int32_t col[C_COUNT];
    pl_status st = pl_csv_header(c, columns, col);
    if (!st && col[C_ARRIVAL] < 0)
        st = pl_err(PL_EPARSE, "%s:%lld: missing column 'arrival'", c->source, (long long)c->line);
    if (!st && either(col, C_GPUS, C_TASKS) < 0)
        st = pl_err(PL_EPARSE, "%s:%lld: missing column 'gpus' (or 'tasks')", c->source, (long long)c->line);
    if (!st)
        st = alias_check(c, col, C_GPUS, C_TASKS);
    if (!st)
        st = alias_check(c, col, C_DEADLINE, C_SLO);
    if (!st && (col[C_TYPE] >= 0) + (col[C_PROFILE] >= 0) + (col[C_WORKLOAD] >= 0) > 1)
        st = pl_err(PL_EPARSE, "%s:%lld: columns 'type', 'profile' and 'workload' are the same field: give one",
                    c->source, (long long)c->line);
    while (!st && pl_csv_next(c, &st)) {
        trace_row w;
        if (!(st = csv_row(c, col, &w)) && (st = trace_add(t, &w)) && st != PL_ENOMEM)
            st = located(st, c->source, c->line);
    }
    return st;
}

/* ---- JSON --------------------------------------------------------------------- */

static pl_status json_opt_number(const json_t *o, const char *path, const char *key, double min, double max,
                                 double *out)
{
    char sub[PL_JSON_PATH];
    const json_t *v = json_object_get(o, key);
    pl_json_key(sub, path, key);
    return v ? pl_json_number(v, sub, min, max, out) : PL_OK;
}

static pl_status json_opt_string(const json_t *o, const char *path, const char *key, const char **out)
{
    char sub[PL_JSON_PATH];
    const json_t *v = json_object_get(o, key);
    pl_json_key(sub, path, key);
    if (!v)
        return PL_OK;
    if (json_is_integer(v)) /* a batch size written as a number */
        return pl_json_fail(sub, "expected a string (write \"%lld\")", (long long)json_integer_value(v));
    pl_status st = pl_json_expect(v, JSON_STRING, sub);
    if (!st)
        *out = json_string_value(v);
    return st;
}

/* The first present key of a list of aliases; two present is an error. */
static pl_status json_alias(const json_t *o, const char *path, const char *const *keys, const char **key)
{
    *key = NULL;
    for (int i = 0; keys[i]; i++)
        if (json_object_get(o, keys[i])) {
            if (*key)
                return pl_json_fail(path, "\"%s\" and \"%s\" are the same field: give one", *key, keys[i]);
            *key = keys[i];
        }
    return PL_OK;
}

static pl_status json_row(const json_t *o, const char *path, trace_row *w)
{
    static const char *const gpus_keys[] = {"gpus", "tasks", NULL};
    static const char *const type_keys[] = {"type", "profile", "workload", NULL};
    static const char *const slo_keys[] = {"deadline", "slo", NULL};
    char sub[PL_JSON_PATH];
    const char *gk, *tk, *sk;
    int64_t gpus;
    pl_status st;
    memset(w, 0, sizeof *w);
    if ((st = pl_json_expect(o, JSON_OBJECT, path)) || (st = pl_json_check_keys(o, path, columns)) ||
        (st = json_alias(o, path, gpus_keys, &gk)) || (st = json_alias(o, path, type_keys, &tk)) ||
        (st = json_alias(o, path, slo_keys, &sk)))
        return st;
    pl_json_key(sub, path, "arrival");
    if (!json_object_get(o, "arrival"))
        return pl_json_fail(sub, "missing");
    if ((st = json_opt_number(o, path, "arrival", 0, PL_SIM_MAX_SECONDS, &w->arrival)))
        return st;
    pl_json_key(sub, path, "gpus");
    if (!gk)
        return pl_json_fail(sub, "missing (or \"tasks\")");
    pl_json_key(sub, path, gk);
    if ((st = pl_json_int(json_object_get(o, gk), sub, 0, MAX_GPUS, &gpus)))
        return st;
    w->gpus = gpus;
    int64_t cores = 0;
    pl_json_key(sub, path, "cores");
    if (json_object_get(o, "cores") && (st = pl_json_int(json_object_get(o, "cores"), sub, 0, (int64_t)1e15, &cores)))
        return st;
    w->cores = (double)cores;
    if ((st = json_opt_string(o, path, "name", &w->name)) ||
        (tk && (st = json_opt_string(o, path, tk, &w->type))) ||
        (st = json_opt_string(o, path, "size", &w->size)) ||
        (st = json_opt_number(o, path, "memory", 0, MAX_MEMORY_GIB, &w->memory_gib)) ||
        (st = json_opt_number(o, path, "duration", 0, PL_SIM_MAX_SECONDS, &w->duration)) ||
        (sk && (st = json_opt_number(o, path, sk, 0, PL_SIM_MAX_SECONDS, &w->deadline))) ||
        (st = json_opt_number(o, path, "priority", -1e15, 1e15, &w->priority)) ||
        (st = json_opt_number(o, path, "min_utility", 0, 1, &w->min_utility)) ||
        (st = json_opt_number(o, path, "startup", 0, PL_SIM_MAX_SECONDS, &w->startup)) ||
        (st = json_opt_number(o, path, "storage_bw", 0, MAX_STORAGE_BW_MBPS, &w->storage_bw_mbps)) ||
        (st = json_opt_number(o, path, "storage", 0, MAX_STORAGE_GB, &w->storage_gb)))
        return st;
    return PL_OK;
}

static pl_status load_json(const json_t *doc, pl_sim_trace *t)
{
    const json_t *arr = doc;
    const char *base = "$";
    if (json_is_object(doc)) {
        static const char *const keys[] = {"jobs", NULL};
        pl_status st = pl_json_check_keys(doc, "$", keys);
        if (st)
            return st;
        arr = json_object_get(doc, "jobs");
        base = "$.jobs";
        if (!arr)
            return pl_json_fail("$.jobs", "missing");
    }
    pl_status st = pl_json_expect(arr, JSON_ARRAY, base);
    for (size_t i = 0; !st && i < json_array_size(arr); i++) {
        char path[PL_JSON_PATH];
        trace_row w;
        pl_json_index(path, base, i);
        if (!(st = json_row(json_array_get(arr, i), path, &w)) && (st = trace_add(t, &w)) && st != PL_ENOMEM)
            st = pl_json_prefixed(st, path);
    }
    return st;
}

/* An SC17 artifact workload: an object keyed by job ids, not {"jobs": ...}. */
static int is_sc17(const json_t *doc)
{
    return json_is_object(doc) && !json_object_get(doc, "jobs") && json_object_size(doc) > 0;
}

static pl_status load_sc17(const char *text, size_t len, pl_sim_trace *t)
{
    pl_jobset_free(t->jobs);
    t->jobs = NULL;
    pl_status st = pl_jobset_load_sc17_string(text, len, &t->jobs);
    int64_t rows = (int64_t)pl_jobset_count(t->jobs) + 1;
    if (!st && !(st = pl_columns_alloc(t, job_cols, PL_NCOLUMNS(job_cols), rows)))
        t->cap = rows;
    t->format = "sc17";
    return st;
}

/* ---- public ------------------------------------------------------------------- */

static const char *first_char(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    return i < len ? text + i : NULL;
}

static pl_status load_text(const char *text, size_t length, const char *src, pl_sim_trace **out)
{
    pl_sim_trace *t = pl_alloc(1, sizeof *t);
    if (!t)
        return PL_ENOMEM;
    pl_status st = pl_jobset_create(&t->jobs);
    const char *c = first_char(text, length);
    if (!st && c && (*c == '{' || *c == '[')) {
        json_t *doc = NULL;
        st = pl_json_parse_text(text, length, &doc);
        if (!st && is_sc17(doc))
            st = load_sc17(text, length, t);
        else if (!st) {
            t->format = "json";
            st = load_json(doc, t);
        }
        if (st && st != PL_ENOMEM)
            st = located(st, src, 0);
        json_decref(doc);
    } else if (!st) {
        pl_csv csv;
        t->format = "csv";
        if (!(st = pl_csv_open_text(&csv, text, length, src)))
            st = load_csv(&csv, t);
        pl_csv_close(&csv);
    }
    return PL_HAND_OUT(st, t, pl_sim_trace_free, out);
}

pl_status pl_sim_trace_load_string(const char *text, size_t length, const char *source, pl_sim_trace **out)
{
    if (!text || !out)
        return pl_err(PL_EINVAL, "pl_sim_trace_load_string: NULL argument");
    *out = NULL;
    return load_text(text, length ? length : strlen(text), source ? source : "<string>", out);
}

pl_status pl_sim_trace_load(const char *path, pl_sim_trace **out)
{
    if (!path || !out)
        return pl_err(PL_EINVAL, "pl_sim_trace_load: NULL argument");
    *out = NULL;
    pl_csv raw; /* the CSV reader's file slurp, for any format */
    pl_status st = pl_csv_open_file(&raw, path);
    if (!st)
        st = load_text(raw.text, raw.len, path, out);
    pl_csv_close(&raw);
    return st;
}

void pl_sim_trace_free(pl_sim_trace *t)
{
    if (!t)
        return;
    pl_jobset_free(t->jobs);
    pl_columns_free(t, job_cols, PL_NCOLUMNS(job_cols));
    free(t);
}

const pl_jobset *pl_sim_trace_jobs(const pl_sim_trace *t)
{
    return t ? t->jobs : NULL;
}

const double *pl_sim_trace_priorities(const pl_sim_trace *t)
{
    return t ? t->priority : NULL;
}

const double *pl_sim_trace_startup_delays(const pl_sim_trace *t)
{
    return t ? t->startup : NULL;
}

const char *pl_sim_trace_format(const pl_sim_trace *t)
{
    return t ? t->format : NULL;
}
