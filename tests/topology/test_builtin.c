/* Builtin reference machines, clusters built from them, and the text and
 * DOT writers. Every expected number is worked out by hand in a comment
 * from doc/topology-builtin.md and the default weights (device/switch/NUMA
 * level 1, socket 20, machine 40, rack 80). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"

#define GIB ((int64_t)1 << 30)

static pl_topology *builtin(const char *name)
{
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_builtin(name, &t));
    assert_non_null(t);
    return t;
}

/* Vertices of one kind in preorder; the array is static (up to 64). */
static int32_t kinds(const pl_topology *t, int32_t under, pl_vertex_kind kind, int32_t *out)
{
    int32_t k = 0;
    assert_pl_ok(pl_topology_descendants(t, under, (int)kind, out, 64, &k));
    return k;
}

static void assert_matrix(const pl_topology *t, const int64_t *want, int32_t k)
{
    int32_t gpus[64];
    assert_int_equal(kinds(t, -1, PL_VK_GPU, gpus), k);
    int64_t m[64 * 64];
    assert_pl_ok(pl_topology_distance_matrix(t, gpus, k, m));
    for (int32_t i = 0; i < k * k; i++)
        if (m[i] != want[i])
            fail_msg("distance gpu%d-gpu%d: got %lld, want %lld", i / k, i % k, (long long)m[i],
                     (long long)want[i]);
}

static int64_t bottleneck(const pl_topology *t, const char *a, const char *b)
{
    int32_t va, vb;
    int64_t bw = -1;
    assert_pl_ok(pl_topology_find(t, a, &va));
    assert_pl_ok(pl_topology_find(t, b, &vb));
    assert_pl_ok(pl_topology_bottleneck_bw(t, va, vb, &bw));
    return bw;
}

static int64_t distance(const pl_topology *t, const char *a, const char *b)
{
    int32_t va, vb;
    int64_t d = -1;
    assert_pl_ok(pl_topology_find(t, a, &va));
    assert_pl_ok(pl_topology_find(t, b, &vb));
    assert_pl_ok(pl_topology_distance(t, va, vb, &d));
    return d;
}

static void assert_shape(const pl_topology *t, int32_t vertices, int32_t links, int32_t gpus,
                         int32_t packages)
{
    int32_t buf[64];
    assert_int_equal(pl_topology_vertex_count(t), vertices);
    assert_int_equal(pl_topology_link_count(t), links);
    assert_int_equal(kinds(t, -1, PL_VK_GPU, buf), gpus);
    assert_int_equal(kinds(t, -1, PL_VK_PACKAGE, buf), packages);
    int32_t roots = 0;
    assert_pl_ok(pl_topology_children(t, -1, buf, 64, &roots));
    assert_int_equal(roots, 1);
    pl_vertex_info info;
    assert_pl_ok(pl_topology_vertex(t, buf[0], &info));
    assert_int_equal(info.kind, PL_VK_MACHINE);
}

