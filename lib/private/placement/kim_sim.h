/**
 * \file placement/kim_sim.h (internal, not installed)
 * \brief The experiments of seed 003 (Kim thesis) as built-in scenarios:
 *        "kim-ch2" (ch. 2 sec. 4.2: VM placement of the nine Table 2.6
 *        workloads on the Table 2.1 cluster, each policy as % of Best),
 *        "kim-ch3" (ch. 3 sec. 3: trace simulation of two-level scheduling
 *        against the AllCore baselines) and "kim-ch4" (ch. 4 sec. 4: the
 *        constraint-aware algorithms on generated scenarios). doc/results.md ("Seed 003") gives
 *        the thesis's numbers beside ours and every reconstructed parameter.
 *
 * Thread-safety: no shared state.
 */
#ifndef PLACEMENT_KIM_SIM_H
#define PLACEMENT_KIM_SIM_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/constraint_sets.h>
#include <placement/topology.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal (not installed, not exported): `placement simulate --scenario kim-*` runs it. */
#pragma GCC visibility push(hidden)

/** Workloads of Table 2.6. */
#define PL_KIM_CH2_WORKLOADS 9

/** One policy's result in a kim scenario. */
typedef struct pl_kim_row {
    char policy[24];     /**< Policy name. */
    double value;        /**< kim-ch2: % of Best (mean over the workloads); kim-ch3: % improvement over Worst-AllCore,
                              100 (1 - M / M_worst); kim-ch4: time-weighted active nodes / ES-basic's (n_active_ratio). */
    double extra;        /**< kim-ch2: sa-placement's mean gain over this policy (%); kim-ch3: mean makespan (s);
                              kim-ch4: sigma of CPU utilisation / LB-basic's (sigma_ratio). */
    double per_workload[PL_KIM_CH2_WORKLOADS]; /**< kim-ch2: % of Best of each workload (WL1-WL9); kim-ch5: LS
                                                    then batch slowdown (%) at f = 1, 2, 4, 8. */
    double ratio;        /**< kim-ch3: M_worst / M (the same improvement as a ratio); kim-ch4: VMs not created, %. */
    double moves;        /**< kim-ch4: VM live migrations per scenario. */
} pl_kim_row;

/** kim-ch4 settings (pl_kim_opts::setting). */
enum {
    PL_KIM_CH4_CLUSTER = 0,   /**< Sec. 5, the real cluster of Table 4.4 (default). */
    PL_KIM_CH4_SIMULATION = 1 /**< Sec. 4.2, the simulation's Default setting (Fig. 4-6). */
};

/** Options of the kim scenarios; initialise with pl_kim_opts_init(). */
typedef struct pl_kim_opts {
    uint64_t seed;       /**< Seed of the training set, the searches and the random baselines (default 1). */
    int32_t runs;        /**< kim-ch3: simulation runs averaged (default 100, the thesis's); kim-ch2: random placements
                              averaged for Random and IA (default 5, the thesis's); kim-ch4: generated scenarios (default 20). */
    int64_t iterations;  /**< kim-ch2: annealing iterations of sa-placement (default 2000). */
    int32_t setting;     /**< kim-ch4: PL_KIM_CH4_CLUSTER (default) or PL_KIM_CH4_SIMULATION. */
    int32_t reading;     /**< kim-ch4, for measurements and tests only: PL_KIM_CH4_NO_CAP and/or PL_KIM_CH4_EVEN_TIMES
                              (other readings of the thesis's setup, doc/results.md); default 0, the stated one. */
    int check_bound;     /**< kim-ch4, tests only: also replay every algorithm against the constrained bound of its own
                              running VMs and fail with ::PL_EVERIFY where the bound exceeds its active nodes (cluster). */
} pl_kim_opts;

/** pl_kim_opts::reading bits. */
enum {
    PL_KIM_CH4_NO_CAP = 1,    /**< Nodes used to all 12 cores (no 85 % cap). */
    PL_KIM_CH4_EVEN_TIMES = 2 /**< Request gaps |normal| (times spread evenly), not sorted normal times. */
};

