/* Tests of the cost-scaling solver ("cost-scaling"): hand-computed optima on
 * small networks covering each feature of the normalised problem, the error
 * paths (infeasible, unbounded, iteration limit, bad scaling factor, price
 * overflow), direct calls on a normalised problem (certificate, warm start
 * from an optimal or unusable starting point, memory report, the choice
 * between the compact and the wide arc layout), the memory target, every
 * Firmament fixture, agreement with "ssp" on hundreds of random networks
 * (some with values beyond 32 bits), and warm re-solves after random changes
 * against cold solves. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/solver_cases.h"
#include "flow/flownet_impl.h"

#define CS "cost-scaling"

/* ---- helpers ------------------------------------------------------------- */

/* Solve with cost scaling and the certificate check; returns the status. */
static pl_status solve_cs(pl_flownet *net, int scaling, int64_t limit, int cold,
                          pl_solve_stats *stats, int64_t *cost)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = CS;
    o.verify = 1;
    o.scaling_factor = scaling;
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
    assert_pl_ok(pl_solver_find(CS, &ops));
    assert_ptr_equal(ops, &pl_solver_cost_scaling);
    assert_string_equal(ops->name, CS);
    assert_true(ops->flags & PL_SOLVER_WARM_START);
    assert_null(ops->free_state);
    assert_true(strlen(ops->description) > 10);
}

/* ---- cost-scaling only (shared cases: common/solver_cases.c) ------------ */

/* A chain of 9 arcs of cost C = 2^60 / 10 on 10 nodes is within the
 * library's limits (the cost of the path, 0.9 * 2^60, fits), but its
 * potentials scaled by n + 1 = 11 reach about 10 * 2^60 > 2^62: the solver
 * must say PL_EOVERFLOW instead of wrapping. ssp solves it. */
static void test_price_overflow(void **state)
{
    (void)state;
    const int64_t C = ((int64_t)1 << 60) / 10;
    pl_flownet *net = sc_new_net(10);
    sc_supply(net, 0, 1);
    sc_supply(net, 9, -1);
    for (int32_t v = 0; v < 9; v++)
        sc_arc(net, v, v + 1, 0, 1, C);
    assert_pl_status(solve_cs(net, 0, 0, 1, NULL, NULL), PL_EOVERFLOW);
    assert_non_null(strstr(pl_last_error(), "int64"));
    assert_false(pl_flownet_has_solution(net));
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 9 * C);
    pl_flownet_free(net);
}

/* ---- error paths ------------------------------------------------------- */

static void test_infeasible(void **state)
{
    (void)state;
    /* Capacity: 5 units but the only route holds 3. */
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 5);
    sc_supply(net, 2, -5);
    sc_arc(net, 0, 1, 0, 3, 1);
    sc_arc(net, 1, 2, 0, 10, 1);
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EINFEASIBLE);
    assert_true(strlen(pl_last_error()) > 0);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);

    /* A supply node with no arc at all. */
    net = sc_new_net(3);
    sc_supply(net, 0, 1);
    sc_supply(net, 2, -1);
    sc_arc(net, 1, 2, 0, 10, 1);
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EINFEASIBLE);
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
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EINFEASIBLE);
    pl_flownet_free(net);

    /* A lower bound that cannot be met. */
    net = sc_new_net(2);
    sc_arc(net, 0, 1, 2, 4, 1);
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EINFEASIBLE);
    pl_flownet_free(net);
}

/* max_iterations caps pushes + relabels. */
static void test_max_iterations(void **state)
{
    (void)state;
    pl_flownet *net = sc_classic6();
    pl_solve_stats stats;
    assert_pl_ok(solve_cs(net, 0, 0, 1, &stats, NULL));
    int64_t needed = stats.iterations;
    assert_true(needed > 2);
    assert_string_equal(stats.solver, CS);
    assert_pl_status(solve_cs(net, 0, 1, 1, &stats, NULL), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "limit"));
    assert_false(pl_flownet_has_solution(net));
    assert_pl_status(solve_cs(net, 0, needed - 1, 1, &stats, NULL), PL_ELIMIT);
    int64_t cost = 0;
    assert_pl_ok(solve_cs(net, 0, needed, 1, &stats, &cost));
    assert_int_equal(stats.iterations, needed);
    assert_int_equal(cost, 34);
    pl_flownet_free(net);
}

