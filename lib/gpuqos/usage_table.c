/* The GPU usage-pattern table (doc/gpuqos.md, doc/simulator.md sec. 3c):
 * the built-in Table 5.1 models, the CSV reader, and a pair's device-side
 * factors from the usage-pattern simulator (pl_gpu_simulate()). Shared by
 * the simulator's co-tenant model and gpu-qos's usage predictor, so the two
 * agree by construction. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <placement/sim.h>
#include "internal/gpu_usage.h"
#include "sim/csv.h"

/* Seed 003 ch. 5 Table 5.1 (tests/data/kim/table5_1.csv): GPU utilisation
 * (%) and role; the Cifar10 (latency-sensitive) models iterate in 0.1 s, the
 * Imagenet (batch) ones in 0.4 s with split kernels (README's recipe). */
static const struct {
    const char *name;
    double util_pct;
    int batch;
} table51[] = {{"Alexnet", 26.46, 0},   {"Resnet32", 45.74, 0}, {"Trivial", 8.04, 0},
               {"Googlenet", 71.39, 1}, {"Nasnet", 72.18, 1},   {"Resnet50", 85.31, 1},
               {"Resnet152", 81.62, 1}, {"VGG16", 73.47, 1}};

void pl_gpu_usage_free(pl_gpu_usage *u)
{
    if (!u)
        return;
    for (int64_t i = 0; i < u->n; i++) {
        free(u->c[i].name);
        free(u->c[i].calls);
    }
    free(u->c);
    free(u->factor);
    free(u);
}

int32_t pl_gpu_usage_find(const pl_gpu_usage *u, const char *workload)
{
    if (!u || !workload)
        return -1;
    for (int64_t i = 0; i < u->n; i++)
        if (!strcmp(u->c[i].name, workload))
            return (int32_t)i;
    return -1;
}

/* The class named name, emptied if it exists (a CSV replaces a built-in
 * model), else appended. */
static pl_status class_named(pl_gpu_usage *u, const char *name, pl_gpu_usage_class **out)
{
    int32_t i = pl_gpu_usage_find(u, name);
    if (i >= 0) {
        u->c[i].ncalls = 0;
        u->c[i].end_s = 0;
        *out = &u->c[i];
        return PL_OK;
    }
    pl_status st = pl_grow((void **)&u->c, &u->cap, u->n + 1, sizeof *u->c);
    if (st)
        return st;
    pl_gpu_usage_class *c = &u->c[u->n];
    memset(c, 0, sizeof *c);
    if (!(c->name = pl_strdup(name)))
        return PL_ENOMEM;
    u->n++;
    *out = c;
    return PL_OK;
}

static pl_status add_call(pl_gpu_usage_class *c, const pl_gpu_call *call)
{
    pl_status st = pl_grow((void **)&c->calls, &c->cap, c->ncalls + 1, sizeof *c->calls);
    if (st)
        return st;
    c->calls[c->ncalls++] = *call;
    c->end_s = call->start_s + call->duration_s;
    return PL_OK;
}

static pl_status add_builtin(pl_gpu_usage *u)
{
    for (size_t m = 0; m < sizeof table51 / sizeof *table51; m++) {
        pl_gpu_call calls[PL_GPU_USAGE_KERNELS];
        pl_gpu_trace t;
        pl_gpu_trace_synthetic(table51[m].util_pct, table51[m].batch ? 0.4 : 0.1, PL_GPU_USAGE_KERNELS,
                               table51[m].batch, calls, &t);
        pl_gpu_usage_class *c;
        pl_status st = class_named(u, table51[m].name, &c);
        for (int32_t k = 0; k < t.ncalls && !st; k++)
            st = add_call(c, &calls[k]);
        if (st)
            return st;
        c->trace.period_s = t.period_s;
    }
    return PL_OK;
}

static const char *const usage_cols[] = {"workload", "kind", "gap_s", "duration_s", "bytes", "split", NULL};
enum { COL_WORKLOAD, COL_KIND, COL_GAP, COL_DURATION, COL_BYTES, COL_SPLIT, NCOLS };

/* One CSV row: a call after a CPU gap, or the tail gap that ends the
 * iteration (period = end of the last call + tail). A workload whose rows
 * come back after another's continues its iteration. */
