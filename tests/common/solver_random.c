/* The shared battery's larger checks (see solver_cases.h): the Firmament
 * fixtures, agreement with "ssp" on random networks, and warm re-solves
 * after random changes against cold solves. */
#include <inttypes.h>
#include <stdlib.h>
#include "solver_cases.h"

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


void sc_nudge_costs(pl_test_rng *r, pl_flownet *net, int32_t count)
{
    int32_t m = pl_flownet_arc_count(net);
    for (int32_t i = 0; i < count; i++) {
        int32_t a = (int32_t)pl_test_range(r, 0, m - 1);
        pl_arc_info info;
        assert_pl_ok(pl_flownet_get_arc(net, a, &info));
        assert_pl_ok(pl_flownet_set_arc_cost(net, a, info.cost + pl_test_range(r, -20, 20)));
    }
}

/* A random live task (supply 1) of the network, or -1. */
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

void sc_churn(pl_test_rng *r, pl_flownet *net, int k)
{
    const int32_t sink = 0;
    int64_t b;
    for (int i = 0; i < k; i++) {
        int32_t v = random_task(r, net);
        assert_true(v > 0);
        assert_pl_ok(pl_flownet_remove_node(net, v));
        assert_pl_ok(pl_flownet_get_supply(net, sink, &b));
        assert_pl_ok(pl_flownet_set_supply(net, sink, b + 1));
    }
    for (int i = 0; i < k; i++) {
        int32_t like = random_task(r, net), v;
        assert_true(like > 0);
        assert_pl_ok(pl_flownet_add_node(net, NULL, 1, &v));
        int32_t m = pl_flownet_arc_count(net);
        for (int32_t a = 0; a < m; a++) {
            pl_arc_info info;
            if (pl_flownet_arc_removed(net, a) || pl_flownet_get_arc(net, a, &info) != PL_OK || info.tail != like)
                continue;
            assert_pl_ok(pl_flownet_add_arc(net, v, info.head, info.lower, info.upper,
                                            info.cost + pl_test_range(r, 0, 3), NULL));
        }
        assert_pl_ok(pl_flownet_get_supply(net, sink, &b));
        assert_pl_ok(pl_flownet_set_supply(net, sink, b - 1));
    }
}

/* ---- fixtures ------------------------------------------------------------ */

/* Every network of tests/data/flow/EXPECTED.txt reaches its listed optimum
 * and passes the certificate check, with the memory and iterations
 * reported; the small ones with the checked copy too. */
void sc_test_fixtures(void **state)
{
    const sc_solver *s = *state;
    pl_test_fixture *fixtures;
    int count = pl_test_read_fixtures(&fixtures);
    assert_true(count >= 17);
    for (int i = 0; i < count; i++) {
        const pl_test_fixture *fx = &fixtures[i];
        pl_flownet *net = pl_test_load_fixture(fx);
        pl_solve_opts o = sc_opts(s);
        pl_solve_stats stats;
        int64_t cost = 0;
        assert_pl_ok(sc_solve(net, &o, &stats, &cost));
        if (cost != fx->cost)
            fail_msg("%s: cost %" PRId64 ", expected %" PRId64, fx->file, cost, fx->cost);
        assert_true(stats.memory_bytes > 0);
        assert_true(stats.iterations > 0);
        if (s->fixture_checks)
            s->fixture_checks(fx, &stats);
        if (s->checked && fx->arcs < 1000) {
            o.ops = s->checked;
            o.cold_start = 1;
            cost = 0;
            assert_pl_ok(sc_solve(net, &o, NULL, &cost));
            assert_int_equal(cost, fx->cost);
        }
        pl_flownet_free(net);
    }
    free(fixtures);
}

/* ---- random networks against ssp ------------------------------------------ */

