/**
 * \file placement/gpuqos.h (internal, not installed)
 * \brief GPU interference between co-located CNN models (Kim's thesis, ch. 5):
 *        a GPU usage-pattern simulator used as interference predictor,
 *        kernel split, and the pairing of latency-sensitive (LS) with batch
 *        models by Min-Max Pairing, Greedy, and exactly by min-cost flow.
 *
 * A model is described by one profiled iteration (a trace): its kernel and
 * memcopy calls in submission order with their solo start times and
 * durations. The simulator replays several traces on one GPU for a time
 * horizon: kernels are serialised first-come first-served across models,
 * memcopies run concurrently but share the PCIe bandwidth of their
 * direction, and the CPU gaps between a model's calls keep their length (a
 * wait shifts all later calls). See doc/gpuqos.md for every rule.
 *
 * Pairing: one LS model and at most one batch model per GPU. For each pair
 * (i, j) the slowdown matrix holds the smallest batch slowdown over the
 * split factors for which the LS slowdown stays below the QoS threshold
 * (empty: NAN). The objective of a pairing is the sum of normalised
 * throughputs 1/(1 + slowdown) of the models that run: an LS model alone
 * counts 1, a pair counts 1/(1 + s_LS) + 1/(1 + s_batch).
 *
 * All functions are reentrant; nothing is global.
 */
#ifndef PLACEMENT_GPUQOS_H
#define PLACEMENT_GPUQOS_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/solver.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal (not installed, not exported): the experiments reach this
 * through the policies, the simulator and the CLI. */
#pragma GCC visibility push(hidden)

/** \defgroup pl_gpuqos GPU interference and QoS pairing
 *  @{ */

/** Theoretical PCIe 3.0 x16 bandwidth the thesis uses as the shared maximum (15.75 GB/s). */
#define PL_GPU_PCIE_MAX_BYTES_PER_S 15.75e9

/** Kind of a traced GPU call. */
typedef enum pl_gpu_call_kind {
    PL_GPU_KERNEL = 0,     /**< A kernel: holds the whole GPU (one at a time). */
    PL_GPU_MEMCPY_H2D = 1, /**< Host-to-device copy: shares the H2D PCIe bandwidth. */
    PL_GPU_MEMCPY_D2H = 2  /**< Device-to-host copy: shares the D2H PCIe bandwidth. */
} pl_gpu_call_kind;

/** One call of a profiled iteration. */
typedef struct pl_gpu_call {
    pl_gpu_call_kind kind;   /**< Kernel or memcopy direction. */
    double start_s;          /**< Solo submission time from the start of the iteration (non-decreasing). */
    double duration_s;       /**< Solo duration (> 0). */
    double bw_bytes_per_s;   /**< Memcopies: bandwidth achieved solo (> 0); ignored for kernels. */
    int split;               /**< Non-zero: the call is split by the kernel-split factor. */
    double split2_duration_s;/**< Split calls: duration of each half when split in two (profiled
                                  with factor 2); 0 = duration_s / 2 (no overhead). */
} pl_gpu_call;

/** One profiled iteration of a model. The caller owns \c calls. */
typedef struct pl_gpu_trace {
    const pl_gpu_call *calls; /**< Calls in submission order. */
    int32_t ncalls;           /**< Number of calls (>= 1). */
    double period_s;          /**< Solo iteration length (>= end of the last call). */
    double host_slowdown;     /**< Host-side add-on: CPU gaps are stretched by (1 + host_slowdown); 0 = none. */
} pl_gpu_trace;

/** Options of pl_gpu_simulate(). Initialise with pl_gpu_sim_opts_init(). */
typedef struct pl_gpu_sim_opts {
    double horizon_s;              /**< Simulated time; default 10000 s (the thesis's default). */
    double pcie_max_bytes_per_s;   /**< Bandwidth shared per direction; default ::PL_GPU_PCIE_MAX_BYTES_PER_S. */
    void *reserved[4];             /**< Zero. */
} pl_gpu_sim_opts;

/** \brief Fill \p o with the defaults. */
void pl_gpu_sim_opts_init(pl_gpu_sim_opts *o);

