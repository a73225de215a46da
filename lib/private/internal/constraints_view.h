/* The constraint module's view of a topology and the jobs on it (not
 * installed; lib/constraints/topology_view.c): the machines of a
 * pl_topology as the thesis's nodes (placement/constraint_sets.h) and the
 * jobs' tasks as its units, shared by pl_job_check_constraints() and the
 * policies built on the ch. 4 algorithms (lib/policy).
 *
 * Units: first one "busy" unit per host whose GPUs are partly taken (its
 * demand is what is taken, pinned to its host, so that the host counts as
 * active and its free room is right), then the tasks of each job in order.
 * Demands are in GPUs (one per task: the policies' rule); a host holds as
 * many as it has GPUs. Attributes are the host vertices' own. */
#ifndef PL_CONSTRAINTS_VIEW_H
#define PL_CONSTRAINTS_VIEW_H

#include <placement/job.h>
#include <placement/constraint_sets.h>
#include "internal/core.h"

typedef struct pl_cview_spec {
    const pl_topology *topo;
    const int32_t *hosts;          /* [nhosts] machine vertices */
    const double *slots;           /* [nhosts] GPUs of each host */
    int32_t nhosts;
    const double *busy;            /* [nhosts] GPUs already taken; NULL: none */
    const pl_job *const *jobs;     /* [njobs] */
    int32_t njobs;
    const uint8_t *one_machine;    /* [njobs] all tasks on one machine; NULL: each job's single-node flag */
    const uint8_t *avoid_busy;     /* [njobs * nhosts] job j must not share host h with what runs there; NULL: none */
} pl_cview_spec;

typedef struct pl_cview {
    pl_cview_spec spec;            /* borrowed arrays */
    pl_cnodes *nodes;              /* node h = host h */
    pl_constraints *c;
    int32_t nunits;
    int32_t *unit_job;             /* [nunits] job index, -1 for a busy unit */
    int32_t *unit_task;            /* [nunits] task, or the host of a busy unit */
    int32_t *first_unit;           /* [njobs + 1] units of job j: first_unit[j] .. first_unit[j + 1] - 1 */
    int32_t *busy_unit;            /* [nhosts] busy unit of host h, -1 */
} pl_cview;

/* Build the view of spec (its arrays borrowed, to outlive the view) into
 * *out, the caller's to free with pl_cview_free(): PL_OK, PL_ENOMEM,
 * PL_EINVAL (too many tasks), or the errors of the topology queries. */
PL_INTERNAL pl_status pl_cview_build(const pl_cview_spec *spec, pl_cview **out);
PL_INTERNAL void pl_cview_free(pl_cview *v);

/* One conflict of the view's last resolve, in job terms, into buf. */
PL_INTERNAL void pl_cview_describe(const pl_cview *v, const pl_conflict *f, char *buf, size_t size);

/* The hosts of the library's policies: the machine vertices of topo with at
 * least one GPU (*hosts) and their GPU counts (*gpus), both malloc'ed. */
PL_INTERNAL pl_status pl_cview_machines(const pl_topology *topo, int32_t **hosts, double **gpus,
                                        int32_t *n);

/* Resolve job alone (one_machine: all its tasks on one machine) on the
 * hosts: PL_OK, or PL_EINFEASIBLE with every conflict described in reason
 * ("; "-separated, truncated to size) and the message set; the first cap
 * conflicts (classes and units as tasks) into conflicts, all counted. */
PL_INTERNAL pl_status pl_cview_check_job(const pl_topology *topo, const int32_t *hosts,
                                         const double *slots, int32_t nhosts, const pl_job *job,
                                         int one_machine, char *reason, size_t size,
                                         pl_conflict *conflicts, int32_t cap, int32_t *count);

#endif
