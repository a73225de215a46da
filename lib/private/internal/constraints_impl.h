/* Internal layout of node lists and constraint sets (not installed). */
#ifndef PL_CONSTRAINTS_IMPL_H
#define PL_CONSTRAINTS_IMPL_H

#include <placement/constraint_sets.h>
#include "internal/core.h"

typedef struct cnode {
    char *name;
    double cores, mem_gb;
    int32_t nattrs;
    char **keys, **values;
} cnode;

struct pl_cnodes {
    cnode *v;
    int64_t n, cap;
};

typedef struct cfilter {
    int32_t unit;
    int negate; /* MustNot converted to Must: attribute absent or different */
    char *key, *value;
    /* A node-set filter (pl_constraints_node_set) instead of an attribute
     * test: node n passes when n < nset and set[n]; key is its label. */
    uint8_t *set;
    int32_t nset;
} cfilter;

typedef struct cpair {
    int32_t a, b;
} cpair;

struct pl_constraints {
    int32_t units;
    double *cores, *mem_gb;
    cfilter *filters;
    int64_t nfilters, cap_filters;
    cpair *coloc, *sep;
    int64_t ncoloc, cap_coloc, nsep, cap_sep;
    /* Valid after a resolve (resolved != 0). */
    int resolved;
    int32_t nnodes;             /* node count at the resolve */
    int32_t nclasses;
    int32_t *class_of;          /* [units] */
    int32_t *first_unit;        /* [classes] lowest member */
    double *class_cores, *class_mem;
    char *allowed;              /* [classes * nnodes] filters allow the node */
    int32_t **anti;             /* [classes] anti-affine classes, anti_n[c] of them */
    int32_t *anti_n;
    pl_conflict *conflicts;
    int32_t nconflicts;
};

/* For this module's view of a topology and its jobs (topology_view.c):
 * a node whose attributes come as arrays (keys unique, any characters), and
 * a VMtoNode-Must given directly as its node set (the thesis computes every
 * such constraint as "the set of nodes for which the predicate is true"),
 * set[n] != 0 for the allowed nodes n < nset, copied; label names it in
 * messages ("node filter"). */
PL_INTERNAL pl_status pl_cnodes_add_attrs(pl_cnodes *nodes, const char *name, double cores,
                                          double mem_gb, const char *const *keys,
                                          const char *const *values, int32_t nattrs, int32_t *id);
PL_INTERNAL pl_status pl_constraints_node_set(pl_constraints *c, int32_t unit, const uint8_t *set,
                                              int32_t nset, const char *label);

PL_INTERNAL int pl_cfilter_matches(const pl_cnodes *nodes, int32_t node, const cfilter *f);
PL_INTERNAL void pl_constraints_invalidate(pl_constraints *c);

#endif
