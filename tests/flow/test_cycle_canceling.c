/* The cycle-canceling solver on small networks whose optimal cost is worked
 * out by hand in the comments, on the failure paths (infeasible, unbounded,
 * iteration limit), and on random tiny networks against brute force. Every
 * successful solve goes through pl_test_solve, which also checks the
 * potentials certificate (opts.verify). */
#include "../common/testutil.h"
#include <stdlib.h>
#include <string.h>
#include "flow/flownet_impl.h"

#define CC "cycle-canceling"

static pl_flownet *new_net(int32_t nodes)
{
    pl_flownet *net = NULL;
    assert_pl_ok(pl_flownet_create(&net));
    if (nodes > 0)
        assert_pl_ok(pl_flownet_add_nodes(net, nodes, NULL));
    return net;
}

static int32_t arc(pl_flownet *net, int32_t t, int32_t h, int64_t lower, int64_t upper,
                   int64_t cost)
{
    int32_t id = -1;
    assert_pl_ok(pl_flownet_add_arc(net, t, h, lower, upper, cost, &id));
    return id;
}

static void supply(pl_flownet *net, int32_t v, int64_t b)
{
    assert_pl_ok(pl_flownet_set_supply(net, v, b));
}

static int64_t flow_of(const pl_flownet *net, int32_t a)
{
    int64_t f = -1;
    assert_pl_ok(pl_flownet_get_flow(net, a, &f));
    return f;
}

/* Solve with verification and check the optimal cost. */
static void expect_cost(pl_flownet *net, int64_t want)
{
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, CC, &cost));
    assert_int_equal(cost, want);
}

/* Solve with explicit options; returns the status, fills stats. */
static pl_status solve_opts(pl_flownet *net, int64_t max_iter, pl_solve_stats *stats)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = CC;
    o.verify = 1;
    o.max_iterations = max_iter;
    return pl_flownet_solve(net, &o, stats);
}

static void test_registered(void **state)
{
    (void)state;
    const pl_solver_ops *ops = NULL;
    assert_pl_ok(pl_solver_find(CC, &ops));
    assert_ptr_equal(ops, &pl_solver_cycle_canceling);
    assert_string_equal(ops->name, CC);
    assert_true(strlen(ops->description) > 10);
}

/* Transport: s1=0 (4), s2=1 (3), t1=2 (-5), t2=3 (-2).
 * arcs s1->t1 c2, s1->t2 c5, s2->t1 c3, s2->t2 c1 (caps 4, 4, 3, 3).
 * With x = f(s1->t1): f(s1->t2) = 4-x, f(s2->t1) = 5-x, f(s2->t2) = x-2,
 * x in [2,4]; cost = 2x + 5(4-x) + 3(5-x) + (x-2) = 33 - 5x, minimal at
 * x = 4: flows (4, 0, 1, 2), cost 13. */
static void test_transport(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 4);
    supply(net, 1, 3);
    supply(net, 2, -5);
    supply(net, 3, -2);
    int32_t a0 = arc(net, 0, 2, 0, 4, 2), a1 = arc(net, 0, 3, 0, 4, 5);
    int32_t a2 = arc(net, 1, 2, 0, 3, 3), a3 = arc(net, 1, 3, 0, 3, 1);
    expect_cost(net, 13);
    assert_int_equal(flow_of(net, a0), 4);
    assert_int_equal(flow_of(net, a1), 0);
    assert_int_equal(flow_of(net, a2), 1);
    assert_int_equal(flow_of(net, a3), 2);
    pl_flownet_free(net);
}

/* s=0 (2) to t=2 (-2). Route A: s->a c-3 cap 1, a->t c1 cap 5 (-2 per unit,
 * 1 unit). Route B: s->t c0 cap 5. Best: 1 unit each, cost -2 + 0 = -2. */
