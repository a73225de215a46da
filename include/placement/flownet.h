/**
 * \file placement/flownet.h
 * \brief Flow networks: nodes with supplies, arcs with bounds and costs,
 *        DIMACS input/output, solving, and certificate checks.
 *
 * Life cycle (as hwloc's): pl_flownet_create() or a DIMACS reader ->
 * add/modify nodes and arcs -> pl_flownet_solve() -> query flows, potentials
 * and cost -> pl_flownet_free(). Any modification after a solve discards the
 * solution (queries then return ::PL_ESTATE) until the next solve.
 *
 * Incremental re-solve: the discarded solution is kept as a starting point.
 * After a few changes (costs, bounds, supplies, added or removed arcs and
 * nodes) the next pl_flownet_solve() with a solver that supports it
 * (::PL_SOLVER_WARM_START: "ssp", "cost-scaling", "network-simplex") starts
 * from the previous flow, potentials and solver state instead of from
 * scratch, which is much faster for small changes. The answer is the same
 * optimum either way; ::pl_solve_opts::cold_start turns it off.
 *
 * Node and arc ids are 0-based, in creation order, except that the id of a
 * removed node or arc is reused by a later addition (like file
 * descriptors: the most recently freed first). Ids below
 * pl_flownet_node_count() / pl_flownet_arc_count() may thus name removed
 * items; pl_flownet_node_removed() / pl_flownet_arc_removed() tell. All
 * quantities are int64_t; ::PL_CAP_INF marks an arc without upper bound.
 *
 * Thread-safety: a network must not be used from two threads at once without
 * external locking; distinct networks are fully independent.
 */
