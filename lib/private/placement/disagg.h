/**
 * \file placement/disagg.h (internal, not installed)
 * \brief Disaggregated NVMe and GPU placement (seed 001, Call thesis,
 *        chapters 4 and 5): a cluster of nodes (cores, memory) plus a pool
 *        of NVMe devices that can be composed (RAID0) and GPUs that can be
 *        split into vGPUs; performance models; and the thesis's placement
 *        policies as pure decisions plus an apply step.
 *
 * Life cycle (hwloc pattern): pl_disagg_cluster_create() (or
 * pl_disagg_cluster_thesis()) -> pl_disagg_add_node() / pl_disagg_add_nvme()
 * / pl_disagg_add_gpu() -> optional pl_disagg_set_opts() -> any number of
 * pl_disagg_decide() (reads the handle, changes nothing) and
 * pl_disagg_apply() / pl_disagg_release() -> pl_disagg_cluster_free().
 * Resources may be added at any time; they are never removed.
 *
 * Units: bandwidth in bytes/s, capacity and memory in bytes (decimal: 1 GB =
 * 1e9 bytes, 1 MB/s = 1e6 bytes/s, as the thesis prints them), times in
 * seconds. Formulas that the thesis prints in MB/s and GB (Eq. 4.1) convert
 * internally and say so. doc/disagg.md gives every formula, worked value
 * and every decision taken where the thesis is ambiguous.
 *
 * Thread-safety: a cluster is not synchronised; const calls (decide, queries)
 * may run concurrently when no thread modifies the handle.
 */
#ifndef PLACEMENT_DISAGG_H
#define PLACEMENT_DISAGG_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/topology.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal (not installed, not exported): the experiments reach this
 * through the policies, the simulator and the CLI. */
#pragma GCC visibility push(hidden)

/** \defgroup pl_disagg Disaggregated NVMe and GPU placement
 *  @{ */

/** Most devices in one composition (and the cap of ::pl_disagg_opts.max_composition). */
#define PL_DISAGG_MAX_COMPOSE 16
/** Most vGPUs one GPU can be split into. */
#define PL_DISAGG_MAX_VGPU 16
/** Most allowed split counts one GPU may list. */
#define PL_DISAGG_MAX_SPLITS 8
/** Deadline factor of a regular-priority workload (Eq. 4.5, Table 4.2). */
#define PL_DISAGG_DELTA_REGULAR 4.0
/** Deadline factor of a high-priority workload (Eq. 4.5, Table 4.2). */
#define PL_DISAGG_DELTA_HIGH 1.2

/** Opaque cluster: nodes, NVMe pool, compositions, GPUs, running placements. */
typedef struct pl_disagg_cluster pl_disagg_cluster;

/** Performance model a workload follows (doc/disagg.md, "Performance models"). */
typedef enum pl_disagg_model {
    PL_DISAGG_MODEL_NONE = 0,   /**< Base time whenever its requests are met (capacity-, compute-bound). */
    PL_DISAGG_MODEL_SMUFIN = 1, /**< Bandwidth-bound SMUFIN: T(k, s) table or the parametric form. */
    PL_DISAGG_MODEL_FIO = 2,    /**< FIO: base / k on a k-device composition. */
    PL_DISAGG_MODEL_YOLO = 3    /**< YOLO on a vGPU: base times the co-run factor of its GPU. */
} pl_disagg_model;

/** Built-in workload types of Tables 4.1 / 5.1. */
typedef enum pl_disagg_type {
    PL_DISAGG_BANDWIDTH_BOUND = 0, /**< SMUFIN: 1600 s, 1800 MB/s, 43 GB, 6 cores. */
    PL_DISAGG_CAPACITY_BOUND = 1,  /**< TPCx-IoT-like: 800 s, 160 MB/s, 600 GB, 6 cores. */
    PL_DISAGG_COMPUTE_BOUND = 2,   /**< 900 s, 15 cores, no device. */
    PL_DISAGG_GPU_BOUND = 3        /**< YOLO: 152 s, GPU 1000 MB/s and 2 GB, 2 cores. */
} pl_disagg_type;

