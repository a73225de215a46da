/* "drmaestro" and "drmaestro-na" (seed 004) behind the policy interface: one
 * pl_drm_round() of a fresh scheduler over the queue, read back as
 * decisions. What a one-call interface cannot carry is documented in
 * doc/policies.md: W starts at 0 every call (the stateful pl_drm handle keeps
 * it across rounds), jobs have no NVMe request or network-sensitivity table
 * here, and each task is one CPU/memory group with exactly one GPU (the
 * policy interface's rule), so a task's GPU may be served by another machine
 * (remote GPU, seed 004's disaggregation). */
#include <stdlib.h>
#include <string.h>
#include <placement/drmaestro.h>
#include "policy_impl.h"
#include "../drmaestro/drm_impl.h"

/* The job as DRMaestro sees it: the same tasks, each asking one GPU. */
static pl_status one_gpu_per_task(const pl_job *job, pl_job **out)
{
    pl_status st = pl_job_create(pl_job_name(job), out);
    for (int32_t i = 0; i < pl_job_task_count(job) && !st; i++) {
        pl_task_demand d;
        if (!(st = pl_job_task(job, i, &d))) {
            d.gpus = 1;
            st = pl_job_add_task(*out, &d, NULL);
        }
    }
    if (!st)
        st = pl_job_set_slo(*out, pl_job_slo(job));
    if (!st)
        st = pl_job_set_duration(*out, pl_job_duration(job));
    if (st) {
        pl_job_free(*out);
        *out = NULL;
    }
    return st;
}

static const char *why(pl_drm_outcome o)
{
    switch (o) {
    case PL_DRM_NO_CPU: return "drmaestro: a task found no machine with the cores and memory (phase 1)";
    case PL_DRM_NO_GPU: return "drmaestro: not all GPUs could be placed (phase 2, gang rule)";
    case PL_DRM_NO_NVME: return "drmaestro: not all NVMe shares could be placed (phase 3, gang rule)";
    default: return "drmaestro: postponed, no placement meets the job's SLO at this network load";
    }
}

/* Decision for one placed job: task i's GPU, the common machine (-1 when
 * the GPUs span machines or one sits in a pool), Eq. (3) over the GPUs (-1
 * when two of them have no link path) and the utility Ut of Eq. 6. */
static pl_status placed(const pl_policy_request *req, const pl_job *job, const pl_drm_placement *p,
                        pl_drm_cons *cons, pl_decision *out, int32_t i, int *ok)
{
    *ok = 0;
    const int32_t k = pl_job_task_count(job);
    int32_t *g = pl_alloc((size_t)k, sizeof *g);
    int64_t *dist = pl_alloc((size_t)k * (size_t)k, sizeof *dist);
    pl_status st = !g || !dist ? PL_ENOMEM : PL_OK;
    for (int32_t t = 0; t < k && !st; t++)
        g[t] = -1;
    for (int32_t x = 0; x < p->gpus && !st; x++)
        g[p->gpu[x].task] = p->gpu[x].gpu;
    pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = g, .machine = -1,
                             .slowdown = 1, .reason = ""};
    int pool = 0;
    for (int32_t t = 0; t < k && !st; t++) {
        int32_t m;
        if (g[t] < 0)
            st = pl_err(PL_EINTERNAL, "drmaestro: task %d of job %d has no GPU", t, i);
        else if ((st = pl_topology_ancestor(req->topo, g[t], PL_VK_MACHINE, &m)) == PL_ENOTFOUND) {
            st = PL_OK; /* a pool's GPU */
            info.machine = -1;
            pool = 1;
        } else if (!st)
            info.machine = t == 0 || (!pool && info.machine == m) ? m : -1;
    }
    const char *broken = NULL;
    if (!st)
        st = pl_drm_cons_accept(cons, i, g, &broken);
    if (!st && broken) {
        pl_decision_info w = {.kind = PL_DECISION_WAITING, .machine = -1, .slowdown = 1, .reason = broken};
        st = pl_decision_set(out, i, &w);
        free(g);
        free(dist);
        return st;
    }
    if (!st)
        st = pl_topology_distance_matrix(req->topo, g, k, dist);
    int connected = 1;
    for (int64_t x = 0; x < (int64_t)k * k && !st; x++)
        connected &= dist[x] >= 0;
    if (!st && connected)
        st = pl_comm_cost(dist, k, &info.comm_cost);
    else if (!st)
        info.comm_cost = -1;
    if (!st) {
        double phi = pl_job_duration(job), tau = pl_job_slo(job);
        info.utility = pl_drm_utility(phi, tau > 0 ? tau : 100, 1);
        st = pl_decision_set(out, i, &info);
        *ok = st == PL_OK;
    }
    free(g);
    free(dist);
    return st;
}

/* Why the policy interface refuses job j outright (as the other policies
 * do), or NULL. */
static const char *refusal(const pl_job *job)
{
    if (pl_job_task_count(job) == 0)
        return "the job has no tasks";
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) == PL_OK && d.gpus > 1)
            return "a task asks for more than one GPU (one GPU per task here)";
    }
    return NULL;
}

/* Decision i takes what DRMaestro took for it: a task's cores and memory on
 * its machine (not its GPU's package, policy.h's rule), so the decision
 * carries that plan, and work takes it so the next decision sees it. */
