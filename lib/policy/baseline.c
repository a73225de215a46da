/* Shared machinery of the greedy baselines. */
#include <stdlib.h>
#include "baseline.h"

int32_t pl_socket_free_gpus(pl_pctx *c, int32_t m, int32_t s, int32_t *out, int32_t cap)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t n = 0;
    for (int32_t i = 0; i < pm->ngpus && n < cap; i++)
        if (pm->gpu_socket[i] == s && pl_pctx_gpu_free(c, pm->gpus[i]))
            out[n++] = pm->gpus[i];
    return n;
}

int pl_take_in_socket_order(pl_pctx *c, int32_t m, const int32_t *order, int32_t k, int32_t *gpus)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t got = 0;
    for (int32_t o = 0; o < pm->nsockets && got < k; o++)
        for (int32_t i = 0; i < pm->ngpus && got < k; i++)
            if (pm->gpu_socket[i] == order[o] && pl_pctx_gpu_free(c, pm->gpus[i]))
                gpus[got++] = pm->gpus[i];
    return got == k;
}

pl_status pl_baseline_choose(pl_pctx *c, const pl_job *job, int32_t k, pl_cand *cand,
                             pl_choose_result *res, pl_pick_fn pick, pl_rank_fn rank)
{
    pl_cand tmp = {0};
    tmp.k = k;
    if (!(tmp.gpus = pl_alloc((size_t)k, sizeof *tmp.gpus)))
        return PL_ENOMEM;
    pl_status st = PL_OK;
    int found = 0;
    for (int32_t m = 0; m < c->nmach && !st; m++) {
        if (!pl_pctx_machine_admits(c, job, m, k) || pl_pctx_free_gpus(c, m, NULL) < k)
            continue;
        if (!pick(c, m, k, tmp.gpus))
            continue;
        int ok;
        tmp.k = k;
        if ((st = pl_pctx_evaluate(c, job, &tmp, &ok)) || !ok)
            continue;
        if (!found || rank(c, &tmp, cand) < 0) {
            pl_cand_copy(cand, &tmp);
            found = 1;
        }
    }
    free(tmp.gpus);
    *res = found ? PL_CHOSEN : PL_NO_FIT;
    return st;
}
