/* NVMe storage demands (pl_task_demand's storage_bw, storage_bytes), placed
 * once for every policy after its decision (doc/policies.md, "Demands the
 * policies do not see"): the policies never see storage; each task asking
 * for it gets ONE storage device with both amounts free, attached to its
 * machine if one fits, else in the nearest pool. The device joins the
 * decision's resource plan, so apply and commit take it and release gives
 * it back. A job that finds no device now waits; one no device could ever
 * hold is rejected. A queue without storage demands costs one scan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"
#include "internal/topology_internal.h"
#include "internal/job_impl.h"

typedef struct sctx {
    pl_topology *work;       /* the caller's topology plus the plans of the jobs decided before */
    int32_t *devs, ndevs;    /* storage vertices in preorder */
    int32_t *pool_of;        /* [ndevs] the pool holding device i, -1: inside a machine */
    int32_t *mach_of;        /* [ndevs] the machine holding device i, -1: none */
    char reason[512];
} sctx;

static int has_storage(const pl_task_demand *d)
{
    return d->storage_bw > 0 || d->storage_bytes > 0;
}

static int job_has_storage(const pl_job *job)
{
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) == PL_OK && has_storage(&d))
            return 1;
    }
    return 0;
}

static int64_t amount(const pl_topology *t, int32_t v, pl_resource res, int use_capacity)
{
    int64_t cap = 0, fr = 0;
    pl_topology_amount(t, v, res, &cap, NULL, &fr);
    return use_capacity ? cap : fr;
}

static int dev_fits(const pl_topology *t, int32_t v, const pl_task_demand *d, int use_capacity)
{
    return amount(t, v, PL_RES_BANDWIDTH, use_capacity) >= d->storage_bw &&
           amount(t, v, PL_RES_STORAGE, use_capacity) >= d->storage_bytes;
}

static pl_status sctx_init(sctx *x, const pl_topology *topo)
{
    memset(x, 0, sizeof *x);
    pl_status st = pl_topo_clone(topo, &x->work);
    if (!st)
        st = pl_topo_list(x->work, -1, PL_VK_STORAGE, &x->devs, &x->ndevs);
    if (!st && (!(x->pool_of = pl_alloc((size_t)x->ndevs + 1, sizeof *x->pool_of)) ||
                !(x->mach_of = pl_alloc((size_t)x->ndevs + 1, sizeof *x->mach_of))))
        st = PL_ENOMEM;
    for (int32_t i = 0; i < x->ndevs && !st; i++) {
        if (pl_topology_ancestor(x->work, x->devs[i], PL_VK_POOL, &x->pool_of[i]) != PL_OK)
            x->pool_of[i] = -1;
        x->mach_of[i] = pl_topo_machine_of(x->work, x->devs[i]);
    }
    return st;
}

static void sctx_free(sctx *x)
{
    pl_topology_free(x->work);
    free(x->devs);
    free(x->pool_of);
    free(x->mach_of);
}

/* The device task demand d on machine m gets (-1: none free now): one in m
 * first, else one in a pool, the nearest pool (link weight from m) first;
 * then the most free bandwidth, then the lowest vertex id. Devices of other
 * machines are not shared. */
static int32_t pick(const sctx *x, const pl_task_demand *d, int32_t m)
{
    int32_t best = -1, last_pool = -1;
    int64_t best_dist = 0, best_bw = 0, last_dist = 0;
    for (int32_t i = 0; i < x->ndevs; i++) {
        int32_t v = x->devs[i];
        int attached = m >= 0 && x->mach_of[i] == m && x->pool_of[i] < 0;
        if ((!attached && x->pool_of[i] < 0) || !dev_fits(x->work, v, d, 0))
            continue;
        int64_t dist = -1, bw = amount(x->work, v, PL_RES_BANDWIDTH, 0);
        /* A pool's devices are consecutive in preorder: one distance a pool. */
        if (!attached && x->pool_of[i] != last_pool) {
            last_pool = x->pool_of[i];
            if (m < 0 || pl_topology_distance(x->work, m, last_pool, &last_dist) != PL_OK)
                last_dist = INT64_MAX - 1;
        }
        if (!attached)
            dist = last_dist;
        if (best < 0 || dist < best_dist || (dist == best_dist && bw > best_bw)) {
            best = v;
            best_dist = dist;
            best_bw = bw;
        }
    }
    return best;
}

/* Why job can never get its storage (x->reason), or NULL. */
static const char *never_fits(sctx *x, const pl_job *job)
{
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) != PL_OK || !has_storage(&d))
            continue;
        int any = 0;
        for (int32_t i = 0; i < x->ndevs && !any; i++)
            any = dev_fits(x->work, x->devs[i], &d, 1);
        if (!any) {
            snprintf(x->reason, sizeof x->reason, "task %d asks for NVMe storage of %lld B/s and %lld bytes "
                     "on one device; no storage device of the topology has that much (storage_bw, "
                     "storage_bytes)", (int)t, (long long)d.storage_bw, (long long)d.storage_bytes);
            return x->reason;
        }
    }
    return NULL;
}

