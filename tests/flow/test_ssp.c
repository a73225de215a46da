/* Tests of the successive-shortest-paths solver ("ssp"): hand-computed optima
 * on small networks exercising each feature of the normalised problem, the
 * error paths, the dual certificate, and a 200x200 assignment problem checked
 * against an independent Hungarian algorithm. */
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"
#include "flow/flownet_impl.h"

/* ---- helpers ------------------------------------------------------------- */

static pl_flownet *new_net(int32_t nodes)
{
    pl_flownet *net = NULL;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_nodes(net, nodes, NULL));
    return net;
}

static int32_t arc(pl_flownet *net, int32_t t, int32_t h, int64_t lo, int64_t hi, int64_t cost)
{
    int32_t id;
    assert_pl_ok(pl_flownet_add_arc(net, t, h, lo, hi, cost, &id));
    return id;
}

static void supply(pl_flownet *net, int32_t node, int64_t b)
{
    assert_pl_ok(pl_flownet_set_supply(net, node, b));
}

static int64_t flow_of(const pl_flownet *net, int32_t a)
{
    int64_t f;
    assert_pl_ok(pl_flownet_get_flow(net, a, &f));
    return f;
}

static void assert_flows(const pl_flownet *net, const int64_t *want, int32_t m)
{
    for (int32_t a = 0; a < m; a++)
        if (flow_of(net, a) != want[a])
            fail_msg("arc %d carries %lld, want %lld", a, (long long)flow_of(net, a),
                     (long long)want[a]);
}

/* Solve through the registry with verification and the given iteration limit. */
static pl_status solve_limited(pl_flownet *net, int64_t limit, pl_solve_stats *stats)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = "ssp";
    o.verify = 1;
    o.max_iterations = limit;
    return pl_flownet_solve(net, &o, stats);
}

/* The classic 6-node network: node 0 ships 5 units to node 5.
 *   a0 0->1 cap 4 cost 1    a4 2->4 cap 4 cost 1
 *   a1 0->2 cap 3 cost 4    a5 3->5 cap 4 cost 1
 *   a2 1->2 cap 2 cost 2    a6 4->3 cap 2 cost 1
 *   a3 1->3 cap 3 cost 5    a7 4->5 cap 2 cost 3
 * By hand, SSP augments
 *   0-1-2-4-3-5  cost 6, 2 units (a2, a6 saturate)          -> 12
 *   0-1-3-5      cost 7, 2 units (a0, a5 saturate)          -> 14
 *   0-2-4-5      cost 8, 1 unit (any other route costs >= 9) ->  8
 * total 34 with flows a0..a7 = 4 1 2 2 3 4 2 1.
 * Dual proof of optimality and uniqueness (pi(u) - pi(v) + cost >= 0 form):
 * pi = (0, 1.5, 4, 6.5, 5, 8) gives reduced cost 0 on a1, a3, a4, a7 (strictly
 * between bounds) and -0.5 on a0, a2, a5, a6 (all saturated); since the
 * saturated arcs have strictly negative reduced cost every optimum saturates
 * them, and conservation then fixes the other four flows. */
static pl_flownet *classic6(void)
{
    pl_flownet *net = new_net(6);
    supply(net, 0, 5);
    supply(net, 5, -5);
    arc(net, 0, 1, 0, 4, 1);
    arc(net, 0, 2, 0, 3, 4);
    arc(net, 1, 2, 0, 2, 2);
    arc(net, 1, 3, 0, 3, 5);
    arc(net, 2, 4, 0, 4, 1);
    arc(net, 3, 5, 0, 4, 1);
    arc(net, 4, 3, 0, 2, 1);
    arc(net, 4, 5, 0, 2, 3);
    return net;
}

/* ---- small hand-computed networks --------------------------------------- */

static void test_classic_six_nodes(void **state)
{
    (void)state;
    pl_flownet *net = classic6();
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 34);
    static const int64_t want[] = {4, 1, 2, 2, 3, 4, 2, 1};
    assert_flows(net, want, 8);
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
static void test_negative_costs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 4);
    supply(net, 3, -4);
    arc(net, 0, 1, 0, 3, -2);
    arc(net, 1, 3, 0, 3, 1);
    arc(net, 0, 2, 0, 5, 1);
    arc(net, 2, 3, 0, 5, 1);
    arc(net, 1, 2, 0, 2, -3);
    arc(net, 2, 1, 0, 9, 4);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, -7);
    static const int64_t want[] = {3, 1, 1, 3, 2, 0};
    assert_flows(net, want, 6);
    pl_flownet_free(net);
}

