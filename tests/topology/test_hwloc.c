/* hwloc loader: the fixtures under tests/data/topologies (hwloc's own test
 * exports), hand-checked against the XML; error paths; the live machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

#define MINSKY "topologies/power8gpudistances.xml"
#define DGX2 "topologies/nvidiaDGX2.xml"

static pl_topology *load(const char *rel)
{
    char path[PL_PATH_MAX];
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_xml(pl_test_data(path, rel), &t));
    return t;
}

static char *slurp(const char *rel, size_t *len)
{
    char path[PL_PATH_MAX];
    FILE *f = fopen(pl_test_data(path, rel), "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int32_t count_kind(const pl_topology *t, int kind)
{
    int32_t n = -1;
    assert_pl_ok(pl_topology_descendants(t, -1, kind, NULL, 0, &n));
    return n;
}

/* Vertices of a kind sorted by os_index (insertion sort: a handful). */
static int32_t by_os_index(const pl_topology *t, pl_vertex_kind kind, int32_t *out, int32_t cap)
{
    int32_t n = 0;
    assert_pl_ok(pl_topology_descendants(t, -1, (int)kind, out, cap, &n));
    for (int32_t i = 1; i < n; i++)
        for (int32_t j = i; j > 0; j--) {
            pl_vertex_info a, b;
            assert_pl_ok(pl_topology_vertex(t, out[j - 1], &a));
            assert_pl_ok(pl_topology_vertex(t, out[j], &b));
            if (a.os_index <= b.os_index)
                break;
            int32_t x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    return n;
}

/* The link of a kind between a and b, or -1; fails on duplicates. */
static int32_t find_link(const pl_topology *t, int32_t a, int32_t b, pl_link_kind kind)
{
    int32_t ls[256], n = 0, found = -1;
    assert_pl_ok(pl_topology_links_of(t, a, ls, 256, &n));
    for (int32_t i = 0; i < n; i++) {
        pl_link_info li;
        assert_pl_ok(pl_topology_link(t, ls[i], &li));
        if (li.kind == kind && ((li.a == a && li.b == b) || (li.a == b && li.b == a))) {
            assert_int_equal(found, -1);
            found = ls[i];
        }
    }
    return found;
}

static int32_t count_links(const pl_topology *t, pl_link_kind kind)
{
    int32_t n = 0;
    for (int32_t l = 0; l < pl_topology_link_count(t); l++) {
        pl_link_info li;
        assert_pl_ok(pl_topology_link(t, l, &li));
        n += li.kind == kind;
    }
    return n;
}

static int64_t link_bw(const pl_topology *t, int32_t l)
{
    pl_link_info li;
    assert_true(l >= 0);
    assert_pl_ok(pl_topology_link(t, l, &li));
    return li.bw_bytes_per_s;
}

static int32_t package_os(const pl_topology *t, int32_t v)
{
    int32_t p;
    pl_vertex_info i;
    assert_pl_ok(pl_topology_ancestor(t, v, PL_VK_PACKAGE, &p));
    assert_pl_ok(pl_topology_vertex(t, p, &i));
    return i.os_index;
}

static int64_t total(const pl_topology *t, int kind, pl_resource res)
{
    int32_t roots[4], n = 0;
    assert_pl_ok(pl_topology_children(t, -1, roots, 4, &n));
    assert_int_equal(n, 1);
    int64_t cap = -1;
    assert_pl_ok(pl_topology_subtree_amount(t, roots[0], kind, res, &cap, NULL));
    return cap;
}

/* ---- Minsky ---------------------------------------------------------------- */

static void test_minsky_shape(void **state)
{
    (void)state;
    pl_topology *t = load(MINSKY);
    int32_t roots[2], n = 0;
    assert_pl_ok(pl_topology_children(t, -1, roots, 2, &n));
    assert_int_equal(n, 1);
    pl_vertex_info mi;
    assert_pl_ok(pl_topology_vertex(t, roots[0], &mi));
    assert_int_equal(mi.kind, PL_VK_MACHINE);
    assert_string_equal(mi.name, "machine");
    assert_int_equal(count_kind(t, PL_VK_PACKAGE), 2);
    assert_int_equal(count_kind(t, PL_VK_NUMA), 2);
    assert_int_equal(count_kind(t, PL_VK_CORE), 0);

    int32_t g[8];
    assert_int_equal(by_os_index(t, PL_VK_GPU, g, 8), 4);
    /* cuda0/cuda1 sit under Package P#0, cuda2/cuda3 under P#1 in the XML. */
    static const int32_t want_pkg[4] = {0, 0, 1, 1};
    for (int32_t i = 0; i < 4; i++) {
        pl_vertex_info gi;
        char name[8];
        assert_pl_ok(pl_topology_vertex(t, g[i], &gi));
        snprintf(name, sizeof name, "gpu%d", (int)i);
        assert_int_equal(gi.os_index, i);
        assert_string_equal(gi.name, name);
        assert_int_equal(package_os(t, g[i]), want_pkg[i]);
        int64_t units, gmem;
        assert_pl_ok(pl_topology_amount(t, g[i], PL_RES_UNITS, &units, NULL, NULL));
        assert_pl_ok(pl_topology_amount(t, g[i], PL_RES_GPU_MEMORY, &gmem, NULL, NULL));
        assert_int_equal(units, 1);
        assert_int_equal(gmem, 16671616LL * 1024); /* CUDAGlobalMemorySize 16671616KiB */
    }
    int32_t found;
    assert_pl_ok(pl_topology_find(t, "machine/package1/gpu3", &found));
    assert_int_equal(found, g[3]);

    /* NUMA: local_memory of each node; 4 cores per package (8 in all). */
    assert_int_equal(total(t, PL_VK_NUMA, PL_RES_MEMORY), 68556816384LL + 68450713600LL);
    assert_int_equal(total(t, PL_VK_PACKAGE, PL_RES_CORES), 8);
    assert_int_equal(total(t, PL_VK_NUMA, PL_RES_CORES), 8);
    int32_t p0;
    assert_pl_ok(pl_topology_find(t, "machine/package0", &p0));
    int64_t c0;
    assert_pl_ok(pl_topology_amount(t, p0, PL_RES_CORES, &c0, NULL, NULL));
    assert_int_equal(c0, 4);
    int32_t numa0;
    assert_pl_ok(pl_topology_find(t, "machine/package0/numa0", &numa0));
    int64_t m0;
    assert_pl_ok(pl_topology_amount(t, numa0, PL_RES_MEMORY, &m0, NULL, NULL));
    assert_int_equal(m0, 68556816384LL);
    assert_true(find_link(t, p0, numa0, PL_LK_MEMORY) >= 0);
    pl_topology_free(t);
}

static void test_minsky_links(void **state)
{
    (void)state;
    pl_topology *t = load(MINSKY);
    int32_t g[4], p0, p1, m;
    assert_int_equal(by_os_index(t, PL_VK_GPU, g, 4), 4);
    assert_pl_ok(pl_topology_find(t, "machine/package0", &p0));
    assert_pl_ok(pl_topology_find(t, "machine/package1", &p1));
    assert_pl_ok(pl_topology_find(t, "machine", &m));

    /* NVLinkBandwidth: GPU pairs (0,1), (2,3) and each GPU to its package at
     * 40000 MB/s; nothing else. */
    assert_int_equal(count_links(t, PL_LK_NVLINK), 6);
    assert_int_equal(link_bw(t, find_link(t, g[0], g[1], PL_LK_NVLINK)), 40000000000LL);
    assert_int_equal(link_bw(t, find_link(t, g[2], g[3], PL_LK_NVLINK)), 40000000000LL);
    assert_int_equal(link_bw(t, find_link(t, g[0], p0, PL_LK_NVLINK)), 40000000000LL);
    assert_int_equal(link_bw(t, find_link(t, g[1], p0, PL_LK_NVLINK)), 40000000000LL);
    assert_int_equal(link_bw(t, find_link(t, g[2], p1, PL_LK_NVLINK)), 40000000000LL);
    assert_int_equal(link_bw(t, find_link(t, g[3], p1, PL_LK_NVLINK)), 40000000000LL);
    assert_int_equal(find_link(t, g[0], g[2], PL_LK_NVLINK), -1);
    assert_int_equal(find_link(t, g[1], p1, PL_LK_NVLINK), -1);
    assert_int_equal(count_links(t, PL_LK_NVSWITCH), 0);

    /* PCIe: pci_link_speed 15.753846 GB/s, rounded to MB/s. */
    assert_int_equal(count_links(t, PL_LK_PCIE), 4);
    assert_int_equal(link_bw(t, find_link(t, g[2], p1, PL_LK_PCIE)), 15753846000LL);
    assert_int_equal(link_bw(t, find_link(t, p0, p1, PL_LK_INTERSOCKET)), 38400000000LL);
    assert_int_equal(link_bw(t, find_link(t, m, p0, PL_LK_BOARD)), 15750000000LL);
    /* 2 memory + 1 inter-socket + 2 board + 4 PCIe + 6 NVLink */
    assert_int_equal(pl_topology_link_count(t), 15);

    /* Same pair 1 (NVLink); across sockets GPU-package 1 + package-package 20
     * + package-GPU 1 = 22. */
    static const int64_t want[16] = {0, 1, 22, 22, 1, 0, 22, 22, 22, 22, 0, 1, 22, 22, 1, 0};
    int64_t d[16];
    assert_pl_ok(pl_topology_distance_matrix(t, g, 4, d));
    for (int i = 0; i < 16; i++)
        assert_int_equal(d[i], want[i]);

    /* Widest path GPU0 -> GPU2: NVLink 40e9, X-Bus 38.4e9, NVLink 40e9. */
    int64_t bw;
    assert_pl_ok(pl_topology_bottleneck_bw(t, g[0], g[2], &bw));
    assert_int_equal(bw, 38400000000LL);
    assert_pl_ok(pl_topology_bottleneck_bw(t, g[0], g[1], &bw));
    assert_int_equal(bw, 40000000000LL);
    pl_topology_free(t);
}

static void test_minsky_options(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_hwloc_opts o;
    pl_hwloc_opts_init(&o);
    assert_int_equal(o.intersocket_bw, 38400000000LL);
    assert_int_equal(o.nvlink_bw_unit, 1000000LL);
    assert_int_equal(o.board_bw, 15750000000LL);
    assert_int_equal(o.with_cores, 0);
    assert_null(o.xml_path);
    assert_null(o.xml_buffer);
    o.xml_path = pl_test_data(path, MINSKY);
    o.with_cores = 1;
    o.intersocket_bw = 10000000000LL;
    o.nvlink_bw_unit = 2000000LL;
    o.board_bw = 7000000000LL;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_hwloc(&o, &t));
    int32_t mach, pk0;
    assert_pl_ok(pl_topology_find(t, "machine", &mach));
    assert_pl_ok(pl_topology_find(t, "machine/package0", &pk0));
    assert_int_equal(link_bw(t, find_link(t, mach, pk0, PL_LK_BOARD)), 7000000000LL);

    int32_t cores[16];
    assert_int_equal(by_os_index(t, PL_VK_CORE, cores, 16), 8);
    int32_t per_pkg[2] = {0, 0};
    for (int i = 0; i < 8; i++) {
        pl_vertex_info ci;
        assert_pl_ok(pl_topology_vertex(t, cores[i], &ci));
        assert_int_equal(pl_topology_vertex(t, ci.parent, &ci), PL_OK);
        assert_int_equal(ci.kind, PL_VK_PACKAGE);
        per_pkg[ci.os_index]++;
        int64_t c;
        assert_pl_ok(pl_topology_amount(t, cores[i], PL_RES_CORES, &c, NULL, NULL));
        assert_int_equal(c, 1);
    }
    assert_int_equal(per_pkg[0], 4);
    assert_int_equal(per_pkg[1], 4);
    /* A core reaches its package over one board link (weight 1). */
    pl_vertex_info c0;
    assert_pl_ok(pl_topology_vertex(t, cores[0], &c0));
    int64_t w;
    assert_pl_ok(pl_topology_distance(t, cores[0], c0.parent, &w));
    assert_int_equal(w, 1);

    int32_t g[4], p0, p1;
    assert_int_equal(by_os_index(t, PL_VK_GPU, g, 4), 4);
    assert_pl_ok(pl_topology_find(t, "machine/package0", &p0));
    assert_pl_ok(pl_topology_find(t, "machine/package1", &p1));
    assert_int_equal(link_bw(t, find_link(t, g[0], g[1], PL_LK_NVLINK)), 80000000000LL);
    assert_int_equal(link_bw(t, find_link(t, p0, p1, PL_LK_INTERSOCKET)), 10000000000LL);
    int64_t bw;
    assert_pl_ok(pl_topology_bottleneck_bw(t, g[1], g[3], &bw));
    assert_int_equal(bw, 10000000000LL);
    pl_topology_free(t);
}

