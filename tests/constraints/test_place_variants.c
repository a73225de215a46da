/* The ch. 4 algorithms added for issue 24 (ES-basic, Attribute-aware,
 * LB-basic, Periodic migration), each on a hand-checked case against its
 * neighbour, and the per-creation traces. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include <placement/constraint_sets.h>

static pl_cnodes *nodes_with(int32_t count, double cores, const char *const *attrs)
{
    pl_cnodes *n = NULL;
    assert_pl_ok(pl_cnodes_create(&n));
    for (int32_t i = 0; i < count; i++)
        assert_pl_ok(pl_cnodes_add(n, NULL, cores, 64, attrs[i], NULL));
    return n;
}

/* Place with algorithm name (period for "periodic"); the assignment of units 0 and 1. */
static void place2(pl_constraints *c, const pl_cnodes *n, const char *name, int32_t period, int32_t want0,
                   int32_t want1)
{
    pl_constraint_place_opts o;
    pl_constraint_place_opts_init(&o);
    o.algorithm = name;
    o.period = period;
    int32_t a[2], unplaced = -1;
    assert_pl_ok(pl_constraint_place(c, n, &o, a, &unplaced));
    assert_int_equal(unplaced, 0);
    if (a[0] != want0 || a[1] != want1)
        fail_msg("%s: units on %d, %d; want %d, %d", name, a[0], a[1], want0, want1);
    assert_pl_ok(pl_constraints_check(c, n, a));
}

/* Two 4-core nodes (x=1, x=0) and two units of 2 cores, unconstrained. */
static pl_constraints *two_halves(pl_cnodes **nodes)
{
    static const char *const attrs[2] = {"x=1", "x=0"};
    *nodes = nodes_with(2, 4, attrs);
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(2, &c));
    assert_pl_ok(pl_constraints_set_demand(c, 0, 2, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 1, 2, 1));
    return c;
}

/* Unit 0 (2 cores) must run on node 2 (x=1); unit 1 (1 core) anywhere.
 * ES-basic: unit 1 on node 0, the lowest index (2 active nodes);
 * activeness-aware: on node 2, already active (1 active node). */
static void test_es_basic_vs_activeness(void **state)
{
    (void)state;
    static const char *const attrs[3] = {"x=0", "x=0", "x=1"};
    pl_cnodes *n = nodes_with(3, 4, attrs);
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(2, &c));
    assert_pl_ok(pl_constraints_set_demand(c, 0, 2, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 1, 1, 1));
    assert_pl_ok(pl_constraints_node_must(c, 0, "x", "1"));
    place2(c, n, "es-basic", 0, 2, 0);
    place2(c, n, "constraint-energy", 0, 2, 2);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* Two free units of 1 core; node 1 possesses attributes a and b, node 0
 * neither ("0"), node 2 only a. ES-basic takes node 0; Attribute-aware
 * takes node 1 (2 attributes possessed), then node 1 again (room left). */
static void test_attribute_aware(void **state)
{
    (void)state;
    static const char *const attrs[3] = {"a=0,b=0", "a=1,b=1", "a=1,b=0"};
    pl_cnodes *n = nodes_with(3, 4, attrs);
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(2, &c));
    assert_pl_ok(pl_constraints_set_demand(c, 0, 1, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 1, 1, 1));
    place2(c, n, "es-basic", 0, 0, 0);
    place2(c, n, "att-aware", 0, 1, 1);
    /* unit 1 must avoid unit 0: the next in attribute order, node 2 */
    assert_pl_ok(pl_constraints_separate(c, 0, 1));
    place2(c, n, "att-aware", 0, 1, 2);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* Two nodes of 4 cores; unit 0 (2 cores) free, unit 1 (2 cores) must run on
 * node 0 (x=1). Worst fit puts unit 0 on node 0 (tie, lowest index), then
 * unit 1 must join it: utilisations 1 and 0. LB-basic leaves it there;
 * periodic migration every 2 creations moves unit 0 to node 1 (0.5 and 0.5,
 * sigma 0). The spot algorithm does the same at once (the selected node). */
static void test_lb_basic_vs_periodic(void **state)
{
    (void)state;
    pl_cnodes *n = NULL;
    pl_constraints *c = two_halves(&n);
    assert_pl_ok(pl_constraints_node_must(c, 1, "x", "1"));
    place2(c, n, "lb-basic", 0, 0, 0);
    place2(c, n, "periodic", 2, 1, 0);
    place2(c, n, "periodic", 5, 0, 0); /* no round before the end of the stream */
    place2(c, n, "constraint-balance", 0, 1, 0);
    pl_constraint_place_opts o;
    pl_constraint_place_opts_init(&o);
    o.algorithm = "periodic";
    o.period = 0;
    int32_t a[2];
    assert_pl_status(pl_constraint_place(c, n, &o, a, NULL), PL_EINVAL);
    o.algorithm = "worst-basic";
    assert_pl_status(pl_constraint_place(c, n, &o, a, NULL), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "lb-basic"));
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* The traces: active nodes and sigma after each creation (two creations). */
static void test_traces(void **state)
{
    (void)state;
    pl_cnodes *n = NULL;
    pl_constraints *c = two_halves(&n);
    double active[2], sigma[2];
    pl_constraint_place_opts o;
    pl_constraint_place_opts_init(&o);
    o.algorithm = "lb-basic";
    o.active_trace = active;
    o.sigma_trace = sigma;
    int32_t a[2];
    assert_pl_ok(pl_constraint_place(c, n, &o, a, NULL));
    /* 2 cores on node 0: utilisations 0.5, 0 (sigma 0.25); then one each (sigma 0) */
    assert_true(active[0] == 1 && active[1] == 2);
    assert_true(fabs(sigma[0] - 0.25) < 1e-12 && fabs(sigma[1]) < 1e-12);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_es_basic_vs_activeness),
        cmocka_unit_test(test_attribute_aware),
        cmocka_unit_test(test_lb_basic_vs_periodic),
        cmocka_unit_test(test_traces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
