/* The "glpk" solver, pl_flow_lp_check() and the GLPK plumbing under them
 * (lib/flow/glpk_util.c): optimal costs worked out by hand, every status the
 * LP can end in, the 2^53 limit, and GLPK's fatal errors coming back as
 * PL_EINTERNAL instead of abort(). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "internal/flownet_impl.h"
#include "internal/glpk_util.h"

#define TWO_POW(k) ((int64_t)1 << (k))

static pl_flownet *new_net(void)
{
    pl_flownet *net = NULL;
    assert_pl_ok(pl_flownet_create(&net));
    return net;
}

static void add_node(pl_flownet *net, int64_t supply)
{
    assert_pl_ok(pl_flownet_add_node(net, NULL, supply, NULL));
}

static void add_arc(pl_flownet *net, int32_t t, int32_t h, int64_t lo, int64_t up, int64_t c)
{
    assert_pl_ok(pl_flownet_add_arc(net, t, h, lo, up, c, NULL));
}

static void assert_flows(const pl_flownet *net, const int64_t *want, int32_t m)
{
    assert_int_equal(pl_flownet_arc_count(net), m);
    for (int32_t a = 0; a < m; a++) {
        int64_t f;
        assert_pl_ok(pl_flownet_get_flow(net, a, &f));
        if (f != want[a])
            fail_msg("arc %d: flow %lld, want %lld", a, (long long)f, (long long)want[a]);
    }
}

static void assert_message_has(const char *needle)
{
    if (!strstr(pl_last_error(), needle))
        fail_msg("message \"%s\" lacks \"%s\"", pl_last_error(), needle);
}

/* Nodes s0 = 0, s1 = 1 (supply 5 each), t0 = 2 (demand 6), t1 = 3 (demand 4).
 * Arcs: 0 s0->t0 cap 4 cost 1, 1 s0->t1 cost 4, 2 s1->t0 cost 3, 3 s1->t1
 * cost 2 (caps 10). With x = flow s0->t0 the rest follows: s0->t1 = 5-x,
 * s1->t0 = 6-x, s1->t1 = x-1, cost x + 4(5-x) + 3(6-x) + 2(x-1) = 36 - 4x,
 * least at the cap x = 4: flows 4,1,2,3 and cost 20. */
static pl_flownet *transport(void)
{
    pl_flownet *net = new_net();
    add_node(net, 5);
    add_node(net, 5);
    add_node(net, -6);
    add_node(net, -4);
    add_arc(net, 0, 2, 0, 4, 1);
    add_arc(net, 0, 3, 0, 10, 4);
    add_arc(net, 1, 2, 0, 10, 3);
    add_arc(net, 1, 3, 0, 10, 2);
    return net;
}

static void test_transport(void **state)
{
    (void)state;
    pl_flownet *net = transport();
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, 20);
    const int64_t want[] = {4, 1, 2, 3};
    assert_flows(net, want, 4);

    /* The statistics name the solver and count its pivots: phase 1 has to
     * bring at least three arc columns into the basis. */
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = "glpk";
    pl_solve_stats stats;
    assert_pl_ok(pl_flownet_solve(net, &o, &stats));
    assert_string_equal(stats.solver, "glpk");
    assert_true(stats.iterations >= 3);
    pl_flownet_free(net);
}

/* A cycle a->b (cost -5, cap 3), b->c (1, cap 10), c->a (2, cap 2) of cost
 * -2 per unit, and s (supply 2) -> t (demand 2) either directly (cost 3) or
 * by s->a, a->b, b->t (costs 0, -5, 0: -5 per unit). Both routes share a->b
 * (cap 3): each unit of it earns -5 on the path but -2 on the cycle, so both
 * units of supply take the path (-10) and the spare unit goes round the
 * cycle (-2). Optimum -12 with flows s->t 0, s->a 2, a->b 3, b->t 2, b->c 1,
 * c->a 1. */