/* ---- DGX-2 --------------------------------------------------------------------- */

static void test_dgx2(void **state)
{
    (void)state;
    pl_topology *t = load(DGX2);
    int32_t g[16], sw[16];
    assert_int_equal(by_os_index(t, PL_VK_GPU, g, 16), 16);
    assert_int_equal(count_kind(t, PL_VK_NVSWITCH), 12);
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_NVSWITCH, sw, 16, &(int32_t){0}));
    for (int32_t i = 0; i < 16; i++) {
        pl_vertex_info gi;
        assert_pl_ok(pl_topology_vertex(t, g[i], &gi));
        assert_int_equal(gi.os_index, i);          /* nvml<i> */
        assert_int_equal(package_os(t, g[i]), i < 8 ? 0 : 1);
    }
    /* The matrix links each GPU to the 6 NVSwitches of its baseboard at
     * 25000 MB/s (16 x 6 = 96 links) and nothing else: the export records no
     * switch-to-switch trunk between the two baseboards. */
    assert_int_equal(count_links(t, PL_LK_NVSWITCH), 96);
    assert_int_equal(count_links(t, PL_LK_NVLINK), 0);
    for (int32_t i = 0; i < 16; i++) {
        int32_t ls[64], n = 0, on_switch = 0;
        assert_pl_ok(pl_topology_links_of(t, g[i], ls, 64, &n));
        for (int32_t k = 0; k < n; k++) {
            pl_link_info li;
            assert_pl_ok(pl_topology_link(t, ls[k], &li));
            if (li.kind != PL_LK_NVSWITCH)
                continue;
            on_switch++;
            assert_int_equal(li.bw_bytes_per_s, 25000000000LL);
            int32_t other = li.a == g[i] ? li.b : li.a;
            assert_int_equal(package_os(t, other), i < 8 ? 0 : 1);
        }
        assert_int_equal(on_switch, 6);
    }

    /* Same baseboard: GPU-NVSwitch-GPU = 1 + 1 = 2 (every pair shares all 6
     * switches). Across: GPU-package (PCIe) 1 + X-Bus 20 + 1 = 22. */
    int64_t d[256];
    assert_pl_ok(pl_topology_distance_matrix(t, g, 16, d));
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            assert_int_equal(d[i * 16 + j], i == j ? 0 : (i < 8) == (j < 8) ? 2 : 22);

    /* Widest paths: one NVSwitch link (25 GB/s) on a baseboard; across, the
     * GPU's PCIe link (15.753846 GB/s) is the narrowest. */
    for (int i = 0; i < 16; i++)
        for (int j = i + 1; j < 16; j++) {
            int64_t bw;
            assert_pl_ok(pl_topology_bottleneck_bw(t, g[i], g[j], &bw));
            assert_int_equal(bw, (i < 8) == (j < 8) ? 25000000000LL : 15753846000LL);
        }
    pl_topology_free(t);
}

