/**
 * \file placement/drmaestro.h (internal, not installed)
 * \brief DRMaestro (seed 004; thesis ch. 5): multi-phase flow-network
 *        placement of disaggregated resources.
 *
 * One scheduling round places a batch of queued jobs in up to three phases,
 * each a min-cost flow network kept by the handle across rounds and edited
 * in place (so the flow solver re-solves from the previous round's answer):
 *  1. CPU/memory: one node T(k,m) per task m of job k, per-job unscheduled
 *     node U_k, aggregator X, rack nodes RN, server nodes SN (machines), sink t.
 *  2. GPUs: one node G(k,m,z) per GPU z task m requests; the machine task m
 *     got in phase 1 becomes its preference (local) arc; remote GPUs are
 *     reached through the rack node (same rack) or the aggregator (any rack),
 *     and may sit on other machines (software disaggregation) or in
 *     ::PL_VK_POOL pools (hardware disaggregation).
 *  3. NVMe: one node S(k,q) per requested NVMe share, placed on the
 *     ::PL_VK_STORAGE devices of machines or pools in the same way.
 * Gang rule: a job any of whose sub-tasks is unscheduled in any phase is not
 * placed this round; its waiting counter W grows by one. doc/drmaestro.md
 * gives the capacities, the costs and their integer scale.
 *
 * Life cycle: pl_drm_opts_init() -> pl_drm_create() -> pl_drm_round() (or
 * pl_drm_baseline()) as often as wanted, reading pl_drm_result() after each
 * -> pl_drm_free().
 * Thread-safety: a handle must not be used from two threads at once.
 */
#ifndef PLACEMENT_DRMAESTRO_H
#define PLACEMENT_DRMAESTRO_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/topology.h>
#include <placement/job.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal (not installed, not exported): the experiments reach this
 * through the policies, the simulator and the CLI. */
#pragma GCC visibility push(hidden)

/** \defgroup pl_drm DRMaestro
 *  @{ */

/** Opaque scheduler handle. */
typedef struct pl_drm pl_drm;

/** Which GPU / NVMe location a job's preference arcs favour. */
typedef enum pl_drm_locality {
    /** Preference P: local 1, same rack p, other rack 2p - 1 (p = remote_preference). */
    PL_DRM_LOCALITY_FIRST = 0,
    /** Preference P: same rack 1, other rack p, local 2p - 1. */
    PL_DRM_REMOTE_FIRST = 1
} pl_drm_locality;

/** Options of a handle; initialise with pl_drm_opts_init(). */
typedef struct pl_drm_opts {
    const char *solver;        /**< Flow solver name (default "network-simplex"); the string must outlive the handle. */
    int64_t cost_scale;        /**< Integer cost units per unit of Eq. 7/8 cost (default 1000). */
    pl_drm_locality locality;  /**< Default ::PL_DRM_LOCALITY_FIRST. */
    double remote_preference;  /**< p of ::pl_drm_locality, > 1 (default 1.5). */
    int network_aware;         /**< Non-zero: NA policy (remote cost uses phi * sf(load); SLO violations postponed). Default 0. */
    int max_postpone;          /**< NA: rounds a job may be postponed for its SLO before remote placements are offered anyway (default 10, thesis). */
    double tau;                /**< Completion-time goal tau_c (s) for jobs whose request gives none (default 100). */
    double z;                  /**< Importance z_c in [1, 10] for jobs whose request gives none (default 1). */
    double unscheduled_base;   /**< Added to the Eq. 8 unscheduled cost so that leaving a task unscheduled first costs more than placing it (default 1.0). */
    double load_cost;          /**< Cost per unit of a server's used fraction of the phase's resource (load spreading; default 0.1). */
    int cold_start;            /**< Non-zero: rebuild every phase network each round instead of editing the kept ones (for measurements). */
    int slots;                 /**< Non-zero: phases 1 and 3 count free slots of the batch's largest task / share (the form before issue 23); 0 (default): Eq. 5/10's normalised supplies b_i. */
    int drop_running;          /**< Non-zero: requests marked running are dropped from the networks (the form before issue 23); 0 (default): kept with their flow pinned, Algorithm 5. */
} pl_drm_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_drm_opts. */
void pl_drm_opts_init(pl_drm_opts *opts);

