/* Internal layout of pl_flownet and helpers shared by the flow modules and
 * the solvers (not installed). */
#ifndef PL_FLOWNET_IMPL_H
#define PL_FLOWNET_IMPL_H

#include <stdatomic.h>
#include <placement/flownet.h>
#include "internal/core.h"

/* The two limits the normalised problem guarantees to every solver. */
#define PL_FLOW_LIMIT ((int64_t)1 << 62)

/* node_dead values. A revived node is live again but has no meaningful
 * warm-start potential until the next solution. */
#define PL_NODE_LIVE 0
#define PL_NODE_DEAD 1
#define PL_NODE_REVIVED 2

struct pl_flownet {
    /* As built by the user. */
    int32_t n, m;
    int64_t node_cap, arc_cap;   /* allocated lengths */
    int64_t *supply;             /* [n] */
    char **name;                 /* [n] or NULL until a node is named */
    int32_t *tail, *head;        /* [m] */
    int64_t *lower, *upper, *cost;
    int id_base;                 /* base used when writing DIMACS */

    /* Removed ids: flagged, and stacked for reuse by the next addition. */
    uint8_t *node_dead, *arc_dead;   /* [node_cap] PL_NODE_*, [arc_cap] 0/1 */
    int32_t *free_nodes, *free_arcs;
    int64_t n_free_nodes, n_free_arcs, free_nodes_cap, free_arcs_cap;
    uint64_t structure_version;      /* bumped by every structural change */

    /* Normalised problem, rebuilt by pl_flownet_solve() when stale. */
    int csr_valid;               /* out_first/out_arcs match the arcs */
    int32_t *out_first, *out_arcs;
    int64_t *ncap, *nsupply;
    uint8_t *is_inf;

    /* Held solution. After a change it is no longer "held" (has_solution
     * = 0) but stays in flow/pot as the next solve's warm start. */
    int has_solution;
    int64_t *flow, *pot;         /* [m], [n] */
    int64_t total_cost;
    int warm_valid;              /* flow/pot hold the last solution's values */
    int32_t warm_n, warm_m;      /* sizes at that solution: later ids start from 0 */

    /* The last solver's own state (e.g. a simplex basis) and its owner. */
    void *solver_state;
    const pl_solver_ops *state_ops;

    /* Residual lists: out_arcs[out_first[v] .. out_end[v]-1]. Compact (the
     * CSR of solver.h, out_end[v] = out_first[v + 1]) unless the network is
     * armed for incremental re-solves, when each list has room to grow and
     * removed arcs leave it (incremental.c). */
    int32_t *out_end;            /* [n] */
    int cost_stale;              /* total_cost not yet computed for the held solution */

    /* Incremental re-solve (incremental.c). While inc.armed, every change
     * keeps ncap, is_inf, the gapped residual lists, flow (the last solution,
     * clipped to the bounds) and imb (its excess against the supplies) up
     * to date, and lists the arcs changed since the last solve. */
    struct {
        int armed;
        int32_t *lim;            /* [n] end of the room of v's list */
        int32_t *pos;            /* [2 * arc room] position of residual arc r, -1 if none */
        int64_t pool_len, pool_cap, garbage, arc_room, node_room;
        int64_t *imb;            /* [n] */
        int32_t *changed;        /* arcs changed since the last solve */
        int64_t n_changed, changed_cap;
        uint8_t *is_changed;     /* [arc room] */
        int64_t finite_total, pos_supply, supply_sum, max_cost, cap_inf;
        int64_t n_inf, n_neg_inf;
    } inc;
};

/* ---- incremental re-solve (incremental.c) ----------------------------- */

/* Arm net after a successful solve by an incremental solver: gapped lists,
 * zero imbalance, no changes listed. Leaves it disarmed (and returns) if
 * the network does not qualify (lower bounds, negative-cost infinite arcs)
 * or memory runs out: the next solve then takes the full path. */
PL_INTERNAL void pl_inc_arm(pl_flownet *net, int64_t cap_inf);
/* Drop incremental tracking; the next solve rebuilds everything. */
PL_INTERNAL void pl_inc_disarm(pl_flownet *net);
/* Hooks: called by the mutators after checking their arguments and before
 * (kill, bounds, supply) or after (added) changing the arrays. No-ops while
 * disarmed; they disarm rather than fail. */
PL_INTERNAL void pl_inc_node_added(pl_flownet *net, int32_t v);
PL_INTERNAL void pl_inc_supply(pl_flownet *net, int32_t v, int64_t supply);
PL_INTERNAL void pl_inc_arc_added(pl_flownet *net, int32_t a);
PL_INTERNAL void pl_inc_arc_killed(pl_flownet *net, int32_t a);
PL_INTERNAL void pl_inc_arc_cost(pl_flownet *net, int32_t a, int64_t cost);
PL_INTERNAL void pl_inc_arc_bounds(pl_flownet *net, int32_t a, int64_t lower, int64_t upper);
/* The problem of an armed network, ready for an incremental warm solve, or
 * 0 if this solve must take the full path (limits to re-check, an error to
 * report, too many changes). */
PL_INTERNAL int pl_inc_problem(pl_flownet *net, pl_flow_problem *p, pl_flow_delta *d);
/* After a successful incremental solve: the solution is feasible, so every
 * imbalance is 0 and nothing is changed any more. */
PL_INTERNAL void pl_inc_solved(pl_flownet *net);

/* Release the solver state held by net, if any. */
PL_INTERNAL void pl_flownet_drop_state(pl_flownet *net);

/* Build the CSR residual view (out_first/out_arcs) if it is stale. */
PL_INTERNAL pl_status pl_flownet_build_csr(pl_flownet *net);

