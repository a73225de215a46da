/* Internal layout of pl_job and pl_jobset (not installed). */
#ifndef PL_JOB_IMPL_H
#define PL_JOB_IMPL_H

#include <placement/job.h>
#include "internal/core.h"
#include "internal/job_slots.h"  /* slot jobs (job_slots.c) */

/* Edge ids incident to one task, so that pl_job_traffic() and the merge in
 * pl_job_add_edge() cost O(degree) rather than O(edges). */
typedef struct pl_job_adj {
    int32_t *edges;
    int64_t n, cap;
} pl_job_adj;

struct pl_job {
    char *name;
    pl_task_demand *tasks;
    pl_job_adj *adj;               /* one per task */
    int64_t ntasks, task_cap, adj_cap;
    pl_job_edge_info *edges;       /* a < b always */
    int64_t nedges, edge_cap;
    int32_t (*anti)[2];            /* anti-collocated pairs, a < b, no duplicates */
    int64_t nanti, anti_cap;
    char **nodes;                  /* node filter; nnodes == 0: none */
    int32_t nnodes;
    /* Placement constraints (job_constraints.c; Kim's thesis ch. 4). */
    struct pl_job_rule *rules;     /* node Must / MustNot in adding order */
    int64_t nrules, rules_cap;
    int32_t (*coloc)[2];           /* task-to-task Must pairs, a < b, no duplicates */
    int64_t ncoloc, coloc_cap;
    char **labels, **avoid;        /* job labels; labels of jobs it must not share a machine with */
    int64_t nlabels, labels_cap, navoid, avoid_cap;
    char *wl_type, *wl_size;       /* NULL: unset */
    char *gpu_model;               /* "A|B" GPU models it accepts, NULL: any */
    double min_utility, slo, arrival, duration;
    int single_node;
    int slot_job;                  /* made by pl_job_slots(): some of its tasks are one multi-GPU task */
    const pl_job *slot_of;         /* a slot job's user job (identity only: a policy that keeps state
                                      per job across rounds keys it by this); NULL otherwise */
    int64_t slot_serial;           /* a slot job the engine keeps across calls: its number in the
                                      instance (slot_cache.c), 0 for one made for a single call */
    const pl_jobset *owner;        /* the set that frees it, NULL when free-standing */
};

typedef struct pl_job_rule {
    int32_t task;                  /* PL_JOB_ALL_TASKS or a task */
    int must_not;
    char *key, *value;
} pl_job_rule;

/* Release the constraint storage (job_destroy) and copy it (pl_job_copy). */
PL_INTERNAL void pl_job_free_constraints(pl_job *job);

/* Traffic weight of an SC17 batch size (seed 002 sec. 5: 4 for "1" down to
 * 1 for "128", 1 for anything else); the CSV/JSON trace loader uses the same
 * rule so that an SC17 workload written as CSV gives the same jobs (sc17.c). */
PL_INTERNAL double pl_sc17_batch_traffic(const char *size);
PL_INTERNAL pl_status pl_job_copy_constraints(const pl_job *src, pl_job *dst);
/* Copy the goals and job-level constraints of src to dst: workload, minimal
 * utility, SLO, arrival, duration, single-node, node filter, labels and
 * anti-affinity (not the GPU model, nor anything per task). */
PL_INTERNAL pl_status pl_job_copy_goals(const pl_job *src, pl_job *dst);

struct pl_jobset {
    pl_job **jobs;
    int64_t n, cap;
};

#endif