/**
 * A workload (a job): what it requests and when it is due. Plain data owned
 * by the caller. A workload requests NVMe (nvme_bw or nvme_cap > 0), a GPU
 * (gpu_bw or gpu_mem > 0), or neither (compute only); never both (the thesis
 * has no such workload: the policies reject it with ::PL_EINVAL).
 */
typedef struct pl_disagg_workload {
    double base_time_s;           /**< e_w: run time when its requests are met (> 0). */
    int64_t nvme_bw_bytes_per_s;  /**< NVMe bandwidth share it reserves (>= 0). */
    int64_t nvme_cap_bytes;       /**< NVMe capacity share it reserves (>= 0). */
    int64_t gpu_bw_bytes_per_s;   /**< GPU bandwidth it needs from its vGPU (>= 0). */
    int64_t gpu_mem_bytes;        /**< GPU memory it needs from its vGPU (>= 0). */
    int32_t cores;                /**< Cores on one node (>= 0). */
    int64_t mem_bytes;            /**< Node memory (>= 0; the thesis's types use 0). */
    pl_disagg_model model;        /**< Performance model. */
    int high_priority;            /**< Non-zero: deadline factor ::PL_DISAGG_DELTA_HIGH. */
    double arrival_s;             /**< a_w. */
    double deadline_s;            /**< Absolute deadline (pl_disagg_set_deadline() fills it, Eq. 4.5). */
} pl_disagg_workload;

/** \brief Whether w requests NVMe (bandwidth or capacity). */
static inline int pl_disagg_uses_nvme(const pl_disagg_workload *w)
{
    return w->nvme_bw_bytes_per_s > 0 || w->nvme_cap_bytes > 0;
}

/** \brief Whether w requests a GPU (a vGPU's bandwidth or memory). */
static inline int pl_disagg_uses_gpu(const pl_disagg_workload *w)
{
    return w->gpu_bw_bytes_per_s > 0 || w->gpu_mem_bytes > 0;
}

/**
 * \brief Fill *out with a built-in type of Table 4.1 / 5.1, arriving at
 *        arrival_s with the given priority; the deadline is set by Eq. 4.5.
 * \return ::PL_OK; ::PL_EINVAL for a NULL out or an unknown type.
 */
pl_status pl_disagg_workload_preset(pl_disagg_type type, double arrival_s, int high_priority,
                                    pl_disagg_workload *out);

/**
 * \brief Eq. 4.5: deadline = e_w * delta + a_w, delta = ::PL_DISAGG_DELTA_HIGH
 *        for high-priority workloads, ::PL_DISAGG_DELTA_REGULAR otherwise.
 *        Sets w->deadline_s from w->base_time_s, w->arrival_s, w->high_priority.
 * \return ::PL_OK; ::PL_EINVAL for NULL.
 */
pl_status pl_disagg_set_deadline(pl_disagg_workload *w);

/* ---- cluster ------------------------------------------------------------------ */

/** \brief Create an empty cluster. \return ::PL_OK, ::PL_EINVAL (NULL out), ::PL_ENOMEM. */
pl_status pl_disagg_cluster_create(pl_disagg_cluster **out);

/**
 * \brief The thesis's simulated system (Tables 4.2 / 5.2): 5 nodes x 25
 *        cores (no memory limit modelled: 0 bytes, workloads use 0), a pool
 *        of 10 NVMe of 2 GB/s and 600 GB; with_gpu non-zero adds one GPU of
 *        4 GB/s and 16 GB splittable into {1, 2, 4} vGPUs (Tesla T4).
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_disagg_cluster_thesis(int with_gpu, pl_disagg_cluster **out);

/** \brief Release a cluster and everything placed on it. NULL is a no-op. */
void pl_disagg_cluster_free(pl_disagg_cluster *c);

/**
 * \brief Add a node. \param id receives its id (0, 1, ...), may be NULL.
 * \return ::PL_OK; ::PL_EINVAL for cores < 0 or mem_bytes < 0; ::PL_ENOMEM.
 */
pl_status pl_disagg_add_node(pl_disagg_cluster *c, int32_t cores, int64_t mem_bytes, int32_t *id);

/**
 * \brief Add an NVMe device to the pool. \param id receives its id, may be NULL.
 * \return ::PL_OK; ::PL_EINVAL for a non-positive bandwidth or capacity; ::PL_ENOMEM.
 */
