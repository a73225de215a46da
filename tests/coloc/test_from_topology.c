/* pl_coloc_cluster_from_topology() (doc/coloc.md "A topology as the
 * cluster"): machines grouped into node types by attribute, types in order
 * of first appearance, node ids type by type mapped back to machines; each
 * error with its message; and the kim-ch2 topology's view is the Table 2.1
 * cluster the experiment used to hard-code. */
#include <stdio.h>
#include <string.h>
#include "kim_csv.h"
#include <placement/coloc.h>
#include <placement/kim_sim.h>

/* Hand-made: cluster "c" with rack r0 {m0 small, m1 big}, a top-level
 * machine m2 (small), rack r1 {m3 gpu}, then m4 (big) created last under
 * r0. Preorder: m0, m1, m4, m2, m3. */
typedef struct hand {
    pl_topology *t;
    int32_t m[5];
} hand;

static void machine(hand *h, int i, int32_t parent, const char *type, const char *slots)
{
    char name[8];
    snprintf(name, sizeof name, "m%d", i);
    assert_pl_ok(pl_topology_add_vertex(h->t, PL_VK_MACHINE, parent, name, -1, &h->m[i]));
    if (type)
        assert_pl_ok(pl_topology_set_attr(h->t, h->m[i], PL_COLOC_NODE_TYPE_ATTR, type));
    if (slots)
        assert_pl_ok(pl_topology_set_attr(h->t, h->m[i], PL_COLOC_VM_SLOTS_ATTR, slots));
}

static hand make_hand(void)
{
    hand h;
    int32_t c, r0, r1, g;
    assert_pl_ok(pl_topology_create(&h.t));
    assert_pl_ok(pl_topology_add_vertex(h.t, PL_VK_CLUSTER, -1, "c", -1, &c));
    assert_pl_ok(pl_topology_add_vertex(h.t, PL_VK_RACK, c, "r0", -1, &r0));
    machine(&h, 0, r0, "small", "2");
    machine(&h, 1, r0, "big", "4");
    machine(&h, 2, c, "small", "2");
    assert_pl_ok(pl_topology_add_vertex(h.t, PL_VK_RACK, c, "r1", -1, &r1));
    machine(&h, 3, r1, "gpu", "1");
    machine(&h, 4, r0, "big", "4");
    /* not read: capacities, and the attributes of a vertex that is no machine */
    assert_pl_ok(pl_topology_set_capacity(h.t, h.m[3], PL_RES_CORES, 64));
    assert_pl_ok(pl_topology_add_vertex(h.t, PL_VK_GPU, h.m[3], "g0", 0, &g));
    assert_pl_ok(pl_topology_set_attr(h.t, g, PL_COLOC_NODE_TYPE_ATTR, "accel"));
    assert_pl_ok(pl_topology_set_attr(h.t, g, PL_COLOC_VM_SLOTS_ATTR, "7"));
    return h;
}

static void test_hand_view(void **state)
{
    (void)state;
    hand h = make_hand();
    pl_coloc_view v;
    assert_pl_ok(pl_coloc_cluster_from_topology(h.t, &v));
    /* types by first appearance in preorder: small (m0), big (m1), gpu (m3) */
    assert_int_equal(v.cluster.types, 3);
    assert_ptr_equal(v.cluster.nodes, v.nodes);
    assert_ptr_equal(v.cluster.slots, v.slots);
    const int32_t nodes[3] = {2, 2, 1}, slots[3] = {2, 4, 1};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(v.nodes[k], nodes[k]);
        assert_int_equal(v.slots[k], slots[k]);
    }
    /* ids type by type, preorder within a type: m4, created last, comes
     * before m2 in preorder (it is in r0) but after it by type */
    const int order[5] = {0, 2, 1, 4, 3};
    for (int n = 0; n < 5; n++)
        assert_int_equal(v.machine_of_node[n], h.m[order[n]]);
    /* the module takes the view as its cluster */
    pl_coloc_config cfg[12];
    int32_t count = 0;
    assert_pl_ok(pl_coloc_candidates(&v.cluster, 1, 4, cfg, 12, &count));
    assert_int_equal(count, pl_coloc_candidate_count(3, 1));
    pl_coloc_view_free(&v);
    assert_null(v.nodes);
    assert_int_equal(v.cluster.types, 0);
    pl_coloc_view_free(&v);   /* twice, and NULL: no-ops */
    pl_coloc_view_free(NULL);
    pl_topology_free(h.t);
}

/* An error zeroes *out and its message contains msg. */
static void expect_error(const pl_topology *t, const char *msg)
{
    pl_coloc_view v;
    memset(&v, 0xab, sizeof v);
    assert_int_equal(pl_coloc_cluster_from_topology(t, &v), PL_EINVAL);
    assert_null(v.nodes);
    assert_null(v.slots);
    assert_null(v.machine_of_node);
    assert_int_equal(v.cluster.types, 0);
    if (!strstr(pl_last_error(), msg))
        fail_msg("message '%s' lacks '%s'", pl_last_error(), msg);
}

static void test_missing_attrs(void **state)
{
    (void)state;
    hand h = make_hand();
    assert_pl_ok(pl_topology_set_attr(h.t, h.m[2], PL_COLOC_NODE_TYPE_ATTR, NULL));
    expect_error(h.t, "pl_coloc_cluster_from_topology: machine c/m2 has no \"node_type\" attribute (its node type)");
    assert_pl_ok(pl_topology_set_attr(h.t, h.m[2], PL_COLOC_NODE_TYPE_ATTR, "small"));
    assert_pl_ok(pl_topology_set_attr(h.t, h.m[4], PL_COLOC_VM_SLOTS_ATTR, NULL));
    expect_error(h.t, "pl_coloc_cluster_from_topology: machine c/r0/m4 has no \"vm_slots\" attribute (the VMs it holds)");
    pl_topology_free(h.t);
}

