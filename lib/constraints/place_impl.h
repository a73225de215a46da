/* The state the ch. 4 placement algorithms share between the batch stream
 * (pl_constraint_place(), place.c) and the VM-by-VM replay
 * (pl_constraint_place_online(), online.c). Not installed. */
#ifndef PL_PLACE_IMPL_H
#define PL_PLACE_IMPL_H

#include "internal/constraints_impl.h"

enum { ALG_ES_BASIC, ALG_ATT, ALG_ACT, ALG_LB_BASIC, ALG_PERIODIC, ALG_SPOT };

typedef struct pstate {
    const pl_constraints *c;
    const pl_cnodes *nodes;
    int32_t nn, K;
    int32_t *at;       /* class -> node, -1 unplaced */
    double *ucores, *umem;
    int32_t *ncls;     /* classes on a node: > 0 means active */
    int32_t *order;    /* att-aware: nodes by decreasing attributes possessed, else NULL (index order) */
    /* Class sizes: the resolved classes' (c->class_cores, class_mem) for the
     * batch stream; the created members' so far in the online replay. */
    const double *kc, *km;
    int32_t keep;      /* node counted active although empty (the node of a class being grown), or -1 */
} pstate;

/* Allocate the state for c (resolved) on nodes, nothing placed; alg from
 * pl_cplace_check(). pl_cplace_free() releases it even after an error. */
PL_INTERNAL pl_status pl_cplace_init(pstate *s, const pl_constraints *c, const pl_cnodes *nodes, int alg);
PL_INTERNAL void pl_cplace_free(pstate *s);
/* Check o (algorithm name, threshold, period) for `who`; *alg receives the ALG_ value. */
PL_INTERNAL pl_status pl_cplace_check(const char *who, const pl_constraint_place_opts *o, int *alg);
/* Place (unplaced) class k by algorithm alg with its rearrangement and spot
 * migration; 0 when it cannot be placed. *st receives PL_ENOMEM if any. */
PL_INTERNAL int pl_cplace_one(pstate *s, int alg, int32_t k, const pl_constraint_place_opts *o, pl_status *st);
PL_INTERNAL void pl_cplace_put(pstate *s, int32_t k, int32_t n);
PL_INTERNAL void pl_cplace_take(pstate *s, int32_t k);
/* Population sigma of CPU utilisation over all nodes. */
PL_INTERNAL double pl_cplace_sigma(const pstate *s);
/* Periodic migration round; returns the moves made. */
PL_INTERNAL int32_t pl_cplace_periodic(pstate *s);

#endif
