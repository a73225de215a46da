/* GPU picking, admission and plans shared by the policies of Kim's thesis
 * (seed 003): sa-placement,
 * two-level and gpu-qos, and (decisions only) constraint-energy and
 * constraint-balance (not installed). */
#ifndef PL_POLICY_GPU_PICK_H
#define PL_POLICY_GPU_PICK_H

#include "internal/policy_impl.h"


/* The policy-specific options of the call: opts.policy_opts when it carries
 * the tag kind, defaults (NULL) when it is NULL, PL_EINVAL naming the
 * policy when it carries another tag. */
PL_INTERNAL pl_status pl_pick_ext(const pl_policy_request *req, pl_policy_ext_kind kind,
                                 const char *policy, const void **out);

/* Length of a machine name's platform type: the name without its trailing
 * digits (the whole name when it is only digits). */
PL_INTERNAL size_t pl_pick_platform_len(const char *name);

/* Which GPUs a pick may take. */
typedef enum pl_pick_usable {
    PL_PICK_FREE = 0,       /* at least one free unit (what every policy takes) */
    PL_PICK_EMPTY = 1,      /* nothing allocated on it */
    PL_PICK_SHAREABLE = 2,  /* nothing allocated and a units capacity >= 2 */
    PL_PICK_EXCLUSIVE = 3   /* nothing allocated and a units capacity of 1 */
} pl_pick_usable;

PL_INTERNAL int pl_pick_gpu_usable(const pl_pctx *c, int32_t g, pl_pick_usable u);

/* How a pick spreads k GPUs over a machine's sockets. */
typedef enum pl_pick_shape {
    PL_PICK_PACKED = 0,  /* fewest sockets: the fullest socket that holds all k, else
                           sockets from the most usable GPUs down */
    PL_PICK_SPREAD = 1   /* one GPU per socket in turn, sockets in index order */
} pl_pick_shape;

/* k usable GPUs of machine m into gpus (preorder within a socket).
 * PL_PICK_PACKED with first >= 0 starts on socket `first` (which must have a
 * usable GPU), then takes the others most usable first; first = -1: the
 * rule above. Returns 1 when k were found. */
PL_INTERNAL int pl_pick_pick(const pl_pctx *c, int32_t m, int32_t k, pl_pick_shape shape,
                            int32_t first, pl_pick_usable u, int32_t *gpus);

/* Usable GPUs of machine m. */
PL_INTERNAL int32_t pl_pick_usable_count(const pl_pctx *c, int32_t m, pl_pick_usable u);

/* Number of distinct sockets holding gpus. */
PL_INTERNAL int32_t pl_pick_sockets_used(const pl_pctx *c, const int32_t *gpus, int32_t k);

/* Whether some machine may hold job (k tasks) whole now. *why = NULL when
 * one does; else why not, and *kind: REJECTED when no machine ever could
 * (its GPU count, the node filter, node constraints), WAITING when only the
 * jobs there it must not share a machine with (anti-affinity) stand in the
 * way: they may finish. Call after pl_pctx_job_check() passed the job. */
PL_INTERNAL void pl_pick_admission(pl_pctx *c, const pl_job *job, int32_t k, pl_decision_kind *kind,
                                  const char **why);

/* Set decision i to PLACED from an evaluated candidate, with the slowdown
 * the policy predicts. */
PL_INTERNAL pl_status pl_pick_set_placed(pl_pctx *c, pl_decision *out, int32_t i,
                                        const pl_cand *cand, double slowdown);

/* Allocate / release a job's resource plan on the work topology, without
 * recording an occupant (the policies that move jobs while they search). */
PL_INTERNAL pl_status pl_pick_plan_take(pl_pctx *c, const pl_job *job, const int32_t *gpus,
                                       int32_t k, pl_plan_item **items, int32_t *n);
PL_INTERNAL void pl_pick_plan_give_back(pl_pctx *c, const pl_plan_item *items, int32_t n);

#endif
