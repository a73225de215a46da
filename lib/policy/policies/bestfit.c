/* "bestfit": the node left with the least CPU and GPU after the pod
 * (half weight each, against 128 cores and 8 GPUs), the peer's BestFit
 * with its min-max normalisation over the feasible nodes; best-fit GPUs. */
#include "internal/frag.h"

static void score(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *sc, int32_t *gpu)
{
    (void)s;
    int64_t gl = 0;
    for (int32_t i = 0; i < n->ngpu; i++)
        gl += n->left[i];
    double r = 0.5 * (double)(n->cpu_left - p->cpu) / PL_FRAG_MAX_CPU +
               0.5 * (double)(gl - (int64_t)p->ngpu * p->milli) / PL_FRAG_MAX_GPU;
    *sc = (int64_t)((1.0 - r) * 100.0);
    *gpu = -1;
}

const pl_fpolicy pl_fpolicy_bestfit = {"bestfit", score, 1, 0};

PL_FPOLICY_OPS(pl_policy_bestfit, pl_fpolicy_bestfit, "bestfit",
               "least CPU and GPU left after the pod (ATC'23 baseline BestFit)");