static pl_status add_item(pl_plan_item **items, int32_t *n, int64_t *cap, int32_t v, pl_resource res,
                          int64_t a)
{
    if (a <= 0)
        return PL_OK;
    pl_status st = pl_grow((void **)items, cap, (int64_t)*n + 1, sizeof **items);
    if (!st)
        (*items)[(*n)++] = (pl_plan_item){v, res, a};
    return st;
}

/* Placed decision i of job: its plan taken on the work topology, then a
 * device per storage task (*ok 0, x->reason set, when one finds none; the
 * caller restores the topology). */
static pl_status place_job(sctx *x, pl_decision *out, int32_t i, const pl_job *job, int *ok)
{
    pl_decision_info info;
    pl_plan_item *items = NULL;
    int32_t n = 0, *storage = NULL;
    int64_t cap = 0;
    pl_status st = pl_decision_get(out, i, &info);
    if (!st)
        st = pl_decision_plan(out, i, x->work, job, &items, &n);
    cap = n;
    if (!st && pl_plan_fits(x->work, items, n, 0))
        st = pl_plan_alloc(x->work, items, n);
    if (!st && !(storage = pl_alloc((size_t)info.ngpus + 1, sizeof *storage)))
        st = PL_ENOMEM;
    *ok = 1;
    int32_t first = 0;
    for (int32_t t = 0; t < pl_job_task_count(job) && !st && *ok; t++) {
        pl_task_demand d;
        if ((st = pl_job_task(job, t, &d)))
            break;
        int32_t k = d.gpus > 1 ? (int32_t)d.gpus : 1, v = -1;
        if (first + k > info.ngpus) {
            st = pl_err(PL_EINTERNAL, "storage: decision %d has %d entries for a job of more", (int)i,
                        (int)info.ngpus);
            break;
        }
        if (has_storage(&d)) {
            if ((v = pick(x, &d, pl_topo_machine_of(x->work, info.hosts[first]))) < 0) {
                snprintf(x->reason, sizeof x->reason, "task %d waits for NVMe storage: no storage device in "
                         "its machine or a pool has %lld B/s and %lld bytes free now", (int)t,
                         (long long)d.storage_bw, (long long)d.storage_bytes);
                *ok = 0;
                break;
            }
            if (!(st = add_item(&items, &n, &cap, v, PL_RES_BANDWIDTH, d.storage_bw)) &&
                !(st = add_item(&items, &n, &cap, v, PL_RES_STORAGE, d.storage_bytes)) && d.storage_bw > 0)
                st = pl_topology_alloc(x->work, v, PL_RES_BANDWIDTH, d.storage_bw);
            if (!st && d.storage_bytes > 0)
                st = pl_topology_alloc(x->work, v, PL_RES_STORAGE, d.storage_bytes);
        }
        for (int32_t e = first; e < first + k; e++)
            storage[e] = v;
        first += k;
    }
    if (!st && *ok) {
        if (!(st = pl_decision_set_storage(out, i, storage)))
            st = pl_decision_set_plan(out, i, items, n);
    }
    free(items);
    free(storage);
    return st;
}

pl_status pl_storage_place(const pl_topology *topo, pl_job *const *queue, int32_t nqueue, pl_decision *out)
{
    int any = 0;
    for (int32_t i = 0; i < nqueue && !any; i++)
        any = job_has_storage(queue[i]);
    if (!any)
        return PL_OK;
    sctx x;
    pl_status st = sctx_init(&x, topo);
    for (int32_t i = 0; i < nqueue && !st; i++) {
        const pl_job *job = queue[i];
        const char *why = job_has_storage(job) ? never_fits(&x, job) : NULL;
        pl_decision_info info;
        if (why) {
            st = pl_decision_set_kind(out, i, PL_DECISION_REJECTED, why);
            continue;
        }
        if ((st = pl_decision_get(out, i, &info)) || info.kind != PL_DECISION_PLACED)
            continue;
        if (!job_has_storage(job)) {
            /* Its plan counts: a later job's plan is built on what is left. */
            pl_plan_item *items = NULL;
            int32_t n = 0;
            if (!(st = pl_decision_plan(out, i, x.work, job, &items, &n)) && pl_plan_fits(x.work, items, n, 0))
                st = pl_plan_alloc(x.work, items, n);
            free(items);
            continue;
        }
        pl_topology_snapshot *snap = NULL;
        int ok = 1;
        if (!(st = pl_topology_snapshot_take(x.work, &snap)))
            st = place_job(&x, out, i, job, &ok);
        if (!st && !ok && !(st = pl_topology_snapshot_restore(x.work, snap)))
            st = pl_decision_set_kind(out, i, PL_DECISION_WAITING, x.reason);
        pl_topology_snapshot_free(snap);
    }
    sctx_free(&x);
    return st;
}
