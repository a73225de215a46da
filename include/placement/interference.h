/**
 * \file placement/interference.h
 * \brief Interference profiles (solo and co-located run times of workloads)
 *        and the cost model of seed 002: communication cost (Eq. 3),
 *        average interference (Eq. 4), fragmentation (Eq. 5), utility
 *        (Eq. 2) and objective (Eq. 1), in two documented forms.
 *
 * Profiles. A profile set maps a workload (type, size, number of GPUs) to
 * its solo run time, measured with its GPUs on one socket (intra) or spread
 * across sockets (inter), and to its run time when co-located with another
 * workload (other type, size, GPUs) on the same socket(s). The SC17
 * artifact's measurements (`prof_from_experiments.json`: Caffe AlexNet and
 * GoogLeNet, batch 1/4/64/128, 1-3 GPUs) are built in
 * (pl_profile_set_builtin()) and loadable from that file format.
 *
 * Utility forms (doc/interference.md gives every formula and worked value):
 *  - ::PL_UTILITY_PAPER (the default), Eq. (2) with the fixes of the thesis
 *    notes (sec. 7): interference as slowdown (co-located / solo >= 1, so a
 *    worse neighbour costs more and never raises the utility), every term
 *    normalised by its worst case as in Eq. (1), so U = 1 - objective lies
 *    in [0, 1] and has no division by zero: U = 1 - [alpha_cc t / t_w +
 *    alpha_b (I - 1) / (I_w - 1) + alpha_d omega / omega_w] (a term whose
 *    worst case is 0 contributes 0).
 *  - ::PL_UTILITY_ARTIFACT, what the SC17 artifact computes, kept for
 *    comparison: costs c_comm = (t - t_min) / t_norm, 0.01 for a 1-GPU job;
 *    c_int = mean over co-located jobs of solo/co-located (ratios >= 1 add 0
 *    to the sum; no slowing neighbour at all: 0.01), so a worse neighbour
 *    gives a *lower* cost (the artifact's inversion, kept in this form);
 *    c_frag = mean over sockets of free after allocation / total (0 and 1
 *    map to 0.01); every cost is floored at min_cost (0.01).
 *    U_job = [1 / sum_m c_m^(1.5 alpha_m)] / 5 over comm and interference;
 *    U_sys = [1 / sum_m c_m^(alpha_m)] / 1.5472 over all three, with
 *    interference = (suffered + caused) / 2. The normalisers are
 *    1 / (2 min_cost^(1/2)) and 1 / (3 min_cost^(1/3)) as in the artifact
 *    (5 and 1.5472 for 0.01): U is in (0, 1] with equal weights, and can
 *    exceed 1 with other weights (the artifact does not clamp it either).
 *
 * All functions here are pure (no handle state) except the profile set,
 * which is read-only after loading (const functions may run concurrently).
 */
#ifndef PLACEMENT_INTERFERENCE_H
#define PLACEMENT_INTERFERENCE_H