/* ---- every fixture --------------------------------------------------------------- */

static void test_all_fixtures(void **state)
{
    (void)state;
    /* Counts read from each XML: Package and NUMANode objects, local_memory
     * summed, Core objects. */
    static const struct {
        const char *file;
        int32_t packages, numa;
        int64_t memory, cores;
    } fx[] = {
        {"16amd64-4distances.xml", 8, 8, 68717527040LL, 16},
        {"16intel64-manyVFs.xml", 2, 2, 137402286080LL, 16},
        {"192em64t-24n8c2t.xml", 24, 24, 798447374336LL, 192},
        {"24em64t-2n6c2t-pci.xml", 2, 2, 38643982336LL, 12},
        {"32em64t-2n8c2t-pci-normalio.xml", 2, 2, 68689911808LL, 16},
        {"96em64t-4n4d3ca2co-pci.xml", 16, 4, 205083447296LL, 96},
        {"cxlmem+dax.v2.xml", 1, 1, 3061719040LL, 4},
        {"nvidiaDGX2.xml", 2, 2, 1621972275200LL, 4},
        {"power8gpudistances.xml", 2, 2, 137007529984LL, 8},
    };
    for (size_t i = 0; i < sizeof fx / sizeof *fx; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "topologies/%s", fx[i].file);
        pl_topology *t = load(rel);
        assert_int_equal(count_kind(t, PL_VK_MACHINE), 1);
        assert_int_equal(count_kind(t, PL_VK_PACKAGE), fx[i].packages);
        assert_int_equal(count_kind(t, PL_VK_NUMA), fx[i].numa);
        assert_true(total(t, PL_VK_NUMA, PL_RES_MEMORY) > 0);
        assert_int_equal(total(t, PL_VK_NUMA, PL_RES_MEMORY), fx[i].memory);
        assert_int_equal(total(t, PL_VK_PACKAGE, PL_RES_CORES), fx[i].cores);
        /* One inter-socket link per pair of packages. */
        int32_t p = fx[i].packages;
        assert_int_equal(count_links(t, PL_LK_INTERSOCKET), p * (p - 1) / 2);
        pl_topology_free(t);
    }
}