static void test_names(void **s)
{
    (void)s;
    const char *const *n = pl_topology_builtin_names();
    const char *want[] = {"minsky", "dgx1", "dgx2", "2s4g-pcie"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(n[i], want[i]);
    assert_null(n[4]);
    pl_topology *t = (pl_topology *)1;
    assert_pl_status(pl_topology_builtin("dgx3", &t), PL_ENOTFOUND);
    assert_null(t);
    assert_non_null(strstr(pl_last_error(), "'dgx3'"));
    assert_non_null(strstr(pl_last_error(), "minsky, dgx1, dgx2, 2s4g-pcie"));
    assert_pl_status(pl_topology_builtin(NULL, &t), PL_EINVAL);
    assert_pl_status(pl_topology_builtin("minsky", NULL), PL_EINVAL);
}

/* Minsky: machine, 2 packages, 2 NUMA, 4 GPUs = 9 vertices; links: 2 memory
 * + 2 board + 4 GPU-socket NVLink + 2 GPU pair NVLink + 1 X-Bus = 11.
 * Same socket: direct NVLink, 1. Across: GPU-socket 1 + X-Bus 20 + 1 = 22
 * (through the machine it would be 1 + 20 + 20 + 1 = 42). */
static void test_minsky(void **s)
{
    (void)s;
    pl_topology *t = builtin("minsky");
    assert_shape(t, 9, 11, 4, 2);
    const int64_t want[16] = {0, 1, 22, 22, 1, 0, 22, 22, 22, 22, 0, 1, 22, 22, 1, 0};
    assert_matrix(t, want, 4);
    /* Names are the NULL-name defaults the hwloc loader also produces. */
    int32_t v;
    pl_vertex_info info;
    assert_pl_ok(pl_topology_find(t, "machine/package1/gpu3", &v));
    assert_pl_ok(pl_topology_vertex(t, v, &info));
    assert_int_equal(info.kind, PL_VK_GPU);
    assert_int_equal(info.os_index, 3);
    int64_t cap;
    assert_pl_ok(pl_topology_amount(t, v, PL_RES_GPU_MEMORY, &cap, NULL, NULL));
    assert_int_equal(cap, 16 * GIB);
    assert_pl_ok(pl_topology_find(t, "machine/package0/numa0", &v));
    assert_pl_ok(pl_topology_amount(t, v, PL_RES_MEMORY, &cap, NULL, NULL));
    assert_int_equal(cap, 256 * GIB);
    assert_pl_ok(pl_topology_find(t, "machine/package1", &v));
    assert_pl_ok(pl_topology_amount(t, v, PL_RES_CORES, &cap, NULL, NULL));
    assert_int_equal(cap, 10);
    /* Widest paths: the NVLink pair 40 GB/s; across sockets the X-Bus
     * 38.4 GB/s beats the board links (15.75 GB/s) through the machine. */
    assert_int_equal(bottleneck(t, "machine/package0/gpu0", "machine/package0/gpu1"), 40000000000LL);
    assert_int_equal(bottleneck(t, "machine/package0/gpu0", "machine/package1/gpu2"), 38400000000LL);
    /* The cross-socket path is GPU-socket NVLink, X-Bus, socket-GPU NVLink. */
    int32_t a, b, links[8], k;
    assert_pl_ok(pl_topology_find(t, "machine/package0/gpu1", &a));
    assert_pl_ok(pl_topology_find(t, "machine/package1/gpu3", &b));
    assert_pl_ok(pl_topology_path(t, a, b, links, 8, &k));
    assert_int_equal(k, 3);
    const pl_link_kind want_kinds[3] = {PL_LK_NVLINK, PL_LK_INTERSOCKET, PL_LK_NVLINK};
    for (int i = 0; i < 3; i++) {
        pl_link_info li;
        assert_pl_ok(pl_topology_link(t, links[i], &li));
        assert_int_equal(li.kind, want_kinds[i]);
    }
    pl_topology_free(t);
}

/* DGX-1V: machine, 2 packages, 2 NUMA, 4 PCIe switches, 8 GPUs = 17
 * vertices; links per socket: memory, board, 2 switch-socket, 4 GPU-switch
 * = 8, twice, + QPI + 16 NVLink pairs = 33.
 * GPU0's NVLink neighbours are 1, 2, 3 (x2) and 4 (x2): distance 1. GPU5,
 * 6, 7 are 2 hops: 0-1-5 (or 0-4-5), 0-2-6 (0-4-6), 0-3-7 (0-4-7); the
 * PCIe way is 1 + 1 + 20 + 1 + 1 = 24. GPU4's row mirrors it: neighbours
 * 0, 5, 6, 7; 1 via 0 or 5, 2 via 0 or 6, 3 via 0 or 7. */
/* GPUs of t in os_index order (0..3), found by path name. */
static void minsky_gpus(const pl_topology *t, int32_t g[4])
{
    static const char *const paths[4] = {"machine/package0/gpu0", "machine/package0/gpu1",
                                         "machine/package1/gpu2", "machine/package1/gpu3"};
    for (int i = 0; i < 4; i++)
        assert_pl_ok(pl_topology_find(t, paths[i], &g[i]));
}

/* The builtin and the real machine's hwloc export agree on what placement
 * reads: GPU distances and bandwidths (capacities differ: the export only
 * lists the cores and memory the exporting job could see). */
static void test_minsky_matches_its_xml(void **s)
{
    (void)s;
    char path[PL_PATH_MAX];
    pl_topology *b = builtin("minsky"), *x = NULL;
    assert_pl_ok(pl_topology_load_xml(pl_test_data(path, "topologies/power8gpudistances.xml"), &x));
    int32_t gb[4], gx[4];
    minsky_gpus(b, gb);
    minsky_gpus(x, gx);
    int64_t mb[16], mx[16];
    assert_pl_ok(pl_topology_distance_matrix(b, gb, 4, mb));
    assert_pl_ok(pl_topology_distance_matrix(x, gx, 4, mx));
    assert_memory_equal(mb, mx, sizeof mb);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int64_t bb, bx;
            assert_pl_ok(pl_topology_bottleneck_bw(b, gb[i], gb[j], &bb));
            assert_pl_ok(pl_topology_bottleneck_bw(x, gx[i], gx[j], &bx));
            assert_int_equal(bb, bx);
        }
    pl_topology_free(b);
    pl_topology_free(x);
}