/** \brief A standard normal draw (Box-Muller) from the scenario generator \p rng. */
double pl_kim_normal(uint64_t *rng);

/** \brief Fill \p o with the defaults listed in ::pl_kim_opts. */
void pl_kim_opts_init(pl_kim_opts *o);

/**
 * \brief The experiments' common start: checks that \p rows has room for
 *        \p n rows, fills \p o from \p opts (NULL: defaults), checks it,
 *        zeroes the rows and names them \p names; *nrows = 0.
 * \param who the caller's name, for messages.
 * \return ::PL_OK; ::PL_EINVAL (no room, negative runs or iterations).
 */
pl_status pl_kim_start(const char *who, const pl_kim_opts *opts, pl_kim_opts *o, pl_kim_row *rows, int32_t cap,
                       int32_t *nrows, const char *const *names, int32_t n);

/** Rows pl_kim_ch2() writes (sa-placement, best, random, greedy, ha, ia, sa-lookup). */
#define PL_KIM_CH2_ROWS 7

/**
 * \brief The kim-ch2 experiment: for each Table 2.6 workload, Best
 *        (exhaustive, true runtimes), sa-placement driven by a bagged
 *        REPTree model learned from random co-runs, the Random, Greedy,
 *        HA and IA baselines, and sa-lookup (the same annealing on a
 *        pairwise-profile lookup: solo time x the largest slowdown against
 *        a co-runner, each pair profiled once on C1), all scored by the true (reconstructed) runtime
 *        model as the geometric-mean speed-up normalised to Best.
 * \param rows [cap >= PL_KIM_CH2_ROWS] receives the rows, sa-placement first.
 * \param nrows receives the row count.
 * \return ::PL_OK; ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_kim_ch2(const pl_kim_opts *o, pl_kim_row *rows, int32_t cap, int32_t *nrows);

/**
 * \brief The kim-ch2 cluster (Table 2.1) as a topology: a cluster vertex
 *        "kim-ch2" over 8 machines "T1-0" .. "T1-7" (4 cores, 16 GiB) then 4
 *        "T2-0" .. "T2-3" (12 cores, 64 GiB), each with the attributes
 *        ::PL_COLOC_NODE_TYPE_ATTR ("T1", "T2") and ::PL_COLOC_VM_SLOTS_ATTR
 *        ("2", "4") that pl_coloc_cluster_from_topology() reads.
 * \param[out] out the new topology (pl_topology_free()); untouched on error.
 * \return ::PL_OK; ::PL_EINVAL for NULL; ::PL_ENOMEM.
 */
pl_status pl_kim_ch2_cluster(pl_topology **out);

/** Rows pl_kim_ch3() writes (two-level, fair-allcore, worst-allcore). */
#define PL_KIM_CH3_ROWS 3

/**
 * \brief The kim-ch3 experiment: the Table 3.7 workload on the Table 3.6
 *        platforms (480 cores), pilot jobs fed from one queue per
 *        application, scheduled by two-level affinity scheduling
 *        (pl_coloc_share_cores() + pl_coloc_map_pilots()), Fair-AllCore and
 *        Worst-AllCore; cores are redistributed whenever a queue empties.
 *        Each row: mean makespan over o->runs runs (extra) and the speed-up
 *        over Worst-AllCore as the thesis's "performance improvement", the
 *        makespan reduction 100 (1 - M / M_worst) (value), and M_worst / M (ratio).
 * \param rows [cap >= PL_KIM_CH3_ROWS] receives the rows, two-level first.
 * \return ::PL_OK; ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_kim_ch3(const pl_kim_opts *o, pl_kim_row *rows, int32_t cap, int32_t *nrows);

/** Rows pl_kim_ch4() writes (es-basic, att-aware, activity-aware, lb-basic, periodic, spot, cores-bound: the
 *  fewest nodes the running VMs' cores need, constrained-bound: the fewest nodes that hold them under every
 *  constraint (pl_kim4_min_nodes(); NaN in the simulation setting), both time-weighted, as n_active_ratio only, of
 *  ES-basic's running VMs; constrained-bound's extra: the same bound of activity-aware's running VMs). */
