/* The hand-computed min-cost-flow cases of the shared battery (see
 * solver_cases.h) and the network helpers they use. Each case is one row:
 * its network, its optimum worked out by hand in the comment above it, and
 * the optimal flows where they are unique. Every case solves through the
 * registry with the certificate check (verify) and the solver under test,
 * then again with the solver's checked copy if it has one. */
#include <string.h>
#include "solver_cases.h"

pl_flownet *sc_new_net(int32_t nodes)
{
    pl_flownet *net = NULL;
    assert_pl_ok(pl_flownet_create(&net));
    if (nodes > 0)
        assert_pl_ok(pl_flownet_add_nodes(net, nodes, NULL));
    return net;
}

int32_t sc_arc(pl_flownet *net, int32_t t, int32_t h, int64_t lo, int64_t hi, int64_t cost)
{
    int32_t id = -1;
    assert_pl_ok(pl_flownet_add_arc(net, t, h, lo, hi, cost, &id));
    return id;
}

void sc_supply(pl_flownet *net, int32_t node, int64_t b)
{
    assert_pl_ok(pl_flownet_set_supply(net, node, b));
}

int64_t sc_flow_of(const pl_flownet *net, int32_t a)
{
    int64_t f = -1;
    assert_pl_ok(pl_flownet_get_flow(net, a, &f));
    return f;
}

void sc_assert_flows(const pl_flownet *net, const int64_t *want, int32_t m)
{
    for (int32_t a = 0; a < m; a++)
        if (sc_flow_of(net, a) != want[a])
            fail_msg("arc %d carries %lld, want %lld", a, (long long)sc_flow_of(net, a),
                     (long long)want[a]);
}

pl_solve_opts sc_opts(const sc_solver *s)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = s->name;
    o.verify = 1;
    return o;
}

pl_status sc_solve(pl_flownet *net, const pl_solve_opts *o, pl_solve_stats *stats, int64_t *cost)
{
    pl_status st = pl_flownet_solve(net, o, stats);
    if (st == PL_OK && cost)
        st = pl_flownet_solution_cost(net, cost);
    return st;
}

void sc_expect_cost(const sc_solver *s, pl_flownet *net, int64_t want)
{
    pl_solve_opts o = sc_opts(s);
    int64_t cost = 0;
    assert_pl_ok(sc_solve(net, &o, NULL, &cost));
    assert_int_equal(cost, want);
    if (!s->checked)
        return;
    o.ops = s->checked;
    o.cold_start = 1;
    cost = 0;
    assert_pl_ok(sc_solve(net, &o, NULL, &cost));
    assert_int_equal(cost, want);
}

/* ---- the cases ------------------------------------------------------------ */

typedef struct sc_arc_spec {
    int32_t t, h;
    int64_t lo, hi, cost;
} sc_arc_spec;

struct sc_case {
    const char *name;
    int32_t n, m;
    const int64_t *supply;     /* [n] */
    const sc_arc_spec *arc;    /* [m] */
    int64_t cost;              /* the optimum */
    const int64_t *flow;       /* [m] the unique optimal flows, or NULL */
    void (*check)(const pl_flownet *net); /* more checks, or NULL */
    /* Prices scaled by n + 1 overflow (see huge_cost_chain). */
    int overflows_scaled;
};

#define SUPPLY(...) .supply = (const int64_t[]){__VA_ARGS__}, \
    .n = (int32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t))
#define ARCS(...) .arc = (const sc_arc_spec[]){__VA_ARGS__}, \
    .m = (int32_t)(sizeof((sc_arc_spec[]){__VA_ARGS__}) / sizeof(sc_arc_spec))
#define FLOWS(...) .flow = (const int64_t[]){__VA_ARGS__}
#define INF PL_CAP_INF
#define HUGE_C (((int64_t)1 << 60) / 3)
#define CHAIN_D (((int64_t)1 << 60) / 10)
#define TRIANGLE_C ((int64_t)1 << 58)