static void test_dgx1(void **s)
{
    (void)s;
    pl_topology *t = builtin("dgx1");
    assert_shape(t, 17, 33, 8, 2);
    int32_t gpus[64], sw[64];
    assert_int_equal(kinds(t, -1, PL_VK_GPU, gpus), 8);
    assert_int_equal(kinds(t, -1, PL_VK_PCI_SWITCH, sw), 4);
    int64_t m[64];
    assert_pl_ok(pl_topology_distance_matrix(t, gpus, 8, m));
    const int64_t row0[8] = {0, 1, 1, 1, 1, 2, 2, 2}, row4[8] = {1, 2, 2, 2, 0, 1, 1, 1};
    for (int j = 0; j < 8; j++) {
        assert_int_equal(m[j], row0[j]);
        assert_int_equal(m[4 * 8 + j], row4[j]);
    }
    /* Every V100 has 6 NVLinks of 25 GB/s: the NVLink bandwidth at each GPU
     * sums to 150 GB/s, and it has 4 NVLink neighbours (two doubled). */
    for (int i = 0; i < 8; i++) {
        int32_t inc[16], n;
        assert_pl_ok(pl_topology_links_of(t, gpus[i], inc, 16, &n));
        int64_t sum = 0;
        int nv = 0;
        for (int32_t j = 0; j < n; j++) {
            pl_link_info li;
            assert_pl_ok(pl_topology_link(t, inc[j], &li));
            if (li.kind == PL_LK_NVLINK) {
                sum += li.bw_bytes_per_s;
                nv++;
            }
        }
        assert_int_equal(sum, 150000000000LL);
        assert_int_equal(nv, 4);
    }
    /* The bandwidth of the shortest path: GPU0-GPU1 is one single link
     * (25 GB/s), although the doubled ring 0-3-2-1 would give 50 GB/s over
     * three hops; GPU0-GPU7 is two hops either way (0-3-7: 50 then 25;
     * 0-4-7: 50 and 50) and the tie goes to the wider path. */
    assert_int_equal(bottleneck(t, "machine/package0/pci-switch0/gpu0",
                                "machine/package0/pci-switch0/gpu1"), 25000000000LL);
    assert_int_equal(bottleneck(t, "machine/package0/pci-switch0/gpu0",
                                "machine/package1/pci-switch3/gpu7"), 50000000000LL);
    /* GPUs 0-3 hang under package 0, 4-7 under package 1, 2 per switch. */
    int32_t v, anc;
    assert_pl_ok(pl_topology_find(t, "machine/package1/pci-switch2/gpu5", &v));
    assert_pl_ok(pl_topology_ancestor(t, v, PL_VK_PACKAGE, &anc));
    pl_vertex_info info;
    assert_pl_ok(pl_topology_vertex(t, anc, &info));
    assert_string_equal(info.name, "package1");
    pl_topology_free(t);
}

