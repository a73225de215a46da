/* Placement constraints (placement/job.h, Kim's thesis ch. 4) as every
 * built-in policy checks them: which machines a job or task may use, the
 * one check a candidate placement must pass, and the conflicts that make a
 * job impossible on this topology (REJECTED). The thesis's definitions are
 * lib/constraints', reached through the job model (lib/jobgraph). */
#include <stdio.h>
#include <stdlib.h>
#include "internal/policy_impl.h"
#include "internal/constraints_view.h"
#include "internal/job_constraints.h"

int pl_pctx_task_admits(const pl_pctx *c, const pl_job *job, int32_t task, int32_t mi)
{
    return pl_job_task_admits(job, task, c->work, c->mach[mi].vertex);
}

/* A job without labels and without anti-affinity can neither avoid nor be avoided. */
static int may_avoid(const pl_job *job)
{
    return pl_job_label_count(job) > 0 || pl_job_anti_affinity_count(job) > 0;
}

const pl_job *pl_pctx_machine_avoided(const pl_pctx *c, const pl_job *job, int32_t mi)
{
    if (!may_avoid(job))
        return NULL;
    for (int64_t i = 0; i < c->nmocc[mi]; i++) {
        const pl_job *other = c->occ[c->mocc[mi][i]].job;
        if (pl_job_anti_affine(job, other))
            return other;
    }
    return NULL;
}

int pl_pctx_machine_admits(pl_pctx *c, const pl_job *job, int32_t mi, int32_t k)
{
    if (c->mach[mi].ngpus < k || !pl_job_admits_node(job, c->mach[mi].name))
        return 0;
    if (!pl_job_has_constraints(job))
        return 1;
    for (int32_t t = 0; t < pl_job_task_count(job); t++)
        if (!pl_pctx_task_admits(c, job, t, mi))
            return 0;
    return pl_pctx_machine_avoided(c, job, mi) == NULL;
}

int pl_pctx_machine_usable(pl_pctx *c, const pl_job *job, int32_t mi)
{
    if (!pl_job_admits_node(job, c->mach[mi].name) || pl_pctx_machine_avoided(c, job, mi))
        return 0;
    for (int32_t t = 0; t < pl_job_task_count(job); t++)
        if (pl_pctx_task_admits(c, job, t, mi))
            return 1;
    return 0;
}

/* The machine index of each GPU, or why a GPU has none. */
static const char *machines_of(const pl_pctx *c, const int32_t *gpus, int32_t k, int32_t *mach)
{
    for (int32_t i = 0; i < k; i++) {
        if (gpus[i] < 0 || gpus[i] >= c->nvert || c->gpu_mach[gpus[i]] < 0)
            return "a GPU outside every machine";
        mach[i] = c->gpu_mach[gpus[i]];
    }
    return NULL;
}

static const char *pairs_violation(const pl_pctx *c, const pl_job *job, const int32_t *mach,
                                   int32_t k, int one_machine, char *buf, size_t size)
{
    int32_t *cls = pl_alloc((size_t)k + 1, sizeof *cls);
    if (!cls)
        return "out of memory";
    const char *why = NULL;
    if (pl_job_collocation_classes(job, one_machine, cls) < 0)
        why = "out of memory";
    for (int32_t a = 0; a < k && !why; a++)
        for (int32_t b = a + 1; b < k && !why; b++) {
            if (cls[a] == cls[b] && mach[a] != mach[b]) {
                snprintf(buf, size, "tasks %d and %d must share a machine (%s) but are on %s and %s",
                         (int)a, (int)b, one_machine ? "collocation or single-node" : "collocation",
                         c->mach[mach[a]].name, c->mach[mach[b]].name);
                why = buf;
            } else if (mach[a] == mach[b] && pl_job_anti_collocated(job, a, b)) {
                snprintf(buf, size, "tasks %d and %d must not share a machine (anti-collocation) but "
                         "are both on %s", (int)a, (int)b, c->mach[mach[a]].name);
                why = buf;
            }
        }
    free(cls);
    return why;
}

const char *pl_pctx_constraint_violation(pl_pctx *c, const pl_job *job, const int32_t *gpus, int32_t k,
                                         int one_machine, char *buf, size_t size)
{
    int constrained = pl_job_has_constraints(job);
    if (!constrained && !one_machine)
        return NULL;
    if (!constrained) {
        /* The common case (a plain single-node job): no allocation. */
        const char *why = machines_of(c, gpus, 1, &(int32_t){0});
        for (int32_t t = 1; t < k && !why; t++)
            if (gpus[t] < 0 || gpus[t] >= c->nvert || c->gpu_mach[gpus[t]] != c->gpu_mach[gpus[0]]) {
                snprintf(buf, size, "tasks 0 and %d of a single-node job on two machines", (int)t);
                why = buf;
            }
        return why;
    }
    int32_t *mach = pl_alloc((size_t)k + 1, sizeof *mach);
    if (!mach)
        return "out of memory";
    const char *why = machines_of(c, gpus, k, mach);
    for (int32_t t = 0; t < k && !why && constrained; t++)
        if (!pl_pctx_task_admits(c, job, t, mach[t])) {
            snprintf(buf, size, "task %d may not run on %s (its node constraints or node filter)",
                     (int)t, c->mach[mach[t]].name);
            why = buf;
        }
    if (!why)
        why = pairs_violation(c, job, mach, k, one_machine, buf, size);
    for (int32_t t = 0; t < k && !why && constrained; t++) {
        const pl_job *other = pl_pctx_machine_avoided(c, job, mach[t]);
        if (other) {
            snprintf(buf, size, "job \"%s\" on %s must not share a machine with it (anti-affinity)",
                     pl_job_name(other), c->mach[mach[t]].name);
            why = buf;
        }
    }
    free(mach);
    return why;
}

static pl_status hosts_ready(pl_pctx *c)
{
    if (c->host_v || c->nmach == 0)
        return PL_OK;
    c->host_v = pl_alloc((size_t)c->nmach, sizeof *c->host_v);
    c->host_gpus = pl_alloc((size_t)c->nmach, sizeof *c->host_gpus);
    if (!c->host_v || !c->host_gpus)
        return PL_ENOMEM;
    for (int32_t m = 0; m < c->nmach; m++) {
        c->host_v[m] = c->mach[m].vertex;
        c->host_gpus[m] = c->mach[m].ngpus;
    }
    return PL_OK;
}

pl_status pl_pctx_constraint_conflicts(pl_pctx *c, const pl_job *job, int one_machine, char *buf,
                                       size_t size, int *conflict)
{
    *conflict = 0;
    if (!pl_job_has_constraints(job))
        return PL_OK;
    pl_status st = hosts_ready(c);
    if (st)
        return st;
    st = pl_cview_check_job(c->work, c->host_v, c->host_gpus, c->nmach, job, one_machine, buf, size,
                            NULL, 0, NULL);
    if (st == PL_EINFEASIBLE) {
        *conflict = 1;
        return PL_OK;
    }
    return st;
}