/* No supplies at all; only finite negative cycles make flow worthwhile.
 *   a0 0->1 cap 2 cost 1,  a1 1->2 cap 3 cost -4,  a2 2->0 cap 5 cost 1,
 *   a3 2->1 cap 10 cost 3.
 * Every unit through a1 (cap 3, -4) must return to 1: via 2-0-1 at cost 2
 * (cap 2, cycle -2 per unit) or via a3 at cost 3 (cycle -1 per unit).
 * Best: 2 units round 0-1-2-0 (-4) and 1 unit round 1-2-1 (-1) = -5,
 * flows 2 3 2 1. */
static void test_negative_cycle_finite(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    arc(net, 0, 1, 0, 2, 1);
    arc(net, 1, 2, 0, 3, -4);
    arc(net, 2, 0, 0, 5, 1);
    arc(net, 2, 1, 0, 10, 3);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, -5);
    static const int64_t want[] = {2, 3, 2, 1};
    assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* 0 ships 3 units to 2.
 *   a0 0->1 [2,5] cost 3,  a1 0->2 [0,5] cost 1,  a2 1->2 [0,5] cost 1,
 *   a3 2->0 [1,4] cost 2.
 * a0 must carry 2 (path 0-1-2 at 4 per unit: 8), a3 must carry 1 back to 0
 * (2), and everything else goes by the cheapest arc a1: the remaining 1 unit
 * of supply plus the 1 unit a3 returns = 2 units (2). Raising any arc above
 * its lower bound only adds a positive cycle. Optimum 12, flows 2 2 2 1. */
static void test_lower_bounds(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 3);
    supply(net, 2, -3);
    arc(net, 0, 1, 2, 5, 3);
    arc(net, 0, 2, 0, 5, 1);
    arc(net, 1, 2, 0, 5, 1);
    arc(net, 2, 0, 1, 4, 2);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 12);
    static const int64_t want[] = {2, 2, 2, 1};
    assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* 5 units from 0 to 1 over four parallel arcs:
 *   cap 2 cost 5, cap 3 cost 1, cap 1 cost 2, cap 1 cost -1.
 * Cheapest first: 1*(-1) + 3*1 + 1*2 = 4; the cost-5 arc stays empty. */
static void test_parallel_arcs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(2);
    supply(net, 0, 5);
    supply(net, 1, -5);
    arc(net, 0, 1, 0, 2, 5);
    arc(net, 0, 1, 0, 3, 1);
    arc(net, 0, 1, 0, 1, 2);
    arc(net, 0, 1, 0, 1, -1);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 4);
    static const int64_t want[] = {0, 3, 1, 1};
    assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* Loops never move flow between nodes, so each is independent:
 *   a0 loop at 0, cap 5, cost -3  -> full: -15
 *   a1 loop at 0, cap 4, cost 2   -> empty: 0
 *   a2 loop at 1, cap 0, cost -7  -> empty: 0
 *   a3 loop at 1, [3,6], cost 4   -> at its lower bound: 12
 *   a4 0->1 cap 2 cost 1 carries the 2 units of supply: 2
 * Optimum -15 + 12 + 2 = -1. */
static void test_loop_arcs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(2);
    supply(net, 0, 2);
    supply(net, 1, -2);
    arc(net, 0, 0, 0, 5, -3);
    arc(net, 0, 0, 0, 4, 2);
    arc(net, 1, 1, 0, 0, -7);
    arc(net, 1, 1, 3, 6, 4);
    arc(net, 0, 1, 0, 2, 1);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, -1);
    static const int64_t want[] = {5, 0, 0, 3, 2};
    assert_flows(net, want, 5);
    pl_flownet_free(net);
}

