/* pl_topology_load_json(): clusters from inline templates (counts, names,
 * capacities, links, hand-computed distances and bandwidths), files, and the
 * schema errors with the JSON path of the bad field. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "testutil.h"

/* Vertex at a path, asserting it exists. */
static int32_t at(const pl_topology *t, const char *path)
{
    int32_t v = -1;
    assert_pl_ok(pl_topology_find(t, path, &v));
    return v;
}

static int64_t capacity(const pl_topology *t, const char *path, pl_resource res)
{
    int64_t c = -1;
    assert_pl_ok(pl_topology_amount(t, at(t, path), res, &c, NULL, NULL));
    return c;
}

static int64_t distance(const pl_topology *t, const char *a, const char *b)
{
    int64_t w = -1;
    assert_pl_ok(pl_topology_distance(t, at(t, a), at(t, b), &w));
    return w;
}

/* The one link between two paths (fails when there is none or several). */
static pl_link_info link_between(const pl_topology *t, const char *a, const char *b)
{
    int32_t va = at(t, a), vb = at(t, b), links[64], n = 0, found = 0;
    pl_link_info info = {0}, li;
    assert_pl_ok(pl_topology_links_of(t, va, links, 64, &n));
    for (int32_t i = 0; i < n; i++) {
        assert_pl_ok(pl_topology_link(t, links[i], &li));
        if ((li.a == va && li.b == vb) || (li.a == vb && li.b == va)) {
            info = li;
            found++;
        }
    }
    if (found != 1)
        fail_msg("%d links between %s and %s, want 1", found, a, b);
    return info;
}

static int32_t count_kind(const pl_topology *t, int32_t v, pl_vertex_kind kind)
{
    int32_t n = -1;
    assert_pl_ok(pl_topology_descendants(t, v, (int)kind, NULL, 0, &n));
    return n;
}

/* Two machine templates, two racks of the 6-vertex one, two machines of the
 * 2-vertex one without a rack, an extra cross-rack link and a storage pool. */
static const char cluster_json[] =
    "{\"templates\": {"
    "  \"small\": {\"tree\": {\"kind\": \"machine\", \"name\": \"m\","
    "    \"capacity\": {\"cores\": 16, \"memory\": 68719476736},"
    "    \"children\": ["
    "      {\"kind\": \"package\", \"os_index\": 0, \"capacity\": {\"cores\": 8}, \"children\": ["
    "        {\"kind\": \"gpu\", \"os_index\": 0, \"capacity\": {\"units\": 1, \"gpu-memory\": 17179869184}},"
    "        {\"kind\": \"gpu\", \"os_index\": 1, \"capacity\": {\"units\": 1, \"gpu-memory\": 17179869184}}]},"
    "      {\"kind\": \"package\", \"os_index\": 1, \"capacity\": {\"cores\": 8}, \"children\": ["
    "        {\"kind\": \"gpu\", \"os_index\": 2, \"capacity\": {\"units\": 1, \"gpu-memory\": 17179869184}}]}],"
    "    \"links\": ["
    "      {\"a\": \"package0/gpu0\", \"b\": \"package0\", \"kind\": \"pcie\", \"bw\": 15.75e9},"
    "      {\"a\": \"package0/gpu1\", \"b\": \"package0\", \"kind\": \"pcie\", \"bw\": 15.75e9},"
    "      {\"a\": \"package0/gpu0\", \"b\": \"package0/gpu1\", \"kind\": \"nvlink\", \"bw\": 40e9},"
    "      {\"a\": \"package1/gpu2\", \"b\": \"package1\", \"kind\": \"pcie\", \"bw\": 15750000000},"
    "      {\"a\": \"package0\", \"b\": \"package1\", \"kind\": \"intersocket\", \"bw\": 38.4e9},"
    "      {\"a\": \"package0\", \"b\": \".\", \"kind\": \"board\"},"
    "      {\"a\": \"package1\", \"b\": \".\", \"kind\": \"board\"}]}},"
    "  \"cpu\": {\"tree\": {\"kind\": \"machine\", \"capacity\": {\"cores\": 32},"
    "    \"children\": [{\"kind\": \"package\", \"os_index\": 0}],"
    "    \"links\": [{\"a\": \"package0\", \"b\": \".\", \"kind\": \"board\"}]}}},"
    " \"racks\": ["
    "  {\"machines\": [{\"template\": \"small\", \"count\": 2}]},"
    "  {\"name\": \"rack1\", \"machines\": [{\"template\": \"small\"}, {\"template\": \"small\", \"count\": 1}]}],"
    " \"machines\": [{\"template\": \"cpu\", \"count\": 2, \"name\": \"cpu\"}],"
    " \"network\": {\"machine_bw\": 12.5e9, \"rack_bw\": 50e9, \"machine_latency_ns\": 1000,"
    "   \"rack_latency_ns\": 2000},"
    " \"links\": [{\"a\": \"rack0/node0/package0/gpu0\", \"b\": \"rack1/node3/package0/gpu0\","
    "   \"kind\": \"network\", \"bw\": 25e9, \"latency_ns\": 1500, \"weight\": 200}],"
    " \"pools\": [{\"name\": \"nvme\", \"attach\": \"rack1\", \"link\": {\"kind\": \"nvmeof\", \"bw\": 12.5e9},"
    "   \"devices\": ["
    "     {\"kind\": \"storage\", \"count\": 3,"
    "      \"capacity\": {\"units\": 1, \"storage\": 600e9, \"bandwidth\": 2e9}},"
    "     {\"kind\": \"storage\", \"count\": 2, \"link\": {\"bw\": 4e9}}]}]}";

