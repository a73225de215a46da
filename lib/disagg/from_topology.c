/* pl_disagg_cluster_from_topology(): a pl_topology read as the disagg
 * module's cluster (issue 19, one cluster model). The mapping, with the
 * capacity keys it reads and the order of the ids, is in doc/disagg.md,
 * "A topology as the cluster". */
#include <stdlib.h>
#include <string.h>
#include <placement/topology.h>
#include "disagg_impl.h"
#include "internal/topology_internal.h"

static const char *const fn = "pl_disagg_cluster_from_topology";

/* Path of v for messages (a path too long for buf is cut, which is fine here). */
static const char *path_of(const pl_topology *t, int32_t v, char *buf, size_t size)
{
    buf[0] = '\0';
    (void)pl_topology_path_name(t, v, buf, size);
    return buf;
}

/* A machine's amount of res: its own capacity, or when it has none the sum
 * over its `part` vertices (packages for cores, NUMA nodes for memory: where
 * the builtin machines and the hwloc loader put them; summing the whole
 * subtree would count an hwloc machine's cores three times). */
static pl_status machine_amount(const pl_topology *t, int32_t m, pl_resource res,
                                pl_vertex_kind part, int64_t *cap, int64_t *fr)
{
    pl_status st = pl_topology_amount(t, m, res, cap, NULL, fr);
    if (st == PL_OK && *cap == 0)
        st = pl_topology_subtree_amount(t, m, (int)part, res, cap, fr);
    return st;
}

static pl_status add_nodes(pl_disagg_cluster *c, const pl_topology *t, const int32_t *mach,
                           int32_t n, int32_t *node_of)
{
    char buf[256];
    for (int32_t i = 0; i < n; i++) {
        int64_t cores = 0, free_cores = 0, mem = 0, free_mem = 0;
        pl_status st = machine_amount(t, mach[i], PL_RES_CORES, PL_VK_PACKAGE, &cores, &free_cores);
        if (st == PL_OK)
            st = machine_amount(t, mach[i], PL_RES_MEMORY, PL_VK_NUMA, &mem, &free_mem);
        if (st != PL_OK)
            return st;
        if (cores > INT32_MAX)
            return pl_err(PL_EINVAL, "%s: machine %s has %lld cores, more than a node can hold", fn,
                          path_of(t, mach[i], buf, sizeof buf), (long long)cores);
        int32_t id = 0;
        if ((st = pl_disagg_add_node(c, (int32_t)cores, mem, &id)) != PL_OK)
            return st;
        /* The topology's allocations stay taken: a partly used machine is
         * a partly used node. */
        c->nodes[id].free_cores = (int32_t)free_cores;
        c->nodes[id].free_mem = free_mem;
        node_of[mach[i]] = id;
    }
    return PL_OK;
}

/* Node of a device under a machine, -1 for one in a pool; an error for a
 * device that is in neither, or that the topology has allocated. */
static pl_status device_home(const pl_topology *t, int32_t v, const int32_t *node_of,
                             const char *what, int free_view, int32_t *home)
{
    char buf[256];
    for (int r = 0; r < PL_RES_COUNT && !free_view; r++) {
        int64_t used = 0;
        if (pl_topology_amount(t, v, (pl_resource)r, NULL, &used, NULL) == PL_OK && used > 0)
            return pl_err(PL_EINVAL, "%s: %s %s has %s allocated: the disagg module starts "
                          "from free devices", fn, what, path_of(t, v, buf, sizeof buf),
                          pl_resource_name((pl_resource)r));
    }
    int32_t m = -1, p = -1;
    if (pl_topology_ancestor(t, v, PL_VK_MACHINE, &m) == PL_OK) {
        *home = node_of[m];
        return PL_OK;
    }
    if (pl_topology_ancestor(t, v, PL_VK_POOL, &p) == PL_OK) {
        *home = -1;
        return PL_OK;
    }
    return pl_err(PL_EINVAL, "%s: %s %s is in neither a machine nor a pool", fn, what,
                  path_of(t, v, buf, sizeof buf));
}