/**
 * \brief A job's network sensitivity: the slowdown factor sf of its run time
 *        when a remote resource is used, at a given network load, as a table
 *        interpolated linearly (constant beyond the ends).
 */
typedef struct pl_drm_sensitivity {
    int32_t points;            /**< Number of table entries (0: sf = 1 everywhere). */
    const double *load;        /**< [points] increasing network loads in [0, 1]. */
    const double *slowdown;    /**< [points] slowdown factors >= 1. */
} pl_drm_sensitivity;

/**
 * \brief One queued job as DRMaestro sees it: the job's tasks (cores,
 *        memory and GPUs of each ::pl_task_demand) plus the NVMe request and
 *        the goals the cost model needs. Not copied beyond a round.
 */
typedef struct pl_drm_job_request {
    int64_t id;                /**< Caller's job id, unique and stable across rounds (keys W and the kept network nodes). */
    const pl_job *job;         /**< Tasks: each task is one T(k,m); its gpus give its G(k,m,z). */
    int32_t nvme_shares;       /**< NVMe sub-tasks S(k,q) (0: no phase 3 for this job). */
    int64_t nvme_bw_bytes_per_s; /**< Bandwidth of each share. */
    int64_t nvme_bytes;        /**< Capacity of each share. */
    double phi;                /**< Expected completion time with local resources, s (0: the job's duration; both 0: unknown, Ut = 0). */
    double tau;                /**< Completion-time goal tau_c, s (0: the job's SLO, else opts.tau). */
    double z;                  /**< Importance z_c in [1, 10] (0: opts.z). */
    pl_drm_sensitivity sensitivity; /**< Slowdown of remote placements by network load. */
    int running;               /**< Non-zero: a job this handle placed in an earlier round that still runs (Algorithm 5 keeps it in the networks, its flow pinned to where it was placed, until it is absent from a round). Put after the queued requests. */
} pl_drm_job_request;

/** Why a job was or was not placed this round. */
typedef enum pl_drm_outcome {
    PL_DRM_PLACED = 0,         /**< Every sub-task placed. */
    PL_DRM_NO_CPU = 1,         /**< A task unscheduled in phase 1. */
    PL_DRM_NO_GPU = 2,         /**< A GPU sub-task unscheduled in phase 2. */
    PL_DRM_NO_NVME = 3,        /**< An NVMe sub-task unscheduled in phase 3. */
    PL_DRM_POSTPONED = 4,      /**< NA: no placement meets the SLO (postponed). */
    PL_DRM_RUNNING = 5         /**< A running request, kept (or dropped with opts.drop_running): no decision. */
} pl_drm_outcome;

/** One GPU of a placement. */
typedef struct pl_drm_gpu {
    int32_t task;              /**< Task of the job it serves. */
    int32_t gpu;               /**< The GPU vertex. */
    int32_t server;            /**< Machine or pool vertex serving it. */
    int local;                 /**< Non-zero when server is the task's machine. */
} pl_drm_gpu;

/** One NVMe share of a placement. */
typedef struct pl_drm_nvme {
    int32_t device;            /**< The ::PL_VK_STORAGE vertex. */
    int32_t server;            /**< Machine or pool vertex serving it. */
    int local;                 /**< Non-zero when server is task 0's machine. */
} pl_drm_nvme;

/** Decision for one request of the last round, owned by the handle. */
typedef struct pl_drm_placement {
    int64_t id;                /**< The request's id. */
    pl_drm_outcome outcome;    /**< What this round decided for the request. */
    int64_t waited;            /**< W after this round (rounds left unscheduled so far). */
    int32_t tasks;             /**< Number of tasks. */
    const int32_t *machine;    /**< [tasks] machine vertex of each task (valid when placed). */
    int32_t gpus;              /**< Number of GPUs (valid when placed). */
    const pl_drm_gpu *gpu;     /**< [gpus] */
    int32_t nvme;              /**< Number of NVMe shares (valid when placed). */
    const pl_drm_nvme *share;  /**< [nvme] */
} pl_drm_placement;

/** Timing of the last round. */
typedef struct pl_drm_stats {
    double build_seconds;      /**< Building / editing the phase networks. */
    double solve_seconds;      /**< Inside pl_flownet_solve(), all phases. */
    int warm[3];               /**< Whether each phase's solve started warm. */
    int32_t arcs[3];           /**< Live arcs of each phase network. */
    int64_t cost[3];           /**< Optimal cost of each phase (0 when the phase had nothing to place). */
} pl_drm_stats;

