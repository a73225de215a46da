/* libFuzzer harness: the simulator's workload trace loader (CSV, its JSON
 * form and SC17 workloads, told apart by the text), then a walk over every
 * job and the per-job priority and startup-delay arrays. */
#include <stddef.h>
#include <stdint.h>

#include <placement/job.h>
#include <placement/sim.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* size 0 means strlen to the loader. */
    if (size == 0)
        return 0;
    pl_sim_trace *trace = NULL;
    if (pl_sim_trace_load_string((const char *)data, size, "fuzz", &trace) != PL_OK)
        return 0;
    const pl_jobset *jobs = pl_sim_trace_jobs(trace);
    const double *prio = pl_sim_trace_priorities(trace);
    const double *delay = pl_sim_trace_startup_delays(trace);
    volatile double sink = 0;
    int32_t n = pl_jobset_count(jobs);
    for (int32_t i = 0; i < n; i++) {
        pl_task_demand total;
        (void)pl_job_total_demand(pl_jobset_get(jobs, i), &total);
        sink += (prio ? prio[i] : 0) + (delay ? delay[i] : 0) + (double)total.gpus;
    }
    (void)sink;
    (void)pl_sim_trace_format(trace);
    pl_sim_trace_free(trace);
    return 0;
}
