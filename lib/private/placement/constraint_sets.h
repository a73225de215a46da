/**
 * \file placement/constraint_sets.h (internal, not installed)
 * \brief Placement constraints (Kim's thesis, ch. 4): unit-to-node Must
 *        (node attribute filters), unit-to-unit Must (affinity) and MustNot
 *        (anti-affinity), equivalence classes of units, conflict detection,
 *        a checker usable by every policy, and the energy-saving and
 *        load-balancing placement algorithms.
 *
 * Vocabulary: a *unit* is one placed item (the thesis's VM, a task); units
 * that must share a node form a *class* (the thesis's "VM unit"), the
 * equivalence classes of the affinity relation.
 *
 * Life cycle: pl_cnodes_create() + pl_cnodes_add() describe the nodes;
 * pl_constraints_create() + setters describe the units; then
 * pl_constraints_resolve() (classes, node sets, conflicts),
 * pl_constraints_check() (any assignment, from any policy) and
 * pl_constraint_place() (the ch. 4 algorithms). Adding a constraint after a
 * resolve discards it (queries return -1 until the next resolve).
 *
 * Thread-safety: a handle must not be used from two threads at once; distinct
 * handles are independent. See doc/constraints.md.
 */
#ifndef PLACEMENT_CONSTRAINT_SETS_H
#define PLACEMENT_CONSTRAINT_SETS_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/constraints.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal: not exported from the shared library. */
#pragma GCC visibility push(hidden)

/** \defgroup pl_constraints Placement constraints
 *  @{ */

/* ---- nodes ------------------------------------------------------------------ */

/** Opaque list of nodes with capacities and string attributes. */
typedef struct pl_cnodes pl_cnodes;

/** \brief Create an empty node list. \return ::PL_OK, ::PL_EINVAL (NULL), ::PL_ENOMEM. */
pl_status pl_cnodes_create(pl_cnodes **out);

/** \brief Release a node list; NULL is a no-op. */
void pl_cnodes_free(pl_cnodes *nodes);

/**
 * \brief Append a node.
 * \param name optional label (copied), or NULL.
 * \param cores CPU capacity in cores (>= 0).
 * \param mem_gb memory capacity in GB (>= 0).
 * \param attrs attributes "key=value[,key=value...]" (copied; keys unique;
 *        no spaces around '=' and ','), or NULL/"" for none.
 * \param[out] id the node's id, 0-based in order (may be NULL).
 * \return ::PL_OK; ::PL_EINVAL (negative capacity); ::PL_EPARSE (malformed or
 *         duplicate attribute, the message quotes it); ::PL_ENOMEM.
 */
pl_status pl_cnodes_add(pl_cnodes *nodes, const char *name, double cores, double mem_gb,
                        const char *attrs, int32_t *id);

/** \brief Number of nodes (0 for NULL). */
int32_t pl_cnodes_count(const pl_cnodes *nodes);

/** \brief Value of attribute \p key on \p node, owned by the list; NULL if absent or bad id. */
const char *pl_cnodes_attr(const pl_cnodes *nodes, int32_t node, const char *key);

/** \brief A node's capacities. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_cnodes_capacity(const pl_cnodes *nodes, int32_t node, double *cores, double *mem_gb);

/* ---- constraints ---------------------------------------------------------------- */

/** Opaque set of units with demands and constraints. */
typedef struct pl_constraints pl_constraints;

/**
 * \brief Create \p units units (ids 0..units-1) with zero demand and no constraint.
 * \return ::PL_OK, ::PL_EINVAL (NULL, units < 0), ::PL_ENOMEM.
 */
pl_status pl_constraints_create(int32_t units, pl_constraints **out);

/** \brief Release; NULL is a no-op. */
void pl_constraints_free(pl_constraints *c);

/** \brief Number of units (0 for NULL). */
int32_t pl_constraints_unit_count(const pl_constraints *c);

/** \brief Set a unit's demand. \return ::PL_OK or ::PL_EINVAL (bad id, negative or non-finite). */
pl_status pl_constraints_set_demand(pl_constraints *c, int32_t unit, double cores, double mem_gb);

/**
 * \brief Unit-to-node Must: \p unit may only run on nodes whose attribute
 *        \p key equals \p value (strings copied). Several Must filters of a
 *        unit intersect.
 * \return ::PL_OK, ::PL_EINVAL (bad id, NULL or empty key/value), ::PL_ENOMEM.
 */
pl_status pl_constraints_node_must(pl_constraints *c, int32_t unit, const char *key, const char *value);

/**
 * \brief Unit-to-node MustNot, converted to a Must: \p unit may only run on
 *        nodes where \p key is absent or differs from \p value.
 * \return as pl_constraints_node_must().
 */
pl_status pl_constraints_node_must_not(pl_constraints *c, int32_t unit, const char *key,
                                       const char *value);

/**
 * \brief Unit-to-unit Must (affinity): \p a and \p b run on the same node.
 *        Symmetric and transitive: it defines the classes.
 * \return ::PL_OK, ::PL_EINVAL (bad id), ::PL_ENOMEM.
 */
pl_status pl_constraints_colocate(pl_constraints *c, int32_t a, int32_t b);