pl_status pl_disagg_add_nvme(pl_disagg_cluster *c, int64_t bw_bytes_per_s, int64_t cap_bytes,
                             int32_t *id);

/**
 * \brief Add an NVMe device physically attached to `node` (the thesis's
 *        physically-attached layout, sec. 4.4.1): it can only be composed
 *        with pool devices or devices attached to the same node, and a
 *        composition holding it is attached to that node.
 * \param id receives its id, may be NULL.
 * \return ::PL_OK; ::PL_EINVAL for a non-positive bandwidth or capacity or
 *         a node that does not exist; ::PL_ENOMEM.
 */
pl_status pl_disagg_add_nvme_at(pl_disagg_cluster *c, int64_t bw_bytes_per_s, int64_t cap_bytes,
                                int32_t node, int32_t *id);

/**
 * \brief Add a GPU that can be split into any of the n_splits allowed vGPU
 *        counts (e.g. {1, 2, 4}); each vGPU gets an equal share of bandwidth
 *        and memory. The list is copied.
 * \return ::PL_OK; ::PL_EINVAL for non-positive bw/mem, n_splits outside
 *         [1, ::PL_DISAGG_MAX_SPLITS], or a count outside [1, ::PL_DISAGG_MAX_VGPU]; ::PL_ENOMEM.
 */
pl_status pl_disagg_add_gpu(pl_disagg_cluster *c, int64_t bw_bytes_per_s, int64_t mem_bytes,
                            const int32_t *splits, int32_t n_splits, int32_t *id);

/**
 * \brief Add a GPU physically attached to `node` (the physically-attached
 *        layout of Fig. 5.6a): like pl_disagg_add_gpu(), but every vGPU it
 *        is split into serves workloads whose cores are on that node.
 *        With several GPUs the policies take the first vGPU that fits (by
 *        GPU id): a workload waits when that GPU's node lacks cores even if
 *        another GPU's node has them.
 * \param id receives its id, may be NULL.
 * \return as pl_disagg_add_gpu(), and ::PL_EINVAL for a node that does not exist.
 */
pl_status pl_disagg_add_gpu_at(pl_disagg_cluster *c, int64_t bw_bytes_per_s, int64_t mem_bytes,
                               const int32_t *splits, int32_t n_splits, int32_t node, int32_t *id);

/** \brief Number of nodes, NVMe devices and GPUs (any pointer may be NULL). */
void pl_disagg_counts(const pl_disagg_cluster *c, int32_t *nodes, int32_t *nvme, int32_t *gpus);

/** What a cluster's resources add up to (pl_disagg_cluster_totals()). */
typedef struct pl_disagg_totals {
    int32_t nodes, nvme, gpus;    /**< As pl_disagg_counts(). */
    int64_t cores;                /**< Cores of every node (capacity, not the free amount). */
    int64_t mem_bytes;            /**< Memory of every node. */
    int64_t nvme_bw_bytes_per_s;  /**< Bandwidth of every NVMe device, pool and attached. */
    int64_t nvme_cap_bytes;       /**< Capacity of every NVMe device. */
    int64_t gpu_bw_bytes_per_s;   /**< Bandwidth of every GPU. */
    int64_t gpu_mem_bytes;        /**< Memory of every GPU. */
} pl_disagg_totals;

/** \brief Fill *out with the cluster's totals. \return ::PL_OK; ::PL_EINVAL for NULL. */
pl_status pl_disagg_cluster_totals(const pl_disagg_cluster *c, pl_disagg_totals *out);

/** Vertex attribute listing a GPU's allowed vGPU split counts for
 *  pl_disagg_cluster_from_topology(), e.g. "1,2,4" or "1" (unsplittable). */
#define PL_DISAGG_VGPU_SPLITS_ATTR "vgpu_splits"
/** Splits of a GPU when neither it nor an ancestor has ::PL_DISAGG_VGPU_SPLITS_ATTR:
 *  the thesis's Tesla T4 (Table 5.2). */
#define PL_DISAGG_VGPU_SPLITS_DEFAULT "1,2,4"

