/**
 * \file placement/coloc.h (internal, not installed)
 * \brief Colocation- and interference-aware placement (seed 003, Kim's
 *        thesis ch. 2-3): a learned runtime model (bagged REPTree-style
 *        regression trees), simulated-annealing placement of virtual clusters
 *        over candidate configurations, and two-level scheduling by platform
 *        and co-runner affinity.
 *
 * Standalone module: it needs neither the policy framework nor a topology;
 * a topology can be read as its cluster (pl_coloc_cluster_from_topology()).
 * doc/coloc.md gives the formulas, the file formats and every decision taken
 * where the thesis is silent.
 *
 * Thread-safety: handles must not be used from two threads at once; distinct
 * handles are independent. Nothing here keeps global state.
 */
#ifndef PLACEMENT_COLOC_H
#define PLACEMENT_COLOC_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/topology.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal (not installed, not exported): the experiments reach this
 * through the policies, the simulator and the CLI. */
#pragma GCC visibility push(hidden)

/** \defgroup pl_coloc_model Runtime model: bagged regression trees
 *  @{ */

/** Opaque trained model: an ensemble of regression trees whose predictions are averaged. */
typedef struct pl_coloc_model pl_coloc_model;

/** Training options; initialise with pl_coloc_model_opts_init(). */
typedef struct pl_coloc_model_opts {
    int32_t trees;             /**< Bootstrap trees (default 100, thesis). 1 with bootstrap = 0 gives a single REPTree. */
    int bootstrap;             /**< Non-zero (default): each tree learns from a bootstrap resample of size n. */
    int32_t min_leaf;          /**< Minimum samples in a leaf (default 2, Weka REPTree -M). */
    int32_t max_depth;         /**< Maximum depth, 0 = unlimited (default 0; capped internally at 64). */
    double min_variance_prop;  /**< Do not split a node whose variance is below this fraction of the root's (default 1e-3, Weka -V). */
    int32_t prune_folds;       /**< Reduced-error pruning on 1 of this many folds (default 3, Weka -N); 0 or 1 = no pruning. */
    uint64_t seed;             /**< Seed of the bootstrap and fold shuffles (default 1); the same seed gives the same model. */
} pl_coloc_model_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_coloc_model_opts. */
void pl_coloc_model_opts_init(pl_coloc_model_opts *opts);

/**
 * \brief Train a model from samples in memory.
 * \param x       [n * features] row-major feature values (finite).
 * \param y       [n] targets (e.g. runtime in seconds).
 * \param n       number of samples, >= 1.
 * \param features number of features, >= 1.
 * \param names   [features] feature names copied into the model, or NULL (named "f0", "f1", ...).
 * \param opts    options, or NULL for the defaults.
 * \param out     receives the model; free it with pl_coloc_model_free().
 * \return ::PL_OK; ::PL_EINVAL (bad sizes, non-finite value, bad option); ::PL_ENOMEM.
 */
pl_status pl_coloc_model_train(const double *x, const double *y, int64_t n, int32_t features,
                               const char *const *names, const pl_coloc_model_opts *opts,
                               pl_coloc_model **out);

/**
 * \brief Train a model from a CSV file of samples.
 *
 * Format (doc/coloc.md): a header row of comma-separated column names, then
 * one sample per row; every column but the last is a numeric feature, the
 * last is the target. Blank lines and lines starting with '#' are ignored.
 * For the placement model the columns follow pl_coloc_features().
 * \return ::PL_OK; ::PL_EIO (cannot open); ::PL_EPARSE with "file:line:" and
 *         the offending field (wrong field count, non-numeric or non-finite
 *         value, no header, no samples); ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_coloc_model_train_csv(const char *path, const pl_coloc_model_opts *opts,
                                   pl_coloc_model **out);

/**
 * \brief Predict the target for one feature vector.
 * \param x [pl_coloc_model_features(model)] values.
 * \param y receives the mean of the trees' predictions.
 * \return ::PL_OK; ::PL_EINVAL (NULL argument).
 */
