/* Jobs a policy instance derives and keeps from one call to the next
 * (pl_keep in policy_impl.h): what it makes of a queued job is made once
 * while the job waits, not in every round. An entry is dropped after the
 * first call that does not find it, and what a call replaces lives to that
 * call's end: whatever the call was shown stays valid (and its address
 * taken by nothing else) until the call returns. */
#include <stdlib.h>
#include "internal/policy_impl.h"

static void drop(const pl_keep *k, const pl_keep_entry *e)
{
    pl_job_free(e->job);
    if (k->free_aux && e->aux)
        k->free_aux(e->aux);
    else
        free(e->aux);
}

pl_status pl_keep_find(pl_keep *k, int64_t key, pl_keep_entry **e)
{
    int added = 0;
    int32_t id;
    *e = NULL;
    /* Room for a new entry first: the set cannot take a key back. */
    pl_status st = pl_grow((void **)&k->e, &k->cap, (int64_t)k->n + 1, sizeof *k->e);
    if (!st)
        st = pl_keyset_add(&k->index, &key, 1, &id, &added);
    if (st)
        return st;
    if (added) {
        k->e[id] = (pl_keep_entry){.key = key};
        k->n = id + 1;
    }
    k->e[id].used = k->call;
    *e = &k->e[id];
    return PL_OK;
}

pl_status pl_keep_set(pl_keep *k, pl_keep_entry *e, pl_job *job, void *aux)
{
    if (e->job) {
        pl_status st = pl_grow((void **)&k->retired, &k->capretired, k->nretired + 1, sizeof *k->retired);
        if (st) {
            drop(k, &(pl_keep_entry){.job = job, .aux = aux});
            return st;
        }
        k->retired[k->nretired++] = *e;
    }
    e->job = job;
    e->aux = aux;
    return PL_OK;
}

void pl_keep_end(pl_keep *k)
{
    for (int64_t i = 0; i < k->nretired; i++)
        drop(k, &k->retired[i]);
    k->nretired = 0;
    int32_t kept = 0;
    for (int32_t i = 0; i < k->n; i++) {
        if (k->e[i].used == k->call && k->e[i].job)
            k->e[kept++] = k->e[i];
        else
            drop(k, &k->e[i]);
    }
    if (kept < k->n) {
        /* Ids are the order of insertion: adding the survivors in their
         * order again numbers them as they now sit. The set keeps its
         * memory, so this allocates nothing and cannot fail. */
        pl_keyset_clear(&k->index);
        for (int32_t i = 0; i < kept; i++) {
            int32_t id;
            int added;
            pl_keyset_add(&k->index, &k->e[i].key, 1, &id, &added);
        }
        k->n = kept;
    }
    k->call++;
}

void pl_keep_free(pl_keep *k)
{
    k->call++; /* nothing was found in this "call": every entry goes */
    pl_keep_end(k);
    pl_keyset_free(&k->index);
    free(k->e);
    free(k->retired);
    k->e = NULL;
    k->retired = NULL;
    k->cap = k->capretired = 0;
}