/**
 * \brief The disagg cluster seen in a topology (issue 19: a policy sees one
 *        cluster model). doc/disagg.md, "A topology as the cluster", has the
 *        mapping with a worked example:
 *  - every ::PL_VK_MACHINE, in preorder, is a node (ids 0, 1, ...): cores =
 *    the machine's own "cores" capacity, or when it has none the sum over
 *    its packages; memory = its own "memory", or the sum over its NUMA
 *    nodes. Their free amounts (the topology's allocations) are the node's
 *    free cores and memory;
 *  - every ::PL_VK_STORAGE, in preorder, is an NVMe device (ids 0, 1, ...)
 *    of bandwidth = its "bandwidth" capacity (bytes/s, ::PL_RES_BANDWIDTH)
 *    and capacity = its "storage" capacity (bytes, ::PL_RES_STORAGE):
 *    disaggregated (pl_disagg_add_nvme()) when it is in a ::PL_VK_POOL,
 *    physically attached to its machine's node (pl_disagg_add_nvme_at())
 *    when it is in a machine;
 *  - every ::PL_VK_GPU, in preorder, is a GPU (ids 0, 1, ...) of bandwidth
 *    = "bandwidth" and memory = "gpu-memory" (::PL_RES_GPU_MEMORY), in a
 *    pool or attached to its machine's node alike, splittable into the
 *    counts of attribute ::PL_DISAGG_VGPU_SPLITS_ATTR of the GPU or of its
 *    nearest ancestor that has one (default ::PL_DISAGG_VGPU_SPLITS_DEFAULT).
 * Links, racks, NICs and other vertices are not read. The cluster has the
 * default options (pl_disagg_set_opts() changes them) and does not refer to
 * the topology afterwards.
 * \param[out] out the new cluster (pl_disagg_cluster_free()); untouched on error.
 * \return ::PL_OK; ::PL_EINVAL (message names the vertex) for NULL, a
 *         storage device or GPU without a positive bandwidth, storage or
 *         GPU-memory capacity, one in neither a machine nor a pool, one with
 *         allocated amounts, a bad ::PL_DISAGG_VGPU_SPLITS_ATTR, or a machine
 *         of more than INT32_MAX cores; ::PL_ENOMEM.
 */
pl_status pl_disagg_cluster_from_topology(const pl_topology *t, pl_disagg_cluster **out);

/**
 * \brief What is free in a topology, as a cluster: the view of
 *        pl_disagg_cluster_from_topology() where a storage device counts
 *        with its free bandwidth and capacity (left out when either is 0),
 *        and a GPU with anything allocated is left out (its split is not
 *        known). For a policy that has no live cluster to consult (the NVMe
 *        rules outside the simulator): no composition carries over.
 * \param[out] vertex_of_nvme receives (malloc'ed, caller frees) the storage
 *        vertex of each NVMe id; \p vertex_of_gpu the GPU vertex of each GPU id.
 * \return as pl_disagg_cluster_from_topology(), except that allocated
 *         devices are no error.
 */
pl_status pl_disagg_cluster_view_free(const pl_topology *t, pl_disagg_cluster **out,
                                      int32_t **vertex_of_nvme, int32_t **vertex_of_gpu);

/**
 * \brief A deep copy of \p c (its compositions, split GPUs and running
 *        placements too), for decisions tried without touching \p c.
 * \return ::PL_OK; ::PL_EINVAL for NULL; ::PL_ENOMEM.
 */
pl_status pl_disagg_cluster_copy(const pl_disagg_cluster *c, pl_disagg_cluster **out);

/** \brief Add the NVMe bandwidth and capacity of the workloads running on \p c
 *         to *bw and *cap (the running part of Eq. 4.6's load factors). */
void pl_disagg_running_demand(const pl_disagg_cluster *c, double *bw, double *cap);

/** Performance model of SMUFIN (::PL_DISAGG_MODEL_SMUFIN). */
typedef enum pl_disagg_perf {
    PL_DISAGG_PERF_TABLE = 0,     /**< Documented lookup table T(k, s) (default). */
    PL_DISAGG_PERF_PARAMETRIC = 1 /**< ceil(T_base * m^(min(BW_avail, BW_peak)/BW_base - 1)). */
} pl_disagg_perf;

/** Node order of the minimise-fragmentation policy for new compositions (Eq. 4.3). */
typedef enum pl_disagg_node_order {
    PL_DISAGG_LEAST_USED_FIRST = 0, /**< Lowest beta first: spread (the thesis, default). */
    PL_DISAGG_MOST_USED_FIRST = 1   /**< Highest beta first: pack. */
} pl_disagg_node_order;