pl_status pl_coloc_model_predict(const pl_coloc_model *model, const double *x, double *y);

/** \brief Number of features the model expects (0 for NULL). */
int32_t pl_coloc_model_features(const pl_coloc_model *model);
/** \brief Number of trees in the ensemble (0 for NULL). */
int32_t pl_coloc_model_trees(const pl_coloc_model *model);
/** \brief Name of feature \p i (owned by the model), or NULL if out of range. */
const char *pl_coloc_model_feature_name(const pl_coloc_model *model, int32_t i);

/**
 * \brief Write the model as text (format "placement-coloc-model 1", see
 *        doc/coloc.md). Values are printed with 17 significant digits, so a
 *        loaded model predicts bit-for-bit the same values.
 * \return ::PL_OK; ::PL_EINVAL; ::PL_EIO (errno text in the message).
 */
pl_status pl_coloc_model_save(const pl_coloc_model *model, const char *path);

/**
 * \brief Read a model written by pl_coloc_model_save().
 * \return ::PL_OK; ::PL_EIO; ::PL_EPARSE with "file:line:" (bad magic,
 *         version, counts, child index out of range); ::PL_ENOMEM.
 */
pl_status pl_coloc_model_load(const char *path, pl_coloc_model **out);

/** \brief Release a model (NULL is a no-op). */
void pl_coloc_model_free(pl_coloc_model *model);

/** @} */

/** \defgroup pl_coloc_vc Candidate virtual-cluster configurations (ch. 2 sec. 3.2)
 *  @{ */

/** Solo-run metrics of an application on one configuration: the model inputs of ch. 2 sec. 3.1. */
typedef struct pl_coloc_metrics {
    double cpu_idle_pct;       /**< CPU idle % (mean over the application's VMs). */
    double cpu_user_pct;       /**< CPU user %. */
    double net_send_mb_per_s;  /**< Network send MB/s. */
    double net_recv_mb_per_s;  /**< Network receive MB/s. */
    double disk_read_mb_per_s; /**< Storage read MB/s. */
    double disk_write_mb_per_s;/**< Storage write MB/s. */
} pl_coloc_metrics;

/** Maximum blocks per configuration (2^s with s <= 4). */
#define PL_COLOC_MAX_BLOCKS 16

/** One candidate VC configuration: 2^s blocks of R / 2^s VMs, each block on one node type. */
typedef struct pl_coloc_config {
    int32_t blocks;                        /**< 2^s. */
    int32_t block_type[PL_COLOC_MAX_BLOCKS]; /**< Node type of each block. */
    int32_t vms_per_node;                  /**< VMs of this application on each node it uses (same for every type). */
    int32_t types;                         /**< Distinct node types used (1 = homogeneous). */
    int consolidated;                      /**< 0: most scaled-out variant, 1: most consolidated variant. */
} pl_coloc_config;

/** A heterogeneous cluster: node types and, per type, node count and VM slots per node;
 *  a topology's machines seen this way: pl_coloc_cluster_from_topology(). */
typedef struct pl_coloc_cluster {
    int32_t types;             /**< T >= 1. */
    const int32_t *nodes;      /**< [types] nodes of each type. Global node ids run type by type: type 0 first. */
    const int32_t *slots;      /**< [types] VMs a node of each type holds (e.g. T1 2, T2 4 in Table 2.1). */
} pl_coloc_cluster;

/** Machine attribute naming its node type for pl_coloc_cluster_from_topology()
 *  (any non-empty string, e.g. "T1"). */
#define PL_COLOC_NODE_TYPE_ATTR "node_type"
/** Machine attribute giving the VMs it holds for pl_coloc_cluster_from_topology():
 *  a decimal integer in [1, INT32_MAX]. An attribute rather than the "cores"
 *  capacity because a slot count is a deployment choice (VM size, cores left
 *  to the host), not hardware: Table 2.1's T2 nodes have 12 cores and hold 4
 *  VMs of 2 vCPUs. */
