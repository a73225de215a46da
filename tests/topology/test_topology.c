/* The topology model built by API: vertices, links, names, containment
 * queries, distances, widest paths, bipartitions, allocation, snapshots. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

/* A Minsky-shaped machine built by hand (seed 002, Fig. 7):
 *   machine m -> package p0 -> gpu g0, g1;  package p1 -> gpu g2, g3
 * links: g0-g1, g2-g3 NVLink 40 GB/s; every GPU to its package NVLink 40 GB/s;
 * p0-p1 X-Bus 38.4 GB/s; m-p0, m-p1 board links. */
typedef struct minsky {
    pl_topology *t;
    int32_t m, p[2], g[4];
    int32_t l_g0g1, l_g0p0, l_p0p1, l_p1g2;
} minsky;

static void build_minsky(minsky *k)
{
    assert_pl_ok(pl_topology_create(&k->t));
    pl_topology *t = k->t;
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_MACHINE, -1, "m", 0, &k->m));
    for (int s = 0; s < 2; s++) {
        assert_pl_ok(pl_topology_add_vertex(t, PL_VK_PACKAGE, k->m, NULL, s, &k->p[s]));
        assert_pl_ok(pl_topology_set_capacity(t, k->p[s], PL_RES_CORES, 10));
        for (int j = 0; j < 2; j++) {
            int gi = 2 * s + j;
            assert_pl_ok(pl_topology_add_vertex(t, PL_VK_GPU, k->p[s], NULL, gi, &k->g[gi]));
            assert_pl_ok(pl_topology_set_capacity(t, k->g[gi], PL_RES_UNITS, 1));
            assert_pl_ok(pl_topology_set_capacity(t, k->g[gi], PL_RES_GPU_MEMORY, 16LL << 30));
        }
    }
    assert_pl_ok(pl_topology_add_link(t, k->g[0], k->g[1], PL_LK_NVLINK, 40000000000, 0, 0, &k->l_g0g1));
    assert_pl_ok(pl_topology_add_link(t, k->g[2], k->g[3], PL_LK_NVLINK, 40000000000, 0, 0, NULL));
    assert_pl_ok(pl_topology_add_link(t, k->g[0], k->p[0], PL_LK_NVLINK, 40000000000, 0, 0, &k->l_g0p0));
    assert_pl_ok(pl_topology_add_link(t, k->g[1], k->p[0], PL_LK_NVLINK, 40000000000, 0, 0, NULL));
    assert_pl_ok(pl_topology_add_link(t, k->p[1], k->g[2], PL_LK_NVLINK, 40000000000, 0, 0, &k->l_p1g2));
    assert_pl_ok(pl_topology_add_link(t, k->g[3], k->p[1], PL_LK_NVLINK, 40000000000, 0, 0, NULL));
    assert_pl_ok(pl_topology_add_link(t, k->p[0], k->p[1], PL_LK_INTERSOCKET, 38400000000, 0, 0, &k->l_p0p1));
    assert_pl_ok(pl_topology_add_link(t, k->m, k->p[0], PL_LK_BOARD, 0, 0, 0, NULL));
    assert_pl_ok(pl_topology_add_link(t, k->m, k->p[1], PL_LK_BOARD, 0, 0, 0, NULL));
}

