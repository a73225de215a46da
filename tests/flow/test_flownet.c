/* Building and querying a network through the public API, and the
 * normalisation every solver relies on. */
#include <string.h>
#include "../common/testutil.h"
#include "internal/flownet_impl.h"

static void test_build_and_query(void **s)
{
    (void)s;
    pl_flownet *net;
    int32_t a, b, c, arc;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, "src", 3, &a));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 0, &b));
    assert_pl_ok(pl_flownet_add_node(net, "dst", -3, &c));
    assert_int_equal(a, 0);
    assert_int_equal(c, 2);
    assert_pl_ok(pl_flownet_add_arc(net, a, b, 1, 5, -2, &arc));
    assert_int_equal(arc, 0);
    assert_pl_ok(pl_flownet_add_arc(net, b, c, 0, PL_CAP_INF, 4, &arc));
    assert_int_equal(arc, 1);
    assert_int_equal(pl_flownet_node_count(net), 3);
    assert_int_equal(pl_flownet_arc_count(net), 2);
    pl_arc_info info;
    assert_pl_ok(pl_flownet_get_arc(net, 0, &info));
    assert_int_equal(info.tail, 0);
    assert_int_equal(info.head, 1);
    assert_int_equal(info.lower, 1);
    assert_int_equal(info.upper, 5);
    assert_int_equal(info.cost, -2);
    assert_string_equal(pl_flownet_node_name(net, 0), "src");
    assert_null(pl_flownet_node_name(net, 1));
    assert_null(pl_flownet_node_name(net, 7));
    int32_t found;
    assert_pl_ok(pl_flownet_find_node(net, "dst", &found));
    assert_int_equal(found, 2);
    assert_pl_status(pl_flownet_find_node(net, "nope", &found), PL_ENOTFOUND);
    int64_t sup;
    assert_pl_ok(pl_flownet_get_supply(net, 2, &sup));
    assert_int_equal(sup, -3);
    pl_flownet_free(net);
}

static void test_invalid_arguments(void **s)
{
    (void)s;
    pl_flownet *net;
    assert_pl_status(pl_flownet_create(NULL), PL_EINVAL);
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_nodes(net, 2, NULL));
    assert_pl_status(pl_flownet_add_arc(net, 0, 2, 0, 1, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_flownet_add_arc(net, -1, 1, 0, 1, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_flownet_add_arc(net, 0, 1, 3, 2, 0, NULL), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "lower bound 3 exceeds upper bound 2"));
    assert_pl_status(pl_flownet_add_arc(net, 0, 1, PL_CAP_INF, PL_CAP_INF, 0, NULL), PL_EINVAL);
    assert_int_equal(pl_flownet_arc_count(net), 0); /* failed calls add nothing */
    assert_pl_status(pl_flownet_add_nodes(net, -1, NULL), PL_EINVAL);
    assert_pl_status(pl_flownet_set_supply(net, 2, 1), PL_EINVAL);
    assert_pl_status(pl_flownet_set_arc_cost(net, 0, 1), PL_EINVAL);
    assert_pl_status(pl_flownet_get_arc(net, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_flownet_reserve(net, -1, 0), PL_EINVAL);
    assert_pl_status(pl_flownet_set_id_base(net, 2), PL_EINVAL);
    assert_pl_status(pl_flownet_solve(NULL, NULL, NULL), PL_EINVAL);
    assert_int_equal(pl_flownet_node_count(NULL), 0);
    pl_flownet_free(net);
}

static void test_solution_state(void **s)
{
    (void)s;
    pl_flownet *net;
    int64_t cost, flow;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 2, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -2, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, 5, 7, NULL));
    assert_pl_status(pl_flownet_solution_cost(net, &cost), PL_ESTATE);
    assert_null(pl_flownet_flows(net));
    assert_pl_ok(pl_flownet_solve(net, NULL, NULL));
    assert_true(pl_flownet_has_solution(net));
    assert_pl_ok(pl_flownet_solution_cost(net, &cost));
    assert_int_equal(cost, 14);
    assert_pl_ok(pl_flownet_get_flow(net, 0, &flow));
    assert_int_equal(flow, 2);
    assert_pl_status(pl_flownet_get_flow(net, 1, &flow), PL_EINVAL);
    /* Any change discards the solution. */
    assert_pl_ok(pl_flownet_set_arc_cost(net, 0, 3));
    assert_false(pl_flownet_has_solution(net));
    assert_pl_status(pl_flownet_get_potential(net, 0, &flow), PL_ESTATE);
    assert_pl_ok(pl_flownet_solve(net, NULL, NULL));
    assert_pl_ok(pl_flownet_solution_cost(net, &cost));
    assert_int_equal(cost, 6);
    pl_flownet_free(net);
}

static void test_unbalanced_supplies(void **s)
{
    (void)s;
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 3, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -2, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, 5, 1, NULL));
    assert_pl_status(pl_flownet_solve(net, NULL, NULL), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "supplies sum to 1"));
    pl_flownet_free(net);
}

static void test_overflow_limits(void **s)
{
    (void)s;
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_nodes(net, 2, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, (int64_t)1 << 62, 1, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, (int64_t)1 << 62, 1, NULL));
    assert_pl_status(pl_flownet_solve(net, NULL, NULL), PL_EOVERFLOW);
    assert_non_null(strstr(pl_last_error(), "PL_CAP_INF"));
    assert_pl_ok(pl_flownet_set_arc_bounds(net, 0, 0, 10));
    assert_pl_ok(pl_flownet_set_arc_bounds(net, 1, 0, 5));
    assert_pl_ok(pl_flownet_solve(net, NULL, NULL));
    assert_pl_ok(pl_flownet_set_arc_cost(net, 0, (int64_t)1 << 60));
    assert_pl_status(pl_flownet_solve(net, NULL, NULL), PL_EOVERFLOW);
    assert_non_null(strstr(pl_last_error(), "too large"));
    pl_flownet_free(net);
}

