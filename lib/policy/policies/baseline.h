/* Helpers of the greedy baselines (fcfs, bf, pack, spread, random): each
 * picks GPUs on one machine by its rule; across machines the candidates are
 * compared by the policy's own key. */
#ifndef PL_POLICY_BASELINE_H
#define PL_POLICY_BASELINE_H

#include "internal/policy_impl.h"

/* Every admissible machine's pick (rules->pick), evaluated; keeps the best
 * by rules->rank (the first machine on a tie). The choose of the rules of
 * fcfs, bf, pack and spread. */
PL_INTERNAL pl_status pl_baseline_choose(pl_pctx *c, const pl_job *job, int32_t k, const pl_engine_rules *rules,
                                         pl_cand *cand, pl_choose_result *res);

/* The first (at most cap) free GPUs of socket s of machine m, in preorder. */
PL_INTERNAL int32_t pl_socket_free_gpus(pl_pctx *c, int32_t m, int32_t s, int32_t *out, int32_t cap);

/* Take GPUs socket by socket in the given order until k: the spill-over. */
PL_INTERNAL int pl_take_in_socket_order(pl_pctx *c, int32_t m, const int32_t *order, int32_t k,
                                        int32_t *gpus);

#endif