static void test_names_and_levels(void **state)
{
    (void)state;
    assert_string_equal(pl_vertex_kind_name(PL_VK_GPU), "gpu");
    assert_string_equal(pl_vertex_kind_name(PL_VK_PCI_SWITCH), "pci-switch");
    assert_string_equal(pl_vertex_kind_name((pl_vertex_kind)99), "?");
    assert_string_equal(pl_link_kind_name(PL_LK_INTERSOCKET), "intersocket");
    assert_string_equal(pl_resource_name(PL_RES_GPU_MEMORY), "gpu-memory");
    pl_vertex_kind vk;
    pl_link_kind lk;
    pl_resource r;
    assert_pl_ok(pl_vertex_kind_parse("nvswitch", &vk));
    assert_int_equal(vk, PL_VK_NVSWITCH);
    assert_pl_ok(pl_link_kind_parse("nvmeof", &lk));
    assert_int_equal(lk, PL_LK_NVMEOF);
    assert_pl_ok(pl_resource_parse("storage", &r));
    assert_int_equal(r, PL_RES_STORAGE);
    assert_pl_status(pl_vertex_kind_parse("socket", &vk), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "package")); /* lists the valid names */
    assert_pl_status(pl_resource_parse(NULL, &r), PL_EINVAL);
    /* Seed 002: 1 right after the GPU level, 20 at the socket level. */
    assert_int_equal(pl_link_default_weight(PL_VK_GPU, PL_VK_GPU), 1);
    assert_int_equal(pl_link_default_weight(PL_VK_GPU, PL_VK_PACKAGE), 1);
    assert_int_equal(pl_link_default_weight(PL_VK_PCI_SWITCH, PL_VK_PACKAGE), 1);
    assert_int_equal(pl_link_default_weight(PL_VK_PACKAGE, PL_VK_PACKAGE), 20);
    assert_int_equal(pl_link_default_weight(PL_VK_MACHINE, PL_VK_PACKAGE), 20);
    assert_int_equal(pl_link_default_weight(PL_VK_RACK, PL_VK_MACHINE), 40);
    assert_int_equal(pl_link_default_weight(PL_VK_CLUSTER, PL_VK_RACK), 80);
    assert_int_equal(pl_link_default_weight(PL_VK_CLUSTER, PL_VK_POOL), 160);
    assert_int_equal(pl_link_default_weight((pl_vertex_kind)-1, PL_VK_GPU), -1);
    assert_int_equal(pl_vertex_kind_level(PL_VK_RACK), 4);
}