/** Result of one model in a simulation. */
typedef struct pl_gpu_sim_result {
    int64_t iterations;     /**< Iterations completed within the horizon. */
    double iteration_s;     /**< Mean simulated iteration time (completion time of the last one / iterations). */
    double slowdown;        /**< (iteration_s - period_s) / period_s. */
    double kernel_wait_s;   /**< Total time its kernels waited for the GPU. */
} pl_gpu_sim_result;

/**
 * \brief Replay \p n traces together on one GPU for opts->horizon_s.
 * \param opts options or NULL for the defaults.
 * \param[out] out \p n results (caller-allocated).
 * \return ::PL_OK; ::PL_EINVAL (n < 1, a malformed trace: no calls, decreasing
 *         start, non-positive duration, memcopy without bandwidth, period
 *         before the last call's end; non-positive horizon); ::PL_ELIMIT if a
 *         model completes no iteration within the horizon; ::PL_ENOMEM.
 */
pl_status pl_gpu_simulate(const pl_gpu_trace *traces, int32_t n, const pl_gpu_sim_opts *opts,
                          pl_gpu_sim_result *out);

/**
 * \brief Trace of a model whose marked calls are split by \p factor.
 *
 * Each maximal run of consecutive calls marked \c split forms a group; the
 * group is repeated \p factor times back to back (its inner gaps kept, no gap
 * between repetitions), each call lasting a + b/factor where a and b fit the
 * two profiles exactly: b = 2 (d1 - d2), a = 2 d2 - d1 (d1 = duration_s,
 * d2 = split2_duration_s); clamped at 1e-9 s. Memcopies keep their bandwidth
 * (bytes per sub-copy shrink with the duration). Factor 1 copies the trace.
 * \param[out] out the new trace; its \c calls array is allocated and must be
 *             released with pl_gpu_trace_release().
 * \return ::PL_OK, ::PL_EINVAL (factor < 1, malformed trace), ::PL_ENOMEM.
 */
pl_status pl_gpu_trace_split(const pl_gpu_trace *in, int32_t factor, pl_gpu_trace *out);

/** \brief Release the calls of a trace made by pl_gpu_trace_split(); NULL is a no-op. */
void pl_gpu_trace_release(pl_gpu_trace *t);

/** Synthetic iterations: each kernel of a split model costs, in two halves,
 *  this factor of the whole (15 %: seed 003 ch. 5 sec. 4.2 measures 13-20 %). */
#define PL_GPU_SYNTHETIC_SPLIT2 1.15

/**
 * \brief A synthetic iteration shaped by a GPU utilisation (the recipe of
 *        tests/data/kim/README.md, used by the `kim-ch5` scenario and the
 *        simulator's built-in usage patterns): \p nkernels equal slots of
 *        period_s / nkernels, each ending with a kernel busy for util_pct %
 *        of the slot; when \p split, the kernels are marked split, two
 *        halves costing ::PL_GPU_SYNTHETIC_SPLIT2 times the whole.
 * \param calls [nkernels] caller-allocated; \p t points into it.
 * Arguments are not checked (pl_gpu_simulate() checks the trace): nkernels
 * >= 1, period_s > 0, util_pct in (0, 100].
 */
void pl_gpu_trace_synthetic(double util_pct, double period_s, int32_t nkernels, int split,
                            pl_gpu_call *calls, pl_gpu_trace *t);

/* ---- slowdown matrix ----------------------------------------------------- */

/**
 * Pairing problem: \c nls LS models (rows) and \c nbatch batch models
 * (columns). Arrays are row-major [nls * nbatch] and owned by the caller.
 */
typedef struct pl_gpu_pairing_problem {
    int32_t nls;              /**< LS models (rows). */
    int32_t nbatch;           /**< Batch models (columns). */
    const double *batch_slow; /**< m_ij: batch slowdown of the chosen split factor; NAN = no factor meets QoS. */
    const double *ls_slow;    /**< LS slowdown of that choice; NULL = all 0 (only the batch term counts). */
} pl_gpu_pairing_problem;