static pl_status read_row(pl_gpu_usage *u, const pl_csv *c, const int32_t *col)
{
    const char *name = pl_csv_field(c, col[COL_WORKLOAD]), *kind = pl_csv_field(c, col[COL_KIND]);
    if (!*name)
        return pl_csv_fail(c, "workload", "empty workload");
    static const char *const kinds[] = {"kernel", "h2d", "d2h", "tail"};
    int k = 0;
    while (k < 4 && strcmp(kind, kinds[k]))
        k++;
    if (k == 4)
        return pl_csv_fail(c, "kind", "'%s' is not kernel, h2d, d2h or tail", kind);
    double gap, dur, bytes, split;
    pl_status st;
    if ((st = pl_csv_number(c, col[COL_GAP], "gap_s", 0, PL_SIM_MAX_SECONDS, 1, 0, &gap)) ||
        (st = pl_csv_number(c, col[COL_DURATION], "duration_s", 0, PL_SIM_MAX_SECONDS, k == 3, 0, &dur)) ||
        (st = pl_csv_number(c, col[COL_BYTES], "bytes", 0, 1e18, k == 0 || k == 3, 0, &bytes)) ||
        (st = pl_csv_number(c, col[COL_SPLIT], "split", 0, 1, 1, 0, &split)))
        return st;
    if (k < 3 && !(dur > 0))
        return pl_csv_fail(c, "duration_s", "a call lasts more than 0 s");
    if ((k == 1 || k == 2) && !(bytes > 0))
        return pl_csv_fail(c, "bytes", "a memcopy copies more than 0 bytes");
    if (split != 0 && split != 1)
        return pl_csv_fail(c, "split", "0 or 1, got %g", split);
    int32_t i = pl_gpu_usage_find(u, name);
    pl_gpu_usage_class *cl = i >= 0 ? &u->c[i] : NULL;
    if (!cl || cl->trace.period_s > 0) { /* new, or a built-in / ended one the CSV replaces */
        if ((st = class_named(u, name, &cl)))
            return st;
        cl->trace.period_s = 0;
    } else if (cl->trace.period_s < 0) {
        return pl_csv_fail(c, "kind", "workload '%s' already ended with its tail row", name);
    }
    if (k == 3) {
        cl->trace.period_s = -(cl->end_s + gap); /* negative: ended by the CSV, fixed in finish() */
        return cl->ncalls > 0 ? PL_OK : pl_csv_fail(c, "kind", "workload '%s': tail before any call", name);
    }
    static const pl_gpu_call_kind call_kind[] = {PL_GPU_KERNEL, PL_GPU_MEMCPY_H2D, PL_GPU_MEMCPY_D2H};
    pl_gpu_call call = {.kind = call_kind[k], .start_s = cl->end_s + gap, .duration_s = dur,
                        .bw_bytes_per_s = k ? bytes / dur : 0, .split = split != 0};
    return add_call(cl, &call);
}

/* Every class's trace points at its calls; a CSV iteration without a tail
 * row ends with its last call; periods read as negative (ended) turn
 * positive. */
static void finish(pl_gpu_usage *u)
{
    for (int64_t i = 0; i < u->n; i++) {
        pl_gpu_usage_class *c = &u->c[i];
        double p = fabs(c->trace.period_s);
        c->trace = (pl_gpu_trace){c->calls, (int32_t)c->ncalls, p > 0 ? p : c->end_s, 0};
    }
}

static pl_status load(pl_csv *c, pl_status st, pl_gpu_usage **out)
{
    *out = NULL;
    pl_gpu_usage *u = pl_alloc(1, sizeof *u);
    if (!u) {
        pl_csv_close(c);
        return PL_ENOMEM;
    }
    int32_t col[NCOLS];
    if (!st)
        st = add_builtin(u);
    if (!st && c->text && !(st = pl_csv_header(c, usage_cols, col))) {
        for (int k = 0; k < NCOLS && !st; k++)
            if (col[k] < 0 && k != COL_BYTES && k != COL_SPLIT)
                st = pl_csv_fail(c, usage_cols[k], "missing column");
        while (!st && pl_csv_next(c, &st))
            st = read_row(u, c, col);
    }
    pl_csv_close(c);
    if (!st)
        finish(u);
    return PL_HAND_OUT(st, u, pl_gpu_usage_free, out);
}

pl_status pl_gpu_usage_load(const char *path, pl_gpu_usage **out)
{
    pl_csv c;
    memset(&c, 0, sizeof c);
    return load(&c, path ? pl_csv_open_file(&c, path) : PL_OK, out);
}

pl_status pl_gpu_usage_load_text(const char *text, const char *source, pl_gpu_usage **out)
{
    pl_csv c;
    return load(&c, pl_csv_open_text(&c, text, strlen(text), source), out);
}

/* Iteration of model m of n replayed together over its solo iteration. */
static pl_status replay(const pl_gpu_trace *t, int32_t n, double horizon, pl_gpu_sim_result *out)
{
    pl_gpu_sim_opts o;
    pl_gpu_sim_opts_init(&o);
    o.horizon_s = horizon;
    return pl_gpu_simulate(t, n, &o, out);
}

pl_status pl_gpu_usage_pair(const pl_gpu_usage *u, int32_t a, int32_t b, double *fa, double *fb)
{
    int32_t lo = a < b ? a : b, hi = a < b ? b : a;
    pl_gpu_trace t[2] = {u->c[lo].trace, u->c[hi].trace};
    double horizon = PL_GPU_USAGE_PERIODS * (t[0].period_s > t[1].period_s ? t[0].period_s : t[1].period_s);
    pl_gpu_sim_result solo[2], both[2];
    pl_status st;
    if ((st = replay(&t[0], 1, horizon, &solo[0])) || (st = replay(&t[1], 1, horizon, &solo[1])) ||
        (st = replay(t, 2, horizon, both)))
        return st;
    double f[2];
    for (int k = 0; k < 2; k++) {
        f[k] = both[k].iteration_s / solo[k].iteration_s;
        if (!(f[k] >= 1))
            f[k] = 1;
    }
    if (lo == hi)
        f[0] = f[1] = (f[0] + f[1]) / 2;
    *fa = a == lo ? f[0] : f[1];
    *fb = a == lo ? f[1] : f[0];
    return PL_OK;
}

pl_status pl_gpu_usage_factor(pl_gpu_usage *u, int32_t a, int32_t b, double *fa)
{
    size_t n = (size_t)u->n;
    if (!u->factor) {
        if (!(u->factor = pl_alloc(n * n, sizeof *u->factor)))
            return PL_ENOMEM;
        for (size_t q = 0; q < n * n; q++)
            u->factor[q] = NAN;
    }
    double *ab = &u->factor[(size_t)a * n + (size_t)b];
    if (isnan(*ab)) {
        pl_status st = pl_gpu_usage_pair(u, a, b, ab, &u->factor[(size_t)b * n + (size_t)a]);
        if (st)
            return st;
    }
    *fa = *ab;
    return PL_OK;
}
