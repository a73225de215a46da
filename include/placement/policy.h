/**
 * \file placement/policy.h
 * \brief Placement policies, pluggable by name like the solvers: given a
 *        topology (with its current allocation), the jobs running on it and
 *        a queue of jobs, decide which queued jobs go where.
 *
 * Built-in policies (doc/policies.md):
 *  - "topo-aware": seed 002's Algorithm 1 loop body: filter machines by the
 *    job's constraints, map it with Dual Recursive Bipartitioning
 *    (Algorithm 2; physical bipartition refined by Fiduccia-Mattheyses) and
 *    the utility-based job-graph bipartition (Algorithm 3), honouring
 *    t_gpu <= p_gpu and t_bw <= p_bw; keeps the best-utility machine.
 *  - "topo-aware-p": the same, but a job whose best utility is below its
 *    minimal utility is postponed (the queue goes on: out-of-order).
 *  - "fcfs": first fit in queue order; stops at the first job that does not fit.
 *  - "bf": best fit: the socket with the fewest free GPUs that still holds
 *    the job (spilling over), skipping jobs that do not fit.
 *  - "pack": fewest sockets and machines (minimum communication cost).
 *  - "spread": GPUs from as many sockets as possible.
 *  - "random": uniformly random free GPUs of one machine (opts.seed).
 *  - "drmaestro", "drmaestro-na": seed 004's multi-phase min-cost-flow
 *    placement (placement/drmaestro.h) for one round, locality first or
 *    network-aware at opts.network_load; a task's GPU may be on another
 *    machine (remote GPU). For W across rounds, NVMe requests and
 *    network-sensitivity tables use the pl_drm handle directly.
 * The five baselines place a job on one machine (a multi-node job that no
 * machine can hold is rejected by them); across machines fcfs and bf keep the
 * highest job utility (the SC17 artifact's rule), every policy considers
 * every machine and the first machine wins a tie.
 *
 * A call decides, it does not allocate: the decisions see each other (a job
 * placed earlier in the same call takes its GPUs from the later ones), but
 * the topology is left unchanged until pl_decision_apply().
 *
 * Resources of a task placed on GPU g: one ::PL_RES_UNITS of g and its
 * gpu_memory on g; its cores and bandwidth on g's package, its memory on
 * that package's first NUMA node (when those have a capacity: a vertex whose
 * capacity of a resource is 0 does not model it, and it is not checked
 * there). Every task takes a whole GPU, also one whose demand says 0 GPUs; a
 * task asking for more than 1 GPU makes the job ::PL_DECISION_REJECTED.
 */
