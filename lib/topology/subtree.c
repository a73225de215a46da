/* Shape and amounts of a subtree, read from the arrays (subtree.h). */
#include <string.h>
#include "internal/topology_internal.h"
#include "topology_impl.h"

pl_status pl_topo_subtree_shape(const pl_topology *t, int32_t v, int32_t *pos, int32_t **verts,
                                int64_t *vcap, int32_t *n, int64_t **words, int64_t *wcap,
                                int64_t *nwords, int *self_contained)
{
    *n = 0;
    *nwords = 0;
    *self_contained = 1;
    pl_status st = PL_OK;
    /* Preorder through the child and sibling lists, never above v. */
    for (int32_t x = v; x >= 0 && !st;) {
        if (!(st = pl_grow((void **)verts, vcap, *n + 1, sizeof **verts))) {
            pos[x] = *n;
            (*verts)[(*n)++] = x;
        }
        if (t->first_child[x] >= 0) {
            x = t->first_child[x];
            continue;
        }
        while (x != v && t->next_sibling[x] < 0)
            x = t->parent[x];
        x = x == v ? -1 : t->next_sibling[x];
    }
    for (int32_t i = 0; i < *n && !st; i++) {
        int32_t x = (*verts)[i], deg = 0;
        for (int32_t h = t->first_inc[x]; h >= 0; h = t->next_inc[h])
            deg++;
        if ((st = pl_grow((void **)words, wcap, *nwords + 3 + 3 * (int64_t)deg, sizeof **words)))
            break;
        int64_t *w = *words + *nwords;
        *w++ = t->kind[x];
        *w++ = i ? pos[t->parent[x]] : -1;
        *w++ = deg;
        for (int32_t h = t->first_inc[x]; h >= 0; h = t->next_inc[h]) {
            int32_t l = h / 2, other = t->end[h ^ 1];
            *w++ = t->lkind[l];
            *w++ = t->weight[l];
            *w++ = pos[other];
            if (pos[other] < 0 && i > 0)
                *self_contained = 0;
        }
        *nwords = w - *words;
    }
    for (int32_t i = 0; i < *n; i++)
        pos[(*verts)[i]] = -1;
    return st;
}

void pl_topo_capacities_of(const pl_topology *t, const int32_t *verts, int32_t n, int64_t *out)
{
    for (int32_t i = 0; i < n; i++)
        memcpy(out + (int64_t)i * PL_RES_COUNT, pl_topo_cap(t, verts[i]), PL_RES_COUNT * sizeof *out);
}

int64_t pl_topo_used_of(const pl_topology *t, const int32_t *verts, int32_t n, int64_t *out)
{
    int64_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const int64_t *cap = pl_topo_cap(t, verts[i]), *used = pl_topo_used(t, verts[i]);
        for (int r = 0; r < PL_RES_COUNT; r++)
            if (cap[r] > 0)
                out[k++] = used[r];
    }
    return k;
}
