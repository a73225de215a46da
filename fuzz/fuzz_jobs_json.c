/* libFuzzer harness: JSON job loader and SC17 workload loader on the same
 * bytes, then a walk over the loaded jobs. */
#include <stddef.h>
#include <stdint.h>

#include <placement/job.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const pl_jobset *set)
{
    int32_t n = pl_jobset_count(set);
    for (int32_t i = 0; i < n; i++) {
        const pl_job *job = pl_jobset_get(set, i);
        pl_task_demand total;
        (void)pl_job_total_demand(job, &total);
        int32_t edges = pl_job_edge_count(job);
        for (int32_t e = 0; e < edges && e < 64; e++) {
            pl_job_edge_info info;
            (void)pl_job_edge(job, e, &info);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* size 0 means strlen to the loaders. */
    if (size == 0)
        return 0;
    pl_jobset *set = NULL;
    if (pl_jobset_load_json_string((const char *)data, size, &set) == PL_OK) {
        walk(set);
        pl_jobset_free(set);
    }
    set = NULL;
    if (pl_jobset_load_sc17_string((const char *)data, size, &set) == PL_OK) {
        walk(set);
        pl_jobset_free(set);
    }
    return 0;
}
