/**
 * \file placement/constraint_online.h (internal, not installed)
 * \brief The ch. 4 constraint-aware algorithms replayed VM by VM in time,
 *        as Kim's thesis (seed 003, ch. 4 sec. 4.1) evaluates them: each VM
 *        is created on its own at its request time and its VM unit grows
 *        (Algorithm 1: the grown unit is placed anew and its earlier members
 *        migrate when the chosen node is another), VMs run their
 *        application iteratively until the last creation and then finish
 *        the current iteration, live migrations lengthen the migrated VMs'
 *        runs. doc/constraints.md ("Online replay").
 *
 * Thread-safety: no shared state; the constraint set is resolved in place.
 */
#ifndef PLACEMENT_CONSTRAINT_ONLINE_H
#define PLACEMENT_CONSTRAINT_ONLINE_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/constraint_sets.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

/** One VM of the replay: unit i of the constraint set is the i-th VM created. */
typedef struct pl_conline_vm {
    double create;   /**< Creation request time (s); non-decreasing in unit order. */
    double runtime;  /**< One iteration of the VM's application (s), > 0. */
    double mig_cost; /**< Run time one live migration adds to the VM (s), >= 0. */
} pl_conline_vm;

/** What a replay measures (the thesis's sec. 4.1 metrics). */
typedef struct pl_conline_result {
    double active;      /**< Active nodes (hosting a VM), time-weighted from the first creation to the last end. */
    double active_min;  /**< The same average of a bound no algorithm beats: the running VMs' cores over the largest
                             node's, rounded up. */
    double sigma;       /**< Population sigma of CPU utilisation, time-weighted over [win_lo, win_hi]. */
    int32_t failed;     /**< VMs not created (no node, even after rearrangement). */
    int32_t migrations; /**< VM live migrations (a unit's move migrates each of its created VMs). */
    double mig_time;    /**< Run time added by the migrations (s). */
    double end;         /**< When the last VM finished (s). */
} pl_conline_result;

/**
 * \brief Replay the creations of the units of \p c (VMs, demands from
 *        pl_constraints_set_demand()) at vms[i].create on \p nodes with
 *        the algorithm of \p opts (pl_constraint_place_opts; traces
 *        ignored, periodic rounds every opts->period creation requests).
 *        After the last request each VM finishes its current iteration and
 *        leaves; a unit's node stays its own while any member runs.
 * \param vms [unit count] the VMs' times.
 * \param win_lo,win_hi window of the sigma average (win_lo <= win_hi; equal:
 *        sigma just after the creations requested up to win_lo).
 * \param[out] res the metrics.
 * \return ::PL_OK; ::PL_EINFEASIBLE on conflicts (as
 *         pl_constraints_resolve()); ::PL_ENOTFOUND (unknown algorithm);
 *         ::PL_EINVAL (NULL, no units, times not ordered, runtime <= 0,
 *         negative cost, bad window); ::PL_ENOMEM.
 */
pl_status pl_constraint_place_online(pl_constraints *c, const pl_cnodes *nodes,
                                     const pl_constraint_place_opts *opts, const pl_conline_vm *vms,
                                     double win_lo, double win_hi, pl_conline_result *res);

/**
 * \brief Observer of a replay's states: called for each interval [t0, t1)
 *        between events (t1 > t0) with, per class (unit) k of the resolved
 *        constraint set, members[k] created VMs running of cores[k] cores
 *        and mem[k] GB in all (members[k] == 0: not running, sizes
 *        meaningless), and the active nodes. The arrays are the replay's,
 *        valid during the call only.
 * \return ::PL_OK to go on; any other status stops the replay, which returns it.
 */
typedef pl_status (*pl_conline_observer)(void *ctx, double t0, double t1, const double *cores, const double *mem,
                                         const int32_t *members, int32_t active);

/**
 * \brief pl_constraint_place_online() that also shows each state between
 *        events to \p observe (NULL: none) with \p ctx. Errors: those of
 *        pl_constraint_place_online() and the observer's.
 */
pl_status pl_constraint_place_online_observed(pl_constraints *c, const pl_cnodes *nodes,
                                              const pl_constraint_place_opts *opts, const pl_conline_vm *vms,
                                              double win_lo, double win_hi, pl_conline_observer observe,
                                              void *ctx, pl_conline_result *res);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_CONSTRAINT_ONLINE_H */
