/**
 * \file placement/two_level.h
 * \brief Options of the "two-level" policy (Kim thesis ch. 3): platform
 *        affinity, then co-runner affinity (doc/policies.md sec. 4e).
 */
#ifndef PLACEMENT_TWO_LEVEL_H
#define PLACEMENT_TWO_LEVEL_H

#include <stdint.h>
#include <placement/status.h>
#include <placement/topology.h>
#include <placement/job.h>
#include <placement/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \addtogroup pl_policy_ext
 *  @{ */

/** Machine attribute naming the platform of a machine for "two-level" (e.g. "gene"). */
#define PL_TWO_LEVEL_PLATFORM_ATTR "platform"

/**
 * Options of "two-level"; initialise with pl_two_level_opts_init().
 *
 * The platform type of a machine is its attribute ::PL_TWO_LEVEL_PLATFORM_ATTR
 * ("platform", pl_topology_set_attr() or a JSON "attrs" object) when set,
 * else its name without trailing digits ("gene17" -> "gene", the
 * rule before the attribute existed; doc/policies.md sec. 4e). The table gives t_K(P), the mean run
 * time of one task of workload type K alone on one GPU of platform P (the
 * thesis's OneCore runtime, Table 3.3), from which the platform affinity is
 * computed. Without a table, or with fewer than two of its platforms in the
 * topology, every platform is as good as any other for every workload.
 */
typedef struct pl_two_level_opts {
    pl_policy_ext_kind kind;        /**< ::PL_POLICY_EXT_TWO_LEVEL (set by the init function). */
    int32_t nplatforms;             /**< Columns of the table (default 0: no table). */
    const char *const *platforms;   /**< Platform type names, [nplatforms], distinct and non-empty (borrowed). */
    int32_t nworkloads;             /**< Rows of the table (default 0). */
    const char *const *workloads;   /**< Workload types (pl_job_workload_type()), [nworkloads], distinct (borrowed). */
    const double *task_runtime_s;   /**< [nworkloads * nplatforms] row-major t_K(P) in seconds, finite and > 0 (borrowed). */
} pl_two_level_opts;

/** \brief Fill \p opts with the defaults listed in ::pl_two_level_opts (no table). */
void pl_two_level_opts_init(pl_two_level_opts *opts);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_TWO_LEVEL_H */
