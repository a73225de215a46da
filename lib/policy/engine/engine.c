/* The loop every built-in policy shares (seed 002's Algorithm 1 body): take
 * the queued jobs in order, reject those that can never fit, let the policy
 * choose a placement, postpone or place it; a placed job's GPUs are taken in
 * the context so later jobs of the same call see them. */
#include <stdio.h>
#include <stdlib.h>
#include "internal/policy_impl.h"

static pl_status decide(pl_pctx *c, const pl_engine_rules *rules, pl_decision *out, int32_t i,
                        const pl_job *job, int *placed, int *waited)
{
    int32_t k;
    char reason[256];
    *placed = *waited = 0;
    const char *why;
    pl_status st = pl_pctx_job_check(c, job, &k, rules->single_machine, &why);
    if (st)
        return st;
    if (why)
        return pl_decision_set_kind(out, i, PL_DECISION_REJECTED, why);
    pl_cand cand = {0};
    cand.k = k;
    if (!(cand.gpus = pl_alloc((size_t)k, sizeof *cand.gpus)))
        return PL_ENOMEM;
    pl_choose_result res = PL_NO_FIT;
    st = rules->choose(c, job, k, rules, &cand, &res);
    if (st == PL_EINVAL || st == PL_EOVERFLOW) {
        /* This job's own numbers cannot be evaluated: it is rejected with
         * the reason and the rest of the queue is decided (options were
         * checked when the context was made, so this is about the job). */
        free(cand.gpus);
        snprintf(reason, sizeof reason, "cannot be evaluated: %.200s", pl_last_error());
        return pl_decision_set_kind(out, i, PL_DECISION_REJECTED, reason);
    }
    if (st || res == PL_NO_FIT) {
        free(cand.gpus);
        if (st)
            return st;
        *waited = 1;
        snprintf(reason, sizeof reason, "no admissible machine has %d free GPUs with the resources the job needs",
                 (int)k);
        return pl_decision_set_kind(out, i, PL_DECISION_WAITING, reason);
    }
    pl_decision_info info = {0};
    info.ngpus = k;
    info.gpus = cand.gpus;
    info.machine = cand.machine >= 0 ? c->mach[cand.machine].vertex : -1;
    info.utility = cand.utility;
    info.comm_cost = cand.comm;
    info.slowdown = cand.slowdown;
    double min_u = pl_job_min_utility(job);
    if (rules->postpone && cand.utility < min_u) {
        snprintf(reason, sizeof reason, "best utility %.4f is below the job's minimal utility %.4f",
                 cand.utility, min_u);
        info.kind = PL_DECISION_POSTPONED;
        info.reason = reason;
        st = pl_decision_set(out, i, &info);
    } else {
        info.kind = PL_DECISION_PLACED;
        if (!(st = pl_pctx_commit(c, job, &cand)))
            st = pl_decision_set(out, i, &info);
        *placed = 1;
    }
    free(cand.gpus);
    return st;
}

pl_status pl_engine_run(const pl_policy_request *req, pl_decision *out, const pl_engine_rules *rules)
{
    pl_pctx *c;
    pl_status st = pl_pctx_create(req, &c);
    if (st)
        return st;
    int32_t placed = 0;
    /* Why the rest of the queue waits, once it does: formatted once, not
     * per job (a long queue waits behind one job round after round). */
    const char *rest = NULL;
    char reason[256];
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        const pl_job *job = req->queue[i];
        if (!rest && req->opts->max_placed > 0 && placed >= req->opts->max_placed) {
            snprintf(reason, sizeof reason, "max_placed (%d) jobs already placed in this call",
                     (int)req->opts->max_placed);
            rest = reason;
        }
        if (rest) {
            st = pl_decision_set_kind(out, i, PL_DECISION_WAITING, rest);
            continue;
        }
        int was_placed, waited;
        st = decide(c, rules, out, i, job, &was_placed, &waited);
        placed += was_placed;
        /* A rejected job never fits, so it does not hold the queue up. */
        if (waited && rules->block_on_wait) {
            snprintf(reason, sizeof reason, "behind job \"%s\", which waits (first come, first served)",
                     pl_job_name(job));
            rest = reason;
        }
    }
    pl_pctx_free(c);
    return st;
}

pl_status pl_engine_place(const pl_policy_request *req, pl_decision *out)
{
    if (!req->data)
        return pl_err(PL_EINTERNAL, "pl_engine_place: a policy without its engine rules");
    return pl_engine_run(req, out, req->data);
}
