/* "pack": on each machine the free GPUs with the smallest Eq. 3 cost (all
 * subsets in lexicographic order up to MAX_COMBOS of them, the first
 * smallest kept; beyond, greedily grown from each free GPU by the nearest).
 * Across machines the smallest cost, then the machine with the fewest free
 * GPUs, then the first. */
#include <stdlib.h>
#include <string.h>
#include "baseline.h"

#define MAX_COMBOS 200000

static int64_t cost(pl_pctx *c, const int32_t *g, int32_t k)
{
    int64_t t = 0, d;
    for (int32_t i = 0; i < k; i++)
        for (int32_t j = i + 1; j < k; j++)
            if (pl_pctx_dist(c, g[i], g[j], &d) == PL_OK)
                t += d;
    return t;
}

static double combos(int32_t n, int32_t k)
{
    double r = 1;
    for (int32_t i = 0; i < k; i++)
        r = r * (n - i) / (i + 1);
    return r;
}

static void exhaustive(pl_pctx *c, const int32_t *f, int32_t n, int32_t k, int32_t *idx,
                       int32_t *cur, int32_t *gpus)
{
    int64_t best = -1;
    for (int32_t i = 0; i < k; i++)
        idx[i] = i;
    for (;;) {
        for (int32_t i = 0; i < k; i++)
            cur[i] = f[idx[i]];
        int64_t t = cost(c, cur, k);
        if (best < 0 || t < best) {
            best = t;
            memcpy(gpus, cur, (size_t)k * sizeof *gpus);
        }
        int32_t i = k - 1;
        while (i >= 0 && idx[i] == n - k + i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (int32_t j = i + 1; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

static void greedy(pl_pctx *c, const int32_t *f, int32_t n, int32_t k, uint8_t *in, int32_t *cur,
                   int32_t *gpus)
{
    int64_t best = -1;
    for (int32_t s = 0; s < n; s++) {
        memset(in, 0, (size_t)n);
        in[s] = 1;
        cur[0] = f[s];
        for (int32_t got = 1; got < k; got++) {
            int32_t pickj = -1;
            int64_t add = 0;
            for (int32_t j = 0; j < n; j++) {
                if (in[j])
                    continue;
                int64_t a = 0, d;
                for (int32_t i = 0; i < got; i++)
                    if (pl_pctx_dist(c, cur[i], f[j], &d) == PL_OK)
                        a += d;
                if (pickj < 0 || a < add) {
                    pickj = j;
                    add = a;
                }
            }
            in[pickj] = 1;
            cur[got] = f[pickj];
        }
        int64_t t = cost(c, cur, k);
        if (best < 0 || t < best) {
            best = t;
            memcpy(gpus, cur, (size_t)k * sizeof *gpus);
        }
    }
}

static int pick(pl_pctx *c, int32_t m, int32_t k, int32_t *gpus)
{
    int32_t n = c->mach[m].ngpus;
    int32_t *f = malloc(((size_t)n * 3 + 1) * sizeof *f);
    uint8_t *in = malloc((size_t)n + 1);
    if (!f || !in) {
        free(f);
        free(in);
        return 0;
    }
    int32_t nf = pl_pctx_free_gpus(c, m, f);
    int ok = nf >= k;
    if (ok) {
        if (combos(nf, k) <= MAX_COMBOS)
            exhaustive(c, f, nf, k, f + n, f + 2 * n, gpus);
        else
            greedy(c, f, nf, k, in, f + n, gpus);
    }
    free(f);
    free(in);
    return ok;
}

static double rank(pl_pctx *c, const pl_cand *a, const pl_cand *b)
{
    if (a->comm != b->comm)
        return a->comm < b->comm ? -1 : 1;
    return (double)pl_pctx_free_count(c, a->machine) - (double)pl_pctx_free_count(c, b->machine);
}

static const pl_engine_rules rules = {.choose = pl_baseline_choose, .single_machine = 1,
                                      .pick = pick, .rank = rank};

PL_POLICY_DEFINE(pl_policy_pack, "pack",
                 "the closest free GPUs (smallest Eq. 3 communication cost), fullest machine first",
                 pl_engine_place, &rules);
