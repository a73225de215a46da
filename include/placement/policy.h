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
 * Resources of a task (placement/job.h's three kinds; a vertex whose
 * capacity of a resource is 0 does not model it, and it is not checked
 * there):
 *  - GPU task on GPU g: one ::PL_RES_UNITS of g, its share of g's
 *    ::PL_RES_GPU_MILLI (capacity / units: all 1000 of an ordinary GPU, so a
 *    GPU shared by fractional tasks is never given whole) and its gpu_memory
 *    on g; its cores (pl_task_cores()) and bandwidth on g's package, its
 *    memory on that package's first NUMA node;
 *  - fractional task (gpu_milli 1..999) on GPU g: gpu_milli of g's
 *    ::PL_RES_GPU_MILLI (always checked: capacity 0 means "never shared")
 *    and its gpu_memory on g, no unit; cores, bandwidth and memory as above;
 *  - CPU-only task (gpus 0, gpu_milli 0) on package p: no GPU; its cores and
 *    bandwidth on p, its memory on p's first NUMA node;
 *  - task of k > 1 whole GPUs on GPUs g1..gk of one machine: one unit (and
 *    share of milli, and its gpu_memory) of each; its cores, bandwidth and
 *    memory as a GPU task on g1 (the first entry of its k).
 *
 * Every policy honours tasks of k > 1 GPUs the same way, without knowing of
 * them: pl_policy_place() shows it each such job as its slot job, where the
 * task is k tasks of one GPU (the first with the task's cores, memory,
 * bandwidth and CPU millicores, the others with its GPU memory), which
 * must share one machine (collocation), with the task's traffic to each
 * other task spread evenly over their slot pairs and, between its own
 * slots, the job's largest traffic (1 when it has none), so a
 * topology-aware policy keeps them on well-connected GPUs. Its node rules
 * apply to each slot, its anti-collocations to every pair of slots. The
 * decision has one entry per slot (pl_decision_info::ngpus). A placement
 * that puts the slots of one task on two machines or one GPU twice is
 * turned into ::PL_DECISION_REJECTED with the reason. The DRMaestro
 * policies, whose tasks may use remote GPUs, hold the GPUs of such a task
 * on one machine, local to the task (doc/drmaestro.md).
 *
 * Every policy honours these demands and the job's GPU model requirement
 * (pl_job_set_gpu_model()) without knowing of them: pl_policy_place() hands
 * the policy a view of each such job with its whole-GPU tasks only (traffic
 * and constraints kept, a CPU-only task's demand added to the GPU task it
 * exchanges the most traffic with, which it then sits next to, on the same
 * package), on a topology where a GPU partly taken by fractional tasks, or
 * of a model the job does not accept, is not free; then it places the
 * fractional tasks itself (best fit: the GPU with the least milli left that
 * holds the task, preferring the job's own machines, on the job's machine
 * when it is single-node) and the CPU-only tasks that could not sit next to
 * a GPU task (the job's machine with the most traffic to the task, else the
 * first machine with room; first package with room). A job with no whole-GPU
 * task is placed by that step alone. Such a job is decided in a policy call
 * of its own, and the rest of the queue in the next one: a batch policy
 * (sa-placement) anneals the jobs between two such jobs together, and a job
 * waiting in one call does not hold up (fcfs) the jobs of the next.
 * doc/policies.md sec. 1 has the details and examples.
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
    const int32_t *gpus;     /**< The GPU vertices it holds, [ngpus] (borrowed): those of its decision's
                                  entries (a task of k GPUs holds k). */
    int32_t ngpus;           /**< Length of \c gpus. */
} pl_running_job;

/** Outcome for one queued job. */
typedef enum pl_decision_kind {
    PL_DECISION_PLACED = 0,    /**< Placed: gpus[] holds one GPU vertex per entry (pl_decision_info::ngpus). */
    PL_DECISION_POSTPONED = 1, /**< Could be placed, but only below its minimal utility (topo-aware-p). */
    PL_DECISION_WAITING = 2,   /**< Does not fit in the free resources now (or an earlier job blocks it: fcfs). */
    PL_DECISION_REJECTED = 3   /**< Can never fit this topology (e.g. more GPUs than any machine has). */
} pl_decision_kind;