/* The classic 6-node network: node 0 ships 5 units to node 5.
 *   a0 0->1 cap 4 cost 1    a4 2->4 cap 4 cost 1
 *   a1 0->2 cap 3 cost 4    a5 3->5 cap 4 cost 1
 *   a2 1->2 cap 2 cost 2    a6 4->3 cap 2 cost 1
 *   a3 1->3 cap 3 cost 5    a7 4->5 cap 2 cost 3
 * Cheapest routes in turn (SSP augments exactly these):
 *   0-1-2-4-3-5  cost 6, 2 units (a2, a6 saturate)          -> 12
 *   0-1-3-5      cost 7, 2 units (a0, a5 saturate)          -> 14
 *     (0-2-4-3-5 at 7 is blocked by a6, 0-1-2-4-5 at 7 by a2)
 *   0-2-4-5      cost 8, 1 unit (any other route costs >= 9) ->  8
 * total 34 with flows a0..a7 = 4 1 2 2 3 4 2 1.
 * Dual proof of optimality and uniqueness (pi(u) - pi(v) + cost >= 0 form):
 * pi = (0, 1.5, 4, 6.5, 5, 8) (times 2 for integers) gives reduced cost 0 on
 * a1, a3, a4, a7 (strictly between bounds) and -0.5 on a0, a2, a5, a6 (all
 * saturated); since the saturated arcs have strictly negative reduced cost
 * every optimum saturates them, and conservation then fixes the other four
 * flows. */
static const sc_case classic_six_nodes = {"classic_six_nodes", SUPPLY(5, 0, 0, 0, 0, -5),
    ARCS({0, 1, 0, 4, 1}, {0, 2, 0, 3, 4}, {1, 2, 0, 2, 2}, {1, 3, 0, 3, 5}, {2, 4, 0, 4, 1},
         {3, 5, 0, 4, 1}, {4, 3, 0, 2, 1}, {4, 5, 0, 2, 3}),
    .cost = 34, FLOWS(4, 1, 2, 2, 3, 4, 2, 1)};

/* 0 ships 4 units to 3.
 *   a0 0->1 cap 3 cost -2   a3 2->3 cap 5 cost 1
 *   a1 1->3 cap 3 cost 1    a4 1->2 cap 2 cost -3
 *   a2 0->2 cap 5 cost 1    a5 2->1 cap 9 cost 4
 * Node 1 can receive at most 3 units (a0), each worth -2. From 1, the route
 * 1-2-3 costs -3+1 = -2 (2 units, a4) and 1-3 costs 1, so those 3 units cost
 * 2*(-4) + 1*(-1) = -9. The 4th unit must take 0-2-3 at cost 2. Using a5
 * only adds the positive cycle 1-2-1 (cost 1). Optimum -7, flows 3 1 1 3 2 0
 * (the arrays sc_nc_* hold the same network). */
static const sc_case negative_costs = {"negative_costs", SUPPLY(4, 0, 0, -4),
    ARCS({0, 1, 0, 3, -2}, {1, 3, 0, 3, 1}, {0, 2, 0, 5, 1}, {2, 3, 0, 5, 1}, {1, 2, 0, 2, -3},
         {2, 1, 0, 9, 4}),
    .cost = -7, FLOWS(3, 1, 1, 3, 2, 0)};

/* No supplies at all; only finite negative cycles make flow worthwhile.
 *   a0 0->1 cap 2 cost 1,  a1 1->2 cap 3 cost -4,  a2 2->0 cap 5 cost 1,
 *   a3 2->1 cap 10 cost 3.
 * Every unit through a1 (cap 3, -4) must return to 1: via 2-0-1 at cost 2
 * (cap 2, cycle -2 per unit) or via a3 at cost 3 (cycle -1 per unit).
 * Best: 2 units round 0-1-2-0 (-4) and 1 unit round 1-2-1 (-1) = -5,
 * flows 2 3 2 1. */
static const sc_case negative_cycle_finite = {"negative_cycle_finite", SUPPLY(0, 0, 0),
    ARCS({0, 1, 0, 2, 1}, {1, 2, 0, 3, -4}, {2, 0, 0, 5, 1}, {2, 1, 0, 10, 3}),
    .cost = -5, FLOWS(2, 3, 2, 1)};

/* 0 ships 3 units to 2.
 *   a0 0->1 [2,5] cost 3,  a1 0->2 [0,5] cost 1,  a2 1->2 [0,5] cost 1,
 *   a3 2->0 [1,4] cost 2.
 * a0 must carry 2 (path 0-1-2 at 4 per unit: 8), a3 must carry 1 back to 0
 * (2), and everything else goes by the cheapest arc a1: the remaining 1 unit
 * of supply plus the 1 unit a3 returns = 2 units (2). Raising any arc above
 * its lower bound only adds a positive cycle. Optimum 12, flows 2 2 2 1. */
