/* pl_flow_verify must accept a true optimum and name what is wrong with
 * each kind of false one. Network (ids 0-based):
 *   node 0 supply 4, node 2 supply -4;
 *   arcs 0->1 cap 3 cost 1, 0->2 cap 4 cost 4, 1->2 cap 3 cost 1.
 * Optimum by hand: 3 units 0->1->2 (2 each) + 1 unit 0->2 (4) = 10.
 * Certificate (rc = cost + pi(u) - pi(v)): arc 0->2 carries flow strictly
 * between its bounds so rc = 0: pi(2) = pi(0) + 4. The saturated arcs need
 * rc <= 0. pi = (0, 2, 4): rc(0->1) = -1, rc(1->2) = -1, rc(0->2) = 0.
 */
#include <string.h>
#include "../common/testutil.h"

static pl_flownet *example(void)
{
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 4, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 0, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -4, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, 3, 1, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 2, 0, 4, 4, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 1, 2, 0, 3, 1, NULL));
    return net;
}

static void expect_verify(pl_flownet *net, const int64_t *flow, const int64_t *pot,
                          pl_status want, const char *what)
{
    assert_pl_ok(pl_flownet_set_solution(net, flow, pot));
    assert_pl_status(pl_flow_verify(net), want);
    if (what && !strstr(pl_last_error(), what))
        fail_msg("message '%s' lacks '%s'", pl_last_error(), what);
}

static void test_accepts_optimum(void **s)
{
    (void)s;
    pl_flownet *net = example();
    const int64_t flow[] = {3, 1, 3}, pot[] = {0, 2, 4};
    expect_verify(net, flow, pot, PL_OK, NULL);
    int64_t cost;
    assert_pl_ok(pl_flownet_solution_cost(net, &cost));
    assert_int_equal(cost, 10);
    pl_flownet_free(net);
}

static void test_rejects_bounds(void **s)
{
    (void)s;
    pl_flownet *net = example();
    const int64_t over[] = {4, 0, 4}, neg[] = {-1, 5, -1}, pot[] = {0, 2, 4};
    expect_verify(net, over, pot, PL_EVERIFY, "arc 0 (0 -> 1): flow 4 above its capacity 3");
    expect_verify(net, neg, pot, PL_EVERIFY, "flow -1 below its lower bound 0");
    pl_flownet_free(net);
}

static void test_rejects_conservation(void **s)
{
    (void)s;
    pl_flownet *net = example();
    const int64_t flow[] = {3, 1, 2}, pot[] = {0, 2, 4};
    expect_verify(net, flow, pot, PL_EVERIFY, "node 1: flow out minus flow in is -1 but its supply is 0");
    pl_flownet_free(net);
}

/* Feasible but not optimal: all 4 units on the direct arc (cost 16). No
 * potentials can certify it; the zero ones fail on arc 0->2. */
static void test_rejects_suboptimal(void **s)
{
    (void)s;
    pl_flownet *net = example();
    const int64_t flow[] = {0, 4, 0};
    expect_verify(net, flow, NULL, PL_EVERIFY, "reduced cost 4 > 0 but flow 4 is above");
    /* The optimal flow with wrong potentials is rejected too. */
    const int64_t opt[] = {3, 1, 3}, bad_pot[] = {0, 0, 0};
    expect_verify(net, opt, bad_pot, PL_EVERIFY, "not optimal");
    pl_flownet_free(net);
}

static void test_lower_bound_slackness(void **s)
{
    (void)s;
    /* An arc forced to carry 2 at a high cost: reduced cost > 0 is fine at its lower bound. */
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 2, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -2, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 2, 9, 100, NULL));
    const int64_t flow[] = {2}, pot[] = {0, 0};
    expect_verify(net, flow, pot, PL_OK, NULL);
    pl_flownet_free(net);
}

static void test_needs_solution(void **s)
{
    (void)s;
    pl_flownet *net = example();
    assert_pl_status(pl_flow_verify(net), PL_ESTATE);
    assert_pl_status(pl_flow_verify(NULL), PL_EINVAL);
    assert_pl_status(pl_flownet_set_solution(net, NULL, NULL), PL_EINVAL);
    pl_flownet_free(net);
}

/* The solver's own answer passes, and so do certificates after an infinite
 * arc was saturated at its internal cap (the driver repairs the potentials). */
static void test_solver_answer_verifies(void **s)
{
    (void)s;
    pl_flownet *net = example();
    int64_t cost;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 10);
    assert_pl_ok(pl_flow_verify(net));
    pl_flownet_free(net);

    /* 0 -> 1 infinite at cost -1, 1 -> 0 infinite at cost +1: a zero-cost
     * infinite cycle; 2 units must go 0 -> 1 -> 2. */
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 2, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 0, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -2, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, PL_CAP_INF, -1, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 1, 0, 0, PL_CAP_INF, 1, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 1, 2, 0, 2, 3, NULL));
    const char *solvers[] = {"ssp", "cycle-canceling", "glpk"};
    for (int i = 0; i < 3; i++) {
        assert_pl_ok(pl_test_solve(net, solvers[i], &cost));
        assert_int_equal(cost, 4);
    }
    pl_flownet_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts_optimum),       cmocka_unit_test(test_rejects_bounds),
        cmocka_unit_test(test_rejects_conservation),  cmocka_unit_test(test_rejects_suboptimal),
        cmocka_unit_test(test_lower_bound_slackness), cmocka_unit_test(test_needs_solution),
        cmocka_unit_test(test_solver_answer_verifies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
