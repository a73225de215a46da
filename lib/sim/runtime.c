/* The run-time model (doc/simulator.md sec. 3): solo times from the
 * profiles, interference from socket neighbours and GPU co-tenants,
 * progress-based or the SC17 artifact's rescheduling of a job's finish. */
#include <math.h>
#include "sim_impl.h"

/* Profile solo time, with the missing spread estimated from the 2-GPU ratio. */
pl_status pl_sim_solo_time(const pl_sim *s, const pl_job *job, int32_t k, pl_spread spread,
                           double *out)
{
    const char *type = pl_job_workload_type(job), *size = pl_job_workload_size(job);
    double t = 0, other = 0, in2 = 0, out2 = 0;
    if (*type && pl_profile_set_solo(s->ps, type, size, k, spread, &t) == PL_OK) {
        *out = t;
        return PL_OK;
    }
    pl_spread os = spread == PL_SPREAD_INTRA_SOCKET ? PL_SPREAD_INTER_SOCKET : PL_SPREAD_INTRA_SOCKET;
    if (*type && pl_profile_set_solo(s->ps, type, size, k, os, &other) == PL_OK) {
        double ratio = 1;
        if (pl_profile_set_solo(s->ps, type, size, 2, PL_SPREAD_INTRA_SOCKET, &in2) == PL_OK &&
            pl_profile_set_solo(s->ps, type, size, 2, PL_SPREAD_INTER_SOCKET, &out2) == PL_OK)
            ratio = spread == PL_SPREAD_INTER_SOCKET ? out2 / in2 : in2 / out2;
        *out = other * ratio;
        return PL_OK;
    }
    if (pl_job_duration(job) > 0) {
        *out = pl_job_duration(job);
        return PL_OK;
    }
    return pl_err(PL_EINVAL, "simulator: job %s (%s/%s, %d GPUs) has no profiled solo time and no "
                  "duration", pl_job_name(job), type, size, (int)k);
}

/* Largest slowdown of job i against a job on one of its sockets (>= 1); a
 * co-tenant of one of its GPUs also costs the device side, the share factor
 * (sec. 3c). */
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
            if (pl_sim_cotenant(r, a, o))
                sd = (sd > 1 ? sd : 1) * r->s->opts.gpu_share_factor;
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