static void test_negative_costs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 2);
    supply(net, 2, -2);
    int32_t sa = arc(net, 0, 1, 0, 1, -3), at = arc(net, 1, 2, 0, 5, 1);
    int32_t st = arc(net, 0, 2, 0, 5, 0);
    expect_cost(net, -2);
    assert_int_equal(flow_of(net, sa), 1);
    assert_int_equal(flow_of(net, at), 1);
    assert_int_equal(flow_of(net, st), 1);
    pl_flownet_free(net);
}

/* A circulation with no supply at all: a->b c-4 cap 3, b->c c1 cap 5,
 * c->a c1 cap 2 is a cycle of cost -2 limited to 2 units: -4. Plus s=3 (1)
 * -> t=4 (-1) at cost 10: total 6. Exactly one cycle is cancelled: after
 * it the residual cycles are a-c-b-a (-1-1+4 = 2) and b-c-b (0). */
static void test_negative_cycle_finite(void **state)
{
    (void)state;
    pl_flownet *net = new_net(5);
    int32_t ab = arc(net, 0, 1, 0, 3, -4), bc = arc(net, 1, 2, 0, 5, 1);
    int32_t ca = arc(net, 2, 0, 0, 2, 1);
    supply(net, 3, 1);
    supply(net, 4, -1);
    arc(net, 3, 4, 0, 1, 10);
    expect_cost(net, 6);
    assert_int_equal(flow_of(net, ab), 2);
    assert_int_equal(flow_of(net, bc), 2);
    assert_int_equal(flow_of(net, ca), 2);

    pl_solve_stats stats;
    assert_pl_ok(solve_opts(net, 0, &stats));
    assert_int_equal(stats.iterations, 1);
    assert_string_equal(stats.solver, CC);
    pl_flownet_free(net);
}

/* s=0 (3) -> a=1 c1 cap 3, a -> t=2 c1 cap 5, t -> a c-3 cap 2. At a,
 * f(a->t) = 3 + x with x = f(t->a) <= 2 (a->t cap 5); cost = 3 + (3+x) - 3x
 * = 6 - 2x, so x = 2: flows (3, 5, 2), cost 2. The feasible flow (x = 0,
 * cost 6) must be improved by the cycle a-t-a. */
static void test_cycle_on_supply_path(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 3);
    supply(net, 2, -3);
    int32_t sa = arc(net, 0, 1, 0, 3, 1), at = arc(net, 1, 2, 0, 5, 1);
    int32_t ta = arc(net, 2, 1, 0, 2, -3);
    expect_cost(net, 2);
    assert_int_equal(flow_of(net, sa), 3);
    assert_int_equal(flow_of(net, at), 5);
    assert_int_equal(flow_of(net, ta), 2);
    pl_flownet_free(net);
}

/* s=0 (3) -> t=1 (-3): cheap arc c1 cap 10, dear arc c5 with lower bound 2
 * (upper 4). The 2 forced units cost 10, the third goes cheap: 11.
 * Second network, no supply: a->b lower = upper = 3 at c2 forces 3 units
 * back along b->a c-1 (cap 5): 6 - 3 = 3. */
static void test_lower_bounds(void **state)
{
    (void)state;
    pl_flownet *net = new_net(2);
    supply(net, 0, 3);
    supply(net, 1, -3);
    int32_t cheap = arc(net, 0, 1, 0, 10, 1), dear = arc(net, 0, 1, 2, 4, 5);
    expect_cost(net, 11);
    assert_int_equal(flow_of(net, cheap), 1);
    assert_int_equal(flow_of(net, dear), 2);
    pl_flownet_free(net);

    net = new_net(2);
    int32_t ab = arc(net, 0, 1, 3, 3, 2), ba = arc(net, 1, 0, 0, 5, -1);
    expect_cost(net, 3);
    assert_int_equal(flow_of(net, ab), 3);
    assert_int_equal(flow_of(net, ba), 3);
    pl_flownet_free(net);
}

/* Five units over three parallel arcs 0->1, each cap 2, costs 3, 1, 2:
 * 2 at 1 + 2 at 2 + 1 at 3 = 9. */