/** Cluster options (GLPK pattern: init, then set what you need). */
typedef struct pl_disagg_opts {
    pl_disagg_perf perf;               /**< SMUFIN model; default ::PL_DISAGG_PERF_TABLE. */
    double smufin_m;                   /**< m of the parametric form; default 0.98. */
    int64_t bw_peak_bytes_per_s;       /**< BW_peak of the parametric form; default 6000 MB/s. */
    int32_t max_composition;           /**< Most devices max-composition composes; default 3, at most ::PL_DISAGG_MAX_COMPOSE. */
    pl_disagg_node_order node_order;   /**< Minimise-fragmentation node order; default least used first. */
    int32_t nvme_beta_cores;           /**< beta of Eq. 5.1 (smallest NVMe core request); default 6. */
    double vgpu_step_s;                /**< "step" added to a vGPU's predicted end (Algorithm 4 line 24); default 0. */
    int reshare;                       /**< Non-zero: sharers are re-evaluated whenever a composition's sharing set
                                            or a GPU's busy vGPUs change (pl_disagg_apply(), pl_disagg_release_at();
                                            doc/disagg.md, "Sharing over time"); 0 (default): a run time is fixed
                                            at its start. */
    int smufin_oversubscribe;          /**< Non-zero: under the model-aware policies (all but first fit) a SMUFIN workload
                                            may join a composition whose free bandwidth is below its request, up to 6
                                            sharers (the range of T(k, s)), its slowdown being the model's; pl_disagg_apply()
                                            accepts it. 0 (default): bandwidth is a hard reservation for every workload.
                                            doc/disagg.md, "Sharing over time". */
} pl_disagg_opts;

/** \brief Set *o to the defaults listed in ::pl_disagg_opts. NULL is a no-op. */
void pl_disagg_opts_init(pl_disagg_opts *o);

/**
 * \brief Replace the cluster's options (copied).
 * \return ::PL_OK; ::PL_EINVAL for NULL, an unknown enum, smufin_m <= 0,
 *         bw_peak <= 0, max_composition outside [1, ::PL_DISAGG_MAX_COMPOSE],
 *         nvme_beta_cores <= 0 or vgpu_step_s < 0.
 */
pl_status pl_disagg_set_opts(pl_disagg_cluster *c, const pl_disagg_opts *o);

/* ---- performance models and formulas ------------------------------------------- */

/**
 * \brief Predicted run time of an NVMe workload on a composition of k
 *        devices with total bandwidth comp_bw, shared by `sharers` workloads
 *        including this one, under the cluster's options. SMUFIN: the table
 *        T(k, s) scaled by base/1600, or the parametric form with BW_avail =
 *        comp_bw / sharers and BW_base = the workload's bandwidth; FIO: base
 *        / k; other models: base.
 * \return ::PL_OK; ::PL_EINVAL for NULL, k < 1, sharers < 1, comp_bw <= 0 or
 *         a SMUFIN workload without bandwidth in the parametric form.
 */
pl_status pl_disagg_predict_nvme(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                                 int32_t k, int64_t comp_bw_bytes_per_s, int32_t sharers,
                                 double *time_s);

/**
 * \brief Co-run slowdown of YOLO on a split GPU with `corunners` busy vGPUs
 *        including its own: 1 -> 1.0, 2 -> 1.05, 3 -> 1.25, 4 -> 3.5, then
 *        x1.5 per extra co-runner (Fig. 5.3 as described in the text).
 * \return ::PL_OK; ::PL_EINVAL for NULL or corunners < 1.
 */
pl_status pl_disagg_yolo_factor(int32_t corunners, double *factor);

/**
 * \brief Eq. 4.1 fitness = (bw_c - bw_j) + (sto_c - sto_j) in MB/s and GB
 *        as printed (inputs in bytes/s and bytes, divided by 1e6 and 1e9).
 *        SMUFIN on a free 2 x (2 GB/s, 600 GB) composition: 2200 + 1157 = 3357.
 */
double pl_disagg_fitness(int64_t bw_c, int64_t sto_c, int64_t bw_j, int64_t sto_j);

