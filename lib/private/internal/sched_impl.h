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
/* Place with instance p from now on (taken over; the one kept before is
 * freed): for a policy the registry does not list (pl_policy_create_ops()).
 * pl_sched_place() keeps it while opts->policy names it. */
PL_INTERNAL void pl_sched_use_policy(pl_sched *s, pl_policy *p);

#endif
