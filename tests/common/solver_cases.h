/* Hand-computed min-cost-flow cases shared by the solver suites
 * (test_ssp.c, test_cost_scaling.c, test_network_simplex.c), and the
 * network helpers they use. Each case is a cmocka test whose prestate is
 * the registered solver name: list them in a suite's main() with
 * SC_CASES("ssp"), plus SC_CASES_EXTRA(name) where that suite had those. */
#ifndef PL_TEST_SOLVER_CASES_H
#define PL_TEST_SOLVER_CASES_H

#include "testutil.h"

/* ---- helpers ------------------------------------------------------------- */

pl_flownet *sc_new_net(int32_t nodes);
int32_t sc_arc(pl_flownet *net, int32_t t, int32_t h, int64_t lo, int64_t hi, int64_t cost);
void sc_supply(pl_flownet *net, int32_t node, int64_t b);
int64_t sc_flow_of(const pl_flownet *net, int32_t a);
void sc_assert_flows(const pl_flownet *net, const int64_t *want, int32_t m);

/* An extra check run by every shared case right after its own solve (e.g.
 * network simplex re-solves with its invariant-checking copy); NULL for
 * none. The check receives the network and the expected optimum. */
typedef void (*sc_extra_check_fn)(pl_flownet *net, int64_t want);
void sc_set_extra_check(sc_extra_check_fn fn);

/* The classic 6-node network (optimum 34, see solver_cases.c). */
pl_flownet *sc_classic6(void);
/* The loop-arc network of sc_test_loop_arcs (optimum -1). */
pl_flownet *sc_loop_net(void);

/* A random network that stays feasible and bounded under any change of
 * costs, bounds and supplies; and one random change applied identically to
 * two such networks (see solver_cases.c). */
pl_flownet *sc_warm_net(pl_test_rng *r, int32_t n, int32_t m, int64_t max_cost);
void sc_random_change(pl_test_rng *r, pl_flownet *a, pl_flownet *b, int64_t max_cost, int structural);
/* A small change that may make the network infeasible: a random arc gets a
 * random cost in -20..20, and one unit of supply moves from node 0 to a
 * random node. */
void sc_small_change(pl_test_rng *r, pl_flownet *net);

/* ---- shared cases (state: the solver name) -------------------------------- */

void sc_test_classic_six_nodes(void **state);
void sc_test_negative_costs(void **state);
void sc_test_negative_cycle_finite(void **state);
void sc_test_lower_bounds(void **state);
void sc_test_parallel_arcs(void **state);
void sc_test_loop_arcs(void **state);
void sc_test_zero_capacity_arcs(void **state);
void sc_test_several_sources_and_sinks(void **state);
void sc_test_negative_infinite_arc(void **state);
void sc_test_zero_costs(void **state);
void sc_test_huge_costs(void **state);
void sc_test_unbounded(void **state);

#define SC_CASE(fn, solver) cmocka_unit_test_prestate(fn, (void *)(solver))

/* ---- a solver called directly on a normalised problem ---------------------- */

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

/* Fill d for the given arrays (kept by pointer: they must outlive d);
 * structure_version is 7, out.iterations -1, out.state = &d->slot. */
void sc_direct_build(sc_direct *d, int32_t n, int32_t m, const int32_t *tail, const int32_t *head,
                     const int64_t *cap, const int64_t *cost, const int64_t *sup);

/* Fails the test unless the flow is within 0..cap, meets the supplies and
 * every residual arc with capacity left has reduced cost >= 0 under the
 * returned potentials; returns the flow's cost. */
int64_t sc_direct_check(const sc_direct *d);

/* The network of sc_test_negative_costs as arrays (4 nodes, 6 arcs, optimum -7). */
extern const int32_t sc_nc_tail[6], sc_nc_head[6];
extern const int64_t sc_nc_cap[6], sc_nc_cost[6], sc_nc_sup[4];

/* The cases every solver suite runs. */
#define SC_CASES(solver)                                   \
    SC_CASE(sc_test_classic_six_nodes, solver),            \
    SC_CASE(sc_test_negative_costs, solver),               \
    SC_CASE(sc_test_negative_cycle_finite, solver),        \
    SC_CASE(sc_test_lower_bounds, solver),                 \
    SC_CASE(sc_test_parallel_arcs, solver),                \
    SC_CASE(sc_test_loop_arcs, solver),                    \
    SC_CASE(sc_test_zero_capacity_arcs, solver),           \
    SC_CASE(sc_test_several_sources_and_sinks, solver),    \
    SC_CASE(sc_test_negative_infinite_arc, solver),        \
    SC_CASE(sc_test_unbounded, solver)

/* Cases only cost-scaling and network-simplex had. */
#define SC_CASES_EXTRA(solver)                             \
    SC_CASE(sc_test_zero_costs, solver),                   \
    SC_CASE(sc_test_huge_costs, solver)

#endif