static void test_build_errors(void **state)
{
    (void)state;
    pl_topology *t;
    int32_t v;
    assert_pl_status(pl_topology_create(NULL), PL_EINVAL);
    assert_pl_ok(pl_topology_create(&t));
    assert_pl_status(pl_topology_add_vertex(NULL, PL_VK_GPU, -1, NULL, 0, &v), PL_EINVAL);
    assert_pl_status(pl_topology_add_vertex(t, PL_VK_COUNT, -1, NULL, 0, &v), PL_EINVAL);
    assert_pl_status(pl_topology_add_vertex(t, PL_VK_GPU, 0, NULL, 0, &v), PL_EINVAL); /* no vertex 0 yet */
    assert_pl_status(pl_topology_add_vertex(t, PL_VK_GPU, -1, "a/b", 0, &v), PL_EINVAL);
    assert_int_equal(pl_topology_vertex_count(t), 0);
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_GPU, -1, NULL, 3, &v));
    pl_vertex_info vi;
    assert_pl_ok(pl_topology_vertex(t, v, &vi));
    assert_string_equal(vi.name, "gpu3");
    assert_int_equal(vi.parent, -1);
    assert_int_equal(vi.depth, 0);
    assert_int_equal(vi.os_index, 3);
    int32_t w;
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_NIC, -1, NULL, -1, &w));
    assert_pl_ok(pl_topology_vertex(t, w, &vi));
    assert_string_equal(vi.name, "nic");
    assert_pl_status(pl_topology_add_link(t, v, v, PL_LK_PCIE, 1, 0, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_topology_add_link(t, v, 7, PL_LK_PCIE, 1, 0, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_topology_add_link(t, v, w, PL_LK_COUNT, 1, 0, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_topology_add_link(t, v, w, PL_LK_PCIE, -1, 0, 0, NULL), PL_EINVAL);
    assert_int_equal(pl_topology_link_count(t), 0);
    int32_t l;
    assert_pl_ok(pl_topology_add_link(t, v, w, PL_LK_PCIE, 5, 7, 0, &l));
    pl_link_info li;
    assert_pl_ok(pl_topology_link(t, l, &li));
    assert_int_equal(li.a, v);
    assert_int_equal(li.b, w);
    assert_int_equal(li.bw_bytes_per_s, 5);
    assert_int_equal(li.latency_ns, 7);
    assert_int_equal(li.weight, 1);
    assert_pl_status(pl_topology_set_link_weight(t, l, 0), PL_EINVAL);
    assert_pl_ok(pl_topology_set_link_weight(t, l, 9));
    assert_pl_ok(pl_topology_set_link_bandwidth(t, l, 11));
    assert_pl_ok(pl_topology_link(t, l, &li));
    assert_int_equal(li.weight, 9);
    assert_int_equal(li.bw_bytes_per_s, 11);
    assert_pl_status(pl_topology_link(t, 1, &li), PL_EINVAL);
    assert_pl_status(pl_topology_vertex(t, -1, &vi), PL_EINVAL);
    assert_int_equal(pl_topology_vertex_count(NULL), 0);
    pl_topology_free(t);
    pl_topology_free(NULL);
}

static void test_containment_queries(void **state)
{
    (void)state;
    minsky k;
    build_minsky(&k);
    int32_t out[8], n;
    assert_pl_ok(pl_topology_descendants(k.t, k.m, PL_VK_GPU, out, 8, &n));
    assert_int_equal(n, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], k.g[i]);
    assert_pl_ok(pl_topology_descendants(k.t, k.p[1], -1, out, 8, &n));
    assert_int_equal(n, 3); /* p1, g2, g3 in preorder */
    assert_int_equal(out[0], k.p[1]);
    assert_int_equal(out[1], k.g[2]);
    assert_int_equal(out[2], k.g[3]);
    assert_pl_ok(pl_topology_descendants(k.t, -1, PL_VK_PACKAGE, NULL, 0, &n));
    assert_int_equal(n, 2);
    /* No silent truncation: ELIMIT, the first cap written, the full count. */
    out[1] = -7;
    assert_pl_status(pl_topology_descendants(k.t, -1, -1, out, 1, &n), PL_ELIMIT);
    assert_int_equal(n, 7);
    assert_int_equal(out[0], k.m);
    assert_int_equal(out[1], -7);
    assert_pl_ok(pl_topology_children(k.t, k.m, out, 8, &n));
    assert_int_equal(n, 2);
    assert_int_equal(out[0], k.p[0]);
    assert_pl_ok(pl_topology_children(k.t, -1, out, 8, &n));
    assert_int_equal(n, 1);
    assert_pl_status(pl_topology_children(k.t, k.m, out, 1, &n), PL_ELIMIT);
    assert_pl_ok(pl_topology_links_of(k.t, k.g[0], out, 8, &n));
    assert_int_equal(n, 2);
    assert_int_equal(out[0], k.l_g0g1);
    assert_int_equal(out[1], k.l_g0p0);
    int32_t a;
    assert_pl_ok(pl_topology_ancestor(k.t, k.g[3], PL_VK_PACKAGE, &a));
    assert_int_equal(a, k.p[1]);
    assert_pl_ok(pl_topology_ancestor(k.t, k.g[3], PL_VK_GPU, &a));
    assert_int_equal(a, k.g[3]);
    assert_pl_status(pl_topology_ancestor(k.t, k.g[3], PL_VK_RACK, &a), PL_ENOTFOUND);
    int64_t cap, fr;
    assert_pl_ok(pl_topology_subtree_amount(k.t, k.m, PL_VK_GPU, PL_RES_UNITS, &cap, &fr));
    assert_int_equal(cap, 4);
    assert_int_equal(fr, 4);
    assert_pl_ok(pl_topology_subtree_amount(k.t, k.m, -1, PL_RES_CORES, &cap, NULL));
    assert_int_equal(cap, 20);
    pl_topology_free(k.t);
}

static void test_find_and_path_names(void **state)
{
    (void)state;
    minsky k;
    build_minsky(&k);
    int32_t v;
    assert_pl_ok(pl_topology_find(k.t, "m/package1/gpu2", &v));
    assert_int_equal(v, k.g[2]);
    assert_pl_ok(pl_topology_find(k.t, "m", &v));
    assert_int_equal(v, k.m);
    assert_pl_status(pl_topology_find(k.t, "m/package1/gpu0", &v), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "gpu0"));
    assert_pl_status(pl_topology_find(k.t, "m/package", &v), PL_ENOTFOUND); /* no prefix match */
    char buf[64];
    assert_pl_ok(pl_topology_path_name(k.t, k.g[3], buf, sizeof buf));
    assert_string_equal(buf, "m/package1/gpu3");
    assert_pl_status(pl_topology_path_name(k.t, k.g[3], buf, 8), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "16 bytes"));
    assert_true(strlen(buf) < 8);
    pl_topology_free(k.t);
}

