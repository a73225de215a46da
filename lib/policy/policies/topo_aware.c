/* "topo-aware" and "topo-aware-p" (seed 002, Algorithm 1): per admissible
 * machine with enough free GPUs, map the job with DRB and keep the machine of
 * the highest job utility (the first one on a tie). A job that allows several
 * machines is mapped across machines by DRB only when no single machine can
 * hold it. topo-aware-p postpones a job whose best utility is below its
 * minimal utility. */
#include <stdlib.h>
#include "internal/policy_impl.h"

static pl_status try_domain(pl_pctx *c, const pl_job *job, int32_t k, const int32_t *P, int32_t n,
                            pl_cand *tmp, pl_cand *best, int *found)
{
    int ok;
    pl_status st = pl_drb_map(c, job, k, P, n, tmp->gpus, &ok);
    if (st || !ok)
        return st;
    tmp->k = k;
    if ((st = pl_pctx_evaluate(c, job, tmp, &ok)) || !ok)
        return st;
    if (!*found || pl_cand_better(tmp, best)) {
        pl_cand_copy(best, tmp);
        *found = 1;
    }
    return PL_OK;
}

static pl_status choose(pl_pctx *c, const pl_job *job, int32_t k, const pl_engine_rules *rules, pl_cand *cand,
                        pl_choose_result *res)
{
    (void)rules;
    int32_t maxg = 0;
    for (int32_t m = 0; m < c->nmach; m++)
        if (c->mach[m].ngpus > maxg)
            maxg = c->mach[m].ngpus;
    pl_cand tmp = {0};
    int32_t *P = pl_alloc((size_t)maxg + 1, sizeof *P);
    tmp.gpus = pl_alloc((size_t)k, sizeof *tmp.gpus);
    pl_status st = !P || !tmp.gpus ? PL_ENOMEM : PL_OK;
    int found = 0;
    /* A machine in the same state as an earlier one of its class (same
     * free GPUs, allocations and neighbours' workloads) gives the same
     * candidate with the same utility (machine_class.c), which cannot beat
     * the best so far: the best only rises, by pl_cand_better, from a value
     * the earlier machine did not beat, and ties go to the first machine.
     * So it is skipped. A job with placement constraints reads the
     * machines' attributes and names and other jobs' labels: not skipped. */
    int skip_same = !pl_job_has_constraints(job);
    pl_pctx_states_reset(c);
    for (int32_t m = 0; m < c->nmach && !st; m++) {
        /* The free count first: in a long queue most jobs fit nowhere. */
        if (pl_pctx_free_count(c, m) < k || !pl_pctx_machine_admits(c, job, m, k))
            continue;
        int32_t n = pl_pctx_free_gpus(c, m, P);
        int seen = 0;
        if (n >= k && skip_same)
            st = pl_pctx_state_seen(c, m, &seen);
        if (n >= k && !st && !seen)
            st = try_domain(c, job, k, P, n, &tmp, cand, &found);
    }
    if (!st && !found && !pl_job_single_node(job)) {
        /* No machine holds it alone: DRB over the free GPUs of all of them. */
        int32_t total = 0;
        int64_t cap = 0;
        int32_t *all = NULL;
        for (int32_t m = 0; m < c->nmach && !st; m++) {
            if (!pl_pctx_machine_usable(c, job, m))
                continue;
            if (!(st = pl_grow((void **)&all, &cap, total + c->mach[m].ngpus, sizeof *all)))
                total += pl_pctx_free_gpus(c, m, all + total);
        }
        if (!st && total >= k)
            st = try_domain(c, job, k, all, total, &tmp, cand, &found);
        free(all);
    }
    free(P);
    free(tmp.gpus);
    *res = found ? PL_CHOSEN : PL_NO_FIT;
    return st;
}

/* topo-aware's mapping of job on machine index m alone: its utility, or -1. */
static pl_status score_machine(pl_pctx *c, const pl_job *job, int32_t k, int32_t m, int32_t *P,
                               pl_cand *tmp, pl_cand *best, double *score)
{
    *score = -1;
    if (pl_pctx_free_count(c, m) < k || !pl_pctx_machine_admits(c, job, m, k))
        return PL_OK;
    int32_t n = pl_pctx_free_gpus(c, m, P);
    int found = 0;
    pl_status st = n >= k ? try_domain(c, job, k, P, n, tmp, best, &found) : PL_OK;
    if (!st && found)
        *score = best->utility;
    return st;
}

pl_status pl_topo_aware_scores(const pl_policy_request *req, const pl_job *job,
                               const int32_t *machines, int32_t n, double *scores)
{
    for (int32_t i = 0; i < n; i++)
        scores[i] = -1;
    pl_pctx *c = NULL;
    pl_status st = pl_pctx_create(req, &c);
    int32_t k = 0, maxg = 0;
    const char *why = NULL;
    if (!st)
        st = pl_pctx_job_check(c, job, &k, 0, &why);
    if (st || why) {
        pl_pctx_free(c);
        return st;
    }
    for (int32_t m = 0; m < c->nmach; m++)
        maxg = c->mach[m].ngpus > maxg ? c->mach[m].ngpus : maxg;
    pl_cand tmp = {0}, best = {0};
    int32_t *P = pl_alloc((size_t)maxg + 1, sizeof *P);
    tmp.gpus = pl_alloc((size_t)k + 1, sizeof *tmp.gpus);
    best.gpus = pl_alloc((size_t)k + 1, sizeof *best.gpus);
    if (!P || !tmp.gpus || !best.gpus)
        st = PL_ENOMEM;
    for (int32_t i = 0; i < n && !st; i++)
        for (int32_t m = 0; m < c->nmach && !st; m++)
            if (c->mach[m].vertex == machines[i])
                st = score_machine(c, job, k, m, P, &tmp, &best, &scores[i]);
    free(P);
    free(tmp.gpus);
    free(best.gpus);
    pl_pctx_free(c);
    return st;
}

static const pl_engine_rules rules = {.choose = choose}, rules_p = {.choose = choose, .postpone = 1};

PL_POLICY_DEFINE(pl_policy_topo_aware, "topo-aware",
                 "seed 002's topology-aware placement: DRB with utility-based job bipartition, best machine",
                 pl_engine_place, &rules);

PL_POLICY_DEFINE(pl_policy_topo_aware_p, "topo-aware-p",
                 "topo-aware, postponing a job whose best utility is below its minimal utility",
                 pl_engine_place, &rules_p);
