/* pl_disagg_cluster_from_topology() on a hand-made topology, every expected
 * value worked out by hand below, and its errors.
 *
 * Vertices, in creation order (ids):
 *   0 cluster                                   root
 *   1   m0        machine (no own cores)        -> node 0
 *   2     p0      package, 8 cores
 *   3       n0    numa, 64 GB, 8 cores (those of p0, as hwloc gives them)
 *   4     p1      package, 8 cores (4 allocated)
 *   5   pool0     pool
 *   6     s_a     storage 2 GB/s, 600 GB        -> NVMe 1 (disaggregated)
 *   7     s_b     storage 1 GB/s, 400 GB        -> NVMe 2
 *   8     s_c     storage 2.5 GB/s, 800 GB      -> NVMe 3
 *   9     g       GPU 4 GB/s, 16 GB, "1,2"      -> GPU 0 (disaggregated)
 *  10   m1        machine, own 12 cores, 32 GB  -> node 1
 *  11     q0      package, 12 cores (not added: m1 has its own count)
 *  12   s_att     storage 3 GB/s, 1 TB, in m0   -> NVMe 0, attached to node 0
 * Preorder: cluster, m0, p0, n0, p1, s_att, pool0, s_a, s_b, s_c, g, m1, q0:
 * s_att, created last, comes first among the storage devices.
 * Node 0: cores 8 + 8 = 16, 12 free; memory 64 GB from its NUMA node.
 * Node 1: 12 cores (not 24), 32 GB.
 * Totals: 28 cores, 96 GB; NVMe bandwidth 3 + 2 + 1 + 2.5 = 8.5 GB/s,
 * capacity 1000 + 600 + 400 + 800 = 2800 GB; GPU 4 GB/s, 16 GB. */
#include <string.h>
#include "testutil.h"
#include <placement/disagg.h>
#include <placement/topology.h>
#include "../../lib/disagg/disagg_impl.h"

#define GB 1000000000LL
#define MB 1000000LL

typedef struct {
    pl_topology *t;
    int32_t root, m0, p1, pool, s[3], g, m1, s_att;
} hand;

static int32_t add(pl_topology *t, pl_vertex_kind k, int32_t parent, const char *name)
{
    int32_t v = -1;
    assert_pl_ok(pl_topology_add_vertex(t, k, parent, name, -1, &v));
    return v;
}

static void cap(pl_topology *t, int32_t v, pl_resource r, int64_t amount)
{
    assert_pl_ok(pl_topology_set_capacity(t, v, r, amount));
}

static int32_t storage(pl_topology *t, int32_t parent, const char *name, int64_t bw, int64_t size)
{
    int32_t v = add(t, PL_VK_STORAGE, parent, name);
    cap(t, v, PL_RES_UNITS, 1);
    cap(t, v, PL_RES_BANDWIDTH, bw);
    cap(t, v, PL_RES_STORAGE, size);
    return v;
}