/* Capacity `res` of device v, which must be positive; in the free view its
 * free amount (*amount 0 when the capacity is there but all taken). */
static pl_status device_size(const pl_topology *t, int32_t v, const char *what, pl_resource res,
                             const char *unit, int free_view, int64_t *amount)
{
    char buf[256];
    int64_t fr = 0;
    pl_status st = pl_topology_amount(t, v, res, amount, NULL, &fr);
    if (st == PL_OK && *amount > 0 && free_view) {
        *amount = fr;
        return PL_OK;
    }
    if (st == PL_OK && *amount <= 0)
        return pl_err(PL_EINVAL, "%s: %s %s has no \"%s\" capacity (%s), which the disagg module "
                      "needs", fn, what, path_of(t, v, buf, sizeof buf), pl_resource_name(res), unit);
    return st;
}

/* Where device v is, its bandwidth and its size (capacity size_res). */
static pl_status device_of(const pl_topology *t, int32_t v, const int32_t *node_of,
                           const char *what, pl_resource size_res, int free_view, int32_t *home,
                           int64_t *bw, int64_t *size)
{
    pl_status st = device_home(t, v, node_of, what, free_view, home);
    if (st == PL_OK)
        st = device_size(t, v, what, PL_RES_BANDWIDTH, "bytes/s", free_view, bw);
    if (st == PL_OK)
        st = device_size(t, v, what, size_res, "bytes", free_view, size);
    return st;
}

/* *added 0: in the free view, a device with nothing free is left out. */
static pl_status add_nvme(pl_disagg_cluster *c, const pl_topology *t, int32_t v,
                          const int32_t *node_of, int free_view, int *added)
{
    int32_t home = -1;
    int64_t bw = 0, cap = 0;
    pl_status st = device_of(t, v, node_of, "storage device", PL_RES_STORAGE, free_view, &home,
                             &bw, &cap);
    *added = st == PL_OK && bw > 0 && cap > 0;
    if (st != PL_OK || !*added)
        return st;
    return home >= 0 ? pl_disagg_add_nvme_at(c, bw, cap, home, NULL)
                     : pl_disagg_add_nvme(c, bw, cap, NULL);
}

/* "vgpu_splits" of the GPU or of its nearest ancestor that has one (as
 * gpu_model); absent: the thesis's Tesla T4, {1, 2, 4}. */
static pl_status gpu_splits(const pl_topology *t, int32_t g, int32_t *splits, int32_t *n)
{
    const char *s = NULL;
    pl_vertex_info info;
    for (int32_t v = g; v >= 0 && !s; v = pl_topology_vertex(t, v, &info) == PL_OK ? info.parent : -1)
        s = pl_topology_attr(t, v, PL_DISAGG_VGPU_SPLITS_ATTR);
    if (!s)
        s = PL_DISAGG_VGPU_SPLITS_DEFAULT;
    char buf[256];
    *n = 0;
    for (const char *p = s;; p++) {
        char *end;
        long k = strtol(p, &end, 10);
        if (*p < '0' || *p > '9' || k < 1 || k > PL_DISAGG_MAX_VGPU ||
            *n == PL_DISAGG_MAX_SPLITS || (*end != ',' && *end != '\0'))
            return pl_err(PL_EINVAL, "%s: GPU %s: %s \"%s\" is not a comma-separated list of at "
                          "most %d split counts in [1, %d]", fn, path_of(t, g, buf, sizeof buf),
                          PL_DISAGG_VGPU_SPLITS_ATTR, s, PL_DISAGG_MAX_SPLITS, PL_DISAGG_MAX_VGPU);
        splits[(*n)++] = (int32_t)k;
        p = end;
        if (*end == '\0')
            return PL_OK;
    }
}

/* In the free view a GPU with anything allocated is left out (*added 0):
 * its split is not known. */
