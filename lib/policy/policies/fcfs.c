/* "fcfs": first come, first served. On each machine, first fit: the first
 * socket (index order) with room for the whole job, else the free GPUs
 * socket by socket in index order. Across machines first fit too: the first
 * machine (index order) with enough free GPUs, as seed 002 describes its
 * greedy baseline; not the artifact's highest job utility, which made the
 * baseline use TOPO-AWARE's cost model. The first job that does not fit
 * stops the queue. */
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

/* Never better: the first admissible machine is kept. */
static double rank(pl_pctx *c, const pl_cand *a, const pl_cand *b)
{
    (void)c;
    (void)a;
    (void)b;
    return 0;
}

static const pl_engine_rules rules = {.choose = pl_baseline_choose, .block_on_wait = 1, .single_machine = 1,
                                      .pick = pick, .rank = rank};

PL_POLICY_DEFINE(pl_policy_fcfs, "fcfs",
                 "first come, first served: first fit, the queue stops at the first job that waits",
                 pl_engine_place, &rules);
