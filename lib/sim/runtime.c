/* The run-time model (doc/simulator.md sec. 3): solo times from the
 * profiles, interference from socket neighbours and GPU co-tenants,
 * progress-based or the SC17 artifact's rescheduling of a job's finish. */
#include <math.h>
#include "sim_impl.h"

/* A remote GPU's job keeps two network links busy (its machine's and the
 * GPU's) for its isolated network share of the time; a link saturated as
 * by the thesis' iperf co-runner is load 1. The load is the mean over the
 * machines' links (doc/drmaestro.md, "Network load"). */
double pl_sim_network_load(const srun *r)
{
    double l = r->s->nmachines > 0 ? 2 * r->remote_traffic / r->s->nmachines : 0;
    return l < 1 ? l : 1;
}

/* The compute part is unchanged and the network part grows with the load
 * (pl_drm_network_factors: the factor at load 0 and at load 1, linear in
 * between). */
double pl_sim_remote_factor(const srun *r, const sjob *a)
{
    return a->remote > 0 ? a->sf0 + pl_sim_network_load(r) * (a->sf1 - a->sf0) : 1;
}

/* The usage-pattern factors of a pair of classes are replayed once per run,
 * at the pair's first co-tenancy (both orders at once). */
pl_status pl_sim_share_factor(srun *r, const sjob *a, int32_t o, double *f)
{
    const sjob *b = &r->j[o];
    const pl_gpu_usage *u = r->s->usage;
    if (!u || a->uclass < 0 || b->uclass < 0) {
        *f = r->s->opts.gpu_share_factor;
        return PL_OK;
    }
    int64_t n = u->n;
    if (!r->usage_factor) {
        if (!(r->usage_factor = pl_alloc((size_t)(n * n), sizeof *r->usage_factor)))
            return PL_ENOMEM;
        for (int64_t q = 0; q < n * n; q++)
            r->usage_factor[q] = NAN;
    }
    double *ab = &r->usage_factor[a->uclass * n + b->uclass], *ba = &r->usage_factor[b->uclass * n + a->uclass];
    if (isnan(*ab)) {
        pl_status st = pl_gpu_usage_pair(u, a->uclass, b->uclass, ab, ba);
        if (st)
            return st;
    }
    *f = *ab;
    return PL_OK;
}

/* Largest slowdown of job i against a job on one of its sockets (>= 1); a
 * co-tenant of one of its GPUs also costs the device side, the share factor
 * or the usage-pattern model's (sec. 3c). */
static pl_status interference(srun *r, int32_t i, double *slow)
{
    sjob *a = &r->j[i];
    double worst = 1;
    for (int32_t q = 0; q < a->nsock; q++) {
        int32_t sk = a->sockets[q];
        for (int32_t m = 0; m < r->sock_n[sk]; m++) {
            int32_t o = r->sock_jobs[sk][m];
            if (o == i)
                continue;
            const pl_job *b = r->j[o].job;
            double sd = 1;
            pl_status st = pl_profile_set_slowdown(r->s->ps, pl_job_workload_type(a->job),
                                                   pl_job_workload_size(a->job), a->k,
                                                   pl_job_workload_type(b), pl_job_workload_size(b),
                                                   r->j[o].k, &sd);
            if (st)
                return st;
            /* Unprofiled pair: the Rodinia co-location model (1 for other types). */
            if (sd == 1)
                sd = pl_drm_coloc_slowdown(pl_job_workload_type(a->job), pl_job_workload_type(b));
            if (pl_sim_cotenant(r, a, o)) {
                double f;
                if ((st = pl_sim_share_factor(r, a, o, &f)))
                    return st;
                sd = (sd > 1 ? sd : 1) * f;
            }
            if (sd > worst)
                worst = sd;
        }
    }
    *slow = worst;
    return PL_OK;
}

/* Bring job i's progress up to time t at its old speed, take the new speed
 * and schedule its finish. */
pl_status pl_sim_reschedule(srun *r, int32_t i, double t)
{
    sjob *a = &r->j[i];
    if (r->s->opts.runtime == PL_SIM_RUNTIME_ARTIFACT) {
        double sd;
        pl_status st = interference(r, i, &sd);
        if (st)
            return st;
        if (sd <= a->slow && a->scheduled)
            return PL_OK;
        if (sd > a->slow)
            a->slow = sd;
        double total = a->intra * a->slow > a->solo ? a->intra * a->slow : a->solo;
        a->scheduled = 1;
        a->version++;
        return pl_sim_heap_push(&r->heap, a->start + total, PL_SIM_EV_FINISH, i, a->version);
    }
    a->remaining -= (t - a->last) / (a->solo * a->slow * a->net);
    if (a->remaining < 0)
        a->remaining = 0;
    a->last = t;
    pl_status st = interference(r, i, &a->slow);
    if (st)
        return st;
    a->net = pl_sim_remote_factor(r, a);
    a->version++;
    return pl_sim_heap_push(&r->heap, t + a->remaining * a->solo * a->slow * a->net, PL_SIM_EV_FINISH, i,
                            a->version);
}

pl_status pl_sim_update_remote(srun *r, double t)
{
    for (int32_t q = 0; q < r->nremote_jobs; q++) {
        pl_status st = pl_sim_reschedule(r, r->remote_jobs[q], t);
        if (st)
            return st;
    }
    return PL_OK;
}

/* Reschedule every running job sharing a socket with job i (and i itself
 * when include_self). */
pl_status pl_sim_update_neighbours(srun *r, int32_t i, double t, int include_self)
{
    r->mark_gen++;
    r->mark[i] = r->mark_gen;
    sjob *a = &r->j[i];
    for (int32_t q = 0; q < a->nsock; q++) {
        int32_t sk = a->sockets[q];
        for (int32_t m = 0; m < r->sock_n[sk]; m++) {
            int32_t o = r->sock_jobs[sk][m];
            if (r->mark[o] == r->mark_gen)
                continue;
            r->mark[o] = r->mark_gen;
            pl_status st = pl_sim_reschedule(r, o, t);
            if (st)
                return st;
        }
    }
    return include_self ? pl_sim_reschedule(r, i, t) : PL_OK;
}

