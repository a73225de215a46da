/* A job's solo run time from the profiles, as the simulator and DRMaestro
 * estimate it. */
#include "internal/interference_impl.h"

pl_status pl_profile_solo_time(const pl_profile_set *ps, const pl_job *job, int32_t k, pl_spread spread,
                               double *out)
{
    const char *type = pl_job_workload_type(job), *size = pl_job_workload_size(job);
    double t = 0, other = 0, in2 = 0, out2 = 0;
    if (*type && pl_profile_set_solo(ps, type, size, k, spread, &t) == PL_OK) {
        *out = t;
        return PL_OK;
    }
    pl_spread os = spread == PL_SPREAD_INTRA_SOCKET ? PL_SPREAD_INTER_SOCKET : PL_SPREAD_INTRA_SOCKET;
    if (*type && pl_profile_set_solo(ps, type, size, k, os, &other) == PL_OK) {
        double ratio = 1;
        if (pl_profile_set_solo(ps, type, size, 2, PL_SPREAD_INTRA_SOCKET, &in2) == PL_OK &&
            pl_profile_set_solo(ps, type, size, 2, PL_SPREAD_INTER_SOCKET, &out2) == PL_OK)
            ratio = spread == PL_SPREAD_INTER_SOCKET ? out2 / in2 : in2 / out2;
        *out = other * ratio;
        return PL_OK;
    }
    if (pl_job_duration(job) > 0) {
        *out = pl_job_duration(job);
        return PL_OK;
    }
    return pl_err(PL_EINVAL, "job %s (%s/%s, %d GPUs) has no profiled solo time and no "
                  "duration", pl_job_name(job), type, size, (int)k);
}