#define PL_COLOC_VM_SLOTS_ATTR "vm_slots"

/** A topology seen as a ::pl_coloc_cluster, with the arrays the cluster
 *  borrows; from pl_coloc_cluster_from_topology(), freed with pl_coloc_view_free(). */
typedef struct pl_coloc_view {
    pl_coloc_cluster cluster;  /**< Points into \p nodes and \p slots (the struct may be copied). */
    int32_t *nodes;            /**< [cluster.types] machines of each type. */
    int32_t *slots;            /**< [cluster.types] ::PL_COLOC_VM_SLOTS_ATTR of the type's machines. */
    int32_t *machine_of_node;  /**< [total nodes] machine vertex of each global node id. */
} pl_coloc_view;

/**
 * \brief The co-location cluster seen in a topology (issue 19: a policy sees
 *        one cluster model). doc/coloc.md, "A topology as the cluster":
 *  - every ::PL_VK_MACHINE is a node; machines are visited in the
 *    topology's preorder (pl_topology_descendants());
 *  - a machine's type is its ::PL_COLOC_NODE_TYPE_ATTR attribute; types are
 *    numbered in order of first appearance (so the first machine's type is
 *    type 0, which pl_coloc_candidates() selects first);
 *  - a node's VM slots are its ::PL_COLOC_VM_SLOTS_ATTR attribute, the same
 *    on every machine of a type;
 *  - global node ids run type by type (as in ::pl_coloc_cluster), within a
 *    type in preorder; machine_of_node maps them back to machine vertices.
 * Nothing else is read (capacities and allocations included); the view does
 * not refer to the topology afterwards.
 * \param[out] out filled on success; zeroed on error (pl_coloc_view_free() is then a no-op).
 * \return ::PL_OK; ::PL_EINVAL for NULL, a topology without machines, a
 *         machine without either attribute or with a bad slot count, or two
 *         machines of one type with different slots (the message names the
 *         machines by path and gives both values); ::PL_ENOMEM.
 */
pl_status pl_coloc_cluster_from_topology(const pl_topology *t, pl_coloc_view *out);

/** \brief Free the arrays of \p v and zero it (not \p v itself); NULL is a no-op. */
void pl_coloc_view_free(pl_coloc_view *v);

/**
 * \brief Number of candidate configurations for T node types and at most 2^s
 *        types per configuration: 2 (k + sum_{i=1..s} min(C(k, 2^i), L)),
 *        L = round(log2 T), k = min(T, max(1, 2L)).
 * \return the count (6, 12, 14 for (T, s) = (2,1), (4,1), (4,2)), or -1 if
 *         T < 1, s < 0, 2^s > k or s > 4.
 */
int32_t pl_coloc_candidate_count(int32_t types, int32_t s);

/**
 * \brief Generate the candidate configurations of an application of \p vms VMs.
 *
 * Homogeneous configurations for each of the k selected types (the first k
 * types of the cluster), then for i = 1..s the tuples of 2^i types (L
 * tuples taken cyclically so each selected type appears 2^(i-1) times, or
 * the single k-tuple when 2^i = k), each in a scaled-out and a consolidated
 * variant. Scaled-out uses the fewest VMs per node that fits the cluster,
 * consolidated the most that fits a node of every type in the tuple; both
 * divide the block size. Variants may coincide on small clusters.
 * \param out [cap] receives pl_coloc_candidate_count(T, s) configurations.
 * \param count receives that count.
 * \return ::PL_OK; ::PL_EINVAL (bad s, vms not a positive multiple of 2^s,
 *         cap too small, bad cluster).
 */
pl_status pl_coloc_candidates(const pl_coloc_cluster *cluster, int32_t s, int32_t vms,
                              pl_coloc_config *out, int32_t cap, int32_t *count);