void sc_agree_with_ssp(const pl_solve_opts *o, const pl_randnet_opts *ro, uint64_t seed, int count)
{
    pl_solve_opts cold = *o;
    cold.cold_start = 1;
    pl_test_rng rng = {seed};
    int optimal = 0;
    for (int i = 0; i < count; i++) {
        pl_flownet *net = pl_randnet(&rng, ro);
        assert_non_null(net);
        int64_t want = 0, got = 0;
        pl_status want_st = pl_test_solve(net, "ssp", &want);
        pl_status got_st = sc_solve(net, &cold, NULL, &got);
        if (got_st != want_st)
            fail_msg("network %d (seed %" PRIu64 "): %s says %s (%s), ssp says %s", i, seed, o->solver,
                     pl_status_name(got_st), pl_last_error(), pl_status_name(want_st));
        if (got_st == PL_OK && got != want)
            fail_msg("network %d (seed %" PRIu64 "): %s %" PRId64 ", ssp %" PRId64, i, seed, o->solver, got,
                     want);
        optimal += got_st == PL_OK;
        pl_flownet_free(net);
    }
    /* The mix holds optimal cases as well as failures. */
    assert_true(optimal > count / 5);
    assert_true(optimal < count);
}

void sc_larger_randnet(pl_randnet_opts *ro)
{
    pl_randnet_opts_init(ro);
    ro->max_nodes = 60;
    ro->max_arcs = 400;
    ro->max_cap = 1000;
    ro->max_cost = 1000000;
    ro->max_supply = 300;
    /* Random lower bounds on hundreds of arcs make nearly every network
     * of this size infeasible; the small test covers them. */
    ro->lower_bounds = 0;
}

/* 400 small networks with every feature: negative costs, lower bounds,
 * infinite arcs (so infeasible and unbounded cases too). */
void sc_test_random_small(void **state)
{
    const sc_solver *s = *state;
    pl_solve_opts o = sc_opts(s);
    pl_randnet_opts ro;
    pl_randnet_opts_init(&ro);
    sc_agree_with_ssp(&o, &ro, 1, 400);
}

/* Capacities and supplies, or costs, beyond int32 (cost scaling's wide
 * arc layout; capacities also through cap_inf, finite capacity plus supply
 * plus 1). */
void sc_test_random_wide(void **state)
{
    const sc_solver *s = *state;
    pl_solve_opts o = sc_opts(s);
    pl_randnet_opts ro;
    pl_randnet_opts_init(&ro);
    ro.max_nodes = 30;
    ro.max_arcs = 150;
    ro.lower_bounds = 0;
    ro.max_cap = (int64_t)1 << 34;
    ro.max_supply = (int64_t)1 << 33;
    sc_agree_with_ssp(&o, &ro, 5, 60);
    pl_randnet_opts_init(&ro);
    ro.max_nodes = 30;
    ro.max_arcs = 150;
    ro.lower_bounds = 0;
    ro.max_cost = (int64_t)1 << 40;
    sc_agree_with_ssp(&o, &ro, 6, 60);
}

/* ---- warm starts ------------------------------------------------------------ */

int sc_warm_rounds(const sc_solver *s, const pl_solve_opts *o, uint64_t seed, int32_t n, int32_t m,
                   int64_t max_cost, int rounds, int per_round, int structural)
{
    pl_solve_opts warm_o = *o, cold_o = *o;
    warm_o.cold_start = 0;
    cold_o.cold_start = 1;
    pl_test_rng rng = {seed};
    pl_flownet *warm = sc_warm_net(&rng, n, m, max_cost);
    pl_test_rng copy = {seed};
    pl_flownet *cold = sc_warm_net(&copy, n, m, max_cost);
    int fewer = 0;
    for (int round = 0; round < rounds; round++) {
        pl_solve_stats ws, cs;
        int64_t wc = 0, cc = 0;
        pl_status wst = sc_solve(warm, &warm_o, &ws, &wc);
        pl_status cst = sc_solve(cold, &cold_o, &cs, &cc);
        if (wst != cst || wc != cc)
            fail_msg("seed %" PRIu64 " round %d: warm %s cost %" PRId64 " (%s), cold %s cost %" PRId64, seed,
                     round, pl_status_name(wst), wc, wst ? pl_last_error() : "", pl_status_name(cst), cc);
        assert_int_equal(cs.warm, 0);
        assert_int_equal(ws.warm, round > 0 && (s->flags & SC_WARM));
        fewer += ws.warm && ws.iterations < cs.iterations;
        /* Solved again unchanged, the warm start is optimal as it is. */
        if (round % 4 == 3 && (s->flags & SC_WARM)) {
            assert_pl_ok(sc_solve(warm, &warm_o, &ws, &wc));
            assert_int_equal(ws.iterations, 0);
            assert_int_equal(wc, cc);
        }
        for (int c = 0; c < per_round; c++)
            sc_random_change(&rng, warm, cold, max_cost, structural);
    }
    pl_flownet_free(warm);
    pl_flownet_free(cold);
    return fewer;
}

