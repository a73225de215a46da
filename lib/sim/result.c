/* Reading a run's result: records, summary, decision times, the
 * utilisation time series and their CSV forms. */
#include <stdlib.h>
#include "sim_impl.h"
#include "internal/columns.h"

/* ---- results ----------------------------------------------------------------- */

/* The arrays a result owns (of different lengths: records, decision times,
 * samples). */
static const pl_column owned[] = {
    PL_COLUMN(pl_sim_result, rec), PL_COLUMN(pl_sim_result, dtimes), PL_COLUMN(pl_sim_result, tl)};

void pl_sim_result_free(pl_sim_result *res)
{
    if (!res)
        return;
    pl_columns_free(res, owned, PL_NCOLUMNS(owned));
    free(res);
}

int32_t pl_sim_result_count(const pl_sim_result *res)
{
    return res ? res->n : 0;
}

pl_status pl_sim_result_job(const pl_sim_result *res, int32_t i, pl_sim_job_record *rec)
{
    if (!res || !rec || i < 0 || i >= res->n)
        return pl_err(PL_EINVAL, "pl_sim_result_job: bad arguments (index %d)", (int)i);
    *rec = res->rec[i];
    return PL_OK;
}

pl_status pl_sim_result_summary(const pl_sim_result *res, pl_sim_summary *sum)
{
    if (!res || !sum)
        return pl_err(PL_EINVAL, "pl_sim_result_summary: NULL argument");
    *sum = res->sum;
    return PL_OK;
}

const double *pl_sim_result_decision_times(const pl_sim_result *res, int64_t *n)
{
    if (n)
        *n = res ? res->ndtimes : 0;
    return res ? res->dtimes : NULL;
}

static const char *state_name(pl_sim_job_state s)
{
    return s == PL_SIM_DONE ? "done" : s == PL_SIM_REJECTED ? "rejected" : "unfinished";
}

/* The CSV writers' frame: the arguments, the header line, one line a row,
 * write errors. */
typedef void csv_row_fn(FILE *f, const pl_sim_result *res, int64_t i);

static pl_status write_csv(const char *fn, const pl_sim_result *res, FILE *f, const char *header, int64_t rows,
                           csv_row_fn *row)
{
    if (!res || !f)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    fputs(header, f);
    for (int64_t i = 0; i < rows; i++)
        row(f, res, i);
    if (ferror(f))
        return pl_err(PL_EIO, "%s: write error", fn);
    return PL_OK;
}

static void job_row(FILE *f, const pl_sim_result *res, int64_t i)
{
    const pl_sim_job_record *r = &res->rec[i];
    fprintf(f, "%d,%s,%s,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%d,%d,%d\n", (int)r->job, r->name,
            state_name(r->state), (int)r->ngpus, r->arrival, r->start, r->finish, r->wait, r->run_time,
            r->ideal_time, r->slowdown, r->utility, r->min_utility, r->below_min_utility, r->cross_socket,
            (int)r->machine);
}

pl_status pl_sim_result_write_csv(const pl_sim_result *res, FILE *f)
{
    static const char header[] = "job,name,state,gpus,arrival,start,finish,wait,run_time,ideal_time,slowdown,"
                                 "utility,min_utility,below_min_utility,cross_socket,machine\n";
    return write_csv("pl_sim_result_write_csv", res, f, header, pl_sim_result_count(res), job_row);
}

int64_t pl_sim_result_timeline_count(const pl_sim_result *res)
{
    return res ? res->ntl : 0;
}

pl_status pl_sim_result_timeline(const pl_sim_result *res, int64_t i, pl_sim_sample *out)
{
    if (!res || !out || i < 0 || i >= res->ntl)
        return pl_err(PL_EINVAL, "pl_sim_result_timeline: bad arguments (index %lld)", (long long)i);
    *out = res->tl[i];
    return PL_OK;
}

static void sample_row(FILE *f, const pl_sim_result *res, int64_t i)
{
    const pl_sim_sample *p = &res->tl[i];
    fprintf(f, "%.6f,%d,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%d\n", p->time, (int)p->running, (int)p->queued,
            (int)p->gpus_used, (int)p->gpus_failed, p->gpu_util, p->core_util, p->nvme_util, p->fragmentation,
            (int)p->remote_gpus);
}

pl_status pl_sim_result_write_timeline_csv(const pl_sim_result *res, FILE *f)
{
    static const char header[] = "time,running,queued,gpus_used,gpus_failed,gpu_util,core_util,nvme_util,"
                                 "fragmentation,remote_gpus\n";
    return write_csv("pl_sim_result_write_timeline_csv", res, f, header, pl_sim_result_timeline_count(res),
                     sample_row);
}