/** @} */

/** \defgroup pl_coloc_sa Simulated-annealing placement (ch. 2 sec. 3.2)
 *  @{ */

/** What the predictor is asked: one application's runtime under a hypothetical placement. */
typedef struct pl_coloc_query {
    int32_t app;                               /**< Application index. */
    int32_t config;                            /**< Index of its configuration in the problem's list. */
    const pl_coloc_config *cfg;                /**< That configuration. */
    double solo_runtime_s;                     /**< Its profiled solo runtime on that configuration. */
    int32_t corunners[PL_COLOC_MAX_BLOCKS];    /**< Per block: number of co-running applications on the block's nodes. */
    const int32_t *corunner_app[PL_COLOC_MAX_BLOCKS]; /**< Per block: [corunners[b]] their application indices. */
    const int32_t *corunner_config[PL_COLOC_MAX_BLOCKS]; /**< Per block: [corunners[b]] their configuration indices. */
    const int32_t *corunner_vms[PL_COLOC_MAX_BLOCKS];   /**< Per block: [corunners[b]] their VMs on each node of the block. */
} pl_coloc_query;

/**
 * \brief User-supplied runtime predictor.
 * \param ctx user context given in ::pl_coloc_problem.
 * \param q   the query (valid during the call only).
 * \param runtime_s receives the predicted runtime, > 0.
 * \return ::PL_OK or an error status, which aborts the search and is returned.
 */
typedef pl_status (*pl_coloc_predict_fn)(void *ctx, const pl_coloc_query *q, double *runtime_s);

/** Features per block in pl_coloc_features(): co-runner VMs per node, then the 6 averaged co-runner metrics. */
#define PL_COLOC_BLOCK_FEATURES 7
/** Features before the blocks: configuration index, solo runtime, the 6 target metrics. */
#define PL_COLOC_BASE_FEATURES 8

/**
 * \brief Feature vector of a query for the learned model, in the thesis's
 *        input order (ch. 2 sec. 3.1): configuration index, target solo
 *        runtime, target solo metrics (6, ::pl_coloc_metrics order), then per
 *        block: total co-runner VMs per node and the mean of the co-runners'
 *        solo metrics (zeros without co-runners).
 * \param metrics [apps * configs] solo metrics, row-major by application.
 * \param x receives PL_COLOC_BASE_FEATURES + blocks * PL_COLOC_BLOCK_FEATURES values.
 * \return the number of values written, or -1 on a NULL argument.
 */
int32_t pl_coloc_features(const pl_coloc_query *q, const pl_coloc_metrics *metrics,
                          int32_t configs, double *x);

/** Context of pl_coloc_model_predictor(): a trained model and the metrics table. */
typedef struct pl_coloc_model_ctx {
    const pl_coloc_model *model;       /**< Trained on pl_coloc_features() vectors. */
    const pl_coloc_metrics *metrics;   /**< [apps * configs] solo metrics. */
    int32_t configs;                   /**< Row length of metrics. */
} pl_coloc_model_ctx;

/**
 * \brief Ready-made ::pl_coloc_predict_fn that builds pl_coloc_features()
 *        and asks the model. ctx is a ::pl_coloc_model_ctx.
 * \return ::PL_OK; ::PL_EINVAL if the model's feature count does not match;
 *         ::PL_EINFEASIBLE if the model predicts a runtime <= 0.
 */
pl_status pl_coloc_model_predictor(void *ctx, const pl_coloc_query *q, double *runtime_s);

/** A placement of applications: configuration and node of every VM. */
typedef struct pl_coloc_placement {
    int32_t *config;   /**< [apps] configuration index. */
    int32_t *node;     /**< [apps * vms] global node of each VM; VMs of block b are b*vms/blocks .. (b+1)*vms/blocks - 1. */
} pl_coloc_placement;