/**
 * \brief Eq. 4.2 alpha = [1 - (bw_j/bw_c + sto_j/sto_c)] / (core_j/core_n)
 *        with bw_c, sto_c the unallocated bandwidth/capacity of the
 *        composition and core_n the unallocated cores of its node. A term
 *        whose demand is 0 adds 0 (also when its free amount is 0).
 * \return ::PL_OK; ::PL_EINVAL (message says which guard) for NULL, core_j <= 0
 *         (alpha undefined), core_n < core_j, a negative input, or a positive
 *         demand on a free amount of 0.
 */
pl_status pl_disagg_alpha(int64_t bw_c, int64_t sto_c, int32_t core_n, int64_t bw_j,
                          int64_t sto_j, int32_t core_j, double *alpha);

/**
 * \brief Eq. 4.3 beta = 1 - core_n / tcore_n (share of used cores).
 * \return ::PL_OK; ::PL_EINVAL for NULL, tcore_n <= 0 or core_n outside [0, tcore_n].
 */
pl_status pl_disagg_beta(int32_t core_n, int32_t tcore_n, double *beta);

/**
 * \brief Eq. 5.1 fitness = (free cores - job cores) / beta.
 * \return ::PL_OK; ::PL_EINVAL for NULL or beta_cores <= 0.
 */
pl_status pl_disagg_core_fitness(int32_t free_cores, int32_t job_cores, int32_t beta_cores, double *fitness);

/**
 * \brief Algorithm 3's split count: n = min(floor(gpu_bw/job_bw),
 *        floor(gpu_mem/job_mem)) (a zero demand leaves its term out),
 *        rounded down to the largest allowed split count <= n.
 * \param count receives the count, or 0 when even the smallest allowed
 *        count does not fit the job (or both demands are 0: no count is
 *        then implied; 0).
 * \return ::PL_OK; ::PL_EINVAL for NULL, non-positive GPU sizes, negative
 *         demands or a bad split list.
 */
pl_status pl_disagg_split_count(int64_t gpu_bw, int64_t gpu_mem, int64_t job_bw, int64_t job_mem,
                                const int32_t *splits, int32_t n_splits, int32_t *count);

/** Load factors: demands of the given workloads over the cluster's totals. */
typedef struct pl_disagg_load {
    double cpu;              /**< Cores asked over cores in the cluster; 0 when the total is 0. */
    double nvme_bw;          /**< NVMe bandwidth asked over the total; 0 when the total is 0. */
    double nvme_cap;         /**< NVMe capacity asked over the total; 0 when the total is 0. */
    double gpu_bw;           /**< GPU bandwidth asked over the total; 0 when the total is 0. */
    double gpu_mem;          /**< GPU memory asked over the total; 0 when the total is 0. */
} pl_disagg_load;

/**
 * \brief Eq. 4.6 as the text defines it (the printed fraction is inverted):
 *        LF = sum of the demands of the `n` given workloads (the caller
 *        passes the arrived, unfinished ones) / the cluster's total.
 * \return ::PL_OK; ::PL_EINVAL for NULL (jobs may be NULL when n = 0) or n < 0.
 */
pl_status pl_disagg_load_factors(const pl_disagg_cluster *c, const pl_disagg_workload *jobs,
                                 int32_t n, pl_disagg_load *out);

/** Placement policies. */
typedef enum pl_disagg_policy {
    PL_DISAGG_FIRST_FIT = 0,         /**< Baseline: first fit, no over-provisioning, no model. */
    PL_DISAGG_MAX_COMPOSITION = 1,   /**< Algorithm 1. */
    PL_DISAGG_MIN_FRAGMENTATION = 2, /**< Algorithm 2. */
    PL_DISAGG_AWARE = 3,             /**< Eq. 4.4 switch between 1 and 2 by load factor. */
    PL_DISAGG_GPU_AWARE = 4          /**< Chapter 5: Algorithms 3-4 and Eq. 5.1. */
} pl_disagg_policy;

/** \brief A policy's name ("first-fit", "max-composition",
 *         "min-fragmentation", "disagg-aware", "gpu-aware"), or NULL for
 *         another value. */
const char *pl_disagg_policy_name(pl_disagg_policy p);