#ifndef PLACEMENT_FLOWNET_H
#define PLACEMENT_FLOWNET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <placement/status.h>
#include <placement/solver.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_flownet Flow networks
 *  @{ */

/** Opaque flow network handle. */
typedef struct pl_flownet pl_flownet;

/** Upper bound of an arc with unlimited capacity. */
#define PL_CAP_INF INT64_MAX

/** Largest number of nodes or arcs a network may hold (2^30 - 1, so that the 2m residual arcs fit in int32_t). */
#define PL_FLOWNET_MAX_SIZE ((1 << 30) - 1)

/** Description of one arc, filled by pl_flownet_get_arc(). */
typedef struct pl_arc_info {
    int32_t tail;   /**< Node the arc leaves. */
    int32_t head;   /**< Node the arc enters. */
    int64_t lower;  /**< Minimum flow. */
    int64_t upper;  /**< Maximum flow, or ::PL_CAP_INF. */
    int64_t cost;   /**< Cost per unit of flow. */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_arc_info;

/* ---- life cycle ------------------------------------------------------- */

/**
 * \brief Create an empty network.
 * \param[out] out the new network, to be released with pl_flownet_free().
 * \return ::PL_OK, ::PL_EINVAL (\p out NULL) or ::PL_ENOMEM.
 */
pl_status pl_flownet_create(pl_flownet **out);

/** \brief Release a network and everything it owns. NULL is a no-op. */
void pl_flownet_free(pl_flownet *net);

/**
 * \brief Pre-allocate room for \p nodes nodes and \p arcs arcs in total.
 * \return ::PL_OK, ::PL_EINVAL (negative or above ::PL_FLOWNET_MAX_SIZE), ::PL_ENOMEM.
 */
pl_status pl_flownet_reserve(pl_flownet *net, int32_t nodes, int32_t arcs);

/* ---- building ----------------------------------------------------------- */

/**
 * \brief Add one node.
 * \param name optional label (copied), or NULL.
 * \param supply units the node produces (> 0) or consumes (< 0).
 * \param[out] id the new node's id (may be NULL).
 * \return ::PL_OK, ::PL_EINVAL (NULL net, too many nodes), ::PL_ENOMEM.
 */
pl_status pl_flownet_add_node(pl_flownet *net, const char *name, int64_t supply, int32_t *id);

/**
 * \brief Add \p count unnamed nodes with zero supply.
 * \param[out] first_id id of the first new node (may be NULL); the others follow.
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_flownet_add_nodes(pl_flownet *net, int32_t count, int32_t *first_id);

/**
 * \brief Add an arc tail -> head carrying between \p lower and \p upper units at \p cost each.
 *
 * Parallel arcs and loops (tail == head) are allowed.
 * \param upper ::PL_CAP_INF for no upper bound.
 * \param[out] id the new arc's id (may be NULL).
 * \return ::PL_OK; ::PL_EINVAL if a node id is out of range, lower > upper,
 *         lower is ::PL_CAP_INF, or the network is full; ::PL_ENOMEM.
 */
pl_status pl_flownet_add_arc(pl_flownet *net, int32_t tail, int32_t head,
                             int64_t lower, int64_t upper, int64_t cost, int32_t *id);

/** \brief Set a node's supply. \return ::PL_OK or ::PL_EINVAL (bad id). */
pl_status pl_flownet_set_supply(pl_flownet *net, int32_t node, int64_t supply);

/** \brief Set (copy) or clear (NULL) a node's name. \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM. */
pl_status pl_flownet_set_node_name(pl_flownet *net, int32_t node, const char *name);

/** \brief Change an arc's cost. \return ::PL_OK or ::PL_EINVAL (bad id). */
pl_status pl_flownet_set_arc_cost(pl_flownet *net, int32_t arc, int64_t cost);

/**
 * \brief Change an arc's bounds.
 * \return ::PL_OK or ::PL_EINVAL (bad id, lower > upper, lower infinite).
 */
pl_status pl_flownet_set_arc_bounds(pl_flownet *net, int32_t arc, int64_t lower, int64_t upper);

/**
 * \brief Remove an arc. Its id becomes free for reuse by a later
 *        pl_flownet_add_arc(); until then it carries no flow and queries on
 *        it report it removed.
 * \return ::PL_OK; ::PL_EINVAL (bad or already removed id).
 */
pl_status pl_flownet_remove_arc(pl_flownet *net, int32_t arc);

/**
 * \brief Remove a node and every arc incident to it. Its id becomes free for
 *        reuse by a later pl_flownet_add_node().
 * \note Finding the incident arcs takes O(degree) when the network was solved
 *       or had arcs removed since its last structural addition, O(arcs) otherwise.
 * \return ::PL_OK; ::PL_EINVAL (bad or already removed id); ::PL_ENOMEM.
 */
pl_status pl_flownet_remove_node(pl_flownet *net, int32_t node);

/* ---- queries -------------------------------------------------------------- */

/** \brief Size of the node id space: every node id is below it (0 for NULL). Includes removed ids. */
int32_t pl_flownet_node_count(const pl_flownet *net);

/** \brief Size of the arc id space: every arc id is below it (0 for NULL). Includes removed ids. */
int32_t pl_flownet_arc_count(const pl_flownet *net);

/** \brief Non-zero if \p node is a removed (free) id; 0 for live or out-of-range ids. */
int pl_flownet_node_removed(const pl_flownet *net, int32_t node);

/** \brief Non-zero if \p arc is a removed (free) id; 0 for live or out-of-range ids. */
int pl_flownet_arc_removed(const pl_flownet *net, int32_t arc);

/** \brief Copy arc \p arc's description into \p info. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_flownet_get_arc(const pl_flownet *net, int32_t arc, pl_arc_info *info);

/** \brief A node's supply. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_flownet_get_supply(const pl_flownet *net, int32_t node, int64_t *supply);

/**
 * \brief A node's name.
 * \return the name (owned by the network, valid until it changes), or NULL
 *         if the node has none or the id is out of range.
 */
const char *pl_flownet_node_name(const pl_flownet *net, int32_t node);

/**
 * \brief Id of the first node called \p name.
 * \return ::PL_OK, ::PL_ENOTFOUND, ::PL_EINVAL (NULL argument).
 */
pl_status pl_flownet_find_node(const pl_flownet *net, const char *name, int32_t *node);

/* ---- solving ---------------------------------------------------------------- */

/**
 * \brief Find a minimum-cost flow.
 *
 * Normalises the network (see ::pl_flow_problem), rules out unboundedness,
 * runs the solver chosen in \p opts and keeps its flows, potentials and cost
 * in the network. After a solve by a solver flagged ::PL_SOLVER_INCREMENTAL
 * the network keeps its problem up to date change by change, and the next
 * warm solve by that solver only looks at what changed
 * (pl_solve_stats::incremental; doc/flow.md, "The incremental path"); the
 * total cost is then computed when first asked for.
 * \param opts options, or NULL for the defaults.
 * \param[out] stats statistics of this solve (may be NULL).
 * \return ::PL_OK; ::PL_EINFEASIBLE (no flow meets the supplies and bounds,
 *         including supplies that do not sum to zero); ::PL_EUNBOUNDED (a
 *         negative-cost cycle of infinite capacity; reported only when a
 *         feasible flow exists); ::PL_EOVERFLOW (capacities, costs or the
 *         total cost exceed the limits documented at ::pl_flow_problem); ::PL_ENOTFOUND (no
 *         such solver); ::PL_EVERIFY (opts->verify and the check failed);
 *         ::PL_ELIMIT; ::PL_ENOMEM. On failure the network holds no solution.
 */
pl_status pl_flownet_solve(pl_flownet *net, const pl_solve_opts *opts, pl_solve_stats *stats);

/** \brief Non-zero if the network holds a solution (from a solve or pl_flownet_set_solution()). */
int pl_flownet_has_solution(const pl_flownet *net);

/**
 * \brief Total cost of the held solution.
 * \return ::PL_OK, ::PL_ESTATE (no solution), ::PL_EINVAL; ::PL_EOVERFLOW if
 *         the total does not fit in int64 (after an incremental solve the
 *         total is summed here rather than by the solve, so this is where
 *         that overflow is reported).
 */
pl_status pl_flownet_solution_cost(const pl_flownet *net, int64_t *cost);

/** \brief Flow on one arc of the held solution. \return ::PL_OK, ::PL_ESTATE, ::PL_EINVAL. */
pl_status pl_flownet_get_flow(const pl_flownet *net, int32_t arc, int64_t *flow);

/**
 * \brief Potential (dual value) of one node of the held solution.
 *
 * Convention: the reduced cost of arc a = (u, v) is cost(a) + pi(u) - pi(v);
 * at optimality it is >= 0 where flow < upper and <= 0 where flow > lower.
 * \return ::PL_OK, ::PL_ESTATE, ::PL_EINVAL.
 */
pl_status pl_flownet_get_potential(const pl_flownet *net, int32_t node, int64_t *potential);

/** \brief All arc flows (length arc count), owned by the network; NULL without a solution. */
const int64_t *pl_flownet_flows(const pl_flownet *net);

/** \brief All node potentials (length node count), owned by the network; NULL without a solution. */
const int64_t *pl_flownet_potentials(const pl_flownet *net);

/**
 * \brief Install a solution computed elsewhere (to check it with pl_flow_verify()).
 * \param flow [arc count] flows, copied.
 * \param potential [node count] potentials, copied; NULL for all zero.
 * \return ::PL_OK; ::PL_EOVERFLOW if the total cost does not fit; ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_flownet_set_solution(pl_flownet *net, const int64_t *flow, const int64_t *potential);

/* ---- certificates ------------------------------------------------------------ */

/**
 * \brief Check the held solution independently of the solver that produced it.
 *
 * Checks (1) lower <= flow <= upper on every arc, (2) conservation: out - in
 * = supply at every node, (3) optimality by complementary slackness: reduced
 * cost >= 0 on arcs with flow < upper and <= 0 on arcs with flow > lower.
 * \return ::PL_OK; ::PL_EVERIFY with a message naming the first condition
 *         that fails (arc or node, values); ::PL_ESTATE (no solution); ::PL_EOVERFLOW.
 */
pl_status pl_flow_verify(const pl_flownet *net);

/**
 * \brief Solve the network again as a linear program with GLPK and compare
 *        its optimal cost with the held solution's.
 * \param[out] lp_cost GLPK's optimal cost (may be NULL).
 * \return ::PL_OK if equal; ::PL_EVERIFY if they differ or GLPK finds the
 *         problem infeasible/unbounded; ::PL_ESTATE (no solution);
 *         ::PL_EOVERFLOW (a value above 2^53, beyond what GLPK's doubles
 *         hold exactly); ::PL_EINTERNAL (GLPK failed).
 */
pl_status pl_flow_lp_check(const pl_flownet *net, int64_t *lp_cost);

/* ---- DIMACS input/output ---------------------------------------------------- */

/**
 * \brief Read a DIMACS `min` file.
 *
 * Lines: `c` comments; `p min NODES ARCS`; `n ID SUPPLY`; `a TAIL HEAD LOW CAP COST`.
 * A comment `c nd [TYPE] NAME` (the Firmament convention) names the node of
 * the next `n` line. Node ids may be 1-based (standard) or 0-based: a file in
 * which id 0 appears is read as 0-based; the base is remembered for writing.
 * \param path file name, or "-" for standard input.
 * \param[out] out the new network.
 * \return ::PL_OK; ::PL_EPARSE with "FILE:LINE: ..." (missing or repeated
 *         problem line, unknown line type, missing/extra fields, non-numbers,
 *         values beyond int64_t, ids out of range, duplicate `n` lines,
 *         lower > capacity, counts that disagree with the problem line);
 *         ::PL_EIO; ::PL_ENOMEM.
 */
pl_status pl_flownet_read_dimacs(const char *path, pl_flownet **out);

/** \brief As pl_flownet_read_dimacs() from an open stream; \p name is used in messages. */
pl_status pl_flownet_read_dimacs_stream(FILE *f, const char *name, pl_flownet **out);

/** \brief As pl_flownet_read_dimacs() from \p len bytes of text; messages say "<string>". */
pl_status pl_flownet_read_dimacs_string(const char *text, size_t len, pl_flownet **out);

/**
 * \brief Write the network in DIMACS `min` form (node names as `c nd NAME`).
 * \return ::PL_OK, ::PL_EIO, ::PL_EINVAL.
 */
pl_status pl_flownet_write_dimacs(const pl_flownet *net, FILE *f);

/** \brief Write the network to a file (see pl_flownet_write_dimacs()). */
pl_status pl_flownet_save_dimacs(const pl_flownet *net, const char *path);

/**
 * \brief Write the network as DIMACS text into a new buffer.
 * \param[out] text NUL-terminated text; release with pl_free().
 */
pl_status pl_flownet_write_dimacs_string(const pl_flownet *net, char **text);

/**
 * \brief Write the held solution in DIMACS solution form: `s COST`, then one
 *        `f TAIL HEAD FLOW` line per arc with non-zero flow, in arc order.
 * \return ::PL_OK, ::PL_ESTATE (no solution), ::PL_EIO.
 */
pl_status pl_flownet_write_solution(const pl_flownet *net, FILE *f);

/** \brief Node id base used when writing: 1 (default) or 0 (a 0-based DIMACS file was read). */
int pl_flownet_id_base(const pl_flownet *net);

/** \brief Set the id base used when writing (0 or 1). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_flownet_set_id_base(pl_flownet *net, int base);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_FLOWNET_H */