/** Placement problem; zero it, then fill. */
typedef struct pl_coloc_problem {
    const pl_coloc_cluster *cluster;   /**< Node types, node counts and VM slots. */
    int32_t apps;                      /**< Applications (>= 1). */
    int32_t vms;                       /**< VMs per application (R; multiple of every config's blocks). */
    int32_t configs;                   /**< Candidate configurations (same list for every application). */
    const pl_coloc_config *config;     /**< [configs], e.g. from pl_coloc_candidates(). */
    const double *solo_runtime_s;      /**< [apps * configs] profiled solo runtimes (> 0). */
    pl_coloc_predict_fn predict;       /**< Runtime predictor. */
    void *predict_ctx;                 /**< Its context. */
    int32_t fixed;                     /**< On-line mode: the first \p fixed applications are already placed (see fixed_placement) and do not move; 0 = batch. */
    const pl_coloc_placement *fixed_placement; /**< Placement whose first \p fixed applications' entries are used (NULL when fixed = 0). */
} pl_coloc_problem;

/** Simulated-annealing options; initialise with pl_coloc_sa_opts_init(). */
typedef struct pl_coloc_sa_opts {
    int64_t iterations;        /**< Moves tried (default 2000). */
    double initial_temperature;/**< T0 in units of log(geometric-mean speedup) (default 0.05). */
    double cooling;            /**< Geometric cooling factor per iteration, in (0, 1] (default 0.995). */
    uint64_t seed;             /**< RNG seed (default 1): same seed, same result. */
} pl_coloc_sa_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_coloc_sa_opts. */
void pl_coloc_sa_opts_init(pl_coloc_sa_opts *opts);

/** Result of a placement search. */
typedef struct pl_coloc_result {
    double objective;          /**< Geometric mean over all applications of r_worst_solo / r_est. */
    int64_t evaluations;       /**< Placements evaluated. */
    int64_t accepted;          /**< SA moves accepted. */
} pl_coloc_result;

/**
 * \brief Allocate the (zeroed) arrays of \p p for \p apps applications of
 *        \p vms VMs. Overwrites p's pointers without freeing them; release
 *        with pl_coloc_placement_free().
 * \return ::PL_OK; ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_coloc_placement_alloc(pl_coloc_placement *p, int32_t apps, int32_t vms);
/** \brief Free the arrays of \p p (not \p p itself); NULL members are fine. */
void pl_coloc_placement_free(pl_coloc_placement *p);

/**
 * \brief Objective of a complete placement: geometric mean of r_worst_solo / r_est.
 * \return ::PL_OK; ::PL_EINVAL if the placement breaks slots, the block
 *         co-runner rule (doc/coloc.md) or a configuration; predictor errors.
 */
pl_status pl_coloc_evaluate(const pl_coloc_problem *prob, const pl_coloc_placement *pl, double *objective);

/**
 * \brief `sa-placement`: simulated annealing over candidate configurations
 *        and block-to-node-group placements (batch mode, or on-line when
 *        prob->fixed > 0). Returns the best placement seen. After 100 moves in a row that do not fit, it restarts from a new random start (doc/coloc.md, "Stalls").
 * \param out allocated by the caller with pl_coloc_placement_alloc(); the
 *        fixed applications' entries are copied through.
 * \return ::PL_OK; ::PL_EINVAL; ::PL_EINFEASIBLE (no feasible initial
 *         placement found); predictor errors; ::PL_ENOMEM.
 */
pl_status pl_coloc_sa_place(const pl_coloc_problem *prob, const pl_coloc_sa_opts *opts,
                            pl_coloc_placement *out, pl_coloc_result *result);

/**
 * \brief Exhaustive search over the same space (the thesis's "Best"): every
 *        configuration of every movable application and every block-to-group
 *        choice (empty nodes taken lowest index first, so symmetric copies are
 *        not repeated). Exponential: for small instances and tests.
 * \param max_evaluations stop with ::PL_ELIMIT after this many (0 = no limit).
 * \return as pl_coloc_sa_place(), plus ::PL_ELIMIT.
 */