static void test_json_cluster_shape(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(cluster_json, 0, &t));
    /* 1 cluster + 2 racks + 4 x 6 + 2 x 2 + 1 pool + 5 devices. */
    assert_int_equal(pl_topology_vertex_count(t), 37);
    /* 4 x 7 + 2 x 1 template links, 2 rack + 4 machine + 2 cpu network
     * links, 1 pool + 5 device links, 1 extra. */
    assert_int_equal(pl_topology_link_count(t), 45);
    int32_t root = at(t, "cluster");
    pl_vertex_info vi;
    assert_pl_ok(pl_topology_vertex(t, root, &vi));
    assert_int_equal(vi.kind, PL_VK_CLUSTER);
    assert_int_equal(vi.parent, -1);
    assert_int_equal(count_kind(t, root, PL_VK_RACK), 2);
    assert_int_equal(count_kind(t, root, PL_VK_MACHINE), 6);
    assert_int_equal(count_kind(t, root, PL_VK_GPU), 12);
    assert_int_equal(count_kind(t, at(t, "cluster/rack1"), PL_VK_GPU), 6);

    /* Machines numbered over the cluster: node0, node1 in rack0, node2,
     * node3 in rack1; the template root's own name "m" is replaced. */
    int32_t g = at(t, "cluster/rack1/node3/package0/gpu0");
    assert_pl_ok(pl_topology_vertex(t, g, &vi));
    assert_int_equal(vi.kind, PL_VK_GPU);
    assert_int_equal(vi.os_index, 0);
    assert_int_equal(vi.depth, 4);
    assert_pl_ok(pl_topology_vertex(t, at(t, "cluster/rack1/node2"), &vi));
    assert_int_equal(vi.kind, PL_VK_MACHINE);
    assert_string_equal(vi.name, "node2");
    int32_t v;
    assert_pl_status(pl_topology_find(t, "cluster/rack0/node2", &v), PL_ENOTFOUND);
    assert_pl_status(pl_topology_find(t, "cluster/rack0/m", &v), PL_ENOTFOUND);
    assert_pl_ok(pl_topology_vertex(t, at(t, "cluster/cpu1"), &vi));
    assert_int_equal(vi.kind, PL_VK_MACHINE);
    assert_int_equal(vi.parent, root);

    /* Capacities copied into every machine. */
    assert_int_equal(capacity(t, "cluster/rack0/node1", PL_RES_CORES), 16);
    assert_int_equal(capacity(t, "cluster/rack0/node1", PL_RES_MEMORY), 68719476736LL);
    assert_int_equal(capacity(t, "cluster/rack1/node3/package1", PL_RES_CORES), 8);
    assert_int_equal(capacity(t, "cluster/rack1/node3/package1/gpu2", PL_RES_GPU_MEMORY), 17179869184LL);
    assert_int_equal(capacity(t, "cluster/rack1/node3/package1/gpu2", PL_RES_UNITS), 1);
    assert_int_equal(capacity(t, "cluster/cpu0", PL_RES_CORES), 32);
    assert_int_equal(capacity(t, "cluster/cpu0/package0", PL_RES_CORES), 0);
    pl_topology_free(t);
}

static void test_json_cluster_links(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(cluster_json, strlen(cluster_json), &t));
    pl_link_info li = link_between(t, "cluster/rack0", "cluster");
    assert_int_equal(li.kind, PL_LK_NETWORK);
    assert_int_equal(li.bw_bytes_per_s, 50000000000LL);
    assert_int_equal(li.latency_ns, 2000);
    assert_int_equal(li.weight, 80);
    li = link_between(t, "cluster/rack1/node2", "cluster/rack1");
    assert_int_equal(li.bw_bytes_per_s, 12500000000LL);
    assert_int_equal(li.latency_ns, 1000);
    assert_int_equal(li.weight, 40);
    li = link_between(t, "cluster/cpu1", "cluster");
    assert_int_equal(li.kind, PL_LK_NETWORK);
    assert_int_equal(li.bw_bytes_per_s, 12500000000LL);
    assert_int_equal(li.weight, 40);
    /* Template links in every copy, the root's links re-attached. */
    li = link_between(t, "cluster/rack1/node3/package1/gpu2", "cluster/rack1/node3/package1");
    assert_int_equal(li.kind, PL_LK_PCIE);
    assert_int_equal(li.bw_bytes_per_s, 15750000000LL);
    assert_int_equal(li.weight, 1);
    li = link_between(t, "cluster/rack0/node1/package0/gpu0", "cluster/rack0/node1/package0/gpu1");
    assert_int_equal(li.kind, PL_LK_NVLINK);
    assert_int_equal(li.bw_bytes_per_s, 40000000000LL);
    li = link_between(t, "cluster/rack0/node1/package0", "cluster/rack0/node1/package1");
    assert_int_equal(li.kind, PL_LK_INTERSOCKET);
    assert_int_equal(li.bw_bytes_per_s, 38400000000LL);
    assert_int_equal(li.weight, 20);
    li = link_between(t, "cluster/rack0/node1/package1", "cluster/rack0/node1");
    assert_int_equal(li.kind, PL_LK_BOARD);
    assert_int_equal(li.weight, 20);
    li = link_between(t, "cluster/rack0/node0/package0/gpu0", "cluster/rack1/node3/package0/gpu0");
    assert_int_equal(li.bw_bytes_per_s, 25000000000LL);
    assert_int_equal(li.latency_ns, 1500);
    assert_int_equal(li.weight, 200);

    /* gpu2 -pcie- package1 -board- node0 -net- rack0 -net- cluster -net-
     * rack1 -net- node2 -board- package1 -pcie- gpu2:
     * 1 + 20 + 40 + 80 + 80 + 40 + 20 + 1. */
    assert_int_equal(distance(t, "cluster/rack0/node0/package1/gpu2", "cluster/rack1/node2/package1/gpu2"), 282);
    /* The extra link (200) beats the same 282 path through the network. */
    assert_int_equal(distance(t, "cluster/rack0/node0/package0/gpu0", "cluster/rack1/node3/package0/gpu0"), 200);
    int64_t bw = 0;
    assert_pl_ok(pl_topology_bottleneck_bw(t, at(t, "cluster/rack0/node0/package0/gpu0"),
                                           at(t, "cluster/rack1/node3/package0/gpu0"), &bw));
    assert_int_equal(bw, 25000000000LL);
    /* Through the network: min(15.75e9 PCIe, 12.5e9 machine links, 50e9). */
    assert_pl_ok(pl_topology_bottleneck_bw(t, at(t, "cluster/rack0/node1/package1/gpu2"),
                                           at(t, "cluster/rack1/node2/package1/gpu2"), &bw));
    assert_int_equal(bw, 12500000000LL);
    pl_topology_free(t);
}

