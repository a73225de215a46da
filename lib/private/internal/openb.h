/* Alibaba's GPU cluster trace 2023 ("openb", Weng et al., ATC'23) and the
 * paper's saturation protocol (not installed: the public export budget is
 * spent; the CLI, the tests and bench/openb link the static archive).
 *
 * Node list (sn,cpu_milli,memory_mib,gpu,model) -> a pl_topology: a root
 * "openb" with one machine per node: package0 (cpu_milli / 1000 cores),
 * numa0 under it (memory), gpu0..gpuN-1 under the package (PCIe links),
 * and the machine attribute "gpu_model" (job.h's model rule).
 * Pod list (name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,qos,
 * pod_phase,creation_time,deletion_time,scheduled_time]) -> one job per
 * pod: num_gpu tasks of one whole GPU (gpu_milli 1000), or one fractional
 * task (num_gpu 1, gpu_milli < 1000), or one CPU-only task (num_gpu 0);
 * the pod's CPU and memory on its first task; gpu_spec as the job's model
 * requirement. Bad rows: PL_EPARSE "FILE:LINE: column 'NAME': ...". */
#ifndef PL_SIM_OPENB_H
#define PL_SIM_OPENB_H

#include <stdio.h>
#include <placement/placement.h>
#include "internal/core.h"

typedef struct pl_openb_pods {
    pl_jobset *jobs;
    double *creation;   /* [n] seconds (0 when the column is absent) */
    double *deletion;   /* [n] seconds, NAN: never (empty or absent) */
    int32_t n;
} pl_openb_pods;

PL_INTERNAL pl_status pl_openb_load_nodes(const char *path, pl_topology **out);
PL_INTERNAL pl_status pl_openb_load_nodes_string(const char *text, const char *source, pl_topology **out);
PL_INTERNAL pl_status pl_openb_load_pods(const char *path, pl_openb_pods *out);
PL_INTERNAL pl_status pl_openb_load_pods_string(const char *text, const char *source, pl_openb_pods *out);
PL_INTERNAL void pl_openb_pods_free(pl_openb_pods *p);

/* ---- the saturation experiment (saturate.c) ----------------------------------------- */

typedef struct pl_saturate_opts {
    const char *policy;   /* a fast policy (frag.h): fgd, random-fit, ..., fgd-coarse */
    double inflate;       /* arrived GPU demand to reach, x the cluster's GPUs (default 1.3) */
    uint64_t seed;        /* sampling and tie-breaking (default 42) */
    double typical;       /* share of pods the request distribution covers (default 0.95) */
    int timeline;         /* 1: the trace's own timeline instead (creation/deletion times) */
} pl_saturate_opts;

typedef struct pl_saturate_result {
    int32_t npoints;      /* saturation: points 0 .. inflate x 100 % of arrived demand */
    double *alloc;        /* [npoints] GPU allocation ratio, % of the cluster's GPU milli */
    double *frag;         /* [npoints] fragmented share of the idle GPU milli, % */
    int64_t pods, placed, failed;
    double seconds;       /* placing them (decisions and bookkeeping), wall clock */
    /* timeline: one sample per event */
    int64_t nsamples;
    double *time, *talloc;
} pl_saturate_result;

PL_INTERNAL void pl_saturate_opts_init(pl_saturate_opts *o);
PL_INTERNAL pl_status pl_saturate_run(const pl_topology *t, const pl_openb_pods *pods, const pl_saturate_opts *o,
                                      pl_saturate_result *res);
PL_INTERNAL void pl_saturate_result_free(pl_saturate_result *r);

#endif