static void test_devices(void **state)
{
    (void)state;
    /* 32em64t: eth0/eth1 (0200) and ib0 on a 0207 ConnectX under P#1; sda
     * behind the 0106 SATA controller under P#0; cuda0 (11796032KiB). */
    pl_topology *t = load("topologies/32em64t-2n8c2t-pci-normalio.xml");
    int32_t v;
    assert_pl_ok(pl_topology_find(t, "machine/package1/eth0", &v));
    assert_pl_ok(pl_topology_find(t, "machine/package1/ib0", &v));
    assert_pl_ok(pl_topology_find(t, "machine/package0/sda", &v));
    assert_int_equal(count_kind(t, PL_VK_NIC), 3);
    assert_pl_ok(pl_topology_find(t, "machine/package1/gpu0", &v));
    int64_t gmem;
    assert_pl_ok(pl_topology_amount(t, v, PL_RES_GPU_MEMORY, &gmem, NULL, NULL));
    assert_int_equal(gmem, 11796032LL * 1024);
    pl_topology_free(t);

    /* cxlmem+dax: sda has Size 10485760KiB; the CXL memory devices, the DAX
     * device and the removable sr0 are not storage. */
    t = load("topologies/cxlmem+dax.v2.xml");
    assert_int_equal(count_kind(t, PL_VK_STORAGE), 1);
    assert_pl_ok(pl_topology_find(t, "machine/package0/sda", &v));
    int64_t size;
    assert_pl_ok(pl_topology_amount(t, v, PL_RES_STORAGE, &size, NULL, NULL));
    assert_int_equal(size, 10485760LL * 1024);
    assert_pl_ok(pl_topology_find(t, "machine/package0/enp0s2", &v));
    pl_topology_free(t);
}