static void test_json_pool(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(cluster_json, 0, &t));
    int32_t pool = at(t, "cluster/rack1/nvme");
    pl_vertex_info vi;
    assert_pl_ok(pl_topology_vertex(t, pool, &vi));
    assert_int_equal(vi.kind, PL_VK_POOL);
    assert_int_equal(vi.parent, at(t, "cluster/rack1"));
    assert_int_equal(count_kind(t, pool, PL_VK_STORAGE), 5);
    assert_int_equal(capacity(t, "cluster/rack1/nvme", PL_RES_UNITS), 5);
    /* Devices numbered per kind across the pool's groups. */
    assert_pl_ok(pl_topology_vertex(t, at(t, "cluster/rack1/nvme/storage4"), &vi));
    assert_int_equal(vi.os_index, 4);
    assert_int_equal(capacity(t, "cluster/rack1/nvme/storage2", PL_RES_STORAGE), 600000000000LL);
    assert_int_equal(capacity(t, "cluster/rack1/nvme/storage2", PL_RES_BANDWIDTH), 2000000000LL);
    assert_int_equal(capacity(t, "cluster/rack1/nvme/storage3", PL_RES_STORAGE), 0);
    pl_link_info li = link_between(t, "cluster/rack1/nvme", "cluster/rack1");
    assert_int_equal(li.kind, PL_LK_NVMEOF);
    assert_int_equal(li.bw_bytes_per_s, 12500000000LL);
    assert_int_equal(li.weight, 80);
    li = link_between(t, "cluster/rack1/nvme/storage0", "cluster/rack1/nvme");
    assert_int_equal(li.kind, PL_LK_PCIE);
    assert_int_equal(li.bw_bytes_per_s, 0);
    assert_int_equal(li.weight, 1);
    li = link_between(t, "cluster/rack1/nvme/storage3", "cluster/rack1/nvme");
    assert_int_equal(li.kind, PL_LK_PCIE);
    assert_int_equal(li.bw_bytes_per_s, 4000000000LL);
    /* storage0 -1- pool -80- rack1 -40- node2 -20- package0 -1- gpu0. */
    assert_int_equal(distance(t, "cluster/rack1/nvme/storage0", "cluster/rack1/node2/package0/gpu0"), 142);
    pl_topology_free(t);
}

/* Defaults: cluster name, machine names, network and numbers written as
 * integers or whole reals alike. */
