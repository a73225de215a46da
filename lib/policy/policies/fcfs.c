/* "fcfs": first come, first served. On each machine, first fit: the first
 * socket (index order) with room for the whole job, else the free GPUs
 * socket by socket in index order. Across machines the highest job utility
 * (the SC17 artifact's rule), the first machine on a tie. The first job that
 * does not fit stops the queue. */
#include "baseline.h"

static int pick(pl_pctx *c, int32_t m, int32_t k, int32_t *gpus)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t order[pm->nsockets > 0 ? pm->nsockets : 1];
    for (int32_t s = 0; s < pm->nsockets; s++)
        if (pl_pctx_socket_free(c, m, s) >= k)
            return pl_socket_free_gpus(c, m, s, gpus, k) >= k;
    for (int32_t s = 0; s < pm->nsockets; s++)
        order[s] = s;
    return pl_take_in_socket_order(c, m, order, k, gpus);
}

static double rank(pl_pctx *c, const pl_cand *a, const pl_cand *b)
{
    (void)c;
    return pl_cand_better(a, b) ? -1 : 0;
}

static pl_status choose(pl_pctx *c, const pl_job *job, int32_t k, pl_cand *cand, pl_choose_result *res)
{
    return pl_baseline_choose(c, job, k, cand, res, pick, rank);
}

static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    pl_engine_rules r = {choose, 1, 0, 1};
    return pl_engine_run(req, out, &r);
}

const pl_policy_ops pl_policy_fcfs = {
    .name = "fcfs",
    .description = "first come, first served: first fit, the queue stops at the first job that waits",
    .place = place,
    .version = PL_POLICY_OPS_VERSION,
};