/* ---- NUMA distances ---------------------------------------------------------------- */

/* Three sockets in a line: SLIT 10 local, 20 to a neighbour, 30 end to end. */
static const char line3_xml[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
    "<topology version=\"2.0\">\n"
    " <object type=\"Machine\" os_index=\"0\" cpuset=\"0x7\" complete_cpuset=\"0x7\""
    " allowed_cpuset=\"0x7\" nodeset=\"0x7\" complete_nodeset=\"0x7\" allowed_nodeset=\"0x7\" gp_index=\"1\">\n"
#define LINE3_PKG(i, m, g1, g2, g3, g4)                                                              \
    "  <object type=\"Package\" os_index=\"" #i "\" cpuset=\"" m "\" complete_cpuset=\"" m          \
    "\" nodeset=\"" m "\" complete_nodeset=\"" m "\" gp_index=\"" #g1 "\">\n"                       \
    "   <object type=\"NUMANode\" os_index=\"" #i "\" cpuset=\"" m "\" complete_cpuset=\"" m        \
    "\" nodeset=\"" m "\" complete_nodeset=\"" m "\" gp_index=\"" #g2 "\" local_memory=\"1073741824\"/>\n" \
    "   <object type=\"Core\" os_index=\"" #i "\" cpuset=\"" m "\" complete_cpuset=\"" m            \
    "\" nodeset=\"" m "\" complete_nodeset=\"" m "\" gp_index=\"" #g3 "\">\n"                       \
    "    <object type=\"PU\" os_index=\"" #i "\" cpuset=\"" m "\" complete_cpuset=\"" m             \
    "\" nodeset=\"" m "\" complete_nodeset=\"" m "\" gp_index=\"" #g4 "\"/>\n"                      \
    "   </object>\n"                                                                                \
    "  </object>\n"
    LINE3_PKG(0, "0x1", 2, 3, 4, 5)
    LINE3_PKG(1, "0x2", 6, 7, 8, 9)
    LINE3_PKG(2, "0x4", 10, 11, 12, 13)
    " </object>\n"
    " <distances2 type=\"NUMANode\" nbobjs=\"3\" kind=\"5\" name=\"NUMALatency\" indexing=\"os\">\n"
    "  <indexes length=\"6\">0 1 2 </indexes>\n"
    "  <u64values length=\"27\">10 20 30 20 10 20 30 20 10 </u64values>\n"
    " </distances2>\n"
    "</topology>\n";

static int64_t intersocket_weight(const pl_topology *t, const char *a, const char *b)
{
    int32_t va, vb;
    pl_link_info li;
    assert_pl_ok(pl_topology_find(t, a, &va));
    assert_pl_ok(pl_topology_find(t, b, &vb));
    int32_t l = find_link(t, va, vb, PL_LK_INTERSOCKET);
    assert_true(l >= 0);
    assert_pl_ok(pl_topology_link(t, l, &li));
    assert_int_equal(li.latency_ns, 0); /* SLIT values are not nanoseconds */
    return li.weight;
}

static void test_numa_distance_weights(void **state)
{
    (void)state;
    pl_hwloc_opts o;
    pl_hwloc_opts_init(&o);
    o.xml_buffer = line3_xml;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_hwloc(&o, &t));
    assert_int_equal(count_kind(t, PL_VK_PACKAGE), 3);
    /* Excess over local: 10, 10 and 20; the nearest remote pair keeps 20. */
    assert_int_equal(intersocket_weight(t, "machine/package0", "machine/package1"), 20);
    assert_int_equal(intersocket_weight(t, "machine/package1", "machine/package2"), 20);
    assert_int_equal(intersocket_weight(t, "machine/package0", "machine/package2"), 40);
    pl_topology_free(t);

    /* Uniform SLIT (10 local, 20 remote; NUMA P#1 sits in Package P#0): every
     * pair keeps the default. */
    t = load("topologies/16amd64-4distances.xml");
    char a[32], b[32];
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++) {
            snprintf(a, sizeof a, "machine/package%d", i);
            snprintf(b, sizeof b, "machine/package%d", j);
            assert_int_equal(intersocket_weight(t, a, b), 20);
        }
    pl_topology_free(t);
}

