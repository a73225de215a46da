/**
 * \file placement/job.h
 * \brief Jobs: tasks with resource demands, the traffic between them, and
 *        the constraints and goals a placement must respect (seed 002 sec.
 *        4.1.1 and 4.2), plus job sets loaded from JSON.
 *
 * A job is a communication graph whose vertices are tasks (in seed 002 each
 * task is one requested GPU) and whose undirected edges carry the traffic
 * between two tasks. Traffic is a non-negative number in the job's own unit
 * (bytes/s, or seed 002's qualitative 4 .. 1 for small .. large batches);
 * policies normalise it by the machine's total bandwidth (sec. 4.1.1).
 *
 * The workload type and size ("bvlc_alexnet", "1") key the job into a
 * profile set (placement/interference.h) for its solo and co-located run
 * times.
 *
 * Life cycle: pl_job_create() -> add tasks, edges, set fields -> use (a job
 * is read-only to policies) -> pl_job_free(). A pl_jobset owns jobs.
 *
 * Thread-safety: as topology.h: const functions may run concurrently.
 */
#ifndef PLACEMENT_JOB_H
#define PLACEMENT_JOB_H

#include <stddef.h>
#include <stdint.h>
#include <placement/status.h>
#include <placement/topology.h>
#include <placement/constraints.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_job Jobs
 *  @{ */

/** Opaque job handle. */
typedef struct pl_job pl_job;
/** Opaque ordered set of jobs (a queue, a trace). */
typedef struct pl_jobset pl_jobset;

/**
 * What one task needs. Zero means "none of it". Four kinds of task
 * (placement/policy.h says where each goes and what it takes):
 *  - a GPU task: \c gpus 1 (seed 002: one GPU per task), \c gpu_milli 0;
 *  - a fractional GPU task: \c gpu_milli in 1..999, a share of one GPU
 *    (Kubernetes GPU sharing: 1000 milli = one GPU, so two 500-milli tasks
 *    may share one); stored with \c gpus 0 (it holds no whole GPU);
 *  - a CPU-only task: \c gpus 0 and \c gpu_milli 0: no GPU at all;
 *  - a task of k > 1 whole GPUs: \c gpus k, \c gpu_milli 0: k GPUs of one
 *    machine (a multi-GPU process), \c gpu_memory on each; a decision lists
 *    one entry per GPU of it (placement/policy.h's pl_decision_info), and
 *    its cores and memory sit by the first. Every policy places it (the
 *    DRMaestro ones keep its GPUs local to its machine, never remote).
 * Any task may also ask for NVMe storage (\c storage_bw, \c storage_bytes):
 * one storage device, chosen once for every policy (doc/policies.md).
 *
 * ABI (pre-1.0): \c storage_bw and \c storage_bytes were added at the end,
 * with a reserved tail for what comes later, so the size changed once (code
 * built against the older header must be rebuilt); members added later take
 * reserved slots. Initialise with designated initialisers
 * (`{.gpus = 1, .cores = 2}`): the rest, the tail included, is zero.
 */
typedef struct pl_task_demand {
    int64_t gpus;          /**< Whole GPUs (seed 002: 1 per task; k > 1: k GPUs of one machine). */
    int64_t cores;         /**< CPU cores. */
    int64_t memory;        /**< Main memory, bytes. */
    int64_t gpu_memory;    /**< Memory on each of its GPUs, bytes. */
    int64_t bandwidth;     /**< Memory / NVLink bandwidth it uses, bytes/s (the t_bw of seed 002). */
    int64_t gpu_milli;     /**< 0: whole GPUs as \c gpus says; 1..999: that share of one GPU
                                (::PL_RES_GPU_MILLI); 1000 and more are refused (ask for a whole GPU). */
    int64_t cpu_milli;     /**< CPU millicores on top of \c cores (Kubernetes' "2500m" = cores 2,
                                cpu_milli 500). Cores are allocated whole (pinned, as Slurm and the
                                Kubernetes static CPU manager give them): the task takes
                                ceil((1000 cores + cpu_milli) / 1000) cores, see pl_task_cores(). */
    int64_t storage_bw;    /**< NVMe bandwidth, bytes/s, on ONE storage device (::PL_VK_STORAGE, in its
                                machine or a pool; placement/policy.h's pl_decision_info.storage says
                                which). 0 with \c storage_bytes 0: no storage. */
    int64_t storage_bytes; /**< NVMe capacity, bytes, on that same device. */
    uint64_t reserved[4];  /**< Room for members added later without changing the size (ABI): zero, unused
                                (pl_job_add_task() stores zeros whatever it is given). */
} pl_task_demand;

/**
 * \brief The whole cores a task takes: \p d->cores plus its \p d->cpu_milli
 *        rounded up to whole cores (0 for NULL; INT64_MAX if that overflows).
 */
int64_t pl_task_cores(const pl_task_demand *d);

/** Description of an edge, filled by pl_job_edge(). */
typedef struct pl_job_edge_info {
    int32_t a;             /**< First task. */
    int32_t b;             /**< Second task. */
    double traffic;        /**< >= 0. */
} pl_job_edge_info;

/* ---- life cycle and building -------------------------------------------- */

/**
 * \brief Create an empty job.
 * \param name copied; NULL gives "job".
 * \return ::PL_OK, ::PL_EINVAL (\p out NULL), ::PL_ENOMEM.
 */
pl_status pl_job_create(const char *name, pl_job **out);

/** \brief Release a job. NULL is a no-op. A job owned by a jobset must not be freed directly
 *  (the call is then ignored: the set frees it in pl_jobset_free()). */
void pl_job_free(pl_job *job);

/** \brief Deep copy. \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM. */
pl_status pl_job_copy(const pl_job *job, pl_job **out);

/**
 * \brief Add a task.
 * \param demand NULL for one GPU and nothing else. A fractional task
 *        (gpu_milli 1..999) may say gpus 0 or 1: it is stored with gpus 0.
 * \param[out] id the task's index (0, 1, ...), may be NULL.
 * \return ::PL_OK, ::PL_EINVAL (negative demand, gpu_milli >= 1000, or
 *         gpu_milli with more than one GPU), ::PL_ENOMEM.
 */
pl_status pl_job_add_task(pl_job *job, const pl_task_demand *demand, int32_t *id);

/**
 * \brief Add (or, if the pair already has one, increase) the traffic between
 *        tasks \p a and \p b.
 * \return ::PL_OK; ::PL_EINVAL (bad ids, a == b, negative or non-finite traffic); ::PL_ENOMEM.
 */
pl_status pl_job_add_edge(pl_job *job, int32_t a, int32_t b, double traffic);

/**
 * \brief Join every pair of tasks with \p traffic: the complete graph of a
 *        data-parallel job (seed 002: every Caffe GPU talks to every other
 *        equally).
 * \return as pl_job_add_edge().
 */
pl_status pl_job_add_all_to_all(pl_job *job, double traffic);

/**
 * \brief Set the workload type and size used to look the job up in a
 *        profile set (e.g. "bvlc_alexnet", "1"). Both copied; a NULL
 *        argument clears that one (its query then returns "").
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_job_set_workload(pl_job *job, const char *type, const char *size);

/** \brief Minimal utility in [0, 1] below which TOPO-AWARE-P postpones the job (default 0). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_job_set_min_utility(pl_job *job, double min_utility);

/** \brief Service-level objective: completion time goal in seconds from arrival, 0 = none (default). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_job_set_slo(pl_job *job, double seconds);

/** \brief Arrival time in seconds (default 0), for queues and traces. \return ::PL_OK or ::PL_EINVAL (negative, not finite). */
pl_status pl_job_set_arrival(pl_job *job, double seconds);

/** \brief Solo run time in seconds when no profile gives one (default 0 = unknown). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_job_set_duration(pl_job *job, double seconds);

/**
 * \brief Require GPUs of given models for every GPU task of the job (whole
 *        or fractional): \p models is one model name or alternatives joined
 *        by '|' ("V100M16|V100M32"); NULL or "" clears it (any GPU). Copied.
 *        The model of a GPU is its vertex's attribute "model", or when it
 *        has none, the attribute "gpu_model" of its nearest ancestor that
 *        has one (a machine: "attrs" of a JSON template,
 *        pl_topology_set_attr()); a GPU of no model matches no requirement.
 * \return ::PL_OK; ::PL_EINVAL (NULL job, an empty alternative as in "A||B");
 *         ::PL_ENOMEM.
 */
pl_status pl_job_set_gpu_model(pl_job *job, const char *models);

/** \brief The job's GPU model requirement as set ("" when none or for NULL; owned by the job). */
const char *pl_job_gpu_model(const pl_job *job);

/**
 * \brief Whether GPU vertex \p gpu of \p topo is of a model \p job accepts
 *        (1 also when the job requires none). 0 for a NULL argument.
 */
int pl_job_gpu_admits(const pl_job *job, const pl_topology *topo, int32_t gpu);

/** \brief Require all tasks on one machine (default on, as in the SC17 artifact); any non-zero value means on. \return ::PL_OK or ::PL_EINVAL (NULL job). */
pl_status pl_job_set_single_node(pl_job *job, int single_node);

/**
 * \brief Forbid tasks \p a and \p b from sharing a machine (anti-collocation).
 * \return ::PL_OK; ::PL_EINVAL (bad ids, a == b); ::PL_ENOMEM.
 */
pl_status pl_job_add_anti_collocation(pl_job *job, int32_t a, int32_t b);

/**
 * \brief Restrict the job to machines whose name (last path component, e.g.
 *        "node3") is in \p names; NULL or count 0 clears the filter.
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_job_set_node_filter(pl_job *job, const char *const *names, int32_t count);

/* ---- placement constraints (Kim's thesis ch. 4; doc/jobs.md) ---------------------
 *
 * Constraints say where a job's tasks may run and with whom, and every
 * policy honours them (doc/policies.md). The "machine" of a task is the
 * ::PL_VK_MACHINE vertex holding its GPU. Kinds, in the thesis's terms:
 *  - node Must / MustNot (VMtoNode): on machine attributes
 *    (pl_topology_set_attr()), for the whole job or one task;
 *  - task-to-task Must (VMtoVM-Must, pl_job_add_collocation()) and MustNot
 *    (VMtoVM-MustNot, pl_job_add_anti_collocation());
 *  - job-to-job MustNot (VMtoVM-MustNot across applications): a job carries
 *    labels and may name labels whose jobs must not share a machine with it
 *    (pl_job_add_anti_affinity()); the relation is symmetric.
 * The single-node flag is a task-to-task Must over all tasks; the node
 * filter a node Must on the machine's name. Tasks that must share a machine
 * form the thesis's equivalence classes (its "VM units"). */

/** Task index standing for "every task of the job" in the node constraint calls. */
#define PL_JOB_ALL_TASKS (-1)

/**
 * \brief Node Must: \p task (or every task, with ::PL_JOB_ALL_TASKS) runs
 *        only on a machine whose attribute \p key equals \p value. Several
 *        Must constraints of a task intersect (the thesis: S_VtoHMust is
 *        their intersection), so two different values of one key leave no
 *        machine. Strings copied.
 * \return ::PL_OK; ::PL_EINVAL (NULL job, bad task, NULL or empty key or
 *         value); ::PL_ENOMEM.
 */
pl_status pl_job_add_node_must(pl_job *job, int32_t task, const char *key, const char *value);

/**
 * \brief Node MustNot: \p task (or every task) does not run on a machine
 *        whose attribute \p key equals \p value (a machine without the
 *        attribute qualifies), i.e. the thesis's MustNot converted to a Must
 *        on the complement.
 * \return as pl_job_add_node_must().
 */
pl_status pl_job_add_node_must_not(pl_job *job, int32_t task, const char *key, const char *value);

/** One node constraint, filled by pl_job_node_constraint(). */
typedef struct pl_node_constraint {
    int32_t task;        /**< The task it applies to, or ::PL_JOB_ALL_TASKS. */
    int must_not;        /**< 0: Must (attribute equals value); 1: MustNot (attribute absent or different). */
    const char *key;     /**< Attribute key, owned by the job. */
    const char *value;   /**< Attribute value, owned by the job. */
} pl_node_constraint;

/** \brief Number of node constraints (0 for NULL), in the order they were added. */
int32_t pl_job_node_constraint_count(const pl_job *job);

/** \brief Node constraint \p i. \return ::PL_OK or ::PL_EINVAL (NULL argument, bad index). */
pl_status pl_job_node_constraint(const pl_job *job, int32_t i, pl_node_constraint *out);

/**
 * \brief Whether \p task may run on vertex \p v of \p topo (a machine): each
 *        of the task's node constraints (its own and the job-wide ones)
 *        holds on v's attributes, and the node filter admits v's name.
 *        Attributes are read on \p v only, not on its ancestors.
 * \return 1 or 0 (0 for a NULL job or topology, a bad task or vertex).
 */
int pl_job_task_admits(const pl_job *job, int32_t task, const pl_topology *topo, int32_t v);

/**
 * \brief Task-to-task Must: tasks \p a and \p b run on the same machine.
 *        Symmetric and transitive (it defines the classes).
 * \return ::PL_OK; ::PL_EINVAL (bad ids, a == b); ::PL_ENOMEM.
 */
pl_status pl_job_add_collocation(pl_job *job, int32_t a, int32_t b);

/** \brief Whether tasks \p a and \p b must share a machine: same class (see pl_job_task_classes()); 0 for bad ids or a == b. */
int pl_job_collocated(const pl_job *job, int32_t a, int32_t b);

/**
 * \brief The equivalence classes of the tasks under "must share a
 *        machine" (the thesis's VM units, whose members are equivalent with
 *        respect to the constraints): the transitive closure of the
 *        collocation pairs, and one class of all tasks when the job is
 *        single-node. Classes are numbered 0, 1, ... in order of their
 *        lowest task.
 * \param[out] cls [task count] class of each task (may be NULL).
 * \return the number of classes (0 for NULL or a job without tasks; -1 out of memory).
 */
int32_t pl_job_task_classes(const pl_job *job, int32_t *cls);

/**
 * \brief Give the job a label (copied; adding one it has is a no-op), which
 *        other jobs' anti-affinity may name.
 * \return ::PL_OK; ::PL_EINVAL (NULL job, NULL or empty label); ::PL_ENOMEM.
 */
pl_status pl_job_add_label(pl_job *job, const char *label);

/** \brief Number of labels (0 for NULL). */
int32_t pl_job_label_count(const pl_job *job);
/** \brief Label \p i (owned by the job), NULL if out of range. */
const char *pl_job_label(const pl_job *job, int32_t i);
/** \brief Whether the job carries \p label. */
int pl_job_has_label(const pl_job *job, const char *label);

/**
 * \brief Job-to-job MustNot: no task of this job shares a machine with a
 *        task of another job labelled \p label (copied; adding one twice is
 *        a no-op). Symmetric, as the thesis makes VMtoVM constraints: it also
 *        keeps a job labelled \p label off this job's machines. It never
 *        applies between a job and itself.
 * \return ::PL_OK; ::PL_EINVAL (NULL job, NULL or empty label); ::PL_ENOMEM.
 */
pl_status pl_job_add_anti_affinity(pl_job *job, const char *label);

/** \brief Number of anti-affinity labels (0 for NULL). */
int32_t pl_job_anti_affinity_count(const pl_job *job);
/** \brief Anti-affinity label \p i (owned by the job), NULL if out of range. */
const char *pl_job_anti_affinity_label(const pl_job *job, int32_t i);

/**
 * \brief Whether jobs \p a and \p b must not share a machine: a != b and one
 *        names a label of the other in its anti-affinity.
 * \return 1 or 0 (0 when either is NULL).
 */
int pl_job_anti_affine(const pl_job *a, const pl_job *b);

/**
 * \brief Whether the job has any placement constraint beyond single-node:
 *        a node constraint, a node filter, a collocation or
 *        anti-collocation pair, a label or an anti-affinity label (a label
 *        alone constrains nothing by itself, but other jobs may avoid it).
 */
int pl_job_has_constraints(const pl_job *job);

/**
 * \brief The thesis's conflict analysis (sec. 2.2 of ch. 4; placement/constraints.h)
 *        of the job's constraints on \p topo, for the library's policies:
 *        units are the tasks (one GPU each), classes those of
 *        pl_job_task_classes(), nodes the machines of \p topo with at least
 *        one GPU, each holding as many tasks as it has GPUs. Conflicts:
 *        ::PL_CONFLICT_NO_NODE (the node constraints and node filter of a
 *        class's tasks leave no machine), ::PL_CONFLICT_SELF_ANTI (two
 *        anti-collocated tasks in one class), ::PL_CONFLICT_TOO_BIG (a class
 *        has more tasks than every machine its constraints allow has GPUs).
 *        In each pl_conflict, \c cls is the class and \c unit_a / \c unit_b
 *        are tasks. Job-to-job anti-affinity is not looked at (it depends on
 *        what else runs).
 * \param[out] conflicts room for \p cap conflicts (may be NULL); the first
 *             \p cap are written.
 * \param[out] count number of conflicts (may be NULL).
 * \return ::PL_OK (no conflict); ::PL_EINFEASIBLE (conflicts: the message
 *         names each one and the constraints involved); ::PL_EINVAL (NULL
 *         job or topology, negative cap); ::PL_ENOMEM.
 */
pl_status pl_job_check_constraints(const pl_job *job, const pl_topology *topo, pl_conflict *conflicts,
                                   int32_t cap, int32_t *count);

/* ---- queries --------------------------------------------------------------------- */

/** \brief The job's name (owned by the job). "" for NULL. */
const char *pl_job_name(const pl_job *job);
/** \brief Number of tasks (0 for NULL). */
int32_t pl_job_task_count(const pl_job *job);
/** \brief Number of edges (0 for NULL). */
int32_t pl_job_edge_count(const pl_job *job);
/** \brief Demand of task \p i. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_job_task(const pl_job *job, int32_t i, pl_task_demand *demand);
/** \brief Edge \p i. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_job_edge(const pl_job *job, int32_t i, pl_job_edge_info *info);
/** \brief Traffic between tasks \p a and \p b in either order (0 if no edge, and for a == b), in O(degree). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_job_traffic(const pl_job *job, int32_t a, int32_t b, double *traffic);
/** \brief Sum of one resource over all tasks (e.g. the GPUs the job needs). \return ::PL_OK, ::PL_EINVAL, ::PL_EOVERFLOW. */
pl_status pl_job_total_demand(const pl_job *job, pl_task_demand *total);
/** \brief Workload type and size (owned by the job; "" when unset). */
const char *pl_job_workload_type(const pl_job *job);
/** \copydoc pl_job_workload_type */
const char *pl_job_workload_size(const pl_job *job);
/** \brief Minimal utility, SLO, arrival, duration (0 for NULL). */
double pl_job_min_utility(const pl_job *job);
/** \copydoc pl_job_min_utility */
double pl_job_slo(const pl_job *job);
/** \copydoc pl_job_min_utility */
double pl_job_arrival(const pl_job *job);
/** \copydoc pl_job_min_utility */
double pl_job_duration(const pl_job *job);
/** \brief Single-node constraint (1 for NULL, the default). */
int pl_job_single_node(const pl_job *job);
/** \brief Whether tasks \p a and \p b must not share a machine (0 for bad ids). */
int pl_job_anti_collocated(const pl_job *job, int32_t a, int32_t b);
/** \brief Whether the node filter admits a machine named \p name (1 when there is no filter; 0 for a NULL name under a filter). */
int pl_job_admits_node(const pl_job *job, const char *name);

/* ---- job sets ------------------------------------------------------------------- */

/** \brief Create an empty job set. \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM. */
pl_status pl_jobset_create(pl_jobset **out);
/** \brief Release a set and every job it owns. NULL is a no-op. */
void pl_jobset_free(pl_jobset *set);
/**
 * \brief Append a job; the set takes ownership (also on failure: the job is then freed),
 *        except that a job already owned by a set is refused (::PL_EINVAL) and left to its owner.
 * \param[out] index its position (may be NULL).
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_jobset_add(pl_jobset *set, pl_job *job, int32_t *index);
/** \brief Number of jobs (0 for NULL). */
int32_t pl_jobset_count(const pl_jobset *set);
/** \brief Job \p i, owned by the set; NULL if out of range. */
pl_job *pl_jobset_get(const pl_jobset *set, int32_t i);

/**
 * \brief Load jobs from a JSON file (schema: doc/jobs.md): an object
 *        {"jobs": [ {...}, ... ]}, each job with its tasks (or a GPU count),
 *        edges, workload, constraints and goals.
 * \return ::PL_OK; ::PL_EIO; ::PL_EPARSE (message with file:line:col for
 *         syntax errors, the JSON path of a bad field, e.g.
 *         "$.jobs[3].tasks[0].gpus"); ::PL_ENOMEM. *out is NULL on error.
 */
pl_status pl_jobset_load_json(const char *path, pl_jobset **out);
/** \brief pl_jobset_load_json() from text (\p length 0: strlen). */
pl_status pl_jobset_load_json_string(const char *text, size_t length, pl_jobset **out);

/**
 * \brief Load an SC17 artifact workload file (`workloads-*.json`: an object
 *        of jobs keyed "0", "1", ... with arrival, gpus, mem (GB), tasks
 *        (cores), minimal_utility, size (batch) and type), in numeric id
 *        order, named "job<id>". Each job gets `gpus` tasks of one GPU each
 *        (the cores and the memory, 1 GB = 2^30 bytes, split evenly over
 *        them, the remainder to task 0), all-to-all traffic 4, 3, 2, 1 for
 *        batch 1, 4, 64, 128 (1 for other sizes)
 *        (seed 002 sec. 5: "ranging from 4 to 1"), the single-node
 *        constraint, and its workload type and size.
 * \return as pl_jobset_load_json().
 */
pl_status pl_jobset_load_sc17(const char *path, pl_jobset **out);
/** \brief pl_jobset_load_sc17() from text (\p length 0: strlen). */
pl_status pl_jobset_load_sc17_string(const char *text, size_t length, pl_jobset **out);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_JOB_H */
