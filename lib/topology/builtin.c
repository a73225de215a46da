/* Reference machines by name (pl_topology_builtin). The numbers and their
 * sources are in doc/topology-builtin.md; keep the two in step. */
#include <stdio.h>
#include <string.h>
#include "topology_impl.h"

#define GIB ((int64_t)1 << 30)

/* Bandwidths in bytes per second, each direction. */
#define BW_NVLINK1 40000000000LL  /* P100 NVLink 1.0 pair of bricks: hwloc's NVLinkBandwidth 40000 MB/s */
#define BW_NVLINK2 25000000000LL  /* one V100 NVLink 2.0 link */
#define BW_PCIE3_X16 15750000000LL /* PCIe 3.0 x16: 8 GT/s * 16 lanes * 128/130 */
#define BW_XBUS 38400000000LL     /* POWER8 X-Bus (also the hwloc loader's default) */
#define BW_QPI_2X 38400000000LL   /* 2 QPI links at 9.6 GT/s (Xeon E5-2698 v4) */
#define BW_UPI_3X 62400000000LL   /* 3 UPI links at 10.4 GT/s (Xeon Platinum 8168) */
#define BW_UPI_2X 41600000000LL   /* 2 UPI links at 10.4 GT/s (generic Xeon Scalable) */
#define BW_NVSWITCH_TRUNK 200000000000LL /* 8 NVLink 2.0 ports between baseboard NVSwitches */

/* Builder that stops at the first error: every helper is a no-op once st is
 * set, so a machine description reads as a plain list of parts. */
typedef struct builder {
    pl_topology *t;
    pl_status st;
} builder;

static int32_t vertex(builder *b, pl_vertex_kind kind, int32_t parent, int32_t os_index)
{
    int32_t v = -1;
    if (b->st == PL_OK)
        b->st = pl_topology_add_vertex(b->t, kind, parent, NULL, os_index, &v);
    return v;
}

static void capacity(builder *b, int32_t v, pl_resource res, int64_t amount)
{
    if (b->st == PL_OK)
        b->st = pl_topology_set_capacity(b->t, v, res, amount);
}

static void link(builder *b, int32_t x, int32_t y, pl_link_kind kind, int64_t bw)
{
    if (b->st == PL_OK)
        b->st = pl_topology_add_link(b->t, x, y, kind, bw, 0, 0, NULL);
}

/* A socket with its cores counted, its NUMA node and the board link that
 * connects it to the machine (the machine's own I/O and network side). */
static int32_t package(builder *b, int32_t machine, int32_t idx, int64_t cores, int64_t memory,
                       int64_t board_bw)
{
    int32_t p = vertex(b, PL_VK_PACKAGE, machine, idx);
    capacity(b, p, PL_RES_CORES, cores);
    int32_t numa = vertex(b, PL_VK_NUMA, p, idx);
    capacity(b, numa, PL_RES_MEMORY, memory);
    link(b, p, numa, PL_LK_MEMORY, 0);
    link(b, machine, p, PL_LK_BOARD, board_bw);
    return p;
}

static int32_t gpu(builder *b, int32_t parent, int32_t idx, int64_t memory)
{
    int32_t g = vertex(b, PL_VK_GPU, parent, idx);
    capacity(b, g, PL_RES_UNITS, 1);
    capacity(b, g, PL_RES_GPU_MEMORY, memory);
    return g;
}

/* A PCIe switch under package p holding GPUs first .. first + n - 1. */
static void pcie_gpus(builder *b, int32_t p, int32_t sw_idx, int32_t first, int32_t n,
                      int64_t memory, int32_t *gpus)
{
    int32_t sw = vertex(b, PL_VK_PCI_SWITCH, p, sw_idx);
    link(b, p, sw, PL_LK_PCIE, BW_PCIE3_X16);
    for (int32_t i = first; i < first + n; i++) {
        gpus[i] = gpu(b, sw, i, memory);
        link(b, sw, gpus[i], PL_LK_PCIE, BW_PCIE3_X16);
    }
}

/* IBM S822LC "Minsky": each P100 has 4 NVLink bricks, 2 to its peer and 2
 * to its POWER8; the sockets meet over the X-Bus. Names and links match
 * what the hwloc loader builds from power8gpudistances.xml. */
static void build_minsky(builder *b)
{
    int32_t m = vertex(b, PL_VK_MACHINE, -1, -1);
    int32_t p[2], g[4];
    for (int32_t s = 0; s < 2; s++)
        p[s] = package(b, m, s, 10, 256 * GIB, BW_PCIE3_X16);
    for (int32_t i = 0; i < 4; i++) {
        g[i] = gpu(b, p[i / 2], i, 16 * GIB);
        link(b, g[i], p[i / 2], PL_LK_NVLINK, BW_NVLINK1);
    }
    link(b, g[0], g[1], PL_LK_NVLINK, BW_NVLINK1);
    link(b, g[2], g[3], PL_LK_NVLINK, BW_NVLINK1);
    link(b, p[0], p[1], PL_LK_INTERSOCKET, BW_XBUS);
}