static void test_distances(void **state)
{
    (void)state;
    minsky k;
    build_minsky(&k);
    /* Hand-computed: an NVLink pair is 1 apart; across sockets the path is
     * GPU-package (1) + X-Bus (20) + package-GPU (1) = 22. */
    const int64_t want[16] = {0, 1, 22, 22, 1, 0, 22, 22, 22, 22, 0, 1, 22, 22, 1, 0};
    int64_t mat[16];
    assert_pl_ok(pl_topology_distance_matrix(k.t, k.g, 4, mat));
    assert_memory_equal(mat, want, sizeof want);
    int64_t d;
    assert_pl_ok(pl_topology_distance(k.t, k.g[1], k.g[3], &d));
    assert_int_equal(d, 22);
    assert_pl_ok(pl_topology_distance(k.t, k.g[1], k.g[1], &d));
    assert_int_equal(d, 0);
    assert_pl_ok(pl_topology_distance(k.t, k.g[0], k.m, &d));
    assert_int_equal(d, 21); /* GPU-package 1 + board link 20 */
    int32_t path[8], n;
    assert_pl_ok(pl_topology_path(k.t, k.g[0], k.g[2], path, 8, &n));
    assert_int_equal(n, 3);
    assert_int_equal(path[0], k.l_g0p0);
    assert_int_equal(path[1], k.l_p0p1);
    assert_int_equal(path[2], k.l_p1g2);
    assert_pl_status(pl_topology_path(k.t, k.g[0], k.g[2], path, 2, &n), PL_ELIMIT);
    assert_int_equal(n, 3);
    /* Widest path: the X-Bus (38.4 GB/s) limits GPU0 -> GPU2. */
    int64_t bw;
    assert_pl_ok(pl_topology_bottleneck_bw(k.t, k.g[0], k.g[2], &bw));
    assert_int_equal(bw, 38400000000);
    assert_pl_ok(pl_topology_bottleneck_bw(k.t, k.g[0], k.g[1], &bw));
    assert_int_equal(bw, 40000000000);
    assert_pl_ok(pl_topology_bottleneck_bw(k.t, k.g[0], k.g[0], &bw));
    assert_int_equal(bw, INT64_MAX);
    /* The bandwidth of the shortest path, not of the widest: the board links
     * (unknown bandwidth) through the machine are a longer detour. A direct
     * 16 GB/s link of weight 100 and a 50 GB/s NVSwitch path of weight 200
     * are longer too; an equally short path (11 + 11) with a wider
     * bottleneck (45 GB/s) wins the tie. */
    assert_pl_ok(pl_topology_add_link(k.t, k.g[0], k.g[2], PL_LK_PCIE, 16000000000, 0, 100, NULL));
    assert_pl_ok(pl_topology_bottleneck_bw(k.t, k.g[0], k.g[2], &bw));
    assert_int_equal(bw, 38400000000);
    int32_t sw;
    assert_pl_ok(pl_topology_add_vertex(k.t, PL_VK_NVSWITCH, k.m, NULL, 0, &sw));
    assert_pl_ok(pl_topology_add_link(k.t, k.g[0], sw, PL_LK_NVSWITCH, 50000000000, 0, 100, NULL));
    assert_pl_ok(pl_topology_add_link(k.t, sw, k.g[2], PL_LK_NVSWITCH, 60000000000, 0, 100, NULL));
    assert_pl_ok(pl_topology_bottleneck_bw(k.t, k.g[0], k.g[2], &bw));
    assert_int_equal(bw, 38400000000);
    assert_pl_ok(pl_topology_distance(k.t, k.g[0], k.g[2], &d));
    assert_int_equal(d, 22);
    int32_t sw2;
    assert_pl_ok(pl_topology_add_vertex(k.t, PL_VK_NVSWITCH, k.m, NULL, 1, &sw2));
    assert_pl_ok(pl_topology_add_link(k.t, k.g[0], sw2, PL_LK_NVSWITCH, 45000000000, 0, 11, NULL));
    assert_pl_ok(pl_topology_add_link(k.t, sw2, k.g[2], PL_LK_NVSWITCH, 45000000000, 0, 11, NULL));
    assert_pl_ok(pl_topology_bottleneck_bw(k.t, k.g[0], k.g[2], &bw));
    assert_int_equal(bw, 45000000000);
    assert_pl_ok(pl_topology_distance(k.t, k.g[0], k.g[2], &d));
    assert_int_equal(d, 22);
    /* A vertex without links: no path, and -1 in the matrix. */
    int32_t lone;
    assert_pl_ok(pl_topology_add_vertex(k.t, PL_VK_GPU, k.p[0], "lone", 9, &lone));
    assert_pl_status(pl_topology_distance(k.t, k.g[0], lone, &d), PL_ENOTFOUND);
    assert_pl_status(pl_topology_bottleneck_bw(k.t, lone, k.g[0], &bw), PL_ENOTFOUND);
    int32_t two[2] = {k.g[0], lone};
    int64_t m2[4];
    assert_pl_ok(pl_topology_distance_matrix(k.t, two, 2, m2));
    assert_int_equal(m2[1], -1);
    assert_int_equal(m2[2], -1);
    assert_int_equal(m2[3], 0);
    assert_pl_status(pl_topology_distance_matrix(k.t, NULL, 2, m2), PL_EINVAL);
    pl_topology_free(k.t);
}