static const sc_case lower_bounds = {"lower_bounds", SUPPLY(3, 0, -3),
    ARCS({0, 1, 2, 5, 3}, {0, 2, 0, 5, 1}, {1, 2, 0, 5, 1}, {2, 0, 1, 4, 2}),
    .cost = 12, FLOWS(2, 2, 2, 1)};

/* 5 units from 0 to 1 over four parallel arcs:
 *   cap 2 cost 5, cap 3 cost 1, cap 1 cost 2, cap 1 cost -1.
 * Cheapest first: 1*(-1) + 3*1 + 1*2 = 4; the cost-5 arc stays empty:
 * flows 0 3 1 1. */
static const sc_case parallel_arcs = {"parallel_arcs", SUPPLY(5, -5),
    ARCS({0, 1, 0, 2, 5}, {0, 1, 0, 3, 1}, {0, 1, 0, 1, 2}, {0, 1, 0, 1, -1}),
    .cost = 4, FLOWS(0, 3, 1, 1)};

/* Loops never move flow between nodes, so each is independent:
 *   a0 loop at 0, cap 5, cost -3  -> full: -15
 *   a1 loop at 0, cap 4, cost 2   -> empty: 0
 *   a2 loop at 1, cap 0, cost -7  -> empty: 0
 *   a3 loop at 1, [3,6], cost 4   -> at its lower bound: 12
 *   a4 0->1 cap 2 cost 1 carries the 2 units of supply: 2
 * Optimum -15 + 12 + 2 = -1, flows 5 0 0 3 2. */
static const sc_case loop_arcs = {"loop_arcs", SUPPLY(2, -2),
    ARCS({0, 0, 0, 5, -3}, {0, 0, 0, 4, 2}, {1, 1, 0, 0, -7}, {1, 1, 3, 6, 4}, {0, 1, 0, 2, 1}),
    .cost = -1, FLOWS(5, 0, 0, 3, 2)};

/* Zero-capacity arcs are unusable however cheap:
 *   a0 0->1 cap 0 cost -10,  a1 0->2 cap 0 cost -5,
 *   a2 0->1 cap 3 cost 2,    a3 1->2 cap 5 cost 1,  a4 0->2 cap 9 cost 4.
 * 3 units from 0 to 2: 0-1-2 costs 3 < 4 and holds all 3 -> 9. */
static const sc_case zero_capacity_arcs = {"zero_capacity_arcs", SUPPLY(3, 0, -3),
    ARCS({0, 1, 0, 0, -10}, {0, 2, 0, 0, -5}, {0, 1, 0, 3, 2}, {1, 2, 0, 5, 1}, {0, 2, 0, 9, 4}),
    .cost = 9, FLOWS(0, 0, 3, 3, 0)};

/* Transportation problem, infinite arcs, sources 0 (5) and 1 (4), sinks
 * 2 (-3), 3 (-4), 4 (-2); cost rows: from 0: 4 6 9, from 1: 5 3 8.
 * Source 1 is 3 cheaper than 0 at sink 3 but only 1 cheaper at sink 4 and
 * 1 dearer at sink 2, so it sends all 4 units to sink 3 (12); source 0 serves
 * sinks 2 and 4: 3*4 + 2*9 = 30. Each exchange of one unit is dearer
 * (e.g. 1->4 & 0->3 instead of 1->3 & 0->4: 8+6 > 3+9). Optimum 42. */
static const sc_case several_sources_and_sinks = {"several_sources_and_sinks", SUPPLY(5, 4, -3, -4, -2),
    ARCS({0, 2, 0, INF, 4}, {0, 3, 0, INF, 6}, {0, 4, 0, INF, 9}, {1, 2, 0, INF, 5}, {1, 3, 0, INF, 3},
         {1, 4, 0, INF, 8}),
    .cost = 42, FLOWS(3, 0, 2, 0, 4, 0)};