/**
 * \brief Create a scheduler.
 * \param opts NULL for the defaults; copied.
 * \return ::PL_OK; ::PL_EINVAL (NULL \p out, cost_scale < 1, remote_preference <= 1,
 *         z outside [1, 10], tau <= 0); ::PL_ENOTFOUND (unknown solver); ::PL_ENOMEM.
 */
pl_status pl_drm_create(const pl_drm_opts *opts, pl_drm **out);

/** \brief Release a scheduler. NULL is a no-op. */
void pl_drm_free(pl_drm *d);

/**
 * \brief Run one DRMaestro round.
 * Requests are taken in the order given (the caller's queue, e.g. sorted by
 * waiting time). A job id seen in an earlier round keeps its W and its nodes
 * in the kept networks; requests marked running keep their nodes with their
 * flow pinned where this handle placed them (Algorithm 5; outcome
 * ::PL_DRM_RUNNING); ids of earlier rounds absent now are dropped. The
 * free amounts of \p topo (cores and memory under each machine, GPU units,
 * storage bandwidth and bytes) bound the placements; the running requests'
 * resources must be allocated in it.
 * \param topo the cluster: machines (::PL_VK_MACHINE) optionally in racks;
 *        GPU pools and storage pools as ::PL_VK_POOL. Its shape must not
 *        change between rounds of one handle.
 * \param network_load current network load in [0, 1] (NA policy).
 * \param apply non-zero: allocate the placed jobs' resources in \p topo.
 * \param[out] stats timings (may be NULL).
 * \return ::PL_OK; ::PL_EINVAL (bad arguments, a job without tasks,
 *         duplicate ids, a topology of another shape than in earlier
 *         rounds, a running request this handle never placed or whose
 *         tasks changed); errors of the flow solver; ::PL_ENOMEM.
 *         On error W and the topology are unchanged.
 */
pl_status pl_drm_round(pl_drm *d, pl_topology *topo, const pl_drm_job_request *reqs,
                       int32_t n, double network_load, int apply, pl_drm_stats *stats);

/** Baselines of pl_drm_baseline(). */
typedef enum pl_drm_baseline_kind {
    /** First machine (in preorder) where all tasks fit; GPUs local first, then nearest (same rack, then any). */
    PL_DRM_GREEDY_LOCAL = 0,
    /** First machine where all tasks fit; GPUs drawn uniformly among all free GPUs of the cluster (SLURM rgpu-like). */
    PL_DRM_RANDOM_REMOTE = 1
} pl_drm_baseline_kind;

/**
 * \brief Place the requests with a non-flow baseline, in order, each job
 *        all or nothing; results as for pl_drm_round() (W counted too).
 * \param seed seed of ::PL_DRM_RANDOM_REMOTE's generator.
 * \return as pl_drm_round().
 */
pl_status pl_drm_baseline(pl_drm *d, pl_topology *topo, const pl_drm_job_request *reqs,
                          int32_t n, pl_drm_baseline_kind kind, uint64_t seed, int apply);

/** \brief Number of decisions of the last round (its request count). */
int32_t pl_drm_result_count(const pl_drm *d);

/**
 * \brief Decision for request \p i of the last round.
 * \return a view owned by the handle, valid until the next round or
 *         pl_drm_free(); NULL if \p i is out of range.
 */
const pl_drm_placement *pl_drm_result(const pl_drm *d, int32_t i);

/** \brief Current W of job \p id (0 if unknown). */
int64_t pl_drm_waited(const pl_drm *d, int64_t id);

/**
 * \brief Utility of Eq. 6 (thesis Eq. 11): (tau - phi) / tau when phi <= tau,
 *        else (tau - phi) / tau * (10 - z) / 9.
 * \return the utility; NaN when tau <= 0.
 */
double pl_drm_utility(double phi, double tau, double z);

/** \brief Arc cost of Eq. 7/8: (1 - ut) * preference + waited (0 for Eq. 7). */
double pl_drm_cost(double ut, double preference, double waited);

/** \brief Slowdown factor of \p s at \p load (1 for an empty table). */
double pl_drm_slowdown(const pl_drm_sensitivity *s, double load);

/** @} */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_DRMAESTRO_H */
