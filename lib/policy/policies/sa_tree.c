/* sa-placement's learned slowdown model (PL_SA_MODEL_TREE): Kim's bagged
 * REPTree (thesis ch. 2 sec. 3.1, lib/coloc/tree.c) trained on the measured
 * pairs of a profile set. The thesis's inputs are per-application resource
 * metrics measured solo; a pl_job carries none, so a class (type, size, k)
 * is described by what the profile set knows of it solo: its GPU count, its
 * solo time there and on 1 GPU, how it scales from 1 to k GPUs and how much
 * spreading 2 GPUs over sockets costs it (doc/policies.md sec. 4e). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sa_placement.h"
#include "internal/interference_impl.h"

static const char *const feature_names[SA_TREE_FEATURES] = {
    "k", "solo_s", "solo1_s", "scaling", "spread_cost",
    "co_k", "co_solo_s", "co_solo1_s", "co_scaling", "co_spread_cost",
};

/* Solo time at a spread, else at the other one, else 0. */
static double solo_any(const pl_profile_set *ps, const char *type, const char *size, int32_t k, pl_spread first)
{
    double t;
    pl_spread other = first == PL_SPREAD_INTRA_SOCKET ? PL_SPREAD_INTER_SOCKET : PL_SPREAD_INTRA_SOCKET;
    if (!pl_profile_set_solo(ps, type, size, k, first, &t) || !pl_profile_set_solo(ps, type, size, k, other, &t))
        return t;
    return 0;
}

int sa_tree_class_features(const pl_profile_set *ps, const char *type, const char *size, int32_t k, double *f)
{
    double intra2, inter2;
    f[0] = k;
    f[1] = solo_any(ps, type, size, k, PL_SPREAD_INTRA_SOCKET);
    f[2] = solo_any(ps, type, size, 1, PL_SPREAD_INTRA_SOCKET);
    f[3] = f[1] > 0 && f[2] > 0 ? f[1] / f[2] : 0;
    f[4] = !pl_profile_set_solo(ps, type, size, 2, PL_SPREAD_INTRA_SOCKET, &intra2) &&
                   !pl_profile_set_solo(ps, type, size, 2, PL_SPREAD_INTER_SOCKET, &inter2)
               ? inter2 / intra2
               : 0;
    return f[1] > 0;
}

/* A fixed sample order, so the model does not depend on the hash table's layout. */
static int cmp_pair(const void *pa, const void *pb)
{
    const pl_profile_pair *a = pa, *b = pb;
    int c;
    if ((c = strcmp(a->type, b->type)) || (c = strcmp(a->size, b->size)))
        return c;
    if (a->gpus != b->gpus)
        return a->gpus < b->gpus ? -1 : 1;
    if ((c = strcmp(a->other_type, b->other_type)) || (c = strcmp(a->other_size, b->other_size)))
        return c;
    return a->other_gpus < b->other_gpus ? -1 : a->other_gpus > b->other_gpus;
}

pl_status sa_tree_samples(const pl_profile_set *ps, double **x, double **y, int64_t *n)
{
    *x = *y = NULL;
    *n = 0;
    int32_t count = 0;
    pl_status st = pl_profile_set_counts(ps, NULL, &count);
    if (st)
        return st;
    pl_profile_pair *pairs = pl_alloc((size_t)count + 1, sizeof *pairs);
    double *fx = pl_alloc((size_t)count * SA_TREE_FEATURES + 1, sizeof *fx);
    double *fy = pl_alloc((size_t)count + 1, sizeof *fy);
    if (!pairs || !fx || !fy) {
        free(pairs);
        free(fx);
        free(fy);
        return PL_ENOMEM;
    }
    int64_t np = 0, cursor = 0;
    while (np < count && pl_profile_set_next_pair(ps, &cursor, &pairs[np]))
        np++;
    qsort(pairs, (size_t)np, sizeof *pairs, cmp_pair);
    for (int64_t i = 0; i < np; i++) {
        const pl_profile_pair *p = &pairs[i];
        double *f = fx + *n * SA_TREE_FEATURES, solo;
        /* The target is the lookup's slowdown (co-located over intra-socket
         * solo); a pair whose job or neighbour has no solo time is no sample. */
        if (pl_profile_set_solo(ps, p->type, p->size, p->gpus, PL_SPREAD_INTRA_SOCKET, &solo) ||
            !sa_tree_class_features(ps, p->type, p->size, p->gpus, f) ||
            !sa_tree_class_features(ps, p->other_type, p->other_size, p->other_gpus, f + SA_TREE_FEATURES / 2))
            continue;
        fy[(*n)++] = p->seconds / solo;
    }
    free(pairs);
    *x = fx;
    *y = fy;
    return PL_OK;
}

pl_status sa_tree_train(const pl_profile_set *ps, pl_coloc_model **out)
{
    *out = NULL;
    double *x, *y;
    int64_t n;
    pl_status st = sa_tree_samples(ps, &x, &y, &n);
    if (!st && n == 0)
        st = pl_err(PL_EINVAL, "sa-placement: model tree: the profile set has no measured pair with both "
                               "workloads' solo times to learn from");
    if (!st) /* The thesis's ensemble: coloc's defaults (100 bootstrap REPTrees, seed 1). */
        st = pl_coloc_model_train(x, y, n, SA_TREE_FEATURES, feature_names, NULL, out);
    free(x);
    free(y);
    return st;
}

pl_status sa_tree_slowdown(const pl_coloc_model *m, const pl_profile_set *ps, const sa_class *a, const sa_class *b,
                           double *sd)
{
    double f[SA_TREE_FEATURES];
    *sd = 1.0;
    /* An unprofiled class: nothing to describe it by; assumed not to
     * interfere, as the lookup assumes for an unmeasured pair. */
    if (!sa_tree_class_features(ps, a->type, a->size, a->k, f) ||
        !sa_tree_class_features(ps, b->type, b->size, b->k, f + SA_TREE_FEATURES / 2))
        return PL_OK;
    return pl_coloc_model_predict(m, f, sd);
}