/* An infinite arc with negative cost but no negative cycle: ssp and cost
 * scaling first saturate it at the normaliser's finite stand-in for infinity
 * and must route almost all of that back.
 *   a0 0->1 inf cost -3,  a1 1->2 cap 4 cost 1,  a2 1->0 cap 5 cost 5.
 * 2 units go 0-1-2 at -2 each (-4); the cycle 0-1-0 costs -3+5 = 2 > 0, so
 * a2 stays empty. Optimum -4, flows 2 2 0. */
static const sc_case negative_infinite_arc = {"negative_infinite_arc", SUPPLY(2, 0, -2),
    ARCS({0, 1, 0, INF, -3}, {1, 2, 0, 4, 1}, {1, 0, 0, 5, 5}),
    .cost = -4, FLOWS(2, 2, 0)};

/* All costs zero: a pure feasibility problem (for cost scaling the first and
 * only phase is eps = 1; for network simplex M = 1). 3 units 0 -> 3 over two
 * routes of capacity 2; conservation at node 1 ties a0 to a1. */
static void zero_costs_flows(const pl_flownet *net)
{
    assert_int_equal(sc_flow_of(net, 0) + sc_flow_of(net, 2), 3);
    assert_int_equal(sc_flow_of(net, 0), sc_flow_of(net, 1));
}

static const sc_case zero_costs = {"zero_costs", SUPPLY(3, 0, 0, -3),
    ARCS({0, 1, 0, 2, 0}, {1, 3, 0, 2, 0}, {0, 2, 0, 2, 0}, {2, 3, 0, 2, 0}),
    .cost = 0, .check = zero_costs_flows};

/* Costs at the library's limit (n * |cost| <= 2^60 with n = 3): cost scaling
 * scales them by n + 1 = 4 to 2^61 - 4, network simplex's M = nC + 1 keeps
 * its potentials in range; the exact answer must still come out.
 * 0 -> 2 directly at C or via 1 at C - 1 + (-(C - 3)) = 2: 2 units, the
 * cheap route holds 1. Cost 2 + C. */
static const sc_case huge_costs = {"huge_costs", SUPPLY(2, 0, -2),
    ARCS({0, 2, 0, 5, HUGE_C}, {0, 1, 0, 1, HUGE_C - 1}, {1, 2, 0, 5, -(HUGE_C - 3)}),
    .cost = HUGE_C + 2};

/* A chain of 9 arcs of cost D = 2^60 / 10 on 10 nodes is within the
 * library's limits (the cost of the path, 0.9 * 2^60, fits): potentials
 * reach 0.9 * 2^60 and the answer, 9 * D, is exact. Prices scaled by
 * n + 1 = 11 (cost scaling) reach about 10 * 2^60 > 2^62: such a solver
 * must say PL_EOVERFLOW instead of wrapping, and ssp solves it. */
static const sc_case huge_cost_chain = {"huge_cost_chain", SUPPLY(1, 0, 0, 0, 0, 0, 0, 0, 0, -1),
    ARCS({0, 1, 0, 1, CHAIN_D}, {1, 2, 0, 1, CHAIN_D}, {2, 3, 0, 1, CHAIN_D}, {3, 4, 0, 1, CHAIN_D},
         {4, 5, 0, 1, CHAIN_D}, {5, 6, 0, 1, CHAIN_D}, {6, 7, 0, 1, CHAIN_D}, {7, 8, 0, 1, CHAIN_D},
         {8, 9, 0, 1, CHAIN_D}),
    .cost = 9 * CHAIN_D, .overflows_scaled = 1};

/* Transport: s1=0 (4), s2=1 (3), t1=2 (-5), t2=3 (-2).
 * arcs s1->t1 c2, s1->t2 c5, s2->t1 c3, s2->t2 c1 (caps 4, 4, 3, 3).
 * With x = f(s1->t1): f(s1->t2) = 4-x, f(s2->t1) = 5-x, f(s2->t2) = x-2,
 * x in [2,4]; cost = 2x + 5(4-x) + 3(5-x) + (x-2) = 33 - 5x, minimal at
 * x = 4: flows (4, 0, 1, 2), cost 13. */
static const sc_case transport = {"transport", SUPPLY(4, 3, -5, -2),
    ARCS({0, 2, 0, 4, 2}, {0, 3, 0, 4, 5}, {1, 2, 0, 3, 3}, {1, 3, 0, 3, 1}),
    .cost = 13, FLOWS(4, 0, 1, 2)};

