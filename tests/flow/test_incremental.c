/* Incremental re-solve: arc and node removal with id reuse, and warm starts
 * that must always land on the same optimum as a cold solve. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "../common/testutil.h"

static const char *warm_solvers[] = {"ssp", "cost-scaling", "network-simplex", "relaxation"};
#define N_WARM ((int)(sizeof warm_solvers / sizeof warm_solvers[0]))

static pl_status solve_with(pl_flownet *net, const char *solver, int cold, pl_solve_stats *st)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = solver;
    o.cold_start = cold;
    o.verify = 1;
    return pl_flownet_solve(net, &o, st);
}

/* ---- removal ------------------------------------------------------------ */

static void test_remove_arc_reuses_id(void **s)
{
    (void)s;
    pl_flownet *net;
    int32_t a0, a1, a2;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_nodes(net, 3, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, 5, 1, &a0));
    assert_pl_ok(pl_flownet_add_arc(net, 1, 2, 0, 5, 1, &a1));
    assert_pl_ok(pl_flownet_remove_arc(net, a0));
    assert_true(pl_flownet_arc_removed(net, a0));
    assert_false(pl_flownet_arc_removed(net, a1));
    assert_int_equal(pl_flownet_arc_count(net), 2);
    assert_pl_status(pl_flownet_remove_arc(net, a0), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "was removed"));
    assert_pl_status(pl_flownet_set_arc_cost(net, a0, 3), PL_EINVAL);
    pl_arc_info info;
    assert_pl_status(pl_flownet_get_arc(net, a0, &info), PL_EINVAL);
    assert_pl_ok(pl_flownet_add_arc(net, 2, 0, 0, 9, 4, &a2));
    assert_int_equal(a2, a0); /* freed id reused */
    assert_false(pl_flownet_arc_removed(net, a2));
    assert_pl_ok(pl_flownet_get_arc(net, a2, &info));
    assert_int_equal(info.tail, 2);
    assert_int_equal(info.upper, 9);
    pl_flownet_free(net);
}

/* Removing a node removes its arcs and frees its id; the network still solves. */
static void test_remove_node(void **s)
{
    (void)s;
    pl_flownet *net;
    int32_t v, w;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, "src", 2, NULL));   /* 0 */
    assert_pl_ok(pl_flownet_add_node(net, "mid", 0, &v));     /* 1 */
    assert_pl_ok(pl_flownet_add_node(net, "dst", -2, NULL));  /* 2 */
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, 5, 1, NULL)); /* 0: via mid, cost 2 */
    assert_pl_ok(pl_flownet_add_arc(net, 1, 2, 0, 5, 1, NULL)); /* 1 */
    assert_pl_ok(pl_flownet_add_arc(net, 1, 1, 0, 5, -1, NULL)); /* 2: loop on mid */
    assert_pl_ok(pl_flownet_add_arc(net, 0, 2, 0, 5, 7, NULL)); /* 3: direct, cost 7 */
    int64_t cost;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 2 * 2 - 5); /* two units via mid, loop saturated */
    assert_pl_ok(pl_flownet_remove_node(net, v));
    assert_true(pl_flownet_node_removed(net, v));
    for (int32_t a = 0; a < 3; a++)
        assert_true(pl_flownet_arc_removed(net, a));
    assert_false(pl_flownet_arc_removed(net, 3));
    assert_null(pl_flownet_node_name(net, v));
    assert_pl_status(pl_flownet_set_supply(net, v, 1), PL_EINVAL);
    assert_pl_status(pl_flownet_add_arc(net, v, 2, 0, 1, 0, NULL), PL_EINVAL);
    for (int i = 0; i < N_WARM; i++) {
        assert_pl_ok(pl_test_solve(net, warm_solvers[i], &cost));
        assert_int_equal(cost, 14); /* only the direct arc is left */
    }
    /* The freed id comes back as a fresh node. */
    assert_pl_ok(pl_flownet_add_node(net, "again", 0, &w));
    assert_int_equal(w, v);
    assert_string_equal(pl_flownet_node_name(net, w), "again");
    int64_t b;
    assert_pl_ok(pl_flownet_get_supply(net, w, &b));
    assert_int_equal(b, 0);
    pl_flownet_free(net);
}