pl_status pl_coloc_exhaustive_place(const pl_coloc_problem *prob, int64_t max_evaluations,
                                    pl_coloc_placement *out, pl_coloc_result *result);

/**
 * \brief The Greedy (\p consolidated_only non-zero) and HA (zero) baselines
 *        of ch. 2 sec. 4.2: applications in decreasing r_worst / r_best of
 *        their solo runtimes over the allowed configurations, each given the
 *        allowed configuration with the smallest solo runtime that still
 *        fits (interference is ignored). Greedy allows the most consolidated
 *        homogeneous configurations (C2 and C6 of Table 2.3) and, when none
 *        fits, takes the smallest solo runtime among those that do. "Fits"
 *        means the applications after it can still all be placed (each step
 *        looks ahead, doc/coloc.md sec. 2b), so an application is never left
 *        unplaced when some placement of them all exists.
 *        prob->predict is not called (batch: prob->fixed must be 0).
 *        Exponential in the applications, like pl_coloc_exhaustive_place().
 * \param out allocated with pl_coloc_placement_alloc() for prob->apps.
 * \return ::PL_OK; ::PL_EINVAL; ::PL_EINFEASIBLE (no placement of all the
 *         applications fits the cluster); ::PL_ENOMEM.
 */
pl_status pl_coloc_solo_greedy_place(const pl_coloc_problem *prob, int consolidated_only,
                                     pl_coloc_placement *out);

/**
 * \brief The Random baseline of ch. 2 sec. 4.2: every application in a random
 *        configuration that fits (the annealing's random start; the thesis
 *        averages five seeds). prob->predict is not called.
 * \return as pl_coloc_sa_place().
 */
pl_status pl_coloc_random_place(const pl_coloc_problem *prob, uint64_t seed, pl_coloc_placement *out);

/**
 * \brief The IA baseline (interference-aware, heterogeneity-ignorant) of
 *        ch. 2 sec. 4.2: applications are paired at random, each with one of
 *        a different dominant resource where possible, and each pair put on
 *        the same nodes in a random scaled-out configuration (C1, C3 or C5
 *        of Table 2.3); a pair that no scaled-out configuration can hold any
 *        more takes the least-penalised placement (doc/coloc.md). As in
 *        pl_coloc_solo_greedy_place(), a choice must leave room for the
 *        applications placed after it.
 * \param dominant [prob->apps] dominant-resource class of each application
 *        (any integers: equal values compete).
 * \return as pl_coloc_solo_greedy_place().
 */
pl_status pl_coloc_ia_place(const pl_coloc_problem *prob, const int32_t *dominant, uint64_t seed,
                            pl_coloc_placement *out);

/** @} */

/** \defgroup pl_coloc_twolevel Two-level scheduling by affinity (ch. 3)
 *  @{ */

/**
 * \brief Platform affinity PA(K,P) = (1/(|P|-1)) sum_{P' != P} t_K(P') / t_K(P).
 * \param t [apps * platforms] mean OneCore task runtimes (> 0), row-major by application.
 * \param pa [apps * platforms] receives the affinities.
 * \return ::PL_OK; ::PL_EINVAL (fewer than 2 platforms, runtime <= 0).
 */
pl_status pl_coloc_platform_affinity(const double *t, int32_t apps, int32_t platforms, double *pa);

/**
 * \brief Co-runner affinity of K to one combination:
 *        max(0, (t_with - t_onecore) / t_onecore).
 * \return the value, or -1 if t_onecore <= 0.
 */
double pl_coloc_corunner_affinity(double t_with_s, double t_onecore_s);

/** Maximum applications in one combination (FourApps). */
#define PL_COLOC_MAX_COMBO 4

