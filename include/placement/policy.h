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
 *  - "sa-placement": seed 003 (Kim thesis ch. 2 sec. 3.2): simulated
 *    annealing over the queue's candidate configurations (a machine, its
 *    GPUs packed on fewest sockets or spread over its sockets), maximising
 *    the geometric mean of speedups predicted from the interference
 *    profiles or a user predictor; batch or on-line (::pl_sa_policy_opts).
 *  - "two-level": seed 003 ch. 3: GPUs of each platform type distributed
 *    over the workloads by platform affinity, then each job mapped to the
 *    machine of its shares where its co-runners slow it least
 *    (::pl_two_level_opts).
 *  - "gpu-qos": seed 003 ch. 5: latency-sensitive jobs (SLO > 0) paired
 *    with batch jobs on shared GPUs by Min-Max Pairing when the pair keeps
 *    the QoS; sharing only on GPUs whose units capacity is >= 2
 *    (::pl_gpu_qos_opts).
 *  - "constraint-energy", "constraint-balance": seed 003 ch. 4: the queue
 *    placed under its placement constraints on the fewest active machines
 *    (energy saving) or with the machines' GPU load balanced.
 * Every policy honours the jobs' placement constraints (placement/job.h:
 * node Must/MustNot on attributes, collocation, anti-collocation,
 * anti-affinity between labelled jobs); a job whose constraints conflict on
 * this topology is ::PL_DECISION_REJECTED with the conflict in its reason.
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
    uint64_t seed;                   /**< For "random" and "sa-placement" (default 1): the same seed gives
                                          the same decisions. */
    int32_t max_placed;              /**< Stop after placing this many jobs (0 = no limit). */
    double network_load;             /**< Current network load in [0, 1], for "drmaestro-na" (default 0). */
    const void *policy_opts;         /**< Options of the selected policy (borrowed), or NULL (default) for its
                                          defaults: a ::pl_sa_policy_opts for "sa-placement", a
                                          ::pl_two_level_opts for "two-level", a ::pl_gpu_qos_opts for "gpu-qos",
                                          each set up by its init function. Those policies refuse a struct of
                                          another kind (::PL_EINVAL); the other policies ignore the field. */
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

/** \defgroup pl_policy_kim Options of the seed-003 policies (Kim thesis)
 *
 * Set up one of these with its init function, change what you need, and
 * point pl_policy_opts::policy_opts at it (doc/policies.md sec. 4e). The
 * first member is a tag that lets a policy refuse another policy's struct.
 *  @{ */

/** Tag in the first member of a policy-specific options struct. */
typedef enum pl_policy_ext_kind {
    PL_POLICY_EXT_SA = 0x5a030001,        /**< A ::pl_sa_policy_opts ("sa-placement"). */
    PL_POLICY_EXT_TWO_LEVEL = 0x5a030002, /**< A ::pl_two_level_opts ("two-level"). */
    PL_POLICY_EXT_GPU_QOS = 0x5a030003    /**< A ::pl_gpu_qos_opts ("gpu-qos"). */
} pl_policy_ext_kind;

/** Scheduling mode of "sa-placement" (thesis ch. 2 sec. 3.2). */
typedef enum pl_sa_mode {
    PL_SA_BATCH = 0,  /**< The whole queue is annealed together (the jobs admitted move, running ones stay). */
    PL_SA_ONLINE = 1  /**< One job at a time in queue order, against the running jobs and those placed before it. */
} pl_sa_mode;

/** What a "sa-placement" predictor is asked: one job's run time on a hypothetical placement. */
typedef struct pl_sa_query {
    const pl_job *job;              /**< The job whose run time is asked (queued or running). */
    const pl_topology *topo;        /**< The caller's topology (read-only). */
    int32_t machine;                /**< Machine vertex holding its GPUs, or -1 if they span machines (a running job). */
    const int32_t *gpus;            /**< GPU vertex of each task, [ngpus]. */
    int32_t ngpus;                  /**< Its tasks. */
    pl_spread spread;               /**< ::PL_SPREAD_INTRA_SOCKET when every GPU is on one socket. */
    const pl_job *const *corunners; /**< Jobs holding a GPU on a socket of \c gpus (its co-runners), [ncorunners]. */
    const int32_t *corunner_gpus;   /**< Their task counts, [ncorunners]. */
    int32_t ncorunners;             /**< Number of co-runners (0 = the solo run time is asked). */
} pl_sa_query;

/**
 * \brief User-supplied run-time predictor of "sa-placement" (e.g. a learned
 *        model, placement/coloc.h). Called from the policy call's thread.
 * \param ctx pl_sa_policy_opts::predict_ctx.
 * \param q   the query (valid during the call only).
 * \param runtime_s receives the predicted run time, finite and > 0.
 * \return ::PL_OK, or an error status that aborts the policy call and is returned by it.
 */
typedef pl_status (*pl_sa_predict_fn)(void *ctx, const pl_sa_query *q, double *runtime_s);

