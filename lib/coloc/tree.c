/* REPTree-style regression trees (variance-reduction splits, reduced-error
 * pruning on a held-out fold) and their bagged ensemble (ch. 2 sec. 3.1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coloc_impl.h"
#include "internal/columns.h"

#define MAX_DEPTH_CAP 64

void pl_coloc_model_opts_init(pl_coloc_model_opts *o)
{
    if (o)
        *o = (pl_coloc_model_opts){.trees = 100, .bootstrap = 1, .min_leaf = 2, .max_depth = 0,
                                   .min_variance_prop = 1e-3, .prune_folds = 3, .seed = 1};
}

/* The arrays of a tree, one element per node. */
static const pl_column tree_cols[] = {
    PL_COLUMN(coloc_tree, feature), PL_COLUMN(coloc_tree, threshold), PL_COLUMN(coloc_tree, left),
    PL_COLUMN(coloc_tree, right), PL_COLUMN(coloc_tree, value),
};

typedef struct pair { double x, y; int64_t i; } pair;

typedef struct builder {
    const double *x, *y;
    int32_t d;
    const pl_coloc_model_opts *o;
    int32_t max_depth;
    double min_var;       /* absolute variance threshold */
    coloc_tree t;
    int32_t cap;
    pair *scratch;
} builder;

static int cmp_pair(const void *a, const void *b)
{
    const pair *p = a, *q = b;
    if (p->x < q->x) return -1;
    if (p->x > q->x) return 1;
    return p->i < q->i ? -1 : p->i > q->i;  /* stable order keeps runs reproducible */
}

static int32_t new_node(builder *b, double value)
{
    if (b->t.nodes == b->cap) {
        int32_t nc = b->cap ? 2 * b->cap : 16;
        if (pl_columns_grow(&b->t, tree_cols, PL_NCOLUMNS(tree_cols), b->cap, nc))
            return -1;
        b->cap = nc;
    }
    int32_t k = b->t.nodes++;
    b->t.feature[k] = -1;
    b->t.threshold[k] = 0;
    b->t.left[k] = b->t.right[k] = -1;
    b->t.value[k] = value;
    return k;
}

/* Best variance-reduction split of idx[0..n); returns 0 when none helps. */
static int best_split(builder *b, const int64_t *idx, int64_t n, double sse_parent,
                      int32_t *feat, double *thr)
{
    int32_t ml = b->o->min_leaf < 1 ? 1 : b->o->min_leaf;
    double best = sse_parent * 1e-12;
    int found = 0;
    for (int32_t f = 0; f < b->d; f++) {
        for (int64_t k = 0; k < n; k++)
            b->scratch[k] = (pair){ b->x[idx[k] * b->d + f], b->y[idx[k]], idx[k] };
        qsort(b->scratch, (size_t)n, sizeof *b->scratch, cmp_pair);
        double tot = 0, tot2 = 0;
        for (int64_t k = 0; k < n; k++) {
            tot += b->scratch[k].y;
            tot2 += b->scratch[k].y * b->scratch[k].y;
        }
        double s = 0, s2 = 0;
        for (int64_t k = 0; k + 1 < n; k++) {
            s += b->scratch[k].y;
            s2 += b->scratch[k].y * b->scratch[k].y;
            int64_t nl = k + 1, nr = n - nl;
            if (nl < ml || nr < ml || b->scratch[k].x == b->scratch[k + 1].x)
                continue;
            double sr = tot - s, sr2 = tot2 - s2;
            double sse = (s2 - s * s / (double)nl) + (sr2 - sr * sr / (double)nr);
            double gain = sse_parent - sse;
            if (gain > best) {
                best = gain;
                *feat = f;
                double mid = 0.5 * (b->scratch[k].x + b->scratch[k + 1].x);
                /* rounding can push the midpoint onto the right value */
                *thr = mid < b->scratch[k + 1].x ? mid : b->scratch[k].x;
                found = 1;
            }
        }
    }
    return found;
}

static int32_t grow(builder *b, int64_t *idx, int64_t n, int32_t depth)
{
    double s = 0, s2 = 0;
    for (int64_t k = 0; k < n; k++) {
        s += b->y[idx[k]];
        s2 += b->y[idx[k]] * b->y[idx[k]];
    }
    double mean = s / (double)n;
    double sse = s2 - s * s / (double)n;
    if (sse < 0)
        sse = 0;
    int32_t node = new_node(b, mean);
    if (node < 0)
        return -1;
    int32_t ml = b->o->min_leaf < 1 ? 1 : b->o->min_leaf;
    if (n < 2 * ml || depth >= b->max_depth || sse / (double)n <= b->min_var)
        return node;
    int32_t f = -1;
    double thr = 0;
    if (!best_split(b, idx, n, sse, &f, &thr))
        return node;
    int64_t nl = 0;
    for (int64_t k = 0; k < n; k++)
        if (b->x[idx[k] * b->d + f] <= thr) {
            int64_t t = idx[nl];
            idx[nl++] = idx[k];
            idx[k] = t;
        }
    int32_t l = grow(b, idx, nl, depth + 1);
    if (l < 0)
        return -1;
    int32_t r = grow(b, idx + nl, n - nl, depth + 1);
    if (r < 0)
        return -1;
    b->t.feature[node] = f;
    b->t.threshold[node] = thr;
    b->t.left[node] = l;
    b->t.right[node] = r;
    return node;
}

