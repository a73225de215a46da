/* The GPU-sharing cluster model of the ATC'23 fragmentation paper (Weng et
 * al., "Beware of Fragmentation"; its simulator hkust-adsl/kubernetes-
 * scheduler-simulator), shared by the policies fgd, random-fit, dotprod,
 * gpu-clustering, gpu-packing, bestfit, fgd-coarse, fgd-balance, fgd-price (one file each) and
 * by the saturation driver of lib/sim (not installed).
 *
 * A node is a machine reduced to what those policies score: CPU millicores
 * and memory left, and the milli left on each of its GPUs (1000 = idle),
 * all of one model. A pod is one request: n whole GPUs, or a share (1..999
 * milli) of one GPU, or no GPU; CPU millicores, memory, accepted models.
 * A policy scores every node that can hold the pod as the peer's
 * Kubernetes score plugins do (integers 0..100) and the node with the best
 * score wins, a tie going to the first node in a fixed node order (the
 * peer's: its nodes are named by a seeded random permutation);
 * the GPUs inside the node are then chosen by the policy or by best fit.
 * Placing a pod is O(nodes x GPUs per node), the fragmentation of a node
 * state is memoised. */
#ifndef PL_POLICY_FRAG_H
#define PL_POLICY_FRAG_H

#include <stdint.h>
#include <placement/policy.h>
#include "internal/core.h"

#define PL_FRAG_MAXG 16      /* GPUs per node the model keeps (openb: 8) */
#define PL_FRAG_MAXMODELS 63 /* distinct GPU models in a cluster */
#define PL_FRAG_NTAGS (PL_FRAG_MAXG + 1) /* gpu-clustering tags: shared, 1..MAXG GPUs */

typedef struct pl_fpod {
    int64_t cpu;        /* millicores */
    int64_t mem;        /* bytes */
    int32_t ngpu;       /* GPUs: 0 (CPU only), 1 (whole or shared), n whole */
    int32_t milli;      /* per GPU: 1000 whole, 1..999 shared, 0 none */
    uint64_t models;    /* accepted model ids (bit i: model i) when !any */
    int any;            /* 1: no model requirement */
} pl_fpod;

typedef struct pl_fnode {
    int64_t cpu_left, cpu_cap;
    int64_t mem_left, mem_cap;
    int32_t ngpu;
    int32_t model;              /* model id of its first GPU, -1: none (matches no requirement) */
    int32_t gmodel[PL_FRAG_MAXG];/* model id of each GPU (a machine may mix models) */
    int mixed;                  /* 1: its GPUs are not all of one model */
    int32_t left[PL_FRAG_MAXG]; /* milli left per GPU, in the machine's GPU order */
    int32_t tags[PL_FRAG_NTAGS];/* GPU pods by gpu-clustering tag */
    int32_t ntags;              /* tags present */
    int frag_ok;                /* frag below is the current state's */
    double frag;
    /* topology view only: where the node's GPUs and cores are */
    int32_t vertex, pkg;
    int32_t gpu_vertex[PL_FRAG_MAXG];
} pl_fnode;

/* One entry of the workload's distribution of requests (the peer's
 * "typical pods"). The accepted models are kept as a mask. */
typedef struct pl_ftypical {
    pl_fpod pod;
    double freq;
} pl_ftypical;

typedef struct pl_fmemo_slot {
    uint64_t key[4];     /* node state packed (see frag.c) */
    double frag;
    int used;
} pl_fmemo_slot;