/* 60 small networks x 12 rounds of 1-3 changes of costs, bounds and
 * supplies, with small and with wide costs (half of the latter with the
 * checked copy). */
void sc_test_warm_random_changes(void **state)
{
    const sc_solver *s = *state;
    int fewer = 0, solves = 0;
    for (uint64_t seed = 100; seed < 130; seed++, solves += 11) {
        pl_solve_opts o = sc_opts(s);
        fewer += sc_warm_rounds(s, &o, seed, 8 + (int32_t)(seed % 10), 30, 20, 12, 1 + (int)(seed % 3), 0);
    }
    for (uint64_t seed = 200; seed < 230; seed++, solves += 11) {
        pl_solve_opts o = sc_opts(s);
        if (seed % 2)
            o.ops = s->checked;
        fewer += sc_warm_rounds(s, &o, seed, 20, 80, 100000, 12, 2, 0);
    }
    if (fewer < s->warm_fewer_min)
        fail_msg("only %d of %d warm solves took fewer iterations than cold", fewer, solves);
}

/* Arcs added and removed between solves too. */
void sc_test_warm_structural_changes(void **state)
{
    const sc_solver *s = *state;
    for (uint64_t seed = 300; seed < 330; seed++) {
        pl_solve_opts o = sc_opts(s);
        if (seed % 2)
            o.ops = s->checked;
        sc_warm_rounds(s, &o, seed, 12, 40, 50, 12, 2, 1);
    }
}

/* Networks that turn infeasible and back: after each change the warm
 * solver must agree with ssp on the status as well as the cost. ssp's solve
 * replaced the warm start, so the solver re-solves (from its own answer
 * then) before the next change; solved once more, it needs no iteration. */
void sc_test_warm_mixed_statuses(void **state)
{
    const sc_solver *s = *state;
    pl_test_rng rng = {77};
    pl_randnet_opts ro;
    pl_randnet_opts_init(&ro);
    ro.inf_arcs = 0;
    int failures = 0, no_iteration = 0;
    for (int i = 0; i < 60; i++) {
        pl_flownet *net = pl_randnet(&rng, &ro);
        pl_solve_opts o = sc_opts(s);
        if (i % 2)
            o.ops = s->checked;
        for (int round = 0; round < 6; round++) {
            int64_t want = 0, got = 0;
            pl_status got_st = sc_solve(net, &o, NULL, &got);
            pl_status want_st = pl_test_solve(net, "ssp", &want);
            if (got_st != want_st || got != want)
                fail_msg("network %d round %d: %s %s %" PRId64 ", ssp %s %" PRId64, i, round, s->name,
                         pl_status_name(got_st), got, pl_status_name(want_st), want);
            failures += got_st != PL_OK;
            if (want_st == PL_OK) {
                pl_solve_stats st;
                assert_pl_ok(sc_solve(net, &o, &st, NULL));
                assert_pl_ok(sc_solve(net, &o, &st, NULL));
                no_iteration += st.warm && st.iterations == 0;
            }
            sc_small_change(&rng, net);
        }
        pl_flownet_free(net);
    }
    assert_true(failures > 0);
    assert_true(no_iteration > 20);
}
