/* Soak of the allocation path a long-running scheduler takes: place a job
 * with a policy, commit the decision, release a running job, millions of
 * times, checking every step (bench/soak.c; the short version is
 * tests/bench/test_soak.c), all through the public allocation lifecycle
 * (placement/sched.h: pl_sched_place, pl_sched_commit, pl_sched_release). */
#ifndef PL_BENCH_SOAK_H
#define PL_BENCH_SOAK_H

#include <stdint.h>
#include <placement/placement.h>

typedef struct pl_soak_opts {
    int32_t machines;        /* Minsky machines (4 GPUs each); every other one has 2-unit GPUs */
    int64_t cycles;          /* place/commit/release cycles */
    double load;             /* target share of GPU units held, in (0, 1) */
    uint64_t seed;
    const char *policy;      /* any registered policy name */
    int64_t warmup;          /* cycles before the RSS baseline is taken (default cycles / 10) */
    int64_t rss_every;       /* cycles between RSS samples (0: only at warm-up and the end) */
} pl_soak_opts;

typedef struct pl_soak_result {
    int64_t cycles;          /* cycles run */
    int64_t placed;          /* jobs committed */
    int64_t released;        /* jobs released (all of them by the end) */
    int64_t not_placed;      /* decisions other than placed (waiting, rejected, ...) */
    int64_t shared_tasks;    /* tasks committed on a GPU another job held too */
    int64_t double_booked;   /* a GPU over its units, or one GPU twice in a job: must be 0 */
    int64_t leaked;          /* vertex/resource pairs whose free amount differs at the end: must be 0 */
    int64_t rss_start_kb;    /* RSS after warm-up */
    int64_t rss_end_kb;      /* RSS at the end */
    int64_t rss_max_kb;      /* largest sample after warm-up */
    double seconds;          /* wall time of the cycles */
} pl_soak_result;

void pl_soak_opts_init(pl_soak_opts *o);

/* Run the soak. PL_OK with *res filled when every step succeeded (the
 * counters then say whether the invariants held); a library error
 * otherwise, with pl_last_error() (and *res up to that point). */
pl_status pl_soak_run(const pl_soak_opts *o, pl_soak_result *res);

#endif
