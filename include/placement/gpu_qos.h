/**
 * \file placement/gpu_qos.h
 * \brief Options of the "gpu-qos" policy (Kim thesis ch. 5): latency-sensitive
 *        jobs paired with batch jobs on shared GPUs (doc/policies.md sec. 4e).
 */
#ifndef PLACEMENT_GPU_QOS_H
#define PLACEMENT_GPU_QOS_H

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

/** Pairing algorithm of "gpu-qos" (the pairing module: doc/gpuqos.md). */
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
#endif /* PLACEMENT_GPU_QOS_H */
