/* Tests of the relaxation solver ("relaxation"): the shared hand-computed
 * cases, the error paths (infeasible found by a closed set and by the price
 * floor's max-flow test, iteration limit), costs near the library's limit,
 * direct calls on a normalised problem (certificate, memory report, warm
 * start from the optimum and from unusable potentials), every Firmament
 * fixture, agreement with "ssp" on hundreds of random networks, and warm
 * re-solves after random changes and after task churn against cold solves. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/solver_cases.h"
#include "flow/flownet_impl.h"

#define RX "relaxation"

/* ---- helpers ------------------------------------------------------------- */

static pl_status solve_rx(pl_flownet *net, int64_t limit, int cold, pl_solve_stats *stats, int64_t *cost)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = RX;
    o.verify = 1;
    o.max_iterations = limit;
    o.cold_start = cold;
    pl_status st = pl_flownet_solve(net, &o, stats);
    if (st == PL_OK && cost)
        st = pl_flownet_solution_cost(net, cost);
    return st;
}

static void test_registered(void **state)
{
    (void)state;
    const pl_solver_ops *ops = NULL;
    assert_pl_ok(pl_solver_find(RX, &ops));
    assert_ptr_equal(ops, &pl_solver_relaxation);
    assert_string_equal(ops->name, RX);
    assert_true(ops->flags & PL_SOLVER_WARM_START);
    assert_null(ops->free_state);
    assert_true(strlen(ops->description) > 10);
}

/* A chain of 9 arcs of cost 2^60 / 10: the prices fall to about -0.9 *
 * 2^60, within the solver's +-2^61 range, and the answer is exact. */
static void test_huge_cost_chain(void **state)
{
    (void)state;
    const int64_t D = ((int64_t)1 << 60) / 10;
    pl_flownet *net = sc_new_net(10);
    sc_supply(net, 0, 1);
    sc_supply(net, 9, -1);
    for (int32_t v = 0; v < 9; v++)
        sc_arc(net, v, v + 1, 0, 1, D);
    int64_t cost = 0;
    assert_pl_ok(solve_rx(net, 0, 1, NULL, &cost));
    assert_int_equal(cost, 9 * D);
    pl_flownet_free(net);
}

/* ---- error paths ------------------------------------------------------- */

static void expect_closed_set(pl_flownet *net)
{
    assert_pl_status(solve_rx(net, 0, 1, NULL, NULL), PL_EINFEASIBLE);
    if (!strstr(pl_last_error(), "no residual arc leaves"))
        fail_msg("expected the closed-set proof, got: %s", pl_last_error());
    assert_false(pl_flownet_has_solution(net));
}

static void test_infeasible_closed_set(void **state)
{
    (void)state;
    /* Capacity: 5 units but the only route holds 3. */
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 5);
    sc_supply(net, 2, -5);
    sc_arc(net, 0, 1, 0, 3, 1);
    sc_arc(net, 1, 2, 0, 10, 1);
    expect_closed_set(net);
    pl_flownet_free(net);

    /* A supply node with no arc at all. */
    net = sc_new_net(3);
    sc_supply(net, 0, 1);
    sc_supply(net, 2, -1);
    sc_arc(net, 1, 2, 0, 10, 1);
    expect_closed_set(net);
    pl_flownet_free(net);

    /* Arcs everywhere but the wrong way round, with negative costs that
     * invite circulation. */
    net = sc_new_net(4);
    sc_supply(net, 0, 2);
    sc_supply(net, 3, -2);
    sc_arc(net, 3, 0, 0, 5, -1);
    sc_arc(net, 0, 1, 0, 5, -2);
    sc_arc(net, 1, 0, 0, 5, 1);
    sc_arc(net, 2, 3, 0, 5, 1);
    expect_closed_set(net);
    pl_flownet_free(net);

    /* A lower bound that cannot be met. */
    net = sc_new_net(2);
    sc_arc(net, 0, 1, 2, 4, 1);
    expect_closed_set(net);
    pl_flownet_free(net);
}

/* Node 2 demands 7 units but no arc with capacity enters it (only a loop
 * and an arc of capacity 0), while the 7 units supplied at node 3 can
 * circulate forever on the others, two of them of infinite capacity: no set
 * the iterations build is closed, the prices fall without bound, and the
 * max-flow test behind the price floor reports the infeasibility. (Found
 * among the random networks of flow_random.) */
