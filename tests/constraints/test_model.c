/* Constraint model: node attributes, classes (union-find), node sets,
 * conflicts as the thesis defines them (with the constraints named in the
 * message), the assignment checker and the two metrics. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "internal/constraints_impl.h"

static pl_cnodes *three_nodes(void)
{
    pl_cnodes *n = NULL;
    assert_pl_ok(pl_cnodes_create(&n));
    assert_pl_ok(pl_cnodes_add(n, "n0", 8, 16, "arch=x86,gpu=yes", NULL));
    assert_pl_ok(pl_cnodes_add(n, "n1", 8, 16, "arch=power,gpu=yes", NULL));
    assert_pl_ok(pl_cnodes_add(n, "n2", 4, 8, "arch=x86", NULL));
    return n;
}

static void assert_msg_has(const char *needle)
{
    if (!strstr(pl_last_error(), needle))
        fail_msg("message \"%s\" lacks \"%s\"", pl_last_error(), needle);
}

static void test_nodes(void **state)
{
    (void)state;
    pl_cnodes *n = three_nodes();
    assert_int_equal(pl_cnodes_count(n), 3);
    assert_string_equal(pl_cnodes_attr(n, 1, "arch"), "power");
    assert_null(pl_cnodes_attr(n, 2, "gpu"));
    assert_null(pl_cnodes_attr(n, 3, "arch"));
    double c, m;
    assert_pl_ok(pl_cnodes_capacity(n, 2, &c, &m));
    assert_true(c == 4 && m == 8);
    assert_pl_status(pl_cnodes_add(n, NULL, 1, 1, "a=b,c", NULL), PL_EPARSE);
    assert_msg_has("\"c\"");
    assert_pl_status(pl_cnodes_add(n, NULL, 1, 1, "a=b,a=c", NULL), PL_EPARSE);
    assert_pl_status(pl_cnodes_add(n, NULL, 1, 1, "=b", NULL), PL_EPARSE);
    assert_pl_status(pl_cnodes_add(n, NULL, -1, 1, NULL, NULL), PL_EINVAL);
    assert_int_equal(pl_cnodes_count(n), 3);
    pl_cnodes_free(n);
}

/* Affinities 0-1, 1-2, 4-5 give classes {0,1,2} {3} {4,5}; class 0's node
 * set is gpu=yes (unit 0) minus arch=power (unit 2, MustNot): node 0 only. */
static void test_classes_and_node_sets(void **state)
{
    (void)state;
    pl_cnodes *n = three_nodes();
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(6, &c));
    assert_int_equal(pl_constraints_class_count(c), -1);
    assert_pl_ok(pl_constraints_colocate(c, 1, 0));
    assert_pl_ok(pl_constraints_colocate(c, 2, 1));
    assert_pl_ok(pl_constraints_colocate(c, 4, 5));
    assert_pl_ok(pl_constraints_node_must(c, 0, "gpu", "yes"));
    assert_pl_ok(pl_constraints_node_must_not(c, 2, "arch", "power"));
    assert_pl_ok(pl_constraints_node_must_not(c, 3, "gpu", "yes")); /* absent counts as different */
    assert_pl_ok(pl_constraints_resolve(c, n));
    assert_int_equal(pl_constraints_class_count(c), 3);
    const int32_t want[] = { 0, 0, 0, 1, 2, 2 };
    for (int32_t u = 0; u < 6; u++)
        assert_int_equal(pl_constraints_class_of(c, u), want[u]);
    assert_true(pl_constraints_node_allowed(c, 1, 0));
    assert_false(pl_constraints_node_allowed(c, 1, 1));
    assert_false(pl_constraints_node_allowed(c, 1, 2));
    assert_false(pl_constraints_node_allowed(c, 3, 0));
    assert_true(pl_constraints_node_allowed(c, 3, 2));
    assert_true(pl_constraints_node_allowed(c, 4, 1));
    assert_int_equal(pl_constraints_conflict_count(c), 0);
    /* a new constraint discards the resolve */
    assert_pl_ok(pl_constraints_separate(c, 3, 4));
    assert_int_equal(pl_constraints_class_count(c), -1);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* The three conflicts of sec. 2.2, each naming its constraints. */