/** \brief Parse a policy's name (as pl_disagg_policy_name() gives them). \return ::PL_OK; ::PL_ENOTFOUND (message lists names); ::PL_EINVAL. */
pl_status pl_disagg_policy_find(const char *name, pl_disagg_policy *p);

/**
 * \brief Eq. 4.4: ::PL_DISAGG_MAX_COMPOSITION if (lf_bw <= 0.5 and lf_cap <=
 *        0.5) or (lf_bw >= 0.7 and lf_cap <= 0.7), else ::PL_DISAGG_MIN_FRAGMENTATION.
 */
pl_disagg_policy pl_disagg_aware_choice(double lf_bw, double lf_cap);

/**
 * \brief EDF queue order: order[i] receives the index of the i-th workload
 *        by ascending deadline, ties by arrival then index (stable).
 * \return ::PL_OK; ::PL_EINVAL for NULL or n < 0; ::PL_ENOMEM.
 */
pl_status pl_disagg_edf_order(const pl_disagg_workload *jobs, int32_t n, int32_t *order);

/* ---- decisions ---------------------------------------------------------------- */

/**
 * A placement decision (plain data). When `placed` is 0 the workload must
 * wait (nothing fits now) and the other fields are -1 / 0.
 */
typedef struct pl_disagg_decision {
    int placed;                        /**< 1: resources found. */
    pl_disagg_policy policy;           /**< Policy that decided (Eq. 4.4's pick for ::PL_DISAGG_AWARE). */
    int32_t node;                      /**< Node running its cores, or -1. */
    int32_t composition;               /**< Existing composition it shares, or -1. */
    int32_t n_new_devices;             /**< > 0: compose these free devices into a new composition. */
    int32_t new_devices[PL_DISAGG_MAX_COMPOSE]; /**< Device ids of the new composition. */
    int32_t gpu;                       /**< GPU of its vGPU, or -1. */
    int32_t vgpu;                      /**< vGPU index on that GPU, or -1. */
    int32_t partition;                 /**< > 0: split the (unused) GPU into this many vGPUs first. */
    double predicted_time_s;           /**< Model run time. */
    double score;                      /**< Ranking value used: ttl, alpha, beta or Eq. 5.1 fitness (0 otherwise). */
} pl_disagg_decision;

/**
 * \brief Decide where workload w runs if it starts at time now_s (deadline
 *        checks use now_s + predicted time), under `policy`, on the
 *        cluster's current state. Changes nothing.
 *        lf_bw and lf_cap are only read by ::PL_DISAGG_AWARE (Eq. 4.4).
 *        doc/disagg.md describes each policy step by step.
 * \return ::PL_OK (check d->placed); ::PL_EINVAL for NULL, an unknown policy
 *         or an invalid workload (non-positive base time, negative demand,
 *         both NVMe and GPU, or a model that needs a request it lacks).
 */
pl_status pl_disagg_decide(const pl_disagg_cluster *c, pl_disagg_policy policy,
                           const pl_disagg_workload *w, double now_s, double lf_bw,
                           double lf_cap, pl_disagg_decision *d);

/** \brief First-fit baseline (pl_disagg_decide() with ::PL_DISAGG_FIRST_FIT). */
pl_status pl_disagg_first_fit(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                              double now_s, pl_disagg_decision *d);
/** \brief Algorithm 1 (pl_disagg_decide() with ::PL_DISAGG_MAX_COMPOSITION). */
pl_status pl_disagg_max_composition(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                                    double now_s, pl_disagg_decision *d);
/** \brief Algorithm 2 (pl_disagg_decide() with ::PL_DISAGG_MIN_FRAGMENTATION). */
pl_status pl_disagg_min_fragmentation(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                                      double now_s, pl_disagg_decision *d);
/** \brief Chapter 5 policy (pl_disagg_decide() with ::PL_DISAGG_GPU_AWARE). */
pl_status pl_disagg_gpu_aware(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                              double now_s, pl_disagg_decision *d);

