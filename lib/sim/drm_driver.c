/* DRMaestro (seed 004) driven by the simulator (doc/simulator.md sec. 3b):
 * for the policies "drmaestro" and "drmaestro-na" the simulator keeps one
 * pl_drm handle for the run, so the waiting counters W, the kept flow
 * networks and the NA policy's postponements carry over from round to
 * round as in the paper's loop, and it allocates what the scheduler
 * decided: a task's cores and memory on the machine phase 1 chose, its GPU
 * wherever phase 2 found it (a remote GPU: disaggregation). Rounds run every
 * interval while jobs wait (the paper's periodic scheduler event). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <placement/drmaestro.h>
#include "sim_impl.h"

/* Share of a Rodinia job's run time spent on the network when its GPU is
 * remote: isolated, and next to a network-saturating co-runner (iperf),
 * which we take as network load 1. Seed 000 sec. 3.3 (Fig. 14's text) for
 * seven applications; HotSpot from seed 004 ("Experiment 1"). */
static const struct {
    const char *type;
    double isolated, loaded;
} network_share[] = {
    {"b+tree", 0.002, 0.01}, {"backprop", 0.05, 0.06},   {"gaussian", 0.01, 0.09}, {"hotspot", 0.002, 0.01},
    {"lavamd", 0.02, 0.03},  {"nw", 0.17, 0.49},         {"pathfinder", 0.02, 0.11}, {"srad", 0.03, 0.08},
};
#define NSHARE ((int)(sizeof network_share / sizeof network_share[0]))

/* The compute part is unchanged and the network part grows with the load:
 * run time = T_local / (1 - share), share linear in the load, so the
 * slowdown factor at load 0 is 1 / (1 - isolated), at load 1
 * 1 / (1 - loaded), linear in between. An unknown workload gets the mean of
 * the table's factors. */
void pl_sim_network_factors(const char *type, double *sf0, double *sf1)
{
    double m0 = 0, m1 = 0;
    for (int i = 0; i < NSHARE; i++) {
        double f0 = 1 / (1 - network_share[i].isolated), f1 = 1 / (1 - network_share[i].loaded);
        if (type && !strcasecmp(type, network_share[i].type)) {
            *sf0 = f0;
            *sf1 = f1;
            return;
        }
        m0 += f0 / NSHARE;
        m1 += f1 / NSHARE;
    }
    *sf0 = m0;
    *sf1 = m1;
}

double pl_sim_network_load(const srun *r)
{
    return r->m.gpus_total > 0 ? (double)r->remote_gpus / r->m.gpus_total : 0;
}

double pl_sim_remote_factor(const srun *r, const sjob *a)
{
    return a->remote > 0 ? a->sf0 + pl_sim_network_load(r) * (a->sf1 - a->sf0) : 1;
}

int pl_sim_drm_policy(const char *name)
{
    return name && (!strcmp(name, "drmaestro") || !strcmp(name, "drmaestro-na"));
}

/* ---- plans --------------------------------------------------------------------- */

/* The resources of a DRMaestro placement (pl_plan_build_spread: each task's
 * cores and memory on its machine, each GPU's unit and GPU memory on the
 * GPU). gpus[] receives the GPUs, *remote those not on their task's machine. */
static pl_status drm_plan(const srun *r, int32_t i, const pl_drm_placement *p, pl_plan_item **items,
                          int32_t *n, int32_t *gpus, int32_t *remote)
{
    const pl_sim *s = r->s;
    const pl_job *job = r->j[i].job;
    int32_t k = pl_job_task_count(job), *gpu_task = pl_alloc((size_t)p->gpus + 1, sizeof *gpu_task);
    if (!gpu_task)
        return PL_ENOMEM;
    pl_status st = PL_OK;
    for (int32_t m = 0; m < k && !st; m++)
        if (p->machine[m] < 0 || s->vert_machine[p->machine[m]] < 0)
            st = pl_err(PL_EINTERNAL, "simulator: drmaestro put task %d of job %s on no machine", (int)m,
                        pl_job_name(job));
    *remote = 0;
    for (int32_t x = 0; x < p->gpus && !st; x++) {
        const pl_drm_gpu *g = &p->gpu[x];
        gpus[x] = g->gpu;
        gpu_task[x] = g->task;
        *remote += s->gpu_machine[g->gpu] != s->vert_machine[p->machine[g->task]];
    }
    int32_t short_task = -1;
    if (!st)
        st = pl_plan_build_spread(r->topo, job, p->machine, gpu_task, gpus, p->gpus, items, n, &short_task);
    if (!st && short_task >= 0) {
        free(*items);
        *items = NULL;
        st = pl_err(PL_EINTERNAL, "simulator: drmaestro put task %d of job %s on a machine without "
                    "the free cores or memory", (int)short_task, pl_job_name(job));
    }
    free(gpu_task);
    return st;
}

/* ---- the round ------------------------------------------------------------------- */

/* A job no machine could ever hold (a task larger than every machine, more
 * GPUs than the cluster): rejected, or the periodic rounds would never end. */
static int never_fits(const srun *r, int32_t i)
{
    const pl_job *job = r->j[i].job;
    int64_t gpus = 0;
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d))
            return 1;
        if (d.cores > r->drm_max_cores || d.memory > r->drm_max_memory)
            return 1;
        gpus += d.gpus;
    }
    return gpus > r->m.gpus_total;
}