static void test_bipartition(void **state)
{
    (void)state;
    pl_topology *t;
    assert_pl_ok(pl_topology_create(&t));
    int32_t c, m[2], p[3], g[8];
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_CLUSTER, -1, NULL, -1, &c));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_MACHINE, c, NULL, 0, &m[0]));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_MACHINE, c, NULL, 1, &m[1]));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_PACKAGE, m[0], NULL, 0, &p[0]));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_PACKAGE, m[0], NULL, 1, &p[1]));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_PACKAGE, m[1], NULL, 0, &p[2]));
    /* m0: p0 {g0,g1}, p1 {g2,g3}; m1: p2 {g4,g5,g6,g7} */
    for (int i = 0; i < 8; i++)
        assert_pl_ok(pl_topology_add_vertex(t, PL_VK_GPU, p[i < 2 ? 0 : i < 4 ? 1 : 2], NULL, i, &g[i]));
    uint8_t side[8];
    /* Across machines: m0's three vs m1's two; the bigger group is side 0. */
    int32_t set1[5] = {g[4], g[0], g[2], g[5], g[3]};
    assert_pl_ok(pl_topology_bipartition(t, set1, 5, side));
    const uint8_t want1[5] = {1, 0, 0, 1, 0};
    assert_memory_equal(side, want1, 5);
    /* Inside m0: by socket, sockets kept whole. */
    int32_t set2[4] = {g[0], g[2], g[1], g[3]};
    assert_pl_ok(pl_topology_bipartition(t, set2, 4, side));
    const uint8_t want2[4] = {0, 1, 0, 1};
    assert_memory_equal(side, want2, 4);
    /* All under one socket: first ceil(k/2) in the given order. */
    int32_t set3[3] = {g[6], g[4], g[7]};
    assert_pl_ok(pl_topology_bipartition(t, set3, 3, side));
    const uint8_t want3[3] = {0, 0, 1};
    assert_memory_equal(side, want3, 3);
    /* Groups of 2, 1, 1 (socket p0: g0 g1; p1: g2; m1 is elsewhere -> by machine):
     * inside m0 with {g0, g1, g2}: p0's pair on side 0, g2 alone on side 1. */
    int32_t set4[3] = {g[2], g[0], g[1]};
    assert_pl_ok(pl_topology_bipartition(t, set4, 3, side));
    const uint8_t want4[3] = {1, 0, 0};
    assert_memory_equal(side, want4, 3);
    /* Three machines-worth of groups: sizes 2 (m0), 1, 1 -> dealt 0, 1, 1. */
    int32_t m2;
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_MACHINE, c, NULL, 2, &m2));
    int32_t set5[4] = {m2, g[0], m[1], g[1]};
    assert_pl_ok(pl_topology_bipartition(t, set5, 4, side));
    const uint8_t want5[4] = {1, 0, 1, 0};
    assert_memory_equal(side, want5, 4);
    assert_pl_ok(pl_topology_bipartition(t, set5, 1, side));
    assert_int_equal(side[0], 0);
    int32_t dup[2] = {g[0], g[0]};
    assert_pl_status(pl_topology_bipartition(t, dup, 2, side), PL_EINVAL);
    pl_topology_free(t);
}

