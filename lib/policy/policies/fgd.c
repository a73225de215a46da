/* "fgd": fragmentation gradient descent (Weng et al., ATC'23): the node
 * whose fragmentation, measured against the workload's distribution of
 * requests, grows least when the pod lands on it; a shared pod takes the
 * GPU of that node where it grows least. The score is the peer's:
 * sigmoid(decrease / 1000 milli) x 100, truncated to an integer, so nodes
 * within a few tens of milli of each other tie (and a tie is drawn at
 * random, as kube-scheduler does). */
#include <math.h>
#include "internal/frag.h"

static int64_t to_score(double before, double after)
{
    return (int64_t)(100.0 / (1.0 + exp(-(before - after) / 1000.0)));
}

static void score(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *sc, int32_t *gpu)
{
    double before = pl_frag_node(s, (pl_fnode *)n);
    pl_fnode t;
    if (p->milli > 0 && p->milli < 1000) {
        *sc = 0;
        *gpu = -1;
        for (int32_t i = 0; i < n->ngpu; i++) {
            int seen = 0;
            /* GPUs with as much left give the same state: the first one. */
            for (int32_t j = 0; j < i && !seen; j++)
                seen = n->left[j] == n->left[i];
            if (n->left[i] < p->milli || seen)
                continue;
            t = *n;
            pl_fnode_sub(&t, p, i);
            int64_t v = to_score(before, pl_frag_node(s, &t));
            if (*gpu < 0 || v > *sc) {
                *sc = v;
                *gpu = i;
            }
        }
        return;
    }
    t = *n;
    pl_fnode_sub(&t, p, -1);
    *sc = to_score(before, pl_frag_node(s, &t));
    *gpu = -1;
}

const pl_fpolicy pl_fpolicy_fgd = {"fgd", score, 0, 1};

PL_FPOLICY_OPS(pl_policy_fgd, pl_fpolicy_fgd, "fgd",
               "fragmentation gradient descent (ATC'23): least growth of fragmentation against the request mix");
