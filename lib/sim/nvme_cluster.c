/* The NVMe simulator's cluster as a pl_topology (issue 19: the topology is
 * the only cluster model; the disagg module sees it through
 * pl_disagg_cluster_from_topology()). doc/disagg.md, "The simulator's
 * cluster", draws both layouts. */
#include <math.h>
#include <stdlib.h>
#include <placement/nvme_sim.h>
#include "internal/core.h"
#include "internal/topology_internal.h"

/* One device vertex under `parent` with its capacities. */
static pl_status add_device(pl_topology *t, pl_vertex_kind kind, int32_t parent, int32_t os,
                            int64_t bw, pl_resource size_res, int64_t size, int32_t *id)
{
    pl_status st = pl_topology_add_vertex(t, kind, parent, NULL, os, id);
    if (st == PL_OK)
        st = pl_topology_set_capacity(t, *id, PL_RES_UNITS, 1);
    if (st == PL_OK)
        st = pl_topology_set_capacity(t, *id, PL_RES_BANDWIDTH, bw);
    if (st == PL_OK)
        st = pl_topology_set_capacity(t, *id, size_res, size);
    return st;
}

/* Table 5.2's GPU: 4 GB/s, 16 GB; a Tesla T4 splits into 1, 2 or 4 vGPUs. */
static pl_status add_t4(pl_topology *t, int32_t parent, int32_t os, int split)
{
    int32_t g = 0;
    pl_status st = add_device(t, PL_VK_GPU, parent, os, 4000000000LL, PL_RES_GPU_MEMORY,
                              16000000000LL, &g);
    return st == PL_OK ? pl_topology_set_attr(t, g, PL_DISAGG_VGPU_SPLITS_ATTR, split ? "1,2,4" : "1")
                       : st;
}

pl_status pl_nvme_sim_topology(const pl_nvme_sim_opts *o, pl_topology **out)
{
    if (!o || !out)
        return pl_err(PL_EINVAL, "pl_nvme_sim_topology: NULL argument");
    if (o->nodes < 1 || o->cores_per_node < 0 || o->nvme < 0 || o->gpus < 0 ||
        (o->layout == PL_NVME_LAYOUT_PA && o->nodes < 2 && o->nvme > 1))
        return pl_err(PL_EINVAL, "pl_nvme_sim_topology: need a node, non-negative sizes and, for "
                                 "the physically-attached layout, 2 nodes");
    pl_topology *t = NULL;
    int32_t root = 0, pool = -1, v = 0;
    int pa = o->layout == PL_NVME_LAYOUT_PA;
    pl_status st = pl_topology_create(&t);
    if (st == PL_OK)
        st = pl_topology_add_vertex(t, PL_VK_CLUSTER, -1, "cluster", -1, &root);
    for (int32_t i = 0; st == PL_OK && i < o->nodes; i++) {
        st = pl_topology_add_vertex(t, PL_VK_MACHINE, root, NULL, i, &v);
        if (st == PL_OK)
            st = pl_topology_set_capacity(t, v, PL_RES_CORES, o->cores_per_node);
    }
    /* Machine i is vertex i + 1 (created right after the root). */
    if (st == PL_OK && !pa && o->nvme + o->gpus > 0)
        st = pl_topology_add_vertex(t, PL_VK_POOL, root, "pool0", 0, &pool);
    /* PA (sec. 4.4.1): "the first has attached six of them and the remaining
     * four at the second": 60 % on node 0, the rest on node 1. */
    int32_t on_first = (int32_t)ceil(0.6 * o->nvme);
    for (int32_t i = 0; st == PL_OK && i < o->nvme; i++)
        st = add_device(t, PL_VK_STORAGE, pa ? (i < on_first ? 1 : 2) : pool, i,
                        o->nvme_bw_bytes_per_s, PL_RES_STORAGE, o->nvme_cap_bytes, &v);
    /* PA (Fig. 5.6a): the thesis does not say where; node 2, the first
     * without NVMe, so that three nodes hold a device. */
    int32_t gpu_home = 1 + (o->nodes > 2 ? 2 : o->nodes - 1);
    for (int32_t i = 0; st == PL_OK && i < o->gpus; i++)
        st = add_t4(t, pa ? gpu_home : pool, i, o->gpu_split);
    return PL_HAND_OUT(st, t, pl_topology_free, out);
}

/* Every GPU of t: unsplittable (its split attribute "1") when unsplit, and
 * held by up to PL_DISAGG_MAX_VGPU jobs when for_sim (the simulator's
 * holders of its vGPUs). */
static pl_status set_gpus(pl_topology *t, int unsplit, int for_sim)
{
    int32_t *g = NULL, n = 0;
    pl_status st = pl_topo_list(t, -1, PL_VK_GPU, &g, &n);
    for (int32_t i = 0; st == PL_OK && i < n; i++) {
        if (unsplit)
            st = pl_topology_set_attr(t, g[i], PL_DISAGG_VGPU_SPLITS_ATTR, "1");
        if (st == PL_OK && for_sim)
            st = pl_topology_set_capacity(t, g[i], PL_RES_UNITS, PL_DISAGG_MAX_VGPU);
    }
    free(g);
    return st;
}

/* The run's topology: built from o, or a copy of o->cluster (unsplittable
 * GPUs when gpu_split is 0). */
static pl_status run_topology(const pl_nvme_sim_opts *o, int for_sim, pl_topology **out)
{
    pl_topology *t = NULL;
    pl_status st = o->cluster ? pl_topology_copy(o->cluster, &t) : pl_nvme_sim_topology(o, &t);
    if (st == PL_OK)
        st = set_gpus(t, o->cluster && !o->gpu_split, for_sim);
    return PL_HAND_OUT(st, t, pl_topology_free, out);
}

pl_status pl_nvme_sim_sim_topology(const pl_nvme_sim_opts *o, pl_topology **out)
{
    if (!o || !out)
        return pl_err(PL_EINVAL, "pl_nvme_sim_sim_topology: NULL argument");
    return run_topology(o, 1, out);
}

pl_status pl_nvme_sim_cluster(const pl_nvme_sim_opts *o, pl_disagg_cluster **out)
{
    if (!o || !out)
        return pl_err(PL_EINVAL, "pl_nvme_sim_cluster: NULL argument");
    pl_topology *own = NULL;
    pl_status st = PL_OK;
    if (!o->cluster || !o->gpu_split)
        st = run_topology(o, 0, &own);
    pl_disagg_cluster *c = NULL;
    if (st == PL_OK)
        st = pl_disagg_cluster_from_topology(own ? own : o->cluster, &c);
    pl_topology_free(own);
    pl_disagg_opts dopts;
    pl_disagg_opts_init(&dopts);
    dopts.reshare = !o->static_sharing;
    dopts.node_order = o->node_order;
    dopts.smufin_oversubscribe = o->smufin_oversubscribe;
    if (st == PL_OK)
        st = pl_disagg_set_opts(c, &dopts);
    return PL_HAND_OUT(st, c, pl_disagg_cluster_free, out);
}