/* Total cost = sum flow * cost must not wrap: 2^40 units at cost 2^30 = 2^70. */
static void test_total_cost_overflow(void **s)
{
    (void)s;
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, (int64_t)1 << 40, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -((int64_t)1 << 40), NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, PL_CAP_INF, (int64_t)1 << 30, NULL));
    assert_pl_status(pl_flownet_solve(net, NULL, NULL), PL_EOVERFLOW);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* Issue 25: two fixed arcs of flow 8 and cost 2^59 and one back of flow 16
 * and cost -2^59 total 0; int64 partial sums overflowed in one order and not
 * in the other. Both orders now solve to 0 with every solver. */
static void test_total_cost_order(void **s)
{
    (void)s;
    const int64_t c = (int64_t)1 << 59;
    for (int order = 0; order < 2; order++) {
        pl_flownet *net;
        assert_pl_ok(pl_flownet_create(&net));
        assert_pl_ok(pl_flownet_add_node(net, NULL, 0, NULL));
        assert_pl_ok(pl_flownet_add_node(net, NULL, 0, NULL));
        if (order)
            assert_pl_ok(pl_flownet_add_arc(net, 1, 0, 16, 16, -c, NULL));
        assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 8, 8, c, NULL));
        assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 8, 8, c, NULL));
        if (!order)
            assert_pl_ok(pl_flownet_add_arc(net, 1, 0, 16, 16, -c, NULL));
        static const char *const solvers[] = {"network-simplex", "ssp", "cost-scaling",
                                              "relaxation", "cycle-canceling"};
        for (size_t i = 0; i < sizeof solvers / sizeof *solvers; i++) {
            int64_t cost = -1;
            if (pl_test_solve(net, solvers[i], &cost) != PL_OK)
                fail_msg("order %d, %s: %s", order, solvers[i], pl_last_error());
            assert_int_equal(cost, 0);
        }
        pl_flownet_free(net);
    }
}

/* Issue 25: finite capacities and supplies near 2^62 overflowed the
 * cap_inf sum (UBSan) and the message printed a negative total. */
static void test_cap_inf_sum_overflow(void **s)
{
    (void)s;
    const int64_t big = (int64_t)1 << 62;
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, big, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -big, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, big, 1, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, PL_CAP_INF, 2, NULL));
    assert_pl_status(pl_flownet_solve(net, NULL, NULL), PL_EOVERFLOW);
    assert_null(strstr(pl_last_error(), " -")); /* no wrapped-around total */
    assert_non_null(strstr(pl_last_error(), "4611686018427387904"));
    pl_flownet_free(net);
}

/* Lower bounds fold into supplies; infinite capacities become cap_inf. */
static void test_normalise(void **s)
{
    (void)s;
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 4, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 0, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -4, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 2, 6, 1, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 1, 2, 0, PL_CAP_INF, 1, NULL));
    pl_flow_problem p;
    assert_pl_ok(pl_flownet_normalise(net, &p));
    assert_int_equal(p.cap[0], 4);
    assert_int_equal(p.supply[0], 2);
    assert_int_equal(p.supply[1], 2);
    /* finite caps 4 + positive supplies 4 (2 + 2), plus one */
    assert_int_equal(p.cap_inf, 9);
    assert_int_equal(p.cap[1], 9);
    assert_true(p.is_inf[1]);
    /* CSR: node 1 has the backward arc of 0 and the forward arc of 1. */
    assert_int_equal(p.out_first[1], 1);
    assert_int_equal(p.out_first[2], 3);
    assert_int_equal(p.out_arcs[1], 1);
    assert_int_equal(p.out_arcs[2], 2);
    assert_int_equal(pl_residual_head(&p, 1), 0);
    assert_int_equal(pl_residual_cost(&p, 1), -1);
    pl_flownet_free(net);
}

static void test_empty_network(void **s)
{
    (void)s;
    pl_flownet *net;
    int64_t cost = -1;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 0);
    pl_flownet_free(net);
}

/* A big grown network keeps its data across reallocations. */
static void test_growth(void **s)
{
    (void)s;
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    for (int i = 0; i < 5000; i++)
        assert_pl_ok(pl_flownet_add_node(net, i % 7 ? NULL : "x", i == 0 ? 4999 : -1, NULL));
    for (int i = 1; i < 5000; i++)
        assert_pl_ok(pl_flownet_add_arc(net, 0, i, 0, 1, i % 13, NULL));
    int64_t cost, want = 0;
    for (int i = 1; i < 5000; i++)
        want += i % 13;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, want);
    assert_string_equal(pl_flownet_node_name(net, 4998), "x");
    pl_flownet_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_and_query),  cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_solution_state),   cmocka_unit_test(test_unbalanced_supplies),
        cmocka_unit_test(test_overflow_limits),  cmocka_unit_test(test_total_cost_overflow),
        cmocka_unit_test(test_normalise),        cmocka_unit_test(test_empty_network),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_total_cost_order), cmocka_unit_test(test_cap_inf_sum_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