/* s=0 (2) to t=2 (-2). Route A: s->a c-3 cap 1, a->t c1 cap 5 (-2 per unit,
 * 1 unit). Route B: s->t c0 cap 5. Best: 1 unit each, cost -2 + 0 = -2. */
static const sc_case two_routes_negative = {"two_routes_negative", SUPPLY(2, 0, -2),
    ARCS({0, 1, 0, 1, -3}, {1, 2, 0, 5, 1}, {0, 2, 0, 5, 0}),
    .cost = -2, FLOWS(1, 1, 1)};

/* A circulation with no supply at all: a->b c-4 cap 3, b->c c1 cap 5,
 * c->a c1 cap 2 is a cycle of cost -2 limited to 2 units: -4. Plus s=3 (1)
 * -> t=4 (-1) at cost 10: total 6. Cycle canceling cancels exactly one
 * cycle: after it the residual cycles are a-c-b-a (-1-1+4 = 2) and b-c-b
 * (0). */
static const sc_case circulation_and_path = {"circulation_and_path", SUPPLY(0, 0, 0, 1, -1),
    ARCS({0, 1, 0, 3, -4}, {1, 2, 0, 5, 1}, {2, 0, 0, 2, 1}, {3, 4, 0, 1, 10}),
    .cost = 6, FLOWS(2, 2, 2, 1)};

/* s=0 (3) -> a=1 c1 cap 3, a -> t=2 c1 cap 5, t -> a c-3 cap 2. At a,
 * f(a->t) = 3 + x with x = f(t->a) <= 2 (a->t cap 5); cost = 3 + (3+x) - 3x
 * = 6 - 2x, so x = 2: flows (3, 5, 2), cost 2. The feasible flow (x = 0,
 * cost 6) must be improved by the cycle a-t-a. */
static const sc_case cycle_on_supply_path = {"cycle_on_supply_path", SUPPLY(3, 0, -3),
    ARCS({0, 1, 0, 3, 1}, {1, 2, 0, 5, 1}, {2, 1, 0, 2, -3}),
    .cost = 2, FLOWS(3, 5, 2)};

/* s=0 (3) -> t=1 (-3): cheap arc c1 cap 10, dear arc c5 with lower bound 2
 * (upper 4). The 2 forced units cost 10, the third goes cheap: 11. */
static const sc_case forced_lower_bound = {"forced_lower_bound", SUPPLY(3, -3),
    ARCS({0, 1, 0, 10, 1}, {0, 1, 2, 4, 5}),
    .cost = 11, FLOWS(1, 2)};

/* No supply: a->b lower = upper = 3 at c2 forces 3 units back along b->a
 * c-1 (cap 5): 6 - 3 = 3. */
static const sc_case forced_circulation = {"forced_circulation", SUPPLY(0, 0),
    ARCS({0, 1, 3, 3, 2}, {1, 0, 0, 5, -1}),
    .cost = 3, FLOWS(3, 3)};

/* Five units over three parallel arcs 0->1, each cap 2, costs 3, 1, 2:
 * 2 at 1 + 2 at 2 + 1 at 3 = 9. */
static const sc_case parallel_arcs_equal_caps = {"parallel_arcs_equal_caps", SUPPLY(5, -5),
    ARCS({0, 1, 0, 2, 3}, {0, 1, 0, 2, 1}, {0, 1, 0, 2, 2}),
    .cost = 9, FLOWS(1, 2, 2)};

/* Loops: 0->0 c-5 cap 3 is a negative cycle by itself, saturated: -15;
 * 0->0 c2 cap 4 stays empty; 1->1 c-1 cap 0 cannot carry anything; the
 * path 1 (1) -> 2 (-1) costs 1. Total -14. */
static const sc_case loops_and_path = {"loops_and_path", SUPPLY(0, 1, -1),
    ARCS({0, 0, 0, 3, -5}, {0, 0, 0, 4, 2}, {1, 1, 0, 0, -1}, {1, 2, 0, 1, 1}),
    .cost = -14, FLOWS(3, 0, 0, 1)};

/* 0 (3) -> 1 (-3): the c1 arc has cap 0, so all 3 units take the c7 arc:
 * 21. The cycle 2->3 c-10 cap 0, 3->2 c1 cap 5 would pay -9 per unit but
 * cannot carry any: it adds 0. */
