/* Tasks of several whole GPUs, once for every policy (policy.h's file
 * comment): the policy decides the slot jobs of the queue and of the running
 * jobs (job_slots.c: a task of k GPUs as k collocated tasks of one GPU), so
 * its decision for a job has one entry per slot, the entries of one task
 * consecutive, as pl_decision_info documents. A policy may ignore the
 * collocation of the slots; a placement that splits a task over machines,
 * or gives two of its slots one GPU, is refused here with the reason, in
 * the user's task ids. The slot jobs come from the instance's cache
 * (slot_cache.c: made once while a job waits unchanged). A reason the
 * policy gives is its own: one naming task ids names slots, and the code
 * that wrote it appended which are which (pl_job_slots_explain), so
 * nothing here reads the text. */
#include <stdio.h>
#include <stdlib.h>
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

pl_status pl_slots_place(const pl_policy_ops *ops, const pl_policy_request *req, pl_slot_cache *cache,
                         pl_decision *out)
{
    int any = 0;
    for (int32_t i = 0; i < req->nqueue && !any; i++)
        any = pl_job_has_multi_gpu(req->queue[i]);
    for (int32_t i = 0; i < req->nrunning && !any; i++)
        any = pl_job_has_multi_gpu(req->running[i].job);
    if (!any) {
        pl_slot_cache_end(cache); /* a round without them: the kept ones go */
        return pl_demand_place(ops, req, out);
    }
    pl_job **q = pl_alloc((size_t)req->nqueue + 1, sizeof *q);
    pl_running_job *run = pl_alloc((size_t)req->nrunning + 1, sizeof *run);
    /* Per job: 1 if its slot job is this call's to free (no cache). */
    uint8_t *owned = pl_alloc((size_t)req->nqueue + (size_t)req->nrunning + 1, sizeof *owned);
    pl_status st = q && run && owned ? PL_OK : PL_ENOMEM;
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        pl_job *s = NULL;
        int own = 0;
        q[i] = req->queue[i];
        if (!(st = pl_slot_cache_get(cache, req->queue[i], &s, &own)) && s)
            q[i] = s;
        owned[i] = (uint8_t)own;
    }
    for (int32_t i = 0; i < req->nrunning && !st; i++) {
        pl_job *s = NULL;
        int own = 0;
        run[i] = req->running[i];
        if (!(st = pl_slot_cache_get(cache, req->running[i].job, &s, &own)) && s)
            run[i].job = s;
        owned[req->nqueue + i] = (uint8_t)own;
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
        if (why)
            st = pl_decision_set_kind(out, i, PL_DECISION_REJECTED, why);
    }
    /* Unfilled entries are NULL and not owned (pl_alloc zero-fills). */
    for (int32_t i = 0; owned && i < req->nqueue; i++)
        if (owned[i])
            pl_job_free(q[i]);
    for (int32_t i = 0; owned && i < req->nrunning; i++)
        if (owned[req->nqueue + i])
            pl_job_free((pl_job *)run[i].job);
    pl_slot_cache_end(cache);
    free(q);
    free(run);
    free(owned);
    return st;
}