static void test_parallel_arcs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(2);
    supply(net, 0, 5);
    supply(net, 1, -5);
    int32_t c3 = arc(net, 0, 1, 0, 2, 3), c1 = arc(net, 0, 1, 0, 2, 1);
    int32_t c2 = arc(net, 0, 1, 0, 2, 2);
    expect_cost(net, 9);
    assert_int_equal(flow_of(net, c3), 1);
    assert_int_equal(flow_of(net, c1), 2);
    assert_int_equal(flow_of(net, c2), 2);
    pl_flownet_free(net);
}

/* Loops: 0->0 c-5 cap 3 is a negative cycle by itself, saturated: -15;
 * 0->0 c2 cap 4 stays empty; 1->1 c-1 cap 0 cannot carry anything; the
 * path 1 (1) -> 2 (-1) costs 1. Total -14. */
static void test_loops(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 1, 1);
    supply(net, 2, -1);
    int32_t neg = arc(net, 0, 0, 0, 3, -5), pos = arc(net, 0, 0, 0, 4, 2);
    int32_t zero = arc(net, 1, 1, 0, 0, -1), path = arc(net, 1, 2, 0, 1, 1);
    expect_cost(net, -14);
    assert_int_equal(flow_of(net, neg), 3);
    assert_int_equal(flow_of(net, pos), 0);
    assert_int_equal(flow_of(net, zero), 0);
    assert_int_equal(flow_of(net, path), 1);
    pl_flownet_free(net);
}

/* 0 (3) -> 1 (-3): the c1 arc has cap 0, so all 3 units take the c7 arc:
 * 21. The cycle 2->3 c-10 cap 0, 3->2 c1 cap 5 would pay -9 per unit but
 * cannot carry any: it adds 0. */
static void test_zero_capacity(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 3);
    supply(net, 1, -3);
    int32_t shut = arc(net, 0, 1, 0, 0, 1), open = arc(net, 0, 1, 0, 5, 7);
    int32_t cyc0 = arc(net, 2, 3, 0, 0, -10), cyc1 = arc(net, 3, 2, 0, 5, 1);
    expect_cost(net, 21);
    assert_int_equal(flow_of(net, shut), 0);
    assert_int_equal(flow_of(net, open), 3);
    assert_int_equal(flow_of(net, cyc0), 0);
    assert_int_equal(flow_of(net, cyc1), 0);
    pl_flownet_free(net);
}

/* A cycle of one infinite arc a->b c-3 and one finite arc b->a c1 cap 4 is
 * bounded by the finite arc: 4 units at -2 = -8 (the solver sees the
 * infinite arc as cap_inf and the driver repairs its potentials). */
static void test_infinite_arc_in_cycle(void **state)
{
    (void)state;
    pl_flownet *net = new_net(2);
    int32_t ab = arc(net, 0, 1, 0, PL_CAP_INF, -3), ba = arc(net, 1, 0, 0, 4, 1);
    expect_cost(net, -8);
    assert_int_equal(flow_of(net, ab), 4);
    assert_int_equal(flow_of(net, ba), 4);
    pl_flownet_free(net);
}

/* Costs near the 2^60 / n limit (n = 3, C = 2^58): the triangle
 * -2^58 + 2^56 + 2^56 = -2^57 per unit, 4 units: -2^59. */
static void test_large_costs(void **state)
{
    (void)state;
    const int64_t c = (int64_t)1 << 58;
    pl_flownet *net = new_net(3);
    arc(net, 0, 1, 0, 4, -c);
    arc(net, 1, 2, 0, 4, c / 4);
    arc(net, 2, 0, 0, 4, c / 4);
    expect_cost(net, -((int64_t)1 << 59));
    pl_flownet_free(net);
}

/* Supply 10 at s=0, demand 10 at t=3, min cut a->t 3 + s->b 4 = 7: the
 * solver names the 3 units it cannot route. Unbalanced supplies are
 * infeasible too (caught before the solver). No solution is kept. */