static void test_infeasible_price_floor(void **state)
{
    (void)state;
    static const struct { int32_t t, h; int64_t cap, cost; } arcs[] = {
        {1, 5, 4, 4},   {2, 2, 6, -5},  {3, 1, 7, 0},   {0, 1, 10, 16}, {1, 0, 7, -10},
        {0, 5, 1, -7},  {1, 5, -1, 5},  {0, 1, 10, -6}, {3, 3, 0, -1},  {1, 5, 0, -15},
        {4, 4, 2, -17}, {0, 5, 3, -11}, {5, 4, 8, 3},   {3, 1, -1, 2},  {2, 3, 0, 18},
        {2, 1, 1, 4},   {1, 4, 1, -17}, {0, 0, 5, -8},  {2, 2, 10, -19}, {3, 4, 2, 1},
    };
    pl_flownet *net = sc_new_net(6);
    sc_supply(net, 2, -7);
    sc_supply(net, 3, 7);
    for (size_t i = 0; i < sizeof arcs / sizeof arcs[0]; i++)
        sc_arc(net, arcs[i].t, arcs[i].h, 0, arcs[i].cap < 0 ? PL_CAP_INF : arcs[i].cap, arcs[i].cost);
    assert_pl_status(solve_rx(net, 0, 1, NULL, NULL), PL_EINFEASIBLE);
    assert_string_equal(pl_last_error(), "relaxation: no flow satisfies the supplies and arc bounds");
    assert_pl_status(pl_test_solve(net, "ssp", NULL), PL_EINFEASIBLE);
    /* With the demand moved to node 4 (reachable) it solves, like ssp. */
    sc_supply(net, 2, 0);
    sc_supply(net, 4, -7);
    int64_t want = 0, got = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &want));
    assert_pl_ok(solve_rx(net, 0, 1, NULL, &got));
    assert_int_equal(got, want);
    pl_flownet_free(net);
}

/* max_iterations caps ascents plus augmentations. */
static void test_max_iterations(void **state)
{
    (void)state;
    pl_flownet *net = sc_classic6();
    pl_solve_stats stats;
    assert_pl_ok(solve_rx(net, 0, 1, &stats, NULL));
    int64_t needed = stats.iterations;
    assert_true(needed > 2);
    assert_string_equal(stats.solver, RX);
    assert_pl_status(solve_rx(net, 1, 1, &stats, NULL), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "limit"));
    assert_false(pl_flownet_has_solution(net));
    assert_pl_status(solve_rx(net, needed - 1, 1, &stats, NULL), PL_ELIMIT);
    int64_t cost = 0;
    assert_pl_ok(solve_rx(net, needed, 1, &stats, &cost));
    assert_int_equal(stats.iterations, needed);
    assert_int_equal(cost, 34);
    pl_flownet_free(net);
}

/* ---- the solver called directly on a normalised problem ------------------- */

static void test_direct_certificate_and_memory(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    assert_int_equal(sc_direct_check(&d), -7);
    int64_t lowest = INT64_MAX;
    for (int32_t v = 0; v < 4; v++)
        lowest = d.pot[v] < lowest ? d.pot[v] : lowest;
    assert_int_equal(lowest, 0); /* potentials are reported shifted to minimum 0 */
    assert_true(d.out.iterations > 0);
    /* Per-node arrays only: 33 bytes for each of n + 1 entries. */
    assert_int_equal(d.out.memory_bytes, 33 * 5);
}

/* Warm start from the optimal flow and its potentials: nothing to do, no
 * iteration, and the answer comes back unchanged. */
static void test_direct_warm_from_optimum(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    int64_t flow[6], pot[4];
    memcpy(flow, d.flow, sizeof flow);
    memcpy(pot, d.pot, sizeof pot);
    d.p.warm = 1;
    d.out.iterations = -1;
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);
    assert_memory_equal(flow, d.flow, sizeof flow);
    assert_memory_equal(pot, d.pot, sizeof pot);
    assert_int_equal(sc_direct_check(&d), -7);
}

/* Warm start from garbage: an arbitrary flow within bounds and potentials
 * beyond +-2^60 (not trusted: a cold start), then moderate garbage
 * potentials, which are used as they are. */