static void test_json_defaults_and_names(void **state)
{
    (void)state;
    static const char text[] =
        "{\"name\": \"example\","
        " \"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\", \"os_index\": 7,"
        "   \"capacity\": {\"memory\": 1e3, \"cores\": 4.0}}}},"
        " \"machines\": [{\"template\": \"t\", \"count\": 2, \"name\": \"a\"}, {\"template\": \"t\", \"name\": \"b\"},"
        "   {\"template\": \"t\", \"count\": 2, \"name\": \"a\"}, {\"template\": \"t\"}],"
        " \"pools\": [{\"devices\": [{\"kind\": \"gpu\", \"count\": 2}, {\"kind\": \"nic\"}]}]}";
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(text, 0, &t));
    assert_int_equal(pl_topology_vertex_count(t), 1 + 6 + 1 + 3);
    static const char *const names[] = {"example/a0", "example/a1", "example/b0", "example/a2",
                                        "example/a3", "example/node0"};
    int32_t children[16], n = 0;
    assert_pl_ok(pl_topology_children(t, at(t, "example"), children, 16, &n));
    assert_int_equal(n, 7);
    for (int i = 0; i < 6; i++) {
        pl_vertex_info vi;
        assert_int_equal(at(t, names[i]), children[i]);
        assert_pl_ok(pl_topology_vertex(t, children[i], &vi));
        assert_int_equal(vi.os_index, 7);
        assert_int_equal(capacity(t, names[i], PL_RES_MEMORY), 1000);
        assert_int_equal(capacity(t, names[i], PL_RES_CORES), 4);
        pl_link_info li = link_between(t, names[i], "example");
        assert_int_equal(li.kind, PL_LK_NETWORK);
        assert_int_equal(li.bw_bytes_per_s, 12500000000LL);
        assert_int_equal(li.latency_ns, 0);
        assert_int_equal(li.weight, 40);
    }
    /* Pool named pool0 at the root, linked by a network link (weight 160). */
    assert_int_equal(capacity(t, "example/pool0", PL_RES_UNITS), 3);
    pl_link_info li = link_between(t, "example/pool0", "example");
    assert_int_equal(li.kind, PL_LK_NETWORK);
    assert_int_equal(li.weight, 160);
    at(t, "example/pool0/gpu1");
    at(t, "example/pool0/nic0");
    pl_topology_free(t);

    /* An empty document is a lone cluster vertex. */
    assert_pl_ok(pl_topology_load_json_string("{}", 0, &t));
    assert_int_equal(pl_topology_vertex_count(t), 1);
    at(t, "cluster");
    pl_topology_free(t);
}

/* Text that must fail with PL_EPARSE and a message containing want. */
typedef struct bad_case {
    const char *json;
    const char *want;
} bad_case;

#define TT "\"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\", \"children\": [{\"kind\": \"package\", \"os_index\": 0}]}}}"

#define NEG_COUNT "{" TT ", \"racks\": [{\"machines\": [{\"template\": \"t\"}, {\"template\": \"t\", \"count\": -3}]}]}"