static void test_negative_costs(void **state)
{
    (void)state;
    pl_flownet *net = new_net();
    enum { S, T, A, B, C };
    add_node(net, 2);
    add_node(net, -2);
    add_node(net, 0);
    add_node(net, 0);
    add_node(net, 0);
    add_arc(net, S, T, 0, 5, 3);
    add_arc(net, S, A, 0, 5, 0);
    add_arc(net, A, B, 0, 3, -5);
    add_arc(net, B, T, 0, 5, 0);
    add_arc(net, B, C, 0, 10, 1);
    add_arc(net, C, A, 0, 2, 2);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, -12);
    const int64_t want[] = {0, 2, 3, 2, 1, 1};
    assert_flows(net, want, 6);
    pl_flownet_free(net);
}

/* s (supply 6) -> t (demand 6) over A [0,10] cost 1, B [3,6] cost 5 and D
 * [2,2] cost -1, plus C t->s [1,inf) cost 2. Every unit round s->t->s costs
 * at least 1 + 2 > 0, so C stays at its lower bound 1 and s->t carries 7:
 * D its fixed 2, B its minimum 3, A the remaining 2. Cost 2 + 15 + 2 - 2 = 17. */
static pl_flownet *lower_bounds(void)
{
    pl_flownet *net = new_net();
    add_node(net, 6);
    add_node(net, -6);
    add_arc(net, 0, 1, 0, 10, 1);
    add_arc(net, 0, 1, 3, 6, 5);
    add_arc(net, 1, 0, 1, PL_CAP_INF, 2);
    add_arc(net, 0, 1, 2, 2, -1);
    return net;
}

static void test_lower_bounds(void **state)
{
    (void)state;
    pl_flownet *net = lower_bounds();
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, 17);
    const int64_t want[] = {2, 3, 1, 2};
    assert_flows(net, want, 4);
    int64_t lp = 0;
    assert_pl_ok(pl_flow_lp_check(net, &lp));
    assert_int_equal(lp, 17);
    pl_flownet_free(net);
}

/* A loop is an empty LP column: with cost -3 and cap 4 it fills up (-12);
 * with cost 2 it stays empty. Networks without arcs or nodes cost 0. */
static void test_loops_and_empty(void **state)
{
    (void)state;
    pl_flownet *net = new_net();
    add_node(net, 0);
    add_arc(net, 0, 0, 0, 4, -3);
    add_arc(net, 0, 0, 0, 4, 2);
    int64_t cost = 1;
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, -12);
    const int64_t want[] = {4, 0};
    assert_flows(net, want, 2);
    pl_flownet_free(net);

    net = new_net();
    add_node(net, 0);
    add_node(net, 0);
    cost = 1;
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, 0);
    pl_flownet_free(net);

    net = new_net();
    cost = 1;
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, 0);
    assert_pl_ok(pl_flow_lp_check(net, &cost));
    pl_flownet_free(net);
}

/* 5 units must cross an arc of capacity 3: the supplies balance, so the
 * driver hands the problem to GLPK, whose phase 1 fails. */
static void test_infeasible(void **state)
{
    (void)state;
    pl_flownet *net = new_net();
    add_node(net, 5);
    add_node(net, -5);
    add_arc(net, 0, 1, 0, 3, 1);
    assert_pl_status(pl_test_solve(net, "glpk", NULL), PL_EINFEASIBLE);
    assert_message_has("glpk: no flow satisfies the supplies and arc bounds: 2 of the 5 units");
    assert_false(pl_flownet_has_solution(net));

    const int32_t tail[] = {0}, head[] = {1};
    const int64_t upper[] = {3}, cost[] = {1}, supply[] = {5, -5};
    int64_t out = 77;
    assert_pl_status(pl_glpk_min_cost(2, 1, tail, head, NULL, upper, cost, supply, &out),
                     PL_EINFEASIBLE);
    assert_int_equal(out, 77);
    pl_flownet_free(net);
}

/* s -> t (cost 1, cap 1) carries the one unit; a <-> b is a cycle of
 * infinite arcs costing -1 + 0 per turn, so the cost has no lower bound. */
