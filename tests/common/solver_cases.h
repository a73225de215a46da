/* The battery every min-cost-flow solver suite runs (test_ssp.c,
 * test_cycle_canceling.c, test_cost_scaling.c, test_network_simplex.c,
 * test_relaxation.c): hand-computed optima, error paths, direct calls on a
 * normalised problem and, by the solver's flags, the Firmament fixtures,
 * agreement with "ssp" on random networks and warm re-solves. A suite
 * describes its solver in an sc_solver and hands its own tests to
 * sc_run_suite(), which runs them after the shared ones:
 *
 *   static const sc_solver RX = {.name = "relaxation", .ops = &pl_solver_relaxation, ...};
 *   int main(void) { return sc_run_suite(&RX, own, n_own); }
 *
 * Implemented in solver_cases.c (the hand-computed cases, one table row
 * each), solver_checks.c (registry, error paths, direct calls),
 * solver_random.c (fixtures, random networks, warm starts) and
 * solver_suite.c (the list). */
#ifndef PL_TEST_SOLVER_CASES_H
#define PL_TEST_SOLVER_CASES_H

#include "testutil.h"

/* ---- the solver under test -------------------------------------------------- */

#define SC_DMAX 16

/* A pl_flow_problem of at most SC_DMAX nodes and arcs with the CSR residual
 * view pl_flownet_normalise would build, and the solution arrays (a solver
 * state slot included, for solvers that keep one). */
typedef struct sc_direct {
    pl_flow_problem p;
    int32_t first[SC_DMAX + 1], arcs[2 * SC_DMAX];
    uint8_t inf[SC_DMAX];
    int64_t flow[SC_DMAX], pot[SC_DMAX];
    void *slot;
    pl_flow_solution out;
} sc_direct;

/* sc_solver.flags */
enum {
    /* Registered with PL_SOLVER_WARM_START: the warm-start cases run, and a
     * re-solve after a change must be reported warm. */
    SC_WARM = 1 << 0,
    /* Has free_state and keeps a state between solves. */
    SC_KEEPS_STATE = 1 << 1,
    /* Run the fixtures and the random networks against "ssp" (every solver
     * but ssp itself). */
    SC_VS_SSP = 1 << 2,
    /* A direct warm start from any flow within bounds and any potentials is
     * safe (the solver checks their range). */
    SC_UNTRUSTED_WARM = 1 << 3,
    /* Its prices are the costs scaled by n + 1, so the case huge_cost_chain
     * overflows: PL_EOVERFLOW instead of the optimum. */
    SC_SCALED_PRICES = 1 << 4,
    /* Exceptions to the battery's defaults: a direct call returns
     * potentials not shifted to minimum 0 (the driver shifts them); a solve
     * stopped by max_iterations may have counted fewer iterations than the
     * limit (stats.iterations <= max_iterations on PL_ELIMIT). */
    SC_UNSHIFTED = 1 << 5,
    SC_LIMIT_APPROX = 1 << 6,
    /* Its iteration count depends on which of two racing solvers won (the
     * race): sc_test_max_iterations, which needs a reproducible count, is
     * skipped; the suite tests the limit itself. */
    SC_RACING = 1 << 7,
};

typedef struct sc_solver {
    const char *name;             /* registered name */
    const pl_solver_ops *ops;     /* what pl_solver_find(name) returns */
    /* An instrumented copy of the solver (network simplex's NS_DEBUG build)
     * or NULL: every shared case re-solves with it (cold) and expects the
     * same answer, some random runs use it, and direct calls go to it. */
    const pl_solver_ops *checked;
    unsigned flags;               /* SC_* */
    /* Cold iterations on sc_classic6(): exactly this many, or > 2 when 0. */
    int64_t classic6_iterations;
    /* Found in every infeasibility report of the solver itself. */
    const char *infeasible_says;
    /* Found in its PL_ELIMIT report; NULL: "limit". */
    const char *limit_says;
    /* Of the 660 warm re-solves of sc_test_warm_random_changes, at least
     * this many take fewer iterations than their cold twin. */
    int warm_fewer_min;
    /* Extra checks (NULL for none): on the direct solve of the -7 network
     * (sc_nc_*) after its certificate, and on each fixture's solve. */
    void (*direct_checks)(sc_direct *d);
    void (*fixture_checks)(const pl_test_fixture *fx, const pl_solve_stats *stats);
} sc_solver;

/* Options that solve with s: verify on, no limit, warm start allowed. */
pl_solve_opts sc_opts(const sc_solver *s);

/* Solve net with o; on PL_OK *cost (if not NULL) receives the cost. */
pl_status sc_solve(pl_flownet *net, const pl_solve_opts *o, pl_solve_stats *stats, int64_t *cost);

/* Solve net with s (verified) and expect the optimum want; then the same,
 * cold, with s's checked copy if it has one. */
void sc_expect_cost(const sc_solver *s, pl_flownet *net, int64_t want);

/* Run the shared battery for s (the tests its flags select), then the
 * suite's own tests; returns the number of failures. */
int sc_run_suite(const sc_solver *s, const struct CMUnitTest *own, size_t n_own);

/* ---- network helpers --------------------------------------------------------- */