static const bad_case bad_cases[] = {
    /* syntax: truncated text */
    {"{\"racks\": [{\"name\": \"r\"", "<string>:1:"},
    {"{\"name\": \"a\", \"name\": \"b\"}", "<string>:1:"},          /* duplicate key */
    {"[]", "$: expected an object, got an array"},
    /* unknown keys */
    {"{\"rakcs\": []}", "$.rakcs: unknown key"},
    {"{\"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\", \"capacty\": {}}}}}",
     "$.templates.t.tree.capacty: unknown key"},
    {"{" TT ", \"machines\": [{\"template\": \"t\", \"cnt\": 2}]}", "$.machines[0].cnt: unknown key"},
    /* wrong types */
    {"{\"racks\": {}}", "$.racks: expected an array, got an object"},
    {"{\"name\": 3}", "$.name: expected a string, got 3"},
    {"{\"network\": {\"rack_bw\": \"fast\"}}",
     "$.network.rack_bw: expected an integer >= 0, got the string \"fast\""},
    /* numbers */
    {NEG_COUNT, "$.racks[0].machines[1].count: expected an integer >= 1, got -3"},
    {"{" TT ", \"machines\": [{\"template\": \"t\", \"count\": 0}]}",
     "$.machines[0].count: expected an integer >= 1, got 0"},
    {"{\"network\": {\"machine_bw\": 12.5}}", "$.network.machine_bw: expected an integer >= 0, got 12.5"},
    {"{\"network\": {\"machine_bw\": -1e9}}", "$.network.machine_bw: expected an integer >= 0"},
    {"{\"network\": {\"rack_bw\": 1e19}}", "$.network.rack_bw: expected an integer <= 9223372036854775807"},
    {"{\"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\", \"os_index\": 3e9}}}}",
     "$.templates.t.tree.os_index: expected an integer <= 2147483647"},
    /* missing and unknown names */
    {"{" TT ", \"machines\": [{\"count\": 2}]}", "$.machines[0].template: missing"},
    {"{" TT ", \"racks\": [{\"machines\": [{\"template\": \"gpu-node\"}]}]}",
     "$.racks[0].machines[0].template: unknown template \"gpu-node\""},
    {"{\"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\", \"children\": [{\"kind\": \"gpux\"}]}}}}",
     "$.templates.t.tree.children[0].kind: unknown vertex kind 'gpux'"},
    {"{\"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\", \"capacity\": {\"gpus\": 1}}}}}",
     "$.templates.t.tree.capacity.gpus: unknown resource 'gpus'"},
    {"{" TT ", \"machines\": [{\"template\": \"t\"}],"
     " \"links\": [{\"a\": \"node0\", \"b\": \"node0/package0\", \"kind\": \"nvlnk\"}]}",
     "$.links[0].kind: unknown link kind 'nvlnk'"},
    {"{\"racks\": [{\"name\": \"a/b\"}]}", "$.racks[0].name: a name must be non-empty"},
    {"{\"templates\": {\"my tmpl\": {}}}", "$.templates[\"my tmpl\"]: expected exactly one of"},
    /* templates */
    {"{\"templates\": {\"t\": {\"tree\": {\"kind\": \"package\"}}}}",
     "$.templates.t.tree.kind: a template's root must be a machine"},
    {"{\"templates\": {\"t\": {\"builtin\": \"minsky\", \"tree\": {\"kind\": \"machine\"}}}}",
     "$.templates.t: expected exactly one of"},
    {"{\"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\","
     " \"links\": [{\"a\": \"package9\", \"b\": \".\", \"kind\": \"board\"}]}}}}",
     "$.templates.t.tree.links[0].a: no vertex \"package9\""},
    {"{\"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\", \"children\": [{\"kind\": \"gpu\", \"links\": []}]}}}}",
     "$.templates.t.tree.children[0].links: unknown key"},
    /* links */
    {"{" TT ", \"racks\": [{\"machines\": [{\"template\": \"t\", \"count\": 2}]}],"
     " \"links\": [{\"a\": \"rack0/node0/package0\", \"b\": \"rack0/node2/package0\", \"kind\": \"network\"}]}",
     "$.links[0].b: no vertex \"rack0/node2/package0\""},
    {"{" TT ", \"machines\": [{\"template\": \"t\"}], \"links\": [{\"a\": \"node0\", \"b\": \"node0\", \"kind\": \"network\"}]}",
     "$.links[0].b: both ends"},
    {"{" TT ", \"machines\": [{\"template\": \"t\"}], \"links\": [{\"a\": \"node0\", \"b\": \".\"}]}",
     "$.links[0].kind: missing"},
    {"{" TT ", \"machines\": [{\"template\": \"t\"}],"
     " \"links\": [{\"a\": \"node0\", \"b\": \".\", \"kind\": \"network\", \"weight\": 0}]}",
     "$.links[0].weight: expected an integer >= 1, got 0"},
    {"{\"links\": [{\"a\": \".\", \"b\": \"x\", \"kind\": \"network\", \"bw\": 1.5}]}",
     "$.links[0].bw: expected an integer >= 0, got 1.5"},
    /* attributes */
    {"{\"templates\": {\"t\": {\"builtin\": \"minsky\", \"attrs\": [\"arch\"]}}}",
     "$.templates.t.attrs: expected an object, got an array"},
    {"{\"templates\": {\"t\": {\"builtin\": \"minsky\", \"attrs\": {\"cores\": 8}}}}",
     "$.templates.t.attrs.cores: expected a string, got 8"},
    {"{\"templates\": {\"t\": {\"builtin\": \"minsky\", \"attrs\": {\"arch\": \"\"}}}}",
     "$.templates.t.attrs.arch: an attribute value must be a non-empty string"},
    {"{\"templates\": {\"t\": {\"builtin\": \"minsky\", \"attrs\": {\"\": \"x\"}}}}",
     "an attribute key must be non-empty"},
    {"{" TT ", \"racks\": [{\"machines\": [{\"template\": \"t\", \"attrs\": {\"zone\": true}}]}]}",
     "$.racks[0].machines[0].attrs.zone: expected a string, got true"},
    {"{\"templates\": {\"t\": {\"tree\": {\"kind\": \"machine\", \"children\": [{\"kind\": \"gpu\","
     " \"attrs\": {\"model\": null}}]}}}}",
     "$.templates.t.tree.children[0].attrs.model: expected a string, got null"},
    {"{\"racks\": [{\"name\": \"r\", \"attrs\": {}}]}", "$.racks[0].attrs: unknown key"},
    /* pools */
    {"{\"pools\": [{\"attach\": \"rack7\"}]}", "$.pools[0].attach: no vertex \"rack7\""},
    {"{\"pools\": [{\"devices\": [{\"kind\": \"machine\"}]}]}", "$.pools[0].devices[0].kind: a pool holds devices"},
    {"{\"pools\": [{\"devices\": [{\"kind\": \"gpu\", \"link\": {\"kind\": \"pcie\", \"speed\": 1}}]}]}",
     "$.pools[0].devices[0].link.speed: unknown key"},
    {"{\"pools\": [{\"devices\": [{\"kind\": \"gpu\"}, {\"kind\": \"gpu\", \"attrs\": \"vgpu_splits=1\"}]}]}",
     "$.pools[0].devices[1].attrs: expected an object, got the string \"vgpu_splits=1\""},
    {"{\"pools\": [{\"devices\": [{\"kind\": \"gpu\", \"count\": 2, \"attrs\": {\"vgpu_splits\": 1}}]}]}",
     "$.pools[0].devices[0].attrs.vgpu_splits: expected a string, got 1"},
    {"{\"pools\": [{\"devices\": [{\"kind\": \"nic\", \"attrs\": {\"\": \"x\"}}]}]}",
     "$.pools[0].devices[0].attrs[\"\"]: an attribute key must be non-empty"},
    {"{\"pools\": [{\"name\": \"p\", \"attrs\": {\"zone\": \"\"}}]}",
     "$.pools[0].attrs.zone: an attribute value must be a non-empty string"},
};

/* Attributes: a template's (on an inline tree's root and nodes, or on the
 * template), overridden per machine group; every copy gets its own. */