/* Removed arcs are left out of DIMACS output, removed nodes stay as ids. */
static void test_dimacs_skips_removed(void **s)
{
    (void)s;
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_nodes(net, 3, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, 5, 1, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 1, 2, 0, 6, 2, NULL));
    assert_pl_ok(pl_flownet_remove_arc(net, 0));
    char *text;
    assert_pl_ok(pl_flownet_write_dimacs_string(net, &text));
    assert_string_equal(text, "p min 3 1\na 2 3 0 6 2\n");
    pl_free(text);
    pl_flownet_free(net);
}

/* ---- warm starts ----------------------------------------------------------- */

/* Transport network: 3 sources x 3 sinks, with an expensive overflow path
 * per source so that most random changes keep it feasible. */
static pl_flownet *transport(void)
{
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    int64_t sup[] = {5, 7, 3, -4, -6, -5};
    for (int i = 0; i < 6; i++)
        assert_pl_ok(pl_flownet_add_node(net, NULL, sup[i], NULL));
    for (int i = 0; i < 3; i++)
        for (int j = 3; j < 6; j++)
            assert_pl_ok(pl_flownet_add_arc(net, i, j, 0, 4, (i * 7 + j * 3) % 11 - 2, NULL));
    return net;
}

static void test_warm_flag_and_same_answer(void **s)
{
    (void)s;
    for (int i = 0; i < N_WARM; i++) {
        pl_flownet *net = transport();
        pl_solve_stats st;
        int64_t c1, c2;
        assert_pl_ok(solve_with(net, warm_solvers[i], 0, &st));
        assert_int_equal(st.warm, 0); /* nothing to start from */
        assert_pl_ok(pl_flownet_set_arc_cost(net, 4, 9));
        assert_pl_ok(solve_with(net, warm_solvers[i], 0, &st));
        if (!st.warm)
            fail_msg("%s did not warm-start after a cost change", warm_solvers[i]);
        assert_pl_ok(pl_flownet_solution_cost(net, &c1));
        assert_pl_ok(solve_with(net, warm_solvers[i], 1, &st));
        assert_int_equal(st.warm, 0);
        assert_pl_ok(pl_flownet_solution_cost(net, &c2));
        assert_int_equal(c1, c2);
        pl_flownet_free(net);
    }
}

/* A failed solve leaves nothing to start from; a solution installed by the
 * user is a valid starting point. */
static void test_warm_after_failure_and_set_solution(void **s)
{
    (void)s;
    pl_flownet *net = transport();
    pl_solve_stats st;
    assert_pl_ok(solve_with(net, "ssp", 0, &st));
    assert_pl_ok(pl_flownet_set_supply(net, 0, 50));
    assert_pl_ok(pl_flownet_set_supply(net, 5, -50));
    assert_pl_status(solve_with(net, "ssp", 0, &st), PL_EINFEASIBLE);
    assert_pl_ok(pl_flownet_set_supply(net, 0, 5));
    assert_pl_ok(pl_flownet_set_supply(net, 5, -5));
    assert_pl_ok(solve_with(net, "ssp", 0, &st));
    assert_int_equal(st.warm, 0);
    int64_t flows[9];
    memcpy(flows, pl_flownet_flows(net), sizeof flows);
    assert_pl_ok(pl_flownet_set_solution(net, flows, NULL));
    assert_pl_ok(solve_with(net, "ssp", 0, &st));
    assert_int_equal(st.warm, 1);
    pl_flownet_free(net);
}

/* One random change, applied identically to both networks (random values
 * are drawn before BOTH, which evaluates its argument once per network). */
typedef struct pair {
    pl_flownet *warm, *cold;
} pair;

static int32_t live_arc(pl_test_rng *r, const pl_flownet *net)
{
    int32_t m = pl_flownet_arc_count(net);
    for (int tries = 0; tries < 50 && m > 0; tries++) {
        int32_t a = (int32_t)pl_test_range(r, 0, m - 1);
        if (!pl_flownet_arc_removed(net, a))
            return a;
    }
    return -1;
}

