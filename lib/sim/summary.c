/* The aggregates of a run (pl_sim_summary; doc/simulator.md sec. 5). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"

/* Relative tolerance of "slower than ideal": float noise, not a slowdown. */
#define SLOWER_EPS 1e-6

/* Nearest-rank percentile of a sorted array. */
static double percentile(const double *v, int64_t n, double p)
{
    if (n == 0)
        return 0;
    int64_t rank = (int64_t)ceil(p / 100.0 * (double)n);
    if (rank < 1)
        rank = 1;
    return v[rank - 1];
}

pl_status pl_sim_summarise(const pl_sim *s, pl_sim_result *res)
{
    pl_sim_summary *m = &res->sum;
    memset(m, 0, sizeof *m);
    m->jobs = res->n;
    double first = INFINITY, last = -INFINITY, wsum = 0, tsum = 0, ssum = 0;
    for (int32_t i = 0; i < res->n; i++) {
        const pl_sim_job_record *rec = &res->rec[i];
        if (rec->arrival < first)
            first = rec->arrival;
        double slo = pl_job_slo(pl_jobset_get(s->jobs, i));
        if (rec->state == PL_SIM_REJECTED)
            m->rejected++;
        if (rec->state == PL_SIM_UNFINISHED)
            m->unfinished++;
        if (rec->state != PL_SIM_DONE) {
            m->slo_violations += slo > 0;
            continue;
        }
        m->done++;
        if (rec->finish > last)
            last = rec->finish;
        wsum += rec->wait;
        tsum += rec->finish - rec->arrival;
        ssum += rec->slowdown;
        if (rec->wait > m->max_wait)
            m->max_wait = rec->wait;
        if (rec->slowdown > m->max_slowdown)
            m->max_slowdown = rec->slowdown;
        m->slower_than_ideal += rec->slowdown > 1 + SLOWER_EPS;
        m->below_min_utility += rec->below_min_utility;
        m->remote_jobs += rec->remote_gpus > 0;
        m->shared_jobs += rec->shared_gpu != 0;
        m->qos_violations += rec->slowdown > 1 + PL_SIM_QOS_TOLERANCE;
        m->slo_violations += slo > 0 && rec->finish - rec->arrival > slo;
    }
    if (m->done > 0) {
        m->makespan = last - first;
        m->mean_wait = wsum / m->done;
        m->mean_turnaround = tsum / m->done;
        m->mean_slowdown = ssum / m->done;
        pl_sim_metrics_summarise(res, first, last);
    }
    m->rounds = res->ndtimes;
    if (res->ndtimes > 0) {
        double *v = pl_alloc((size_t)res->ndtimes, sizeof *v);
        if (!v)
            return PL_ENOMEM;
        memcpy(v, res->dtimes, (size_t)res->ndtimes * sizeof *v);
        qsort(v, (size_t)res->ndtimes, sizeof *v, pl_cmp_double);
        double sum = 0;
        for (int64_t i = 0; i < res->ndtimes; i++)
            sum += v[i];
        m->decision_mean = sum / (double)res->ndtimes;
        m->decision_p50 = percentile(v, res->ndtimes, 50);
        m->decision_p90 = percentile(v, res->ndtimes, 90);
        m->decision_p99 = percentile(v, res->ndtimes, 99);
        m->decision_max = v[res->ndtimes - 1];
        free(v);
    }
    return PL_OK;
}

