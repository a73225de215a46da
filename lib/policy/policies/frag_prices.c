/* The packing prices of a request distribution (frag.h, used by fgd-price).
 *
 * Filling GPUs with the shares of a pod list is a cutting-stock problem:
 * GPUs are stock of 1000 milli, each request size is ordered as often as
 * the list asks for it (a whole-GPU pod of n GPUs orders n pieces of 1000).
 * Its LP relaxation (Gilmore-Gomory: one column per filling pattern of a
 * GPU, rows "at least count pieces of size s", minimise GPUs) gives each
 * size a dual price y_s, the share of a GPU a piece of that size is worth
 * in an optimal packing. A GPU with gap g can still be turned into K(g) =
 * max { sum y_s : pieces fitting in g } GPUs of value, so
 *
 *     waste(g) = g - 1000 K(g)      (milli)
 *
 * is the part of the gap the distribution cannot fill even when packed
 * optimally (negative where the gap is worth more than its share of a GPU:
 * 900 milli hold three 300s, each priced a third of a GPU). A piece of size s put into gap L changes the waste by
 * 1000 (K(L) - K(L - s)) - s: the LP's reduced cost of that move plus a
 * term that does not depend on where the piece goes. openb's example: a
 * 320-milli share into the 530 left by a 470 scores well under FGD (the
 * 530 is fragment for the frequent whole-GPU pods) but wastes the place of
 * the next 470; beside a 650, or on its own GPU, it completes a pattern of
 * the optimal packing (650+320).
 *
 * The LP is solved by column generation: single-size patterns first, then
 * the pattern of largest dual value (an unbounded knapsack over 0..1000
 * milli) while it is worth more than one GPU. */
#include <stdlib.h>
#include "internal/frag.h"
#include "internal/glpk_util.h"

#define CAP 1000
#define MAX_ROUNDS 2000

typedef struct prices {
    int32_t nsize;
    int32_t size[CAP];        /* distinct piece sizes, milli */
    double count[CAP];        /* pieces ordered of each */
    double y[CAP];            /* dual price of each */
    double best[CAP + 1];     /* K(c) for the current prices */
    int32_t last[CAP + 1];    /* a piece of a best filling of c (-1: none) */
    int32_t pat[CAP];         /* scratch: a pattern's count per size */
    int ind[CAP + 1];
    double val[CAP + 1];
} prices;

/* best[c] = K(c) under p->y: an unbounded knapsack, pieces by size. */
static void knapsack(prices *p)
{
    for (int32_t c = 0; c <= CAP; c++) {
        p->best[c] = c > 0 ? p->best[c - 1] : 0;
        p->last[c] = -1;
        for (int32_t i = 0; i < p->nsize; i++)
            if (p->size[i] <= c && p->best[c - p->size[i]] + p->y[i] > p->best[c]) {
                p->best[c] = p->best[c - p->size[i]] + p->y[i];
                p->last[c] = i;
            }
    }
}

static void add_column(glp_prob *lp, prices *p)
{
    int k = 0;
    for (int32_t i = 0; i < p->nsize; i++)
        if (p->pat[i] > 0) {
            p->ind[++k] = i + 1;
            p->val[k] = p->pat[i];
        }
    int col = glp_add_cols(lp, 1);
    glp_set_col_bnds(lp, col, GLP_LO, 0, 0);
    glp_set_obj_coef(lp, col, 1);
    glp_set_mat_col(lp, col, k, p->ind, p->val);
}

static pl_status solve(glp_prob *lp, void *arg)
{
    prices *p = arg;
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_rows(lp, p->nsize);
    for (int32_t i = 0; i < p->nsize; i++) {
        glp_set_row_bnds(lp, i + 1, GLP_LO, p->count[i], 0);
        for (int32_t j = 0; j < p->nsize; j++)
            p->pat[j] = j == i ? CAP / p->size[i] : 0;
        add_column(lp, p);
    }
    for (int round = 0;; round++) {
        pl_status st = pl_glpk_simplex(lp, 0);
        if (st)
            return st;
        for (int32_t i = 0; i < p->nsize; i++)
            p->y[i] = glp_get_row_dual(lp, i + 1);
        knapsack(p);
        /* No pattern is worth more than the GPU it takes: optimal. */
        if (p->best[CAP] <= 1 + 1e-9 || round >= MAX_ROUNDS)
            return PL_OK;
        for (int32_t j = 0; j < p->nsize; j++)
            p->pat[j] = 0;
        int32_t c = CAP;
        while (c > 0 && p->best[c] == p->best[c - 1])
            c--;
        while (c > 0 && p->last[c] >= 0) {
            p->pat[p->last[c]]++;
            c -= p->size[p->last[c]];
            while (c > 0 && p->best[c] == p->best[c - 1])
                c--;
        }
        add_column(lp, p);
    }
}

pl_status pl_fstate_set_prices(pl_fstate *s, const pl_fpod *pods, int32_t n)
{
    if (!s->gap_waste && !(s->gap_waste = pl_alloc(CAP + 1, sizeof *s->gap_waste)))
        return PL_ENOMEM;
    prices *p = pl_alloc(1, sizeof *p);
    if (!p)
        return PL_ENOMEM;
    for (int32_t k = 0; k < n; k++) {
        int32_t m = pods[k].milli > CAP ? CAP : pods[k].milli, i = 0;
        if (m <= 0 || pods[k].ngpu <= 0)
            continue;
        while (i < p->nsize && p->size[i] != m)
            i++;
        if (i == p->nsize)
            p->size[p->nsize++] = m;
        p->count[i] += m == CAP ? pods[k].ngpu : 1;
    }
    pl_status st = p->nsize ? pl_glpk_run(solve, p) : PL_OK;
    if (!st) {
        /* No GPU request: every gap is as good as another (waste 0). */
        if (p->nsize)
            knapsack(p);
        for (int32_t g = 0; g <= CAP; g++)
            s->gap_waste[g] = p->nsize ? g - CAP * p->best[g] : 0;
    }
    free(p);
    return st;
}

double pl_fnode_gap_waste(const pl_fstate *s, const pl_fnode *n)
{
    double w = 0;
    for (int32_t i = 0; s->gap_waste && i < n->ngpu; i++)
        w += s->gap_waste[n->left[i] < 0 ? 0 : n->left[i] > CAP ? CAP : n->left[i]];
    return w;
}