static void test_scaling_factor(void **state)
{
    (void)state;
    pl_flownet *net = sc_classic6();
    assert_pl_status(solve_cs(net, 1, 0, 1, NULL, NULL), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "scaling_factor"));
    assert_pl_status(solve_cs(net, -4, 0, 1, NULL, NULL), PL_EINVAL);
    static const int factors[] = {0, 2, 3, 16, 64, 1000000};
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++) {
        int64_t cost = 0;
        assert_pl_ok(solve_cs(net, factors[i], 0, 1, NULL, &cost));
        assert_int_equal(cost, 34);
    }
    pl_flownet_free(net);

    /* The largest fixture, with alpha 2 and 64. */
    char path[PL_PATH_MAX];
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    for (int f = 2; f <= 64; f *= 32) {
        int64_t cost = 0;
        assert_pl_ok(solve_cs(net, f, 0, 1, NULL, &cost));
        assert_int_equal(cost, 1115043);
    }
    pl_flownet_free(net);
}

/* ---- the solver called directly on a normalised problem ------------------- */

static void test_direct_certificate_and_memory(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(sc_direct_check(&d), -7);
    int64_t lowest = INT64_MAX;
    for (int32_t v = 0; v < 4; v++)
        lowest = d.pot[v] < lowest ? d.pot[v] : lowest;
    assert_int_equal(lowest, 0); /* potentials are reported shifted to minimum 0 */
    assert_true(d.out.iterations > 0);
    /* Compact layout: 32 bytes per arc (16 per residual arc) plus at most 64
     * per node. */
    assert_true(d.out.memory_bytes >= 32 * 6);
    assert_true(d.out.memory_bytes <= 32 * 6 + 64 * 5);
}

/* Solve d directly, check the certificate and the cost, and return the
 * reported memory. */
static int64_t direct_solve_memory(sc_direct *d, int64_t want_cost)
{
    assert_pl_ok(pl_solver_cost_scaling.solve(&d->p, NULL, &d->out));
    assert_int_equal(sc_direct_check(d), want_cost);
    return d->out.memory_bytes;
}

/* The wide layout takes over exactly when a capacity or a cost leaves
 * int32 (costs down to -INT32_MAX, so that negated they still fit); it costs
 * 8 more bytes per residual arc, which tells the layouts apart. The network
 * of sc_nc (optimum -7) with costs or capacities and supplies scaled by 2^31
 * keeps its optimal flow (scaled) and must be solved just the same. */
static void test_direct_wide_layout(void **state)
{
    (void)state;
    const int64_t big = (int64_t)1 << 31;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    int64_t compact = direct_solve_memory(&d, -7), wide = compact + 16 * 6;

    int64_t cost[6], cap[6], sup[4];
    for (int a = 0; a < 6; a++)
        cost[a] = sc_nc_cost[a] * big;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, cost, sc_nc_sup);
    assert_int_equal(direct_solve_memory(&d, -7 * big), wide);
    d.p.warm = 1; /* from the optimum: nothing to do in the wide layout either */
    assert_int_equal(direct_solve_memory(&d, -7 * big), wide);
    assert_int_equal(d.out.iterations, 0);

    for (int a = 0; a < 6; a++)
        cap[a] = sc_nc_cap[a] * big;
    for (int v = 0; v < 4; v++)
        sup[v] = sc_nc_sup[v] * big;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, cap, sc_nc_cost, sup);
    assert_int_equal(direct_solve_memory(&d, -7 * big), wide);

    /* The boundaries, on arc 5 (2 -> 1, unused at the optimum): cost
     * INT32_MAX and capacity INT32_MAX stay compact, cost INT32_MAX + 1
     * or capacity INT32_MAX + 1 do not. On the negative side, arc 4 (1 -> 2,
     * saturated at cost -3, and still saturated at a lower cost, so the
     * optimum changes by 2 units at the new cost): cost -INT32_MAX is
     * compact, INT32_MIN wide. */
    memcpy(cost, sc_nc_cost, sizeof cost);
    memcpy(cap, sc_nc_cap, sizeof cap);
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, cap, cost, sc_nc_sup);
    cost[5] = INT32_MAX;
    assert_int_equal(direct_solve_memory(&d, -7), compact);
    cost[5] = (int64_t)INT32_MAX + 1;
    assert_int_equal(direct_solve_memory(&d, -7), wide);
    cost[5] = sc_nc_cost[5];
    cap[5] = INT32_MAX;
    assert_int_equal(direct_solve_memory(&d, -7), compact);
    cap[5] = (int64_t)INT32_MAX + 1;
    assert_int_equal(direct_solve_memory(&d, -7), wide);
    cap[5] = sc_nc_cap[5];
    int64_t rest = -7 - 2 * sc_nc_cost[4];
    cost[4] = -INT32_MAX;
    assert_int_equal(direct_solve_memory(&d, rest + 2 * cost[4]), compact);
    cost[4] = INT32_MIN;
    assert_int_equal(direct_solve_memory(&d, rest + 2 * cost[4]), wide);
}

