/* "bf": best fit. On each machine, the socket with the fewest free GPUs
 * that still holds the whole job; when none does, the GPUs of the sockets
 * taken from the fullest (fewest free, but some) to the emptiest: spilling
 * over. Across machines best fit too: the machine with the fewest free GPUs
 * that holds the job, the first on a tie (seed 002: "allocating first the
 * GPUs from highly used domains"; not the artifact's highest job utility).
 * Jobs that do not fit are skipped. */
#include "baseline.h"

static int pick(pl_pctx *c, int32_t m, int32_t k, int32_t *gpus)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t ns = pm->nsockets, best = -1, bestfree = 0;
    int32_t order[ns > 0 ? ns : 1], fr[ns > 0 ? ns : 1];
    for (int32_t s = 0; s < ns; s++) {
        fr[s] = pl_pctx_socket_free(c, m, s);
        if (fr[s] >= k && (best < 0 || fr[s] < bestfree)) {
            best = s;
            bestfree = fr[s];
        }
    }
    if (best >= 0)
        return pl_socket_free_gpus(c, m, best, gpus, k) >= k;
    /* Insertion sort by free GPUs, stable: index order on ties. */
    for (int32_t s = 0; s < ns; s++) {
        int32_t j = s;
        while (j > 0 && fr[order[j - 1]] > fr[s]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = s;
    }
    return pl_take_in_socket_order(c, m, order, k, gpus);
}

static double rank(pl_pctx *c, const pl_cand *a, const pl_cand *b)
{
    return (double)pl_pctx_free_count(c, a->machine) - (double)pl_pctx_free_count(c, b->machine);
}

static const pl_engine_rules rules = {.choose = pl_baseline_choose, .single_machine = 1,
                                      .pick = pick, .rank = rank};

PL_POLICY_DEFINE(pl_policy_bf, "bf",
                 "best fit: the socket with the fewest free GPUs that holds the job, spilling over",
                 pl_engine_place, &rules);