static int32_t live_node(pl_test_rng *r, const pl_flownet *net)
{
    int32_t n = pl_flownet_node_count(net);
    for (int tries = 0; tries < 50; tries++) {
        int32_t v = (int32_t)pl_test_range(r, 0, n - 1);
        if (!pl_flownet_node_removed(net, v))
            return v;
    }
    return 0;
}

#define BOTH(call_on) do { pl_flownet *nets_[2] = {p->warm, p->cold}; \
        for (int k_ = 0; k_ < 2; k_++) { pl_flownet *net = nets_[k_]; assert_pl_ok(call_on); } } while (0)

static void move_supply(pair *p, int32_t from, int32_t to, int64_t k)
{
    int64_t bf, bt;
    assert_pl_ok(pl_flownet_get_supply(p->warm, from, &bf));
    BOTH(pl_flownet_set_supply(net, from, bf - k));
    assert_pl_ok(pl_flownet_get_supply(p->warm, to, &bt));
    BOTH(pl_flownet_set_supply(net, to, bt + k));
}

static void random_change(pl_test_rng *r, pair *p)
{
    pl_flownet *w = p->warm;
    int32_t a = live_arc(r, w);
    int kind = (int)pl_test_range(r, 0, 7);
    if (a < 0)
        kind = 4;
    switch (kind) {
    case 0:
    case 1: {
        int64_t c = pl_test_range(r, -5, 30);
        BOTH(pl_flownet_set_arc_cost(net, a, c));
        break;
    }
    case 2: {
        int64_t up = pl_test_range(r, 0, 12);
        int64_t lo = pl_test_range(r, 0, 4) == 0 ? pl_test_range(r, 0, up) : 0;
        BOTH(pl_flownet_set_arc_bounds(net, a, lo, up));
        break;
    }
    case 3: move_supply(p, live_node(r, w), live_node(r, w), pl_test_range(r, 1, 4)); break;
    case 4: {
        int32_t t = live_node(r, w), h = live_node(r, w);
        int64_t up = pl_test_range(r, 0, 6) == 0 ? PL_CAP_INF : pl_test_range(r, 0, 10);
        int64_t c = pl_test_range(r, up == PL_CAP_INF ? 0 : -5, 25);
        BOTH(pl_flownet_add_arc(net, t, h, 0, up, c, NULL));
        break;
    }
    case 5: BOTH(pl_flownet_remove_arc(net, a)); break;
    case 6: {
        /* Remove a node, handing its supply to another live node first. */
        int32_t v = live_node(r, w), u = live_node(r, w);
        if (u == v)
            break;
        int64_t b;
        assert_pl_ok(pl_flownet_get_supply(w, v, &b));
        move_supply(p, v, u, b);
        BOTH(pl_flownet_remove_node(net, v));
        break;
    }
    default: {
        /* A new node (perhaps on a freed id) taking supply from a live one, with arcs. */
        int32_t ids[2];
        for (int k = 0; k < 2; k++)
            assert_pl_ok(pl_flownet_add_node(k ? p->cold : p->warm, NULL, 0, &ids[k]));
        assert_int_equal(ids[0], ids[1]);
        int32_t v = ids[0];
        move_supply(p, live_node(r, w), v, pl_test_range(r, -3, 3));
        for (int k = 0; k < 3; k++) {
            int32_t u = live_node(r, w);
            int64_t c = pl_test_range(r, 0, 20), up = pl_test_range(r, 1, 8);
            if (k & 1)
                BOTH(pl_flownet_add_arc(net, v, u, 0, up, c, NULL));
            else
                BOTH(pl_flownet_add_arc(net, u, v, 0, up, c, NULL));
        }
        break;
    }
    }
}

/* After every random change the warm network (never cold-started) and the
 * cold one (always from scratch) agree on status and cost, and both pass the
 * certificate check inside solve_with. */
