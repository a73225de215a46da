/**
 * \file placement/nvme_sim.h (internal, not installed)
 * \brief Trace-driven simulation of seed 001's NVMe experiments (Call
 *        thesis, chapter 4, Tables 4.2-4.5) on top of placement/disagg.h:
 *        Poisson arrivals of the Table 4.1 workloads, an EDF queue, one of
 *        the disaggregation policies, and the thesis's metrics (missed
 *        deadlines, waiting time, composition size, sharing ratio,
 *        utilisation).
 *
 * Life cycle: pl_nvme_sim_opts_init() (or pl_nvme_sim_scenario() for a
 * named scenario) -> pl_nvme_sim_generate() (or a hand-made trace) ->
 * pl_nvme_sim_run() once per policy -> pl_nvme_sim_result_summary() /
 * pl_nvme_sim_result_write_csv() -> pl_nvme_sim_result_free().
 * A run is a function of its inputs: the same trace and options give the
 * same records and CSV, byte for byte. doc/results.md ("Seed 001")
 * describes every definition and choice.
 *
 * Thread-safety: no shared state; results are not synchronised.
 */
#ifndef PLACEMENT_NVME_SIM_H
#define PLACEMENT_NVME_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <placement/status.h>
#include <placement/disagg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal (not installed, not exported): `placement simulate --scenario
 * nvme-*` runs it. */
#pragma GCC visibility push(hidden)

/** \defgroup pl_nvme_sim Seed 001 NVMe simulation
 *  @{ */

/** What the target load factor measures (pl_nvme_sim_rate()). */
typedef enum pl_nvme_load_basis {
    PL_NVME_LOAD_CPU = 0,        /**< Cores of the fat node (default: the thesis's "CPU load factor"). */
    PL_NVME_LOAD_BOTTLENECK = 1, /**< The most loaded of cores, NVMe bandwidth and capacity. */
    PL_NVME_LOAD_NVME = 2        /**< The more loaded of NVMe bandwidth and capacity (chapter 5, Fig. 5.7-5.8). */
} pl_nvme_load_basis;

/** Where the NVMe devices are (sec. 4.4.1). */
typedef enum pl_nvme_layout {
    PL_NVME_LAYOUT_DISAGG = 0, /**< One pool reachable from every node (default). */
    PL_NVME_LAYOUT_PA = 1      /**< Physically attached: the first ceil(0.6 x nvme) devices on node 0, the rest on node 1 (10 -> 6 + 4);
                                    GPUs on node 2 (the last node when there are fewer than 3). */
} pl_nvme_layout;

/** Inter-arrival times of the generated workloads. */
typedef enum pl_nvme_arrivals {
    PL_NVME_ARRIVALS_POISSON = 0, /**< Exponential gaps (default; the thesis's text). */
    PL_NVME_ARRIVALS_REGULAR = 1  /**< Every gap equal to the mean, 1 / rate: what the thesis's public
                                       simulator produces (its generator reseeds before every draw). */
} pl_nvme_arrivals;

/** Workload generation, cluster size, measurement; initialise with pl_nvme_sim_opts_init(). */
typedef struct pl_nvme_sim_opts {
    int32_t jobs;             /**< Workloads generated (default 1500). */
    double load;              /**< Target load factor (default 0.7): see pl_nvme_sim_rate(). */
    pl_nvme_load_basis load_basis; /**< Default ::PL_NVME_LOAD_CPU. */
    int window;               /**< Non-zero (default): measure only the fat-node window (pl_nvme_sim_run()); 0: every workload. */
    double frac_bandwidth;    /**< Share of bandwidth-bound (SMUFIN) workloads (S1: 0.7). */
    double frac_capacity;     /**< Share of capacity-bound workloads (S1: 0.1). */
    double frac_compute;      /**< Share of compute-bound workloads (S1: 0.2). */
    double frac_high;         /**< Share of high-priority workloads (default 0.2). */
    double delta_high;        /**< Deadline factor of high-priority workloads (default ::PL_DISAGG_DELTA_HIGH, 1.2; sec. 4.4.4 varies it). */
    double frac_gpu;          /**< Share of GPU-bound (YOLO) workloads (default 0; chapter 5, Table 5.3). */
    int32_t gpus;             /**< GPUs in the pool (default 0; chapter 5: 1 of 4 GB/s and 16 GB). */
    int gpu_split;            /**< Non-zero (default): a GPU splits into {1, 2, 4} vGPUs (Tesla T4); 0: unsplittable (Fig. 5.5a). */
    double gpu_overhead;      /**< GPU workloads run (1 + this) x their base time, deadlines from the base time
                                   (default 0; the disaggregation overhead of Fig. 5.8, 0.05 = 5 %). */
    double frac_fio;          /**< Share of the bandwidth-bound workloads that are FIO (model t / k) instead of SMUFIN (default 0; sec. 4.4.6). */
    uint64_t seed;            /**< Generator seed (default 1). */
    int32_t nodes;            /**< Nodes (default 5). */
    int32_t cores_per_node;   /**< Cores per node (default 25). */
    int32_t nvme;             /**< NVMe devices in the pool (default 10). */
    int64_t nvme_bw_bytes_per_s; /**< Per device (default 2 GB/s). */
    int64_t nvme_cap_bytes;   /**< Per device (default 600 GB). */
    pl_nvme_layout layout;    /**< Default ::PL_NVME_LAYOUT_DISAGG. */
    pl_nvme_arrivals arrivals; /**< Default ::PL_NVME_ARRIVALS_POISSON. */
    int static_sharing;       /**< 0 (default): sharers are re-evaluated whenever a composition's sharing set
                                   or a GPU's busy vGPUs change (::pl_disagg_opts.reshare); non-zero: a run time
                                   is fixed at its start. */
    int smufin_oversubscribe; /**< ::pl_disagg_opts.smufin_oversubscribe (default 0; doc/results.md, "Seed 001"). */
    pl_disagg_node_order node_order; /**< Eq. 4.3 node order of minimise-fragmentation (and Eq. 4.4's use of it):
                                          default ::PL_DISAGG_LEAST_USED_FIRST (the thesis's text);
                                          ::PL_DISAGG_MOST_USED_FIRST packs (doc/results.md, "Seed 001"). */
    const pl_topology *cluster; /**< NULL (default): the cluster is the one nodes, cores_per_node, nvme,
                                     nvme_bw_bytes_per_s, nvme_cap_bytes, gpus, gpu_split and layout describe,
                                     built as a pl_topology (doc/disagg.md, "The simulator's cluster") and
                                     seen through pl_disagg_cluster_from_topology(). Else that view of this
                                     topology (borrowed, read only) and those eight fields are not read,
                                     except gpu_split = 0, which makes every GPU unsplittable. */
} pl_nvme_sim_opts;

/** \brief Defaults listed in ::pl_nvme_sim_opts (scenario S1 at load 0.7, CPU basis, window on). NULL is a no-op. */
void pl_nvme_sim_opts_init(pl_nvme_sim_opts *o);

/**
 * \brief Set the workload mix of a named scenario of Table 4.2: "nvme-s1"
 *        (70% bandwidth / 10% capacity / 20% compute), "nvme-s2" (10/70/20),
 *        "nvme-s3" (20/10/70), with no GPU; or of Table 5.3 with one GPU
 *        (gpus = 1): "nvme-gpu-s1" (50% bandwidth / 20% capacity / 20%
 *        compute / 10% GPU), "nvme-gpu-s2" (10/0/10/80), "nvme-gpu-s3"
 *        (20/20/10/40, which sums to 90: the generator normalises). Other
 *        fields are left as they are.
 * \return ::PL_OK; ::PL_EINVAL for NULL; ::PL_ENOTFOUND for another name
 *         (the message lists the names).
 */
pl_status pl_nvme_sim_scenario(const char *name, pl_nvme_sim_opts *o);

/** \brief NULL-terminated list of the scenario names (static). */
const char *const *pl_nvme_sim_scenario_names(void);

/**
 * \brief Poisson arrival rate (workloads per second) giving the target load
 *        factor as the offered load of an ideal "fat node" (all cores,
 *        bandwidth and capacity in one place): rate x E[cores x base time] /
 *        total cores = o->load (::PL_NVME_LOAD_CPU), or the same with the
 *        maximum over cores, NVMe bandwidth and NVMe capacity
 *        (::PL_NVME_LOAD_BOTTLENECK), or over NVMe bandwidth and capacity
 *        only (::PL_NVME_LOAD_NVME; with no NVMe device, cores).
 *        Totals are those of the cluster (o->cluster's view when set).
 * \return ::PL_OK; ::PL_EINVAL for NULL, load <= 0, negative or all-zero
 *         fractions, gpu_overhead < 0, or a cluster with no cores; the
 *         errors of pl_disagg_cluster_from_topology() for o->cluster.
 */
pl_status pl_nvme_sim_rate(const pl_nvme_sim_opts *o, double *rate_per_s);

/**
 * \brief Generate the workload: o->jobs Table 4.1 presets with exponential
 *        inter-arrival times at pl_nvme_sim_rate(), the type drawn by the
 *        fractions, high priority with probability frac_high, deadlines by
 *        Eq. 4.5. Deterministic for o->seed.
 * \param[out] jobs receives a malloc'ed array (free() it); n its length.
 *        A share frac_fio of the bandwidth-bound ones are FIO (same requests,
 *        model t / k); high-priority deadlines use delta_high;
 *        GPU workloads get base time x (1 + gpu_overhead) after their
 *        deadline is set.
 * \return ::PL_OK; ::PL_EINVAL (bad options, jobs < 1, frac_fio outside
 *         [0, 1], delta_high <= 0); ::PL_ENOMEM.
 */
pl_status pl_nvme_sim_generate(const pl_nvme_sim_opts *o, pl_disagg_workload **jobs, int32_t *n);

/** Outcome of one workload. */
typedef struct pl_nvme_sim_record {
    double arrival_s;     /**< Arrival time, s. */
    double start_s;       /**< Start time, s; -1 if it never ran. */
    double finish_s;      /**< Finish time, s; -1 if it never ran. */
    double deadline_s;    /**< Deadline (Eq. 4.5), s. */
    int type;             /**< 0 bandwidth, 1 capacity, 2 compute, 3 other (by its requests). */
    int high_priority;    /**< 1 for a high-priority workload (deadline factor 1.2). */
    int missed;           /**< finish > deadline, or never ran. */
    int32_t node;         /**< Node of its cores, -1 if it never ran. */
    int32_t composition;  /**< Composition id, -1 for none. */
    int32_t comp_size;    /**< Devices of its composition (0 for none). */
    int32_t sharers;      /**< Workloads on its composition when it started, itself included (0 for none). */
    pl_disagg_policy decided_by; /**< Policy that placed it (Eq. 4.4's pick under ::PL_DISAGG_AWARE). */
} pl_nvme_sim_record;

/** Aggregates of a run (definitions: doc/results.md, "Seed 001"). */
typedef struct pl_nvme_sim_summary {
    int32_t jobs;             /**< Workloads generated. */
    int32_t done;             /**< Workloads that finished. */
    int32_t unfinished;       /**< Workloads still queued or running at the end. */
    double missed_pct;        /**< Workloads past their deadline (or never run) / all, in %. */
    double missed_high_pct;   /**< High-priority workloads past their deadline / all workloads, in %. */
    double mean_wait_s;       /**< Mean start - arrival of the workloads that ran. */
    double mean_comp_size;    /**< Mean devices per composition, over the compositions created in the window. */
    double mean_sharing;      /**< Sharing ratio: time-weighted mean workloads running on a live composition. */
    double mean_hosted;       /**< Mean workloads a composition hosted over its lifetime (one after another included). */
    double nvme_usage_pct;    /**< Time-weighted share of devices in a composition, in %. */
    double cpu_util_pct;      /**< Time-weighted reserved cores / total cores, in %. */
    double bw_util_pct;       /**< Time-weighted reserved NVMe bandwidth / total, in %. */
    double cap_util_pct;      /**< Time-weighted reserved NVMe capacity / total, in %. */
    double window_start_s;    /**< Start of the measurement window (see pl_nvme_sim_run()). */
    double window_end_s;      /**< Its end. */
    int32_t window_jobs;      /**< Workloads arriving in the window: the denominator of the % metrics. */
    int window_reached;       /**< 1: the fat node reached the target load; 0: it did not (or window off) and every workload counts. */
    int32_t compositions;     /**< Compositions created. */
    int32_t maxcomp_decisions; /**< Under ::PL_DISAGG_AWARE: times Eq. 4.4 picked max-composition. */
    int32_t minfrag_decisions; /**< Under ::PL_DISAGG_AWARE: times Eq. 4.4 picked min-fragmentation. */
} pl_nvme_sim_summary;

/** Opaque result of a run. */
typedef struct pl_nvme_sim_result pl_nvme_sim_result;

/**
 * \brief Replay `n` workloads (any order; the trace is copied) on a fresh
 *        cluster of o's size (nodes, cores, NVMe pool; or o->cluster's view;
 *        o's workload fields are not read; NULL = defaults) under `policy`. Events: arrivals and
 *        finishes; after each event time the queue is tried in EDF order
 *        (pl_disagg_edf_order), every queued workload in turn (one that
 *        does not fit does not block later ones). A placed workload runs at
 *        the model's rate for its composition's current sharers (a GPU
 *        workload: for its GPU's busy vGPUs), re-evaluated whenever they
 *        change (o->static_sharing: the time decided at its start). o->layout pins the devices to nodes (physically attached).
 *        Eq. 4.4's load factors are the
 *        demands of the arrived, unfinished workloads.
 *
 *        Measurement window (o->window, the thesis's): the trace is first
 *        replayed on an ideal fat node (one node with every core, one device
 *        with all the pool's bandwidth and capacity, no slowdown model,
 *        first fit on an EDF queue); the window opens at the first arrival
 *        at which the fat node's CPU load factor (cores of arrived,
 *        unfinished workloads / total) reaches o->load and closes at the last
 *        arrival. Per-workload metrics count the workloads arriving in it,
 *        time-weighted ones integrate over it, composition metrics count the
 *        compositions created in it. If the fat node never reaches o->load,
 *        or o->window is 0, the window is the whole run (first arrival to
 *        last finish) and every workload counts.
 * \param[out] out released with pl_nvme_sim_result_free().
 * \return ::PL_OK; ::PL_EINVAL for NULL, n < 1, an invalid workload, a GPU
 *         workload when the cluster has no GPU, or an unknown policy; the
 *         errors of pl_disagg_cluster_from_topology(); ::PL_ENOMEM; ::PL_EINTERNAL if
 *         the disagg module refuses a decision it made.
 */
pl_status pl_nvme_sim_run(const pl_nvme_sim_opts *o, const pl_disagg_workload *jobs, int32_t n,
                          pl_disagg_policy policy, pl_nvme_sim_result **out);

/**
 * \brief The cluster o describes (nodes, cores_per_node, nvme,
 *        nvme_bw_bytes_per_s, nvme_cap_bytes, gpus, gpu_split, layout; not
 *        o->cluster) as a topology: a "cluster" root; machines node0, node1,
 *        ... with their cores; under ::PL_NVME_LAYOUT_DISAGG a pool "pool0"
 *        holding storage0 ... (units 1, "bandwidth", "storage") and then
 *        gpu0 ... (units 1, "bandwidth" 4 GB/s, "gpu-memory" 16 GB,
 *        ::PL_DISAGG_VGPU_SPLITS_ATTR "1,2,4", or "1" when gpu_split is 0);
 *        under ::PL_NVME_LAYOUT_PA the same devices inside the machines of
 *        ::pl_nvme_layout. No links: the disagg module does not read them.
 *        examples/clusters/call-da.json and call-pa.json describe the
 *        defaults in JSON.
 * \param[out] out released with pl_topology_free().
 * \return ::PL_OK; ::PL_EINVAL for NULL, no node, a negative size or a PA
 *         layout of several devices on one node; ::PL_ENOMEM.
 */
pl_status pl_nvme_sim_topology(const pl_nvme_sim_opts *o, pl_topology **out);

/**
 * \brief The disagg cluster a run starts from: pl_disagg_cluster_from_topology()
 *        of o->cluster, or of pl_nvme_sim_topology(o) when it is NULL, with
 *        the options o implies (reshare = !static_sharing, node_order,
 *        smufin_oversubscribe).
 * \param[out] out released with pl_disagg_cluster_free(); untouched on error.
 * \return ::PL_OK; the errors of those two functions and pl_disagg_set_opts().
 */
pl_status pl_nvme_sim_cluster(const pl_nvme_sim_opts *o, pl_disagg_cluster **out);

/**
 * \brief The topology pl_sim runs the experiment on: that of
 *        pl_nvme_sim_cluster() (built, or a copy of o->cluster), every GPU's
 *        ::PL_RES_UNITS capacity raised to ::PL_DISAGG_MAX_VGPU: the jobs on
 *        its vGPUs hold it together, as many as the fabric's split allows.
 * \param[out] out released with pl_topology_free().
 * \return as pl_nvme_sim_topology() and pl_topology_copy().
 */
pl_status pl_nvme_sim_sim_topology(const pl_nvme_sim_opts *o, pl_topology **out);

/** \brief Release a result. NULL is a no-op. */
void pl_nvme_sim_result_free(pl_nvme_sim_result *r);

/** \brief The aggregates. \return ::PL_OK or ::PL_EINVAL (NULL). */
pl_status pl_nvme_sim_result_summary(const pl_nvme_sim_result *r, pl_nvme_sim_summary *s);

/** \brief Number of records (0 for NULL). */
int32_t pl_nvme_sim_result_count(const pl_nvme_sim_result *r);

/** \brief Record of workload i (trace order). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_nvme_sim_result_record(const pl_nvme_sim_result *r, int32_t i,
                                    pl_nvme_sim_record *rec);

/**
 * \brief Write the records as CSV: header then one line per workload in
 *        trace order, times with 6 decimals.
 * \return ::PL_OK; ::PL_EINVAL; ::PL_EIO.
 */
pl_status pl_nvme_sim_result_write_csv(const pl_nvme_sim_result *r, FILE *f);


/** @} */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_NVME_SIM_H */