/* Reachable from GPU g over NVSwitch links alone: GPUs counted by a
 * breadth-first search that ignores every other link kind. */
static int nvswitch_reach(const pl_topology *t, int32_t g)
{
    int32_t n = pl_topology_vertex_count(t), *queue = calloc((size_t)n, sizeof *queue);
    char *seen = calloc((size_t)n, 1);
    assert_non_null(queue);
    assert_non_null(seen);
    int32_t head = 0, tail = 0;
    int gpus = 0;
    queue[tail++] = g;
    seen[g] = 1;
    while (head < tail) {
        int32_t u = queue[head++], inc[64], k;
        pl_vertex_info info;
        assert_pl_ok(pl_topology_vertex(t, u, &info));
        gpus += info.kind == PL_VK_GPU;
        assert_pl_ok(pl_topology_links_of(t, u, inc, 64, &k));
        for (int32_t j = 0; j < k; j++) {
            pl_link_info li;
            assert_pl_ok(pl_topology_link(t, inc[j], &li));
            int32_t w = li.a == u ? li.b : li.a;
            if (li.kind == PL_LK_NVSWITCH && !seen[w]) {
                seen[w] = 1;
                queue[tail++] = w;
            }
        }
    }
    free(queue);
    free(seen);
    return gpus;
}

/* DGX-2: machine, 2 packages, 2 NUMA, 8 PCIe switches, 16 GPUs, 12
 * NVSwitches = 41 vertices; links per socket: memory, board, 4
 * switch-socket, 8 GPU-switch = 14, twice, + UPI + 16 * 6 GPU-NVSwitch + 6
 * trunks = 131. Same baseboard: GPU-NVSwitch-GPU = 2; across: GPU-switch
 * i-switch i+6-GPU = 3. */
static void test_dgx2(void **s)
{
    (void)s;
    pl_topology *t = builtin("dgx2");
    assert_shape(t, 41, 131, 16, 2);
    int32_t buf[64];
    assert_int_equal(kinds(t, -1, PL_VK_NVSWITCH, buf), 12);
    assert_int_equal(kinds(t, -1, PL_VK_PCI_SWITCH, buf), 8);
    int64_t want[256];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            want[i * 16 + j] = i == j ? 0 : (i / 8 == j / 8 ? 2 : 3);
    assert_matrix(t, want, 16);
    int32_t gpus[64];
    assert_int_equal(kinds(t, -1, PL_VK_GPU, gpus), 16);
    for (int i = 0; i < 16; i++)
        assert_int_equal(nvswitch_reach(t, gpus[i]), 16);
    int64_t cap, free_amount;
    int32_t m;
    assert_pl_ok(pl_topology_find(t, "machine", &m));
    assert_pl_ok(pl_topology_subtree_amount(t, m, PL_VK_GPU, PL_RES_GPU_MEMORY, &cap, &free_amount));
    assert_int_equal(cap, 16 * 32 * GIB);
    assert_pl_ok(pl_topology_subtree_amount(t, m, -1, PL_RES_CORES, &cap, NULL));
    assert_int_equal(cap, 48);
    assert_pl_ok(pl_topology_subtree_amount(t, m, PL_VK_NUMA, PL_RES_MEMORY, &cap, NULL));
    assert_int_equal(cap, 1536 * GIB);
    /* One GPU-NVSwitch link is the narrowest hop: 25 GB/s. */
    assert_int_equal(bottleneck(t, "machine/package0/pci-switch0/gpu0",
                                "machine/package1/pci-switch7/gpu15"), 25000000000LL);
    pl_topology_free(t);
}

/* 2s4g-pcie: machine, 2 packages, 2 NUMA, 2 PCIe switches, 4 GPUs = 11;
 * links per socket: memory, board, switch-socket, 2 GPU-switch = 5, twice,
 * + UPI = 11. Same switch: 1 + 1 = 2; across: 1 + 1 + 20 + 1 + 1 = 24. */
