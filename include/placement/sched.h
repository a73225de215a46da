/**
 * \file placement/sched.h
 * \brief The allocation lifecycle of a live scheduler: one handle holds the
 *        cluster and the jobs committed on it; place (a what-if that changes
 *        nothing), commit, release, query.
 *
 * What a scheduler that runs for months does, and what the simulator, the
 * Slurm hook and the Kubernetes extender go through:
 *
 * \code
 * pl_sched *s;
 * pl_sched_create(cluster, &s);                     // copies the topology
 * pl_decision *d;
 * pl_sched_place(s, &opts, &job, 1, &d);            // where would it go?
 * if (placed) pl_sched_commit(s, "job-42", job, d, 0);
 * ...
 * pl_sched_release(s, "job-42");                    // finished, failed, preempted
 * pl_sched_free(s);
 * \endcode
 *
 * Jobs are known by an id the caller chooses (a Slurm job id, a pod UID):
 * committing an id twice or releasing an unknown one is an error, and
 * releasing gives back exactly what committing took (the resource rule of
 * placement/policy.h: per GPU task one unit of its GPU, its share of the
 * GPU's milli and its GPU memory; per fractional task its milli and GPU
 * memory; per task its cores and bandwidth on its GPU's package, or a
 * CPU-only task's own package, and its memory on that package's first NUMA
 * node). The committed jobs holding a GPU are the running jobs the
 * policies see (interference: their GPUs), in commit order. A device
 * failure or a drained GPU: release its jobs, pl_sched_device_down().
 *
 * The simulator (placement/sim.h) goes through this handle for every
 * placement, commit, release and failure, so an embedding scheduler that
 * calls it the same way gets the simulator's behaviour.
 *
 * Thread safety: a handle is not locked; calls on one handle must not
 * overlap. Different handles are independent.
 */
