/* "random": a machine drawn uniformly among the admissible ones with enough
 * free GPUs, then k of its free GPUs drawn uniformly (partial Fisher-Yates),
 * from a splitmix64 stream seeded with opts.seed (one stream per call). */
#include <stdlib.h>
#include "internal/policy_impl.h"

static pl_status choose(pl_pctx *c, const pl_job *job, int32_t k, const pl_engine_rules *rules, pl_cand *cand,
                        pl_choose_result *res)
{
    (void)rules;
    *res = PL_NO_FIT;
    int32_t *ms = pl_alloc((size_t)c->nmach + 1, sizeof *ms), nm = 0, maxg = 0;
    if (!ms)
        return PL_ENOMEM;
    for (int32_t m = 0; m < c->nmach; m++) {
        if (pl_pctx_machine_admits(c, job, m, k) && pl_pctx_free_gpus(c, m, NULL) >= k)
            ms[nm++] = m;
        if (c->mach[m].ngpus > maxg)
            maxg = c->mach[m].ngpus;
    }
    pl_status st = PL_OK;
    int32_t *f = pl_alloc((size_t)maxg + 1, sizeof *f);
    if (!f)
        st = PL_ENOMEM;
    if (!st && nm > 0) {
        int32_t m = ms[pl_rng_u64(&c->rng) % (uint64_t)nm];
        int32_t nf = pl_pctx_free_gpus(c, m, f);
        for (int32_t i = 0; i < k; i++) {
            int32_t j = i + (int32_t)(pl_rng_u64(&c->rng) % (uint64_t)(nf - i));
            int32_t t = f[i];
            f[i] = f[j];
            f[j] = t;
            cand->gpus[i] = f[i];
        }
        cand->k = k;
        int ok;
        if (!(st = pl_pctx_evaluate(c, job, cand, &ok)) && ok)
            *res = PL_CHOSEN;
    }
    free(ms);
    free(f);
    return st;
}

static const pl_engine_rules rules = {.choose = choose, .single_machine = 1};

PL_POLICY_DEFINE(pl_policy_random, "random",
                 "uniformly random free GPUs of a uniformly random machine (opts.seed)",
                 pl_engine_place, &rules);
