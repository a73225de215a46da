/* Hand-computed min-cost-flow cases shared by the solver suites; see
 * solver_cases.h. Every case solves through the registry with the
 * certificate check (verify) and the solver named by its cmocka state. */
#include <string.h>
#include "solver_cases.h"

/* ---- helpers ------------------------------------------------------------- */

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

static sc_extra_check_fn extra_check;

void sc_set_extra_check(sc_extra_check_fn fn)
{
    extra_check = fn;
}

/* Solve with the state's solver (verified), expect the optimum `want`, then
 * run the suite's extra check if any. */
static void expect_cost(void **state, pl_flownet *net, int64_t want)
{
    const char *solver = *state;
    assert_non_null(solver);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, solver, &cost));
    assert_int_equal(cost, want);
    if (extra_check)
        extra_check(net, want);
}

/* ---- small hand-computed networks --------------------------------------- */

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
pl_flownet *sc_classic6(void)
{
    pl_flownet *net = sc_new_net(6);
    sc_supply(net, 0, 5);
    sc_supply(net, 5, -5);
    sc_arc(net, 0, 1, 0, 4, 1);
    sc_arc(net, 0, 2, 0, 3, 4);
    sc_arc(net, 1, 2, 0, 2, 2);
    sc_arc(net, 1, 3, 0, 3, 5);
    sc_arc(net, 2, 4, 0, 4, 1);
    sc_arc(net, 3, 5, 0, 4, 1);
    sc_arc(net, 4, 3, 0, 2, 1);
    sc_arc(net, 4, 5, 0, 2, 3);
    return net;
}

void sc_test_classic_six_nodes(void **state)
{
    pl_flownet *net = sc_classic6();
    expect_cost(state, net, 34);
    static const int64_t want[] = {4, 1, 2, 2, 3, 4, 2, 1};
    sc_assert_flows(net, want, 8);
    pl_flownet_free(net);
}

/* 0 ships 4 units to 3.
 *   a0 0->1 cap 3 cost -2   a3 2->3 cap 5 cost 1
 *   a1 1->3 cap 3 cost 1    a4 1->2 cap 2 cost -3
 *   a2 0->2 cap 5 cost 1    a5 2->1 cap 9 cost 4
 * Node 1 can receive at most 3 units (a0), each worth -2. From 1, the route
 * 1-2-3 costs -3+1 = -2 (2 units, a4) and 1-3 costs 1, so those 3 units cost
 * 2*(-4) + 1*(-1) = -9. The 4th unit must take 0-2-3 at cost 2. Using a5
 * only adds the positive cycle 1-2-1 (cost 1). Optimum -7, flows 3 1 1 3 2 0. */
void sc_test_negative_costs(void **state)
{
    pl_flownet *net = sc_new_net(4);
    sc_supply(net, 0, 4);
    sc_supply(net, 3, -4);
    sc_arc(net, 0, 1, 0, 3, -2);
    sc_arc(net, 1, 3, 0, 3, 1);
    sc_arc(net, 0, 2, 0, 5, 1);
    sc_arc(net, 2, 3, 0, 5, 1);
    sc_arc(net, 1, 2, 0, 2, -3);
    sc_arc(net, 2, 1, 0, 9, 4);
    expect_cost(state, net, -7);
    static const int64_t want[] = {3, 1, 1, 3, 2, 0};
    sc_assert_flows(net, want, 6);
    pl_flownet_free(net);
}

/* No supplies at all; only finite negative cycles make flow worthwhile.
 *   a0 0->1 cap 2 cost 1,  a1 1->2 cap 3 cost -4,  a2 2->0 cap 5 cost 1,
 *   a3 2->1 cap 10 cost 3.
 * Every unit through a1 (cap 3, -4) must return to 1: via 2-0-1 at cost 2
 * (cap 2, cycle -2 per unit) or via a3 at cost 3 (cycle -1 per unit).
 * Best: 2 units round 0-1-2-0 (-4) and 1 unit round 1-2-1 (-1) = -5,
 * flows 2 3 2 1. */