static pl_status add_gpu(pl_disagg_cluster *c, const pl_topology *t, int32_t v,
                         const int32_t *node_of, int free_view, int *added)
{
    int32_t home = -1, n = 0;
    int32_t splits[PL_DISAGG_MAX_SPLITS];
    int64_t bw = 0, mem = 0, cap = 0, fr = 0;
    *added = 1;
    for (int r = 0; r < PL_RES_COUNT && free_view && *added; r++)
        *added = pl_topology_amount(t, v, (pl_resource)r, &cap, NULL, &fr) != PL_OK || fr == cap;
    if (!*added)
        return PL_OK;
    pl_status st = device_of(t, v, node_of, "GPU", PL_RES_GPU_MEMORY, 0, &home, &bw, &mem);
    if (st == PL_OK)
        st = gpu_splits(t, v, splits, &n);
    if (st != PL_OK)
        return st;
    return home >= 0 ? pl_disagg_add_gpu_at(c, bw, mem, splits, n, home, NULL)
                     : pl_disagg_add_gpu(c, bw, mem, splits, n, NULL);
}

/* Both views; vertex_of_nvme / vertex_of_gpu (may be NULL) receive the
 * vertex of each device id. */
static pl_status build(const pl_topology *t, int free_view, pl_disagg_cluster **out,
                       int32_t **vertex_of_nvme, int32_t **vertex_of_gpu)
{
    if (!t || !out)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    pl_disagg_cluster *c = NULL;
    int32_t *mach = NULL, *sto = NULL, *gpu = NULL, nm = 0, ns = 0, ng = 0, kept = 0;
    int32_t *node_of = pl_alloc((size_t)pl_topology_vertex_count(t) + 1, sizeof *node_of);
    pl_status st = node_of ? pl_disagg_cluster_create(&c) : PL_ENOMEM;
    if (st == PL_OK)
        st = pl_topo_list(t, -1, PL_VK_MACHINE, &mach, &nm);
    if (st == PL_OK)
        st = pl_topo_list(t, -1, PL_VK_STORAGE, &sto, &ns);
    if (st == PL_OK)
        st = pl_topo_list(t, -1, PL_VK_GPU, &gpu, &ng);
    if (st == PL_OK)
        st = add_nodes(c, t, mach, nm, node_of);
    /* The lists become the id -> vertex maps: the devices kept move up. */
    for (int32_t i = 0; st == PL_OK && i < ns; i++) {
        int added = 0;
        if ((st = add_nvme(c, t, sto[i], node_of, free_view, &added)) == PL_OK && added)
            sto[kept++] = sto[i];
    }
    for (int32_t i = 0, k = 0; st == PL_OK && i < ng; i++) {
        int added = 0;
        if ((st = add_gpu(c, t, gpu[i], node_of, free_view, &added)) == PL_OK && added)
            gpu[k++] = gpu[i];
    }
    free(node_of);
    free(mach);
    if (st == PL_OK && vertex_of_nvme) {
        *vertex_of_nvme = sto;
        sto = NULL;
    }
    if (st == PL_OK && vertex_of_gpu) {
        *vertex_of_gpu = gpu;
        gpu = NULL;
    }
    free(sto);
    free(gpu);
    return PL_HAND_OUT(st, c, pl_disagg_cluster_free, out);
}

pl_status pl_disagg_cluster_from_topology(const pl_topology *t, pl_disagg_cluster **out)
{
    return build(t, 0, out, NULL, NULL);
}

pl_status pl_disagg_cluster_view_free(const pl_topology *t, pl_disagg_cluster **out,
                                      int32_t **vertex_of_nvme, int32_t **vertex_of_gpu)
{
    if (!vertex_of_nvme || !vertex_of_gpu)
        return pl_err(PL_EINVAL, "pl_disagg_cluster_view_free: NULL argument");
    return build(t, 1, out, vertex_of_nvme, vertex_of_gpu);
}
