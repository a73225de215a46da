/* "fgd": fragmentation gradient descent (Weng et al., ATC'23): the node
 * whose fragmentation, measured against the workload's distribution of
 * requests, grows least when the pod lands on it; a shared pod takes the
 * GPU of that node where it grows least. The score is the peer's:
 * sigmoid(decrease / 1000 milli) x 100, truncated to an integer, so nodes
 * within a few tens of milli of each other tie (and a tie is drawn at
 * random, as kube-scheduler does). */
#include <math.h>
#include "internal/frag.h"

static double to_score(double decrease)
{
    return (double)(int64_t)(100.0 / (1.0 + exp(-decrease / 1000.0)));
}

static void score(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *sc, int32_t *gpu)
{
    /* The peer compares the GPUs of a node by their integer scores too. */
    *sc = (int64_t)pl_fgrad_best(s, p, n, pl_frag_node, to_score, gpu);
}

const pl_fpolicy pl_fpolicy_fgd = {"fgd", score, 0, 1};

PL_FPOLICY_OPS(pl_policy_fgd, pl_fpolicy_fgd, "fgd",
               "fragmentation gradient descent (ATC'23): least growth of fragmentation against the request mix");