/* Reduced-error pruning: returns the prune-set squared error of the
 * (possibly pruned) subtree; a subtree no better than its leaf is cut. */
static double prune(builder *b, int32_t node, int64_t *idx, int64_t n)
{
    coloc_tree *t = &b->t;
    double leaf_err = 0;
    for (int64_t k = 0; k < n; k++) {
        double e = b->y[idx[k]] - t->value[node];
        leaf_err += e * e;
    }
    if (t->feature[node] < 0)
        return leaf_err;
    int32_t f = t->feature[node];
    int64_t nl = 0;
    for (int64_t k = 0; k < n; k++)
        if (b->x[idx[k] * b->d + f] <= t->threshold[node]) {
            int64_t s = idx[nl];
            idx[nl++] = idx[k];
            idx[k] = s;
        }
    double sub = prune(b, t->left[node], idx, nl) + prune(b, t->right[node], idx + nl, n - nl);
    if (sub >= leaf_err) {
        t->feature[node] = -1;
        t->left[node] = t->right[node] = -1;
        return leaf_err;
    }
    return sub;
}

/* Copy the reachable nodes of src into dst in preorder. */
static int32_t compact(const coloc_tree *src, int32_t node, coloc_tree *dst)
{
    int32_t k = dst->nodes++;
    dst->feature[k] = src->feature[node];
    dst->threshold[k] = src->threshold[node];
    dst->value[k] = src->value[node];
    dst->left[k] = dst->right[k] = -1;
    if (src->feature[node] >= 0) {
        dst->left[k] = compact(src, src->left[node], dst);
        dst->right[k] = compact(src, src->right[node], dst);
    }
    return k;
}

static pl_status tree_alloc(coloc_tree *t, int32_t nodes)
{
    memset(t, 0, sizeof *t);
    return pl_columns_alloc(t, tree_cols, PL_NCOLUMNS(tree_cols), nodes);
}

void coloc_tree_free(coloc_tree *t)
{
    if (!t)
        return;
    pl_columns_free(t, tree_cols, PL_NCOLUMNS(tree_cols));
    memset(t, 0, sizeof *t);
}

double coloc_tree_predict(const coloc_tree *t, const double *x)
{
    int32_t k = 0;
    while (t->feature[k] >= 0)
        k = x[t->feature[k]] <= t->threshold[k] ? t->left[k] : t->right[k];
    return t->value[k];
}

/* Learn one tree from the samples sample[0..n) (indices may repeat). */
static pl_status learn_tree(builder *b, int64_t *sample, int64_t n, uint64_t *rng, coloc_tree *out)
{
    int64_t nprune = 0;
    int32_t folds = b->o->prune_folds;
    if (folds >= 2 && n >= 2 * folds) {
        for (int64_t k = n - 1; k > 0; k--) {
            int64_t j = pl_rng_below(rng, k + 1);
            int64_t t = sample[k];
            sample[k] = sample[j];
            sample[j] = t;
        }
        nprune = n / folds;
    }
    b->t = (coloc_tree){ 0 };
    b->cap = 0;
    pl_status st = PL_OK;
    if (grow(b, sample + nprune, n - nprune, 0) < 0)
        st = PL_ENOMEM;
    if (st == PL_OK && nprune > 0)
        prune(b, 0, sample, nprune);
    if (st == PL_OK) {
        int32_t reach = 0;
        /* count reachable nodes: a preorder walk with an explicit stack */
        int32_t *stack = pl_alloc((size_t)b->t.nodes + 1, sizeof *stack);
        if (!stack)
            st = PL_ENOMEM;
        else {
            int32_t top = 0;
            stack[top++] = 0;
            while (top) {
                int32_t k = stack[--top];
                reach++;
                if (b->t.feature[k] >= 0) {
                    stack[top++] = b->t.left[k];
                    stack[top++] = b->t.right[k];
                }
            }
            free(stack);
            st = tree_alloc(out, reach);
            if (st == PL_OK)
                compact(&b->t, 0, out);
        }
    }
    coloc_tree_free(&b->t);
    return st;
}

static void model_free_names(pl_coloc_model *m)
{
    if (m->names)
        for (int32_t i = 0; i <= m->features; i++)
            free(m->names[i]);
    free(m->names);
}

void pl_coloc_model_free(pl_coloc_model *m)
{
    if (!m)
        return;
    model_free_names(m);
    if (m->trees)
        for (int32_t t = 0; t < m->ntrees; t++)
            coloc_tree_free(&m->trees[t]);
    free(m->trees);
    free(m);
}

