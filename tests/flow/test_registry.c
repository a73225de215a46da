/* Solver registry: built-ins are listed and found; a user solver can be
 * registered, used by name or directly through opts.ops, and removed. */
#include <string.h>
#include "../common/testutil.h"

/* A deliberately naive user solver: route every supply along arc 0 only.
 * It suffices for the one-arc network used below and returns potentials
 * that make arc 0's reduced cost zero. */
static pl_status one_arc_solve(const pl_flow_problem *p, const pl_solve_opts *o, pl_flow_solution *out)
{
    (void)o;
    if (p->m != 1)
        return pl_solver_error(PL_EINVAL, "one-arc solver needs exactly one arc, got %d", p->m);
    out->flow[0] = p->supply[p->tail[0]];
    out->potential[p->head[0]] = p->cost[0];
    out->iterations = 1;
    return PL_OK;
}

static const pl_solver_ops one_arc = {.name = "one-arc", .description = "test solver: a single arc", .solve = one_arc_solve};

/* A broken solver that returns more flow than the capacity. */
static pl_status broken_solve(const pl_flow_problem *p, const pl_solve_opts *o, pl_flow_solution *out)
{
    (void)o;
    out->flow[0] = p->cap[0] + 1;
    return PL_OK;
}

static const pl_solver_ops broken = {.name = "broken", .description = "returns too much flow", .solve = broken_solve};

static pl_flownet *one_arc_net(void)
{
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 3, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -3, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, 10, 5, NULL));
    return net;
}

static void test_builtins(void **s)
{
    (void)s;
    const char *want[] = {"ssp", "cycle-canceling", "glpk"};
    assert_true(pl_solver_count() >= 3);
    for (int i = 0; i < 3; i++) {
        const pl_solver_ops *ops;
        assert_pl_ok(pl_solver_find(want[i], &ops));
        assert_string_equal(ops->name, want[i]);
        assert_non_null(ops->description);
        assert_true(strlen(ops->description) > 5);
    }
    assert_string_equal(pl_solver_at(0)->name, PL_DEFAULT_SOLVER);
    assert_null(pl_solver_at(-1));
    assert_null(pl_solver_at(pl_solver_count()));
    const pl_solver_ops *ops;
    assert_pl_status(pl_solver_find("simplex-magic", &ops), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "known: network-simplex, ssp, cost-scaling, cycle-canceling, glpk"));
}

static void test_register_use_unregister(void **s)
{
    (void)s;
    int before = pl_solver_count();
    assert_pl_ok(pl_solver_register(&one_arc));
    assert_int_equal(pl_solver_count(), before + 1);
    assert_string_equal(pl_solver_at(before)->name, "one-arc");
    assert_pl_status(pl_solver_register(&one_arc), PL_EINVAL);

    pl_flownet *net = one_arc_net();
    int64_t cost;
    assert_pl_ok(pl_test_solve(net, "one-arc", &cost));
    assert_int_equal(cost, 15);
    pl_flownet_free(net);

    assert_pl_ok(pl_solver_unregister("one-arc"));
    assert_int_equal(pl_solver_count(), before);
    assert_pl_status(pl_solver_unregister("one-arc"), PL_ENOTFOUND);
    assert_pl_status(pl_solver_unregister("ssp"), PL_EINVAL);
}

static void test_direct_ops(void **s)
{
    (void)s;
    pl_flownet *net = one_arc_net();
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.ops = &one_arc;
    o.solver = "ignored-name";
    o.verify = 1;
    pl_solve_stats st;
    assert_pl_ok(pl_flownet_solve(net, &o, &st));
    assert_string_equal(st.solver, "one-arc");
    assert_int_equal(st.iterations, 1);
    assert_int_equal(st.nodes, 2);
    assert_int_equal(st.arcs, 1);
    pl_flownet_free(net);
}

static void test_invalid_registrations(void **s)
{
    (void)s;
    static const pl_solver_ops no_fn = {.name = "nofn", .description = "x", .solve = NULL};
    static const pl_solver_ops dup = {.name = "ssp", .description = "x", .solve = one_arc_solve};
    assert_pl_status(pl_solver_register(NULL), PL_EINVAL);
    assert_pl_status(pl_solver_register(&no_fn), PL_EINVAL);
    assert_pl_status(pl_solver_register(&dup), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "already exists"));
}

static void test_broken_solver_caught(void **s)
{
    (void)s;
    pl_flownet *net = one_arc_net();
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.ops = &broken;
    assert_pl_status(pl_flownet_solve(net, &o, NULL), PL_EVERIFY);
    assert_non_null(strstr(pl_last_error(), "solver broken returned flow 11"));
    assert_false(pl_flownet_has_solution(net));
    o.ops = NULL;
    o.max_iterations = -1;
    assert_pl_status(pl_flownet_solve(net, &o, NULL), PL_EINVAL);
    /* A reserved slot a solver would read as the race's stop flag. */
    int junk = 1;
    o.max_iterations = 0;
    o.solver = "relaxation";
    o.reserved[0] = &junk;
    assert_pl_status(pl_flownet_solve(net, &o, NULL), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "reserved[0] is not zero"));
    o.reserved[0] = NULL;
    assert_pl_ok(pl_flownet_solve(net, &o, NULL));
    pl_flownet_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_register_use_unregister),
        cmocka_unit_test(test_direct_ops),
        cmocka_unit_test(test_invalid_registrations),
        cmocka_unit_test(test_broken_solver_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