void sc_test_negative_cycle_finite(void **state)
{
    pl_flownet *net = sc_new_net(3);
    sc_arc(net, 0, 1, 0, 2, 1);
    sc_arc(net, 1, 2, 0, 3, -4);
    sc_arc(net, 2, 0, 0, 5, 1);
    sc_arc(net, 2, 1, 0, 10, 3);
    expect_cost(state, net, -5);
    static const int64_t want[] = {2, 3, 2, 1};
    sc_assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* 0 ships 3 units to 2.
 *   a0 0->1 [2,5] cost 3,  a1 0->2 [0,5] cost 1,  a2 1->2 [0,5] cost 1,
 *   a3 2->0 [1,4] cost 2.
 * a0 must carry 2 (path 0-1-2 at 4 per unit: 8), a3 must carry 1 back to 0
 * (2), and everything else goes by the cheapest arc a1: the remaining 1 unit
 * of supply plus the 1 unit a3 returns = 2 units (2). Raising any arc above
 * its lower bound only adds a positive cycle. Optimum 12, flows 2 2 2 1. */
void sc_test_lower_bounds(void **state)
{
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 3);
    sc_supply(net, 2, -3);
    sc_arc(net, 0, 1, 2, 5, 3);
    sc_arc(net, 0, 2, 0, 5, 1);
    sc_arc(net, 1, 2, 0, 5, 1);
    sc_arc(net, 2, 0, 1, 4, 2);
    expect_cost(state, net, 12);
    static const int64_t want[] = {2, 2, 2, 1};
    sc_assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* 5 units from 0 to 1 over four parallel arcs:
 *   cap 2 cost 5, cap 3 cost 1, cap 1 cost 2, cap 1 cost -1.
 * Cheapest first: 1*(-1) + 3*1 + 1*2 = 4; the cost-5 arc stays empty:
 * flows 0 3 1 1. */
void sc_test_parallel_arcs(void **state)
{
    pl_flownet *net = sc_new_net(2);
    sc_supply(net, 0, 5);
    sc_supply(net, 1, -5);
    sc_arc(net, 0, 1, 0, 2, 5);
    sc_arc(net, 0, 1, 0, 3, 1);
    sc_arc(net, 0, 1, 0, 1, 2);
    sc_arc(net, 0, 1, 0, 1, -1);
    expect_cost(state, net, 4);
    static const int64_t want[] = {0, 3, 1, 1};
    sc_assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* Loops never move flow between nodes, so each is independent:
 *   a0 loop at 0, cap 5, cost -3  -> full: -15
 *   a1 loop at 0, cap 4, cost 2   -> empty: 0
 *   a2 loop at 1, cap 0, cost -7  -> empty: 0
 *   a3 loop at 1, [3,6], cost 4   -> at its lower bound: 12
 *   a4 0->1 cap 2 cost 1 carries the 2 units of supply: 2
 * Optimum -15 + 12 + 2 = -1, flows 5 0 0 3 2. */
pl_flownet *sc_loop_net(void)
{
    pl_flownet *net = sc_new_net(2);
    sc_supply(net, 0, 2);
    sc_supply(net, 1, -2);
    sc_arc(net, 0, 0, 0, 5, -3);
    sc_arc(net, 0, 0, 0, 4, 2);
    sc_arc(net, 1, 1, 0, 0, -7);
    sc_arc(net, 1, 1, 3, 6, 4);
    sc_arc(net, 0, 1, 0, 2, 1);
    return net;
}

void sc_test_loop_arcs(void **state)
{
    pl_flownet *net = sc_loop_net();
    expect_cost(state, net, -1);
    static const int64_t want[] = {5, 0, 0, 3, 2};
    sc_assert_flows(net, want, 5);
    pl_flownet_free(net);
}

/* Zero-capacity arcs are unusable however cheap:
 *   a0 0->1 cap 0 cost -10,  a1 0->2 cap 0 cost -5,
 *   a2 0->1 cap 3 cost 2,    a3 1->2 cap 5 cost 1,  a4 0->2 cap 9 cost 4.
 * 3 units from 0 to 2: 0-1-2 costs 3 < 4 and holds all 3 -> 9. */
void sc_test_zero_capacity_arcs(void **state)
{
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 3);
    sc_supply(net, 2, -3);
    sc_arc(net, 0, 1, 0, 0, -10);
    sc_arc(net, 0, 2, 0, 0, -5);
    sc_arc(net, 0, 1, 0, 3, 2);
    sc_arc(net, 1, 2, 0, 5, 1);
    sc_arc(net, 0, 2, 0, 9, 4);
    expect_cost(state, net, 9);
    static const int64_t want[] = {0, 0, 3, 3, 0};
    sc_assert_flows(net, want, 5);
    pl_flownet_free(net);
}

/* Transportation problem, infinite arcs, sources 0 (5) and 1 (4), sinks
 * 2 (-3), 3 (-4), 4 (-2); cost rows: from 0: 4 6 9, from 1: 5 3 8.
 * Source 1 is 3 cheaper than 0 at sink 3 but only 1 cheaper at sink 4 and
 * 1 dearer at sink 2, so it sends all 4 units to sink 3 (12); source 0 serves
 * sinks 2 and 4: 3*4 + 2*9 = 30. Each exchange of one unit is dearer
 * (e.g. 1->4 & 0->3 instead of 1->3 & 0->4: 8+6 > 3+9). Optimum 42. */
void sc_test_several_sources_and_sinks(void **state)
{
    pl_flownet *net = sc_new_net(5);
    sc_supply(net, 0, 5);
    sc_supply(net, 1, 4);
    sc_supply(net, 2, -3);
    sc_supply(net, 3, -4);
    sc_supply(net, 4, -2);
    static const int64_t c[2][3] = {{4, 6, 9}, {5, 3, 8}};
    for (int32_t s = 0; s < 2; s++)
        for (int32_t t = 0; t < 3; t++)
            sc_arc(net, s, 2 + t, 0, PL_CAP_INF, c[s][t]);
    expect_cost(state, net, 42);
    static const int64_t want[] = {3, 0, 2, 0, 4, 0};
    sc_assert_flows(net, want, 6);
    pl_flownet_free(net);
}

/* An infinite arc with negative cost but no negative cycle: ssp and cost
 * scaling first saturate it at the normaliser's finite stand-in for infinity
 * and must route almost all of that back.
 *   a0 0->1 inf cost -3,  a1 1->2 cap 4 cost 1,  a2 1->0 cap 5 cost 5.
 * 2 units go 0-1-2 at -2 each (-4); the cycle 0-1-0 costs -3+5 = 2 > 0, so
 * a2 stays empty. Optimum -4, flows 2 2 0. */
void sc_test_negative_infinite_arc(void **state)
{
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 2);
    sc_supply(net, 2, -2);
    sc_arc(net, 0, 1, 0, PL_CAP_INF, -3);
    sc_arc(net, 1, 2, 0, 4, 1);
    sc_arc(net, 1, 0, 0, 5, 5);
    expect_cost(state, net, -4);
    static const int64_t want[] = {2, 2, 0};
    sc_assert_flows(net, want, 3);
    pl_flownet_free(net);
}