typedef struct pl_fstate {
    pl_fnode *node;
    int32_t nnode;
    char *model_name[PL_FRAG_MAXMODELS];
    int32_t nmodel;
    pl_ftypical *typ;
    int32_t ntyp;
    pl_fmemo_slot *memo;  /* open addressing, power-of-two slots */
    int64_t nmemo, memo_used;
    uint64_t rng;         /* splitmix64 */
    int32_t *order;       /* the node order ties are broken in (NULL: index order; not owned) */
    int32_t *cand;        /* scratch [nnode] */
    int64_t *score;       /* scratch [nnode] */
    int32_t *cgpu;        /* scratch [nnode]: the GPU a score chose (-1: best fit) */
    int64_t total_milli;  /* GPU milli of the cluster */
    int64_t used_milli;   /* GPU milli allocated */
    double cpu_per_milli; /* CPU millicores the request distribution asks per GPU milli (its GPU pods) */
    /* Share of each model's GPU milli that the pods requiring a model set
     * (spread over the set by capacity) would need once the arrived demand
     * reaches the cluster's GPUs, capped at 1 (0: no pod requires it). */
    double model_pressure[PL_FRAG_MAXMODELS];
    /* [1001] or NULL: the milli of a GPU gap of g milli that the request
     * distribution cannot fill even packed optimally (frag_prices.c). */
    double *gap_waste;
} pl_fstate;

/* A placement inside the state: node and GPU indices (ngpu of them). */
typedef struct pl_fchoice {
    int32_t node;
    int32_t ngpu;
    int32_t gpu[PL_FRAG_MAXG];
} pl_fchoice;

/* A policy's node score: *score in 0..100 (higher wins) for a node that
 * fits; *gpu the GPU a shared pod should take, or -1 for best fit. */
typedef void (*pl_fscore_fn)(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *score, int32_t *gpu);

typedef struct pl_fpolicy {
    const char *name;
    pl_fscore_fn score;   /* NULL: uniformly random feasible node (random-fit) */
    int normalize;        /* 1: min-max normalise the scores to 0..100 first (bestfit) */
    int uses_typical;     /* 1: needs the request distribution (fgd and ours); 2: and its
                           * packing prices (pl_fstate_set_prices) */
} pl_fpolicy;

/* ---- the model (frag.c) ----------------------------------------------------------- */

PL_INTERNAL void pl_fstate_free(pl_fstate *s);
/* Model id of name, added when new (-1 when the table is full). */
PL_INTERNAL int32_t pl_fstate_model(pl_fstate *s, const char *name);
/* Accepted models of "A|B|C" ("" or NULL: any) into p. */
PL_INTERNAL void pl_fstate_pod_models(pl_fstate *s, const char *spec, pl_fpod *p);
/* 1 if node n can hold p now (CPU, memory, GPU model, GPUs). */
PL_INTERNAL int pl_fnode_fits(const pl_fnode *n, const pl_fpod *p);
/* The peer's node fragmentation (milli GPU) against s->typ. */
PL_INTERNAL double pl_frag_of(pl_fstate *s, const pl_fnode *n);
/* pl_frag_of() of the current state, cached in the node. */
PL_INTERNAL double pl_frag_node(pl_fstate *s, pl_fnode *n);
/* n after p takes GPU g (a shared pod) or its whole GPUs (first idle ones). */
PL_INTERNAL void pl_fnode_sub(pl_fnode *n, const pl_fpod *p, int32_t g);

/* A node state's value to a gradient policy (FGD: its fragmentation). */
typedef double (*pl_fvalue_fn)(pl_fstate *s, pl_fnode *n);
/* A decrease of value as the policy compares it (FGD: its integer score). */
typedef double (*pl_fquantize_fn)(double decrease);
/* The largest decrease of value (quantize(decrease) when quantize is not
 * NULL) from node n to a state the pod may leave: for a fractional pod each
 * GPU it fits (the first of GPUs with as much left, which give the same
 * state, and the first of equal decreases; *gpu receives it; 0 and -1 if
 * none fits), else the one state (*gpu -1). The core of the gradient
 * policies' scores. */
PL_INTERNAL double pl_fgrad_best(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, pl_fvalue_fn value,
                                 pl_fquantize_fn quantize, int32_t *gpu);
/* Best-fit GPUs of p on n (the peer's default GPU selection) into c. */
PL_INTERNAL void pl_fnode_pick_gpus(const pl_fnode *n, const pl_fpod *p, int32_t g, pl_fchoice *c);
/* The distribution of requests of pods[0..n) (the peer's typical pods: the
 * most frequent request kinds covering threshold of the pods, renormalised). */