/* Drop the held solution (every mutation calls this). */
PL_INTERNAL void pl_flownet_invalidate(pl_flownet *net);

/* Size net->flow/net->pot for the current network (contents undefined). */
PL_INTERNAL pl_status pl_flownet_alloc_solution(pl_flownet *net);

/* Mark net->flow/net->pot as the held solution after computing its exact
 * total cost (PL_EOVERFLOW leaves no solution). */
PL_INTERNAL pl_status pl_flownet_commit_solution(pl_flownet *net);

/* Mark net->flow/net->pot as the held solution, its total cost computed
 * when first asked for (the incremental path: a pass over every arc saved). */
PL_INTERNAL void pl_flownet_commit_lazy(pl_flownet *net);

/* Total cost of the held solution (computed now if it was committed lazily);
 * PL_EOVERFLOW if it does not fit in int64. */
PL_INTERNAL pl_status pl_flownet_held_cost(const pl_flownet *net, int64_t *cost);

/* Build (or refresh) the normalised problem view of net in *p.
 * Checks the 2^62 limits and supply balance; returns PL_OK, PL_EINFEASIBLE,
 * PL_EOVERFLOW or PL_ENOMEM. Arrays stay owned by net. */
PL_INTERNAL pl_status pl_flownet_normalise(pl_flownet *net, pl_flow_problem *p);

/* Shortest-path potentials of the residual graph of flow: pot[v] = distance
 * from a virtual source joined to every node at cost 0, so every residual arc
 * with capacity > 0 gets a non-negative reduced cost. Returns PL_OK, or
 * PL_EVERIFY if the residual graph holds a negative cycle (flow not optimal),
 * or PL_ENOMEM. */
PL_INTERNAL pl_status pl_residual_potentials(const pl_flow_problem *p, const int64_t *flow,
                                            int64_t *pot);

/* Find a flow meeting every supply (ignoring costs) by max flow from a
 * virtual source to a virtual sink. flow[m] receives it. *feasible is set to
 * 1 when all supplies are routed, 0 otherwise. Returns PL_OK or PL_ENOMEM. */
PL_INTERNAL pl_status pl_feasible_flow(const pl_flow_problem *p, int64_t *flow, int *feasible);

/* For the potentials pi, restore complementary slackness on flow (fill
 * every arc of negative reduced cost, empty every arc of positive reduced
 * cost, keep the balanced ones) and set excess[v] = supply - outflow +
 * inflow: the warm start of the solvers that keep every residual arc's
 * reduced cost >= 0 (slackness.c). */
PL_INTERNAL void pl_restore_slackness(const pl_flow_problem *p, const int64_t *pi, int64_t *flow,
                                      int64_t *excess);

/* Potentials are defined up to a constant: shift pi[0..n-1] to minimum 0. */
PL_INTERNAL void pl_shift_potentials(int32_t n, int64_t *pi);

/* Built-in solver flag (internal; not in solver.h): on a cold start the
 * network keeps the solver's state instead of releasing it, and the solver
 * promises to use only its memory then (and structure that depends on
 * nothing but structure_version), never its basis, since p->warm is 0.
 * Repeated cold solves of one network then allocate and fault in nothing
 * (doc/bench.md, issue 26). User solvers keep the documented behaviour. */
#define PL_SOLVER_COLD_KEEPS_STATE (1u << 31)

/* Built-in solvers, one per file under solvers/. */
PL_INTERNAL extern const pl_solver_ops pl_solver_cycle_canceling;
PL_INTERNAL extern const pl_solver_ops pl_solver_ssp;
PL_INTERNAL extern const pl_solver_ops pl_solver_glpk;
PL_INTERNAL extern const pl_solver_ops pl_solver_cost_scaling;
PL_INTERNAL extern const pl_solver_ops pl_solver_network_simplex;
PL_INTERNAL extern const pl_solver_ops pl_solver_relaxation;
PL_INTERNAL extern const pl_solver_ops pl_solver_race;

/* The contiguous CSR residual lists of pl_flow_problem (every arc id,
 * removed ones included, under both endpoints, in increasing id) into
 * first[n + 1] and arcs[2m]. */
PL_INTERNAL void pl_csr_fill(int32_t n, int32_t m, const int32_t *tail, const int32_t *head, int32_t *first,
                             int32_t *arcs);

/* Cancellation of a solve from another thread (internal; the race of
 * solvers/race.c): opts->reserved[0] may point at an atomic_int that
 * another thread raises to ask the solver to stop. Solvers that read it
 * (relaxation per iteration, cost scaling per discharge) check it in their main loops
 * and return PL_ELIMIT; one that never reads it simply runs to the end. */
static inline int pl_solve_cancelled(const pl_solve_opts *opts)
{
    const atomic_int *flag = opts ? (const atomic_int *)opts->reserved[0] : NULL;
    return flag && atomic_load_explicit(flag, memory_order_relaxed);
}

/* Run ops[0] (in the calling thread) and ops[1] (in a second one) on p, each
 * on its own copy of out's starting point; the first to return PL_OK wins,
 * its flow, potentials and iterations land in out, and the other is
 * cancelled. *winner (if not NULL) receives 0, 1, or -1 when both failed
 * (then the error of the first to finish is returned). Entrants get no
 * state slot. Reentrant; both threads are joined before it returns. */
PL_INTERNAL pl_status pl_race_run(const pl_solver_ops *const ops[2], const pl_flow_problem *p,
                                  const pl_solve_opts *opts, pl_flow_solution *out, int *winner);

#endif
