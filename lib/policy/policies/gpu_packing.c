/* "gpu-packing": the peer's GpuPacking: a shared pod onto a partly used GPU
 * first (the fuller the better), then idle GPUs of a used node (fewer
 * better), then an idle node (fewer GPUs better), with its score bands
 * [50, 100], [33, 50], [0, 33]. CPU-only pods score 0 (random node). */
#include "internal/frag.h"

static void score(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *sc, int32_t *gpu)
{
    (void)s;
    *gpu = -1;
    *sc = 0;
    if (p->milli == 0)
        return;
    int32_t idle = 0;
    for (int32_t i = 0; i < n->ngpu; i++)
        idle += n->left[i] == 1000;
    if (idle == n->ngpu) {
        int64_t v = 100 / 3 - idle;
        *sc = v > idle ? v : idle;
        return;
    }
    pl_fchoice c;
    pl_fnode_pick_gpus(n, p, -1, &c);
    int32_t idle_used = 0;
    int64_t free_pct = 0;
    for (int32_t i = 0; i < c.ngpu; i++) {
        idle_used += n->left[c.gpu[i]] == 1000;
        free_pct += n->left[c.gpu[i]] * 100 / 1000;
    }
    if (idle_used > 0) {
        int64_t v = 100 / 2 - idle_used;
        *sc = v > 100 / 3 ? v : 100 / 3;
        return;
    }
    int64_t v = 100 - free_pct / 10;
    *sc = v > 100 / 2 ? v : 100 / 2;
}

const pl_fpolicy pl_fpolicy_gpu_packing = {"gpu-packing", score, 0, 0};

PL_FPOLICY_OPS(pl_policy_gpu_packing, pl_fpolicy_gpu_packing, "gpu-packing",
               "shared GPUs first, then used nodes, then idle nodes (ATC'23 baseline GpuPacking)");