static void test_infeasible(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 10);
    supply(net, 3, -10);
    arc(net, 0, 1, 0, 4, 1);
    arc(net, 0, 2, 0, 4, 1);
    arc(net, 1, 3, 0, 3, 1);
    arc(net, 2, 3, 0, 10, 1);
    pl_solve_stats stats;
    assert_pl_status(solve_opts(net, 0, &stats), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "3 of 10"));
    assert_false(pl_flownet_has_solution(net));

    supply(net, 3, -9);
    int64_t cost = 0;
    assert_pl_status(pl_test_solve(net, CC, &cost), PL_EINFEASIBLE);
    assert_true(strlen(pl_last_error()) > 0);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* a->b c-1 and b->a c0, both infinite: a cycle of cost -1 with no limit. */
static void test_unbounded(void **state)
{
    (void)state;
    pl_flownet *net = new_net(2);
    arc(net, 0, 1, 0, PL_CAP_INF, -1);
    arc(net, 1, 0, 0, PL_CAP_INF, 0);
    pl_solve_stats stats;
    assert_pl_status(solve_opts(net, 0, &stats), PL_EUNBOUNDED);
    assert_true(strlen(pl_last_error()) > 0);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* Three disjoint triangles with costs (-3, 1, 1), i.e. -1 per unit, and
 * uniform capacities 1, 2, 3. Zero supplies make the feasible flow 0; each
 * triangle is the only negative cycle of its component and one
 * cancellation saturates it, so exactly 3 cycles are cancelled, for a cost
 * of -1 - 2 - 3 = -6. A limit of 2 stops short, a limit of 3 does not. */
static pl_flownet *three_triangles(void)
{
    pl_flownet *net = new_net(9);
    for (int32_t k = 0; k < 3; k++) {
        int32_t b = 3 * k;
        arc(net, b, b + 1, 0, k + 1, -3);
        arc(net, b + 1, b + 2, 0, k + 1, 1);
        arc(net, b + 2, b, 0, k + 1, 1);
    }
    return net;
}

static void test_max_iterations(void **state)
{
    (void)state;
    pl_flownet *net = three_triangles();
    pl_solve_stats stats;

    assert_pl_status(solve_opts(net, 2, &stats), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "max_iterations"));
    assert_false(pl_flownet_has_solution(net));
    assert_int_equal(stats.iterations, 2);

    assert_pl_ok(solve_opts(net, 3, &stats));
    assert_int_equal(stats.iterations, 3);
    int64_t cost = 0;
    assert_pl_ok(pl_flownet_solution_cost(net, &cost));
    assert_int_equal(cost, -6);

    assert_pl_ok(solve_opts(net, 0, &stats));
    assert_int_equal(stats.iterations, 3);
    pl_flownet_free(net);
}

static void test_empty(void **state)
{
    (void)state;
    pl_flownet *net = new_net(0);
    expect_cost(net, 0);
    pl_flownet_free(net);

    net = new_net(3);
    expect_cost(net, 0);
    pl_flownet_free(net);
}

/* ---- brute force on tiny random networks ------------------------------ */

#define BF_MAX_ARCS 6

typedef struct bf_net {
    int32_t n, m;
    int32_t tail[BF_MAX_ARCS], head[BF_MAX_ARCS];
    int64_t lower[BF_MAX_ARCS], upper[BF_MAX_ARCS], cost[BF_MAX_ARCS];
    int64_t supply[4];
} bf_net;

/* Enumerate every integer flow within the bounds; *found = 0 if none meets
 * the supplies. */
static int64_t brute_force(const bf_net *g, int *found)
{
    int64_t f[BF_MAX_ARCS], best = INT64_MAX;
    for (int32_t a = 0; a < g->m; a++)
        f[a] = g->lower[a];
    *found = 0;
    for (;;) {
        int64_t bal[4] = {0}, cost = 0;
        for (int32_t a = 0; a < g->m; a++) {
            bal[g->tail[a]] += f[a];
            bal[g->head[a]] -= f[a];
            cost += f[a] * g->cost[a];
        }
        int ok = 1;
        for (int32_t v = 0; v < g->n; v++)
            ok &= bal[v] == g->supply[v];
        if (ok && cost < best) {
            best = cost;
            *found = 1;
        }
        int32_t a = 0;
        while (a < g->m && f[a] == g->upper[a])
            f[a] = g->lower[a], a++;
        if (a == g->m)
            return best;
        f[a]++;
    }
}