static void test_conflicts(void **state)
{
    (void)state;
    pl_cnodes *n = three_nodes();
    pl_constraints *c = NULL;
    pl_conflict f;

    /* empty node set: x86 and power through affinity */
    assert_pl_ok(pl_constraints_create(2, &c));
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_pl_ok(pl_constraints_node_must(c, 0, "arch", "x86"));
    assert_pl_ok(pl_constraints_node_must(c, 1, "arch", "power"));
    assert_pl_status(pl_constraints_resolve(c, n), PL_EINFEASIBLE);
    assert_msg_has("no node satisfies: unit 0 must arch=x86; unit 1 must arch=power;");
    assert_int_equal(pl_constraints_conflict_count(c), 1);
    assert_pl_ok(pl_constraints_conflict(c, 0, &f));
    assert_int_equal(f.kind, PL_CONFLICT_NO_NODE);
    assert_int_equal(f.unit_a, 1);
    pl_constraints_free(c);

    /* class intersecting its own anti-affinity set, through transitivity */
    assert_pl_ok(pl_constraints_create(3, &c));
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_pl_ok(pl_constraints_colocate(c, 1, 2));
    assert_pl_ok(pl_constraints_separate(c, 2, 0));
    assert_pl_status(pl_constraints_resolve(c, n), PL_EINFEASIBLE);
    assert_msg_has("units 2 and 0 must share a node (affinity) and must not");
    assert_pl_ok(pl_constraints_conflict(c, 0, &f));
    assert_int_equal(f.kind, PL_CONFLICT_SELF_ANTI);
    assert_int_equal(f.unit_a, 2);
    assert_int_equal(f.unit_b, 0);
    pl_constraints_free(c);

    /* demand above every allowed node: 6 + 6 cores > 8 */
    assert_pl_ok(pl_constraints_create(2, &c));
    assert_pl_ok(pl_constraints_set_demand(c, 0, 6, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 1, 6, 1));
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_pl_status(pl_constraints_resolve(c, n), PL_EINFEASIBLE);
    assert_msg_has("demand 12 cores, 2 GB exceeds every allowed node (largest 8 cores)");
    assert_pl_ok(pl_constraints_conflict(c, 0, &f));
    assert_int_equal(f.kind, PL_CONFLICT_TOO_BIG);
    int32_t assign[2];
    assert_pl_status(pl_constraint_place(c, n, NULL, assign, NULL), PL_EINFEASIBLE);
    assert_int_equal(assign[0], -1);
    pl_constraints_free(c);

    /* all at once, plus a filter no node has (unit 5) and a unit that fits (4) */
    assert_pl_ok(pl_constraints_create(7, &c));
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_pl_ok(pl_constraints_node_must(c, 0, "arch", "x86"));
    assert_pl_ok(pl_constraints_node_must(c, 1, "arch", "power"));
    assert_pl_ok(pl_constraints_colocate(c, 2, 3));
    assert_pl_ok(pl_constraints_separate(c, 3, 2));
    assert_pl_ok(pl_constraints_set_demand(c, 4, 5, 0));
    assert_pl_ok(pl_constraints_node_must(c, 4, "gpu", "yes"));
    assert_pl_ok(pl_constraints_node_must(c, 5, "gpu", "tpu"));
    assert_pl_status(pl_constraints_resolve(c, n), PL_EINFEASIBLE);
    assert_msg_has("3 constraint conflict(s)");
    assert_int_equal(pl_constraints_conflict_count(c), 3);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* The checker: one violation of each kind, each named in the message. */
static void test_check(void **state)
{
    (void)state;
    pl_cnodes *n = three_nodes();
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(4, &c));
    assert_pl_ok(pl_constraints_set_demand(c, 0, 3, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 1, 3, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 2, 3, 1));
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_pl_ok(pl_constraints_separate(c, 1, 2));
    assert_pl_ok(pl_constraints_node_must(c, 3, "gpu", "yes"));
    const int32_t good[] = { 0, 0, 1, 1 }, unplaced[] = { -1, 0, -1, -1 };
    assert_pl_ok(pl_constraints_check(c, n, good));
    assert_pl_ok(pl_constraints_check(c, n, unplaced));
    const int32_t filt[] = { 0, 0, 1, 2 };
    assert_pl_status(pl_constraints_check(c, n, filt), PL_EVERIFY);
    assert_msg_has("unit 3 must gpu=yes but node 2 has gpu=(absent)");
    const int32_t aff[] = { 0, 1, 2, 0 };
    assert_pl_status(pl_constraints_check(c, n, aff), PL_EVERIFY);
    assert_msg_has("units 0 and 1 must share a node; on 0 and 1");
    const int32_t anti[] = { 0, 0, 0, 1 };
    assert_pl_status(pl_constraints_check(c, n, anti), PL_EVERIFY);
    assert_msg_has("units 1 and 2 both on node 0");
    const int32_t cap[] = { 2, 2, 0, 0 };
    assert_pl_status(pl_constraints_check(c, n, cap), PL_EVERIFY);
    assert_msg_has("node 2 holds 6 cores");
    const int32_t range[] = { 3, 0, 0, 0 };
    assert_pl_status(pl_constraints_check(c, n, range), PL_EINVAL);

    int32_t active;
    double sigma;
    assert_pl_ok(pl_constraints_metrics(c, n, good, &active, &sigma));
    /* node 0: 6/8 = 0.75, node 1: 3/8 = 0.375 (unit 3 has no demand), node 2: 0;
     * mean 0.375, variance (0.5625 + 0.140625 + 0) / 3 - 0.140625 = 0.09375 */
    assert_int_equal(active, 2);
    assert_true(fabs(sigma - sqrt(0.09375)) < 1e-12);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* The bridges for other models (internal): nodes from key/value arrays
 * (any characters, no parsing) and a node Must given as its node set. */
static void test_bridges(void **state)
{
    (void)state;
    pl_cnodes *n = NULL;
    assert_pl_ok(pl_cnodes_create(&n));
    const char *keys[] = {"cpu model", "tier"}, *vals[] = {"Xeon, 2.2 GHz", "a=b"};
    int32_t id = -1;
    assert_pl_ok(pl_cnodes_add_attrs(n, "m0", 4, 0, keys, vals, 2, &id));
    assert_int_equal(id, 0);
    assert_pl_ok(pl_cnodes_add_attrs(n, "m1", 4, 0, NULL, NULL, 0, &id));
    assert_pl_ok(pl_cnodes_add_attrs(n, "m2", 2, 0, keys + 1, vals + 1, 1, &id));
    assert_int_equal(id, 2);
    assert_string_equal(pl_cnodes_attr(n, 0, "cpu model"), "Xeon, 2.2 GHz");
    assert_string_equal(pl_cnodes_attr(n, 2, "tier"), "a=b");
    assert_null(pl_cnodes_attr(n, 1, "tier"));
    assert_pl_status(pl_cnodes_add_attrs(n, "bad", -1, 0, NULL, NULL, 0, NULL), PL_EINVAL);
    assert_int_equal(pl_cnodes_count(n), 3);

    /* Units 0, 1 (one class) and 2: unit 0 only on {0, 2}, unit 1 must
     * tier=a=b (nodes 0, 2), so the class gets {0, 2}; unit 2 only on {1}. */
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(3, &c));
    const uint8_t s02[] = {1, 0, 1}, s1[] = {0, 1};
    assert_pl_ok(pl_constraints_node_set(c, 0, s02, 3, "node filter"));
    assert_pl_ok(pl_constraints_node_must(c, 1, "tier", "a=b"));
    assert_pl_ok(pl_constraints_node_set(c, 2, s1, 2, "its machine"));
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_pl_status(pl_constraints_node_set(c, 0, NULL, 3, "x"), PL_EINVAL);
    assert_pl_status(pl_constraints_node_set(c, 0, s02, 3, ""), PL_EINVAL);
    assert_pl_ok(pl_constraints_resolve(c, n));
    assert_int_equal(pl_constraints_node_allowed(c, 0, 0), 1);
    assert_int_equal(pl_constraints_node_allowed(c, 0, 1), 0);
    assert_int_equal(pl_constraints_node_allowed(c, 0, 2), 1);
    assert_int_equal(pl_constraints_node_allowed(c, 2, 1), 1);
    assert_int_equal(pl_constraints_node_allowed(c, 2, 2), 0); /* beyond the set's length */
    int32_t good[] = {2, 2, 1}, bad[] = {0, 0, 0};
    assert_pl_ok(pl_constraints_check(c, n, good));
    assert_pl_status(pl_constraints_check(c, n, bad), PL_EVERIFY);
    assert_msg_has("unit 2: its machine excludes node 0");
    /* A set and a filter that do not meet: NO_NODE naming both. */
    const uint8_t s1only[] = {0, 1, 0};
    assert_pl_ok(pl_constraints_node_set(c, 1, s1only, 3, "node filter"));
    assert_pl_status(pl_constraints_resolve(c, n), PL_EINFEASIBLE);
    assert_msg_has("unit 0 node filter;");
    assert_msg_has("unit 1 must tier=a=b;");
    pl_conflict f;
    assert_pl_ok(pl_constraints_conflict(c, 0, &f));
    assert_int_equal(f.kind, PL_CONFLICT_NO_NODE);
    assert_int_equal(f.unit_a, 1);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nodes),
        cmocka_unit_test(test_classes_and_node_sets),
        cmocka_unit_test(test_conflicts),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_bridges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