static void test_direct_warm_from_garbage(void **state)
{
    (void)state;
    static const int64_t f0[] = {1, 3, 5, 0, 2, 9};
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.p.warm = 1;
    memcpy(d.flow, f0, sizeof f0);
    d.pot[0] = INT64_MAX / 2;
    d.pot[1] = -(INT64_MAX / 2);
    d.pot[2] = 7;
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    assert_int_equal(sc_direct_check(&d), -7);

    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.p.warm = 1;
    memcpy(d.flow, f0, sizeof f0);
    static const int64_t p0[] = {100, -3, 55, 1};
    memcpy(d.pot, p0, sizeof p0);
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    assert_int_equal(sc_direct_check(&d), -7);

    /* Potentials at the edge of the trusted range, far apart: the solve
     * must stay within int64 and still be exact. */
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.p.warm = 1;
    d.pot[0] = (int64_t)1 << 60;
    d.pot[3] = -((int64_t)1 << 60);
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    assert_int_equal(sc_direct_check(&d), -7);
}

static void test_direct_nothing_to_do(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 0, 0, NULL, NULL, NULL, NULL, NULL);
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);

    static const int64_t zero[] = {0, 0, 0};
    sc_direct_build(&d, 3, 0, NULL, NULL, NULL, NULL, zero);
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);

    static const int32_t tail[] = {0, 1}, head[] = {1, 0};
    static const int64_t cap[] = {4, 4}, cost[] = {3, 0}, sup[] = {0, 0};
    sc_direct_build(&d, 2, 2, tail, head, cap, cost, sup);
    assert_pl_ok(pl_solver_relaxation.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.flow[0], 0);
    assert_int_equal(d.flow[1], 0);
    assert_int_equal(sc_direct_check(&d), 0);
}

/* ---- fixtures ------------------------------------------------------------ */

static void test_fixtures(void **state)
{
    (void)state;
    pl_test_fixture *fixtures;
    int count = pl_test_read_fixtures(&fixtures);
    assert_true(count >= 17);
    for (int i = 0; i < count; i++) {
        pl_flownet *net = pl_test_load_fixture(&fixtures[i]);
        int64_t cost = 0;
        pl_solve_stats stats;
        assert_pl_ok(solve_rx(net, 0, 0, &stats, &cost));
        if (cost != fixtures[i].cost)
            fail_msg("%s: cost %" PRId64 ", expected %" PRId64, fixtures[i].file, cost, fixtures[i].cost);
        assert_true(stats.memory_bytes > 0);
        pl_flownet_free(net);
    }
    free(fixtures);
}

/* ---- random networks against ssp ------------------------------------------ */

static void agree_with_ssp(const pl_randnet_opts *o, uint64_t seed, int count)
{
    pl_test_rng rng = {seed};
    int optimal = 0;
    for (int i = 0; i < count; i++) {
        pl_flownet *net = pl_randnet(&rng, o);
        assert_non_null(net);
        int64_t want = 0, got = 0;
        pl_status want_st = pl_test_solve(net, "ssp", &want);
        pl_status got_st = solve_rx(net, 0, 1, NULL, &got);
        if (got_st != want_st)
            fail_msg("network %d (seed %" PRIu64 "): relaxation says %s (%s), ssp says %s", i, seed,
                     pl_status_name(got_st), pl_last_error(), pl_status_name(want_st));
        if (got_st == PL_OK && got != want)
            fail_msg("network %d (seed %" PRIu64 "): relaxation %" PRId64 ", ssp %" PRId64, i, seed, got,
                     want);
        optimal += got_st == PL_OK;
        pl_flownet_free(net);
    }
    assert_true(optimal > count / 5);
    assert_true(optimal < count);
}

/* 400 small networks with every feature: negative costs, lower bounds,
 * infinite arcs (so infeasible and unbounded cases too). */
static void test_random_small(void **state)
{
    (void)state;
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    agree_with_ssp(&o, 1, 400);
}

/* Capacities and supplies, or costs, beyond 32 bits. */
static void test_random_wide(void **state)
{
    (void)state;
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    o.max_nodes = 30;
    o.max_arcs = 150;
    o.lower_bounds = 0;
    o.max_cap = (int64_t)1 << 34;
    o.max_supply = (int64_t)1 << 33;
    agree_with_ssp(&o, 5, 60);
    pl_randnet_opts_init(&o);
    o.max_nodes = 30;
    o.max_arcs = 150;
    o.lower_bounds = 0;
    o.max_cost = (int64_t)1 << 40;
    agree_with_ssp(&o, 6, 60);
}