static void test_2s4g_pcie(void **s)
{
    (void)s;
    pl_topology *t = builtin("2s4g-pcie");
    assert_shape(t, 11, 11, 4, 2);
    const int64_t want[16] = {0, 2, 24, 24, 2, 0, 24, 24, 24, 24, 0, 2, 24, 24, 2, 0};
    assert_matrix(t, want, 4);
    for (int32_t l = 0; l < pl_topology_link_count(t); l++) {
        pl_link_info li;
        assert_pl_ok(pl_topology_link(t, l, &li));
        assert_int_not_equal(li.kind, PL_LK_NVLINK);
    }
    /* PCIe 3.0 x16 is narrower than UPI (41.6 GB/s). */
    assert_int_equal(bottleneck(t, "machine/package0/pci-switch0/gpu0",
                                "machine/package1/pci-switch1/gpu3"), 15750000000LL);
    pl_topology_free(t);
}

/* 3 Minsky machines, 2 per rack: cluster + 2 racks + 3 * 9 = 30 vertices;
 * 3 * 11 + 3 machine-rack + 2 rack-cluster = 38 links. */
static void test_cluster_shape(void **s)
{
    (void)s;
    pl_topology *m = builtin("minsky"), *c = NULL;
    assert_pl_ok(pl_topology_cluster(m, 3, 2, 0, &c));
    assert_int_equal(pl_topology_vertex_count(c), 30);
    assert_int_equal(pl_topology_link_count(c), 38);
    int32_t buf[64];
    assert_int_equal(kinds(c, -1, PL_VK_MACHINE, buf), 3);
    assert_int_equal(kinds(c, -1, PL_VK_RACK, buf), 2);
    assert_int_equal(kinds(c, -1, PL_VK_GPU, buf), 12);
    int32_t v, rack;
    pl_vertex_info info;
    /* Machine 2 is the first of rack 1; its GPU 3 sits under package 1. */
    assert_pl_ok(pl_topology_find(c, "cluster/rack1/node2/package1/gpu3", &v));
    assert_pl_ok(pl_topology_vertex(c, v, &info));
    assert_int_equal(info.kind, PL_VK_GPU);
    assert_int_equal(info.os_index, 3);
    assert_int_equal(info.depth, 4);
    assert_pl_ok(pl_topology_ancestor(c, v, PL_VK_RACK, &rack));
    assert_pl_ok(pl_topology_vertex(c, rack, &info));
    assert_string_equal(info.name, "rack1");
    assert_pl_status(pl_topology_find(c, "cluster/rack0/node2", &v), PL_ENOTFOUND);
    char path[128];
    assert_pl_ok(pl_topology_find(c, "cluster/rack0/node1/package0/gpu0", &v));
    assert_pl_ok(pl_topology_path_name(c, v, path, sizeof path));
    assert_string_equal(path, "cluster/rack0/node1/package0/gpu0");
    /* Network links: 12.5 GB/s by default. */
    int32_t node, inc[8], k;
    assert_pl_ok(pl_topology_find(c, "cluster/rack1/node2", &node));
    assert_pl_ok(pl_topology_links_of(c, node, inc, 8, &k));
    int networks = 0;
    for (int32_t j = 0; j < k; j++) {
        pl_link_info li;
        assert_pl_ok(pl_topology_link(c, inc[j], &li));
        if (li.kind == PL_LK_NETWORK) {
            networks++;
            assert_int_equal(li.bw_bytes_per_s, 12500000000LL);
            assert_int_equal(li.weight, 40);
        }
    }
    assert_int_equal(networks, 1);
    pl_topology_free(c);
    pl_topology_free(m);
}

/* Same rack: GPU-socket 1, socket-machine 20, machine-rack 40, rack-machine
 * 40, machine-socket 20, socket-GPU 1 = 122. Other rack: add rack-cluster
 * 80 twice: 1 + 20 + 40 + 80 + 80 + 40 + 20 + 1 = 282. Inside one node the
 * Minsky matrix is unchanged. */