static void random_sequences(const char *solver, uint64_t seed, int sequences, int steps)
{
    pl_test_rng r = {seed};
    int warm_solves = 0, optimal = 0, incremental = 0;
    for (int q = 0; q < sequences; q++) {
        pl_randnet_opts o;
        pl_randnet_opts_init(&o);
        o.max_nodes = 12;
        o.max_arcs = 40;
        o.lower_bounds = 0;
        pl_test_rng gen = {seed * 7919 + (uint64_t)q};
        pair p = {pl_randnet(&gen, &o), NULL};
        gen.s = seed * 7919 + (uint64_t)q;
        p.cold = pl_randnet(&gen, &o);
        for (int step = 0; step < steps; step++) {
            pl_solve_stats sw, sc;
            int64_t cw = 0, cc = 0;
            pl_status stw = solve_with(p.warm, solver, 0, &sw);
            pl_status stc = solve_with(p.cold, solver, 1, &sc);
            if (stw != stc)
                fail_msg("%s seq %d step %d: warm %s (%s), cold %s", solver, q, step,
                         pl_status_name(stw), pl_last_error(), pl_status_name(stc));
            if (stw == PL_OK) {
                pl_flownet_solution_cost(p.warm, &cw);
                pl_flownet_solution_cost(p.cold, &cc);
                if (cw != cc)
                    fail_msg("%s seq %d step %d: warm cost %" PRId64 ", cold %" PRId64, solver, q,
                             step, cw, cc);
                optimal++;
            }
            warm_solves += sw.warm;
            incremental += sw.incremental;
            random_change(&r, &p);
        }
        pl_flownet_free(p.warm);
        pl_flownet_free(p.cold);
    }
    /* Enough of the solves really started warm for the comparison to mean something. */
    if (warm_solves < sequences * steps / 4 || optimal < sequences * steps / 4)
        fail_msg("%s: only %d warm solves and %d optimal of %d", solver, warm_solves, optimal,
                 sequences * steps);
    /* Relaxation re-solves take the incremental path whenever no lower bound is set. */
    if (strcmp(solver, "relaxation") == 0 && incremental < sequences * steps / 8)
        fail_msg("relaxation: only %d of %d solves were incremental", incremental, sequences * steps);
}

static void test_random_ssp(void **s) { (void)s; random_sequences("ssp", 11, 150, 25); }
static void test_random_cost_scaling(void **s) { (void)s; random_sequences("cost-scaling", 12, 150, 25); }
static void test_random_network_simplex(void **s) { (void)s; random_sequences("network-simplex", 13, 150, 25); }
static void test_random_relaxation(void **s) { (void)s; random_sequences("relaxation", 14, 150, 25); }

/* Switching solvers between solves on one network stays correct (the state
 * of one solver is never handed to another). */
static void test_switch_solvers(void **s)
{
    (void)s;
    pl_flownet *net = transport();
    pl_test_rng r = {5};
    int64_t want = 0, got;
    for (int step = 0; step < 60; step++) {
        const char *solver = warm_solvers[step % N_WARM];
        assert_pl_ok(pl_flownet_set_arc_cost(net, (int32_t)pl_test_range(&r, 0, 8),
                                             pl_test_range(&r, -3, 12)));
        pl_status st = solve_with(net, "glpk", 1, NULL);
        if (st == PL_OK)
            pl_flownet_solution_cost(net, &want);
        assert_pl_status(solve_with(net, solver, 0, NULL), st);
        if (st == PL_OK) {
            assert_pl_ok(pl_flownet_solution_cost(net, &got));
            assert_int_equal(got, want);
        }
    }
    pl_flownet_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_remove_arc_reuses_id),
        cmocka_unit_test(test_remove_node),
        cmocka_unit_test(test_dimacs_skips_removed),
        cmocka_unit_test(test_warm_flag_and_same_answer),
        cmocka_unit_test(test_warm_after_failure_and_set_solution),
        cmocka_unit_test(test_random_ssp),
        cmocka_unit_test(test_random_cost_scaling),
        cmocka_unit_test(test_random_network_simplex),
        cmocka_unit_test(test_random_relaxation),
        cmocka_unit_test(test_switch_solvers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
