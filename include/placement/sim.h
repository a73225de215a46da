/**
 * \file placement/sim.h
 * \brief Trace-driven cluster simulator: replay a workload (jobs with
 *        arrival times) on a topology under a placement policy and measure
 *        waits, run times, slowdowns and decision times (doc/simulator.md).
 *
 * Discrete events on a binary heap, ordered by (time, kind, sequence
 * number): job finishes first, then device failures, repairs, task starts,
 * arrivals, and scheduling rounds last, ties in insertion order, so a run is
 * a pure function of its inputs (the decision times, measured with the wall
 * clock, are the only non-deterministic output and are not in the per-job
 * records).
 *
 * - Arrival: the job joins the queue (ordered by priority, then arrival,
 *   then index).
 * - Task start: the end of a job's startup delay (pl_sim_opts.startup_delay):
 *   it begins progressing and interfering.
 * - Device failure / repair (pl_sim_opts.failures): the GPU's job is killed
 *   and re-queued; the GPU is unavailable until repaired.
 * - Scheduling round at every multiple of opts.interval (default 1 s, the
 *   SC17 artifact's) at or after a change (an arrival or a finish) while the
 *   queue is not empty: pl_policy_place() over the queue and the running
 *   jobs. Ticks where nothing changed since the previous round are skipped:
 *   the policies are deterministic functions of that state, so such a round
 *   would decide the same. PLACED jobs start at the round's time; REJECTED
 *   ones leave the queue; POSTPONED and WAITING ones stay, in arrival order.
 * - Job finish: its resources are released and its neighbours' speeds are
 *   recomputed.
 *
 * Run-time model (progress-based). A job's solo time T is the profile's
 * solo time for its type, size and GPU count, intra-socket when all its GPUs
 * share one socket and inter-socket otherwise; a spread the profile lacks
 * (the SC17 profile has no inter-socket time for 3 GPUs) is the other
 * spread's time times the same workload's 2-GPU inter/intra ratio; a job
 * without a profile uses pl_job_duration(). While it runs, it progresses at
 * rate 1 / (T x s), s = the largest profile slowdown against a job holding a
 * GPU on one of its sockets (pl_profile_set_slowdown(); values below 1 count
 * as 1). s is recomputed, and the remaining work rescaled, whenever a
 * neighbour starts or finishes.
 *
 * Allocation check: every GPU is held by at most as many jobs as its
 * ::PL_RES_UNITS capacity (one job for the usual 1-unit GPU; a GPU of 2
 * units can be shared by two jobs, MPS-like). A decision that gives a GPU
 * already held that many times (by running jobs or by other jobs of the same
 * round), names a GPU twice for one job, or gives resources that are not
 * free, makes pl_sim_run() fail with ::PL_EINTERNAL.
 *
 * Shared GPUs: a job holding a GPU together with another running job is
 * slowed against that co-tenant by max(1, profile slowdown) x
 * pl_sim_opts.gpu_share_factor, or with ::PL_SIM_GPU_SHARE_USAGE by the
 * pair's factor from the usage-pattern model (doc/simulator.md sec. 3c); a
 * shared GPU counts once in the GPUs used.
 */
