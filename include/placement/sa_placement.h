/**
 * \file placement/sa_placement.h
 * \brief Options of the "sa-placement" policy (Kim thesis ch. 2 sec. 3.2): simulated
 *        annealing over candidate configurations, with a pluggable run-time
 *        predictor (doc/policies.md sec. 4e).
 */
#ifndef PLACEMENT_SA_PLACEMENT_H
#define PLACEMENT_SA_PLACEMENT_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/topology.h>
#include <placement/job.h>
#include <placement/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \addtogroup pl_policy_ext
 *  @{ */

/** Scheduling mode of "sa-placement" (thesis ch. 2 sec. 3.2). */
typedef enum pl_sa_mode {
    PL_SA_BATCH = 0,  /**< The whole queue is annealed together (the jobs admitted move, running ones stay). */
    PL_SA_ONLINE = 1  /**< One job at a time in queue order, against the running jobs and those placed before it. */
} pl_sa_mode;

/** Where "sa-placement"'s built-in predictor takes a job's slowdown next to a co-runner
 *  (doc/policies.md sec. 4e). Either way the run time is the solo time of the
 *  job's spread times its largest slowdown against a co-runner. */
typedef enum pl_sa_model {
    PL_SA_MODEL_LOOKUP = 0, /**< The profile's measured slowdown (pl_profile_set_slowdown()); 1 when unmeasured. */
    PL_SA_MODEL_TREE = 1    /**< A bagged REPTree model (Kim thesis ch. 2 sec. 3.1) learned, when the policy
                                 instance is created, from the profile set's measured pairs; features: each
                                 class's GPU count and solo-time profile. Used for every pair of profiled
                                 classes, measured or not (as the thesis uses its model for every prediction). */
} pl_sa_model;

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
    pl_sa_model model;           /**< Built-in predictor when \c predict is NULL: ::PL_SA_MODEL_LOOKUP (default)
                                      or ::PL_SA_MODEL_TREE (refused with a \c predict: ::PL_EINVAL). */
    uint64_t reserved[4];        /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_sa_policy_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_sa_policy_opts. */
void pl_sa_policy_opts_init(pl_sa_policy_opts *opts);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_SA_PLACEMENT_H */
