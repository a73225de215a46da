/* "gpu-clustering": pods of one kind (shared GPU, or n whole GPUs) go
 * together: nodes already holding only that kind score in (75, 100], nodes
 * holding it among others (50, 75], idle nodes (25, 50], nodes of other
 * kinds (0, 25]; within a band the fuller node wins. The peer's integer
 * arithmetic. CPU-only pods score 0 everywhere (a random feasible node). */
#include "internal/frag.h"

static void score(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *sc, int32_t *gpu)
{
    (void)s;
    *gpu = -1;
    if (p->milli == 0) {
        *sc = 0;
        return;
    }
    int64_t gl = 0;
    for (int32_t i = 0; i < n->ngpu; i++)
        gl += n->left[i];
    int32_t tag = p->milli < 1000 ? 0 : (p->ngpu < PL_FRAG_MAXG ? p->ngpu : PL_FRAG_MAXG);
    int64_t base = 25 * ((int64_t)PL_FRAG_MAX_GPU - gl) / (int64_t)PL_FRAG_MAX_GPU;
    if (n->tags[tag] > 0)
        *sc = base + (n->ntags == 1 ? 75 : 50);
    else
        *sc = base + (n->ntags == 0 ? 25 : 0);
}

const pl_fpolicy pl_fpolicy_gpu_clustering = {"gpu-clustering", score, 0, 0};

PL_FPOLICY_OPS(pl_policy_gpu_clustering, pl_fpolicy_gpu_clustering, "gpu-clustering",
               "pods of one GPU kind on the same nodes, fuller first (ATC'23 baseline GpuClustering)");