#define PL_KIM_CH4_ROWS 8

/**
 * \brief The fewest nodes of \p nodes on which the running units of \p c
 *        (classes k with members[k] > 0, of cores[k] cores and mem[k] GB) can
 *        all be placed at once: each on a node its filters allow, no two
 *        anti-affine ones together, within every node's cores and memory;
 *        any arrangement (an offline optimum: no online algorithm keeps fewer
 *        nodes active with the same units running). Exact (node subsets by
 *        size, backtracking over the units), for at most 16 nodes.
 * \param c resolved on \p nodes (pl_constraints_resolve()); arrays indexed by class.
 * \param[out] out the node count (0 when nothing runs).
 * \return ::PL_OK; ::PL_EINVAL (NULL, not resolved on these nodes, more than 16 nodes); ::PL_EINFEASIBLE
 *         (no set of nodes holds them); ::PL_ENOMEM.
 */
pl_status pl_kim4_min_nodes(const pl_constraints *c, const pl_cnodes *nodes, const double *cores, const double *mem,
                            const int32_t *members, int32_t *out);

/**
 * \brief The kim-ch4 experiment: ch. 4's six constraint-aware algorithms
 *        (ES-basic, Attribute-aware, Activeness-aware, LB-basic, Periodic
 *        migration, Spot migration) replayed VM by VM in time
 *        (pl_constraint_place_online(): units grow, VMs run SPEC CPU2006
 *        applications of Table 4.2 until the last creation, migrations cost
 *        run time) on o->runs generated scenarios of o->setting: the
 *        Table 4.4 cluster (4 nodes of 12 cores, 36 one-core VMs, units of
 *        1-5 VMs, groups of 1-3 units, 2 attributes, last creation at 6300 s;
 *        default 200 scenarios) or the sec. 4.2 Default simulation (256
 *        nodes, 3 attributes, last creation at 3600 s; default 20).
 *        Each row, averaged over the scenarios: time-weighted active nodes
 *        over ES-basic's (value), time-weighted sigma of CPU utilisation
 *        from 20 % to 80 % of the creation requests over LB-basic's
 *        (extra), VMs not created in % (ratio), migrations (moves).
 * \return ::PL_OK; ::PL_EINVAL (also an unknown setting); ::PL_ENOMEM.
 */
pl_status pl_kim_ch4(const pl_kim_opts *o, pl_kim_row *rows, int32_t cap, int32_t *nrows);

/** Rows pl_kim_ch5() writes (the Cifar10 models: Alexnet, Resnet32, Trivial). */
#define PL_KIM_CH5_ROWS 3
/** Split factors of pl_kim_ch5() (1, 2, 4, 8). */
#define PL_KIM_CH5_FACTORS 4

/**
 * \brief The kim-ch5 experiment (ch. 5 sec. 4.2, kernel split): each
 *        Cifar10 model of Table 5.1 on a GPU with each Imagenet model, the
 *        batch model's kernels split by f = 1, 2, 4, 8, simulated by the GPU
 *        usage-pattern simulator on synthetic Table 5.1 traces
 *        (tests/data/kim/README.md). Per row (LS model), in %, means over
 *        the five batch models: per_workload[0..3] the LS slowdown at f = 1,
 *        2, 4, 8, per_workload[4..7] the batch slowdown; value = LS at f = 1,
 *        extra = LS at f = 8, ratio = batch at f = 8. Deterministic (o->seed
 *        and o->runs unused).
 * \return ::PL_OK; ::PL_EINVAL; the errors of pl_gpu_qos_matrix().
 */
pl_status pl_kim_ch5(const pl_kim_opts *o, pl_kim_row *rows, int32_t cap, int32_t *nrows);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_KIM_SIM_H */