/* 150 larger, denser networks with wide costs. */
static void test_random_larger(void **state)
{
    (void)state;
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    o.max_nodes = 60;
    o.max_arcs = 400;
    o.max_cap = 1000;
    o.max_cost = 1000000;
    o.max_supply = 300;
    o.lower_bounds = 0;
    agree_with_ssp(&o, 2, 75);
    agree_with_ssp(&o, 3, 75);
}

/* ---- warm starts ------------------------------------------------------------ */

/* Rounds of a few random changes; after each, the warm re-solve of one
 * network must match a cold solve of its twin. Returns the warm solves. */
static int warm_rounds(uint64_t seed, int32_t n, int32_t m, int64_t max_cost, int rounds, int per_round,
                       int structural)
{
    pl_test_rng rng = {seed};
    pl_flownet *warm = sc_warm_net(&rng, n, m, max_cost);
    pl_test_rng copy = {seed};
    pl_flownet *cold = sc_warm_net(&copy, n, m, max_cost);
    int warm_used = 0;
    for (int round = 0; round < rounds; round++) {
        pl_solve_stats ws, cs;
        int64_t wc = 0, cc = 0;
        pl_status wst = solve_rx(warm, 0, 0, &ws, &wc);
        pl_status cst = solve_rx(cold, 0, 1, &cs, &cc);
        if (wst != cst || wc != cc)
            fail_msg("seed %" PRIu64 " round %d: warm %s cost %" PRId64 " (%s), cold %s cost %" PRId64, seed,
                     round, pl_status_name(wst), wc, wst ? pl_last_error() : "", pl_status_name(cst), cc);
        assert_int_equal(cs.warm, 0);
        warm_used += ws.warm != 0;
        for (int c = 0; c < per_round; c++)
            sc_random_change(&rng, warm, cold, max_cost, structural);
    }
    pl_flownet_free(warm);
    pl_flownet_free(cold);
    return warm_used;
}

static void test_warm_random_changes(void **state)
{
    (void)state;
    int used = 0;
    for (uint64_t seed = 100; seed < 130; seed++)
        used += warm_rounds(seed, 8 + (int32_t)(seed % 10), 30, 20, 12, 1 + (int)(seed % 3), 0);
    for (uint64_t seed = 200; seed < 230; seed++)
        used += warm_rounds(seed, 20, 80, 100000, 12, 2, 0);
    assert_int_equal(used, 60 * 11); /* every solve after the first */
}

static void test_warm_structural_changes(void **state)
{
    (void)state;
    for (uint64_t seed = 300; seed < 330; seed++)
        warm_rounds(seed, 12, 40, 50, 12, 2, 1);
}

/* Networks that turn infeasible and back: the warm solver must agree with
 * ssp on the status as well as the cost after every change. */
static void test_warm_mixed_statuses(void **state)
{
    (void)state;
    pl_test_rng rng = {77};
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    o.inf_arcs = 0;
    int failures = 0;
    for (int i = 0; i < 60; i++) {
        pl_flownet *net = pl_randnet(&rng, &o);
        for (int round = 0; round < 6; round++) {
            int64_t want = 0, got = 0;
            pl_status got_st = solve_rx(net, 0, 0, NULL, &got);
            pl_status want_st = pl_test_solve(net, "ssp", &want);
            if (got_st != want_st || got != want)
                fail_msg("network %d round %d: relaxation %s %" PRId64 ", ssp %s %" PRId64, i, round,
                         pl_status_name(got_st), got, pl_status_name(want_st), want);
            failures += got_st != PL_OK;
            if (want_st == PL_OK) /* start the next round from relaxation's own answer */
                assert_pl_ok(solve_rx(net, 0, 0, NULL, NULL));
            sc_small_change(&rng, net);
        }
        pl_flownet_free(net);
    }
    assert_true(failures > 0);
}

static int32_t random_task(pl_test_rng *r, const pl_flownet *net)
{
    int32_t n = pl_flownet_node_count(net);
    for (int tries = 0; tries < 1000; tries++) {
        int32_t v = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t b = 0;
        if (!pl_flownet_node_removed(net, v) && pl_flownet_get_supply(net, v, &b) == PL_OK && b == 1)
            return v;
    }
    return -1;
}

