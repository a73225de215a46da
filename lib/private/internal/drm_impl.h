/* DRMaestro internals shared by the round (drmaestro.c), the decoder and
 * device picking (pick.c) and the baselines (baseline.c). Not installed. */
#ifndef PL_DRM_IMPL_H
#define PL_DRM_IMPL_H

#include <placement/drmaestro.h>
#include <placement/flownet.h>
#include "internal/core.h"

enum { DRM_CPU = 0, DRM_GPU = 1, DRM_NVME = 2, DRM_PHASES = 3 };

/* One sub-task node (T, G or S) of a job in one phase, with its arcs. */
typedef struct drm_sub {
    int32_t node;
    int32_t arc_u;      /* -> U_k */
    int32_t arc_x;      /* -> X (any rack) */
    int32_t arc_rack;   /* -> RN of the home machine's rack, -1 if none */
    int32_t arc_local;  /* -> SN of the home machine, -1 if none */
    int32_t home;       /* home machine vertex the two arcs above were built for, -1 */
    int32_t task;       /* task of the job it belongs to */
    int32_t server;     /* decoded: serving provider vertex, -1 = unscheduled */
    /* Restricted sub-tasks (drm_set_admit): one arc straight to each allowed
     * provider, instead of the aggregated routes; rebuilt every round. */
    int32_t *direct_arc, *direct_prov; /* [ndirect] arc, provider index */
    int32_t ndirect;
    int restricted;     /* routes closed or direct arcs added this round */
    int64_t units;      /* flow units of its supply this round (1 in the slot form; Eq. 10's b_i) */
    int32_t pin_arc;    /* running (Alg. 5): the arc carrying its flow to its server, -1 */
    int32_t pin_server; /* the provider vertex pin_arc ends at, -1 */
} drm_sub;

/* A job's nodes in one phase; count -1 when not built. */
typedef struct drm_jphase {
    int32_t count;
    int32_t unode, uarc;
    drm_sub *sub;
} drm_jphase;

typedef struct drm_entry {
    int64_t id;
    int64_t waited;
    int64_t postponed;
    int32_t req;        /* index in this round's requests, -1 if absent */
    int running;        /* this round's request is a running job kept in the networks */
    int32_t *held[DRM_PHASES]; /* servers of its sub-tasks when it was placed, NULL before */
    int32_t nheld[DRM_PHASES];
    drm_jphase ph[DRM_PHASES];
} drm_entry;

/* A phase network: sink, aggregator, racks, providers (machines / pools). */
typedef struct drm_phase {
    pl_flownet *net;
    int32_t sink, x;
    int32_t nracks;
    int32_t *rack_node, *rack_in_arc;       /* [nracks] RN node, X -> RN arc */
    int32_t nprov;
    int32_t *prov_vertex, *prov_node;       /* [nprov] */
    int32_t *prov_in_arc, *prov_out_arc;    /* [nprov] RN/X -> SN, SN -> t */
    int32_t *prov_rack;                     /* [nprov] rack index or -1 */
    int32_t *prov_of_vertex;                /* [V] provider index or -1 */
} drm_phase;

/* May sub-tasks of task `task` of request `req` (its index in the round) be
 * served by provider vertex `provider` (a machine or pool)? */
typedef int (*drm_admit_fn)(void *ctx, int32_t req, int32_t task, int32_t provider);

/* Called after each solve of phase 1 (the servers decoded, active[i]: entry
 * i is still in the round; order[ne]: the entries, the most urgent first,
 * i.e. by the gain of placing them, Eq. 8 minus Eq. 7, then table order;
 * remote_ok[i]: entry i may take a remote GPU this round, not so when NA
 * withholds it): nonzero when the filter now refuses some task a machine it
 * was given, and phase 1 is to be solved again. It must return nonzero only
 * for a refusal it had not made before, so the round ends. */
typedef int (*drm_revise_fn)(void *ctx, const uint8_t *active, const int32_t *order, const uint8_t *remote_ok);

/* Per-round decision storage. */
typedef struct drm_result {
    pl_drm_placement *pl;
    int32_t n;
    int32_t *machines;
    pl_drm_gpu *gpus;
    pl_drm_nvme *nvme;
} drm_result;