/** One job's decision, filled by pl_decision_get(). Pointers are owned by the decision. */
typedef struct pl_decision_info {
    pl_decision_kind kind;   /**< What the policy decided for the job (::pl_decision_kind). */
    int32_t ngpus;           /**< Entries (0 unless placed): the length of gpus and hosts. One entry per
                                  task, except that a task of k > 1 whole GPUs has k consecutive entries,
                                  one per GPU (all on one machine); the entries follow the task order.
                                  So for a job of tasks of at most one GPU, entry i is task i. */
    const int32_t *gpus;     /**< GPU vertex of entry i; -1 for a CPU-only task (see hosts). Two
                                  fractional tasks may name the same GPU; the entries of one task of
                                  several GPUs never do. */
    int32_t machine;         /**< The machine vertex holding them, or -1 if several. */
    double utility;          /**< Job utility of the placement (or of the best one found, when postponed). */
    int64_t comm_cost;       /**< Eq. (3) over the GPUs (sum of GPU-pair distances). */
    double slowdown;         /**< Predicted slowdown from co-located jobs: the largest profile slowdown
                                  against a job on the same sockets (>= 1; 1 = none or unknown). */
    const char *reason;      /**< Why it was not placed (empty when placed). */
    const int32_t *hosts;    /**< Where entry i runs, [ngpus] (placed only): its GPU vertex for a GPU task
                                  (whole or fractional: the same as gpus[i]), its package vertex for a
                                  CPU-only task (gpus[i] is -1), or its machine vertex when the machine
                                  models no package. For a job of GPU tasks only it equals
                                  gpus. pl_decision_get() always fills it for a placed job; to
                                  pl_decision_set() NULL means "the same as gpus" (every gpus[i] a GPU). */
    const int32_t *storage;  /**< [ngpus] (placed only): the storage vertex (::PL_VK_STORAGE) holding the
                                  NVMe demand (pl_task_demand's storage_bw, storage_bytes) of entry i's
                                  task, -1 for a task without one; NULL when the job has no storage
                                  demand. The entries of one task of several GPUs name the same device;
                                  a job whose policy planned its storage itself (over several devices,
                                  doc/policies.md "NVMe storage") names the plan's first device.
                                  The engine fills it after the policy; pl_decision_set() ignores it (a
                                  policy's struct may leave it unset, as it could the reserved tail this
                                  member took the first slot of; the size did not change). */
    uint64_t reserved[3];    /**< Room for members added later: zero, unused (pl_decision_get() zeroes it,
                                  pl_decision_set() ignores it). */
} pl_decision_info;

/** Opaque set of decisions, one per queued job in queue order. */
typedef struct pl_decision pl_decision;

/** Options of a policy call; initialise with pl_policy_opts_init(). */
typedef struct pl_policy_opts {
    const char *policy;              /**< Policy name (default ::PL_DEFAULT_POLICY). */
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
    double now;                      /**< The caller's clock, seconds (default 0), in the time base of the jobs'
                                          arrivals: policies with deadlines (the NVMe composition rules) check
                                          now + a predicted run time against a job's arrival + SLO. The
                                          simulator sets it to the round's time. Taken from the reserved tail
                                          (the size is unchanged). */
    uint64_t reserved[3];      /**< Room for members added later without changing the size (ABI): zero, unused. */
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
    void *state;                    /**< The instance's state made by pl_policy_ops::create, or NULL for a
                                         policy without one (since ops version 2). */
    const void *data;               /**< pl_policy_ops::data of the policy (since ops version 2). */
} pl_policy_request;

/** Version of ::pl_policy_ops this header describes. */
#define PL_POLICY_OPS_VERSION 2

/** The policy pl_policy_opts_init() selects. */
#define PL_DEFAULT_POLICY "topo-aware"

/**
 * A placement policy, registered by name.
 *
 * A policy may keep state across calls (a scheduler's rounds): DRMaestro's
 * waiting counters, a model learned from earlier rounds. \c create makes
 * the state of one instance (pl_policy_create(), one per pl_sched handle
 * and policy, one per simulator run), \c place receives it in
 * pl_policy_request::state, \c destroy frees it. A one-shot
 * pl_policy_place() makes a fresh instance for the call.
 */
typedef struct pl_policy_ops {
    const char *name;        /**< Unique registry name, e.g. "topo-aware". */
    const char *description; /**< One line for `placement policies`. */
    /** Fill \p out (created with nqueue WAITING entries) with a decision
     *  per queued job, using pl_decision_set(). Must not modify the request
     *  (its state excepted). */
    pl_status (*place)(const pl_policy_request *req, pl_decision *out);
    /* ---- ops version 2: the members below are read only when version >= 2 */
    int32_t version;         /**< ::PL_POLICY_OPS_VERSION, or 0 for a table of the three members above. */
    /** Make an instance's state from the options it is created with and
     *  the policy's \c data (NULL member: the policy keeps no state). */
    pl_status (*create)(const pl_policy_opts *opts, const void *data, void **state);
    /** Free a state made by \c create (NULL member: nothing to free). */
    void (*destroy)(void *state);
    /** How many more rounds without any change to the cluster may still
     *  change this instance's decisions (waiting counters, postponements),
     *  or 0 (NULL member): deciding again only helps after an event. A
     *  scheduler that gets a positive answer calls again periodically. */
    int32_t (*idle_rounds)(const void *state);
    /** ::PL_POLICY_CPU_JOBS (0: none); the other bits are reserved for the
     *  library's own policies (pl_policy_register() refuses them). */
    uint32_t flags;
    /** Constant data of this policy, handed to \c place in
     *  pl_policy_request::data: several registered policies may share one
     *  place function and differ only in it (NULL: none). */
    const void *data;
} pl_policy_ops;