/* One round of task churn on a scheduling network whose node 0 is the
 * sink: k tasks leave, k tasks like live ones (costs moved by 0..3) arrive. */
static void churn(pl_test_rng *rng, pl_flownet *net, int k)
{
    const int32_t sink = 0;
    int64_t b;
    for (int i = 0; i < k; i++) {
        int32_t v = random_task(rng, net);
        assert_true(v > 0);
        assert_pl_ok(pl_flownet_remove_node(net, v));
        assert_pl_ok(pl_flownet_get_supply(net, sink, &b));
        assert_pl_ok(pl_flownet_set_supply(net, sink, b + 1));
    }
    for (int i = 0; i < k; i++) {
        int32_t like = random_task(rng, net), v;
        assert_true(like > 0);
        assert_pl_ok(pl_flownet_add_node(net, NULL, 1, &v));
        int32_t m = pl_flownet_arc_count(net);
        for (int32_t a = 0; a < m; a++) {
            pl_arc_info info;
            if (pl_flownet_arc_removed(net, a) || pl_flownet_get_arc(net, a, &info) != PL_OK || info.tail != like)
                continue;
            assert_pl_ok(pl_flownet_add_arc(net, v, info.head, info.lower, info.upper,
                                            info.cost + pl_test_range(rng, 0, 3), NULL));
        }
        assert_pl_ok(pl_flownet_get_supply(net, sink, &b));
        assert_pl_ok(pl_flownet_set_supply(net, sink, b - 1));
    }
}

/* The scheduler's incremental case on the largest fixture (a Firmament
 * graph, 1600 tasks): each round 16 tasks leave and 16 arrive. The warm
 * solve (which starts by moving the departed tasks' deficits towards the
 * sink) must equal a cold solve and, over the rounds, need far fewer
 * iterations: measured 13-16 per warm solve against ~3,670 cold. */
static void test_warm_after_tasks_change(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_flownet *net, *twin;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &twin));
    int64_t b;
    assert_pl_ok(pl_flownet_get_supply(net, 0, &b));
    assert_true(b < 0);
    pl_solve_stats stats, cold;
    int64_t cost = 0;
    assert_pl_ok(solve_rx(net, 0, 0, &stats, &cost));
    assert_int_equal(cost, 1115043);
    pl_test_rng rng = {17}, rng2 = {17};
    int64_t warm_total = 0, cold_total = 0;
    for (int round = 0; round < 6; round++) {
        churn(&rng, net, 16);
        churn(&rng2, twin, 16);
        int64_t warm_cost = 0, cold_cost = 0;
        assert_pl_ok(solve_rx(net, 0, 0, &stats, &warm_cost));
        assert_int_equal(stats.warm, 1);
        assert_pl_ok(solve_rx(twin, 0, 1, &cold, &cold_cost));
        assert_int_equal(cold.warm, 0);
        if (warm_cost != cold_cost)
            fail_msg("round %d: warm cost %" PRId64 ", cold %" PRId64, round, warm_cost, cold_cost);
        warm_total += stats.iterations;
        cold_total += cold.iterations;
    }
    if (warm_total * 50 > cold_total)
        fail_msg("warm solves took %" PRId64 " iterations in all, cold %" PRId64, warm_total, cold_total);
    pl_flownet_free(net);
    pl_flownet_free(twin);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),
        SC_CASES(RX),
        SC_CASES_EXTRA(RX),
        cmocka_unit_test(test_huge_cost_chain),
        cmocka_unit_test(test_infeasible_closed_set),
        cmocka_unit_test(test_infeasible_price_floor),
        cmocka_unit_test(test_max_iterations),
        cmocka_unit_test(test_direct_certificate_and_memory),
        cmocka_unit_test(test_direct_warm_from_optimum),
        cmocka_unit_test(test_direct_warm_from_garbage),
        cmocka_unit_test(test_direct_nothing_to_do),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_random_small),
        cmocka_unit_test(test_random_larger),
        cmocka_unit_test(test_random_wide),
        cmocka_unit_test(test_warm_random_changes),
        cmocka_unit_test(test_warm_structural_changes),
        cmocka_unit_test(test_warm_mixed_statuses),
        cmocka_unit_test(test_warm_after_tasks_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
