/* The GPU usage-pattern table (lib/gpuqos/usage_table.c; doc/simulator.md
 * sec. 3c, doc/policies.md sec. 4e): one GPU iteration (placement/gpuqos.h's
 * pl_gpu_trace) per workload type, the built-in Table 5.1 models (seed 003
 * ch. 5) plus those of a CSV, and the device-side factor of two co-tenants
 * from pl_gpu_simulate(). The simulator's usage model and gpu-qos's
 * PL_GPU_QOS_MODEL_USAGE predictor both read it. */
#ifndef PL_GPU_USAGE_H
#define PL_GPU_USAGE_H

#include <placement/gpuqos.h>
#include "internal/core.h"

/* Iterations of the built-in models: 10 kernels (tests/data/kim/README.md). */
#define PL_GPU_USAGE_KERNELS 10
/* A pair is replayed for this many periods of its longer iteration. */
#define PL_GPU_USAGE_PERIODS 1000

typedef struct pl_gpu_usage_class {
    char *name;               /* the workload type (pl_job_workload_type()) */
    pl_gpu_call *calls;       /* [ncalls], owned */
    int64_t ncalls, cap;
    double end_s;             /* end of the last call so far (parsing) */
    pl_gpu_trace trace;       /* points into calls */
} pl_gpu_usage_class;

typedef struct pl_gpu_usage {
    pl_gpu_usage_class *c;
    int64_t n, cap;
    double *factor;           /* [n * n] pl_gpu_usage_factor()'s replays, NAN until asked; NULL until then */
} pl_gpu_usage;

/* The built-in models, then the CSV at path (NULL: none); a CSV workload
 * named as a built-in one replaces it. PL_EIO, PL_EPARSE (names file, line,
 * column), PL_ENOMEM. */
PL_INTERNAL pl_status pl_gpu_usage_load(const char *path, pl_gpu_usage **out);
/* Same from CSV text (source names it in messages). */
PL_INTERNAL pl_status pl_gpu_usage_load_text(const char *text, const char *source, pl_gpu_usage **out);
PL_INTERNAL void pl_gpu_usage_free(pl_gpu_usage *u);
/* Class of a workload type (exact name), or -1 (NULL type: -1). */
PL_INTERNAL int32_t pl_gpu_usage_find(const pl_gpu_usage *u, const char *workload);
/* Iteration time of classes a and b replayed together on one GPU over
 * each one's solo iteration time (>= 1): *fa for a, *fb for b. The two are
 * replayed in the order (min, max) of the class indices; a == b gives both
 * the mean of the two copies' factors (the replay's tie at time 0 favours
 * the first). Errors of pl_gpu_simulate(). */
PL_INTERNAL pl_status pl_gpu_usage_pair(const pl_gpu_usage *u, int32_t a, int32_t b, double *fa, double *fb);
/* pl_gpu_usage_pair()'s *fa, replayed at the pair's first question and
 * kept in u (both orders at once), so a caller asking for the same pairs
 * over and over (a policy instance's rounds) replays each once. Not for a
 * table read by several threads at once. PL_ENOMEM, errors of
 * pl_gpu_simulate(). */
PL_INTERNAL pl_status pl_gpu_usage_factor(pl_gpu_usage *u, int32_t a, int32_t b, double *fa);

#endif