/**
 * \brief Build the MMP matrix by simulation: for each LS trace i and batch
 *        trace j, simulate the pair for every split factor in \p factors
 *        (applied to the batch model), keep the factors whose LS slowdown is
 *        strictly below \p qos, and among them the smallest batch slowdown.
 * \param[out] batch_slow [nls * nbatch] caller-allocated; NAN where no factor qualifies.
 * \param[out] ls_slow [nls * nbatch] caller-allocated (may be NULL): LS slowdown of the choice, NAN if none.
 * \param[out] factor [nls * nbatch] caller-allocated (may be NULL): chosen factor, 0 if none.
 * \return ::PL_OK or the errors of pl_gpu_simulate() / pl_gpu_trace_split();
 *         ::PL_EINVAL (no factors, qos <= 0).
 */
pl_status pl_gpu_qos_matrix(const pl_gpu_trace *ls, int32_t nls, const pl_gpu_trace *batch,
                            int32_t nbatch, const int32_t *factors, int32_t nfactors, double qos,
                            const pl_gpu_sim_opts *opts, double *batch_slow, double *ls_slow,
                            int32_t *factor);

/* ---- pairing -------------------------------------------------------------- */

/**
 * \brief Min-Max Pairing (thesis Algorithm 2 with its two bugs fixed, see
 *        doc/gpuqos.md): repeatedly pair a row with a single element, pair a
 *        column with a single element when as many LS as batch models remain,
 *        else drop the largest slowdown; an LS row left empty runs alone.
 * \param[out] pair [nls] caller-allocated: batch column of LS model i, or -1 (alone).
 * \return ::PL_OK; ::PL_EINVAL (NULL, negative sizes, negative or non-finite
 *         slowdowns other than NAN); ::PL_ENOMEM.
 */
pl_status pl_gpu_mmp(const pl_gpu_pairing_problem *p, int32_t *pair);

/**
 * \brief Min-Max Pairing with a choice of loop.
 * \param remove_only_when_stuck 0: Algorithm 2 as printed (every round drops
 *        the largest element, even after a pairing in that round; this is
 *        pl_gpu_mmp()); non-zero: drop the largest element only in rounds
 *        where no row or column was paired (the prose's reading "repeat from
 *        finding a row"), which never drops a pair the round just made
 *        forced. Measured difference in doc/gpuqos.md.
 * \return as pl_gpu_mmp().
 */
pl_status pl_gpu_mmp_variant(const pl_gpu_pairing_problem *p, int remove_only_when_stuck, int32_t *pair);

/**
 * \brief Greedy baseline: repeatedly take the pair with the lowest batch
 *        slowdown among unused rows and columns; the rest run alone.
 * \return as pl_gpu_mmp().
 */
pl_status pl_gpu_greedy(const pl_gpu_pairing_problem *p, int32_t *pair);

/**
 * \brief Optimal pairing as a min-cost flow: source -> a_i (capacity 1),
 *        a_i -> b_j at cost -round(S (1/(1+ls_ij) + 1/(1+m_ij))), a_i -> sink
 *        at cost -S (alone), b_j -> sink (capacity 1), S = 1e9.
 * \param opts solver options or NULL for the default solver.
 * \param[out] pair [nls] as pl_gpu_mmp().
 * \return ::PL_OK, ::PL_EINVAL, the errors of pl_flownet_solve(), ::PL_ENOMEM.
 */
pl_status pl_gpu_pairing_optimal(const pl_gpu_pairing_problem *p, const pl_solve_opts *opts,
                                 int32_t *pair);

/**
 * \brief Objective (sum of normalised throughputs) of a pairing.
 * \return ::PL_OK; ::PL_EINVAL if a column is used twice or a pair has no
 *         matrix element (NAN).
 */
pl_status pl_gpu_pairing_value(const pl_gpu_pairing_problem *p, const int32_t *pair, double *value);

/**
 * \brief How close MMP comes to the optimum: both objective values.
 * \param[out] mmp_value objective of pl_gpu_mmp().
 * \param[out] opt_value objective of pl_gpu_pairing_optimal() (exact in
 *             double for its pairing; the flow's integer costs only choose it).
 * \return as pl_gpu_pairing_optimal().
 */
pl_status pl_gpu_mmp_vs_optimal(const pl_gpu_pairing_problem *p, const pl_solve_opts *opts,
                                double *mmp_value, double *opt_value);

/** @} */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