static void random_bf_net(pl_test_rng *r, bf_net *g)
{
    g->n = (int32_t)pl_test_range(r, 2, 4);
    g->m = (int32_t)pl_test_range(r, 1, BF_MAX_ARCS);
    int64_t flow[BF_MAX_ARCS];
    for (int32_t a = 0; a < g->m; a++) {
        g->tail[a] = (int32_t)pl_test_range(r, 0, g->n - 1);
        g->head[a] = (int32_t)pl_test_range(r, 0, g->n - 1);
        g->lower[a] = pl_test_range(r, 0, 3) == 0 ? pl_test_range(r, 1, 2) : 0;
        g->upper[a] = g->lower[a] + pl_test_range(r, 0, 3);
        g->cost[a] = pl_test_range(r, -5, 5);
        flow[a] = pl_test_range(r, g->lower[a], g->upper[a]);
    }
    memset(g->supply, 0, sizeof g->supply);
    if (pl_test_range(r, 0, 3) > 0) {
        /* Supplies of a random flow within the bounds: feasible. */
        for (int32_t a = 0; a < g->m; a++) {
            g->supply[g->tail[a]] += flow[a];
            g->supply[g->head[a]] -= flow[a];
        }
    } else {
        int64_t u = pl_test_range(r, 1, 4);
        g->supply[pl_test_range(r, 0, g->n - 1)] += u;
        g->supply[pl_test_range(r, 0, g->n - 1)] -= u;
    }
}

static pl_flownet *bf_to_net(const bf_net *g)
{
    pl_flownet *net = new_net(g->n);
    for (int32_t v = 0; v < g->n; v++)
        supply(net, v, g->supply[v]);
    for (int32_t a = 0; a < g->m; a++)
        arc(net, g->tail[a], g->head[a], g->lower[a], g->upper[a], g->cost[a]);
    return net;
}

/* Random networks with loops, parallel arcs, lower bounds and negative
 * costs: same optimal cost as exhaustive enumeration, or both infeasible. */
static void test_random_brute_force(void **state)
{
    (void)state;
    pl_test_rng rng = {987654321};
    int solved = 0, infeasible = 0;
    for (int iter = 0; iter < 3000; iter++) {
        bf_net g;
        random_bf_net(&rng, &g);
        int found;
        int64_t want = brute_force(&g, &found);
        pl_flownet *net = bf_to_net(&g);
        int64_t cost = 0;
        pl_status st = pl_test_solve(net, CC, &cost);
        if (!found) {
            if (st != PL_EINFEASIBLE)
                fail_msg("iteration %d: %s, brute force finds no feasible flow", iter,
                         pl_status_name(st));
            infeasible++;
        } else {
            if (st != PL_OK)
                fail_msg("iteration %d: %s (%s), brute force cost %lld", iter,
                         pl_status_name(st), pl_last_error(), (long long)want);
            if (cost != want)
                fail_msg("iteration %d: cost %lld, brute force %lld", iter, (long long)cost,
                         (long long)want);
            solved++;
        }
        pl_flownet_free(net);
    }
    assert_true(solved > 1000);
    assert_true(infeasible > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),
        cmocka_unit_test(test_transport),
        cmocka_unit_test(test_negative_costs),
        cmocka_unit_test(test_negative_cycle_finite),
        cmocka_unit_test(test_cycle_on_supply_path),
        cmocka_unit_test(test_lower_bounds),
        cmocka_unit_test(test_parallel_arcs),
        cmocka_unit_test(test_loops),
        cmocka_unit_test(test_zero_capacity),
        cmocka_unit_test(test_infinite_arc_in_cycle),
        cmocka_unit_test(test_large_costs),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_unbounded),
        cmocka_unit_test(test_max_iterations),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_random_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
