/* The placement constraints of a job as other modules read them (not
 * installed): the constraint module's topology view (lib/constraints/
 * topology_view.c) turns them into its model, and the policies group tasks
 * by them. Defined in lib/jobgraph/job_constraints.c. Node Must / MustNot
 * rules are public (pl_job_node_constraint()). */
#ifndef PL_JOB_CONSTRAINTS_H
#define PL_JOB_CONSTRAINTS_H

#include <placement/job.h>
#include "internal/core.h"

/* Classes of job's tasks under "must share a machine": its collocation
 * pairs, and all tasks when one_machine; as pl_job_task_classes(). */
PL_INTERNAL int32_t pl_job_collocation_classes(const pl_job *job, int one_machine, int32_t *cls);

/* The job's task-to-task Must pairs (pl_job_add_collocation()) and
 * anti-collocated pairs (pl_job_add_anti_collocation()) in adding order,
 * each a < b, no duplicates; *n of them (0 and NULL for a NULL job). Owned
 * by the job, valid until it changes. */
PL_INTERNAL const int32_t (*pl_job_collocation_pairs(const pl_job *job, int64_t *n))[2];
PL_INTERNAL const int32_t (*pl_job_anti_collocation_pairs(const pl_job *job, int64_t *n))[2];

/* The node filter's machine names (pl_job_set_node_filter()), *n of them;
 * *n = 0 when the job has none. Owned by the job. */
PL_INTERNAL const char *const *pl_job_node_filter(const pl_job *job, int32_t *n);

#endif