/* Zero-capacity arcs are unusable however cheap:
 *   a0 0->1 cap 0 cost -10,  a1 0->2 cap 0 cost -5,
 *   a2 0->1 cap 3 cost 2,    a3 1->2 cap 5 cost 1,  a4 0->2 cap 9 cost 4.
 * 3 units from 0 to 2: 0-1-2 costs 3 < 4 and holds all 3 -> 9. */
static void test_zero_capacity_arcs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 3);
    supply(net, 2, -3);
    arc(net, 0, 1, 0, 0, -10);
    arc(net, 0, 2, 0, 0, -5);
    arc(net, 0, 1, 0, 3, 2);
    arc(net, 1, 2, 0, 5, 1);
    arc(net, 0, 2, 0, 9, 4);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 9);
    static const int64_t want[] = {0, 0, 3, 3, 0};
    assert_flows(net, want, 5);
    pl_flownet_free(net);
}

/* Transportation problem, infinite arcs, sources 0 (5) and 1 (4), sinks
 * 2 (-3), 3 (-4), 4 (-2); cost rows: from 0: 4 6 9, from 1: 5 3 8.
 * Source 1 is 3 cheaper than 0 at sink 3 but only 1 cheaper at sink 4 and
 * 1 dearer at sink 2, so it sends all 4 units to sink 3 (12); source 0 serves
 * sinks 2 and 4: 3*4 + 2*9 = 30. Each exchange of one unit is dearer
 * (e.g. 1->4 & 0->3 instead of 1->3 & 0->4: 8+6 > 3+9). Optimum 42. */
static void test_several_sources_and_sinks(void **state)
{
    (void)state;
    pl_flownet *net = new_net(5);
    supply(net, 0, 5);
    supply(net, 1, 4);
    supply(net, 2, -3);
    supply(net, 3, -4);
    supply(net, 4, -2);
    static const int64_t c[2][3] = {{4, 6, 9}, {5, 3, 8}};
    for (int32_t s = 0; s < 2; s++)
        for (int32_t t = 0; t < 3; t++)
            arc(net, s, 2 + t, 0, PL_CAP_INF, c[s][t]);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 42);
    static const int64_t want[] = {3, 0, 2, 0, 4, 0};
    assert_flows(net, want, 6);
    pl_flownet_free(net);
}

/* An infinite arc with negative cost but no negative cycle: the solver first
 * saturates it at the normaliser's finite stand-in for infinity and must
 * route almost all of that back.
 *   a0 0->1 inf cost -3,  a1 1->2 cap 4 cost 1,  a2 1->0 cap 5 cost 5.
 * 2 units go 0-1-2 at -2 each (-4); the cycle 0-1-0 costs -3+5 = 2 > 0, so
 * a2 stays empty. Optimum -4, flows 2 2 0. */
static void test_negative_infinite_arc(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 2);
    supply(net, 2, -2);
    arc(net, 0, 1, 0, PL_CAP_INF, -3);
    arc(net, 1, 2, 0, 4, 1);
    arc(net, 1, 0, 0, 5, 5);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, -4);
    static const int64_t want[] = {2, 2, 0};
    assert_flows(net, want, 3);
    pl_flownet_free(net);
}

/* ---- error paths ------------------------------------------------------- */

/* 5 units from 0 to 2 but the only route has a 3-unit arc. */
static void test_infeasible(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 5);
    supply(net, 2, -5);
    arc(net, 0, 1, 0, 3, 1);
    arc(net, 1, 2, 0, 10, 1);
    assert_pl_status(pl_test_solve(net, "ssp", NULL), PL_EINFEASIBLE);
    assert_true(strlen(pl_last_error()) > 0);
    assert_non_null(strstr(pl_last_error(), "2 units"));
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* A feasible network with a negative cycle 0-1-0 of infinite arcs. */
static void test_unbounded(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 1);
    supply(net, 2, -1);
    arc(net, 0, 1, 0, PL_CAP_INF, -2);
    arc(net, 1, 0, 0, PL_CAP_INF, 1);
    arc(net, 1, 2, 0, 1, 0);
    assert_pl_status(pl_test_solve(net, "ssp", NULL), PL_EUNBOUNDED);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* classic6 needs exactly 3 augmentations (see its comment). */
