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

/** Where the default predictor of "gpu-qos" (\c predict NULL) takes the device side of sharing a GPU. */
typedef enum pl_gpu_qos_model {
    PL_GPU_QOS_MODEL_PROFILES = 0, /**< The constant pl_gpu_qos_opts::share_factor for every pair (default). */
    PL_GPU_QOS_MODEL_USAGE = 1     /**< Each side's factor from the two workloads' GPU usage patterns replayed
                                        together (Kim ch. 5's usage-pattern simulator, pl_gpu_simulate()): the
                                        simulator's ::PL_SIM_GPU_SHARE_USAGE rule, from the same table (built-in
                                        Table 5.1 models plus pl_gpu_qos_opts::usage_traces); a pair where either
                                        workload type has no pattern keeps \c share_factor. */
} pl_gpu_qos_model;

/**
 * Options of "gpu-qos"; initialise with pl_gpu_qos_opts_init().
 *
 * ABI (pre-1.0): \c model, \c usage_traces and \c reserved were appended after
 * 0.1.0, which changed the struct's size: code built against the older header
 * must be rebuilt. New members will come from \c reserved, keeping the size.
 */
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
                                       ::PL_EINVAL. Default 1.0: the profiles alone (no device-side cost). With
                                       ::PL_GPU_QOS_MODEL_USAGE, the factor of pairs without usage patterns. */
    pl_gpu_qos_model model;       /**< The default predictor's device side (default ::PL_GPU_QOS_MODEL_PROFILES);
                                       ::PL_GPU_QOS_MODEL_USAGE with \c predict set, or an unknown value, is
                                       ::PL_EINVAL. */
    const char *usage_traces;     /**< With ::PL_GPU_QOS_MODEL_USAGE: a usage-pattern CSV (the format of
                                       pl_sim_opts::usage_traces, doc/simulator.md sec. 3c) added to the built-in
                                       Table 5.1 models, or NULL (default): the built-in ones only. Read once per
                                       policy instance (pl_policy_create(); a one-shot pl_policy_place() reads it
                                       per call): ::PL_EIO if it cannot be read, ::PL_EPARSE naming file, line
                                       and column. Borrowed. Ignored by the profiles model. */
    uint64_t reserved[4];         /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_gpu_qos_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_gpu_qos_opts. */
void pl_gpu_qos_opts_init(pl_gpu_qos_opts *opts);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_GPU_QOS_H */
