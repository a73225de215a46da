/* DRMaestro: the cluster's racks and machines, the job table, the choice of
 * concrete devices for a decided placement, results, and applying them. */
#include <stdlib.h>
#include <string.h>
#include "internal/drm_impl.h"
#include "internal/columns.h"
#include "internal/topology_internal.h"

pl_status drm_topology_init(pl_drm *d, const pl_topology *topo)
{
    int32_t nv = pl_topology_vertex_count(topo);
    if (d->nvert >= 0) {
        if (nv != d->nvert)
            return pl_err(PL_EINVAL, "drmaestro: topology has %d vertices, %d in earlier rounds",
                          nv, d->nvert);
        return PL_OK;
    }
    pl_status st = pl_topo_list(topo, -1, PL_VK_RACK, &d->rack_vertex, &d->nracks);
    if (st == PL_OK)
        st = pl_topo_list(topo, -1, PL_VK_MACHINE, &d->machines, &d->nmachines);
    if (st != PL_OK)
        return st;
    d->rack_of_vertex = pl_alloc((size_t)nv + 1, sizeof(int32_t));
    if (!d->rack_of_vertex)
        return PL_ENOMEM;
    for (int32_t v = 0; v < nv; v++)
        d->rack_of_vertex[v] = -1;
    for (int32_t r = 0; r < d->nracks; r++) {
        int32_t *sub = NULL, ns = 0;
        st = pl_topo_list(topo, d->rack_vertex[r], -1, &sub, &ns);
        if (st != PL_OK)
            return st;
        for (int32_t i = 0; i < ns; i++)
            d->rack_of_vertex[sub[i]] = r;
        free(sub);
    }
    d->nvert = nv;
    return PL_OK;
}

int64_t drm_free_amount(const pl_topology *topo, const drm_taken *tk, int32_t v, pl_resource res)
{
    int64_t f = 0;
    if (pl_topology_amount(topo, v, res, NULL, NULL, &f) != PL_OK)
        return 0;
    return f - tk->amt[(size_t)v * PL_RES_COUNT + res];
}

static void take(drm_taken *tk, int32_t v, pl_resource res, int64_t amount)
{
    tk->amt[(size_t)v * PL_RES_COUNT + res] += amount;
}

/* Spread an amount over the machine's vertices that offer the resource, in
 * preorder: a task may take cores of both sockets, as the phase-1 capacity
 * only counts the machine's total. */
static int64_t take_spread(const pl_topology *topo, drm_taken *tk, const int32_t *vs, int32_t n,
                           pl_resource res, int64_t amount)
{
    for (int32_t i = 0; i < n && amount > 0; i++) {
        int64_t f = drm_free_amount(topo, tk, vs[i], res);
        int64_t t = f < amount ? f : amount;
        if (t > 0) {
            take(tk, vs[i], res, t);
            amount -= t;
        }
    }
    return amount;
}

pl_status drm_pick_cpu(const pl_topology *topo, drm_taken *tk, int32_t machine, int64_t cores,
                       int64_t memory)
{
    int32_t *vs = NULL, n = 0;
    pl_status st = pl_topo_list(topo, machine, -1, &vs, &n);
    if (st != PL_OK)
        return st;
    int64_t left_c = take_spread(topo, tk, vs, n, PL_RES_CORES, cores);
    int64_t left_m = take_spread(topo, tk, vs, n, PL_RES_MEMORY, memory);
    free(vs);
    if (left_c || left_m)
        return pl_err(PL_EINTERNAL, "drmaestro: machine %d lacks %lld cores, %lld bytes the flow promised",
                      machine, (long long)left_c, (long long)left_m);
    return PL_OK;
}