/* ---- errors --------------------------------------------------------------------------- */

static void expect_parse_error(const char *buf, size_t len)
{
    pl_hwloc_opts o;
    pl_hwloc_opts_init(&o);
    o.xml_buffer = buf;
    o.xml_length = len;
    pl_topology *t = (pl_topology *)&o; /* must be reset to NULL */
    assert_pl_status(pl_topology_load_hwloc(&o, &t), PL_EPARSE);
    assert_null(t);
    assert_true(strlen(pl_last_error()) > 0);
}

static void test_bad_xml(void **state)
{
    (void)state;
    size_t len;
    char *xml = slurp(MINSKY, &len);
    expect_parse_error(xml, len / 2);               /* truncated: a length, no copy */
    char *half = malloc(len / 2 + 1);
    assert_non_null(half);
    memcpy(half, xml, len / 2);
    half[len / 2] = '\0';
    expect_parse_error(half, 0);                    /* truncated, NUL-terminated */
    assert_non_null(strstr(pl_last_error(), "<buffer>:"));
    free(half);
    free(xml);
    expect_parse_error("this is not XML at all", 0);
    expect_parse_error("<?xml version=\"1.0\"?><topology version=\"2.0\"><object", 0);
    expect_parse_error("", 1);
    expect_parse_error("<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n</topology>\n", 0);
    assert_non_null(strstr(pl_last_error(), "hwloc 3"));

    /* A malformed file names the file. */
    char path[PL_TEST_TMP_PATH];
    FILE *f = pl_test_tmpfile(path);
    fputs("<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object type=", f);
    fclose(f);
    pl_topology *t = NULL;
    assert_pl_status(pl_topology_load_xml(path, &t), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), path));
    assert_null(t);
    remove(path);
}

