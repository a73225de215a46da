/* "spread": on each machine one free GPU from each socket in turn (index
 * order, round robin), so the job touches as many sockets as it can. Across
 * machines the most sockets touched, then the machine with the most free
 * GPUs, then the first. */
#include "baseline.h"

static int pick(pl_pctx *c, int32_t m, int32_t k, int32_t *gpus)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t got = 0;
    for (int32_t round = 0; round < pm->ngpus && got < k; round++)
        for (int32_t s = 0; s < pm->nsockets && got < k; s++) {
            int32_t seen = 0;
            for (int32_t i = 0; i < pm->ngpus; i++)
                if (pm->gpu_socket[i] == s && pl_pctx_gpu_free(c, pm->gpus[i]) && seen++ == round) {
                    gpus[got++] = pm->gpus[i];
                    break;
                }
        }
    return got == k;
}

static int32_t sockets_touched(pl_pctx *c, const pl_cand *a)
{
    const pl_pmachine *pm = &c->mach[a->machine];
    int32_t n = 0;
    for (int32_t s = 0; s < pm->nsockets; s++)
        for (int32_t i = 0; i < a->k; i++)
            if (pm->gpu_socket[c->gpu_index[a->gpus[i]]] == s) {
                n++;
                break;
            }
    return n;
}

static double rank(pl_pctx *c, const pl_cand *a, const pl_cand *b)
{
    int32_t sa = sockets_touched(c, a), sb = sockets_touched(c, b);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    return (double)pl_pctx_free_count(c, b->machine) - (double)pl_pctx_free_count(c, a->machine);
}

static const pl_engine_rules rules = {.choose = pl_baseline_choose, .single_machine = 1,
                                      .pick = pick, .rank = rank};

PL_POLICY_DEFINE(pl_policy_spread, "spread",
                 "one GPU from each socket in turn: as many sockets as possible, emptiest machine first",
                 pl_engine_place, &rules);
