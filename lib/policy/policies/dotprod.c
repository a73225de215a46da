/* "dotprod": Tetris' alignment score as the peer configures it (dimensions
 * merged: CPU and the node's total GPU milli; normalised by the largest
 * node, 128 cores and 8 GPUs): the node whose free vector has the smallest
 * dot product with the request scores highest; best-fit GPUs inside. */
#include "internal/frag.h"

static void score(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *sc, int32_t *gpu)
{
    (void)s;
    int64_t gl = 0;
    for (int32_t i = 0; i < n->ngpu; i++)
        gl += n->left[i];
    double dot = ((double)n->cpu_left / PL_FRAG_MAX_CPU) * ((double)p->cpu / PL_FRAG_MAX_CPU) +
                 ((double)gl / PL_FRAG_MAX_GPU) * ((double)p->ngpu * p->milli / PL_FRAG_MAX_GPU);
    *sc = (int64_t)(100.0 * (1.0 - dot / 2.0));
    *gpu = -1;
}

const pl_fpolicy pl_fpolicy_dotprod = {"dotprod", score, 0, 0};

PL_FPOLICY_OPS(pl_policy_dotprod, pl_fpolicy_dotprod, "dotprod",
               "smallest dot product of free and requested CPU/GPU (Tetris; ATC'23 baseline DotProd)");
