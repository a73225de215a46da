/* Device failures (doc/simulator.md sec. 1b): a failed GPU's job is killed
 * and re-queued, the GPU is marked down (pl_sched_device_down()) until its
 * repair so that no policy can take it; and the failure-trace reader. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "csv.h"

pl_status pl_sim_check_failures(const pl_sim *s)
{
    for (int32_t f = 0; f < s->opts.nfailures; f++) {
        const pl_sim_failure *x = &s->opts.failures[f];
        if (!(x->time >= 0) || !isfinite(x->time))
            return pl_err(PL_EINVAL, "pl_sim_create: failure %d: time must be a finite number >= 0, got %g",
                          (int)f, x->time);
        if (x->gpu < 0 || x->gpu >= s->nvert || s->gpu_socket[x->gpu] < 0)
            return pl_err(PL_EINVAL, "pl_sim_create: failure %d: vertex %d is not a GPU", (int)f, (int)x->gpu);
        if (!(x->repair >= 0))
            return pl_err(PL_EINVAL, "pl_sim_create: failure %d: repair must be >= 0 (0: never), got %g",
                          (int)f, x->repair);
    }
    return PL_OK;
}

pl_status pl_sim_fail_gpu(srun *r, int32_t f, double t)
{
    const pl_sim_failure *x = &r->s->opts.failures[f];
    int32_t g = x->gpu;
    pl_status st = PL_OK;
    r->failures++;
    /* Every job on the GPU dies, the first to have taken it first (a kill
     * removes the job from the list). */
    while (r->hold_n[g] > 0)
        if ((st = pl_sim_kill_job(r, r->hold[g][0], t)))
            return st;
    if (r->m.failed[g]++ == 0) {
        if ((st = pl_sched_device_down(r->sched, g, 1)))
            return st;
        pl_sim_metrics_gpu(r, g);
    }
    if (x->repair > 0 && isfinite(x->repair))
        st = pl_sim_heap_push(&r->heap, t + x->repair, PL_SIM_EV_REPAIR, f, 0);
    return st;
}

pl_status pl_sim_repair_gpu(srun *r, int32_t f, double t)
{
    int32_t g = r->s->opts.failures[f].gpu;
    if (--r->m.failed[g] > 0)
        return PL_OK; /* another failure of it is not repaired yet */
    pl_status st = pl_sched_device_down(r->sched, g, 0);
    if (st)
        return st;
    pl_sim_metrics_gpu(r, g);
    return pl_sim_want_round(r, t);
}

/* ---- the failure-trace reader ------------------------------------------------ */

static pl_status gpu_of(const pl_csv *c, int32_t col, const pl_topology *topo, int32_t *g)
{
    const char *f = pl_csv_field(c, col);
    if (!*f)
        return pl_csv_fail(c, "gpu", "missing value");
    int32_t v = -1;
    char *end;
    long n = strtol(f, &end, 10);
    if (!*end && end != f) {
        if (n < 0 || n >= pl_topology_vertex_count(topo))
            return pl_csv_fail(c, "gpu", "no vertex %s (the topology has %d)", f,
                               (int)pl_topology_vertex_count(topo));
        v = (int32_t)n;
    } else if (pl_topology_find(topo, f, &v) != PL_OK) {
        return pl_csv_fail(c, "gpu", "no vertex '%s' in the topology", f);
    }
    pl_vertex_info info;
    if (pl_topology_vertex(topo, v, &info) != PL_OK || info.kind != PL_VK_GPU)
        return pl_csv_fail(c, "gpu", "'%s' is not a GPU", f);
    *g = v;
    return PL_OK;
}

pl_status pl_sim_failures_load(const char *path, const pl_topology *topo, pl_sim_failure **out,
                               int32_t *n)
{
    if (!path || !topo || !out || !n)
        return pl_err(PL_EINVAL, "pl_sim_failures_load: NULL argument");
    *out = NULL;
    *n = 0;
    static const char *const known[] = {"time", "gpu", "repair", NULL};
    int32_t col[3];
    pl_csv c;
    pl_status st = pl_csv_open_file(&c, path);
    if (!st)
        st = pl_csv_header(&c, known, col);
    if (!st && (col[0] < 0 || col[1] < 0))
        st = pl_err(PL_EPARSE, "%s:%lld: missing column '%s' (the header needs time and gpu)", c.source,
                    (long long)c.line, col[0] < 0 ? "time" : "gpu");
    pl_sim_failure *v = NULL;
    int64_t cnt = 0, cap = 0;
    while (!st && pl_csv_next(&c, &st)) {
        pl_sim_failure x;
        if ((st = pl_csv_number(&c, col[0], "time", 0, INFINITY, 0, 0, &x.time)) || !isfinite(x.time))
            st = st ? st : pl_csv_fail(&c, "time", "expected a finite time");
        if (!st)
            st = gpu_of(&c, col[1], topo, &x.gpu);
        if (!st)
            st = pl_csv_number(&c, col[2], "repair", 0, INFINITY, 1, 0, &x.repair);
        if (!st && cnt >= INT32_MAX)
            st = pl_csv_fail(&c, NULL, "too many failures");
        if (!st && !(st = pl_grow((void **)&v, &cap, cnt + 1, sizeof *v)))
            v[cnt++] = x;
    }
    pl_csv_close(&c);
    if (st) {
        free(v);
        return st;
    }
    *out = v;
    *n = (int32_t)cnt;
    return PL_OK;
}

void pl_sim_failures_free(pl_sim_failure *failures)
{
    free(failures);
}
