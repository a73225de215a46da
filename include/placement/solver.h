/**
 * \file placement/solver.h
 * \brief Pluggable minimum-cost-flow solvers: the interface, the options of a
 *        solve, its statistics, and the registry of solvers by name.
 *
 * A solver is a ::pl_solver_ops vtable. The library registers its built-in
 * solvers ("cycle-canceling", "ssp", "glpk", ...); a user registers more with
 * pl_solver_register() or passes one directly in ::pl_solve_opts::ops.
 *
 * A solver never sees the user's network as built: pl_flownet_solve() first
 * normalises it into a ::pl_flow_problem (lower bounds removed, infinite
 * capacities replaced by a finite bound, costs and capacities checked for
 * overflow, unboundedness ruled out). A solver only has to find an optimal
 * flow of that problem and node potentials proving it, or report
 * ::PL_EINFEASIBLE.
 */
#ifndef PLACEMENT_SOLVER_H
#define PLACEMENT_SOLVER_H

#include <stdint.h>
#include <placement/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_solver Min-cost-flow solvers
 *  @{ */

/** Name of the solver pl_flownet_solve() uses when ::pl_solve_opts::solver is NULL. */
#define PL_DEFAULT_SOLVER "network-simplex"

/**
 * \brief Read-only view of a normalised min-cost-flow problem, handed to a
 *        solver by pl_flownet_solve().
 *
 * Problem: find integer flow f[a], 0 <= f[a] <= cap[a], such that for every
 * node v, (flow out of v) - (flow into v) = supply[v], minimising
 * sum cost[a] * f[a]. Supplies sum to zero.
 *
 * Guarantees given to the solver (checked by the library beforehand):
 *  - cap[a] >= 0 and the sum of all capacities (infinite ones counted as
 *    cap_inf) and positive supplies is at most 2^62, so no flow, excess or
 *    sum of them overflows int64_t;
 *  - n * max|cost| <= 2^60, so path lengths, potentials and a few sums of
 *    them fit in int64_t;
 *  - there is no negative-cost cycle made only of arcs whose capacity was
 *    infinite (so an optimum exists whenever a feasible flow does).
 *
 * Residual arcs: the residual arc numbered r belongs to arc r >> 1; it is the
 * forward arc (tail -> head, residual capacity cap - f, cost +cost) when r is
 * even and the backward arc (head -> tail, residual capacity f, cost -cost)
 * when r is odd; r ^ 1 is its partner. out_arcs[out_first[v] .. out_first[v+1]-1]
 * lists every residual arc leaving v (forward arcs of arcs with tail v,
 * backward arcs of arcs with head v), so the view is a ready CSR residual graph.
 */
typedef struct pl_flow_problem {
    int32_t n;                /**< Number of nodes, ids 0 .. n-1. */
    int32_t m;                /**< Number of arcs, ids 0 .. m-1. */
    const int32_t *tail;      /**< [m] tail node of each arc. */
    const int32_t *head;      /**< [m] head node of each arc. */
    const int64_t *cap;       /**< [m] capacity (upper - lower bound), >= 0. */
    const int64_t *cost;      /**< [m] cost per unit of flow. */
    const int64_t *supply;    /**< [n] supply (> 0) or demand (< 0), lower bounds folded in. */
    const int32_t *out_first; /**< [n+1] CSR offsets into out_arcs. */
    const int32_t *out_arcs;  /**< [2m] residual arc ids, grouped by the node they leave. */
    const uint8_t *is_inf;    /**< [m] 1 where the user's capacity was ::PL_CAP_INF (cap holds cap_inf). */
    int64_t cap_inf;          /**< Capacity given to arcs of infinite capacity: more than any optimal flow needs. */
    /**
     * Non-zero when the solution arrays handed to the solver are pre-filled
     * with the previous solve's answer (a warm start, see ::PL_SOLVER_WARM_START):
     * flow within 0..cap (clipped to the current bounds, 0 on new or removed
     * arcs) but not necessarily meeting the current supplies, and potentials
     * that need not certify it any more (costs may have changed; a node
     * added since gets max(pi(h) - cost) over its residual arcs to older
     * nodes, clamped to the older potentials' range, or 0 if it has none).
     * Zero: both arrays are zero-filled.
     */
    int warm;
    /**
     * Counter that changes whenever nodes or arcs are added, removed or have
     * their endpoints changed; equal values mean the same graph (same tail,
     * head and ids), only bounds, costs or supplies may differ. Lets a
     * solver decide whether its saved state (::pl_flow_solution::state) still fits.
     */
    uint64_t structure_version;
    /**
     * End of each node's residual list, or NULL. When set, v's residual arcs
     * are out_arcs[out_first[v] .. out_end[v]-1] and the lists may lie in any
     * order with gaps between them (out_first[v + 1] then means nothing).
     * Only solvers flagged ::PL_SOLVER_INCREMENTAL receive such lists; the
     * others always get the contiguous CSR described above (out_end NULL).
     * Read it through pl_out_end().
     */
    const int32_t *out_end;
    /**
     * Incremental warm start, or NULL (only ever set for solvers flagged
     * ::PL_SOLVER_INCREMENTAL, together with \c warm). See ::pl_flow_delta.
     */
    const struct pl_flow_delta *delta;
} pl_flow_problem;

/**
 * \brief What changed since the solution pre-filled in a warm start, so that
 *        an incremental solver can skip the passes over every arc.
 *
 * Every arc not listed in \c changed_arcs has the same tail, head, capacity
 * and cost as when that solution was found, and the pre-filled flow on it is
 * that solution's flow; the pre-filled potentials of nodes that existed then
 * are that solution's, so such an arc still meets complementary slackness
 * (if the flow was 0 < f < cap its reduced cost is 0, and so on). Listed
 * arcs (added, removed, re-costed, re-bounded) have a flow within 0..cap
 * but no slackness guarantee. \c excess[v] is the excess of the pre-filled
 * flow, supply - outflow + inflow, for every node; a removed arc has
 * capacity 0 and is absent from the residual lists.
 */
typedef struct pl_flow_delta {
    const int64_t *excess;       /**< [n] excess of the pre-filled flow. */
    const int32_t *changed_arcs; /**< Arcs changed since the pre-filled solution (each once). */
    int32_t n_changed_arcs;      /**< Length of changed_arcs. */
    int64_t cost_bound;          /**< At least max |cost| over all arcs. */
} pl_flow_delta;

/** One past the last position of node \p v's residual arcs in p->out_arcs. */
static inline int32_t pl_out_end(const pl_flow_problem *p, int32_t v)
{
    return p->out_end ? p->out_end[v] : p->out_first[v + 1];
}

/** Tail node of residual arc \p r of problem \p p. */
static inline int32_t pl_residual_tail(const pl_flow_problem *p, int32_t r)
{
    return (r & 1) ? p->head[r >> 1] : p->tail[r >> 1];
}

/** Head node of residual arc \p r of problem \p p. */
static inline int32_t pl_residual_head(const pl_flow_problem *p, int32_t r)
{
    return (r & 1) ? p->tail[r >> 1] : p->head[r >> 1];
}

/** Cost of residual arc \p r (negated for a backward arc). */
static inline int64_t pl_residual_cost(const pl_flow_problem *p, int32_t r)
{
    return (r & 1) ? -p->cost[r >> 1] : p->cost[r >> 1];
}

/** Residual capacity of residual arc \p r given flows \p flow. */
static inline int64_t pl_residual_cap(const pl_flow_problem *p, const int64_t *flow, int32_t r)
{
    return (r & 1) ? flow[r >> 1] : p->cap[r >> 1] - flow[r >> 1];
}

/**
 * \brief Where a solver writes its answer. The library allocates both arrays,
 *        zero-filled, before calling the solver.
 *
 * On ::PL_OK the solver must leave an optimal flow in \p flow and potentials
 * in \p potential such that every residual arc with positive residual
 * capacity has non-negative reduced cost cost(r) + potential[tail(r)] -
 * potential[head(r)] (this is the certificate pl_flow_verify() checks).
 */
typedef struct pl_flow_solution {
    int64_t *flow;       /**< [m] flow of each arc of the normalised problem. */
    int64_t *potential;  /**< [n] node potentials (dual values). */
    int64_t iterations;  /**< Solver-defined count (augmentations, cycles cancelled, pivots). */
    /**
     * Per-network slot for the solver's own state between solves (e.g. a
     * spanning-tree basis), or NULL when the caller allows none. The solver
     * may store a pointer here; the network releases it with the solver's
     * free_state when it is freed, when another solver runs on it, or on a
     * cold start (the built-in network-simplex alone keeps its arrays over a
     * cold start, without using its basis). Only solvers with a free_state
     * function may use it.
     */
    void **state;
    int64_t memory_bytes; /**< Solver's peak working set in bytes (0 if not reported). */
} pl_flow_solution;

/**
 * \brief Options of one solve. Initialise with pl_solve_opts_init() and set
 *        only what you need: new fields may be added at the end without
 *        breaking callers that use the initialiser.
 */
typedef struct pl_solve_opts {
    const char *solver;          /**< Registered solver name; NULL = ::PL_DEFAULT_SOLVER. */
    const struct pl_solver_ops *ops; /**< If non-NULL, this solver is used and \c solver is ignored. */
    int verify;                  /**< Non-zero: run pl_flow_verify() after solving; failure gives ::PL_EVERIFY. */
    int64_t max_iterations;      /**< Solver iteration limit, 0 = none; reaching it gives ::PL_ELIMIT. */
    int cold_start;              /**< Non-zero: ignore the previous solution and solver state (no warm start). */
    int scaling_factor;          /**< cost-scaling: epsilon is divided by this each phase; 0 = default (16). */
    int pivot_block;             /**< network-simplex: arcs scanned per pivot search block; 0 = default (~sqrt(m)). */
    void *reserved[6];           /**< Zero (pl_flownet_solve() refuses anything else: ::PL_EINVAL); room for future options. */
} pl_solve_opts;

/** \brief Fill \p opts with the defaults (all zero/NULL: default solver, no verification, no limit). */
void pl_solve_opts_init(pl_solve_opts *opts);

/** \brief Statistics of the last solve, filled by pl_flownet_solve(). */
typedef struct pl_solve_stats {
    const char *solver;      /**< Name of the solver that ran (static storage of its ops). */
    int32_t nodes;           /**< Nodes of the network. */
    int32_t arcs;            /**< Arcs of the network. */
    int64_t iterations;      /**< Solver-defined iteration count. */
    double setup_seconds;    /**< Wall time spent normalising and checking the network. */
    double solve_seconds;    /**< Wall time spent inside the solver. */
    int warm;                /**< Non-zero if the solve started from the previous solution. */
    int64_t memory_bytes;    /**< Solver's working set in bytes, as it reports it (0 = not reported). */
    /**
     * Non-zero if the solve took the incremental path: the network kept its
     * normalised form and residual lists up to date change by change, and
     * the solver (flagged ::PL_SOLVER_INCREMENTAL) only looked at what
     * changed (see doc/flow.md, "Incremental re-solve").
     */
    int incremental;
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_solve_stats;

/**
 * \brief A solver: a name, a description, and a solve function.
 *
 * \c solve receives the normalised problem, the caller's options and a
 * zero-filled solution; it returns ::PL_OK (optimal flow and potentials
 * written), ::PL_EINFEASIBLE (supplies cannot be routed), ::PL_ELIMIT
 * (opts->max_iterations reached), ::PL_ENOMEM, or another code with a message
 * set through the public error API of the solver's choosing. It must not keep
 * pointers into \p p or \p out after returning, must not print, and must be
 * reentrant (no global mutable state) so that different networks can be
 * solved in different threads.
 */
typedef struct pl_solver_ops {
    const char *name;         /**< Unique registry name, e.g. "ssp". */
    const char *description;  /**< One line for `placement solvers`. */
    /** Solve \p p into \p out (see above for the contract and return codes). */
    pl_status (*solve)(const pl_flow_problem *p, const pl_solve_opts *opts,
                       pl_flow_solution *out);
    unsigned flags;           /**< ::PL_SOLVER_WARM_START and friends; 0 for none. */
    /** Releases what the solver stored in pl_flow_solution::state; NULL if it stores nothing. */
    void (*free_state)(void *state);
    /** ::PL_SOLVER_OPS_VERSION, or 0 for a table of the members above: the
     *  library reads a member added later only from a table whose version
     *  has it, so a solver built against this header keeps working. */
    int32_t version;
} pl_solver_ops;

/** Version of ::pl_solver_ops this header describes. */
#define PL_SOLVER_OPS_VERSION 1

/**
 * Solver flag: the solver can start from a previous solution. Only then does
 * pl_flownet_solve() pre-fill the solution arrays with it (::pl_flow_problem::warm).
 */
#define PL_SOLVER_WARM_START 1u

/**
 * Solver flag (with ::PL_SOLVER_WARM_START): the solver accepts gapped
 * residual lists (::pl_flow_problem::out_end) and an incremental warm start
 * (::pl_flow_problem::delta). The network then keeps its problem up to date
 * change by change between solves, and on that path the solver's flows are
 * not re-checked against the bounds afterwards (pl_solve_opts::verify still
 * checks everything).
 */
#define PL_SOLVER_INCREMENTAL 2u

/**
 * \brief Set the calling thread's error message (printf-style) and return
 *        \p status, so a user solver can write `return pl_solver_error(PL_EINVAL, "...")`.
 */
pl_status pl_solver_error(pl_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/**
 * \brief Register a solver under ops->name.
 * \param ops not copied: it must stay valid until pl_solver_unregister() or
 *            the end of the program.
 * \return ::PL_OK; ::PL_EINVAL if \p ops, its name or its solve function is
 *         NULL, or the name is already registered; ::PL_ENOMEM.
 * \note Thread-safe (the registry is guarded by a mutex).
 */
pl_status pl_solver_register(const pl_solver_ops *ops);

/**
 * \brief Remove a solver registered with pl_solver_register().
 * \return ::PL_OK; ::PL_ENOTFOUND if no user solver has that name;
 *         ::PL_EINVAL for a built-in solver, which cannot be removed.
 * \note Thread-safe; the caller must ensure no solve is still using it.
 */
pl_status pl_solver_unregister(const char *name);

/**
 * \brief Look up a solver by name (built-in first, then user-registered).
 * \param[out] ops the solver; not to be freed.
 * \return ::PL_OK or ::PL_ENOTFOUND (message lists the known names).
 */
pl_status pl_solver_find(const char *name, const pl_solver_ops **ops);

/** \brief Number of solvers currently known (built-in + registered). */
int pl_solver_count(void);

/**
 * \brief The \p i-th known solver (0 <= i < pl_solver_count()), built-in ones
 *        first in a fixed order; NULL if \p i is out of range.
 */
const pl_solver_ops *pl_solver_at(int i);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_SOLVER_H */