/* DGX-1 with V100: hybrid cube-mesh. Each GPU has 6 NVLinks; a pair joined
 * by two of them is one link of twice the bandwidth. */
static void build_dgx1(builder *b)
{
    static const struct { int a, b, links; } nvl[] = {
        {0, 1, 1}, {0, 2, 1}, {0, 3, 2}, {0, 4, 2}, {1, 2, 2}, {1, 3, 1}, {1, 5, 2},
        {2, 3, 2}, {2, 6, 1}, {3, 7, 1}, {4, 5, 1}, {4, 6, 1}, {4, 7, 2}, {5, 6, 2},
        {5, 7, 1}, {6, 7, 2},
    };
    int32_t m = vertex(b, PL_VK_MACHINE, -1, -1);
    int32_t p[2], g[8];
    for (int32_t s = 0; s < 2; s++) {
        p[s] = package(b, m, s, 20, 256 * GIB, BW_PCIE3_X16);
        pcie_gpus(b, p[s], 2 * s, 4 * s, 2, 16 * GIB, g);
        pcie_gpus(b, p[s], 2 * s + 1, 4 * s + 2, 2, 16 * GIB, g);
    }
    link(b, p[0], p[1], PL_LK_INTERSOCKET, BW_QPI_2X);
    for (size_t i = 0; i < sizeof nvl / sizeof nvl[0]; i++)
        link(b, g[nvl[i].a], g[nvl[i].b], PL_LK_NVLINK, nvl[i].links * BW_NVLINK2);
}

/* DGX-2: two baseboards of 8 V100 and 6 NVSwitches; every GPU has one
 * NVLink to each switch of its board, and switch i of one board is trunked
 * to switch i of the other. PCIe: 2 GPUs per switch, 4 switches per socket. */
static void build_dgx2(builder *b)
{
    int32_t m = vertex(b, PL_VK_MACHINE, -1, -1);
    int32_t p[2], g[16], nvs[12];
    for (int32_t s = 0; s < 2; s++) {
        p[s] = package(b, m, s, 24, 768 * GIB, BW_PCIE3_X16);
        for (int32_t k = 0; k < 4; k++)
            pcie_gpus(b, p[s], 4 * s + k, 8 * s + 2 * k, 2, 32 * GIB, g);
    }
    link(b, p[0], p[1], PL_LK_INTERSOCKET, BW_UPI_3X);
    for (int32_t i = 0; i < 12; i++)
        nvs[i] = vertex(b, PL_VK_NVSWITCH, m, i);
    for (int32_t i = 0; i < 16; i++)
        for (int32_t k = 0; k < 6; k++)
            link(b, g[i], nvs[(i / 8) * 6 + k], PL_LK_NVSWITCH, BW_NVLINK2);
    for (int32_t k = 0; k < 6; k++)
        link(b, nvs[k], nvs[6 + k], PL_LK_NVSWITCH, BW_NVSWITCH_TRUNK);
}

/* A plain two-socket server with PCIe GPUs only. */
static void build_2s4g_pcie(builder *b)
{
    int32_t m = vertex(b, PL_VK_MACHINE, -1, -1);
    int32_t p[2], g[4];
    for (int32_t s = 0; s < 2; s++) {
        p[s] = package(b, m, s, 16, 128 * GIB, BW_PCIE3_X16);
        pcie_gpus(b, p[s], s, 2 * s, 2, 16 * GIB, g);
    }
    link(b, p[0], p[1], PL_LK_INTERSOCKET, BW_UPI_2X);
}

static const struct machine_def {
    const char *name;
    void (*build)(builder *b);
} machines[] = {
    {"minsky", build_minsky},
    {"dgx1", build_dgx1},
    {"dgx2", build_dgx2},
    {"2s4g-pcie", build_2s4g_pcie},
};

#define N_MACHINES (sizeof machines / sizeof machines[0])

const char *const *pl_topology_builtin_names(void)
{
    static const char *const names[N_MACHINES + 1] = {"minsky", "dgx1", "dgx2", "2s4g-pcie", NULL};
    return names;
}

pl_status pl_topology_builtin(const char *name, pl_topology **out)
{
    if (!name || !out)
        return pl_err(PL_EINVAL, "pl_topology_builtin: NULL argument");
    *out = NULL;
    const struct machine_def *def = NULL;
    for (size_t i = 0; i < N_MACHINES; i++)
        if (!strcmp(name, machines[i].name))
            def = &machines[i];
    if (!def) {
        char list[128] = "";
        size_t len = 0;
        for (size_t i = 0; i < N_MACHINES && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                    machines[i].name);
        return pl_err(PL_ENOTFOUND, "pl_topology_builtin: no builtin machine '%s' (expected one of: %s)",
                      name, list);
    }
    builder b = {NULL, PL_OK};
    if ((b.st = pl_topology_create(&b.t)) != PL_OK)
        return b.st;
    def->build(&b);
    if (b.st != PL_OK) {
        pl_topology_free(b.t);
        return b.st;
    }
    *out = b.t;
    return PL_OK;
}