static void test_json_attributes(void **state)
{
    (void)state;
    static const char text[] =
        "{\"templates\": {"
        "   \"p\": {\"builtin\": \"minsky\", \"attrs\": {\"arch\": \"power8\", \"gpu\": \"p100\"}},"
        "   \"x\": {\"attrs\": {\"arch\": \"x86\"}, \"tree\": {\"kind\": \"machine\","
        "     \"attrs\": {\"arch\": \"i386\", \"vendor\": \"acme\"},"
        "     \"children\": [{\"kind\": \"gpu\", \"os_index\": 0, \"attrs\": {\"model\": \"v100\"}}]}}},"
        " \"racks\": [{\"machines\": [{\"template\": \"p\", \"count\": 2},"
        "   {\"template\": \"p\", \"name\": \"big\", \"attrs\": {\"gpu\": \"v100\", \"zone\": \"b\"}}]}],"
        " \"machines\": [{\"template\": \"x\"}]}";
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(text, 0, &t));
    for (int i = 0; i < 2; i++) {
        const char *node = i ? "cluster/rack0/node1" : "cluster/rack0/node0";
        assert_string_equal(pl_topology_attr(t, at(t, node), "arch"), "power8");
        assert_string_equal(pl_topology_attr(t, at(t, node), "gpu"), "p100");
        assert_int_equal(pl_topology_attr_count(t, at(t, node)), 2);
    }
    int32_t big = at(t, "cluster/rack0/big0");
    assert_string_equal(pl_topology_attr(t, big, "arch"), "power8");
    assert_string_equal(pl_topology_attr(t, big, "gpu"), "v100");
    assert_string_equal(pl_topology_attr(t, big, "zone"), "b");
    assert_int_equal(pl_topology_attr_count(t, big), 3);
    /* The inline tree's root had arch=i386; the template's "attrs" wins. */
    int32_t x = at(t, "cluster/node2"); /* names count per prefix cluster-wide */
    assert_string_equal(pl_topology_attr(t, x, "arch"), "x86");
    assert_string_equal(pl_topology_attr(t, x, "vendor"), "acme");
    assert_string_equal(pl_topology_attr(t, at(t, "cluster/node2/gpu0"), "model"), "v100");
    assert_int_equal(pl_topology_attr_count(t, at(t, "cluster/rack0")), 0);
    assert_int_equal(pl_topology_attr_count(t, at(t, "cluster/rack0/node0/package0/gpu0")), 0);
    pl_topology_free(t);
}

static const char pool_attrs_json[] =
    "{\"pools\": [{\"name\": \"box\", \"attrs\": {\"zone\": \"b\"}, \"devices\": ["
    "   {\"kind\": \"gpu\", \"count\": 3, \"attrs\": {\"vgpu_splits\": \"1\", \"model\": \"T4\"}},"
    "   {\"kind\": \"gpu\", \"count\": 2},"
    "   {\"kind\": \"storage\", \"attrs\": {\"zone\": \"a\"}}]}]}";

/* A pool's attrs land on the pool, a device group's on each of its devices
 * (and only on them), so the nearest-ancestor lookup finds either. */
static void test_json_pool_attributes(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(pool_attrs_json, 0, &t));
    int32_t box = at(t, "cluster/box");
    assert_int_equal(pl_topology_attr_count(t, box), 1);
    assert_string_equal(pl_topology_attr(t, box, "zone"), "b");
    for (int i = 0; i < 5; i++) {
        char path[64];
        snprintf(path, sizeof path, "cluster/box/gpu%d", i);
        int32_t g = at(t, path);
        if (i < 3) {
            assert_int_equal(pl_topology_attr_count(t, g), 2);
            assert_string_equal(pl_topology_attr(t, g, "vgpu_splits"), "1");
            assert_string_equal(pl_topology_attr(t, g, "model"), "T4");
        } else {
            assert_int_equal(pl_topology_attr_count(t, g), 0);
        }
    }
    /* A device's own attribute sits beside (not over) the pool's. */
    assert_string_equal(pl_topology_attr(t, at(t, "cluster/box/storage0"), "zone"), "a");
    assert_string_equal(pl_topology_attr(t, box, "zone"), "b");
    assert_int_equal(pl_topology_attr_count(t, at(t, "cluster")), 0);
    pl_topology_free(t);
}

static void test_json_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        pl_topology *t = (pl_topology *)&t; /* must be reset to NULL */
        pl_status st = pl_topology_load_json_string(bad_cases[i].json, 0, &t);
        if (st != PL_EPARSE)
            fail_msg("case %zu: %s, want PL_EPARSE: %s", i, pl_status_name(st), pl_last_error());
        if (!strstr(pl_last_error(), bad_cases[i].want))
            fail_msg("case %zu: message \"%s\" lacks \"%s\"", i, pl_last_error(), bad_cases[i].want);
        assert_null(t);
    }
    /* The exact message of the negative count. */
    assert_pl_status(pl_topology_load_json_string(NEG_COUNT, 0, &(pl_topology *){NULL}), PL_EPARSE);
    assert_string_equal(pl_last_error(), "$.racks[0].machines[1].count: expected an integer >= 1, got -3");
    pl_topology *t = NULL;
    assert_pl_status(pl_topology_load_json_string(NULL, 0, &t), PL_EINVAL);
    assert_pl_status(pl_topology_load_json_string("{}", 0, NULL), PL_EINVAL);
    assert_pl_status(pl_topology_load_json(NULL, &t), PL_EINVAL);
    /* length bounds the text: the first 2 bytes of "{}xyz" are a document. */
    assert_pl_ok(pl_topology_load_json_string("{}xyz", 2, &t));
    pl_topology_free(t);
}

