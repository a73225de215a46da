/* The simulator's usage-pattern table (doc/simulator.md sec. 3c): one GPU
 * iteration (placement/gpuqos.h's pl_gpu_trace) per workload type, the
 * built-in Table 5.1 models (seed 003 ch. 5) plus those of a CSV, and the
 * device-side factor of two co-tenants from pl_gpu_simulate(). */
#ifndef PL_SIM_USAGE_H
#define PL_SIM_USAGE_H

#include <placement/gpuqos.h>
#include "internal/core.h"

/* Iterations of the built-in models: 10 kernels (tests/data/kim/README.md). */
#define PL_SIM_USAGE_KERNELS 10
/* A pair is replayed for this many periods of its longer iteration. */
#define PL_SIM_USAGE_PERIODS 1000

typedef struct pl_sim_usage_class {
    char *name;               /* the workload type (pl_job_workload_type()) */
    pl_gpu_call *calls;       /* [ncalls], owned */
    int64_t ncalls, cap;
    double end_s;             /* end of the last call so far (parsing) */
    pl_gpu_trace trace;       /* points into calls */
} pl_sim_usage_class;

typedef struct pl_sim_usage {
    pl_sim_usage_class *c;
    int64_t n, cap;
} pl_sim_usage;

/* The built-in models, then the CSV at path (NULL: none); a CSV workload
 * named as a built-in one replaces it. PL_EIO, PL_EPARSE (names file, line,
 * column), PL_ENOMEM. */
PL_INTERNAL pl_status pl_sim_usage_load(const char *path, pl_sim_usage **out);
/* Same from CSV text (source names it in messages). */
PL_INTERNAL pl_status pl_sim_usage_load_text(const char *text, const char *source, pl_sim_usage **out);
PL_INTERNAL void pl_sim_usage_free(pl_sim_usage *u);
/* Class of a workload type (exact name), or -1 (NULL type: -1). */
PL_INTERNAL int32_t pl_sim_usage_find(const pl_sim_usage *u, const char *workload);
/* Iteration time of classes a and b replayed together on one GPU over
 * each one's solo iteration time (>= 1): *fa for a, *fb for b. The two are
 * replayed in the order (min, max) of the class indices; a == b gives both
 * the mean of the two copies' factors (the replay's tie at time 0 favours
 * the first). Errors of pl_gpu_simulate(). */
PL_INTERNAL pl_status pl_sim_usage_pair(const pl_sim_usage *u, int32_t a, int32_t b, double *fa, double *fb);

#endif