int32_t drm_pick_gpu(const pl_topology *topo, drm_taken *tk, int32_t server,
                     const pl_drm_gpu *held, int32_t nheld)
{
    int32_t *vs = NULL, n = 0, got = -1;
    if (pl_topo_list(topo, server, PL_VK_GPU, &vs, &n) != PL_OK)
        return -1;
    for (int32_t i = 0; i < n && got < 0; i++) {
        int mine = 0;
        for (int32_t h = 0; h < nheld && !mine; h++)
            mine = held[h].gpu == vs[i];
        if (!mine && drm_free_amount(topo, tk, vs[i], PL_RES_UNITS) >= 1) {
            take(tk, vs[i], PL_RES_UNITS, 1);
            got = vs[i];
        }
    }
    free(vs);
    return got;
}

pl_status drm_distinct_gpus(const pl_topology *topo, const drm_taken *tk, int32_t server,
                            int32_t *count)
{
    int32_t *vs = NULL, n = 0;
    pl_status st = pl_topo_list(topo, server, PL_VK_GPU, &vs, &n);
    *count = 0;
    for (int32_t i = 0; i < n && !st; i++)
        *count += drm_free_amount(topo, (drm_taken *)tk, vs[i], PL_RES_UNITS) >= 1;
    free(vs);
    return st;
}

int32_t drm_pick_nvme(const pl_topology *topo, drm_taken *tk, int32_t server, int64_t bw,
                      int64_t bytes)
{
    int32_t *vs = NULL, n = 0, got = -1;
    if (pl_topo_list(topo, server, PL_VK_STORAGE, &vs, &n) != PL_OK)
        return -1;
    for (int32_t i = 0; i < n && got < 0; i++)
        if (drm_free_amount(topo, tk, vs[i], PL_RES_BANDWIDTH) >= bw &&
            drm_free_amount(topo, tk, vs[i], PL_RES_STORAGE) >= bytes) {
            take(tk, vs[i], PL_RES_BANDWIDTH, bw);
            take(tk, vs[i], PL_RES_STORAGE, bytes);
            got = vs[i];
        }
    free(vs);
    return got;
}

/* Per job, and the slices of all jobs' tasks, GPUs and NVMe shares that
 * the placements point into. */
static const pl_column result_cols[] = {
    PL_COLUMN(drm_result, pl), PL_COLUMN(drm_result, machines), PL_COLUMN(drm_result, gpus),
    PL_COLUMN(drm_result, nvme),
};

static void result_free(drm_result *r)
{
    pl_columns_free(r, result_cols, PL_NCOLUMNS(result_cols));
    memset(r, 0, sizeof *r);
}

pl_status drm_result_reset(pl_drm *d, const pl_drm_job_request *reqs, int32_t n)
{
    drm_result *r = &d->res;
    result_free(r);
    size_t nt = 0, ng = 0, ns = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t t = pl_job_task_count(reqs[i].job);
        nt += (size_t)t;
        for (int32_t k = 0; k < t; k++) {
            pl_task_demand dm;
            if (pl_job_task(reqs[i].job, k, &dm) == PL_OK)
                ng += (size_t)dm.gpus;
        }
        ns += (size_t)reqs[i].nvme_shares;
    }
    r->pl = pl_alloc((size_t)n + 1, sizeof *r->pl);
    r->machines = pl_alloc(nt + 1, sizeof *r->machines);
    r->gpus = pl_alloc(ng + 1, sizeof *r->gpus);
    r->nvme = pl_alloc(ns + 1, sizeof *r->nvme);
    if (!r->pl || !r->machines || !r->gpus || !r->nvme) {
        result_free(r);
        return PL_ENOMEM;
    }
    r->n = n;
    size_t ot = 0, og = 0, os = 0;
    for (int32_t i = 0; i < n; i++) {
        pl_drm_placement *p = &r->pl[i];
        p->id = reqs[i].id;
        p->tasks = pl_job_task_count(reqs[i].job);
        p->machine = r->machines + ot;
        p->gpu = r->gpus + og;
        p->share = r->nvme + os;
        for (int32_t k = 0; k < p->tasks; k++) {
            pl_task_demand dm;
            r->machines[ot + (size_t)k] = -1;
            if (pl_job_task(reqs[i].job, k, &dm) == PL_OK)
                og += (size_t)dm.gpus;
        }
        ot += (size_t)p->tasks;
        os += (size_t)reqs[i].nvme_shares;
    }
    return PL_OK;
}