static void test_json_file(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json(pl_test_data(path, "topologies/cluster-tree.json"), &t));
    /* lab + r0 + 3 x (machine, package, 2 GPUs) + flash + 4 devices. */
    assert_int_equal(pl_topology_vertex_count(t), 19);
    assert_int_equal(pl_topology_link_count(t), 3 * 4 + 1 + 3 + 1 + 4);
    assert_int_equal(count_kind(t, at(t, "lab/r0"), PL_VK_GPU), 6);
    assert_int_equal(capacity(t, "lab/r0/node2/package0/gpu1", PL_RES_GPU_MEMORY), 34359738368LL);
    assert_int_equal(capacity(t, "lab/flash/storage3", PL_RES_STORAGE), 1600000000000LL);
    assert_int_equal(capacity(t, "lab/flash", PL_RES_UNITS), 4);
    /* 1 + 20 + 40 (node0-r0) + 40 (r0-node2) + 20 + 1. */
    assert_int_equal(distance(t, "lab/r0/node0/package0/gpu0", "lab/r0/node2/package0/gpu1"), 122);
    /* storage -1- flash -160- lab -80- r0 -40- node1 -20- package0 -1- gpu0. */
    assert_int_equal(distance(t, "lab/flash/storage0", "lab/r0/node1/package0/gpu0"), 302);
    int64_t bw = 0;
    assert_pl_ok(pl_topology_bottleneck_bw(t, at(t, "lab/r0/node0/package0/gpu0"),
                                           at(t, "lab/r0/node2/package0/gpu1"), &bw));
    assert_int_equal(bw, 15750000000LL);
    pl_topology_free(t);

    t = (pl_topology *)&t;
    assert_pl_status(pl_topology_load_json(pl_test_data(path, "topologies/no-such.json"), &t), PL_EIO);
    assert_null(t);
    assert_non_null(strstr(pl_last_error(), "no-such.json"));
    /* Syntax errors give file, line and column. */
    assert_pl_status(pl_topology_load_json(pl_test_data(path, "topologies/bad-syntax.json"), &t), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "bad-syntax.json:3:"));
}

/* Needs pl_topology_builtin() and pl_topology_load_xml(). */
static void test_json_builtin_and_xml_templates(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json(pl_test_data(path, "topologies/cluster-small.json"), &t));
    static const char *const machines[] = {"small/rack0/node0", "small/rack0/node1", "small/p8-0"};
    for (int i = 0; i < 3; i++) {
        int32_t m = at(t, machines[i]);
        pl_vertex_info vi;
        assert_pl_ok(pl_topology_vertex(t, m, &vi));
        assert_int_equal(vi.kind, PL_VK_MACHINE);
        assert_int_equal(count_kind(t, m, PL_VK_GPU), 4);
        assert_int_equal(count_kind(t, m, PL_VK_PACKAGE), 2);
    }
    assert_int_equal(count_kind(t, at(t, "small"), PL_VK_MACHINE), 3);
    assert_int_equal(link_between(t, "small/rack0", "small").bw_bytes_per_s, 50000000000LL);
    /* GPUs of the minsky copy and of the XML machine are connected through
     * the network: at least node0-rack0 (40) + rack0-cluster (80) +
     * cluster-p8-0 (40) + one device-level hop at each end. */
    int32_t g0[4], g1[4], n = 0;
    assert_pl_ok(pl_topology_descendants(t, at(t, "small/rack0/node0"), PL_VK_GPU, g0, 4, &n));
    assert_pl_ok(pl_topology_descendants(t, at(t, "small/p8-0"), PL_VK_GPU, g1, 4, &n));
    int64_t w = 0;
    assert_pl_ok(pl_topology_distance(t, g0[0], g1[0], &w));
    assert_true(w >= 162);
    pl_topology_free(t);

    /* Errors of the loaders come back with the JSON path in front. */
    assert_pl_status(pl_topology_load_json_string("{\"templates\": {\"b\": {\"builtin\": \"cray\"}}}", 0, &t),
                     PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "$.templates.b.builtin: "));
    assert_pl_status(pl_topology_load_json_string("{\"templates\": {\"x\": {\"xml\": \"/no/such.xml\"}}}", 0, &t),
                     PL_EIO);
    assert_non_null(strstr(pl_last_error(), "$.templates.x.xml: "));
    /* From a string, an absolute XML path works as in a file. */
    char text[PL_PATH_MAX + 128];
    snprintf(text, sizeof text, "{\"templates\": {\"x\": {\"xml\": \"%s\"}}, \"machines\": [{\"template\": \"x\"}]}",
             pl_test_data(path, "topologies/power8gpudistances.xml"));
    assert_pl_ok(pl_topology_load_json_string(text, 0, &t));
    assert_int_equal(count_kind(t, at(t, "cluster/node0"), PL_VK_GPU), 4);
    pl_topology_free(t);
}


/* pl_test_json_loader over pl_topology_load_json_string(). */
static pl_status load_topology(const char *text, size_t length)
{
    pl_topology *t = NULL;
    pl_status st = pl_topology_load_json_string(text, length, &t);
    if (st)
        assert_null(t);
    pl_topology_free(t);
    return st;
}

/* Degenerate documents (doc/robustness.md), shared with the other JSON suites. */
static void test_degenerate_documents(void **state)
{
    (void)state;
    pl_test_degenerate_json("racks", load_topology);
}

/* Issue 25: a 90-byte file with "count": 2147483647 grew to 17.8 GB in 60 s.
 * Counts are checked against max_vertices before anything is built. */