#include <stddef.h>
#include <stdint.h>
#include <placement/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_interference Interference profiles and utility
 *  @{ */

/** Opaque set of workload profiles. */
typedef struct pl_profile_set pl_profile_set;

/** How a multi-GPU workload's GPUs were spread when its solo time was measured. */
typedef enum pl_spread {
    PL_SPREAD_INTRA_SOCKET = 0, /**< All GPUs on one socket (packed). */
    PL_SPREAD_INTER_SOCKET = 1  /**< GPUs across sockets. */
} pl_spread;

/* ---- profile sets ---------------------------------------------------------- */

/** \brief Create an empty profile set. \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM. */
pl_status pl_profile_set_create(pl_profile_set **out);
/** \brief Release a profile set. NULL is a no-op. */
void pl_profile_set_free(pl_profile_set *ps);

/**
 * \brief The SC17 artifact's measured profiles (built into the library),
 *        plus CaffeRef ("bvlc_reference_caffenet"), which the artifact did
 *        not measure: its entries are AlexNet's (doc/interference.md sec. 2).
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_profile_set_builtin(pl_profile_set **out);

/**
 * \brief Load profiles in the SC17 artifact's format (doc/interference.md):
 *        {"solo": {type: {size: {"num_gpus": {g: {"intra-socket": s,
 *        "inter-socket": s}}}}}, "collocation": {type: {size: {"num_gpus":
 *        {g: {other_type: {other_size: {"num_gpus": {og: s}}}}}}}}}. A time
 *        of 0 means "not measured" and is skipped.
 * \return ::PL_OK; ::PL_EIO; ::PL_EPARSE (with the JSON path); ::PL_ENOMEM.
 */
pl_status pl_profile_set_load_sc17(const char *path, pl_profile_set **out);
/** \brief pl_profile_set_load_sc17() from text (\p length 0: strlen). */
pl_status pl_profile_set_load_sc17_string(const char *text, size_t length, pl_profile_set **out);

/**
 * \brief Record a solo run time (replaces an earlier one for the same key).
 * \return ::PL_OK; ::PL_EINVAL (NULL strings, gpus < 1, seconds <= 0 or not finite); ::PL_ENOMEM.
 */
pl_status pl_profile_set_add_solo(pl_profile_set *ps, const char *type, const char *size, int32_t gpus,
                                  pl_spread spread, double seconds);

/**
 * \brief Record the run time of (type, size, gpus) while (other_type,
 *        other_size, other_gpus) runs on the same socket(s).
 * \return as pl_profile_set_add_solo().
 */
pl_status pl_profile_set_add_colocated(pl_profile_set *ps, const char *type, const char *size,
                                       int32_t gpus, const char *other_type, const char *other_size,
                                       int32_t other_gpus, double seconds);

/** \brief Solo run time. \return ::PL_OK; ::PL_ENOTFOUND (not profiled); ::PL_EINVAL. */
pl_status pl_profile_set_solo(const pl_profile_set *ps, const char *type, const char *size,
                              int32_t gpus, pl_spread spread, double *seconds);

/** \brief Co-located run time. \return ::PL_OK; ::PL_ENOTFOUND; ::PL_EINVAL. */
pl_status pl_profile_set_colocated(const pl_profile_set *ps, const char *type, const char *size,
                                   int32_t gpus, const char *other_type, const char *other_size,
                                   int32_t other_gpus, double *seconds);

/**
 * \brief Slowdown of (type, size, gpus) next to (other...): co-located time
 *        over the intra-socket solo time; 1 when either is not profiled
 *        (an unknown pair is assumed not to interfere). The neighbour's GPU
 *        count is matched to the nearest one measured for that pair (the
 *        smaller on a tie): the artifact measured each pair beside one
 *        neighbour size only.
 * \return ::PL_OK or ::PL_EINVAL.
 */
pl_status pl_profile_set_slowdown(const pl_profile_set *ps, const char *type, const char *size,
                                  int32_t gpus, const char *other_type, const char *other_size,
                                  int32_t other_gpus, double *slowdown);

/** \brief Number of solo and co-located entries. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_profile_set_counts(const pl_profile_set *ps, int32_t *solo, int32_t *colocated);

/* ---- the cost model of seed 002 ------------------------------------------------- */

/** Which utility formula (file comment). */
typedef enum pl_utility_form {
    PL_UTILITY_ARTIFACT = 0, /**< The SC17 artifact's, for comparison (its interference term is inverted). */
    PL_UTILITY_PAPER = 1     /**< Eq. (2) fixed: normalised by worst cases, U = 1 - Eq. (1) (the default). */
} pl_utility_form;

/** Weights and form; initialise with pl_utility_opts_init(). */
typedef struct pl_utility_opts {
    double alpha_cc;         /**< Communication weight (default 1/3). */
    double alpha_b;          /**< Interference weight (default 1/3). */
    double alpha_d;          /**< Fragmentation weight (default 1/3). */
    pl_utility_form form;    /**< Default ::PL_UTILITY_PAPER (set by pl_utility_opts_init(): a zeroed struct means ::PL_UTILITY_ARTIFACT). */
    double min_cost;         /**< Artifact form: floor of every cost (default 0.01). */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_utility_opts;

/** \brief Defaults: equal weights (seed 002 sec. 5.2.1), the paper form, min_cost 0.01. */
void pl_utility_opts_init(pl_utility_opts *opts);

/**
 * \brief Check the weights: each >= 0 and finite, summing to 1 within 1e-6;
 *        a known form; min_cost in (0, 1].
 * \return ::PL_OK or ::PL_EINVAL (the message names the bad field).
 */
pl_status pl_utility_opts_check(const pl_utility_opts *opts);

/** The measured or predicted quantities of one candidate placement. */
typedef struct pl_utility_terms {
    int32_t gpus;            /**< k, GPUs of the job. */
    int64_t comm;            /**< t of Eq. (3) for the candidate GPU set. */
    int64_t comm_min;        /**< Artifact: smallest t for k GPUs (subtracted). Paper: unused. */
    int64_t comm_norm;       /**< Artifact: divisor of t - comm_min. Paper: worst case t_w. 0 = no communication term. */
    double interference;     /**< Artifact: mean solo/co-located over neighbours (pl_interference_mean(); <= 1, 1 = none;
                                  for pl_system_utility() the mean of the suffered and caused values, each taken as
                                  min_cost when there is none). Paper: mean slowdown (>= 1). */
    double interference_worst; /**< Paper: worst mean slowdown I_w. Artifact: unused. */
    double fragmentation;    /**< omega of Eq. (5) after the allocation. */
    double fragmentation_worst; /**< Paper: omega_w. Artifact: unused. */
} pl_utility_terms;

/**
 * \brief Eq. (3): the sum over unordered pairs i < j of \p dist (k x k,
 *        row-major) — the total shortest-path distance within a GPU set.
 * \return ::PL_OK; ::PL_EINVAL (NULL, k < 0, a negative distance);
 *         ::PL_EOVERFLOW.
 */
pl_status pl_comm_cost(const int64_t *dist, int32_t k, int64_t *t);

/**
 * \brief Eq. (4): mean over \p n jobs of solo/co-located time (the paper's
 *        ratio, <= 1 when interference slows a job) for
 *        ::PL_UTILITY_ARTIFACT, or of co-located/solo (slowdown >= 1) for
 *        ::PL_UTILITY_PAPER. n = 0 gives 1 (no neighbours: no interference).
 *        As in the artifact, the artifact form adds only ratios < 1 (a
 *        neighbour that does not slow the job adds 0) and still divides by
 *        \p n; when no ratio is < 1 the result is 1.
 * \return ::PL_OK; ::PL_EINVAL (NULL with n > 0, a time <= 0 or not finite).
 */
pl_status pl_interference_mean(const double *solo, const double *colocated, int32_t n,
                               pl_utility_form form, double *out);

/**
 * \brief Eq. (5): mean over \p sockets of free/total GPUs (sockets with 0
 *        GPUs are skipped; none left gives 0).
 * \return ::PL_OK; ::PL_EINVAL (free < 0 or > total).
 */
pl_status pl_fragmentation(const int64_t *free_gpus, const int64_t *total_gpus, int32_t sockets,
                           double *omega);

/**
 * \brief The job's utility of a candidate placement: the artifact's U_job
 *        (in (0, 1] with equal weights), or 1 - Eq. (1) in [0, 1] for the
 *        paper form.
 * \return ::PL_OK; ::PL_EINVAL (bad options or terms: negative comm values,
 *         interference <= 0 or not finite, fragmentation outside [0, 1];
 *         paper form also: interference < 1, a term above its non-zero
 *         worst case; the message names the field).
 */
pl_status pl_utility(const pl_utility_opts *opts, const pl_utility_terms *terms, double *u);

/**
 * \brief The system utility of the artifact (U_sys over the three costs), or
 *        for the paper form the same as pl_utility().
 * \return as pl_utility().
 */
pl_status pl_system_utility(const pl_utility_opts *opts, const pl_utility_terms *terms, double *u);

/**
 * \brief Eq. (1) with the paper form's normalisation: alpha_cc t / t_w +
 *        alpha_b (I - 1) / (I_w - 1) + alpha_d omega / omega_w, I a mean
 *        slowdown (lower is better; in [0, 1]; a term whose worst case is 0,
 *        or 1 for I, contributes 0).
 * \return as pl_utility().
 */
pl_status pl_objective(const pl_utility_opts *opts, const pl_utility_terms *terms, double *obj);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_INTERFERENCE_H */