/** A combination of tasks on one node of a platform: n / napps tasks of each member. */
typedef struct pl_coloc_combo {
    int32_t napps;                     /**< 1 (AllCore), 2 (TwoApps) or 4 (FourApps). */
    int32_t app[PL_COLOC_MAX_COMBO];   /**< Distinct member applications. */
    double ca[PL_COLOC_MAX_COMBO];     /**< CA(app[i], P, C) from pl_coloc_corunner_affinity(). */
} pl_coloc_combo;

/**
 * \brief Level 1: distribute each platform's cores over applications by platform affinity.
 *
 * avg_P = mean_K PA(K,P) over all applications, computed once and kept (the
 * thesis keeps the first average); in each round the applications still
 * needing cores with PA > avg_P share P's free cores equally (applications
 * served in increasing task-count order so an unused share flows on; each
 * application visits platforms in decreasing PA). Rounds repeat while cores
 * and demand remain; a platform with no eligible application left gives its
 * cores to every application still needing cores (decision, doc/coloc.md).
 * \param pa    [apps * platforms] platform affinities.
 * \param cores [platforms] cores of each platform.
 * \param tasks [apps] remaining tasks (demand in cores), >= 0.
 * \param alloc [apps * platforms] receives the cores (pilot jobs) per application and platform.
 * \return ::PL_OK; ::PL_EINVAL.
 */
pl_status pl_coloc_share_cores(const double *pa, int32_t apps, int32_t platforms, const int32_t *cores,
                          const int64_t *tasks, int32_t *alloc);

/**
 * \brief Level 2 on one platform: map pilot jobs to nodes by co-runner affinity.
 *
 * Repeatedly take the application with the largest CA(K,P) (mean over the
 * given combinations containing it) among those whose pilots can still fill
 * a whole combination containing it, pick that combination with the
 * smallest CA(K,P,C), and map it onto as many nodes as the pilots allow.
 * Leftover pilots are shuffled (seeded) and packed onto the free nodes.
 * \param nodes, cores_per_node platform shape; every combination's napps must divide cores_per_node.
 * \param pilots [apps] pilot jobs of each application on this platform (sum <= nodes * cores_per_node).
 * \param combos [ncombos] the measured combinations of this platform.
 * \param core_app [nodes * cores_per_node] receives the application of each core (-1 idle).
 * \param node_combo [nodes] receives the combination index of each node, -1 for a leftover or idle node.
 * \return ::PL_OK; ::PL_EINVAL (bad shapes, too many pilots, invalid combination).
 */
pl_status pl_coloc_map_pilots(int32_t nodes, int32_t cores_per_node, int32_t apps, const int32_t *pilots,
                          const pl_coloc_combo *combos, int32_t ncombos, uint64_t seed,
                          int32_t *core_app, int32_t *node_combo);

/**
 * \brief Level 1 of the Fair-AllCore baseline (ch. 3 sec. 3): every
 *        platform's cores split equally over the applications still needing
 *        cores, capped by need (served in increasing need, so an unused
 *        share flows on; rounds while cores and need remain). Its level 2 is
 *        pl_coloc_map_pilots() with the AllCore combinations only.
 * \return as pl_coloc_share_cores().
 */
pl_status pl_coloc_fair_share(int32_t apps, int32_t platforms, const int32_t *cores, const int64_t *tasks,
                              int32_t *alloc);

/**
 * \brief Level 1 of the Worst-AllCore baseline (ch. 3 sec. 3): the affinity
 *        sharing of pl_coloc_share_cores() with every comparison reversed, so
 *        each platform goes to the applications whose PA is below its
 *        average, each visiting platforms from its least affine.
 * \return as pl_coloc_share_cores().
 */
pl_status pl_coloc_worst_share(const double *pa, int32_t apps, int32_t platforms, const int32_t *cores,
                               const int64_t *tasks, int32_t *alloc);

/** @} */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_COLOC_H */