/* The project's memory target, <= 48 bytes per arc, on a network of about
 * 4000 arcs and 250 nodes (the compact layout gives 32 per arc plus 54 per
 * node, so 35.4 here; below 4 MiB no array is rounded to huge pages). */
static void test_memory_per_arc(void **state)
{
    (void)state;
    pl_test_rng rng = {11};
    pl_flownet *net = sc_warm_net(&rng, 250, 3500, 1000);
    pl_solve_stats stats;
    int64_t cost = 0, want = 0;
    assert_pl_ok(solve_cs(net, 0, 0, 1, &stats, &cost));
    assert_int_equal(stats.arcs, 3500 + 2 * 249);
    if (stats.memory_bytes > 48 * (int64_t)stats.arcs)
        fail_msg("%" PRId64 " bytes for %d arcs", stats.memory_bytes, stats.arcs);
    assert_true(stats.memory_bytes >= 32 * (int64_t)stats.arcs);
    assert_pl_ok(pl_test_solve(net, "network-simplex", &want));
    assert_int_equal(cost, want);
    pl_flownet_free(net);
}

/* Warm start from the optimal flow and its exact potentials: nothing to
 * do, no push or relabel, and the potentials come back unchanged (shifted to
 * minimum 0). */
static void test_direct_warm_from_optimum(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    int64_t flow[6], pot[4];
    memcpy(flow, d.flow, sizeof flow);
    memcpy(pot, d.pot, sizeof pot);
    d.p.warm = 1;
    d.out.iterations = -1;
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);
    assert_memory_equal(flow, d.flow, sizeof flow);
    assert_memory_equal(pot, d.pot, sizeof pot);
    assert_int_equal(sc_direct_check(&d), -7);
}

/* Warm start from garbage: an arbitrary flow within bounds and potentials
 * so far apart that scaling them by n + 1 overflows; the solver falls back
 * to zero prices and still finds the optimum. */
static void test_direct_warm_from_garbage(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.p.warm = 1;
    static const int64_t f0[] = {1, 3, 5, 0, 2, 9};
    memcpy(d.flow, f0, sizeof f0);
    d.pot[0] = INT64_MAX / 2;
    d.pot[1] = -(INT64_MAX / 2);
    d.pot[2] = 7;
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(sc_direct_check(&d), -7);

    /* Moderate garbage potentials are used as they are. */
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.p.warm = 1;
    memcpy(d.flow, f0, sizeof f0);
    static const int64_t p0[] = {100, -3, 55, 1};
    memcpy(d.pot, p0, sizeof p0);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(sc_direct_check(&d), -7);
}

/* Supply stranded behind a capacity-2 arc; reported as infeasible. */
static void test_direct_infeasible(void **state)
{
    (void)state;
    static const int32_t tail[] = {0, 1}, head[] = {1, 2};
    static const int64_t cap[] = {2, 10}, cost[] = {1, -1};
    static const int64_t sup[] = {9, 0, -13, 4};
    sc_direct d;
    sc_direct_build(&d, 4, 2, tail, head, cap, cost, sup);
    assert_pl_status(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "supplies"));
}

static void test_direct_nothing_to_do(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 0, 0, NULL, NULL, NULL, NULL, NULL);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);

    /* Nodes but no arcs and no supply. */
    static const int64_t zero[] = {0, 0, 0};
    sc_direct_build(&d, 3, 0, NULL, NULL, NULL, NULL, zero);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);

    static const int32_t tail[] = {0, 1}, head[] = {1, 0};
    static const int64_t cap[] = {4, 4}, cost[] = {3, 0}, sup[] = {0, 0};
    sc_direct_build(&d, 2, 2, tail, head, cap, cost, sup);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.flow[0], 0);
    assert_int_equal(d.flow[1], 0);
    assert_int_equal(sc_direct_check(&d), 0);
}