static hand make_hand(void)
{
    hand h;
    assert_pl_ok(pl_topology_create(&h.t));
    pl_topology *t = h.t;
    h.root = add(t, PL_VK_CLUSTER, -1, "cluster");
    h.m0 = add(t, PL_VK_MACHINE, h.root, "m0");
    int32_t p0 = add(t, PL_VK_PACKAGE, h.m0, "p0");
    cap(t, p0, PL_RES_CORES, 8);
    int32_t n0 = add(t, PL_VK_NUMA, p0, "n0");
    cap(t, n0, PL_RES_MEMORY, 64 * GB);
    cap(t, n0, PL_RES_CORES, 8); /* as the hwloc loader does: not counted again */
    h.p1 = add(t, PL_VK_PACKAGE, h.m0, "p1");
    cap(t, h.p1, PL_RES_CORES, 8);
    assert_pl_ok(pl_topology_alloc(t, h.p1, PL_RES_CORES, 4));
    h.pool = add(t, PL_VK_POOL, h.root, "pool0");
    h.s[0] = storage(t, h.pool, "s_a", 2000 * MB, 600 * GB);
    h.s[1] = storage(t, h.pool, "s_b", 1000 * MB, 400 * GB);
    h.s[2] = storage(t, h.pool, "s_c", 2500 * MB, 800 * GB);
    h.g = add(t, PL_VK_GPU, h.pool, "g");
    cap(t, h.g, PL_RES_BANDWIDTH, 4000 * MB);
    cap(t, h.g, PL_RES_GPU_MEMORY, 16 * GB);
    assert_pl_ok(pl_topology_set_attr(t, h.g, PL_DISAGG_VGPU_SPLITS_ATTR, "1,2"));
    h.m1 = add(t, PL_VK_MACHINE, h.root, "m1");
    cap(t, h.m1, PL_RES_CORES, 12);
    cap(t, h.m1, PL_RES_MEMORY, 32 * GB);
    cap(t, add(t, PL_VK_PACKAGE, h.m1, "q0"), PL_RES_CORES, 12);
    h.s_att = storage(t, h.m0, "s_att", 3000 * MB, 1000 * GB);
    return h;
}

static void test_hand_made_view(void **state)
{
    (void)state;
    hand h = make_hand();
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_from_topology(h.t, &c));
    int32_t nodes, nvme, gpus;
    pl_disagg_counts(c, &nodes, &nvme, &gpus);
    assert_int_equal(nodes, 2);
    assert_int_equal(nvme, 4);
    assert_int_equal(gpus, 1);
    /* Nodes: cores from the packages (m0) or the machine itself (m1). */
    assert_int_equal(c->nodes[0].cores, 16);
    assert_int_equal(c->nodes[0].free_cores, 12);
    assert_int_equal(c->nodes[0].mem, 64 * GB);
    assert_int_equal(c->nodes[0].free_mem, 64 * GB);
    assert_int_equal(c->nodes[1].cores, 12);
    assert_int_equal(c->nodes[1].free_cores, 12);
    assert_int_equal(c->nodes[1].mem, 32 * GB);
    /* NVMe in preorder: the attached one first. */
    const struct { int64_t bw, cap; int32_t home; } want[4] = {
        {3000 * MB, 1000 * GB, 0}, {2000 * MB, 600 * GB, -1},
        {1000 * MB, 400 * GB, -1}, {2500 * MB, 800 * GB, -1}};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(c->nvme[i].bw, want[i].bw);
        assert_int_equal(c->nvme[i].cap, want[i].cap);
        assert_int_equal(c->nvme[i].home, want[i].home);
        assert_int_equal(c->nvme[i].comp, -1);
    }
    assert_int_equal(c->gpus[0].bw, 4000 * MB);
    assert_int_equal(c->gpus[0].mem, 16 * GB);
    assert_int_equal(c->gpus[0].home, -1);
    assert_int_equal(c->gpus[0].n_splits, 2);
    assert_int_equal(c->gpus[0].splits[0], 1);
    assert_int_equal(c->gpus[0].splits[1], 2);
    pl_disagg_totals tot;
    assert_pl_ok(pl_disagg_cluster_totals(c, &tot));
    assert_int_equal(tot.cores, 28);
    assert_int_equal(tot.mem_bytes, 96 * GB);
    assert_int_equal(tot.nvme_bw_bytes_per_s, 8500 * MB);
    assert_int_equal(tot.nvme_cap_bytes, 2800 * GB);
    assert_int_equal(tot.gpu_bw_bytes_per_s, 4000 * MB);
    assert_int_equal(tot.gpu_mem_bytes, 16 * GB);
    /* The attached device composes only at its node (the module's rule). */
    pl_disagg_workload w = {.base_time_s = 10, .nvme_bw_bytes_per_s = MB, .nvme_cap_bytes = GB,
                            .cores = 1, .deadline_s = 100};
    pl_disagg_decision d = {.placed = 1, .node = 1, .composition = -1, .n_new_devices = 1,
                            .new_devices = {0}, .gpu = -1, .vgpu = -1};
    assert_int_equal(pl_disagg_apply(c, &w, &d, 0, NULL), PL_EINFEASIBLE);
    d.node = 0;
    assert_pl_ok(pl_disagg_apply(c, &w, &d, 0, NULL));
    pl_disagg_cluster_free(c);
    pl_topology_free(h.t);
}