struct pl_drm {
    pl_drm_opts opts;
    drm_phase ph[DRM_PHASES];
    drm_entry *e;
    int32_t ne, ecap;
    int32_t nvert;           /* topology vertex count of the first round, -1 before */
    int32_t nracks;
    int32_t *rack_vertex;    /* [nracks] */
    int32_t *rack_of_vertex; /* [V] rack index of a vertex's nearest rack ancestor, -1 */
    int32_t *machines;       /* machine vertices in preorder */
    int32_t nmachines;
    drm_result res;
    drm_admit_fn admit;      /* NULL: every provider admits every sub-task */
    void *admit_ctx;
    drm_revise_fn revise;    /* NULL: phase 1 is solved once */
    void *revise_ctx;
    int phase_now;           /* the phase being built (drm_phase_now) */
};

/* Per-round scratch: amounts already promised per vertex and resource. */
typedef struct drm_taken {
    int64_t *amt; /* [V * PL_RES_COUNT] */
} drm_taken;

/* Restrict where sub-tasks may be served from the next round on (NULL fn:
 * no restriction). A sub-task some provider refuses gets arcs only to the
 * providers that admit it (its aggregated routes through X and RN closed),
 * so the flow itself keeps it off the others (doc/policies.md, 4c). In phase 1
 * a task no core-offering machine admits is left unrestricted: its home is
 * only where its CPU part runs; phases 2 and 3 always apply the filter. */
PL_INTERNAL void drm_set_admit(pl_drm *d, drm_admit_fn fn, void *ctx);
/* Let fn revise phase 1 (drm_revise_fn) from the next round on; NULL: never. */
PL_INTERNAL void drm_set_revise(pl_drm *d, drm_revise_fn fn, void *ctx);
/* The phase (DRM_CPU, DRM_GPU, DRM_NVME) whose network the round is building:
 * an admit function that filters one phase only asks it. */
PL_INTERNAL int drm_phase_now(const pl_drm *d);

PL_INTERNAL pl_status drm_topology_init(pl_drm *d, const pl_topology *topo);
PL_INTERNAL int64_t drm_free_amount(const pl_topology *topo, const drm_taken *tk, int32_t v,
                                    pl_resource res);
PL_INTERNAL pl_status drm_pick_cpu(const pl_topology *topo, drm_taken *tk, int32_t machine,
                                   int64_t cores, int64_t memory);
/* A GPU under server with a free unit that is not one of held[nheld] (the
 * GPUs the job already got: a job never holds one GPU twice); -1 if none. */
PL_INTERNAL int32_t drm_pick_gpu(const pl_topology *topo, drm_taken *tk, int32_t server,
                                 const pl_drm_gpu *held, int32_t nheld);
/* How many GPUs under server have a free unit (after the takes in tk). */
PL_INTERNAL pl_status drm_distinct_gpus(const pl_topology *topo, const drm_taken *tk, int32_t server,
                                        int32_t *count);
PL_INTERNAL int32_t drm_pick_nvme(const pl_topology *topo, drm_taken *tk, int32_t server,
                                  int64_t bw, int64_t bytes);
PL_INTERNAL pl_status drm_result_reset(pl_drm *d, const pl_drm_job_request *reqs, int32_t n);
PL_INTERNAL void drm_result_release(pl_drm *d);
/* Bind this round's requests to job-table entries (created for new ids) and
 * drop the entries (and their network nodes) of ids absent from the round. */
PL_INTERNAL pl_status drm_bind_requests(pl_drm *d, const pl_drm_job_request *reqs, int32_t n);
PL_INTERNAL pl_status drm_apply(pl_topology *topo, const drm_taken *tk);
PL_INTERNAL pl_status drm_entry_get(pl_drm *d, int64_t id, int32_t *idx);
PL_INTERNAL pl_status drm_check_requests(const pl_drm_job_request *reqs, int32_t n);
/* Whether job id was placed by this handle with job's tasks and GPUs and is
 * still in its networks, i.e. may be passed as a running request. */
PL_INTERNAL int drm_kept(const pl_drm *d, int64_t id, const pl_job *job);

/* Remote-GPU slowdown factors of a workload type at network load 0 and 1
 * (an unknown or NULL type: the mean of the table). */
PL_INTERNAL void pl_drm_network_factors(const char *type, double *sf0, double *sf1);

/* Slowdown (>= 1) of a Rodinia job of workload `type` while a Rodinia job
 * of workload `other` holds a GPU under the same socket (PCIe contention,
 * doc/drmaestro.md "Co-location"); 1 when either is not a Rodinia type. */
PL_INTERNAL double pl_drm_coloc_slowdown(const char *type, const char *other);
/* Whether the tables above know the workload type (a Rodinia application). */
PL_INTERNAL int pl_drm_network_known(const char *type);

#endif