static void test_cluster_distances(void **s)
{
    (void)s;
    pl_topology *m = builtin("minsky"), *c = NULL;
    assert_pl_ok(pl_topology_cluster(m, 3, 2, 25000000000LL, &c));
    const char *g00 = "cluster/rack0/node0/package0/gpu0";
    assert_int_equal(distance(c, g00, "cluster/rack0/node1/package0/gpu0"), 122);
    assert_int_equal(distance(c, g00, "cluster/rack1/node2/package1/gpu3"), 282);
    assert_int_equal(distance(c, g00, "cluster/rack0/node0/package1/gpu2"), 22);
    assert_int_equal(distance(c, g00, "cluster/rack0/node0/package0/gpu1"), 1);
    /* Between machines the board links (15.75 GB/s) are narrower than the
     * 25 GB/s network asked for here. */
    assert_int_equal(bottleneck(c, g00, "cluster/rack1/node2/package0/gpu0"), 15750000000LL);
    pl_topology_free(c);
    /* With the default 12.5 GB/s network, the network is the bottleneck. */
    assert_pl_ok(pl_topology_cluster(m, 3, 2, 0, &c));
    assert_int_equal(bottleneck(c, g00, "cluster/rack0/node1/package0/gpu0"), 12500000000LL);
    pl_topology_free(c);
    pl_topology_free(m);
}

static void test_cluster_errors(void **s)
{
    (void)s;
    pl_topology *m = builtin("minsky"), *c = (pl_topology *)1, *bad = NULL;
    assert_pl_status(pl_topology_cluster(m, 0, 2, 0, &c), PL_EINVAL);
    assert_null(c);
    assert_pl_status(pl_topology_cluster(m, 2, 0, 0, &c), PL_EINVAL);
    assert_pl_status(pl_topology_cluster(m, 2, 2, -1, &c), PL_EINVAL);
    assert_pl_status(pl_topology_cluster(NULL, 2, 2, 0, &c), PL_EINVAL);
    assert_pl_status(pl_topology_cluster(m, 2, 2, 0, NULL), PL_EINVAL);
    /* Empty template, a root that is not a machine, two machine roots. */
    assert_pl_ok(pl_topology_create(&bad));
    assert_pl_status(pl_topology_cluster(bad, 2, 2, 0, &c), PL_EINVAL);
    assert_pl_ok(pl_topology_add_vertex(bad, PL_VK_PACKAGE, -1, NULL, 0, NULL));
    assert_pl_status(pl_topology_cluster(bad, 2, 2, 0, &c), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "not a machine"));
    pl_topology_free(bad);
    assert_pl_ok(pl_topology_create(&bad));
    assert_pl_ok(pl_topology_add_vertex(bad, PL_VK_MACHINE, -1, "a", -1, NULL));
    assert_pl_ok(pl_topology_add_vertex(bad, PL_VK_MACHINE, -1, "b", -1, NULL));
    assert_pl_status(pl_topology_cluster(bad, 2, 2, 0, &c), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "several roots"));
    pl_topology_free(bad);
    /* One machine alone still gets a rack and the cluster root: 1 + 1 + 9. */
    assert_pl_ok(pl_topology_cluster(m, 1, 5, 0, &c));
    assert_int_equal(pl_topology_vertex_count(c), 11);
    assert_int_equal(pl_topology_link_count(c), 13);
    pl_topology_free(c);
    pl_topology_free(m);
}