static void test_max_iterations(void **state)
{
    (void)state;
    pl_flownet *net = classic6();
    pl_solve_stats stats;
    assert_pl_status(solve_limited(net, 1, &stats), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "limit"));
    assert_false(pl_flownet_has_solution(net));
    assert_pl_status(solve_limited(net, 2, &stats), PL_ELIMIT);
    assert_pl_ok(solve_limited(net, 3, &stats));
    assert_int_equal(stats.iterations, 3);
    assert_string_equal(stats.solver, "ssp");
    int64_t cost = 0;
    assert_pl_ok(pl_flownet_solution_cost(net, &cost));
    assert_int_equal(cost, 34);
    pl_flownet_free(net);
}

/* ---- dual certificate ---------------------------------------------------- */

/* A 30-node network from a fixed formula: an infinite positive-cost backbone
 * in both directions (so every supply is routable) plus 80 extra arcs with
 * costs in [-20, 20], some lower bounds and parallel/loop arcs. The check is
 * done here rather than trusting pl_flow_verify: flows within bounds,
 * conservation, and reduced cost cost + pi(u) - pi(v) >= 0 below the upper
 * bound and <= 0 above the lower bound. */
static pl_flownet *formula_net(void)
{
    const int32_t n = 30;
    pl_flownet *net = new_net(n);
    supply(net, 0, 15);
    supply(net, 10, -5);
    supply(net, 29, -10);
    for (int32_t v = 0; v + 1 < n; v++) {
        arc(net, v, v + 1, 0, PL_CAP_INF, 50);
        arc(net, v + 1, v, 0, PL_CAP_INF, 50);
    }
    for (int32_t k = 0; k < 80; k++) {
        int32_t t = (k * 7 + 3) % n, h = (k * 11 + 5) % n;
        int64_t hi = (k * 5) % 9, lo = (k % 6 == 0) ? hi / 2 : 0;
        int64_t c = ((k * 37) % 41) - 20;
        arc(net, t, h, lo, hi, c);
    }
    return net;
}

static void test_potentials_certify_optimality(void **state)
{
    (void)state;
    pl_flownet *net = formula_net();
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    const int64_t *flow = pl_flownet_flows(net);
    const int64_t *pi = pl_flownet_potentials(net);
    assert_non_null(flow);
    assert_non_null(pi);
    int32_t n = pl_flownet_node_count(net), m = pl_flownet_arc_count(net);
    int64_t *bal = calloc((size_t)n, sizeof *bal);
    assert_non_null(bal);
    int64_t total = 0;
    int tight_negative = 0;
    for (int32_t a = 0; a < m; a++) {
        pl_arc_info ai;
        assert_pl_ok(pl_flownet_get_arc(net, a, &ai));
        assert_in_range(flow[a], ai.lower, ai.upper);
        int64_t rc = ai.cost + pi[ai.tail] - pi[ai.head];
        if (flow[a] < ai.upper && rc < 0)
            fail_msg("arc %d below its upper bound has reduced cost %lld", a, (long long)rc);
        if (flow[a] > ai.lower && rc > 0)
            fail_msg("arc %d above its lower bound has reduced cost %lld", a, (long long)rc);
        tight_negative += rc < 0;
        bal[ai.tail] += flow[a];
        bal[ai.head] -= flow[a];
        total += flow[a] * ai.cost;
    }
    for (int32_t v = 0; v < n; v++) {
        int64_t b;
        assert_pl_ok(pl_flownet_get_supply(net, v, &b));
        assert_int_equal(bal[v], b);
    }
    assert_int_equal(total, cost);
    /* Some arcs are held at their upper bound by a strictly negative reduced
     * cost: the certificate is not a trivial all-tight one. */
    assert_true(tight_negative > 0);
    /* The optimum, as also found by GLPK's simplex when this test was written. */
    assert_int_equal(cost, 1713);
    free(bal);
    pl_flownet_free(net);
}

/* ---- the solver called directly on a normalised problem ------------------- */

typedef struct direct_problem {
    pl_flow_problem p;
    int32_t first[16], arcs[32];
    uint8_t inf[16];
    int64_t flow[16], pot[16];
    pl_flow_solution out;
} direct_problem;