/* Splits come from the nearest ancestor when the GPU has none, else the
 * T4 default; a GPU in a machine is attached to its node. */
static void test_gpu_splits_and_home(void **state)
{
    (void)state;
    hand h = make_hand();
    assert_pl_ok(pl_topology_set_attr(h.t, h.g, PL_DISAGG_VGPU_SPLITS_ATTR, NULL));
    int32_t g1 = add(h.t, PL_VK_GPU, h.m1, "g1");
    cap(h.t, g1, PL_RES_BANDWIDTH, 1000 * MB);
    cap(h.t, g1, PL_RES_GPU_MEMORY, 8 * GB);
    assert_pl_ok(pl_topology_set_attr(h.t, h.m1, PL_DISAGG_VGPU_SPLITS_ATTR, "1,4,8"));
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_from_topology(h.t, &c));
    assert_int_equal(c->ngpus, 2);
    assert_int_equal(c->gpus[0].n_splits, 3); /* default 1,2,4 */
    assert_int_equal(c->gpus[0].splits[2], 4);
    assert_int_equal(c->gpus[1].home, 1);
    assert_int_equal(c->gpus[1].bw, 1000 * MB);
    assert_int_equal(c->gpus[1].n_splits, 3);
    assert_int_equal(c->gpus[1].splits[1], 4);
    assert_int_equal(c->gpus[1].splits[2], 8);
    pl_disagg_cluster_free(c);
    pl_topology_free(h.t);
}

static const char gpu_splits_json[] =
    "{\"pools\": [{\"attrs\": {\"vgpu_splits\": \"1,2\"}, \"devices\": ["
    "  {\"kind\": \"gpu\", \"count\": 2, \"attrs\": {\"vgpu_splits\": \"1\"},"
    "   \"capacity\": {\"bandwidth\": 4e9, \"gpu-memory\": 16e9}},"
    "  {\"kind\": \"gpu\", \"capacity\": {\"bandwidth\": 4e9, \"gpu-memory\": 16e9}}]},"
    " {\"devices\": [{\"kind\": \"gpu\", \"capacity\": {\"bandwidth\": 1e9, \"gpu-memory\": 8e9}}]}]}";

/* Splits from a JSON file: a device group's "attrs" reach each of its GPUs,
 * a pool's "attrs" those GPUs of it whose group sets none (nearest ancestor);
 * GPUs are taken in preorder, so g0 g1 (group 0) then g2 (group 1). */
static void test_gpu_splits_from_json(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(gpu_splits_json, 0, &t));
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_from_topology(t, &c));
    assert_int_equal(c->ngpus, 4);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(c->gpus[i].home, -1);
        assert_int_equal(c->gpus[i].n_splits, 1);
        assert_int_equal(c->gpus[i].splits[0], 1);
    }
    assert_int_equal(c->gpus[2].n_splits, 2);
    assert_int_equal(c->gpus[2].splits[1], 2);
    assert_int_equal(c->gpus[3].bw, 1 * GB);
    assert_int_equal(c->gpus[3].n_splits, 3); /* pool1 sets none: default 1,2,4 */
    pl_disagg_cluster_free(c);
    pl_topology_free(t);
}

/* An error leaves *out alone and names the vertex. */
static void expect_error(pl_topology *t, pl_status want, const char *msg)
{
    pl_disagg_cluster *sentinel = (pl_disagg_cluster *)&sentinel, *c = sentinel;
    assert_int_equal(pl_disagg_cluster_from_topology(t, &c), want);
    assert_ptr_equal(c, sentinel);
    if (!strstr(pl_last_error(), msg))
        fail_msg("message '%s' lacks '%s'", pl_last_error(), msg);
}