#ifndef PLACEMENT_SIM_H
#define PLACEMENT_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <placement/status.h>
#include <placement/topology.h>
#include <placement/job.h>
#include <placement/interference.h>
#include <placement/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_sim Trace-driven simulator
 *  @{ */

/** Opaque simulator: a topology, a workload and options. */
typedef struct pl_sim pl_sim;
/** Opaque result of one run. */
typedef struct pl_sim_result pl_sim_result;

/** How a running job's time follows its neighbours. */
typedef enum pl_sim_runtime {
    PL_SIM_RUNTIME_PROGRESS = 0, /**< Default: the file comment's progress-based model. */
    PL_SIM_RUNTIME_ARTIFACT = 1  /**< The SC17 artifact's (its defect 7, for comparison only): run time =
                                      max(solo time, intra-socket solo time x the largest slowdown against
                                      any neighbour seen since the start); it only grows and ignores progress. */
} pl_sim_runtime;

/** Device-side factor of jobs sharing a GPU (doc/simulator.md sec. 3c). */
typedef enum pl_sim_gpu_share_model {
    PL_SIM_GPU_SHARE_CONSTANT = 0, /**< Default: pl_sim_opts.gpu_share_factor for every co-tenant. */
    PL_SIM_GPU_SHARE_USAGE = 1     /**< The usage-pattern model (seed 003 ch. 5): a job whose workload type
                                        has a usage pattern (kernel and memcopy iteration), sharing with a
                                        job that has one too, is slowed by its iteration time when the two
                                        iterations run together on one GPU over its solo iteration time;
                                        a pair where either job has none keeps gpu_share_factor. */
} pl_sim_gpu_share_model;

/**
 * One device failure of a failure trace: the GPU goes down at \c time; the
 * job holding it, if any, is killed and re-queued (it restarts from scratch
 * when placed again); no policy gets the GPU until it is repaired.
 */
typedef struct pl_sim_failure {
    double time;             /**< When the GPU fails, seconds (>= 0). */
    int32_t gpu;             /**< The GPU vertex of the simulator's topology. */
    double repair;           /**< Seconds from the failure until the GPU is back; 0 or infinite: never. */
} pl_sim_failure;

/**
 * Progress report of pl_sim_run() (the library never prints: a program
 * that wants a progress bar draws it in this callback).
 * \param data pl_sim_opts.progress_data.
 * \param settled jobs done or rejected so far.
 * \param total jobs in the workload.
 * \param sim_time the simulated time, seconds.
 * Called from the thread running pl_sim_run(), each time settled crosses a
 * thousandth of total (so at most about 1000 times a run), and once at the
 * end; it must not call back into the simulator.
 */
typedef void (*pl_sim_progress_fn)(void *data, int32_t settled, int32_t total, double sim_time);

/**
 * Largest number of seconds a time option (interval, startup delays) or a
 * trace's time field (arrival, duration, deadline, startup) may hold: 1e10
 * s, 317 years, so that Unix timestamps (1.8e9 in 2027) fit. Simulated times
 * are doubles; below this they keep about two microseconds, where 1e17 s
 * would already round a 10 s run to 16 s.
 */
#define PL_SIM_MAX_SECONDS 1e10

/** Options of a run; initialise with pl_sim_opts_init(). */
typedef struct pl_sim_opts {
    pl_policy_opts policy;   /**< Policy name, utility, profiles (NULL: built in), seed. */
    double interval;         /**< Seconds between scheduling rounds (default 1; >= 0, <= ::PL_SIM_MAX_SECONDS).
                                  0: a round at the time of the events that ask for one (after every event of
                                  that time), and no idle rounds (pl_policy_ops::idle_rounds). */
    pl_sim_runtime runtime;  /**< Default ::PL_SIM_RUNTIME_PROGRESS. */
    /* Appended after the first release. Arrays are borrowed: they must
     * outlive the simulator (pl_sim_create() does not copy them). */
    double startup_delay;    /**< Seconds from a job's placement to the start of its tasks, for every job
                                  (default 0; at most ::PL_SIM_MAX_SECONDS): it holds its resources meanwhile, neither progressing nor
                                  slowing its neighbours (a task-start event ends the delay). */
    const double *job_startup_delay; /**< [jobs] per-job startup delays replacing startup_delay, or NULL. */
    const double *job_priority;      /**< [jobs] queue priorities, or NULL (all 0): the queue is ordered by
                                          priority (higher first), then arrival, then workload index. */
    const pl_sim_failure *failures;  /**< [nfailures] device failures, any order, or NULL. */
    int32_t nfailures;               /**< Length of failures. */
    pl_sim_progress_fn progress;     /**< Progress callback, or NULL (default). */
    void *progress_data;             /**< Passed to progress. */
    double gpu_share_factor;         /**< Device-side factor of GPU sharing (>= 1, finite; default
                                          ::PL_SIM_GPU_SHARE_FACTOR): a job that holds a GPU together with
                                          another running job (possible only on a GPU whose ::PL_RES_UNITS
                                          capacity is >= 2) is slowed against it by max(1, profile slowdown)
                                          x this factor instead of the profile slowdown alone. 1 charges a
                                          co-tenant what a socket neighbour costs (the gpu-qos predictor's
                                          assumption); 2 is pure time slicing of two compute-bound jobs.
                                          Without shared GPUs it changes nothing. */
    /* Taken from the reserved tail (the size is unchanged on 64-bit targets:
     * 4 + 4 + 8 + 2 x 8 bytes = the former reserved[4]; lib/sim/sim.c
     * asserts it). */
    pl_sim_gpu_share_model gpu_share_model; /**< Device-side factor of co-tenants (default
                                          ::PL_SIM_GPU_SHARE_CONSTANT: gpu_share_factor for every pair). */
    int32_t reserved_i32;            /**< Zero, unused. */
    const char *usage_traces;        /**< ::PL_SIM_GPU_SHARE_USAGE: path of a usage-pattern CSV adding
                                          (or replacing, by workload name) iterations to the built-in
                                          Table 5.1 ones (doc/simulator.md sec. 3c); NULL: the built-in
                                          ones only. Read by pl_sim_create(). Ignored by the constant model. */
    uint64_t reserved[2];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_sim_opts;

/**
 * Default pl_sim_opts.gpu_share_factor: 1 + the mean slowdown of the three
 * latency-sensitive models of Kim's thesis (seed 003, ch. 5 sec. 4.2, Fig. 7 text)
 * sharing a GPU with a batch model without kernel split (Resnet32 36.38 %,
 * Alexnet 28.95 %, Trivial 16.78 %; mean 27.37 %). The profiles measure
 * socket neighbours (host-side interference only); this is the device side.
 */
#define PL_SIM_GPU_SHARE_FACTOR 1.2737

/** A done job violates its QoS (pl_sim_summary::qos_violations) when its
 *  slowdown exceeds 1 + this: a 5 % margin for the run-to-run noise a
 *  testbed's "slowdown" carries (doc/drmaestro.md, "QoS violations"). */
#define PL_SIM_QOS_TOLERANCE 0.05

/** \brief Defaults: pl_policy_opts_init() (topo-aware), interval 1 s, progress-based run times,
 *         no startup delay, no priorities, no failures, no progress callback,
 *         GPU share factor ::PL_SIM_GPU_SHARE_FACTOR, constant share model, no usage traces. */
void pl_sim_opts_init(pl_sim_opts *opts);

/** What happened to a job. */
typedef enum pl_sim_job_state {
    PL_SIM_DONE = 0,         /**< Ran to completion. */
    PL_SIM_REJECTED = 1,     /**< The policy rejected it (can never fit). */
    PL_SIM_UNFINISHED = 2    /**< Still queued when no event was left (never placed). */
} pl_sim_job_state;

/** One job's record (strings owned by the workload's jobs). */
typedef struct pl_sim_job_record {
    int32_t job;             /**< Index in the workload. */
    const char *name;        /**< The job's name. */
    pl_sim_job_state state;  /**< What happened to it. */
    int32_t ngpus;           /**< GPUs it needs (one per task). */
    double arrival;          /**< Arrival time, seconds. */
    double start;            /**< Start time, seconds; -1 if not run. */
    double finish;           /**< Finish time, seconds; -1 if not run. */
    double wait;             /**< start - arrival. */
    double run_time;         /**< finish - start. */
    double ideal_time;       /**< Solo time of the best spread the machine allows (intra-socket if its
                                  sockets can hold the job's GPUs, else inter-socket). */
    double slowdown;         /**< run_time / ideal_time. */
    double utility;          /**< Job utility of the placement (decision's utility). */
    double min_utility;      /**< pl_job_min_utility(). */
    int below_min_utility;   /**< utility < min_utility. */
    int cross_socket;        /**< Its GPUs span several sockets. */
    int32_t machine;         /**< Machine ordinal (preorder among the machines: "node<i>" of a
                                  pl_topology_cluster()), -1 if several or not run. */
    /* Appended after the first release. */
    double placed;           /**< Time of the decision that placed it (start - its startup delay); -1 if not run. */
    int32_t restarts;        /**< Times a device failure killed it (it was re-queued each time). */
    double priority;         /**< Its queue priority (pl_sim_opts.job_priority). */
    int32_t remote_gpus;     /**< GPUs it used on another machine than its task's (DRMaestro's
                                  disaggregation; its run time then pays the network penalty). */
    int shared_gpu;          /**< 1 if another job held one of its GPUs at the same time during the run
                                  that completed (a GPU of units capacity >= 2), else 0. */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_sim_job_record;

/** Aggregates of a run (doc/simulator.md defines each). */
typedef struct pl_sim_summary {
    int32_t jobs;            /**< Jobs in the workload. */
    int32_t done;            /**< Jobs that ran to completion. */
    int32_t rejected;        /**< Jobs the policy rejected. */
    int32_t unfinished;      /**< Jobs never placed. */
    double makespan;         /**< Last finish - first arrival (the SC17 paper's "cumulative execution time"). */
    double mean_wait;        /**< Mean start - arrival over the done jobs, seconds. */
    double max_wait;         /**< Largest start - arrival over the done jobs, seconds. */
    double mean_turnaround;  /**< Mean finish - arrival. */
    double mean_slowdown;    /**< Mean slowdown (run_time / ideal_time) over the done jobs. */
    double max_slowdown;     /**< Largest slowdown over the done jobs. */
    int32_t slower_than_ideal;   /**< Done jobs with slowdown > 1 + 1e-6. */
    int32_t below_min_utility;   /**< Jobs placed with utility below their minimal utility. */
    int32_t slo_violations;      /**< Jobs with an SLO whose finish - arrival exceeds it. */
    int64_t rounds;              /**< Policy calls. */
    double decision_mean;        /**< Mean seconds per policy call. */
    double decision_p50;         /**< Median seconds per policy call. */
    double decision_p90;         /**< 90th percentile of seconds per policy call. */
    double decision_p99;         /**< 99th percentile of seconds per policy call. */
    double decision_max;         /**< Slowest policy call, seconds. */
    double wall_time;            /**< Seconds pl_sim_run() took. */
    /* Appended after the first release; time-weighted means of the time
     * series (pl_sim_result_timeline()) from the first arrival to the last
     * finish of a done job (0 when no job is done). */
    double mean_gpu_util;        /**< Mean of ::pl_sim_sample.gpu_util. */
    double mean_core_util;       /**< Mean of ::pl_sim_sample.core_util (-1 when no package models cores). */
    double mean_nvme_util;       /**< Mean of ::pl_sim_sample.nvme_util (-1 when the topology has no storage bandwidth). */
    double mean_fragmentation;   /**< Mean of ::pl_sim_sample.fragmentation. */
    int32_t failures;            /**< Device failures that happened during the run. */
    int32_t jobs_killed;         /**< Jobs killed by a failure (a job killed twice counts twice). */
    double lost_gpu_seconds;     /**< Work thrown away by the kills: (kill time - placement) x GPUs, summed. */
    int32_t remote_jobs;         /**< Done jobs that used a remote GPU. */
    int32_t shared_jobs;         /**< Done jobs that shared a GPU with another job (::pl_sim_job_record.shared_gpu). */
    int32_t qos_violations;      /**< Done jobs whose run time exceeds their ideal time by more than
                                      ::PL_SIM_QOS_TOLERANCE (seed 004's "jobs that suffered slowdown"). */
    int32_t reserved_i32;        /**< Zero, unused (keeps the size of the first release). */
    uint64_t reserved[3];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_sim_summary;

/**
 * One point of the utilisation time series: the cluster's state from
 * \c time until the next point's time (the last point: until the end of
 * the run). doc/simulator.md defines each field.
 */
typedef struct pl_sim_sample {
    double time;             /**< Seconds. */
    int32_t running;         /**< Jobs holding resources (placed and not yet finished). */
    int32_t queued;          /**< Jobs waiting in the queue. */
    int32_t gpus_used;       /**< GPUs allocated (by jobs or as background load of the topology given to pl_sim_create());
                                  a GPU shared by several jobs counts once. */
    int32_t gpus_failed;     /**< GPUs down after a device failure (not counted in gpus_used). */
    double gpu_util;         /**< gpus_used / all GPUs of the topology. */
    double core_util;        /**< Allocated / total ::PL_RES_CORES over the packages; -1 when no package models cores. */
    double nvme_util;        /**< Allocated / total ::PL_RES_BANDWIDTH over the storage devices; -1 when there is none. */
    double fragmentation;    /**< Fraction of the free GPUs (in machines) that sit on a machine that cannot hold the
                                  reference job (median GPUs and cores of the workload's GPU jobs); 0 when no GPU is free. */
    int32_t remote_gpus;     /**< GPUs serving a running task on another machine; / all GPUs = the network load. */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_sim_sample;

/**
 * \brief Create a simulator.
 * \param topo copied (its current allocations are kept as background load).
 * \param jobs borrowed: must outlive the simulator and its results.
 * \param opts copied; NULL for the defaults. opts->policy.profiles and the
 *        arrays of the options are borrowed.
 * \return ::PL_OK; ::PL_EINVAL (NULL arguments, interval <= 0, an unknown
 *         runtime model, a job with no tasks, a negative or non-finite
 *         startup delay or priority, a failure at a negative or non-finite
 *         time, on a vertex that is not a GPU, or with a negative repair
 *         time; a gpu_share_factor below 1 or not finite; an unknown
 *         gpu_share_model); with ::PL_SIM_GPU_SHARE_USAGE and usage_traces:
 *         ::PL_EIO (unreadable file), ::PL_EPARSE (malformed CSV: the message
 *         names file, line and column); ::PL_ENOMEM.
 */
pl_status pl_sim_create(const pl_topology *topo, const pl_jobset *jobs, const pl_sim_opts *opts,
                        pl_sim **out);

/** \brief Release a simulator. NULL is a no-op. */
void pl_sim_free(pl_sim *sim);

/**
 * \brief Run the simulation from an idle state (a simulator can run again;
 *        each run starts over).
 * \param[out] out released with pl_sim_result_free().
 * \return ::PL_OK; ::PL_ENOTFOUND (unknown policy); ::PL_EINVAL (a job the
 *         profiles cannot time and without a duration; bad policy options);
 *         ::PL_EINTERNAL (the policy gave a GPU to more jobs than its units
 *         capacity, or gave resources that are not free: the message names
 *         the job and the GPU);
 *         ::PL_ENOMEM (also from the usage-pattern replay of two co-tenants,
 *         ::PL_SIM_GPU_SHARE_USAGE).
 */
pl_status pl_sim_run(pl_sim *sim, pl_sim_result **out);

/** \brief Release a result. NULL is a no-op. */
void pl_sim_result_free(pl_sim_result *res);
/** \brief Number of job records (= the workload's jobs; 0 for NULL). */
int32_t pl_sim_result_count(const pl_sim_result *res);
/** \brief Record of job \p i (workload order). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_sim_result_job(const pl_sim_result *res, int32_t i, pl_sim_job_record *rec);
/** \brief The aggregates. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_sim_result_summary(const pl_sim_result *res, pl_sim_summary *sum);
/** \brief Per-call decision times in seconds, in call order (owned by the result; *n receives the count). */
const double *pl_sim_result_decision_times(const pl_sim_result *res, int64_t *n);

/** \brief Number of points of the utilisation time series (0 for NULL). */
int64_t pl_sim_result_timeline_count(const pl_sim_result *res);

/**
 * \brief Point \p i of the utilisation time series. Points are in strictly
 *        increasing time; one is added after every event that changed the
 *        state (several events at one time give one point, the state after
 *        the last of them); the first point is at the first event's time.
 * \return ::PL_OK or ::PL_EINVAL (NULL, \p i out of range).
 */
pl_status pl_sim_result_timeline(const pl_sim_result *res, int64_t i, pl_sim_sample *out);

/**
 * \brief Write the utilisation time series as CSV: the header
 *        `time,running,queued,gpus_used,gpus_failed,gpu_util,core_util,nvme_util,fragmentation,remote_gpus`
 *        then one line per point; numbers with 6 decimals, so two runs of
 *        the same inputs give the same bytes.
 * \return ::PL_OK; ::PL_EIO; ::PL_EINVAL.
 */
pl_status pl_sim_result_write_timeline_csv(const pl_sim_result *res, FILE *f);

/**
 * \brief Write the per-job records as CSV (header line, then one line per
 *        job in workload order; times with 6 decimals, so two runs of the
 *        same inputs give the same bytes).
 * \return ::PL_OK; ::PL_EIO; ::PL_EINVAL.
 */
pl_status pl_sim_result_write_csv(const pl_sim_result *res, FILE *f);

/**
 * \brief Read a failure trace: CSV with the header `time,gpu,repair` (any
 *        column order; `repair` optional), one failure per line; `gpu` is a
 *        vertex number or a path of names as pl_topology_find() takes
 *        ("cluster/rack0/node3/package1/gpu2"); `repair` in seconds after
 *        the failure, empty or 0 for never. Blank lines and lines starting
 *        with '#' are skipped.
 * \param topo the topology the simulator will be given (names are resolved in it).
 * \param[out] out the failures (release with pl_sim_failures_free()), NULL when \p n is 0.
 * \return ::PL_OK; ::PL_EIO (unreadable file); ::PL_EPARSE ("FILE:LINE: column
 *         'gpu': ..." for a bad value, an unknown column, a missing column or
 *         a wrong field count); ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_sim_failures_load(const char *path, const pl_topology *topo, pl_sim_failure **out,
                               int32_t *n);

/** \brief Release failures read by pl_sim_failures_load(). NULL is a no-op. */
void pl_sim_failures_free(pl_sim_failure *failures);

/* ---- workload traces (doc/simulator.md sec. 6b) ------------------------------------ */

/** Opaque workload trace: a job set plus each job's priority and startup delay. */
typedef struct pl_sim_trace pl_sim_trace;

/**
 * \brief Read a workload trace file. The format is found from the text: a
 *        JSON document (first character '{' or '[') is either the trace
 *        format's JSON form (an array of records, or {"jobs": [...]}) or,
 *        an object keyed by job ids, an SC17 artifact workload
 *        (pl_jobset_load_sc17()); anything else is the CSV form: a header
 *        line naming the columns, then one job per line.
 *
 * Columns / keys (doc/simulator.md gives an example): `arrival` (s,
 * required), `gpus` (or `tasks`: the job's GPUs, one task each; 0 for a
 * CPU-only job of one task; required), `cores` and `memory` (GiB) for the
 * whole job, split over its tasks, `type` (or `profile`, `workload`) and
 * `size` (the interference profile's workload and batch size), `duration`
 * (s; used when the profile cannot time the job), `deadline` (or `slo`: s
 * after arrival, pl_job_set_slo()), `priority` (higher first in the queue),
 * `min_utility`, `startup` (startup delay, s), `name`, and the job's NVMe
 * demand `storage_bw` (MB/s, 10^6 B/s) and `storage` (GB, 10^9 bytes), all
 * of it on task 0 (pl_task_demand.storage_bw, storage_bytes).
 * \param[out] out released with pl_sim_trace_free().
 * \return ::PL_OK; ::PL_EIO (unreadable file); ::PL_EPARSE (the message
 *         starts with "FILE:LINE: column 'NAME': " in CSV, or "FILE: $.jobs[3].gpus: "
 *         in JSON, or "FILE:LINE:COL: " for a JSON syntax error);
 *         ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_sim_trace_load(const char *path, pl_sim_trace **out);

/**
 * \brief pl_sim_trace_load() from text in memory (\p length 0: strlen).
 * \param source the name used in error messages (NULL: "<string>").
 */
pl_status pl_sim_trace_load_string(const char *text, size_t length, const char *source,
                                   pl_sim_trace **out);

/** \brief Release a trace (and its jobs). NULL is a no-op. */
void pl_sim_trace_free(pl_sim_trace *trace);

/** \brief The trace's jobs, owned by the trace (borrow them for pl_sim_create()). */
const pl_jobset *pl_sim_trace_jobs(const pl_sim_trace *trace);

/** \brief The jobs' priorities [jobs] for pl_sim_opts.job_priority (owned by the trace; all 0 for SC17). */
const double *pl_sim_trace_priorities(const pl_sim_trace *trace);

/** \brief The jobs' startup delays [jobs] for pl_sim_opts.job_startup_delay (owned by the trace). */
const double *pl_sim_trace_startup_delays(const pl_sim_trace *trace);

/** \brief "csv", "json" or "sc17": the format the trace was read as (static; NULL for NULL). */
const char *pl_sim_trace_format(const pl_sim_trace *trace);

/* ---- SC17 workloads and built-in scenarios --------------------------------------- */

/**
 * Most jobs pl_sim_generate_sc17() and the scenarios generate: 1,000,000
 * (about 3 GB and 15 s to build; 100 times sc17-s2's 10,000), so that a
 * mistyped count is refused instead of exhausting memory. A larger workload
 * can still be built job by job or read from a trace.
 */
#define PL_SIM_MAX_GENERATED_JOBS 1000000

/** Options of pl_sim_generate_sc17(); initialise with pl_sim_gen_opts_init(). */
typedef struct pl_sim_gen_opts {
    int32_t jobs;              /**< Number of jobs (default 10000; at most ::PL_SIM_MAX_GENERATED_JOBS). */
    double mean_interarrival;  /**< Mean of the exponential inter-arrival time, seconds (default 10). */
    uint64_t seed;             /**< Default 1. */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_sim_gen_opts;

/** \brief Defaults of seed 002 sec. 5.3 as doc/simulator.md reads it. */
void pl_sim_gen_opts_init(pl_sim_gen_opts *opts);

/**
 * \brief Generate an SC17 workload (seed 002 sec. 5.3): Poisson arrivals,
 *        batch size Binomial(3, 1/2) over 1, 4, 64, 128, network type
 *        Binomial(2, 1/2) over AlexNet, CaffeRef ("bvlc_reference_caffenet",
 *        its own built-in profile, AlexNet's times),
 *        GoogLeNet; GPUs 1/2/3 with the artifact's workloads-100.json
 *        frequencies (41/52/7 %), minimal utility uniform in [0.30, 0.52]
 *        (that file's range). Jobs as pl_jobset_load_sc17() builds them.
 * \return ::PL_OK; ::PL_EINVAL (jobs < 1, mean_interarrival <= 0); ::PL_ENOMEM.
 */
pl_status pl_sim_generate_sc17(const pl_sim_gen_opts *opts, pl_jobset **out);

/** Size options of pl_sim_scenario(); initialise with pl_sim_scenario_opts_init(). */
typedef struct pl_sim_scenario_opts {
    int32_t machines;        /**< 0: the scenario's own (proto and table1 1, s1 5, s2 1000, drmaestro 16). */
    int32_t jobs;            /**< sc17-s2 (0: 10000) and drmaestro (0: 512, warm-up jobs not counted) only;
                                  at most ::PL_SIM_MAX_GENERATED_JOBS. */
    uint64_t seed;           /**< sc17-s2 and drmaestro only (default 1). */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_sim_scenario_opts;

/** \brief Defaults: the scenarios' own sizes, seed 1. */
void pl_sim_scenario_opts_init(pl_sim_scenario_opts *opts);

/**
 * \brief Build a built-in scenario: "sc17-proto" (the artifact's
 *        workloads-5.json, 6 jobs, on one Minsky), "sc17-table1" (the
 *        paper's Table 1: the same arrivals, with its job types, CaffeRef
 *        included, on one Minsky), "sc17-s1" (workloads-100.json on 5
 *        Minsky machines), "sc17-s2" (pl_sim_generate_sc17(), 10,000 jobs
 *        on 1,000 Minsky machines, lambda = 10 jobs per second: a mean
 *        inter-arrival of 0.1 s x 1000 / machines, so the load stays with
 *        the cluster's size; doc/results.md),
 *        "drmaestro" (seed 004: 512 Rodinia jobs, Poisson 16 per second,
 *        on 16 Firestone machines, plus CPU-only warm-up jobs holding half
 *        the machines' cores for 800 s; doc/results.md lists the
 *        reconstructed parameters). The workload files are compiled into
 *        the library.
 * \param opts NULL for the defaults.
 * \param[out] topo, jobs released with pl_topology_free() / pl_jobset_free().
 * \return ::PL_OK; ::PL_ENOTFOUND (the message lists the names); ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_sim_scenario(const char *name, const pl_sim_scenario_opts *opts, pl_topology **topo,
                          pl_jobset **jobs);

/** \brief NULL-terminated list of the scenario names (static). */
const char *const *pl_sim_scenario_names(void);

/**
 * \brief Write an SVG picture of one or more runs: the CDF of job slowdown
 *        and the CDF of waiting time, one curve per run, and below them the
 *        GPU utilisation over time (step curves of
 *        ::pl_sim_sample.gpu_util, one per run).
 * \param labels one per result (e.g. the policy names).
 * \return ::PL_OK; ::PL_EIO; ::PL_EINVAL.
 */
pl_status pl_sim_write_svg(const pl_sim_result *const *results, const char *const *labels,
                           int32_t n, const char *title, FILE *f);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_SIM_H */
