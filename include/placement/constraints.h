/**
 * \file placement/constraints.h
 * \brief The conflicts a job's placement constraints can have
 *        (pl_job_check_constraints(), placement/job.h; Kim's thesis ch. 4).
 *        The constraint solver itself (nodes, units, classes, the energy-
 *        saving and load-balancing algorithms) is internal; the policies
 *        "constraint-energy" and "constraint-balance" use it.
 */
#ifndef PLACEMENT_CONSTRAINTS_H
#define PLACEMENT_CONSTRAINTS_H

#include <stdint.h>
#include <placement/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_constraints Placement constraints
 *  @{ */

/** Kind of a conflict found by pl_constraints_resolve(), as the thesis defines them. */
typedef enum pl_conflict_kind {
    PL_CONFLICT_NO_NODE = 0,   /**< The class's node set (intersection of its Must filters) is empty. */
    PL_CONFLICT_SELF_ANTI = 1, /**< Two units of one class must not share a node. */
    PL_CONFLICT_TOO_BIG = 2    /**< The class's total demand exceeds every node its filters allow. */
} pl_conflict_kind;

/** One conflict. */
typedef struct pl_conflict {
    pl_conflict_kind kind; /**< What is wrong. */
    int32_t cls;           /**< The class. */
    int32_t unit_a;        /**< SELF_ANTI: the separated pair; NO_NODE: the unit whose filter emptied the set; TOO_BIG: the class's first unit. */
    int32_t unit_b;        /**< SELF_ANTI: second unit; otherwise -1. */
} pl_conflict;

/** @} */

#ifdef __cplusplus
}
#endif

#endif