static void test_missing_file(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_status(pl_topology_load_xml("/nonexistent/dir/topo.xml", &t), PL_EIO);
    assert_null(t);
    assert_non_null(strstr(pl_last_error(), "/nonexistent/dir/topo.xml"));
    assert_non_null(strstr(pl_last_error(), "No such file"));
}

static void test_null_args(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_topology *t = NULL;
    pl_hwloc_opts_init(NULL); /* no crash */
    assert_pl_status(pl_topology_load_hwloc(NULL, NULL), PL_EINVAL);
    assert_pl_status(pl_topology_load_xml(NULL, &t), PL_EINVAL);
    assert_pl_status(pl_topology_load_xml(pl_test_data(path, MINSKY), NULL), PL_EINVAL);
    pl_hwloc_opts o;
    pl_hwloc_opts_init(&o);
    o.xml_path = pl_test_data(path, MINSKY);
    o.intersocket_bw = -1;
    assert_pl_status(pl_topology_load_hwloc(&o, &t), PL_EINVAL);
    assert_null(t);
}

/* ---- the live machine ------------------------------------------------------------------- */

static void test_live_machine(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_hwloc(NULL, &t));
    assert_int_equal(count_kind(t, PL_VK_MACHINE), 1);
    assert_true(count_kind(t, PL_VK_PACKAGE) >= 1);
    assert_true(count_kind(t, PL_VK_NUMA) >= 1);
    assert_true(total(t, PL_VK_PACKAGE, PL_RES_CORES) > 0);
    assert_true(total(t, PL_VK_NUMA, PL_RES_MEMORY) > 0);
    /* Every package reaches every other and the machine. */
    int32_t p[256], n = 0, m;
    assert_pl_ok(pl_topology_find(t, "machine", &m));
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_PACKAGE, p, 256, &n));
    for (int32_t i = 0; i < n; i++) {
        int64_t w;
        assert_pl_ok(pl_topology_distance(t, m, p[i], &w));
        assert_int_equal(w, 20);
    }
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minsky_shape),
        cmocka_unit_test(test_minsky_links),
        cmocka_unit_test(test_minsky_options),
        cmocka_unit_test(test_dgx2),
        cmocka_unit_test(test_all_fixtures),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_numa_distance_weights),
        cmocka_unit_test(test_bad_xml),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_null_args),
        cmocka_unit_test(test_live_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