/**
 * \brief Unit-to-unit MustNot (anti-affinity): \p a and \p b run on different
 *        nodes (symmetric). a == b is accepted and is a conflict.
 * \return ::PL_OK, ::PL_EINVAL (bad id), ::PL_ENOMEM.
 */
pl_status pl_constraints_separate(pl_constraints *c, int32_t a, int32_t b);

/**
 * \brief Compute classes (union-find over affinities), each class's node set
 *        (intersection of its members' filters over \p nodes), its
 *        anti-affine classes (union of its members'), and the conflicts.
 * \return ::PL_OK; ::PL_EINFEASIBLE if there are conflicts: the message lists
 *         each (kind, class, the constraints involved); they stay queryable
 *         with pl_constraints_conflict(); ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_constraints_resolve(pl_constraints *c, const pl_cnodes *nodes);

/** \brief Number of classes after a resolve, -1 before. */
int32_t pl_constraints_class_count(const pl_constraints *c);

/** \brief Class of \p unit after a resolve (classes numbered by their lowest unit), -1 before or bad id. */
int32_t pl_constraints_class_of(const pl_constraints *c, int32_t unit);

/** \brief Non-zero if \p unit's class may run on \p node by its filters (after a resolve). */
int pl_constraints_node_allowed(const pl_constraints *c, int32_t unit, int32_t node);

/** \brief Number of conflicts of the last resolve, -1 before. */
int32_t pl_constraints_conflict_count(const pl_constraints *c);

/** \brief Conflict \p i of the last resolve. \return ::PL_OK, ::PL_EINVAL, ::PL_ESTATE (no resolve). */
pl_status pl_constraints_conflict(const pl_constraints *c, int32_t i, pl_conflict *out);

/**
 * \brief Does an assignment satisfy every constraint and capacity?
 *
 * Independent of any resolve and of the algorithm that produced it: checks
 * each unit's filters against its node, every affinity (both placed: same
 * node), every anti-affinity (both placed: different nodes), and per node
 * the summed demands against the capacities (1e-9 slack).
 * \param assign [unit count] node id per unit, -1 = not placed.
 * \return ::PL_OK; ::PL_EVERIFY naming the first violated constraint (units,
 *         node, attribute or capacity); ::PL_EINVAL (NULL, node id out of range).
 */
pl_status pl_constraints_check(const pl_constraints *c, const pl_cnodes *nodes, const int32_t *assign);

/* ---- placement ---------------------------------------------------------------- */

/** Options of pl_constraint_place(). Initialise with pl_constraint_place_opts_init(). */
typedef struct pl_constraint_place_opts {
    const char *algorithm;   /**< Energy saving: "constraint-energy" (default, activeness-aware
                                  first fit), "es-basic" (first fit by node index), "att-aware"
                                  (first fit over nodes by decreasing attributes possessed);
                                  load balancing: "constraint-balance" (worst fit + spot
                                  migration), "lb-basic" (worst fit), "periodic" (worst fit, and
                                  every \c period creations migrations off the most utilised
                                  node while sigma falls). */
    int rearrange;           /**< Non-zero (default): when no node fits a class, try moving one
                                  placed class away (sequence of length 2). */
    int spot_migration;      /**< balance: non-zero (default) enables spot migration. */
    double spot_threshold;   /**< balance: migrate only if sigma drops by more than this (default 0.01). */
    int32_t period;          /**< periodic: creations between migration rounds (default 100, the thesis's). */
    double *active_trace;    /**< NULL, or [class count after the resolve]: active nodes after each creation. */
    double *sigma_trace;     /**< NULL, or [class count]: sigma of CPU utilisation after each creation. */
    void *reserved[4];       /**< Zero. */
} pl_constraint_place_opts;

/** \brief Fill \p o with the defaults. */
void pl_constraint_place_opts_init(pl_constraint_place_opts *o);

/**
 * \brief Place every class in order (of its lowest unit), as a stream of
 *        creations, by the chosen ch. 4 algorithm; earlier classes may be
 *        migrated by rearrangement or spot migration.
 * \param[out] assign [unit count] node per unit, -1 for units of classes that
 *             could not be placed (the thesis's creation failures).
 * \param[out] unplaced number of classes not placed (may be NULL).
 * \return ::PL_OK (the assignment passes pl_constraints_check());
 *         ::PL_EINFEASIBLE on conflicts (as pl_constraints_resolve(); \p assign
 *         all -1); ::PL_ENOTFOUND (unknown algorithm); ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_constraint_place(pl_constraints *c, const pl_cnodes *nodes,
                              const pl_constraint_place_opts *opts, int32_t *assign,
                              int32_t *unplaced);

/**
 * \brief The two ch. 4 metrics of an assignment: active nodes (hosting a
 *        placed unit) and the population standard deviation of CPU
 *        utilisation (used cores / cores; nodes without cores count 0).
 * \return ::PL_OK or ::PL_EINVAL.
 */
pl_status pl_constraints_metrics(const pl_constraints *c, const pl_cnodes *nodes,
                                 const int32_t *assign, int32_t *active_nodes, double *cpu_sigma);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