/* A GPU placed on dgx1, tried, rolled back; over-allocation leaves it as is. */
static void test_allocation(void **s)
{
    (void)s;
    pl_topology *t = builtin("dgx1");
    int32_t m, g0, g1;
    assert_pl_ok(pl_topology_find(t, "machine", &m));
    assert_pl_ok(pl_topology_find(t, "machine/package0/pci-switch0/gpu0", &g0));
    assert_pl_ok(pl_topology_find(t, "machine/package0/pci-switch0/gpu1", &g1));
    assert_pl_ok(pl_topology_alloc(t, g0, PL_RES_UNITS, 1));
    assert_pl_ok(pl_topology_alloc(t, g0, PL_RES_GPU_MEMORY, 10 * GIB));
    int64_t cap, free_amount, used;
    assert_pl_ok(pl_topology_subtree_amount(t, m, PL_VK_GPU, PL_RES_UNITS, &cap, &free_amount));
    assert_int_equal(cap, 8);
    assert_int_equal(free_amount, 7);
    pl_topology_snapshot *snap = NULL;
    assert_pl_ok(pl_topology_snapshot_take(t, &snap));
    assert_pl_ok(pl_topology_alloc(t, g1, PL_RES_UNITS, 1));
    /* 6 GiB left on gpu0: 7 GiB is refused and nothing changes. */
    assert_pl_status(pl_topology_alloc(t, g0, PL_RES_GPU_MEMORY, 7 * GIB), PL_EINVAL);
    assert_pl_ok(pl_topology_amount(t, g0, PL_RES_GPU_MEMORY, NULL, &used, &free_amount));
    assert_int_equal(used, 10 * GIB);
    assert_int_equal(free_amount, 6 * GIB);
    assert_pl_status(pl_topology_alloc(t, g0, PL_RES_UNITS, 1), PL_EINVAL);
    assert_pl_ok(pl_topology_amount(t, g0, PL_RES_UNITS, NULL, &used, NULL));
    assert_int_equal(used, 1);
    assert_pl_ok(pl_topology_snapshot_restore(t, snap));
    assert_pl_ok(pl_topology_amount(t, g1, PL_RES_UNITS, NULL, &used, NULL));
    assert_int_equal(used, 0);
    assert_pl_ok(pl_topology_amount(t, g0, PL_RES_GPU_MEMORY, NULL, &used, NULL));
    assert_int_equal(used, 10 * GIB);
    pl_topology_snapshot_free(snap);
    /* A cluster copies the template's allocations into every node. */
    pl_topology *c = NULL;
    assert_pl_ok(pl_topology_cluster(t, 2, 2, 0, &c));
    assert_pl_ok(pl_topology_find(c, "cluster/rack0/node1/package0/pci-switch0/gpu0", &g0));
    assert_pl_ok(pl_topology_amount(c, g0, PL_RES_UNITS, NULL, &used, NULL));
    assert_int_equal(used, 1);
    pl_topology_free(c);
    pl_topology_free(t);
}

/* The line of text containing needle, copied into line. */
static void line_with(const char *text, const char *needle, char *line, size_t size)
{
    const char *p = strstr(text, needle);
    if (!p)
        fail_msg("'%s' not in output:\n%s", needle, text);
    while (p > text && p[-1] != '\n')
        p--;
    size_t n = strcspn(p, "\n");
    snprintf(line, size, "%.*s", (int)(n < size ? n : size - 1), p);
}

static void test_write_text(void **s)
{
    (void)s;
    pl_topology *t = builtin("minsky");
    int32_t g;
    assert_pl_ok(pl_topology_find(t, "machine/package0/gpu1", &g));
    assert_pl_ok(pl_topology_alloc(t, g, PL_RES_GPU_MEMORY, 4 * GIB));
    char *out = pl_test_topology_output(pl_topology_write_text, t);
    assert_non_null(strstr(out, "machine machine\n  package package0 [os 0]  cores 10 (10 free)\n"
                                "    numa numa0 [os 0]  memory 256 GiB (256 GiB free)\n"));
    assert_non_null(strstr(out, "    gpu gpu1 [os 1]  units 1 (1 free), gpu-memory 16 GiB (12 GiB free)\n"));
    assert_non_null(strstr(out, "  machine/package0/gpu0 -- machine/package0/gpu1  nvlink 40 GB/s  weight 1\n"));
    assert_non_null(strstr(out, "  machine/package0 -- machine/package1  intersocket 38.4 GB/s  weight 20\n"));
    assert_non_null(strstr(out, "gpu distances in machine:\n"
                                "       gpu0 gpu1 gpu2 gpu3\n"
                                "  gpu0    0    1   22   22\n"
                                "  gpu1    1    0   22   22\n"
                                "  gpu2   22   22    0    1\n"
                                "  gpu3   22   22    1    0\n"));
    free(out);
    /* A cluster: one matrix per machine, headed by the machine's path. */
    pl_topology *c = NULL;
    assert_pl_ok(pl_topology_cluster(t, 3, 2, 0, &c));
    out = pl_test_topology_output(pl_topology_write_text, c);
    assert_non_null(strstr(out, "gpu distances in cluster/rack1/node2:\n"));
    assert_non_null(strstr(out, "  cluster/rack0/node1 -- cluster/rack0  network 12.5 GB/s  weight 40\n"));
    assert_non_null(strstr(out, "\n  rack rack1\n    machine node2\n"));
    free(out);
    pl_topology_free(c);
    pl_topology_free(t);
}