#ifndef PLACEMENT_POLICY_H
#define PLACEMENT_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include <placement/status.h>
#include <placement/topology.h>
#include <placement/job.h>
#include <placement/interference.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_policy Placement policies
 *  @{ */

/** A job already running, with the GPU vertices it holds (all borrowed). */
typedef struct pl_running_job {
    const pl_job *job;       /**< The job (borrowed). */
    const int32_t *gpus;     /**< GPU vertex of each of its tasks, [ngpus] (borrowed). */
    int32_t ngpus;           /**< Length of \c gpus. */
} pl_running_job;

/** Outcome for one queued job. */
typedef enum pl_decision_kind {
    PL_DECISION_PLACED = 0,    /**< Placed: gpus[] holds one GPU vertex per task. */
    PL_DECISION_POSTPONED = 1, /**< Could be placed, but only below its minimal utility (topo-aware-p). */
    PL_DECISION_WAITING = 2,   /**< Does not fit in the free resources now (or an earlier job blocks it: fcfs). */
    PL_DECISION_REJECTED = 3   /**< Can never fit this topology (e.g. more GPUs than any machine has). */
} pl_decision_kind;

/** One job's decision, filled by pl_decision_get(). Pointers are owned by the decision. */
typedef struct pl_decision_info {
    pl_decision_kind kind;   /**< What the policy decided for the job (::pl_decision_kind). */
    int32_t ngpus;           /**< Tasks placed (0 unless placed). */
    const int32_t *gpus;     /**< GPU vertex of task i. */
    int32_t machine;         /**< The machine vertex holding them, or -1 if several. */
    double utility;          /**< Job utility of the placement (or of the best one found, when postponed). */
    int64_t comm_cost;       /**< Eq. (3) over the GPUs (sum of GPU-pair distances). */
    double slowdown;         /**< Predicted slowdown from co-located jobs: the largest profile slowdown
                                  against a job on the same sockets (>= 1; 1 = none or unknown). */
    const char *reason;      /**< Why it was not placed (empty when placed). */
} pl_decision_info;

/** Opaque set of decisions, one per queued job in queue order. */
typedef struct pl_decision pl_decision;

/** Options of a policy call; initialise with pl_policy_opts_init(). */
typedef struct pl_policy_opts {
    const char *policy;              /**< Policy name (default "topo-aware"). */
    pl_utility_opts utility;         /**< Weights and utility form. */
    const pl_profile_set *profiles;  /**< Interference profiles (borrowed); NULL = pl_profile_set_builtin(). */
    uint64_t seed;                   /**< For "random" (default 1). */
    int32_t max_placed;              /**< Stop after placing this many jobs (0 = no limit). */
    double network_load;             /**< Current network load in [0, 1], for "drmaestro-na" (default 0). */
} pl_policy_opts;

/** \brief Defaults for every field (see each). */
void pl_policy_opts_init(pl_policy_opts *opts);

/** What a policy receives (for policies written outside the library). */
typedef struct pl_policy_request {
    const pl_policy_opts *opts;     /**< Options of this call (never NULL: defaults filled in). */
    const pl_topology *topo;        /**< Cluster, with the running jobs' GPUs allocated. */
    const pl_running_job *running;  /**< Jobs already running, [nrunning]. */
    int32_t nrunning;               /**< Length of \c running. */
    pl_job *const *queue;           /**< Jobs to decide, in queue order, [nqueue]. */
    int32_t nqueue;                 /**< Length of \c queue. */
} pl_policy_request;

/** A placement policy, registered by name. */
typedef struct pl_policy_ops {
    const char *name;        /**< Unique registry name, e.g. "topo-aware". */
    const char *description; /**< One line for `placement policies`. */
    /** Fill \p out (created with nqueue WAITING entries) with a decision
     *  per queued job, using pl_decision_set(). Must not modify the request. */
    pl_status (*place)(const pl_policy_request *req, pl_decision *out);
} pl_policy_ops;

/**
 * \brief Decide placements for \p queue (in that order of priority).
 * \param running jobs already on \p topo (their GPUs are allocated in \p topo
 *        by the caller); used for interference. May be NULL with nrunning 0.
 * \param[out] out released with pl_decision_free().
 * \return ::PL_OK (each job's outcome is in its decision); ::PL_ENOTFOUND
 *         (unknown policy; the message lists the names); ::PL_EINVAL (bad
 *         options: utility weights not summing to 1, NULL jobs, ...);
 *         ::PL_ENOMEM. The topology is never modified.
 */
pl_status pl_policy_place(const pl_policy_opts *opts, const pl_topology *topo,
                          const pl_running_job *running, int32_t nrunning, pl_job *const *queue,
                          int32_t nqueue, pl_decision **out);

/** \brief Number of decisions (= the queue length; 0 for NULL). */
int32_t pl_decision_count(const pl_decision *d);
/** \brief Decision \p i. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_decision_get(const pl_decision *d, int32_t i, pl_decision_info *info);

/**
 * \brief For policy implementations: set decision \p i (copies \p gpus and
 *        \p reason). gpus/ngpus only for ::PL_DECISION_PLACED.
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_decision_set(pl_decision *d, int32_t i, const pl_decision_info *info);

/**
 * \brief Allocate on \p topo the resources of every placed job (see the file
 *        comment), all or nothing.
 * \return ::PL_OK; ::PL_EINVAL (a resource no longer free: nothing allocated).
 */
pl_status pl_decision_apply(const pl_decision *d, const pl_policy_request *req, pl_topology *topo);

/** \brief Release a decision set. NULL is a no-op. */
void pl_decision_free(pl_decision *d);

/**
 * \brief Register a policy (same rules as pl_solver_register()).
 * \param ops not copied: it must stay valid until pl_policy_unregister() or
 *            the end of the program.
 * \return ::PL_OK; ::PL_EINVAL (NULL ops, name or function, or the name is
 *         taken); ::PL_ENOMEM.
 * \note Thread-safe (the registry is guarded by a mutex).
 */
pl_status pl_policy_register(const pl_policy_ops *ops);

/**
 * \brief Remove a policy registered with pl_policy_register().
 * \return ::PL_OK; ::PL_ENOTFOUND; ::PL_EINVAL for a built-in policy.
 */
pl_status pl_policy_unregister(const char *name);

/** \brief Find a policy by name (built-in first). \return ::PL_OK, ::PL_ENOTFOUND (message lists the names), ::PL_EINVAL. */
pl_status pl_policy_find(const char *name, const pl_policy_ops **ops);

/** \brief Number of policies known (built-in + registered). */
int pl_policy_count(void);

/** \brief The \p i-th policy, built-in ones first in a fixed order; NULL if out of range. */
const pl_policy_ops *pl_policy_get(int i);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_POLICY_H */
