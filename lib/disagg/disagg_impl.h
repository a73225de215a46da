/* Internal layout of pl_disagg_cluster (include/placement/disagg.h). */
#ifndef PL_DISAGG_IMPL_H
#define PL_DISAGG_IMPL_H

#include <placement/disagg.h>
#include "internal/core.h"

typedef struct dg_node {
    int32_t cores, free_cores;
    int64_t mem, free_mem;
} dg_node;

typedef struct dg_nvme {
    int64_t bw, cap;
    int32_t comp; /* -1: free in the pool */
    int32_t home; /* -1: disaggregated; else the node it is physically attached to */
} dg_nvme;

typedef struct dg_comp {
    int alive;
    int32_t node;
    int32_t n;
    int32_t dev[PL_DISAGG_MAX_COMPOSE];
    int64_t bw, cap, used_bw, used_cap;
    int32_t sharers;
} dg_comp;

typedef struct dg_gpu {
    int64_t bw, mem;
    int32_t splits[PL_DISAGG_MAX_SPLITS];
    int32_t n_splits;
    int32_t n_vgpu;                     /* 0: unsplit */
    int32_t vgpu_job[PL_DISAGG_MAX_VGPU]; /* placement id, -1 idle */
    int32_t busy;
    int32_t home; /* -1: disaggregated; else the node every vGPU attaches to */
} dg_gpu;

typedef struct dg_place {
    int alive;
    pl_disagg_workload w;
    int32_t node, comp, gpu, vgpu;
    double start, end;
    /* Sharing over time (opts.reshare): share of the work not yet done at
     * last_s, and the full run time at the sharing (or co-run) level since
     * last_s. */
    double work_left, run_time, last_s;
} dg_place;

struct pl_disagg_cluster {
    pl_disagg_opts opts;
    dg_node *nodes;
    int64_t nnodes, cap_nodes;
    dg_nvme *nvme;
    int64_t nnvme, cap_nvme;
    dg_comp *comps;
    int64_t ncomps, cap_comps;
    dg_gpu *gpus;
    int64_t ngpus, cap_gpus;
    /* Placement ids are never reused: nplaces is the next one; places[]
     * holds ids place0 .. nplaces - 1, the finished ones before place0
     * dropped (so that a copy per scheduling round stays small). */
    dg_place *places;
    int64_t nplaces, cap_places, place0;
};

static inline dg_place *dg_place_at(const pl_disagg_cluster *c, int64_t id)
{
    return &c->places[id - c->place0];
}

/* Placement id is running. */
static inline int dg_place_alive(const pl_disagg_cluster *c, int64_t id)
{
    return id >= c->place0 && id < c->nplaces && dg_place_at(c, id)->alive;
}

/* Checks of a workload shared by decide and apply (sets the error). */
PL_INTERNAL pl_status dg_check_workload(const pl_disagg_workload *w, const char *fn);
/* Run time of w on a vGPU of g with `corunners` busy vGPUs including its own. */
PL_INTERNAL double dg_gpu_time(const pl_disagg_workload *w, int32_t corunners);
/* Device v may serve a composition attached to node (pool or same home). */
static inline int dg_nvme_usable(const pl_disagg_cluster *c, int32_t v, int32_t node)
{
    return c->nvme[v].home < 0 || c->nvme[v].home == node;
}
/* Any device physically attached to a node (the PA layout). */
PL_INTERNAL int dg_has_attached(const pl_disagg_cluster *c);
/* opts.reshare: advance every sharer of comp to now at its recorded rate and
 * set its end at the composition's current sharing level. */
PL_INTERNAL void dg_reshare(pl_disagg_cluster *c, int32_t comp, double now);
/* opts.reshare: the same for the workloads on the vGPUs of `gpu`, at the
 * co-run factor of its busy vGPUs. */
PL_INTERNAL void dg_reshare_gpu(pl_disagg_cluster *c, int32_t gpu, double now);
/* Latest predicted end of a composition's sharers. */
PL_INTERNAL double dg_comp_end(const pl_disagg_cluster *c, int32_t comp);

#endif