/**
 * \brief Apply a decision: create the composition or GPU partition it names,
 *        reserve the workload's cores, memory, bandwidth and capacity shares
 *        (or its vGPU), and record it as running from now_s until now_s +
 *        d->predicted_time_s recomputed from the model (under
 *        ::pl_disagg_opts.reshare the other sharers of its composition, or
 *        the co-runners on its GPU, are re-evaluated at now_s too). All checks run before
 *        anything changes (on error the cluster is unchanged).
 * \param id receives the placement id for pl_disagg_release(), may be NULL.
 * \return ::PL_OK; ::PL_EINVAL for NULL, a decision with placed = 0, bad ids
 *         (node, composition, device, GPU, vGPU), a device listed twice or a
 *         split count the GPU does not allow; ::PL_EINFEASIBLE for an
 *         over-allocation (cores, memory, bandwidth, capacity, a device or
 *         vGPU already in use, a partition of a GPU already split, a vGPU
 *         share too small); ::PL_ENOMEM.
 */
pl_status pl_disagg_apply(pl_disagg_cluster *c, const pl_disagg_workload *w,
                          const pl_disagg_decision *d, double now_s, int32_t *id);

/**
 * \brief Finish placement `id`: return its cores, memory and shares. A
 *        composition left without sharers is dissolved (its devices return
 *        to the pool); a GPU whose vGPUs are all idle becomes unsplit again.
 * \return ::PL_OK; ::PL_EINVAL for NULL or an id that is not running.
 */
pl_status pl_disagg_release(pl_disagg_cluster *c, int32_t id);

/**
 * \brief pl_disagg_release() at time now_s: under ::pl_disagg_opts.reshare
 *        the workloads left on its composition (or on the other vGPUs of
 *        its GPU) have their remaining work advanced to now_s at the old
 *        sharer (co-runner) count and their ends recomputed at the new one
 *        (pl_disagg_placement() reads them).
 *        Without reshare it is pl_disagg_release().
 * \return ::PL_OK; ::PL_EINVAL for NULL or an id that is not running.
 */
pl_status pl_disagg_release_at(pl_disagg_cluster *c, int32_t id, double now_s);

/* ---- queries ------------------------------------------------------------------- */

/** \brief Free cores and memory of a node (outputs may be NULL). \return ::PL_OK, ::PL_EINVAL (bad id). */
pl_status pl_disagg_node_free(const pl_disagg_cluster *c, int32_t node, int32_t *cores,
                              int64_t *mem_bytes);

/** \brief Composition a device belongs to, or -1 when it is free. \return ::PL_OK, ::PL_EINVAL. */
pl_status pl_disagg_nvme_composition(const pl_disagg_cluster *c, int32_t dev, int32_t *comp);

/** State of a live composition. */
typedef struct pl_disagg_composition_info {
    int32_t node;                 /**< Node it is attached to. */
    int32_t n_devices;            /**< Devices composed. */
    int32_t devices[PL_DISAGG_MAX_COMPOSE]; /**< Their ids, ascending. */
    int64_t bw_bytes_per_s;       /**< Sum of the devices' bandwidth (RAID0). */
    int64_t cap_bytes;            /**< Sum of their capacity. */
    int64_t free_bw_bytes_per_s;  /**< Bandwidth not reserved by sharers. */
    int64_t free_cap_bytes;       /**< Capacity not reserved by sharers. */
    int32_t sharers;              /**< Workloads running on it. */
    double end_s;                 /**< Latest predicted end of its sharers. */
} pl_disagg_composition_info;

/** \brief State of composition `comp`. \return ::PL_OK; ::PL_EINVAL for NULL or an id not alive. */
pl_status pl_disagg_composition(const pl_disagg_cluster *c, int32_t comp,
                                pl_disagg_composition_info *out);

/**
 * \brief Split state of a GPU: vgpus receives its vGPU count (0 = unsplit),
 *        busy the number in use (outputs may be NULL).
 * \return ::PL_OK, ::PL_EINVAL.
 */
pl_status pl_disagg_gpu_state(const pl_disagg_cluster *c, int32_t gpu, int32_t *vgpus,
                              int32_t *busy);

/**
 * \brief Where placement `id` runs and its predicted end (outputs may be NULL;
 *        -1 for resources it does not use).
 * \return ::PL_OK; ::PL_EINVAL for an id that is not running.
 */
pl_status pl_disagg_placement(const pl_disagg_cluster *c, int32_t id, int32_t *node,
                              int32_t *comp, int32_t *gpu, int32_t *vgpu, double *end_s);

/** @} */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_DISAGG_H */