static void test_bad_slots(void **state)
{
    (void)state;
    const char *const bad[] = {"0", "-1", "+2", " 2", "2x", "2.0", "x", "2147483648", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        hand h = make_hand();
        assert_pl_ok(pl_topology_set_attr(h.t, h.m[3], PL_COLOC_VM_SLOTS_ATTR, bad[i]));
        char msg[160];
        snprintf(msg, sizeof msg, "machine c/r1/m3: vm_slots \"%s\" is not an integer in [1, 2147483647]", bad[i]);
        expect_error(h.t, msg);
        pl_topology_free(h.t);
    }
    hand h = make_hand();   /* the upper bound itself is fine */
    assert_pl_ok(pl_topology_set_attr(h.t, h.m[3], PL_COLOC_VM_SLOTS_ATTR, "2147483647"));
    pl_coloc_view v;
    assert_pl_ok(pl_coloc_cluster_from_topology(h.t, &v));
    assert_int_equal(v.slots[2], INT32_MAX);
    pl_coloc_view_free(&v);
    pl_topology_free(h.t);
}

static void test_slots_differ(void **state)
{
    (void)state;
    hand h = make_hand();
    assert_pl_ok(pl_topology_set_attr(h.t, h.m[2], PL_COLOC_VM_SLOTS_ATTR, "3"));
    expect_error(h.t, "machine c/m2 of node type \"small\" has vm_slots 3, but machine c/r0/m0 of that type has 2");
    /* the machine met later in preorder is the one named first */
    assert_pl_ok(pl_topology_set_attr(h.t, h.m[2], PL_COLOC_VM_SLOTS_ATTR, "2"));
    assert_pl_ok(pl_topology_set_attr(h.t, h.m[4], PL_COLOC_VM_SLOTS_ATTR, "8"));
    expect_error(h.t, "machine c/r0/m4 of node type \"big\" has vm_slots 8, but machine c/r0/m1 of that type has 4");
    pl_topology_free(h.t);
}

static void test_no_machine(void **state)
{
    (void)state;
    pl_topology *t;
    int32_t c, g;
    assert_pl_ok(pl_topology_create(&t));
    expect_error(t, "pl_coloc_cluster_from_topology: the topology has no machine");
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_CLUSTER, -1, "c", -1, &c));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_GPU, c, "g", 0, &g));
    assert_pl_ok(pl_topology_set_attr(t, g, PL_COLOC_NODE_TYPE_ATTR, "T1"));
    assert_pl_ok(pl_topology_set_attr(t, g, PL_COLOC_VM_SLOTS_ATTR, "2"));
    expect_error(t, "the topology has no machine");
    pl_coloc_view v;
    assert_int_equal(pl_coloc_cluster_from_topology(NULL, &v), PL_EINVAL);
    assert_int_equal(pl_coloc_cluster_from_topology(t, NULL), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "NULL argument"));
    pl_topology_free(t);
}

/* kim-ch2's topology seen as a cluster: the struct the experiment hard-coded
 * ({2 types, {8, 4} nodes, {2, 4} slots}), which is also the data file's
 * Table 2.1, with the same six candidate configurations. */
static void test_kim_ch2_cluster(void **state)
{
    (void)state;
    static const int32_t old_nodes[2] = {8, 4}, old_slots[2] = {2, 4};
    const pl_coloc_cluster old = {2, old_nodes, old_slots};
    pl_topology *t = NULL;
    assert_int_equal(pl_kim_ch2_cluster(NULL), PL_EINVAL);
    assert_pl_ok(pl_kim_ch2_cluster(&t));
    pl_coloc_view v;
    assert_pl_ok(pl_coloc_cluster_from_topology(t, &v));
    assert_int_equal(v.cluster.types, old.types);
    kim_csv csv;
    kim_csv_load(&csv, "kim/table2_1.csv");
    const char *const type[2] = {"T1", "T2"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(v.cluster.nodes[k], old.nodes[k]);
        assert_int_equal(v.cluster.slots[k], old.slots[k]);
        assert_int_equal(v.cluster.nodes[k], (int32_t)kim_csv_lookup(&csv, "type", type[k], NULL, NULL, "nodes"));
        assert_int_equal(v.cluster.slots[k],
                         (int32_t)kim_csv_lookup(&csv, "type", type[k], NULL, NULL, "vm_slots_per_node"));
    }
    kim_csv_free(&csv);
    for (int32_t n = 0; n < 12; n++) {
        char want[32], got[64];
        snprintf(want, sizeof want, "kim-ch2/%s-%d", n < 8 ? "T1" : "T2", (int)(n < 8 ? n : n - 8));
        assert_pl_ok(pl_topology_path_name(t, v.machine_of_node[n], got, sizeof got));
        assert_string_equal(got, want);
    }
    pl_coloc_config a[6], b[6];
    int32_t na = 0, nb = 0;
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    assert_pl_ok(pl_coloc_candidates(&old, 1, 8, a, 6, &na));
    assert_pl_ok(pl_coloc_candidates(&v.cluster, 1, 8, b, 6, &nb));
    assert_int_equal(na, 6);
    assert_int_equal(nb, 6);
    assert_memory_equal(a, b, sizeof a);
    pl_coloc_view_free(&v);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_view),
        cmocka_unit_test(test_missing_attrs),
        cmocka_unit_test(test_bad_slots),
        cmocka_unit_test(test_slots_differ),
        cmocka_unit_test(test_no_machine),
        cmocka_unit_test(test_kim_ch2_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
