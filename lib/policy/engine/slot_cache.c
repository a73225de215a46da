/* Slot jobs kept across the calls of one policy instance (pl_slot_cache in
 * policy_impl.h): a queued job of multi-GPU tasks waits many rounds of a
 * scheduler that keeps its instance (pl_sched), and its slot job is the
 * same in each, so it is made once.
 *
 * The key is the user's job pointer, but a pointer proves nothing: the
 * caller may change the job between calls, or free it and get a new job
 * at the same address. So the entry keeps a copy of the job as it was when
 * its slot job was made, and the slot job is reused only when the job
 * still equals it in everything pl_job_slots() reads (pl_job_same_slots:
 * an exact comparison, not a fingerprint that two jobs could share);
 * otherwise a new one replaces it. A slot job not used in a call is freed
 * at the call's end (pl_keep), and one replaced lives until then: a policy
 * that keys its own state by the queue's pointers (firmament) never finds
 * a slot job of this call at the address of another job of the last. */
#include <stdlib.h>
#include "internal/policy_impl.h"
#include "internal/job_impl.h"

/* An entry's aux: the user's job when its slot job was made (a copy). */
static void free_job(void *job)
{
    pl_job_free(job);
}

pl_status pl_slot_cache_get(pl_slot_cache *c, const pl_job *job, pl_job **slots, int *owned)
{
    *slots = NULL;
    *owned = 0;
    if (!pl_job_has_multi_gpu(job))
        return PL_OK;
    if (!c) {
        *owned = 1;
        return pl_job_slots(job, slots);
    }
    c->kept.free_aux = free_job;
    pl_keep_entry *e;
    pl_status st = pl_keep_find(&c->kept, (int64_t)(intptr_t)job, &e);
    if (!st && e->job && pl_job_same_slots(e->aux, job)) {
        *slots = e->job;
        return PL_OK;
    }
    pl_job *s = NULL, *seen = NULL;
    if (!st)
        st = pl_job_slots(job, &s);
    if (!st)
        st = pl_job_copy(job, &seen);
    if (st) {
        pl_job_free(s);
        return st;
    }
    s->slot_serial = ++c->serial;
    if ((st = pl_keep_set(&c->kept, e, s, seen)))
        return st;
    *slots = s;
    return PL_OK;
}

void pl_slot_cache_end(pl_slot_cache *c)
{
    if (c)
        pl_keep_end(&c->kept);
}

void pl_slot_cache_free(pl_slot_cache *c)
{
    if (c)
        pl_keep_free(&c->kept);
}
