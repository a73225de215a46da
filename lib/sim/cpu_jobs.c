/* CPU-only jobs (no task asks for a GPU; doc/simulator.md sec. 1): the
 * policy interface places GPUs, so the simulator places these itself, first
 * fit in queue order, all tasks on one machine, cores and memory spread over
 * its packages and NUMA nodes in preorder. */
#include <stdlib.h>
#include "sim_impl.h"

/* Take `need` of res from the vertices vs[n] in order (vertices without a
 * capacity of res do not model it and are skipped); 1 if it all fits. */
static int take(const srun *r, const int32_t *vs, int32_t n, pl_resource res, int64_t need,
                int use_capacity, pl_plan_item *items, int32_t *ni)
{
    int modelled = 0;
    for (int32_t q = 0; q < n && need > 0; q++) {
        int64_t cap = 0, fr = 0;
        pl_topology_amount(r->topo, vs[q], res, &cap, NULL, &fr);
        if (cap <= 0)
            continue;
        modelled = 1;
        int64_t got = (use_capacity ? cap : fr) < need ? (use_capacity ? cap : fr) : need;
        if (got > 0 && items) {
            items[*ni] = (pl_plan_item){vs[q], res, got};
            (*ni)++;
        }
        need -= got;
    }
    return need <= 0 || !modelled;
}

static pl_status fit(const srun *r, const pl_job *job, int32_t m, int use_capacity, pl_plan_item **items,
                     int32_t *n, int *fits)
{
    const pl_sim *s = r->s;
    pl_task_demand tot;
    pl_status st = pl_job_total_demand(job, &tot);
    if (st)
        return st;
    int32_t np = s->mach_pkg_start[m + 1] - s->mach_pkg_start[m];
    int32_t nn = s->mach_numa_start[m + 1] - s->mach_numa_start[m];
    pl_plan_item *it = NULL;
    if (items && !(it = pl_alloc((size_t)np + (size_t)nn + 1, sizeof *it)))
        return PL_ENOMEM;
    int32_t ni = 0;
    *fits = take(r, s->mach_pkg + s->mach_pkg_start[m], np, PL_RES_CORES, tot.cores, use_capacity, it, &ni) &&
            take(r, s->mach_numa + s->mach_numa_start[m], nn, PL_RES_MEMORY, tot.memory, use_capacity, it, &ni);
    if (items) {
        if (*fits) {
            *items = it;
            *n = ni;
        } else {
            free(it);
        }
    }
    return PL_OK;
}

/* The one-job decision placing job i on machine m with plan: every task
 * hosted by the machine's first package (the plan spreads them), no GPU. */
static pl_status cpu_decision(const srun *r, int32_t i, int32_t m, const pl_plan_item *plan, int32_t n,
                              pl_decision **out)
{
    const pl_sim *s = r->s;
    int32_t k = r->j[i].k;
    int32_t *gpus = pl_alloc((size_t)k + 1, sizeof *gpus), *hosts = pl_alloc((size_t)k + 1, sizeof *hosts);
    pl_status st = gpus && hosts ? pl_decision_create_internal(1, out) : PL_ENOMEM;
    for (int32_t t = 0; !st && t < k; t++) {
        gpus[t] = -1;
        hosts[t] = s->mach_pkg[s->mach_pkg_start[m]];
    }
    pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = gpus, .hosts = hosts,
                             .machine = s->machines[m], .utility = 1.0, .slowdown = 1.0};
    if (!st && !(st = pl_decision_set(*out, 0, &info)))
        st = pl_decision_set_plan(*out, 0, plan, n);
    free(gpus);
    free(hosts);
    return st;
}

pl_status pl_sim_place_cpu_jobs(srun *r, double t)
{
    const pl_sim *s = r->s;
    int32_t kept = 0, nq = r->nqueue;
    pl_status st = PL_OK;
    for (int32_t q = 0; q < nq; q++) {
        int32_t i = r->queue[q];
        if (st || !r->j[i].cpu_only) {
            r->queue[kept++] = i;
            continue;
        }
        int placed = 0, ever = 0;
        for (int32_t m = 0; m < s->nmachines && !placed && !st; m++) {
            pl_plan_item *plan = NULL;
            int32_t n = 0;
            int fits = 0;
            /* A machine without a package has nowhere to host a CPU task. */
            if (s->mach_pkg_start[m] == s->mach_pkg_start[m + 1] ||
                (st = fit(r, r->j[i].job, m, 1, NULL, NULL, &fits)) || !fits)
                continue;
            ever = 1;
            if ((st = fit(r, r->j[i].job, m, 0, &plan, &n, &fits)) || !fits)
                continue;
            placed = 1;
            pl_decision *d = NULL;
            if (!(st = cpu_decision(r, i, m, plan, n, &d)))
                st = pl_sim_commit(r, i, d, 0, NULL, 0, m, 1.0, t);
            pl_decision_free(d);
            free(plan);
        }
        if (!st && !placed && !ever)
            pl_sim_reject(r, i);
        else if (!st && !placed)
            r->queue[kept++] = i;
    }
    r->nqueue = kept;
    return st;
}
