/* "random-fit": a node drawn uniformly among those that can hold the pod
 * (the peer's Random baseline); inside it, best-fit GPUs. */
#include "internal/frag.h"

const pl_fpolicy pl_fpolicy_random_fit = {"random-fit", NULL, 0, 0};

PL_FPOLICY_OPS(pl_policy_random_fit, pl_fpolicy_random_fit, "random-fit",
               "a uniformly random node that holds the pod, best-fit GPUs (ATC'23 baseline Random)");