/** Options of "sa-placement"; initialise with pl_sa_policy_opts_init(). The seed is pl_policy_opts::seed. */
typedef struct pl_sa_policy_opts {
    pl_policy_ext_kind kind;     /**< ::PL_POLICY_EXT_SA (set by the init function). */
    pl_sa_mode mode;             /**< ::PL_SA_BATCH (default) or ::PL_SA_ONLINE. */
    int64_t iterations;          /**< Moves tried (default 2000; >= 0; 0 keeps the first-fit start). On-line: per job,
                                      and a job with no more other configurations than this tries them all. */
    double initial_temperature;  /**< T0 in units of the sum over the jobs of log speedup, i.e. of one job's log
                                      speedup (default 0.05; finite, >= 0): a move that slows one job by 5 %
                                      is accepted with probability exp(-log 1.05 / T). */
    double cooling;              /**< Geometric cooling factor per iteration, in (0, 1] (default 0.995). */
    pl_sa_predict_fn predict;    /**< NULL (default): solo time of the job's spread times its largest profile
                                      slowdown against a co-runner (pl_policy_opts::profiles). */
    void *predict_ctx;           /**< Passed to \c predict (borrowed). */
} pl_sa_policy_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_sa_policy_opts. */
void pl_sa_policy_opts_init(pl_sa_policy_opts *opts);

/**
 * Options of "two-level"; initialise with pl_two_level_opts_init().
 *
 * The platform type of a machine is its name without trailing digits
 * ("gene17" -> "gene"): a JSON topology names each machine group after its
 * platform (doc/policies.md sec. 4e). The table gives t_K(P), the mean run
 * time of one task of workload type K alone on one GPU of platform P (the
 * thesis's OneCore runtime, Table 3.3), from which the platform affinity is
 * computed. Without a table, or with fewer than two of its platforms in the
 * topology, every platform is as good as any other for every workload.
 */
typedef struct pl_two_level_opts {
    pl_policy_ext_kind kind;        /**< ::PL_POLICY_EXT_TWO_LEVEL (set by the init function). */
    int32_t nplatforms;             /**< Columns of the table (default 0: no table). */
    const char *const *platforms;   /**< Platform type names, [nplatforms], distinct and non-empty (borrowed). */
    int32_t nworkloads;             /**< Rows of the table (default 0). */
    const char *const *workloads;   /**< Workload types (pl_job_workload_type()), [nworkloads], distinct (borrowed). */
    const double *task_runtime_s;   /**< [nworkloads * nplatforms] row-major t_K(P) in seconds, finite and > 0 (borrowed). */
} pl_two_level_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_two_level_opts (no table). */
void pl_two_level_opts_init(pl_two_level_opts *opts);

/** Pairing algorithm of "gpu-qos" (placement/gpuqos.h). */
typedef enum pl_gpu_pairing_algo {
    PL_GPU_PAIRING_MMP = 0,       /**< pl_gpu_mmp(): Min-Max Pairing, the thesis's Algorithm 2 with its bugs fixed (default). */
    PL_GPU_PAIRING_MMP_STUCK = 1, /**< pl_gpu_mmp_variant() dropping the largest element only when stuck. */
    PL_GPU_PAIRING_GREEDY = 2,    /**< pl_gpu_greedy(): lowest batch slowdown first. */
    PL_GPU_PAIRING_OPTIMAL = 3    /**< pl_gpu_pairing_optimal(): exact, by min-cost flow (default solver). */
} pl_gpu_pairing_algo;

/**
 * \brief User-supplied pair predictor of "gpu-qos": the slowdowns, as
 *        (co-located - solo) / solo, of a latency-sensitive job and a batch
 *        job sharing their GPUs (e.g. from pl_gpu_qos_matrix(), with the
 *        batch slowdown of the best kernel-split factor).
 * \param ls_slowdown, batch_slowdown receive values >= 0, or NAN when the
 *        pair cannot share GPUs at all.
 * \return ::PL_OK, or an error status that aborts the policy call and is returned by it.
 */
typedef pl_status (*pl_gpu_pair_fn)(void *ctx, const pl_job *ls, const pl_job *batch,
                                    double *ls_slowdown, double *batch_slowdown);

/** Options of "gpu-qos"; initialise with pl_gpu_qos_opts_init(). */
typedef struct pl_gpu_qos_opts {
    pl_policy_ext_kind kind;      /**< ::PL_POLICY_EXT_GPU_QOS (set by the init function). */
    double qos;                   /**< A latency-sensitive job's slowdown must stay strictly below this (default 0.2). */
    pl_gpu_pairing_algo pairing;  /**< How the pairs are chosen (default ::PL_GPU_PAIRING_MMP). */
    pl_gpu_pair_fn predict;       /**< NULL (default): both slowdowns from the co-located and intra-socket solo
                                       times of pl_policy_opts::profiles; a pair not profiled is not paired. */
    void *predict_ctx;            /**< Passed to \c predict (borrowed). */
    double share_factor;          /**< Cost of sharing the GPU itself, for the default predictor only (\c predict
                                       NULL): each side's slowdown is max(1, co-located / solo) x share_factor - 1,
                                       the simulator's rule for co-tenants (pl_sim_opts::gpu_share_factor). The
                                       socket profiles do not see the device side; set this to the cluster's (or
                                       simulator's) factor so the QoS check does. Finite and >= 1, else
                                       ::PL_EINVAL. Default 1.0: the profiles alone (no device-side cost). */
} pl_gpu_qos_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_gpu_qos_opts. */
void pl_gpu_qos_opts_init(pl_gpu_qos_opts *opts);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_POLICY_H */
