/* Tests of the relaxation solver ("relaxation"): the shared battery of
 * common/solver_cases.h (hand-computed cases, error paths with the
 * closed-set proof, direct calls, fixtures, random networks against ssp,
 * warm re-solves), plus infeasibility found by the price floor's max-flow
 * test, the memory report, larger random networks, and warm re-solves after
 * task churn against cold solves. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/solver_cases.h"
#include "internal/flownet_impl.h"

/* Per-node arrays only: 33 bytes for each of n + 1 entries. */
static void direct_memory(sc_direct *d)
{
    assert_int_equal(d->out.memory_bytes, 33 * 5);
}

static const sc_solver RX = {
    .name = "relaxation",
    .ops = &pl_solver_relaxation,
    .flags = SC_WARM | SC_VS_SSP | SC_UNTRUSTED_WARM,
    /* Every infeasible network of the battery is caught by a closed set. */
    .infeasible_says = "no flow satisfies the supplies and arc bounds",
    .direct_checks = direct_memory,
};

static pl_status solve_rx(pl_flownet *net, int cold, pl_solve_stats *stats, int64_t *cost)
{
    pl_solve_opts o = sc_opts(&RX);
    o.cold_start = cold;
    return sc_solve(net, &o, stats, cost);
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
    assert_pl_status(solve_rx(net, 1, NULL, NULL), PL_EINFEASIBLE);
    assert_string_equal(pl_last_error(), "relaxation: no flow satisfies the supplies and arc bounds: "
                                        "7 of the 7 units of supply cannot reach any demand (7 of them at node 4)");
    assert_pl_status(pl_test_solve(net, "ssp", NULL), PL_EINFEASIBLE);
    /* With the demand moved to node 4 (reachable) it solves, like ssp. */
    sc_supply(net, 2, 0);
    sc_supply(net, 4, -7);
    int64_t want = 0, got = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &want));
    assert_pl_ok(solve_rx(net, 1, NULL, &got));
    assert_int_equal(got, want);
    pl_flownet_free(net);
}

/* 150 larger, denser networks with wide costs. */
static void test_random_larger(void **state)
{
    (void)state;
    pl_randnet_opts ro;
    sc_larger_randnet(&ro);
    pl_solve_opts o = sc_opts(&RX);
    sc_agree_with_ssp(&o, &ro, 2, 75);
    sc_agree_with_ssp(&o, &ro, 3, 75);
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
    assert_pl_ok(solve_rx(net, 0, &stats, &cost));
    assert_int_equal(cost, 1115043);
    pl_test_rng rng = {17}, rng2 = {17};
    int64_t warm_total = 0, cold_total = 0;
    for (int round = 0; round < 6; round++) {
        sc_churn(&rng, net, 16);
        sc_churn(&rng2, twin, 16);
        int64_t warm_cost = 0, cold_cost = 0;
        assert_pl_ok(solve_rx(net, 0, &stats, &warm_cost));
        assert_int_equal(stats.warm, 1);
        assert_pl_ok(solve_rx(twin, 1, &cold, &cold_cost));
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
    const struct CMUnitTest own[] = {
        cmocka_unit_test(test_infeasible_price_floor),
        cmocka_unit_test(test_random_larger),
        cmocka_unit_test(test_warm_after_tasks_change),
    };
    return sc_run_suite(&RX, own, sizeof own / sizeof own[0]);
}
