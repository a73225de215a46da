/* The state of a "sa-placement" call (not installed): the jobs in the
 * objective's scope (running ones, then the admitted queued ones), their
 * current GPUs and predicted run times, and who is on each machine. */
#ifndef PL_POLICY_SA_PLACEMENT_H
#define PL_POLICY_SA_PLACEMENT_H

#include <placement/coloc.h>
#include "gpu_pick.h"

typedef struct sa_job {
    const pl_job *job;
    int32_t qi;            /* queue index, -1 for a running job */
    int32_t k;
    int32_t cls;           /* profile class: (type, size, k) */
    int32_t cfg;           /* current configuration, -1: none (running, or not placed) */
    int32_t *gpus;         /* [k] current GPUs */
    pl_plan_item *plan;    /* what it holds in the work topology (queued jobs) */
    int32_t nplan;
    double logr;           /* log of its predicted run time now */
    int32_t ncfg;          /* candidate configurations: a machine, a shape, a first socket */
    int32_t *cfg_mach;
    uint8_t *cfg_shape;
    int32_t *cfg_first;
} sa_job;

typedef struct sa_class {
    const char *type, *size;
    int32_t k;
} sa_class;

typedef struct sa_state {
    pl_pctx *c;
    const pl_sa_policy_opts *o;
    const pl_coloc_model *model; /* PL_SA_MODEL_TREE: the learned slowdowns, else NULL */
    sa_job *j;
    int32_t n;
    int32_t **mj;          /* per machine: the jobs holding a GPU on it */
    int32_t *nmj, *capmj;
    sa_class *cls;
    int32_t ncls;
    double *solo;          /* [ncls * 2] per spread, NAN until asked */
    double *slow;          /* [ncls * ncls] profile slowdown of a next to b, NAN until asked */
    int32_t ncls_cap;
    uint8_t *mark;         /* [n] scratch */
    int32_t *list;         /* [n] scratch */
    const pl_job **co;     /* [n] predictor query buffers */
    int32_t *co_k;
} sa_state;

/* Add a job to the scope (its class, its slot in the per-machine lists
 * when it holds GPUs already: running jobs). */
PL_INTERNAL pl_status sa_add_job(sa_state *s, const pl_job *job, int32_t qi, const int32_t *gpus,
                                 int32_t k, int32_t *id);
PL_INTERNAL void sa_state_free(sa_state *s);

/* Record that job a now holds / no longer holds its GPUs (per-machine lists). */
PL_INTERNAL pl_status sa_enter(sa_state *s, int32_t a);
PL_INTERNAL void sa_leave(sa_state *s, int32_t a);

/* Predicted log run time of job a on its current GPUs with its current
 * co-runners; *log_solo (may be NULL) gets the log of its solo time there. */
PL_INTERNAL pl_status sa_predict(sa_state *s, int32_t a, double *logr, double *log_solo);

/* Recompute logr of every job on the given machines (n of them, repeats
 * allowed); *delta = new sum - old sum. The old values go to saved_id /
 * saved_logr (cap s->n each), *nsaved their count, for sa_restore(). */
PL_INTERNAL pl_status sa_refresh(sa_state *s, const int32_t *machines, int32_t n, double *delta,
                                 int32_t *saved_id, double *saved_logr, int32_t *nsaved);
PL_INTERNAL void sa_restore(sa_state *s, const int32_t *saved_id, const double *saved_logr,
                            int32_t nsaved);

/* ---- the learned model (sa_tree.c) ---- */

/* Features of a (job class, co-runner class) pair: 5 per class. */
#define SA_TREE_FEATURES 10

/* A class's 5 features from the profile set: k, its solo time on k GPUs
 * (intra-socket, else inter), on 1 GPU, their ratio, and inter- over
 * intra-socket solo time on 2 GPUs (0 where not profiled). 0 when the class
 * has no solo time on k GPUs (unprofiled: no features), else 1. */
PL_INTERNAL int sa_tree_class_features(const pl_profile_set *ps, const char *type, const char *size, int32_t k,
                                       double *f);

/* The training set: every measured pair whose two classes are profiled,
 * in a fixed order (job then neighbour: type, size, k); x [n *
 * SA_TREE_FEATURES], y [n] = co-located over intra-socket solo time (the
 * lookup's slowdown, not clamped). Caller frees x and y. PL_ENOMEM. */
PL_INTERNAL pl_status sa_tree_samples(const pl_profile_set *ps, double **x, double **y, int64_t *n);

/* The bagged REPTree model (coloc's default options) on those samples.
 * PL_EINVAL when there is none; PL_ENOMEM. */
PL_INTERNAL pl_status sa_tree_train(const pl_profile_set *ps, pl_coloc_model **out);

/* The model's slowdown of class a next to class b (not clamped); 1 when
 * either class is unprofiled. */
PL_INTERNAL pl_status sa_tree_slowdown(const pl_coloc_model *m, const pl_profile_set *ps, const sa_class *a,
                                       const sa_class *b, double *sd);

#endif