static void test_allocation_and_snapshots(void **state)
{
    (void)state;
    minsky k;
    build_minsky(&k);
    int64_t cap, used, fr;
    assert_pl_ok(pl_topology_alloc(k.t, k.p[0], PL_RES_CORES, 6));
    assert_pl_ok(pl_topology_amount(k.t, k.p[0], PL_RES_CORES, &cap, &used, &fr));
    assert_int_equal(cap, 10);
    assert_int_equal(used, 6);
    assert_int_equal(fr, 4);
    /* Over-allocation is refused and changes nothing. */
    assert_pl_status(pl_topology_alloc(k.t, k.p[0], PL_RES_CORES, 5), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "4 of 10"));
    assert_pl_ok(pl_topology_amount(k.t, k.p[0], PL_RES_CORES, NULL, &used, NULL));
    assert_int_equal(used, 6);
    assert_pl_status(pl_topology_alloc(k.t, k.p[0], PL_RES_CORES, 0), PL_EINVAL);
    assert_pl_status(pl_topology_alloc(k.t, k.p[0], PL_RES_COUNT, 1), PL_EINVAL);
    assert_pl_status(pl_topology_release(k.t, k.p[0], PL_RES_CORES, 7), PL_EINVAL);
    assert_pl_status(pl_topology_set_capacity(k.t, k.p[0], PL_RES_CORES, 5), PL_EINVAL);
    assert_pl_ok(pl_topology_amount(k.t, k.p[0], PL_RES_CORES, &cap, &used, NULL));
    assert_int_equal(cap, 10);
    assert_int_equal(used, 6);

    pl_topology_snapshot *s;
    assert_pl_ok(pl_topology_snapshot_take(k.t, &s));
    assert_pl_ok(pl_topology_alloc(k.t, k.g[2], PL_RES_UNITS, 1));
    assert_pl_status(pl_topology_alloc(k.t, k.g[2], PL_RES_UNITS, 1), PL_EINVAL); /* a GPU is taken once */
    assert_pl_ok(pl_topology_release(k.t, k.p[0], PL_RES_CORES, 6));
    assert_pl_ok(pl_topology_subtree_amount(k.t, k.m, PL_VK_GPU, PL_RES_UNITS, &cap, &fr));
    assert_int_equal(fr, 3);
    assert_pl_ok(pl_topology_snapshot_restore(k.t, s));
    assert_pl_ok(pl_topology_amount(k.t, k.g[2], PL_RES_UNITS, NULL, &used, NULL));
    assert_int_equal(used, 0);
    assert_pl_ok(pl_topology_amount(k.t, k.p[0], PL_RES_CORES, NULL, &used, NULL));
    assert_int_equal(used, 6);
    /* A capacity lowered below the snapshot: refused, state unchanged. */
    assert_pl_ok(pl_topology_release(k.t, k.p[0], PL_RES_CORES, 6));
    assert_pl_ok(pl_topology_set_capacity(k.t, k.p[0], PL_RES_CORES, 2));
    assert_pl_status(pl_topology_snapshot_restore(k.t, s), PL_EINVAL);
    assert_pl_ok(pl_topology_amount(k.t, k.p[0], PL_RES_CORES, NULL, &used, NULL));
    assert_int_equal(used, 0);
    /* Another shape: refused. */
    assert_pl_ok(pl_topology_add_vertex(k.t, PL_VK_NIC, k.m, NULL, 0, NULL));
    assert_pl_status(pl_topology_snapshot_restore(k.t, s), PL_EINVAL);
    pl_topology_snapshot_free(s);
    pl_topology_snapshot_free(NULL);
    assert_pl_ok(pl_topology_alloc(k.t, k.g[1], PL_RES_GPU_MEMORY, 1 << 20));
    assert_pl_ok(pl_topology_release_all(k.t));
    assert_pl_ok(pl_topology_amount(k.t, k.g[1], PL_RES_GPU_MEMORY, NULL, &used, NULL));
    assert_int_equal(used, 0);
    pl_topology_free(k.t);
}

static void test_copy_and_graft(void **state)
{
    (void)state;
    minsky k;
    build_minsky(&k);
    assert_pl_ok(pl_topology_alloc(k.t, k.g[0], PL_RES_UNITS, 1));
    pl_topology *c;
    assert_pl_ok(pl_topology_copy(k.t, &c));
    assert_int_equal(pl_topology_vertex_count(c), 7);
    assert_int_equal(pl_topology_link_count(c), 9);
    int64_t used;
    assert_pl_ok(pl_topology_amount(c, k.g[0], PL_RES_UNITS, NULL, &used, NULL));
    assert_int_equal(used, 1);
    /* Independent: changing the copy leaves the original alone. */
    assert_pl_ok(pl_topology_release(c, k.g[0], PL_RES_UNITS, 1));
    assert_pl_ok(pl_topology_amount(k.t, k.g[0], PL_RES_UNITS, NULL, &used, NULL));
    assert_int_equal(used, 1);
    int64_t mat[16];
    assert_pl_ok(pl_topology_distance_matrix(c, k.g, 4, mat));
    assert_int_equal(mat[2], 22);

    /* Two machines under a rack, grafted from the one template. */
    pl_topology *r;
    int32_t rack, f0, f1;
    assert_pl_ok(pl_topology_create(&r));
    assert_pl_ok(pl_topology_add_vertex(r, PL_VK_RACK, -1, NULL, 0, &rack));
    assert_pl_ok(pl_topology_graft(r, rack, k.t, &f0));
    assert_pl_ok(pl_topology_graft(r, rack, k.t, &f1));
    assert_int_equal(f0, 1);
    assert_int_equal(f1, 8);
    assert_pl_ok(pl_topology_add_link(r, rack, f0, PL_LK_NETWORK, 12500000000, 0, 0, NULL));
    assert_pl_ok(pl_topology_add_link(r, rack, f1, PL_LK_NETWORK, 12500000000, 0, 0, NULL));
    int64_t d;
    /* GPU0 of machine 0 to GPU3 of machine 1: 1 + 20 (board) + 40 + 40 + 20 + 1. */
    assert_pl_ok(pl_topology_distance(r, f0 + k.g[0], f1 + k.g[3], &d));
    assert_int_equal(d, 122);
    int32_t v;
    assert_pl_ok(pl_topology_find(r, "rack0/m/package1/gpu3", &v));
    assert_int_equal(v, f0 + k.g[3]); /* equal names: the first added wins */
    assert_pl_status(pl_topology_graft(r, -1, r, NULL), PL_EINVAL);
    assert_pl_status(pl_topology_graft(r, 99, k.t, NULL), PL_EINVAL);
    pl_topology_free(r);
    pl_topology_free(c);
    pl_topology_free(k.t);
}