PL_INTERNAL pl_status pl_fstate_set_typical(pl_fstate *s, const pl_fpod *pods, int32_t n, double threshold);
/* s->gap_waste from pods[0..n), the request distribution: the cutting-stock
 * LP's prices of its GPU request sizes (frag_prices.c; GLPK). PL_ENOMEM, or
 * PL_EINTERNAL if GLPK fails; allocated once, freed by pl_fstate_free(). */
PL_INTERNAL pl_status pl_fstate_set_prices(pl_fstate *s, const pl_fpod *pods, int32_t n);
/* Sum of s->gap_waste over n's GPUs (0 without prices). */
PL_INTERNAL double pl_fnode_gap_waste(const pl_fstate *s, const pl_fnode *n);
/* fgd-balance's value of a node state (fgd_balance.c): fragmentation plus
 * stranded milli minus reserved models, milli. */
PL_INTERNAL double pl_fbalance_value(pl_fstate *s, pl_fnode *n);
/* Choose where p goes under pol (c->node -1: nowhere). */
PL_INTERNAL pl_status pl_fstate_choose(pl_fstate *s, const pl_fpolicy *pol, const pl_fpod *p, pl_fchoice *c);
/* Allocate p as chosen, and give it back. */
PL_INTERNAL void pl_fstate_apply(pl_fstate *s, const pl_fpod *p, const pl_fchoice *c);
PL_INTERNAL void pl_fstate_release(pl_fstate *s, const pl_fpod *p, const pl_fchoice *c);
/* Cluster fragmentation (milli) and idle milli. */
PL_INTERNAL void pl_fstate_frag_total(pl_fstate *s, double *frag, double *idle);
/* The fast policies by name (NULL if name is not one of them), and all. */
PL_INTERNAL const pl_fpolicy *pl_fpolicy_find(const char *name);
PL_INTERNAL const pl_fpolicy *pl_fpolicy_at(int i);

/* ---- the library policies over a topology (frag_view.c) --------------------------- */

/* A pod of job: its whole-GPU tasks, or its one fractional task, and its
 * CPU-only tasks, all on one node (PL_EINVAL with a reason otherwise);
 * whole_cores: each task's CPU rounded up to whole cores (what
 * pl_decision_apply() allocates), else exact millicores. */
PL_INTERNAL pl_status pl_fpod_from_job(pl_fstate *s, const pl_job *job, int whole_cores, pl_fpod *p);
/* place() of a registered policy: the topology seen as nodes, each queued
 * job a pod decided in queue order (decisions see each other). */
/* s->node (and the scratch arrays) from the machines of t, models too. */
PL_INTERNAL pl_status pl_fstate_from_topology(pl_fstate *s, const pl_topology *t);
PL_INTERNAL pl_status pl_fpolicy_place(const pl_fpolicy *pol, const pl_policy_request *req, pl_decision *out);
/* The ops table of a registered policy over pol (place: pl_fpolicy_place). */
#define PL_FPOLICY_OPS(var, fpol, pname, desc)                                                          \
    static pl_status var##_place(const pl_policy_request *req, pl_decision *out)                 \
    {                                                                                            \
        return pl_fpolicy_place(&(fpol), req, out);                                              \
    }                                                                                            \
    const pl_policy_ops var = {.name = (pname),     .description = (desc), .place = var##_place, \
                               .version = PL_POLICY_OPS_VERSION, .flags = PL_POLICY_CPU_JOBS}

/* ---- the policies (one file each) ------------------------------------------------- */

extern const pl_fpolicy pl_fpolicy_fgd, pl_fpolicy_random_fit, pl_fpolicy_dotprod,
    pl_fpolicy_gpu_clustering, pl_fpolicy_gpu_packing, pl_fpolicy_bestfit, pl_fpolicy_fgd_coarse,
    pl_fpolicy_fgd_balance, pl_fpolicy_fgd_price;
/* Ours beside FGD (fgd_balance.c, fgd_price.c); the registry's builtin table names them. */

/* The peer's constants: the largest node it normalises against. */
#define PL_FRAG_MAX_CPU 128000.0
#define PL_FRAG_MAX_GPU 8000.0

#endif