/* All costs zero: a pure feasibility problem (for cost scaling the first and
 * only phase is eps = 1; for network simplex M = 1). 3 units 0 -> 3 over two
 * routes of capacity 2; conservation at node 1 ties a0 to a1. */
void sc_test_zero_costs(void **state)
{
    pl_flownet *net = sc_new_net(4);
    sc_supply(net, 0, 3);
    sc_supply(net, 3, -3);
    sc_arc(net, 0, 1, 0, 2, 0);
    sc_arc(net, 1, 3, 0, 2, 0);
    sc_arc(net, 0, 2, 0, 2, 0);
    sc_arc(net, 2, 3, 0, 2, 0);
    expect_cost(state, net, 0);
    assert_int_equal(sc_flow_of(net, 0) + sc_flow_of(net, 2), 3);
    assert_int_equal(sc_flow_of(net, 0), sc_flow_of(net, 1));
    pl_flownet_free(net);
}

/* Costs at the library's limit (n * |cost| <= 2^60 with n = 3): cost scaling
 * scales them by n + 1 = 4 to 2^61 - 4, network simplex's M = nC + 1 keeps
 * its potentials in range; the exact answer must still come out.
 * 0 -> 2 directly at C or via 1 at C - 1 + (-(C - 3)) = 2: 2 units, the
 * cheap route holds 1. Cost 2 + C. */
void sc_test_huge_costs(void **state)
{
    const int64_t C = ((int64_t)1 << 60) / 3;
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 2);
    sc_supply(net, 2, -2);
    sc_arc(net, 0, 2, 0, 5, C);
    sc_arc(net, 0, 1, 0, 1, C - 1);
    sc_arc(net, 1, 2, 0, 5, -(C - 3));
    expect_cost(state, net, C + 2);
    pl_flownet_free(net);
}