static pl_status drm_init(srun *r)
{
    const pl_sim *s = r->s;
    pl_drm_opts o;
    pl_drm_opts_init(&o);
    o.network_aware = !strcmp(s->opts.policy.policy, "drmaestro-na");
    for (int32_t m = 0; m < s->nmachines; m++) {
        int64_t c = 0, mem = 0;
        pl_topology_subtree_amount(r->topo, s->machines[m], -1, PL_RES_CORES, &c, NULL);
        pl_topology_subtree_amount(r->topo, s->machines[m], -1, PL_RES_MEMORY, &mem, NULL);
        r->drm_max_cores = c > r->drm_max_cores ? c : r->drm_max_cores;
        r->drm_max_memory = mem > r->drm_max_memory ? mem : r->drm_max_memory;
    }
    r->drm_max_postpone = o.max_postpone;
    return pl_drm_create(&o, &r->drm);
}

/* Goal and expected time of job i for Eq. 6: phi its local solo time, tau
 * its SLO or else phi (the thesis: "the SLO is defined as the task's
 * expected completion time"). */
static pl_status request(srun *r, int32_t i, pl_drm_job_request *q)
{
    static const double loads[2] = {0, 1};
    sjob *a = &r->j[i];
    if (!(a->phi > 0)) {
        pl_status st = pl_sim_solo_time(r->s, a->job, a->k, PL_SPREAD_INTRA_SOCKET, &a->phi);
        if (st)
            return st;
    }
    a->sf_table[0] = a->sf0;
    a->sf_table[1] = a->sf1;
    double slo = pl_job_slo(a->job);
    *q = (pl_drm_job_request){.id = i, .job = a->job, .phi = a->phi, .tau = slo > 0 ? slo : a->phi,
                              .sensitivity = {2, loads, a->sf_table}};
    return PL_OK;
}

static pl_status place(srun *r, int32_t i, const pl_drm_placement *p, double t)
{
    sjob *a = &r->j[i];
    int32_t *gpus = pl_alloc((size_t)p->gpus + 1, sizeof *gpus), nplan = 0, remote = 0;
    pl_plan_item *plan = NULL;
    pl_status st = gpus ? drm_plan(r, i, p, &plan, &nplan, gpus, &remote) : PL_ENOMEM;
    if (!st) {
        int32_t machine = p->tasks > 0 && p->machine[0] >= 0 ? r->s->vert_machine[p->machine[0]] : -1;
        for (int32_t m = 1; m < p->tasks; m++)
            if (p->machine[m] < 0 || r->s->vert_machine[p->machine[m]] != machine)
                machine = -1;
        if (remote > 0)
            machine = -1;
        a->remote = remote;
        r->res->rec[i].remote_gpus = remote;
        double tau = pl_job_slo(a->job) > 0 ? pl_job_slo(a->job) : a->phi;
        st = pl_sim_commit(r, i, plan, nplan, gpus, p->gpus, machine, pl_drm_utility(a->phi, tau, 1), t);
    }
    free(gpus);
    return st;
}

pl_status pl_sim_drm_round(srun *r, double t)
{
    r->round_pending = 0;
    pl_status st = r->drm ? PL_OK : drm_init(r);
    if (st || r->nqueue == 0)
        return st;
    int32_t kept = 0, nq = r->nqueue;
    for (int32_t q = 0; q < nq; q++) {
        int32_t i = r->queue[q];
        if (never_fits(r, i))
            pl_sim_reject(r, i);
        else
            r->queue[kept++] = i;
    }
    r->nqueue = kept;
    if (r->nqueue == 0)
        return PL_OK;
    pl_drm_job_request *reqs = pl_alloc((size_t)r->nqueue, sizeof *reqs);
    if (!reqs)
        return PL_ENOMEM;
    for (int32_t q = 0; q < r->nqueue && !st; q++)
        st = request(r, r->queue[q], &reqs[q]);
    double t0 = pl_now();
    if (!st)
        st = pl_drm_round(r->drm, r->topo, reqs, r->nqueue, pl_sim_network_load(r), 0, NULL);
    double dt = pl_now() - t0;
    if (!st)
        st = pl_sim_record_time(r->res, dt);
    kept = 0;
    nq = r->nqueue;
    int placed = 0;
    for (int32_t q = 0; q < nq && !st; q++) {
        int32_t i = r->queue[q];
        const pl_drm_placement *p = pl_drm_result(r->drm, q);
        if (!p || p->id != i)
            st = pl_err(PL_EINTERNAL, "simulator: drmaestro gave no decision for job %d", (int)i);
        else if (p->outcome == PL_DRM_PLACED) {
            st = place(r, i, p, t);
            placed++;
        } else
            r->queue[kept++] = i;
    }
    free(reqs);
    if (st)
        return st;
    r->nqueue = kept;
    r->idle_rounds = placed ? 0 : r->idle_rounds + 1;
    /* Periodic while jobs wait; when nothing can change any more (no event
     * left, nothing running) and W and the postponements have run their
     * course, stop: the jobs left stay unfinished. */
    int stuck = r->heap.n == 0 && r->nrunning == 0 && r->idle_rounds > r->drm_max_postpone + 1;
    if (r->nqueue > 0 && !stuck) {
        r->round_pending = 1;
        st = pl_sim_heap_push(&r->heap, t + r->interval, PL_SIM_EV_ROUND, -1, 0);
    }
    return st;
}

void pl_sim_drm_free(srun *r)
{
    pl_drm_free(r->drm);
    r->drm = NULL;
}