pl_flownet *sc_new_net(int32_t nodes);
int32_t sc_arc(pl_flownet *net, int32_t t, int32_t h, int64_t lo, int64_t hi, int64_t cost);
void sc_supply(pl_flownet *net, int32_t node, int64_t b);
int64_t sc_flow_of(const pl_flownet *net, int32_t a);
void sc_assert_flows(const pl_flownet *net, const int64_t *want, int32_t m);

/* The hand-computed cases (solver_cases.c): each a network, its optimum
 * and, where unique, its optimal flows; the battery runs every one. */
typedef struct sc_case sc_case;
extern const sc_case *const sc_cases[];
extern const size_t sc_case_count;
const char *sc_case_name(const sc_case *c);
pl_flownet *sc_build_case(const sc_case *c);
/* Solve c with s and check everything c knows of its optimum. */
void sc_run_case(const sc_solver *s, const sc_case *c);

/* The networks of the cases classic_six_nodes (optimum 34), loop_arcs
 * (optimum -1) and circulation_and_path (optimum 6, one negative cycle). */
pl_flownet *sc_classic6(void);
pl_flownet *sc_loop_net(void);
pl_flownet *sc_circulation_net(void);
/* The networks of sc_test_infeasible that reach the solver; k below
 * SC_INFEASIBLE_NETS. Net 0 strands 2 of 5 units, net 4 3 of 10. */
#define SC_INFEASIBLE_NETS 5
pl_flownet *sc_infeasible_net(int k);

/* A random network that stays feasible and bounded under any change of
 * costs, bounds and supplies; and one random change applied identically to
 * two such networks (see solver_random.c). */
pl_flownet *sc_warm_net(pl_test_rng *r, int32_t n, int32_t m, int64_t max_cost);
void sc_random_change(pl_test_rng *r, pl_flownet *a, pl_flownet *b, int64_t max_cost, int structural);
/* A small change that may make the network infeasible: a random arc gets a
 * random cost in -20..20, and one unit of supply moves from node 0 to a
 * random node. */
void sc_small_change(pl_test_rng *r, pl_flownet *net);
/* count random arcs of net get their cost moved by -20..20. */
void sc_nudge_costs(pl_test_rng *r, pl_flownet *net, int32_t count);
/* Task churn on a scheduling network whose node 0 is the sink: k live
 * tasks (supply 1) leave, k tasks like live ones (costs moved by 0..3)
 * arrive. */
void sc_churn(pl_test_rng *r, pl_flownet *net, int k);

/* ---- comparisons ------------------------------------------------------------- */

/* Random networks (ro) of seed against "ssp": same status, same cost, cold
 * solves with o; the mix must hold optimal networks and failures. */
void sc_agree_with_ssp(const pl_solve_opts *o, const pl_randnet_opts *ro, uint64_t seed, int count);
/* The randnet options of the "larger" random tests: up to 60 nodes, 400
 * arcs, no lower bounds, wide costs and capacities. */
void sc_larger_randnet(pl_randnet_opts *ro);

/* Rounds of per_round random changes to a sc_warm_net(seed, n, m,
 * max_cost) and its twin; after each, the warm re-solve of one must match
 * a cold solve of the other. Returns how many warm solves took fewer
 * iterations than their cold twin. */
int sc_warm_rounds(const sc_solver *s, const pl_solve_opts *o, uint64_t seed, int32_t n, int32_t m,
                   int64_t max_cost, int rounds, int per_round, int structural);

/* ---- a solver called directly on a normalised problem ------------------------- */

/* Fill d for the given arrays (kept by pointer: they must outlive d);
 * structure_version is 7, out.iterations -1, out.state = &d->slot. */
void sc_direct_build(sc_direct *d, int32_t n, int32_t m, const int32_t *tail, const int32_t *head,
                     const int64_t *cap, const int64_t *cost, const int64_t *sup);

/* Fails the test unless the flow is within 0..cap, meets the supplies and
 * every residual arc with capacity left has reduced cost >= 0 under the
 * returned potentials; returns the flow's cost. */
int64_t sc_direct_check(const sc_direct *d);

/* The network of the case negative_costs as arrays (4 nodes, 6 arcs, optimum -7). */
extern const int32_t sc_nc_tail[6], sc_nc_head[6];
extern const int64_t sc_nc_cap[6], sc_nc_cost[6], sc_nc_sup[4];
/* The network of sc_test_direct_infeasible: 11 units stranded. */
extern const int32_t sc_strand_tail[2], sc_strand_head[2];
extern const int64_t sc_strand_cap[2], sc_strand_cost[2], sc_strand_sup[4];

/* ---- the shared tests (state: the sc_solver) --------------------------------- */

/* Registry, error paths, direct calls (solver_checks.c). */
void sc_test_registered(void **state);
void sc_test_infeasible(void **state);
void sc_test_unbounded(void **state);
void sc_test_max_iterations(void **state);
void sc_test_direct_certificate(void **state);
void sc_test_direct_infeasible(void **state);
void sc_test_direct_nothing_to_do(void **state);
void sc_test_direct_warm_from_optimum(void **state);
void sc_test_direct_warm_from_garbage(void **state);

/* Fixtures, random networks, warm re-solves (solver_random.c). */
void sc_test_fixtures(void **state);
void sc_test_random_small(void **state);
void sc_test_random_wide(void **state);
void sc_test_warm_random_changes(void **state);
void sc_test_warm_structural_changes(void **state);
void sc_test_warm_mixed_statuses(void **state);

#endif
