/* Tasks of several whole GPUs, once for every policy (policy.h's file
 * comment): the policy decides the slot jobs of the queue and of the running
 * jobs (job_slots.c: a task of k GPUs as k collocated tasks of one GPU), so
 * its decision for a job has one entry per slot, the entries of one task
 * consecutive, as pl_decision_info documents. A policy may ignore the
 * collocation of the slots; a placement that splits a task over machines,
 * or gives two of its slots one GPU, is refused here with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"
#include "internal/job_impl.h"
#include "internal/topology_internal.h"

/* Why placed decision i of job breaks a multi-GPU task (reason in buf), or NULL. */
static const char *split_task(const pl_topology *t, const pl_job *job, const pl_decision *d, int32_t i,
                              const char *policy, char *buf, size_t size)
{
    pl_decision_info info;
    if (pl_decision_get(d, i, &info) != PL_OK || info.kind != PL_DECISION_PLACED)
        return NULL;
    int32_t first = 0;
    for (int32_t task = 0; task < pl_job_task_count(job); task++) {
        pl_task_demand dem;
        if (pl_job_task(job, task, &dem) != PL_OK)
            return NULL;
        int32_t n = dem.gpus > 1 ? (int32_t)dem.gpus : 1;
        for (int32_t a = first; a < first + n && first + n <= info.ngpus; a++)
            for (int32_t b = a + 1; b < first + n; b++) {
                const char *what = info.gpus[a] == info.gpus[b] ? "gives two of its GPUs one device"
                                   : pl_topo_machine_of(t, info.gpus[a]) != pl_topo_machine_of(t, info.gpus[b])
                                       ? "splits it over machines"
                                       : NULL;
                if (what) {
                    snprintf(buf, size, "policy \"%s\" cannot place task %d of %d GPUs: it %s (a task's GPUs "
                             "must be distinct and on one machine)", policy, (int)task, (int)n, what);
                    return buf;
                }
            }
        first += n;
    }
    return NULL;
}

/* Whether a reason names a task id ("task 3", "tasks 0 and 3"). */
static int names_task_id(const char *reason)
{
    for (const char *p = strstr(reason, "task"); p; p = strstr(p + 4, "task")) {
        const char *x = p + 4 + (p[4] == 's');
        if (*x == ' ' && x[1] >= '0' && x[1] <= '9')
            return 1;
    }
    return 0;
}

/* A reason of a slot job names its tasks, the slots: append which slots
 * are which task ("task 0 is 0-3, task 1 is 4"), at most size bytes. */
static void explain_slots(const pl_job *job, const char *reason, char *buf, size_t size)
{
    size_t len = (size_t)snprintf(buf, size, "%s (task ids here count a task of k GPUs as k:", reason);
    int32_t first = 0, shown = 0;
    for (int32_t task = 0; task < pl_job_task_count(job) && len < size; task++) {
        pl_task_demand dem;
        int32_t n = pl_job_task(job, task, &dem) == PL_OK && dem.gpus > 1 ? (int32_t)dem.gpus : 1;
        if (n > 1 || first != task)
            len += (size_t)snprintf(buf + len, size - len, "%s task %d is %d%s%.0d", shown++ ? "," : "",
                                    (int)task, (int)first, n > 1 ? "-" : "", n > 1 ? (int)(first + n - 1) : 0);
        first += n;
    }
    if (len < size)
        snprintf(buf + len, size - len, ")");
}

pl_status pl_slots_place(const pl_policy_ops *ops, const pl_policy_request *req, pl_decision *out)
{
    int any = 0;
    for (int32_t i = 0; i < req->nqueue && !any; i++)
        any = pl_job_has_multi_gpu(req->queue[i]);
    for (int32_t i = 0; i < req->nrunning && !any; i++)
        any = pl_job_has_multi_gpu(req->running[i].job);
    if (!any)
        return pl_demand_place(ops, req, out);
    pl_job **q = pl_alloc((size_t)req->nqueue + 1, sizeof *q);
    pl_running_job *run = pl_alloc((size_t)req->nrunning + 1, sizeof *run);
    pl_status st = q && run ? PL_OK : PL_ENOMEM;
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        pl_job *s = NULL;
        q[i] = req->queue[i];
        if (!(st = pl_job_slots(req->queue[i], &s)) && s)
            q[i] = s;
    }
    for (int32_t i = 0; i < req->nrunning && !st; i++) {
        pl_job *s = NULL;
        run[i] = req->running[i];
        if (!(st = pl_job_slots(req->running[i].job, &s)) && s)
            run[i].job = s;
    }
    pl_policy_request r = *req;
    r.queue = q;
    r.running = run;
    if (!st)
        st = pl_demand_place(ops, &r, out);
    char buf[512];
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        if (q[i] == req->queue[i])
            continue; /* its decision is the policy's, untouched */
        const char *why = split_task(req->topo, req->queue[i], out, i, ops->name, buf, sizeof buf);
        pl_decision_info info;
        if (why)
            st = pl_decision_set_kind(out, i, PL_DECISION_REJECTED, why);
        else if (!(st = pl_decision_get(out, i, &info)) && info.kind != PL_DECISION_PLACED &&
                 names_task_id(info.reason)) {
            explain_slots(req->queue[i], info.reason, buf, sizeof buf);
            info.reason = buf;
            st = pl_decision_set(out, i, &info);
        }
    }
    /* Unfilled entries are NULL (pl_alloc zero-fills): nothing to free there. */
    for (int32_t i = 0; q && i < req->nqueue; i++)
        if (q[i] != req->queue[i])
            pl_job_free(q[i]);
    for (int32_t i = 0; run && i < req->nrunning; i++)
        if (run[i].job != req->running[i].job)
            pl_job_free((pl_job *)run[i].job);
    free(q);
    free(run);
    return st;
}