/* Vertex attributes: set, replace, order, remove, errors; copied by copy,
 * graft and the cluster builder. */
static void test_attributes(void **state)
{
    (void)state;
    minsky k;
    build_minsky(&k);
    const int32_t m = 0;
    assert_int_equal(pl_topology_attr_count(k.t, m), 0);
    assert_null(pl_topology_attr(k.t, m, "arch"));
    assert_pl_ok(pl_topology_set_attr(k.t, m, "arch", "power8"));
    assert_pl_ok(pl_topology_set_attr(k.t, m, "zone", "a"));
    assert_pl_ok(pl_topology_set_attr(k.t, k.g[1], "model", "p100"));
    assert_pl_ok(pl_topology_set_attr(k.t, m, "arch", "power9")); /* replaces, keeps its place */
    assert_int_equal(pl_topology_attr_count(k.t, m), 2);
    assert_string_equal(pl_topology_attr(k.t, m, "arch"), "power9");
    const char *key, *val;
    assert_pl_ok(pl_topology_attr_at(k.t, m, 0, &key, &val));
    assert_string_equal(key, "arch");
    assert_string_equal(val, "power9");
    assert_pl_ok(pl_topology_attr_at(k.t, m, 1, &key, NULL));
    assert_string_equal(key, "zone");
    assert_pl_status(pl_topology_attr_at(k.t, m, 2, &key, &val), PL_EINVAL);
    assert_pl_status(pl_topology_attr_at(k.t, m, -1, &key, &val), PL_EINVAL);
    /* Only the vertex itself: the GPU does not inherit its machine's. */
    assert_null(pl_topology_attr(k.t, k.g[1], "arch"));
    assert_string_equal(pl_topology_attr(k.t, k.g[1], "model"), "p100");
    /* Errors change nothing. */
    assert_pl_status(pl_topology_set_attr(k.t, 99, "a", "b"), PL_EINVAL);
    assert_pl_status(pl_topology_set_attr(k.t, m, "", "b"), PL_EINVAL);
    assert_pl_status(pl_topology_set_attr(k.t, m, NULL, "b"), PL_EINVAL);
    assert_pl_status(pl_topology_set_attr(k.t, m, "arch", ""), PL_EINVAL);
    assert_pl_status(pl_topology_set_attr(NULL, m, "arch", "x"), PL_EINVAL);
    assert_string_equal(pl_topology_attr(k.t, m, "arch"), "power9");
    assert_null(pl_topology_attr(k.t, 99, "arch"));
    assert_null(pl_topology_attr(NULL, m, "arch"));
    assert_null(pl_topology_attr(k.t, m, NULL));
    assert_int_equal(pl_topology_attr_count(k.t, -1), 0);

    /* copy: equal, then independent. */
    pl_topology *c;
    assert_pl_ok(pl_topology_copy(k.t, &c));
    assert_string_equal(pl_topology_attr(c, m, "arch"), "power9");
    assert_string_equal(pl_topology_attr(c, k.g[1], "model"), "p100");
    assert_pl_ok(pl_topology_attr_at(c, m, 1, &key, &val));
    assert_string_equal(key, "zone");
    assert_pl_ok(pl_topology_set_attr(c, m, "arch", "x86"));
    assert_string_equal(pl_topology_attr(k.t, m, "arch"), "power9");

    /* Remove: the first of two, then an absent one (no error). */
    assert_pl_ok(pl_topology_set_attr(k.t, m, "arch", NULL));
    assert_pl_ok(pl_topology_set_attr(k.t, m, "arch", NULL));
    assert_int_equal(pl_topology_attr_count(k.t, m), 1);
    assert_null(pl_topology_attr(k.t, m, "arch"));
    assert_pl_ok(pl_topology_attr_at(k.t, m, 0, &key, &val));
    assert_string_equal(key, "zone");
    assert_pl_ok(pl_topology_set_attr(k.t, m, "arch", "arm")); /* re-added last */
    assert_pl_ok(pl_topology_attr_at(k.t, m, 1, &key, &val));
    assert_string_equal(key, "arch");
    assert_string_equal(val, "arm");

    /* graft: at first + v; the receiving topology's own attributes stay. */
    pl_topology *r;
    int32_t rack, f0, f1;
    assert_pl_ok(pl_topology_create(&r));
    assert_pl_ok(pl_topology_add_vertex(r, PL_VK_RACK, -1, NULL, 0, &rack));
    assert_pl_ok(pl_topology_set_attr(r, rack, "row", "3"));
    assert_pl_ok(pl_topology_graft(r, rack, k.t, &f0));
    assert_pl_ok(pl_topology_graft(r, rack, c, &f1));
    assert_string_equal(pl_topology_attr(r, rack, "row"), "3");
    assert_string_equal(pl_topology_attr(r, f0 + m, "arch"), "arm");
    assert_string_equal(pl_topology_attr(r, f0 + m, "zone"), "a");
    assert_string_equal(pl_topology_attr(r, f1 + m, "arch"), "x86");
    assert_string_equal(pl_topology_attr(r, f1 + k.g[1], "model"), "p100");
    assert_int_equal(pl_topology_attr_count(r, f0 + m), 2);
    assert_int_equal(pl_topology_attr_count(r, f0 + k.g[0]), 0);

    /* The cluster builder: every machine gets the template root's. */
    pl_topology *cl;
    assert_pl_ok(pl_topology_cluster(k.t, 3, 2, 0, &cl));
    for (int i = 0; i < 3; i++) {
        char path[64];
        int32_t v;
        snprintf(path, sizeof path, "cluster/rack%d/node%d", i / 2, i);
        assert_pl_ok(pl_topology_find(cl, path, &v));
        assert_string_equal(pl_topology_attr(cl, v, "arch"), "arm");
        snprintf(path, sizeof path, "cluster/rack%d/node%d/package0/gpu1", i / 2, i);
        assert_pl_ok(pl_topology_find(cl, path, &v));
        assert_string_equal(pl_topology_attr(cl, v, "model"), "p100");
    }
    pl_topology_free(cl);
    pl_topology_free(r);
    pl_topology_free(c);
    pl_topology_free(k.t);
}