static void test_missing_capacities(void **state)
{
    (void)state;
    hand h = make_hand();
    assert_pl_ok(pl_topology_set_capacity(h.t, h.s[1], PL_RES_BANDWIDTH, 0));
    expect_error(h.t, PL_EINVAL, "storage device cluster/pool0/s_b has no \"bandwidth\" capacity (bytes/s)");
    cap(h.t, h.s[1], PL_RES_BANDWIDTH, 1);
    assert_pl_ok(pl_topology_set_capacity(h.t, h.s_att, PL_RES_STORAGE, 0));
    expect_error(h.t, PL_EINVAL, "storage device cluster/m0/s_att has no \"storage\" capacity (bytes)");
    cap(h.t, h.s_att, PL_RES_STORAGE, 1);
    assert_pl_ok(pl_topology_set_capacity(h.t, h.g, PL_RES_GPU_MEMORY, 0));
    expect_error(h.t, PL_EINVAL, "GPU cluster/pool0/g has no \"gpu-memory\" capacity (bytes)");
    cap(h.t, h.g, PL_RES_GPU_MEMORY, 1);
    assert_pl_ok(pl_topology_set_capacity(h.t, h.g, PL_RES_BANDWIDTH, 0));
    expect_error(h.t, PL_EINVAL, "GPU cluster/pool0/g has no \"bandwidth\" capacity (bytes/s)");
    cap(h.t, h.g, PL_RES_BANDWIDTH, 1);
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_from_topology(h.t, &c));
    pl_disagg_cluster_free(c);
    pl_topology_free(h.t);
}

static void test_other_errors(void **state)
{
    (void)state;
    pl_disagg_cluster *c = NULL;
    assert_int_equal(pl_disagg_cluster_from_topology(NULL, &c), PL_EINVAL);
    hand h = make_hand();
    assert_int_equal(pl_disagg_cluster_from_topology(h.t, NULL), PL_EINVAL);
    static const char *const bad[] = {"1,x", "0", "1,,2", "17", "2,", ",2", "1,2,3,4,5,6,7,8,9", " 1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_pl_ok(pl_topology_set_attr(h.t, h.g, PL_DISAGG_VGPU_SPLITS_ATTR, bad[i]));
        expect_error(h.t, PL_EINVAL, "GPU cluster/pool0/g: vgpu_splits");
    }
    assert_pl_ok(pl_topology_set_attr(h.t, h.g, PL_DISAGG_VGPU_SPLITS_ATTR, "1,2,3,4,5,6,7,16"));
    assert_pl_ok(pl_disagg_cluster_from_topology(h.t, &c));
    assert_int_equal(c->gpus[0].n_splits, 8);
    pl_disagg_cluster_free(c);
    /* A device the topology has handed out. */
    assert_pl_ok(pl_topology_alloc(h.t, h.s[2], PL_RES_UNITS, 1));
    expect_error(h.t, PL_EINVAL, "storage device cluster/pool0/s_c has units allocated");
    assert_pl_ok(pl_topology_release(h.t, h.s[2], PL_RES_UNITS, 1));
    /* A device in neither a machine nor a pool. */
    storage(h.t, h.root, "loose", GB, GB);
    expect_error(h.t, PL_EINVAL, "storage device cluster/loose is in neither a machine nor a pool");
    pl_topology_free(h.t);
}

/* No machine, no device: an empty cluster, not an error. */
static void test_empty(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_create(&t));
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_from_topology(t, &c));
    int32_t nodes = -1, nvme = -1, gpus = -1;
    pl_disagg_counts(c, &nodes, &nvme, &gpus);
    assert_int_equal(nodes + nvme + gpus, 0);
    pl_disagg_cluster_free(c);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made_view),
        cmocka_unit_test(test_gpu_splits_and_home),
        cmocka_unit_test(test_gpu_splits_from_json),
        cmocka_unit_test(test_missing_capacities),
        cmocka_unit_test(test_other_errors),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