static void test_unbounded(void **state)
{
    (void)state;
    pl_flownet *net = new_net();
    add_node(net, 1);
    add_node(net, -1);
    add_node(net, 0);
    add_node(net, 0);
    add_arc(net, 0, 1, 0, 1, 1);
    add_arc(net, 2, 3, 0, PL_CAP_INF, -1);
    add_arc(net, 3, 2, 0, PL_CAP_INF, 0);
    assert_pl_status(pl_test_solve(net, "glpk", NULL), PL_EUNBOUNDED);

    const int32_t tail[] = {0, 2, 3}, head[] = {1, 3, 2};
    const int64_t upper[] = {1, PL_CAP_INF, PL_CAP_INF}, cost[] = {1, -1, 0};
    const int64_t supply[] = {1, -1, 0, 0};
    int64_t out = 0;
    assert_pl_status(pl_glpk_min_cost(4, 3, tail, head, NULL, upper, cost, supply, &out),
                     PL_EUNBOUNDED);
    assert_message_has("unbounded");

    /* The driver never lets this reach the solver, so call it directly on a
     * hand-made normalised problem (no CSR: the solver does not read it). */
    const int64_t cap[] = {1, 5, 5};
    const uint8_t is_inf[] = {0, 1, 1};
    pl_flow_problem p = {.n = 4, .m = 3, .tail = tail, .head = head, .cap = cap,
                         .cost = cost, .supply = supply, .is_inf = is_inf, .cap_inf = 5};
    int64_t flow[3] = {0}, pot[4] = {0};
    pl_flow_solution sol = {.flow = flow, .potential = pot};
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    assert_pl_status(pl_solver_glpk.solve(&p, &o, &sol), PL_EUNBOUNDED);

    /* Infeasible and unbounded at once: infeasibility wins, as in the driver. */
    const int64_t short_supply[] = {2, -2, 0, 0};
    assert_pl_status(pl_glpk_min_cost(4, 3, tail, head, NULL, upper, cost, short_supply, &out),
                     PL_EINFEASIBLE);
    pl_flownet_free(net);
}

/* The solver on a normalised problem whose infinite arc is the only route:
 * GLPK keeps it unbounded, yet the flow must stay within cap_inf and the
 * potentials certify it (reduced cost >= 0 on every open residual arc). */
static void test_solver_direct(void **state)
{
    (void)state;
    /* 0 -> 1 infinite (cost 2), 1 -> 2 cap 3 (cost -1); supply 3 at 0;
     * cap_inf = finite caps + supply + 1 = 7, as the normaliser would pick. */
    const int32_t tail[] = {0, 1}, head[] = {1, 2};
    const int64_t cap[] = {7, 3}, cost[] = {2, -1}, supply[] = {3, 0, -3};
    const uint8_t is_inf[] = {1, 0};
    pl_flow_problem p = {.n = 3, .m = 2, .tail = tail, .head = head, .cap = cap,
                         .cost = cost, .supply = supply, .is_inf = is_inf, .cap_inf = 7};
    int64_t flow[2] = {0}, pot[3] = {0};
    pl_flow_solution sol = {.flow = flow, .potential = pot};
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    assert_pl_ok(pl_solver_glpk.solve(&p, &o, &sol));
    assert_int_equal(flow[0], 3);
    assert_int_equal(flow[1], 3);
    assert_true(sol.iterations >= 1);
    /* Arc 0 (flow 3 of 4) is open both ways: reduced cost exactly 0. Arc 1 is
     * saturated: only its backward arc is open, needing reduced cost <= 0. */
    assert_int_equal(cost[0] + pot[0] - pot[1], 0);
    assert_true(cost[1] + pot[1] - pot[2] <= 0);
}