void drm_result_release(pl_drm *d)
{
    result_free(&d->res);
}

pl_status drm_apply(pl_topology *topo, const drm_taken *tk)
{
    pl_topology_snapshot *snap = NULL;
    pl_status st = pl_topology_snapshot_take(topo, &snap);
    int32_t nv = pl_topology_vertex_count(topo);
    for (int32_t v = 0; v < nv && st == PL_OK; v++)
        for (int r = 0; r < PL_RES_COUNT && st == PL_OK; r++) {
            int64_t a = tk->amt[(size_t)v * PL_RES_COUNT + (size_t)r];
            if (a > 0)
                st = pl_topology_alloc(topo, v, (pl_resource)r, a);
        }
    if (st != PL_OK && snap)
        pl_topology_snapshot_restore(topo, snap);
    pl_topology_snapshot_free(snap);
    return st;
}

pl_status drm_entry_get(pl_drm *d, int64_t id, int32_t *idx)
{
    for (int32_t i = 0; i < d->ne; i++)
        if (d->e[i].id == id) {
            *idx = i;
            return PL_OK;
        }
    if (d->ne == d->ecap) {
        int32_t cap = d->ecap ? 2 * d->ecap : 16;
        drm_entry *ne = pl_realloc_array(d->e, (size_t)cap, sizeof *ne);
        if (!ne)
            return PL_ENOMEM;
        d->e = ne;
        d->ecap = cap;
    }
    drm_entry *e = &d->e[d->ne];
    memset(e, 0, sizeof *e);
    e->id = id;
    e->req = -1;
    for (int p = 0; p < DRM_PHASES; p++) {
        e->ph[p].count = -1;
        e->ph[p].unode = e->ph[p].uarc = -1;
    }
    *idx = d->ne++;
    return PL_OK;
}

pl_status drm_check_requests(const pl_drm_job_request *reqs, int32_t n)
{
    if (n < 0 || (n > 0 && !reqs))
        return pl_err(PL_EINVAL, "drmaestro: bad request array");
    for (int32_t i = 0; i < n; i++) {
        const pl_drm_job_request *r = &reqs[i];
        if (!r->job || pl_job_task_count(r->job) < 1)
            return pl_err(PL_EINVAL, "drmaestro: request %d has no job or no task", i);
        if (r->nvme_shares < 0 || r->nvme_bw_bytes_per_s < 0 || r->nvme_bytes < 0)
            return pl_err(PL_EINVAL, "drmaestro: request %d: negative NVMe request", i);
        if (r->phi < 0 || r->tau < 0 || (r->z != 0 && (r->z < 1 || r->z > 10)))
            return pl_err(PL_EINVAL, "drmaestro: request %d: phi, tau >= 0 and z in [1, 10] (or 0)", i);
        const pl_drm_sensitivity *s = &r->sensitivity;
        if (s->points < 0 || (s->points > 0 && (!s->load || !s->slowdown)))
            return pl_err(PL_EINVAL, "drmaestro: request %d: bad sensitivity table", i);
        for (int32_t k = 1; k < s->points; k++)
            if (!(s->load[k] > s->load[k - 1]))
                return pl_err(PL_EINVAL, "drmaestro: request %d: sensitivity loads must increase", i);
        for (int32_t j = 0; j < i; j++)
            if (reqs[j].id == r->id)
                return pl_err(PL_EINVAL, "drmaestro: requests %d and %d share id %lld", j, i,
                              (long long)r->id);
    }
    return PL_OK;
}
