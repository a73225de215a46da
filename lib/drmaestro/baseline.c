/* DRMaestro baselines: greedy local-first and random remote GPUs (SLURM
 * rgpu-like), job by job, all or nothing, without flow networks. */
#include <stdlib.h>
#include <string.h>
#include "internal/drm_impl.h"

static int64_t subtree_free(const pl_topology *topo, const drm_taken *tk, const int32_t *vs,
                            int32_t n, pl_resource res)
{
    int64_t sum = 0;
    for (int32_t i = 0; i < n; i++) {
        int64_t f = drm_free_amount(topo, tk, vs[i], res);
        sum += f > 0 ? f : 0;
    }
    return sum;
}

/* Machine or pool serving a device. */
static int32_t server_of(const pl_topology *topo, int32_t v)
{
    int32_t s = -1;
    if (pl_topology_ancestor(topo, v, PL_VK_MACHINE, &s) != PL_OK &&
        pl_topology_ancestor(topo, v, PL_VK_POOL, &s) != PL_OK)
        s = -1;
    return s;
}

/* Sort key of a device for the greedy order: local, same rack, the rest. */
static int distance_class(const pl_drm *d, int32_t server, int32_t machine)
{
    if (server == machine)
        return 0;
    int32_t r = d->rack_of_vertex[machine];
    return r >= 0 && d->rack_of_vertex[server] == r ? 1 : 2;
}

typedef struct dev { int32_t v, server; } dev;

static pl_status devices(const pl_topology *topo, pl_vertex_kind kind, dev **out, int32_t *n)
{
    int32_t c = 0;
    pl_status st = pl_topology_descendants(topo, -1, (int)kind, NULL, 0, &c);
    int32_t *vs = pl_alloc((size_t)c + 1, sizeof *vs);
    *out = pl_alloc((size_t)c + 1, sizeof **out);
    if (!vs || !*out) {
        free(vs);
        return PL_ENOMEM;
    }
    if (st == PL_OK && c)
        st = pl_topology_descendants(topo, -1, (int)kind, vs, c, &c);
    for (int32_t i = 0; i < c; i++)
        (*out)[i] = (dev){ vs[i], server_of(topo, vs[i]) };
    *n = c;
    free(vs);
    return st;
}

/* Devices in greedy order for a job on \p machine (stable within a class). */
static void order_greedy(const pl_drm *d, const dev *all, int32_t n, int32_t machine, dev *out)
{
    int32_t k = 0;
    for (int cls = 0; cls < 3; cls++)
        for (int32_t i = 0; i < n; i++)
            if (all[i].server >= 0 && distance_class(d, all[i].server, machine) == cls)
                out[k++] = all[i];
}

typedef struct bl_ctx {
    pl_drm *d;
    const pl_topology *topo;
    drm_taken *tk;
    dev *gpus, *stor, *order;
    int32_t ngpus, nstor;
    pl_drm_baseline_kind kind;
    uint64_t rng;
} bl_ctx;

static int place_gpus(bl_ctx *c, const pl_drm_job_request *r, pl_drm_placement *pl)
{
    pl_drm_gpu *g = (pl_drm_gpu *)pl->gpu;
    int32_t nt = pl_job_task_count(r->job), nfree = 0;
    if (c->kind == PL_DRM_RANDOM_REMOTE) {
        for (int32_t i = 0; i < c->ngpus; i++)
            if (c->gpus[i].server >= 0 && drm_free_amount(c->topo, c->tk, c->gpus[i].v, PL_RES_UNITS) >= 1)
                c->order[nfree++] = c->gpus[i];
    } else {
        order_greedy(c->d, c->gpus, c->ngpus, pl->machine[0], c->order);
        nfree = c->ngpus;
    }
    int32_t pos = 0;
    pl->gpus = 0;
    for (int32_t k = 0; k < nt; k++) {
        pl_task_demand dm;
        pl_job_task(r->job, k, &dm);
        for (int64_t z = 0; z < dm.gpus; z++) {
            dev got = { -1, -1 };
            if (c->kind == PL_DRM_RANDOM_REMOTE) {
                if (pos < nfree) {
                    int32_t j = pos + (int32_t)(pl_rng_u64(&c->rng) % (uint64_t)(nfree - pos));
                    dev t = c->order[pos];
                    c->order[pos] = c->order[j];
                    c->order[j] = t;
                    got = c->order[pos++];
                }
            } else {
                for (; pos < nfree && got.v < 0; pos++)
                    if (drm_free_amount(c->topo, c->tk, c->order[pos].v, PL_RES_UNITS) >= 1)
                        got = c->order[pos];
            }
            if (got.v < 0)
                return 0;
            c->tk->amt[(size_t)got.v * PL_RES_COUNT + PL_RES_UNITS] += 1;
            g[pl->gpus++] = (pl_drm_gpu){ k, got.v, got.server, got.server == pl->machine[k] };
        }
    }
    return 1;
}