/* Build the CSR residual view pl_flownet_normalise would hand the solver. */
static void direct_build(direct_problem *d, int32_t n, int32_t m, const int32_t *tail,
                         const int32_t *head, const int64_t *cap, const int64_t *cost,
                         const int64_t *sup)
{
    memset(d, 0, sizeof *d);
    for (int32_t a = 0; a < m; a++) {
        d->first[tail[a] + 1]++;
        d->first[head[a] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        d->first[v + 1] += d->first[v];
    int32_t pos[16];
    memcpy(pos, d->first, sizeof pos);
    for (int32_t a = 0; a < m; a++) {
        d->arcs[pos[tail[a]]++] = 2 * a;
        d->arcs[pos[head[a]]++] = 2 * a + 1;
    }
    d->p = (pl_flow_problem){.n = n, .m = m, .tail = tail, .head = head, .cap = cap, .cost = cost,
                             .supply = sup, .out_first = d->first, .out_arcs = d->arcs,
                             .is_inf = d->inf, .cap_inf = 0};
    d->out = (pl_flow_solution){.flow = d->flow, .potential = d->pot, .iterations = -1};
}

/* The solver's own certificate: every residual arc with capacity left has
 * non-negative reduced cost. Same network as test_negative_costs. */
static void test_direct_residual_certificate(void **state)
{
    (void)state;
    static const int32_t tail[] = {0, 1, 0, 2, 1, 2}, head[] = {1, 3, 2, 3, 2, 1};
    static const int64_t cap[] = {3, 3, 5, 5, 2, 9}, cost[] = {-2, 1, 1, 1, -3, 4};
    static const int64_t sup[] = {4, 0, 0, -4};
    direct_problem d;
    direct_build(&d, 4, 6, tail, head, cap, cost, sup);
    assert_pl_ok(pl_solver_ssp.solve(&d.p, NULL, &d.out));
    int64_t total = 0, lowest = INT64_MAX;
    for (int32_t a = 0; a < 6; a++)
        total += d.flow[a] * cost[a];
    assert_int_equal(total, -7);
    for (int32_t r = 0; r < 12; r++) {
        if (pl_residual_cap(&d.p, d.flow, r) == 0)
            continue;
        int64_t rc = pl_residual_cost(&d.p, r) + d.pot[pl_residual_tail(&d.p, r)] -
                     d.pot[pl_residual_head(&d.p, r)];
        if (rc < 0)
            fail_msg("residual arc %d has reduced cost %lld", r, (long long)rc);
    }
    for (int32_t v = 0; v < 4; v++)
        lowest = d.pot[v] < lowest ? d.pot[v] : lowest;
    assert_int_equal(lowest, 0); /* potentials are reported shifted to minimum 0 */
    assert_true(d.out.iterations >= 1 && d.out.iterations <= 4);
}

/* The solver reports exactly how much supply is stranded: here 7 of node 0's
 * 9 units (arc 0->1 holds 2) plus node 3's 4 units (no arc leaves it). */
static void test_direct_infeasible_amount(void **state)
{
    (void)state;
    static const int32_t tail[] = {0, 1}, head[] = {1, 2};
    static const int64_t cap[] = {2, 10}, cost[] = {1, -1};
    static const int64_t sup[] = {9, 0, -13, 4};
    direct_problem d;
    direct_build(&d, 4, 2, tail, head, cap, cost, sup);
    assert_pl_status(pl_solver_ssp.solve(&d.p, NULL, &d.out), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "11 units"));
}

/* An empty problem and one with nothing to route need no augmentation. */
static void test_direct_nothing_to_do(void **state)
{
    (void)state;
    direct_problem d;
    direct_build(&d, 0, 0, NULL, NULL, NULL, NULL, NULL);
    assert_pl_ok(pl_solver_ssp.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);

    static const int32_t tail[] = {0, 1}, head[] = {1, 0};
    static const int64_t cap[] = {4, 4}, cost[] = {3, 0}, sup[] = {0, 0};
    direct_build(&d, 2, 2, tail, head, cap, cost, sup);
    assert_pl_ok(pl_solver_ssp.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);
    assert_int_equal(d.flow[0], 0);
    assert_int_equal(d.flow[1], 0);
}

/* ---- 200x200 assignment against the Hungarian algorithm ------------------ */

#define ASSIGN_N 200

/* Deterministic, irregular costs in [0, 999] (a mixing hash of i and j). */
static int64_t assign_cost(int32_t i, int32_t j)
{
    uint64_t x = (uint64_t)i * 1000003u + (uint64_t)j * 7919u + 12345u;
    x ^= x >> 16;
    x *= 0x45d9f3bu;
    x ^= x >> 16;
    x *= 0x45d9f3bu;
    x ^= x >> 16;
    return (int64_t)(x % 1000u);
}

/* Hungarian algorithm (shortest augmenting path with row/column potentials,
 * O(n^3)), 1-based as in the classical formulation; returns the minimum
 * total cost of a perfect assignment for cost c(i, j) + shift. */
static int64_t hungarian(int32_t n, int64_t shift)
{
    size_t sz = (size_t)n + 1;
    int64_t *u = calloc(sz, sizeof *u), *v = calloc(sz, sizeof *v), *minv = calloc(sz, sizeof *minv);
    int32_t *p = calloc(sz, sizeof *p), *way = calloc(sz, sizeof *way);
    char *used = calloc(sz, 1);
    assert_true(u && v && minv && p && way && used);
    for (int32_t i = 1; i <= n; i++) {
        p[0] = i;
        int32_t j0 = 0;
        for (int32_t j = 0; j <= n; j++) {
            minv[j] = INT64_MAX;
            used[j] = 0;
        }
        do {
            used[j0] = 1;
            int32_t i0 = p[j0], j1 = 0;
            int64_t delta = INT64_MAX;
            for (int32_t j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                int64_t cur = assign_cost(i0 - 1, j - 1) + shift - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int32_t j = 0; j <= n; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int32_t j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    int64_t total = 0;
    for (int32_t j = 1; j <= n; j++)
        total += assign_cost(p[j] - 1, j - 1) + shift;
    free(u);
    free(v);
    free(minv);
    free(p);
    free(way);
    free(used);
    return total;
}

/* Workers 0..n-1 (supply 1) to jobs n..2n-1 (demand 1), one unit arc each. */
static void check_assignment(int64_t shift)
{
    const int32_t n = ASSIGN_N;
    pl_flownet *net = new_net(2 * n);
    assert_pl_ok(pl_flownet_reserve(net, 2 * n, n * n));
    for (int32_t i = 0; i < n; i++) {
        supply(net, i, 1);
        supply(net, n + i, -1);
    }
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            arc(net, i, n + j, 0, 1, assign_cost(i, j) + shift);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, hungarian(n, shift));
    /* A real permutation: each job taken exactly once (workers by conservation). */
    const int64_t *flow = pl_flownet_flows(net);
    for (int32_t j = 0; j < n; j++) {
        int64_t in = 0;
        for (int32_t i = 0; i < n; i++)
            in += flow[(size_t)i * n + j];
        assert_int_equal(in, 1);
    }
    pl_flownet_free(net);
}

static void test_assignment_200(void **state)
{
    (void)state;
    check_assignment(0);
}

/* Same costs shifted to [-500, 499]: half the arcs start saturated, so the
 * solver first has to undo most of that flow. The optimum moves by exactly
 * n * shift, which the Hungarian run confirms independently. */
static void test_assignment_200_negative(void **state)
{
    (void)state;
    check_assignment(-500);
    assert_int_equal(hungarian(ASSIGN_N, -500), hungarian(ASSIGN_N, 0) - 500 * ASSIGN_N);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classic_six_nodes),
        cmocka_unit_test(test_negative_costs),
        cmocka_unit_test(test_negative_cycle_finite),
        cmocka_unit_test(test_lower_bounds),
        cmocka_unit_test(test_parallel_arcs),
        cmocka_unit_test(test_loop_arcs),
        cmocka_unit_test(test_zero_capacity_arcs),
        cmocka_unit_test(test_several_sources_and_sinks),
        cmocka_unit_test(test_negative_infinite_arc),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_unbounded),
        cmocka_unit_test(test_max_iterations),
        cmocka_unit_test(test_potentials_certify_optimality),
        cmocka_unit_test(test_direct_residual_certificate),
        cmocka_unit_test(test_direct_infeasible_amount),
        cmocka_unit_test(test_direct_nothing_to_do),
        cmocka_unit_test(test_assignment_200),
        cmocka_unit_test(test_assignment_200_negative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