/* ---- error paths ------------------------------------------------------- */

/* A feasible network with a negative cycle 0-1-0 of infinite arcs: the
 * driver reports it before the solver runs. */
void sc_test_unbounded(void **state)
{
    const char *solver = *state;
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 1);
    sc_supply(net, 2, -1);
    sc_arc(net, 0, 1, 0, PL_CAP_INF, -2);
    sc_arc(net, 1, 0, 0, PL_CAP_INF, 1);
    sc_arc(net, 1, 2, 0, 1, 0);
    assert_pl_status(pl_test_solve(net, solver, NULL), PL_EUNBOUNDED);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* ---- warm-start helpers --------------------------------------------------- */

/* A random network that stays feasible and bounded under any change of
 * costs, bounds and supplies: random finite arcs plus a backbone of
 * infinite, expensive arcs between node 0 and every other node. */
pl_flownet *sc_warm_net(pl_test_rng *r, int32_t n, int32_t m, int64_t max_cost)
{
    pl_flownet *net = sc_new_net(n);
    for (int32_t v = 1; v < n; v++) {
        sc_arc(net, 0, v, 0, PL_CAP_INF, 4 * max_cost);
        sc_arc(net, v, 0, 0, PL_CAP_INF, 4 * max_cost);
    }
    for (int32_t i = 0; i < m; i++) {
        int32_t t = (int32_t)pl_test_range(r, 0, n - 1), h = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t hi = pl_test_range(r, 0, 20), lo = pl_test_range(r, 0, 5) == 0 ? pl_test_range(r, 0, hi) : 0;
        sc_arc(net, t, h, lo, hi, pl_test_range(r, -max_cost, max_cost));
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t s = (int32_t)pl_test_range(r, 0, n - 1), t = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t k = pl_test_range(r, 1, 10), bs, bt;
        pl_flownet_get_supply(net, s, &bs);
        sc_supply(net, s, bs + k);
        pl_flownet_get_supply(net, t, &bt);
        sc_supply(net, t, bt - k);
    }
    return net;
}

/* One random change, applied identically to both networks. Arcs of the
 * backbone (ids below 2(n-1)) keep their infinite capacity. */
void sc_random_change(pl_test_rng *r, pl_flownet *a, pl_flownet *b, int64_t max_cost, int structural)
{
    int32_t n = pl_flownet_node_count(a), m = pl_flownet_arc_count(a);
    int32_t backbone = 2 * (n - 1);
    int kind = (int)pl_test_range(r, 0, structural ? 5 : 3);
    int32_t x = (int32_t)pl_test_range(r, backbone, m - 1);
    if (kind <= 1 || pl_flownet_arc_removed(a, x)) { /* cost, of any arc */
        x = (int32_t)pl_test_range(r, 0, m - 1);
        if (pl_flownet_arc_removed(a, x))
            return;
        int64_t c = pl_test_range(r, -max_cost, max_cost);
        if (x < backbone)
            c = pl_test_range(r, 3 * max_cost, 5 * max_cost);
        assert_pl_ok(pl_flownet_set_arc_cost(a, x, c));
        assert_pl_ok(pl_flownet_set_arc_cost(b, x, c));
    } else if (kind == 2) { /* bounds */
        int64_t hi = pl_test_range(r, 0, 25), lo = pl_test_range(r, 0, 3) == 0 ? pl_test_range(r, 0, hi) : 0;
        assert_pl_ok(pl_flownet_set_arc_bounds(a, x, lo, hi));
        assert_pl_ok(pl_flownet_set_arc_bounds(b, x, lo, hi));
    } else if (kind == 3) { /* supplies: move k units of supply from s to t */
        int32_t s = (int32_t)pl_test_range(r, 0, n - 1), t = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t k = pl_test_range(r, 1, 8), bs, bt;
        assert_pl_ok(pl_flownet_get_supply(a, s, &bs));
        assert_pl_ok(pl_flownet_set_supply(a, s, bs + k));
        assert_pl_ok(pl_flownet_set_supply(b, s, bs + k));
        assert_pl_ok(pl_flownet_get_supply(a, t, &bt));
        assert_pl_ok(pl_flownet_set_supply(a, t, bt - k));
        assert_pl_ok(pl_flownet_set_supply(b, t, bt - k));
    } else if (kind == 4) { /* remove a random (non-backbone) arc */
        assert_pl_ok(pl_flownet_remove_arc(a, x));
        assert_pl_ok(pl_flownet_remove_arc(b, x));
    } else { /* add an arc */
        int32_t t = (int32_t)pl_test_range(r, 0, n - 1), h = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t hi = pl_test_range(r, 0, 20), c = pl_test_range(r, -max_cost, max_cost);
        int32_t ia, ib;
        assert_pl_ok(pl_flownet_add_arc(a, t, h, 0, hi, c, &ia));
        assert_pl_ok(pl_flownet_add_arc(b, t, h, 0, hi, c, &ib));
        assert_int_equal(ia, ib);
    }
}