/** pl_policy_ops::flags: the policy places jobs that ask for no GPU itself
 *  (DRMaestro's phase 1); without it a caller that has such jobs places
 *  them first fit (the simulator does). */
#define PL_POLICY_CPU_JOBS 1u

/** Opaque policy instance: a policy and its state across calls. */
typedef struct pl_policy pl_policy;

/**
 * \brief An instance of the policy \p opts->policy (NULL: ::PL_DEFAULT_POLICY)
 *        whose state lasts until pl_policy_free(): call pl_policy_decide()
 *        once per scheduling round.
 * \param opts copied (the pointers in it are borrowed: profiles and
 *        policy_opts must outlive the instance).
 * \return ::PL_OK; ::PL_ENOTFOUND (unknown policy); ::PL_EINVAL (NULL
 *         argument, bad options); ::PL_ENOMEM; or what the policy's create
 *         returns.
 */
pl_status pl_policy_create(const pl_policy_opts *opts, pl_policy **out);

/** \brief Free an instance and its state. NULL is a no-op. */
void pl_policy_free(pl_policy *p);

/** \brief The instance's policy name ("" for NULL). */
const char *pl_policy_name(const pl_policy *p);

/**
 * \brief One round of the instance: as pl_policy_place(), with the state
 *        kept from earlier rounds.
 *
 * The instance also keeps what it makes of a queued job that has a task of
 * several GPUs (its slot job) while the job waits unchanged; a job changed,
 * or freed and another made at its address, between two rounds is seen as
 * new (compared with a copy, not by its address alone). What a round does
 * not see again is freed at its end.
 * \param opts this round's options (NULL: those given at creation); its
 *        policy name must be the instance's (::PL_EINVAL otherwise).
 */
pl_status pl_policy_decide(pl_policy *p, const pl_policy_opts *opts, const pl_topology *topo,
                           const pl_running_job *running, int32_t nrunning, pl_job *const *queue,
                           int32_t nqueue, pl_decision **out);

/** \brief pl_policy_ops::idle_rounds of the instance (0 when the policy has none, or for NULL). */
int32_t pl_policy_idle_rounds(const pl_policy *p);

/** \brief pl_policy_ops::flags of the instance (0 for NULL). */
uint32_t pl_policy_flags(const pl_policy *p);

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
 * \brief For policy implementations: set decision \p i (copies \p gpus,
 *        \p hosts and \p reason; ignores \p storage, which the engine
 *        fills after the policy, doc/policies.md). gpus/ngpus only for
 *        ::PL_DECISION_PLACED.
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_decision_set(pl_decision *d, int32_t i, const pl_decision_info *info);

/**
 * \brief Allocate on \p topo the resources of every placed job (see the file
 *        comment), all or nothing. A live scheduler uses pl_sched_commit()
 *        (placement/sched.h), which also releases.
 * \param queue the queue the decisions were made for (decision i is job
 *        queue[i]), [nqueue].
 * \return ::PL_OK; ::PL_EINVAL (NULL argument, a decision without its job or
 *         with another task count, a resource no longer free: nothing
 *         allocated).
 */
pl_status pl_decision_apply(const pl_decision *d, pl_job *const *queue, int32_t nqueue, pl_topology *topo);

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

/** \defgroup pl_policy_ext Options of one policy
 *
 * A policy with options of its own declares them in its own header
 * (placement/sa_placement.h, placement/two_level.h, placement/gpu_qos.h,
 * all included here). Set up one of these with its init function, change what you need, and
 * point pl_policy_opts::policy_opts at it (doc/policies.md sec. 4e). The
 * first member is a tag that lets a policy refuse another policy's struct.
 *  @{ */

/** Tag in the first member of a policy-specific options struct. */
typedef enum pl_policy_ext_kind {
    PL_POLICY_EXT_SA = 0x5a030001,        /**< A ::pl_sa_policy_opts ("sa-placement"). */
    PL_POLICY_EXT_TWO_LEVEL = 0x5a030002, /**< A ::pl_two_level_opts ("two-level"). */
    PL_POLICY_EXT_GPU_QOS = 0x5a030003    /**< A ::pl_gpu_qos_opts ("gpu-qos"). */
} pl_policy_ext_kind;

/** @} */

#ifdef __cplusplus
}
#endif

#include <placement/sa_placement.h>
#include <placement/two_level.h>
#include <placement/gpu_qos.h>

#endif /* PLACEMENT_POLICY_H */