static void test_iteration_limit(void **state)
{
    (void)state;
    pl_flownet *net = transport();
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = "glpk";
    o.max_iterations = 1;
    assert_pl_status(pl_flownet_solve(net, &o, NULL), PL_ELIMIT);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* Issue 25: GLPK's floating simplex, whose tolerances are relative to the
 * largest cost, stopped at cost 2 with costs 1, 2 and 1e10, and
 * --lp-check then blamed the correct solvers. The exact simplex after it
 * gives the optimum 1. */
static void test_wide_cost_range(void **state)
{
    (void)state;
    pl_flownet *net = new_net();
    add_node(net, 1);
    add_node(net, -1);
    add_arc(net, 0, 1, 0, 1, 2);
    add_arc(net, 0, 1, 0, 1, 1);
    add_arc(net, 0, 1, 0, 1, 10000000000LL);
    int64_t cost;
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, 1);
    assert_pl_ok(pl_test_solve(net, "network-simplex", &cost));
    int64_t lp = 0;
    assert_pl_ok(pl_flow_lp_check(net, &lp));
    assert_int_equal(lp, 1);
    pl_flownet_free(net);

    /* Random networks with costs up to 2^45 (19 of 120 failed before):
     * GLPK and network simplex agree on every one, and the LP check passes. */
    pl_test_rng r = {45};
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    o.max_cost = TWO_POW(45);
    o.neg_costs = 1;
    int agreed = 0;
    for (int i = 0; i < 120; i++) {
        net = pl_randnet(&r, &o);
        int64_t ns = 0, gl = 0;
        pl_status a = pl_test_solve(net, "network-simplex", &ns);
        pl_status b = pl_test_solve(net, "glpk", &gl);
        if (a != b || (a == PL_OK && ns != gl))
            fail_msg("instance %d: network simplex %s %lld, glpk %s %lld", i, pl_status_name(a),
                     (long long)ns, pl_status_name(b), (long long)gl);
        if (a == PL_OK) {
            assert_pl_ok(pl_test_solve(net, "network-simplex", &ns));
            assert_pl_ok(pl_flow_lp_check(net, NULL));
            agreed++;
        }
        pl_flownet_free(net);
    }
    print_message("%d of 120 feasible and bounded\n", agreed);
    assert_true(agreed > 25);
}

static void test_lp_check_accepts(void **state)
{
    (void)state;
    pl_flownet *net = transport();
    assert_pl_ok(pl_test_solve(net, "glpk", NULL));
    int64_t lp = 0;
    assert_pl_ok(pl_flow_lp_check(net, &lp));
    assert_int_equal(lp, 20);
    assert_pl_ok(pl_flow_lp_check(net, NULL));

    /* An optimal solution from elsewhere (x = 4 above) passes too. */
    const int64_t flow[] = {4, 1, 2, 3};
    assert_pl_ok(pl_flownet_set_solution(net, flow, NULL));
    assert_pl_ok(pl_flow_lp_check(net, &lp));
    assert_int_equal(lp, 20);
    pl_flownet_free(net);
}

/* x = 1 in the transport problem is feasible (flows 1,4,5,0) but costs
 * 36 - 4 = 32 against the optimum 20. */
static void test_lp_check_rejects(void **state)
{
    (void)state;
    pl_flownet *net = transport();
    const int64_t flow[] = {1, 4, 5, 0};
    assert_pl_ok(pl_flownet_set_solution(net, flow, NULL));
    int64_t lp = 0;
    assert_pl_status(pl_flow_lp_check(net, &lp), PL_EVERIFY);
    assert_int_equal(lp, 20);
    assert_message_has("LP optimum 20 differs from the solution's cost 32");

    /* A solution held for a network GLPK finds infeasible is rejected too. */
    pl_flownet *bad = new_net();
    add_node(bad, 5);
    add_node(bad, -5);
    add_arc(bad, 0, 1, 0, 3, 1);
    const int64_t over[] = {5};
    assert_pl_ok(pl_flownet_set_solution(bad, over, NULL));
    assert_pl_status(pl_flow_lp_check(bad, NULL), PL_EVERIFY);
    assert_message_has("infeasible");
    pl_flownet_free(bad);
    pl_flownet_free(net);
}

static void test_lp_check_state(void **state)
{
    (void)state;
    pl_flownet *net = transport();
    assert_pl_status(pl_flow_lp_check(net, NULL), PL_ESTATE);
    assert_pl_ok(pl_test_solve(net, "glpk", NULL));
    assert_pl_ok(pl_flow_lp_check(net, NULL));
    /* Any change drops the solution, so the check refuses again. */
    assert_pl_ok(pl_flownet_set_arc_cost(net, 0, 2));
    assert_pl_status(pl_flow_lp_check(net, NULL), PL_ESTATE);
    assert_pl_status(pl_flow_lp_check(NULL, NULL), PL_EINVAL);
    pl_flownet_free(net);
}

/* Doubles stop holding every integer beyond 2^53, so larger inputs are
 * refused up front; up to 2^53 the cost is still summed exactly. */
