/* pl_jobset: an ordered list of jobs that owns them. */
#include <stdlib.h>
#include "internal/job_impl.h"

pl_status pl_jobset_create(pl_jobset **out)
{
    return pl_create_zeroed("pl_jobset_create", (void **)out, sizeof **out);
}

void pl_jobset_free(pl_jobset *set)
{
    if (!set)
        return;
    for (int64_t i = 0; i < set->n; i++) {
        set->jobs[i]->owner = NULL;
        pl_job_free(set->jobs[i]);
    }
    free(set->jobs);
    free(set);
}

pl_status pl_jobset_add(pl_jobset *set, pl_job *job, int32_t *index)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_jobset_add: NULL job");
    /* Freeing a job another set owns would leave that set dangling, so this
     * one failure keeps the job where it is. */
    if (job->owner)
        return pl_err(PL_EINVAL, "pl_jobset_add: job '%s' already belongs to a job set", job->name);
    pl_status st = PL_OK;
    if (!set)
        st = pl_err(PL_EINVAL, "pl_jobset_add: NULL set");
    else if (set->n >= INT32_MAX)
        st = pl_err(PL_EINVAL, "pl_jobset_add: the set is full");
    else if (pl_grow((void **)&set->jobs, &set->cap, set->n + 1, sizeof *set->jobs))
        st = PL_ENOMEM;
    if (st) {
        pl_job_free(job);
        return st;
    }
    job->owner = set;
    if (index)
        *index = (int32_t)set->n;
    set->jobs[set->n++] = job;
    return PL_OK;
}

int32_t pl_jobset_count(const pl_jobset *set)
{
    return set ? (int32_t)set->n : 0;
}

pl_job *pl_jobset_get(const pl_jobset *set, int32_t i)
{
    return set && i >= 0 && i < set->n ? set->jobs[i] : NULL;
}
