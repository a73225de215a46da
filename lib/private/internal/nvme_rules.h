/* The NVMe composition rules of seed 001 (Call thesis, Algorithms 1-4 and
 * Eq. 4.4; lib/disagg) as placement policies: lib/policy/policies/nvme_rules.c.
 * Internal: the registry does not list them (they place one-task jobs of
 * NVMe, vGPU and compute demands only, where every listed policy takes jobs
 * of whole GPUs);
 * the simulator's NVMe experiments run them through pl_sim's event loop. */
#ifndef PL_INTERNAL_NVME_RULES_H
#define PL_INTERNAL_NVME_RULES_H

#include <placement/policy.h>
#include <placement/disagg.h>
#include "internal/core.h"

/* pl_job workload types the rules read as performance models (any other
 * type runs its base time, ::PL_DISAGG_MODEL_NONE). */
#define PL_NVME_TYPE_SMUFIN "smufin"
#define PL_NVME_TYPE_FIO "fio"
#define PL_NVME_TYPE_YOLO "yolo"
/* pl_job workload size of a high-priority workload (else "regular"). */
#define PL_NVME_SIZE_HIGH "high"

/* What rule chose for queued job q of a call, for the owner of the live
 * cluster to apply when the job is committed. */
typedef struct pl_nvme_choice {
    int placed;
    pl_disagg_workload w;
    pl_disagg_decision d;
} pl_nvme_choice;

#define PL_POLICY_EXT_NVME ((pl_policy_ext_kind)0x5a030004)

/* pl_policy_opts.policy_opts of the rules. */
typedef struct pl_nvme_rule_opts {
    pl_policy_ext_kind kind;        /* PL_POLICY_EXT_NVME */
    /* The live state of the storage fabric (compositions, their sharers and
     * predicted ends), read only; NULL: each call sees what the topology
     * has free (pl_disagg_cluster_view_free(): no composition carries over). */
    const pl_disagg_cluster *live;
    pl_nvme_choice *choices;        /* [cap] filled by queue position, or NULL */
    int32_t cap;
} pl_nvme_rule_opts;

PL_INTERNAL void pl_nvme_rule_opts_init(pl_nvme_rule_opts *o);

/* The policy table of rule p, named "nvme-first-fit", "nvme-max-composition",
 * "nvme-min-fragmentation", "nvme-disagg-aware", "nvme-gpu-aware"; NULL for
 * another value. */
PL_INTERNAL const pl_policy_ops *pl_nvme_rule_ops(pl_disagg_policy p);

/* The workload a job describes: one task; base time = its duration; cores,
 * memory, NVMe bandwidth and capacity from the task; a task with a GPU share
 * (gpu_milli > 0) asks a vGPU of its bandwidth and gpu_memory; the model
 * from its workload type; the deadline = arrival + SLO (none: infinite).
 * PL_EINVAL with a message for a job the rules cannot place (several
 * tasks, whole GPUs, no duration). */
PL_INTERNAL pl_status pl_nvme_job_workload(const pl_job *job, pl_disagg_workload *w);

#endif
