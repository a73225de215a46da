/* What the simulator reads of a pl_sched beyond placement/sched.h. */
#ifndef PL_INTERNAL_SCHED_IMPL_H
#define PL_INTERNAL_SCHED_IMPL_H

#include <placement/sched.h>
#include "internal/policy_impl.h"

/* The resource plan the commit of job id allocated (owned by the handle,
 * valid until the job is released): the simulator's utilisation metrics
 * follow it. PL_ENOTFOUND for an unknown id. */
PL_INTERNAL pl_status pl_sched_job_plan(const pl_sched *s, const char *id, const pl_plan_item **plan,
                                        int32_t *n);

#endif