void sc_small_change(pl_test_rng *r, pl_flownet *net)
{
    int32_t m = pl_flownet_arc_count(net), n = pl_flownet_node_count(net);
    int32_t a = (int32_t)pl_test_range(r, 0, m - 1), v = (int32_t)pl_test_range(r, 0, n - 1);
    int64_t b;
    assert_pl_ok(pl_flownet_set_arc_cost(net, a, pl_test_range(r, -20, 20)));
    assert_pl_ok(pl_flownet_get_supply(net, v, &b));
    assert_pl_ok(pl_flownet_set_supply(net, v, b + 1));
    assert_pl_ok(pl_flownet_get_supply(net, 0, &b));
    assert_pl_ok(pl_flownet_set_supply(net, 0, b - 1));
}

/* ---- a solver called directly on a normalised problem ---------------------- */

void sc_direct_build(sc_direct *d, int32_t n, int32_t m, const int32_t *tail, const int32_t *head,
                     const int64_t *cap, const int64_t *cost, const int64_t *sup)
{
    assert_in_range(n, 0, SC_DMAX);
    assert_in_range(m, 0, SC_DMAX);
    memset(d, 0, sizeof *d);
    for (int32_t a = 0; a < m; a++) {
        d->first[tail[a] + 1]++;
        d->first[head[a] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        d->first[v + 1] += d->first[v];
    int32_t pos[SC_DMAX + 1];
    memcpy(pos, d->first, sizeof pos);
    for (int32_t a = 0; a < m; a++) {
        d->arcs[pos[tail[a]]++] = 2 * a;
        d->arcs[pos[head[a]]++] = 2 * a + 1;
    }
    d->p = (pl_flow_problem){.n = n, .m = m, .tail = tail, .head = head, .cap = cap, .cost = cost,
                             .supply = sup, .out_first = d->first, .out_arcs = d->arcs,
                             .is_inf = d->inf, .cap_inf = 0, .structure_version = 7};
    d->out = (pl_flow_solution){.flow = d->flow, .potential = d->pot, .iterations = -1,
                                .state = &d->slot};
}

int64_t sc_direct_check(const sc_direct *d)
{
    const pl_flow_problem *p = &d->p;
    int64_t bal[SC_DMAX] = {0}, total = 0;
    for (int32_t a = 0; a < p->m; a++) {
        assert_in_range(d->flow[a], 0, p->cap[a]);
        bal[p->tail[a]] += d->flow[a];
        bal[p->head[a]] -= d->flow[a];
        total += d->flow[a] * p->cost[a];
    }
    for (int32_t v = 0; v < p->n; v++)
        assert_int_equal(bal[v], p->supply[v]);
    for (int32_t r = 0; r < 2 * p->m; r++) {
        if (pl_residual_cap(p, d->flow, r) == 0)
            continue;
        int64_t rc = pl_residual_cost(p, r) + d->pot[pl_residual_tail(p, r)] -
                     d->pot[pl_residual_head(p, r)];
        if (rc < 0)
            fail_msg("residual arc %d has reduced cost %lld", r, (long long)rc);
    }
    return total;
}

const int32_t sc_nc_tail[6] = {0, 1, 0, 2, 1, 2}, sc_nc_head[6] = {1, 3, 2, 3, 2, 1};
const int64_t sc_nc_cap[6] = {3, 3, 5, 5, 2, 9}, sc_nc_cost[6] = {-2, 1, 1, 1, -3, 4};
const int64_t sc_nc_sup[4] = {4, 0, 0, -4};