/* ---- fixtures ------------------------------------------------------------ */

/* Every network of tests/data/flow/EXPECTED.txt reaches its listed optimum
 * and passes the certificate check. */
static void test_fixtures(void **state)
{
    (void)state;
    pl_test_fixture *fixtures;
    int count = pl_test_read_fixtures(&fixtures);
    assert_true(count >= 17);
    for (int i = 0; i < count; i++) {
        const char *file = fixtures[i].file;
        int64_t want = fixtures[i].cost;
        pl_flownet *net = pl_test_load_fixture(&fixtures[i]);
        int64_t cost = 0;
        pl_solve_stats stats;
        assert_pl_ok(solve_cs(net, 0, 0, 0, &stats, &cost));
        if (cost != want)
            fail_msg("%s: cost %" PRId64 ", expected %" PRId64, file, cost, want);
        assert_true(stats.memory_bytes > 0);
        pl_flownet_free(net);
    }
    free(fixtures);
}

/* ---- random networks against ssp ------------------------------------------ */

static void agree_with_ssp(const pl_randnet_opts *o, uint64_t seed, int count, int scaling)
{
    pl_test_rng rng = {seed};
    int optimal = 0;
    for (int i = 0; i < count; i++) {
        pl_flownet *net = pl_randnet(&rng, o);
        assert_non_null(net);
        int64_t want = 0, got = 0;
        pl_status want_st = pl_test_solve(net, "ssp", &want);
        pl_status got_st = solve_cs(net, scaling, 0, 1, NULL, &got);
        if (got_st != want_st)
            fail_msg("network %d (seed %" PRIu64 "): cost-scaling says %s (%s), ssp says %s", i, seed,
                     pl_status_name(got_st), pl_last_error(), pl_status_name(want_st));
        if (got_st == PL_OK && got != want)
            fail_msg("network %d (seed %" PRIu64 "): cost-scaling %" PRId64 ", ssp %" PRId64, i, seed,
                     got, want);
        optimal += got_st == PL_OK;
        pl_flownet_free(net);
    }
    /* The mix holds optimal cases as well as failures. */
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
    agree_with_ssp(&o, 1, 400, 0);
}

/* Capacities and supplies, or costs, beyond int32: the wide arc layout
 * (capacities also through cap_inf, finite capacity plus supply plus 1). */
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
    agree_with_ssp(&o, 5, 60, 0);
    pl_randnet_opts_init(&o);
    o.max_nodes = 30;
    o.max_arcs = 150;
    o.lower_bounds = 0;
    o.max_cost = (int64_t)1 << 40;
    agree_with_ssp(&o, 6, 60, 0);
}

/* 150 larger, denser networks with wide costs and capacities, and alpha 2
 * and 64 (many more and many fewer phases). */
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
    /* Random lower bounds on hundreds of arcs make nearly every network
     * infeasible at this size; the small test covers them. */
    o.lower_bounds = 0;
    agree_with_ssp(&o, 2, 50, 0);
    agree_with_ssp(&o, 3, 50, 2);
    agree_with_ssp(&o, 4, 50, 64);
}

/* ---- warm starts ------------------------------------------------------------ */

/* Rounds of a few random changes; after each, the warm re-solve of one
 * network must match a cold solve of its twin (same status, same cost,
 * certificate checked on both). Returns the number of warm solves. */
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
        pl_status wst = solve_cs(warm, 0, 0, 0, &ws, &wc);
        pl_status cst = solve_cs(cold, 0, 0, 1, &cs, &cc);
        if (wst != cst || wc != cc)
            fail_msg("seed %" PRIu64 " round %d: warm %s cost %" PRId64 " (%s), cold %s cost %" PRId64,
                     seed, round, pl_status_name(wst), wc, wst ? pl_last_error() : "", pl_status_name(cst), cc);
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
    /* 60 small networks x 12 rounds of 1-3 changes of costs, bounds and
     * supplies, with small and with wide costs. */
    for (uint64_t seed = 100; seed < 130; seed++)
        warm_rounds(seed, 8 + (int32_t)(seed % 10), 30, 20, 12, 1 + (int)(seed % 3), 0);
    for (uint64_t seed = 200; seed < 230; seed++)
        warm_rounds(seed, 20, 80, 100000, 12, 2, 0);
}