static void test_write_dot(void **s)
{
    (void)s;
    pl_topology *t = builtin("minsky");
    int32_t g;
    assert_pl_ok(pl_topology_find(t, "machine/package1/gpu2", &g));
    assert_pl_ok(pl_topology_alloc(t, g, PL_RES_UNITS, 1));
    char *out = pl_test_topology_output(pl_topology_write_dot, t), line[256];
    assert_int_equal(strncmp(out, "graph topology {\n", 17), 0);
    /* A box per machine and per package, each closed. */
    int open = 0, close = 0;
    for (const char *p = out; (p = strstr(p, "subgraph cluster_")); p++)
        open++;
    for (const char *p = out; *p; p++)
        close += *p == '}';
    assert_int_equal(open, 3);
    assert_int_equal(close, 4); /* 3 boxes + the graph */
    assert_non_null(strstr(out, "label=\"package1\\npackage\";"));
    line_with(out, "label=\"gpu2\\ngpu\"", line, sizeof line);
    assert_non_null(strstr(line, "style=filled, fillcolor=grey"));
    line_with(out, "label=\"gpu3\\ngpu\"", line, sizeof line);
    assert_null(strstr(line, "filled"));
    assert_non_null(strstr(out, " -- "));
    assert_non_null(strstr(out, "[label=\"nvlink 40 GB/s\"]"));
    assert_non_null(strstr(out, "[label=\"intersocket 38.4 GB/s\"]"));
    assert_non_null(strstr(out, "[label=\"memory\"]"));
    free(out);
    /* Quotes and backslashes in names are escaped. */
    pl_topology *q = NULL;
    assert_pl_ok(pl_topology_create(&q));
    assert_pl_ok(pl_topology_add_vertex(q, PL_VK_MACHINE, -1, "a\"b\\c", -1, NULL));
    out = pl_test_topology_output(pl_topology_write_dot, q);
    assert_non_null(strstr(out, "label=\"a\\\"b\\\\c\\nmachine\""));
    free(out);
    pl_topology_free(q);
    pl_topology_free(t);
}

static void test_write_errors(void **s)
{
    (void)s;
    pl_topology *t = builtin("dgx2");
    FILE *f = fopen("/dev/full", "w");
    if (f) {
        assert_pl_status(pl_topology_write_text(t, f), PL_EIO);
        clearerr(f);
        assert_pl_status(pl_topology_write_dot(t, f), PL_EIO);
        fclose(f);
    }
    f = fopen("/dev/null", "r"); /* writing a read-only stream fails at once */
    assert_non_null(f);
    assert_pl_status(pl_topology_write_dot(t, f), PL_EIO);
    assert_non_null(strstr(pl_last_error(), "write error"));
    fclose(f);
    assert_pl_status(pl_topology_write_text(NULL, stdout), PL_EINVAL);
    assert_pl_status(pl_topology_write_dot(t, NULL), PL_EINVAL);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),           cmocka_unit_test(test_minsky),
        cmocka_unit_test(test_minsky_matches_its_xml),
        cmocka_unit_test(test_dgx1),            cmocka_unit_test(test_dgx2),
        cmocka_unit_test(test_2s4g_pcie),       cmocka_unit_test(test_cluster_shape),
        cmocka_unit_test(test_cluster_distances), cmocka_unit_test(test_cluster_errors),
        cmocka_unit_test(test_allocation),      cmocka_unit_test(test_write_text),
        cmocka_unit_test(test_write_dot),       cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