static const sc_case zero_capacity_shortcut = {"zero_capacity_shortcut", SUPPLY(3, -3, 0, 0),
    ARCS({0, 1, 0, 0, 1}, {0, 1, 0, 5, 7}, {2, 3, 0, 0, -10}, {3, 2, 0, 5, 1}),
    .cost = 21, FLOWS(0, 3, 0, 0)};

/* A cycle of one infinite arc a->b c-3 and one finite arc b->a c1 cap 4 is
 * bounded by the finite arc: 4 units at -2 = -8 (the solver sees the
 * infinite arc as cap_inf and the driver repairs its potentials). */
static const sc_case infinite_arc_in_cycle = {"infinite_arc_in_cycle", SUPPLY(0, 0),
    ARCS({0, 1, 0, INF, -3}, {1, 0, 0, 4, 1}),
    .cost = -8, FLOWS(4, 4)};

/* Costs near the 2^60 / n limit (n = 3, C = 2^58): the triangle
 * -2^58 + 2^56 + 2^56 = -2^57 per unit, 4 units: -2^59. */
static const sc_case large_cost_triangle = {"large_cost_triangle", SUPPLY(0, 0, 0),
    ARCS({0, 1, 0, 4, -TRIANGLE_C}, {1, 2, 0, 4, TRIANGLE_C / 4}, {2, 0, 0, 4, TRIANGLE_C / 4}),
    .cost = -((int64_t)1 << 59)};

/* No node at all; then nodes without arcs or supply: cost 0. */
static const sc_case empty = {"empty", .n = 0};
static const sc_case nodes_only = {"nodes_only", SUPPLY(0, 0, 0)};

const sc_case *const sc_cases[] = {
    &classic_six_nodes, &negative_costs, &negative_cycle_finite, &lower_bounds, &parallel_arcs,
    &loop_arcs, &zero_capacity_arcs, &several_sources_and_sinks, &negative_infinite_arc, &zero_costs,
    &huge_costs, &huge_cost_chain, &transport, &two_routes_negative, &circulation_and_path,
    &cycle_on_supply_path, &forced_lower_bound, &forced_circulation, &parallel_arcs_equal_caps,
    &loops_and_path, &zero_capacity_shortcut, &infinite_arc_in_cycle, &large_cost_triangle, &empty,
    &nodes_only,
};
const size_t sc_case_count = sizeof sc_cases / sizeof sc_cases[0];

const char *sc_case_name(const sc_case *c)
{
    return c->name;
}

pl_flownet *sc_build_case(const sc_case *c)
{
    pl_flownet *net = sc_new_net(c->n);
    for (int32_t v = 0; v < c->n; v++)
        if (c->supply[v])
            sc_supply(net, v, c->supply[v]);
    for (int32_t a = 0; a < c->m; a++)
        sc_arc(net, c->arc[a].t, c->arc[a].h, c->arc[a].lo, c->arc[a].hi, c->arc[a].cost);
    return net;
}

pl_flownet *sc_classic6(void)
{
    return sc_build_case(&classic_six_nodes);
}

pl_flownet *sc_loop_net(void)
{
    return sc_build_case(&loop_arcs);
}

pl_flownet *sc_circulation_net(void)
{
    return sc_build_case(&circulation_and_path);
}

/* Solve the case with s and check the optimum, the flows and whatever else
 * the case checks; a solver with SC_SCALED_PRICES must instead report
 * PL_EOVERFLOW on a case that says so, which ssp solves. */
void sc_run_case(const sc_solver *s, const sc_case *c)
{
    pl_flownet *net = sc_build_case(c);
    if (c->overflows_scaled && (s->flags & SC_SCALED_PRICES)) {
        pl_solve_opts o = sc_opts(s);
        o.cold_start = 1;
        assert_pl_status(sc_solve(net, &o, NULL, NULL), PL_EOVERFLOW);
        assert_non_null(strstr(pl_last_error(), "int64"));
        assert_false(pl_flownet_has_solution(net));
        int64_t cost = 0;
        assert_pl_ok(pl_test_solve(net, "ssp", &cost));
        assert_int_equal(cost, c->cost);
    } else {
        sc_expect_cost(s, net, c->cost);
        if (c->flow)
            sc_assert_flows(net, c->flow, c->m);
        if (c->check)
            c->check(net);
    }
    pl_flownet_free(net);
}