static pl_status attach_plan(pl_topology *work, const pl_job *job, const pl_drm_placement *p,
                             pl_decision *out, int32_t i)
{
    int32_t *gpus = pl_alloc((size_t)p->gpus + 1, sizeof *gpus);
    int32_t *gpu_task = pl_alloc((size_t)p->gpus + 1, sizeof *gpu_task);
    pl_plan_item *items = NULL;
    int32_t n = 0, short_task = -1;
    pl_status st = gpus && gpu_task ? PL_OK : PL_ENOMEM;
    for (int32_t x = 0; x < p->gpus && !st; x++) {
        gpus[x] = p->gpu[x].gpu;
        gpu_task[x] = p->gpu[x].task;
    }
    if (!st)
        st = pl_plan_build_spread(work, job, p->machine, gpu_task, gpus, p->gpus, &items, &n, &short_task);
    if (!st && (short_task >= 0 || !pl_plan_fits(work, items, n, 0)))
        st = pl_err(PL_EINTERNAL, "drmaestro: job %d does not fit where the flow put it", (int)i);
    if (!st)
        st = pl_plan_alloc(work, items, n);
    if (!st)
        st = pl_decision_set_plan(out, i, items, n);
    free(items);
    free(gpus);
    free(gpu_task);
    return st;
}

static pl_status place_drm(const pl_policy_request *req, pl_decision *out, int network_aware)
{
    const int32_t n = req->nqueue;
    pl_drm_opts o;
    pl_drm_opts_init(&o);
    o.network_aware = network_aware;
    pl_drm *d = NULL;
    pl_drm_cons *cons = NULL;
    pl_topology *work = NULL;
    pl_job **jobs = pl_alloc((size_t)n + 1, sizeof *jobs);
    pl_drm_job_request *reqs = pl_alloc((size_t)n + 1, sizeof *reqs);
    int32_t *queue_index = pl_alloc((size_t)n + 1, sizeof *queue_index); /* request -> queue */
    pl_status st = !jobs || !reqs || !queue_index ? PL_ENOMEM : PL_OK;
    int32_t nreq = 0;
    if (!st)
        st = pl_topology_copy(req->topo, &work); /* pl_drm_round takes a mutable topology */
    if (!st)
        st = pl_drm_create(&o, &d);
    if (!st)
        st = pl_drm_cons_create(req, &cons);
    /* The filter only when a queued job has constraints: otherwise every
     * provider admits every task and the networks are DRMaestro's own. */
    for (int32_t i = 0; i < n && !st; i++)
        if (pl_job_has_constraints(req->queue[i])) {
            drm_set_admit(d, pl_drm_cons_admit, cons);
            break;
        }
    for (int32_t i = 0; i < n && !st; i++) {
        const char *no = refusal(req->queue[i]);
        if (!no)
            st = pl_drm_cons_refusal(cons, req->queue[i], &no);
        if (st)
            break;
        if (no) {
            pl_decision_info info = {.kind = PL_DECISION_REJECTED, .machine = -1, .slowdown = 1,
                                     .reason = no};
            st = pl_decision_set(out, i, &info);
        } else if (!(st = one_gpu_per_task(req->queue[i], &jobs[nreq]))) {
            reqs[nreq] = (pl_drm_job_request){.id = i, .job = jobs[nreq]};
            pl_drm_cons_bind(cons, nreq, i);
            queue_index[nreq++] = i;
        }
    }
    if (!st && nreq > 0)
        st = pl_drm_round(d, work, reqs, nreq, req->opts->network_load, 0, NULL);
    int32_t nplaced = 0;
    for (int32_t r = 0; r < nreq && !st; r++) {
        const int32_t i = queue_index[r];
        const pl_drm_placement *p = pl_drm_result(d, r);
        int over = req->opts->max_placed > 0 && nplaced >= req->opts->max_placed;
        if (!p)
            st = pl_err(PL_EINTERNAL, "drmaestro: no result for job %d", i);
        else if (p->outcome == PL_DRM_PLACED && over) {
            pl_decision_info info = {.kind = PL_DECISION_WAITING, .machine = -1, .slowdown = 1,
                                     .reason = "max_placed reached"};
            st = pl_decision_set(out, i, &info);
        } else if (p->outcome == PL_DRM_PLACED) {
            int ok;
            if (!(st = placed(req, req->queue[i], p, cons, out, i, &ok)) && ok)
                st = attach_plan(work, jobs[r], p, out, i);
            nplaced += !st && ok;
        } else if (!st) {
            pl_decision_info info = {.kind = p->outcome == PL_DRM_POSTPONED ? PL_DECISION_POSTPONED
                                                                           : PL_DECISION_WAITING,
                                     .machine = -1, .slowdown = 1, .reason = why(p->outcome)};
            st = pl_decision_set(out, i, &info);
        }
    }
    for (int32_t r = 0; jobs && r < nreq; r++)
        pl_job_free(jobs[r]);
    free(jobs);
    free(reqs);
    free(queue_index);
    pl_drm_free(d);
    pl_drm_cons_free(cons);
    pl_topology_free(work);
    return st;
}

static pl_status place_locality(const pl_policy_request *req, pl_decision *out)
{
    return place_drm(req, out, 0);
}

static pl_status place_na(const pl_policy_request *req, pl_decision *out)
{
    return place_drm(req, out, 1);
}

const pl_policy_ops pl_policy_drmaestro = {
    .name = "drmaestro",
    .description = "DRMaestro (seed 004): multi-phase min-cost-flow placement, locality first; remote GPUs allowed",
    .place = place_locality,
};

const pl_policy_ops pl_policy_drmaestro_na = {
    .name = "drmaestro-na",
    .description = "DRMaestro network-aware: as drmaestro, remote placements costed at opts.network_load",
    .place = place_na,
};
