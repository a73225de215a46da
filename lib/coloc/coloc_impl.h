/* Internal layout of the coloc module (not installed). */
#ifndef PL_COLOC_IMPL_H
#define PL_COLOC_IMPL_H

#include <stdint.h>
#include <placement/coloc.h>
#include "internal/core.h"

/* One regression tree as flat arrays; node 0 is the root. */
typedef struct coloc_tree {
    int32_t nodes;
    int32_t *feature;    /* -1 for a leaf */
    double *threshold;   /* go left when x[feature] <= threshold */
    int32_t *left, *right;
    double *value;       /* mean target of the node's growing samples */
} coloc_tree;

struct pl_coloc_model {
    int32_t features;
    char **names;        /* [features + 1]: the last one names the target */
    int32_t ntrees;
    coloc_tree *trees;
};

PL_INTERNAL void coloc_tree_free(coloc_tree *t);
PL_INTERNAL double coloc_tree_predict(const coloc_tree *t, const double *x);
/* Allocate a model shell with names (copied, or generated when NULL). */
PL_INTERNAL pl_status coloc_model_shell(int32_t features, const char *const *names,
                                        const char *target, int32_t ntrees, pl_coloc_model **out);

/* pl_coloc_model_train with a target name (the CSV header's last column). */
PL_INTERNAL pl_status coloc_train_named(const double *x, const double *y, int64_t n, int32_t d,
                                        const char *const *names, const char *target,
                                        const pl_coloc_model_opts *opts, pl_coloc_model **out);

#endif