static void test_overflow(void **state)
{
    (void)state;
    pl_flownet *net = transport();
    assert_pl_ok(pl_flownet_set_arc_cost(net, 1, TWO_POW(60)));
    const int64_t flow[] = {4, 0, 2, 4};
    assert_pl_ok(pl_flownet_set_solution(net, flow, NULL));
    assert_pl_status(pl_flow_lp_check(net, NULL), PL_EOVERFLOW);
    assert_message_has("2^53");

    /* The driver lets 2^54 through for 4 nodes (its limit is 2^60 / n); the
     * GLPK solver refuses it. */
    assert_pl_ok(pl_flownet_set_arc_cost(net, 1, TWO_POW(54)));
    assert_pl_status(pl_test_solve(net, "glpk", NULL), PL_EOVERFLOW);
    pl_flownet_free(net);

    const int32_t tail[] = {0, 0}, head[] = {1, 1};
    const int64_t upper[] = {1, 1}, supply[] = {2, -2};
    int64_t out = 0;
    const int64_t huge[] = {TWO_POW(60), 1};
    assert_pl_status(pl_glpk_min_cost(2, 2, tail, head, NULL, upper, huge, supply, &out),
                     PL_EOVERFLOW);
    const int64_t big_supply[] = {TWO_POW(53) + 1, -(TWO_POW(53) + 1)};
    const int64_t inf[] = {PL_CAP_INF, PL_CAP_INF}, one[] = {1, 1};
    assert_pl_status(pl_glpk_min_cost(2, 2, tail, head, NULL, inf, one, big_supply, &out),
                     PL_EOVERFLOW);

    /* Costs 2^53 and 2^53 - 1 on the two forced units: the optimum 2^54 - 1
     * has no double representation, but the returned cost is exact. */
    const int64_t edge[] = {TWO_POW(53), TWO_POW(53) - 1};
    assert_pl_ok(pl_glpk_min_cost(2, 2, tail, head, NULL, upper, edge, supply, &out));
    assert_int_equal(out, TWO_POW(54) - 1);
}

static void test_min_cost_args(void **state)
{
    (void)state;
    const int32_t tail[] = {0}, head[] = {2};
    const int64_t lower[] = {0}, upper[] = {1}, cost[] = {1}, supply[] = {0, 0};
    int64_t out;
    assert_pl_status(pl_glpk_min_cost(2, 1, tail, head, lower, upper, cost, supply, &out),
                     PL_EINVAL);
    const int64_t bad_lower[] = {2};
    const int32_t h1[] = {1};
    assert_pl_status(pl_glpk_min_cost(2, 1, tail, h1, bad_lower, upper, cost, supply, &out),
                     PL_EINVAL);
    assert_pl_status(pl_glpk_min_cost(2, 1, tail, h1, lower, upper, cost, supply, NULL),
                     PL_EINVAL);
    /* Lower bounds count in the cost: 2 forced units at cost 1 plus 0. */
    const int64_t low2[] = {2}, up5[] = {5}, sup2[] = {2, -2};
    assert_pl_ok(pl_glpk_min_cost(2, 1, tail, h1, low2, up5, cost, sup2, &out));
    assert_int_equal(out, 2);
}

/* ---- GLPK's fatal errors ------------------------------------------------ */

/* Column 7 of an empty problem: GLPK reports "column number out of range"
 * and would abort() without the guard. */
static pl_status bad_column(glp_prob *lp, void *arg)
{
    (void)arg;
    glp_set_col_bnds(lp, 7, GLP_FX, 0.0, 0.0);
    return PL_OK; /* not reached */
}

/* Adding zero rows is also a fatal error in GLPK. */
static pl_status zero_rows(glp_prob *lp, void *arg)
{
    int *reached = arg;
    glp_add_rows(lp, 1);
    glp_add_rows(lp, 0);
    *reached = 1;
    return PL_OK;
}

/* Run body under pl_glpk_run with stdout and stderr sent to a temporary
 * file; return the status and how many bytes were written there. */
static pl_status run_captured(pl_glpk_body body, void *arg, long *written)
{
    fflush(stdout);
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int out = dup(1), err = dup(2);
    assert_true(out >= 0 && err >= 0);
    assert_true(dup2(fileno(tmp), 1) >= 0 && dup2(fileno(tmp), 2) >= 0);
    pl_status st = pl_glpk_run(body, arg);
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(err, 2);
    close(out);
    close(err);
    fseek(tmp, 0, SEEK_END);
    *written = ftell(tmp);
    fclose(tmp);
    return st;
}