static void test_warm_structural_changes(void **state)
{
    (void)state;
    /* Arcs added and removed between solves too. */
    for (uint64_t seed = 300; seed < 330; seed++)
        warm_rounds(seed, 12, 40, 50, 12, 2, 1);
}

/* The infeasible networks of randnet: after each random change the warm
 * solver must agree with ssp on the status as well as the cost. */
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
            pl_status got_st = solve_cs(net, 0, 0, 0, NULL, &got);
            pl_status want_st = pl_test_solve(net, "ssp", &want);
            if (got_st != want_st || got != want)
                fail_msg("network %d round %d: cost-scaling %s %" PRId64 ", ssp %s %" PRId64, i, round,
                         pl_status_name(got_st), got, pl_status_name(want_st), want);
            failures += got_st != PL_OK;
            /* ssp's solve replaced the warm start: re-solve with cost
             * scaling so the next round starts from its own solution. */
            if (want_st == PL_OK)
                assert_pl_ok(solve_cs(net, 0, 0, 0, NULL, NULL));
            sc_small_change(&rng, net);
        }
        pl_flownet_free(net);
    }
    assert_true(failures > 0);
}

/* THE test of the driver's warm-start plumbing: after a solve and a small
 * change, the next cost-scaling solve must report stats.warm == 1, use fewer
 * pushes and relabels than a cold solve (at least 3x fewer over five
 * rounds), and agree with it. Uses the
 * largest fixture with 1% of its arc costs changed. */
static void test_warm_start_is_used(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_flownet *net;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    pl_solve_stats stats;
    int64_t cost = 0;
    assert_pl_ok(solve_cs(net, 0, 0, 0, &stats, &cost));
    assert_int_equal(cost, 1115043);
    assert_int_equal(stats.warm, 0);

    pl_test_rng rng = {5};
    int32_t m = pl_flownet_arc_count(net);
    int64_t warm_total = 0, cold_total = 0;
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < m / 100; i++) {
            int32_t a = (int32_t)pl_test_range(&rng, 0, m - 1);
            pl_arc_info info;
            assert_pl_ok(pl_flownet_get_arc(net, a, &info));
            assert_pl_ok(pl_flownet_set_arc_cost(net, a, info.cost + pl_test_range(&rng, -20, 20)));
        }
        int64_t warm_cost = 0, cold_cost = 0;
        assert_pl_ok(solve_cs(net, 0, 0, 0, &stats, &warm_cost));
        assert_int_equal(stats.warm, 1);
        int64_t warm_iters = stats.iterations;
        pl_solve_stats cold;
        assert_pl_ok(solve_cs(net, 0, 0, 1, &cold, &cold_cost));
        assert_int_equal(cold.warm, 0);
        assert_int_equal(warm_cost, cold_cost);
        if (warm_iters >= cold.iterations)
            fail_msg("round %d: warm start took %" PRId64 " iterations, cold %" PRId64, round, warm_iters,
                     cold.iterations);
        warm_total += warm_iters;
        cold_total += cold.iterations;
        /* Warm-start the next round from the cold solution; same optimum. */
    }
    /* Measured: 2.7x to 7x fewer per round, about 4.8x over the five. */
    if (warm_total * 3 > cold_total)
        fail_msg("warm starts took %" PRId64 " iterations in all, cold %" PRId64, warm_total, cold_total);
    pl_flownet_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),
        SC_CASES(CS),
        SC_CASES_EXTRA(CS),
        cmocka_unit_test(test_price_overflow),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_max_iterations),
        cmocka_unit_test(test_scaling_factor),
        cmocka_unit_test(test_direct_certificate_and_memory),
        cmocka_unit_test(test_direct_wide_layout),
        cmocka_unit_test(test_memory_per_arc),
        cmocka_unit_test(test_direct_warm_from_optimum),
        cmocka_unit_test(test_direct_warm_from_garbage),
        cmocka_unit_test(test_direct_infeasible),
        cmocka_unit_test(test_direct_nothing_to_do),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_random_small),
        cmocka_unit_test(test_random_larger),
        cmocka_unit_test(test_random_wide),
        cmocka_unit_test(test_warm_random_changes),
        cmocka_unit_test(test_warm_structural_changes),
        cmocka_unit_test(test_warm_mixed_statuses),
        cmocka_unit_test(test_warm_start_is_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