static int place_nvme(bl_ctx *c, const pl_drm_job_request *r, pl_drm_placement *pl)
{
    pl_drm_nvme *sh = (pl_drm_nvme *)pl->share;
    order_greedy(c->d, c->stor, c->nstor, pl->machine[0], c->order);
    pl->nvme = 0;
    for (int32_t q = 0; q < r->nvme_shares; q++) {
        int32_t got = -1;
        for (int32_t i = 0; i < c->nstor && got < 0; i++) {
            int32_t v = c->order[i].v;
            if (drm_free_amount(c->topo, c->tk, v, PL_RES_BANDWIDTH) >= r->nvme_bw_bytes_per_s &&
                drm_free_amount(c->topo, c->tk, v, PL_RES_STORAGE) >= r->nvme_bytes)
                got = i;
        }
        if (got < 0)
            return 0;
        dev s = c->order[got];
        c->tk->amt[(size_t)s.v * PL_RES_COUNT + PL_RES_BANDWIDTH] += r->nvme_bw_bytes_per_s;
        c->tk->amt[(size_t)s.v * PL_RES_COUNT + PL_RES_STORAGE] += r->nvme_bytes;
        sh[pl->nvme++] = (pl_drm_nvme){ s.v, s.server, s.server == pl->machine[0] };
    }
    return 1;
}

/* First machine in preorder where all the job's tasks fit. */
static pl_status place_cpu(bl_ctx *c, const pl_drm_job_request *r, pl_drm_placement *pl, int *ok)
{
    pl_task_demand tot;
    pl_status st = pl_job_total_demand(r->job, &tot);
    *ok = 0;
    for (int32_t m = 0; m < c->d->nmachines && st == PL_OK && !*ok; m++) {
        int32_t mv = c->d->machines[m], n = 0;
        st = pl_topology_descendants(c->topo, mv, -1, NULL, 0, &n);
        int32_t *vs = pl_alloc((size_t)n + 1, sizeof *vs);
        if (!vs)
            return PL_ENOMEM;
        if (st == PL_OK)
            st = pl_topology_descendants(c->topo, mv, -1, vs, n, &n);
        if (st == PL_OK && subtree_free(c->topo, c->tk, vs, n, PL_RES_CORES) >= tot.cores &&
            subtree_free(c->topo, c->tk, vs, n, PL_RES_MEMORY) >= tot.memory) {
            *ok = 1;
            for (int32_t k = 0; k < pl->tasks && st == PL_OK; k++) {
                pl_task_demand dm;
                pl_job_task(r->job, k, &dm);
                ((int32_t *)pl->machine)[k] = mv;
                st = drm_pick_cpu(c->topo, c->tk, mv, dm.cores, dm.memory);
            }
        }
        free(vs);
    }
    return st;
}

pl_status pl_drm_baseline(pl_drm *d, pl_topology *topo, const pl_drm_job_request *reqs, int32_t n,
                          pl_drm_baseline_kind kind, uint64_t seed, int apply)
{
    if (!d || !topo)
        return pl_err(PL_EINVAL, "pl_drm_baseline: NULL argument");
    if (kind != PL_DRM_GREEDY_LOCAL && kind != PL_DRM_RANDOM_REMOTE)
        return pl_err(PL_EINVAL, "pl_drm_baseline: unknown baseline %d", (int)kind);
    pl_status st = drm_check_requests(reqs, n);
    if (st == PL_OK)
        st = drm_topology_init(d, topo);
    if (st == PL_OK)
        st = drm_bind_requests(d, reqs, n);
    if (st == PL_OK)
        st = drm_result_reset(d, reqs, n);
    if (st != PL_OK)
        return st;
    size_t tsz = (size_t)d->nvert * PL_RES_COUNT;
    drm_taken tk = { pl_alloc(tsz + 1, sizeof(int64_t)) };
    int64_t *save = pl_alloc(tsz + 1, sizeof(int64_t));
    bl_ctx c = { d, topo, &tk, NULL, NULL, NULL, 0, 0, kind, seed };
    if (!tk.amt || !save)
        st = PL_ENOMEM;
    if (st == PL_OK)
        st = devices(topo, PL_VK_GPU, &c.gpus, &c.ngpus);
    if (st == PL_OK)
        st = devices(topo, PL_VK_STORAGE, &c.stor, &c.nstor);
    if (st == PL_OK && !(c.order = pl_alloc((size_t)(c.ngpus > c.nstor ? c.ngpus : c.nstor) + 1,
                                            sizeof *c.order)))
        st = PL_ENOMEM;
    for (int32_t i = 0; i < n && st == PL_OK; i++) {
        pl_drm_placement *pl = &d->res.pl[i];
        if (reqs[i].running) {
            pl->outcome = PL_DRM_RUNNING; /* its resources are in the topology's allocation */
            continue;
        }
        memcpy(save, tk.amt, tsz * sizeof(int64_t));
        int ok = 0;
        st = place_cpu(&c, &reqs[i], pl, &ok);
        pl->outcome = PL_DRM_NO_CPU;
        if (st == PL_OK && ok) {
            pl->outcome = PL_DRM_NO_GPU;
            if (place_gpus(&c, &reqs[i], pl)) {
                pl->outcome = PL_DRM_NO_NVME;
                if (place_nvme(&c, &reqs[i], pl))
                    pl->outcome = PL_DRM_PLACED;
            }
        }
        if (pl->outcome != PL_DRM_PLACED) {
            memcpy(tk.amt, save, tsz * sizeof(int64_t));
            pl->gpus = pl->nvme = 0;
        }
    }
    if (st == PL_OK && apply)
        st = drm_apply(topo, &tk);
    for (int32_t i = 0; i < n && st == PL_OK; i++) {
        int32_t k;
        if (reqs[i].running || drm_entry_get(d, reqs[i].id, &k) != PL_OK)
            continue;
        if (d->res.pl[i].outcome != PL_DRM_PLACED)
            d->e[k].waited++;
        d->res.pl[i].waited = d->e[k].waited;
    }
    free(tk.amt);
    free(save);
    free(c.gpus);
    free(c.stor);
    free(c.order);
    return st;
}