static void test_error_hook(void **state)
{
    (void)state;
    long written = -1;
    assert_pl_status(run_captured(bad_column, NULL, &written), PL_EINTERNAL);
    assert_message_has("column number out of range");
    assert_int_equal(written, 0); /* GLPK's error text went to our message, not the terminal */

    int reached = 0;
    assert_pl_status(run_captured(zero_rows, &reached, &written), PL_EINTERNAL);
    assert_int_equal(reached, 0);
    assert_int_equal(written, 0);
    assert_message_has("glp_add_rows");

    /* GLPK is usable again afterwards. */
    pl_flownet *net = transport();
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, 20);
    pl_flownet_free(net);
}

/* With no GLPK object of the caller's alive the environment is released on
 * return (glp_free_env then reports it inactive); with one alive it is kept,
 * the caller's object stays valid and terminal output is switched back on. */
static void test_glpk_environment(void **state)
{
    (void)state;
    pl_flownet *net = transport();
    assert_pl_ok(pl_test_solve(net, "glpk", NULL));
    assert_int_equal(glp_free_env(), 1);

    glp_prob *mine = glp_create_prob();
    glp_add_rows(mine, 3);
    assert_pl_ok(pl_flownet_set_arc_cost(net, 0, 5));
    int64_t cost = 0;
    /* With cost 5 on s0->t0 the transport cost is 5x + 4(5-x) + 3(6-x) +
     * 2(x-1) = 36 whatever x. */
    assert_pl_ok(pl_test_solve(net, "glpk", &cost));
    assert_int_equal(cost, 36);
    assert_int_equal(glp_get_num_rows(mine), 3);
    assert_int_equal(glp_term_out(GLP_ON), GLP_ON);
    glp_delete_prob(mine);
    assert_int_equal(glp_free_env(), 0);
    pl_flownet_free(net);
}

/* GLPK's environment is per thread: concurrent solves must not interfere. */
static void *solve_many(void *arg)
{
    int *bad = arg;
    for (int i = 0; i < 20; i++) {
        pl_flownet *net = NULL;
        int64_t cost = 0;
        if (pl_flownet_create(&net) != PL_OK) {
            (*bad)++;
            continue;
        }
        pl_flownet_add_node(net, NULL, 5, NULL);
        pl_flownet_add_node(net, NULL, 5, NULL);
        pl_flownet_add_node(net, NULL, -6, NULL);
        pl_flownet_add_node(net, NULL, -4, NULL);
        pl_flownet_add_arc(net, 0, 2, 0, 4, 1, NULL);
        pl_flownet_add_arc(net, 0, 3, 0, 10, 4, NULL);
        pl_flownet_add_arc(net, 1, 2, 0, 10, 3, NULL);
        pl_flownet_add_arc(net, 1, 3, 0, 10, 2, NULL);
        if (pl_test_solve(net, "glpk", &cost) != PL_OK || cost != 20 ||
            pl_flow_lp_check(net, NULL) != PL_OK)
            (*bad)++;
        pl_flownet_free(net);
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    enum { N = 4 };
    pthread_t th[N];
    int bad[N] = {0};
    for (int i = 0; i < N; i++)
        assert_int_equal(pthread_create(&th[i], NULL, solve_many, &bad[i]), 0);
    for (int i = 0; i < N; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_int_equal(bad[i], 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transport),
        cmocka_unit_test(test_negative_costs),
        cmocka_unit_test(test_lower_bounds),
        cmocka_unit_test(test_loops_and_empty),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_unbounded),
        cmocka_unit_test(test_solver_direct),
        cmocka_unit_test(test_iteration_limit),
        cmocka_unit_test(test_wide_cost_range),
        cmocka_unit_test(test_lp_check_accepts),
        cmocka_unit_test(test_lp_check_rejects),
        cmocka_unit_test(test_lp_check_state),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_min_cost_args),
        cmocka_unit_test(test_error_hook),
        cmocka_unit_test(test_glpk_environment),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