pl_status coloc_model_shell(int32_t features, const char *const *names, const char *target,
                            int32_t ntrees, pl_coloc_model **out)
{
    pl_coloc_model *m = pl_alloc(1, sizeof *m);
    if (!m)
        return PL_ENOMEM;
    m->features = features;
    m->ntrees = ntrees;
    m->names = pl_alloc((size_t)features + 1, sizeof *m->names);
    m->trees = pl_alloc((size_t)ntrees, sizeof *m->trees);
    if (!m->names || !m->trees) {
        pl_coloc_model_free(m);
        return PL_ENOMEM;
    }
    for (int32_t i = 0; i <= features; i++) {
        char buf[32];
        const char *s = i < features ? (names ? names[i] : NULL) : target;
        if (!s && i < features) {
            snprintf(buf, sizeof buf, "f%d", (int)i);
            s = buf;
        } else if (!s)
            s = "target";
        m->names[i] = pl_strdup(s);
        if (!m->names[i]) {
            pl_coloc_model_free(m);
            return PL_ENOMEM;
        }
    }
    *out = m;
    return PL_OK;
}

pl_status coloc_train_named(const double *x, const double *y, int64_t n, int32_t d,
                            const char *const *names, const char *target,
                            const pl_coloc_model_opts *opts, pl_coloc_model **out)
{
    if (!x || !y || !out || n < 1 || d < 1)
        return pl_err(PL_EINVAL, "pl_coloc_model_train: need x, y, out, n >= 1 and features >= 1");
    *out = NULL;
    pl_coloc_model_opts def;
    pl_coloc_model_opts_init(&def);
    const pl_coloc_model_opts *o = opts ? opts : &def;
    if (o->trees < 1 || o->min_leaf < 1 || o->max_depth < 0 || o->prune_folds < 0 ||
        !(o->min_variance_prop >= 0))
        return pl_err(PL_EINVAL, "pl_coloc_model_train: bad option (trees %d, min_leaf %d, max_depth %d, prune_folds %d)",
                      (int)o->trees, (int)o->min_leaf, (int)o->max_depth, (int)o->prune_folds);
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(y[i]))
            return pl_err(PL_EINVAL, "pl_coloc_model_train: target of sample %lld is not finite", (long long)i);
        for (int32_t f = 0; f < d; f++)
            if (!isfinite(x[i * d + f]))
                return pl_err(PL_EINVAL, "pl_coloc_model_train: feature %d of sample %lld is not finite",
                              (int)f, (long long)i);
    }
    pl_coloc_model *m = NULL;
    pl_status st = coloc_model_shell(d, names, target, o->trees, &m);
    if (st != PL_OK)
        return st;
    builder b = { .x = x, .y = y, .d = d, .o = o };
    b.max_depth = o->max_depth > 0 && o->max_depth < MAX_DEPTH_CAP ? o->max_depth : MAX_DEPTH_CAP;
    double s = 0, s2 = 0;
    for (int64_t i = 0; i < n; i++) {
        s += y[i];
        s2 += y[i] * y[i];
    }
    double var = (s2 - s * s / (double)n) / (double)n;
    b.min_var = o->min_variance_prop * (var > 0 ? var : 0);
    b.scratch = pl_alloc((size_t)n, sizeof *b.scratch);
    int64_t *sample = pl_alloc((size_t)n, sizeof *sample);
    if (!b.scratch || !sample) {
        st = PL_ENOMEM;
        goto done;
    }
    for (int32_t t = 0; t < o->trees && st == PL_OK; t++) {
        /* a stream per tree, so tree t does not depend on how many draws tree t-1 made */
        uint64_t rng = o->seed ^ (0xd1b54a32d192ed03ull * (uint64_t)(t + 1));
        pl_rng_u64(&rng);
        for (int64_t i = 0; i < n; i++)
            sample[i] = o->bootstrap ? pl_rng_below(&rng, n) : i;
        st = learn_tree(&b, sample, n, &rng, &m->trees[t]);
    }
done:
    free(b.scratch);
    free(sample);
    if (st == PL_ENOMEM)
        st = pl_err(PL_ENOMEM, "pl_coloc_model_train: out of memory");
    return PL_HAND_OUT(st, m, pl_coloc_model_free, out);
}

pl_status pl_coloc_model_train(const double *x, const double *y, int64_t n, int32_t features,
                               const char *const *names, const pl_coloc_model_opts *opts,
                               pl_coloc_model **out)
{
    return coloc_train_named(x, y, n, features, names, NULL, opts, out);
}

pl_status pl_coloc_model_predict(const pl_coloc_model *m, const double *x, double *y)
{
    if (!m || !x || !y)
        return pl_err(PL_EINVAL, "pl_coloc_model_predict: NULL argument");
    double s = 0;
    for (int32_t t = 0; t < m->ntrees; t++)
        s += coloc_tree_predict(&m->trees[t], x);
    *y = s / (double)m->ntrees;
    return PL_OK;
}

int32_t pl_coloc_model_features(const pl_coloc_model *m)
{
    return m ? m->features : 0;
}

int32_t pl_coloc_model_trees(const pl_coloc_model *m)
{
    return m ? m->ntrees : 0;
}

const char *pl_coloc_model_feature_name(const pl_coloc_model *m, int32_t i)
{
    return m && i >= 0 && i < m->features ? m->names[i] : NULL;
}
