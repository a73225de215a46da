/* Helpers of the greedy baselines (fcfs, bf, pack, spread, random): each
 * picks GPUs on one machine by its rule; across machines the candidates are
 * compared by the policy's own key. */
#ifndef PL_POLICY_BASELINE_H
#define PL_POLICY_BASELINE_H

#include "internal/policy_impl.h"

/* Pick k of the free GPUs of machine m into gpus; 0 if it has fewer. */
typedef int (*pl_pick_fn)(pl_pctx *c, int32_t m, int32_t k, int32_t *gpus);
/* Negative when candidate a (machine ma) is preferred to b (machine mb). */
typedef double (*pl_rank_fn)(pl_pctx *c, const pl_cand *a, const pl_cand *b);

/* Every admissible machine's pick, evaluated; keeps the best by rank (the
 * first machine on a tie). */
PL_INTERNAL pl_status pl_baseline_choose(pl_pctx *c, const pl_job *job, int32_t k, pl_cand *cand,
                                         pl_choose_result *res, pl_pick_fn pick, pl_rank_fn rank);

/* The first (at most cap) free GPUs of socket s of machine m, in preorder. */
PL_INTERNAL int32_t pl_socket_free_gpus(pl_pctx *c, int32_t m, int32_t s, int32_t *out, int32_t cap);

/* Take GPUs socket by socket in the given order until k: the spill-over. */
PL_INTERNAL int pl_take_in_socket_order(pl_pctx *c, int32_t m, const int32_t *order, int32_t k,
                                        int32_t *gpus);

#endif