#ifndef PLACEMENT_SCHED_H
#define PLACEMENT_SCHED_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/topology.h>
#include <placement/job.h>
#include <placement/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_sched Allocation lifecycle
 *  @{ */

/** Opaque live cluster state: a topology and the jobs committed on it. */
typedef struct pl_sched pl_sched;

/** A committed job, filled by pl_sched_job(). Pointers are owned by the
 *  handle and valid until the job is released or the handle freed. */
typedef struct pl_sched_job_info {
    const char *id;          /**< The id it was committed under. */
    const pl_job *job;       /**< The handle's copy of the job. */
    int32_t ngpus;           /**< Entries: the length of gpus and hosts; one per task, k for a task of k
                                  GPUs (pl_decision_info::ngpus). */
    const int32_t *gpus;     /**< GPU vertex of entry i, [ngpus]; -1 for a CPU-only task. */
    int32_t machine;         /**< Machine vertex holding all its tasks, or -1 if several. */
    const int32_t *hosts;    /**< Where entry i runs, [ngpus]: its GPU, or a CPU-only task's package
                                  (pl_decision_info::hosts). */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_sched_job_info;

/**
 * \brief A handle on a copy of \p topo. Allocations \p topo already carries
 *        stay as background load (they are never released by the handle).
 * \param[out] out released with pl_sched_free(); NULL on error.
 * \return ::PL_OK; ::PL_EINVAL (NULL argument); ::PL_ENOMEM.
 */
pl_status pl_sched_create(const pl_topology *topo, pl_sched **out);

/** \brief Release a handle and every record it holds. NULL is a no-op. */
void pl_sched_free(pl_sched *s);

/**
 * \brief The live topology: capacities, and allocations of the background
 *        load plus every committed job; query what is free with
 *        pl_topology_amount() and pl_topology_subtree_amount() (e.g. the free
 *        GPUs of a machine). Owned by the handle; it changes with every
 *        commit and release. NULL for NULL.
 */
const pl_topology *pl_sched_topology(const pl_sched *s);

/**
 * \brief Decide where \p queue would go now (pl_policy_decide() on the live
 *        topology, the committed jobs as the running ones). Allocates
 *        nothing: commit what you keep. One call is one scheduling round of
 *        the policy: the handle keeps an instance of the policy last named
 *        in \p opts (pl_policy_create()), so a stateful policy carries its
 *        state (DRMaestro's waiting counters) from call to call; naming
 *        another policy starts a fresh instance. When
 *        pl_sched_idle_rounds() is positive, call again periodically while
 *        jobs wait, even when nothing was committed or released.
 * \param[out] out released with pl_decision_free().
 * \return as pl_policy_decide(); ::PL_EINVAL for NULL \p opts.
 */
pl_status pl_sched_place(pl_sched *s, const pl_policy_opts *opts, pl_job *const *queue, int32_t nqueue,
                         pl_decision **out);

/** \brief pl_policy_idle_rounds() of the handle's policy instance (0 before the first pl_sched_place(), or for NULL). */
int32_t pl_sched_idle_rounds(const pl_sched *s);

/**
 * \brief Commit decision \p i of \p d for \p job under \p id: allocate what
 *        its tasks take on the GPUs the decision names.
 * \param id copied; a non-empty string not already committed.
 * \param job copied (the caller keeps its own).
 * \return ::PL_OK; ::PL_EINVAL (NULL or empty argument, \p i out of range,
 *         decision \p i not ::PL_DECISION_PLACED, its entry count is not the
 *         job's (pl_decision_info::ngpus), \p id already committed, or a resource is no
 *         longer free: nothing allocated, the message says which);
 *         ::PL_ENOMEM.
 */
pl_status pl_sched_commit(pl_sched *s, const char *id, const pl_job *job, const pl_decision *d,
                          int32_t i);

/**
 * \brief Commit \p job under \p id on GPUs the caller chose (entry t on
 *        \p gpus[t]: one per task, k consecutive ones for a task of k GPUs,
 *        as in pl_decision_info), e.g. what Slurm allocated on its own. A CPU-only task
 *        (placement/job.h) has -1: it gets the package holding the job's GPU
 *        tasks it exchanges the most traffic with (the first on a tie), or,
 *        for a job without GPUs there, the first package of the topology,
 *        that has room for its cores and memory; say where with
 *        pl_sched_commit_hosts() instead. Two fractional tasks may name one GPU.
 * \return as pl_sched_commit(); ::PL_EINVAL also for a vertex that is not a
 *         GPU (or -1 for a CPU-only task) or a GPU named twice (a job never
 *         holds one GPU twice, fractional tasks excepted).
 */
pl_status pl_sched_commit_gpus(pl_sched *s, const char *id, const pl_job *job, const int32_t *gpus,
                               int32_t ngpus);

/**
 * \brief Commit \p job under \p id on hosts the caller chose: entry t
 *        (pl_decision_info's entries) on \p hosts[t], a GPU for a GPU or fractional task, a package for a
 *        CPU-only task, or its machine when the machine models no package (its cores, bandwidth and
 *        memory are then the machine's own) (pl_decision_info::hosts; placement/policy.h says what
 *        each takes).
 * \return as pl_sched_commit_gpus().
 */
pl_status pl_sched_commit_hosts(pl_sched *s, const char *id, const pl_job *job, const int32_t *hosts,
                                int32_t n);

/**
 * \brief Release the job committed under \p id: everything its commit
 *        allocated is freed, exactly.
 * \return ::PL_OK; ::PL_ENOTFOUND (no job under \p id); ::PL_EINVAL (NULL).
 */
pl_status pl_sched_release(pl_sched *s, const char *id);

/**
 * \brief Mark GPU \p gpu down (\p is_down 1: a device failure, a drained
 *        GPU) or up again (0). While down, its free units are taken by the
 *        handle so that no policy places on it; marking it up gives back
 *        exactly those units. A GPU is marked down only when no committed
 *        job holds it: release its jobs (they failed) first.
 * \return ::PL_OK; ::PL_EINVAL (NULL handle, not a GPU, already in that
 *         state, a committed job holds it: the message names the job);
 *         ::PL_ENOMEM.
 */
pl_status pl_sched_device_down(pl_sched *s, int32_t gpu, int is_down);

/** \brief Number of committed jobs (0 for NULL). */
int32_t pl_sched_job_count(const pl_sched *s);

/**
 * \brief Describe the job committed under \p id.
 * \return ::PL_OK; ::PL_ENOTFOUND; ::PL_EINVAL (NULL argument).
 */
pl_status pl_sched_job(const pl_sched *s, const char *id, pl_sched_job_info *info);

/**
 * \brief Describe committed job \p k (0 .. pl_sched_job_count() - 1, in
 *        commit order: a release shifts the later jobs down by one).
 * \return ::PL_OK; ::PL_EINVAL (bad index, NULL argument).
 */
pl_status pl_sched_job_at(const pl_sched *s, int32_t k, pl_sched_job_info *info);

/**
 * \brief Score \p job on each machine of \p machines alone, now: the job
 *        utility (placement/interference.h, in [0, 1], higher is better)
 *        of topo-aware's mapping of the job onto that machine's free GPUs,
 *        the committed jobs as its neighbours; -1 where it does not fit now
 *        or the machine is not admissible (placement constraints). What a
 *        Kubernetes extender's prioritize call or a Slurm plugin ranks nodes
 *        by. Changes nothing. A job with CPU-only or fractional tasks or
 *        a GPU model, or any job while GPUs are partly shared, is scored by
 *        the decision topo-aware takes for it held to that machine (a node
 *        filter), so the score honours what pl_sched_place() honours; it
 *        costs one policy call per machine instead of one in all.
 * \param opts utility weights and form, profiles (NULL: defaults);
 *        opts->policy is not used.
 * \param machines machine vertices of pl_sched_topology(); [n].
 * \param[out] scores [n].
 * \return ::PL_OK; ::PL_EINVAL (NULL argument, n < 0, a vertex that is not
 *         a machine, bad options); ::PL_ENOMEM.
 */
pl_status pl_sched_score(const pl_sched *s, const pl_policy_opts *opts, const pl_job *job,
                         const int32_t *machines, int32_t n, double *scores);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