/* Read-only queries on one handle from two threads at once. */
typedef struct {
    const pl_topology *t;
    const int32_t *g;
    int ok;
} reader_arg;

static void *reader(void *p)
{
    reader_arg *a = p;
    a->ok = 1;
    for (int i = 0; i < 200 && a->ok; i++) {
        int64_t mat[16], bw;
        if (pl_topology_distance_matrix(a->t, a->g, 4, mat) != PL_OK || mat[3] != 22 || mat[1] != 1 ||
            pl_topology_bottleneck_bw(a->t, a->g[0], a->g[3], &bw) != PL_OK || bw != 38400000000)
            a->ok = 0;
    }
    return NULL;
}

static void test_concurrent_queries(void **state)
{
    (void)state;
    minsky k;
    build_minsky(&k);
    pthread_t th[2];
    reader_arg args[2] = {{k.t, k.g, 0}, {k.t, k.g, 0}};
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, reader, &args[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    assert_true(args[0].ok && args[1].ok);
    pl_topology_free(k.t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_levels),
        cmocka_unit_test(test_build_errors),
        cmocka_unit_test(test_containment_queries),
        cmocka_unit_test(test_find_and_path_names),
        cmocka_unit_test(test_distances),
        cmocka_unit_test(test_bipartition),
        cmocka_unit_test(test_allocation_and_snapshots),
        cmocka_unit_test(test_copy_and_graft),
        cmocka_unit_test(test_attributes),
        cmocka_unit_test(test_concurrent_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