static void test_vertex_limit(void **state)
{
    (void)state;
    static const char *const files[] = {"bad-input/count-2e31.json", "bad-input/pool-count-2e31.json"};
    static const char *const where[] = {"$.machines[0].count: 2147483647 machines of 9 vertices",
                                        "$.pools[0].devices[0].count: 2147483647 devices"};
    for (int i = 0; i < 2; i++) {
        char path[PL_PATH_MAX];
        pl_topology *t = (pl_topology *)&t;
        assert_pl_status(pl_topology_load_json(pl_test_data(path, files[i]), &t), PL_EPARSE);
        assert_null(t);
        if (!strstr(pl_last_error(), where[i]) || !strstr(pl_last_error(), "past 10000000 vertices"))
            fail_msg("%s", pl_last_error());
    }
    /* The limit is settable: root 1 + 9 per Minsky, so 2 machines fit in 20, 3 do not. */
    static const char two[] = "{\"templates\":{\"t\":{\"builtin\":\"minsky\"}},"
                              "\"machines\":[{\"template\":\"t\",\"count\":2}]}";
    static const char three[] = "{\"templates\":{\"t\":{\"builtin\":\"minsky\"}},"
                                "\"machines\":[{\"template\":\"t\",\"count\":2},"
                                "{\"template\":\"t\",\"count\":1}]}";
    pl_topology_json_opts o;
    pl_topology_json_opts_init(&o);
    assert_int_equal(o.max_vertices, PL_TOPO_JSON_MAX_VERTICES);
    o.max_vertices = 20;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_opts(&o, NULL, two, 0, &t));
    assert_int_equal(pl_topology_vertex_count(t), 19);
    pl_topology_free(t);
    assert_pl_status(pl_topology_load_json_opts(&o, NULL, three, 0, &t), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "$.machines[1].count: 1 machines"));
    o.max_vertices = 0;
    assert_pl_status(pl_topology_load_json_opts(&o, NULL, two, 0, &t), PL_EINVAL);
    assert_pl_status(pl_topology_load_json_opts(NULL, "x.json", two, 0, &t), PL_EINVAL);
    assert_pl_status(pl_topology_load_json_opts(NULL, NULL, NULL, 0, &t), PL_EINVAL);
    pl_topology_json_opts_init(NULL); /* no crash */
}

/* Issue 25: a machine (or rack, cluster, pool) inside a machine's tree was
 * accepted, and policies then disagreed on which machine held a GPU. */
static void test_nested_machine(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_topology *t = (pl_topology *)&t;
    assert_pl_status(pl_topology_load_json(pl_test_data(path, "bad-input/nested-machine.json"), &t),
                     PL_EPARSE);
    assert_null(t);
    assert_non_null(strstr(pl_last_error(), "$.templates.t.tree.children[1].kind: inside a machine"));
    static const char *const kinds[] = {"rack", "cluster", "pool"};
    for (int i = 0; i < 3; i++) {
        char doc[256];
        snprintf(doc, sizeof doc, "{\"templates\":{\"t\":{\"tree\":{\"kind\":\"machine\","
                 "\"children\":[{\"kind\":\"package\",\"children\":[{\"kind\":\"%s\"}]}]}}},"
                 "\"machines\":[{\"template\":\"t\"}]}", kinds[i]);
        assert_pl_status(pl_topology_load_json_string(doc, 0, &t), PL_EPARSE);
        assert_non_null(strstr(pl_last_error(), "children[0].children[0].kind: inside a machine"));
    }
}

/* Issue 25: jansson running out of memory was reported as a parse error at
 * "<string>:-1:-1". jansson's allocator is swapped for one that fails (a
 * process-wide setting: restored before the test ends). */
static void *failing_malloc(size_t n)
{
    (void)n;
    return NULL;
}

static void test_jansson_out_of_memory(void **state)
{
    (void)state;
    json_malloc_t old_malloc;
    json_free_t old_free;
    json_get_alloc_funcs(&old_malloc, &old_free);
    json_set_alloc_funcs(failing_malloc, free);
    pl_topology *t = NULL;
    pl_status a = pl_topology_load_json_string("{\"machines\": []}", 0, &t);
    char msg_a[256];
    snprintf(msg_a, sizeof msg_a, "%s", pl_last_error());
    pl_jobset *js = NULL;
    pl_status b = pl_jobset_load_json_string("{\"jobs\": [{\"gpus\": 1}]}", 0, &js);
    json_set_alloc_funcs(old_malloc, old_free);
    assert_int_equal(a, PL_ENOMEM);
    assert_non_null(strstr(msg_a, "out of memory"));
    assert_int_equal(b, PL_ENOMEM);
    assert_null(strstr(pl_last_error(), "-1:-1"));
    assert_null(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_cluster_shape),
        cmocka_unit_test(test_json_cluster_links),
        cmocka_unit_test(test_json_pool),
        cmocka_unit_test(test_json_defaults_and_names),
        cmocka_unit_test(test_json_attributes),
        cmocka_unit_test(test_json_pool_attributes),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_json_file),
        cmocka_unit_test(test_json_builtin_and_xml_templates),
        cmocka_unit_test(test_degenerate_documents),
        cmocka_unit_test(test_vertex_limit),
        cmocka_unit_test(test_nested_machine),
        cmocka_unit_test(test_jansson_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
