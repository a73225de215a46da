/* Graph queries on a topology: containment lists, shortest and widest paths,
 * distance matrices and the bipartition helper. All read-only: scratch space
 * is allocated per call so concurrent queries on one handle are safe. */
#include <stdlib.h>
#include <string.h>
#include "topology_impl.h"
#include "internal/topology_internal.h"

pl_status pl_topo_list_out(const int32_t *res, int32_t k, int32_t *out, int32_t cap, int32_t *count,
                           const char *fn)
{
    if (!count)
        return pl_err(PL_EINVAL, "%s: count is NULL", fn);
    *count = k;
    if (!out)
        return PL_OK;
    if (cap < 0)
        return pl_err(PL_EINVAL, "%s: negative capacity", fn);
    int32_t w = k < cap ? k : cap;
    if (w > 0)
        memcpy(out, res, (size_t)w * sizeof *out);
    if (k > cap)
        return pl_err(PL_ELIMIT, "%s: %d results, room for %d", fn, k, cap);
    return PL_OK;
}

/* Walk the subtree of v (or the whole forest for v = -1) in preorder. */
static int32_t next_preorder(const pl_topology *t, int32_t x, int32_t top)
{
    if (t->first_child[x] >= 0)
        return t->first_child[x];
    while (x != top) {
        if (t->next_sibling[x] >= 0)
            return t->next_sibling[x];
        x = t->parent[x];
        if (x < 0)
            return -1;
    }
    return -1;
}

pl_status pl_topology_descendants(const pl_topology *t, int32_t v, int kind, int32_t *out,
                                  int32_t cap, int32_t *count)
{
    const char *fn = "pl_topology_descendants";
    if (!t)
        return pl_err(PL_EINVAL, "%s: topology is NULL", fn);
    if (v < -1 || v >= t->n)
        return pl_err(PL_EINVAL, "%s: vertex %d out of range", fn, v);
    if (kind < -1 || kind >= PL_VK_COUNT)
        return pl_err(PL_EINVAL, "%s: bad vertex kind %d", fn, kind);
    if (!count)
        return pl_err(PL_EINVAL, "%s: count is NULL", fn);
    int32_t k = 0;
    pl_status st = PL_OK;
    /* v = -1: every root's subtree in turn (top = -1 never stops the climb). */
    int32_t x = v >= 0 ? v : t->first_root;
    while (x >= 0) {
        if (kind < 0 || t->kind[x] == kind) {
            if (out && k < cap)
                out[k] = x;
            k++;
        }
        x = next_preorder(t, x, v);
    }
    *count = k;
    if (out && cap < 0)
        return pl_err(PL_EINVAL, "%s: negative capacity", fn);
    if (out && k > cap)
        st = pl_err(PL_ELIMIT, "%s: %d results, room for %d", fn, k, cap);
    return st;
}

pl_status pl_topology_children(const pl_topology *t, int32_t v, int32_t *out, int32_t cap,
                               int32_t *count)
{
    const char *fn = "pl_topology_children";
    if (!t)
        return pl_err(PL_EINVAL, "%s: topology is NULL", fn);
    if (v < -1 || v >= t->n)
        return pl_err(PL_EINVAL, "%s: vertex %d out of range", fn, v);
    if (!count)
        return pl_err(PL_EINVAL, "%s: count is NULL", fn);
    if (out && cap < 0)
        return pl_err(PL_EINVAL, "%s: negative capacity", fn);
    int32_t k = 0;
    for (int32_t c = v < 0 ? t->first_root : t->first_child[v]; c >= 0; c = t->next_sibling[c]) {
        if (out && k < cap)
            out[k] = c;
        k++;
    }
    *count = k;
    if (out && k > cap)
        return pl_err(PL_ELIMIT, "%s: %d results, room for %d", fn, k, cap);
    return PL_OK;
}

pl_status pl_topology_links_of(const pl_topology *t, int32_t v, int32_t *out, int32_t cap,
                               int32_t *count)
{
    const char *fn = "pl_topology_links_of";
    pl_status st = pl_topo_check_vertex(t, v, fn);
    if (st)
        return st;
    if (!count)
        return pl_err(PL_EINVAL, "%s: count is NULL", fn);
    if (out && cap < 0)
        return pl_err(PL_EINVAL, "%s: negative capacity", fn);
    int32_t k = 0;
    for (int32_t h = t->first_inc[v]; h >= 0; h = t->next_inc[h]) {
        if (out && k < cap)
            out[k] = h / 2;
        k++;
    }
    *count = k;
    if (out && k > cap)
        return pl_err(PL_ELIMIT, "%s: %d results, room for %d", fn, k, cap);
    return PL_OK;
}

pl_status pl_topology_ancestor(const pl_topology *t, int32_t v, pl_vertex_kind kind, int32_t *out)
{
    pl_status st = pl_topo_check_vertex(t, v, "pl_topology_ancestor");
    if (st)
        return st;
    if (!out || (unsigned)kind >= PL_VK_COUNT)
        return pl_err(PL_EINVAL, "pl_topology_ancestor: bad kind or NULL out");
    for (int32_t x = v; x >= 0; x = t->parent[x])
        if (t->kind[x] == kind) {
            *out = x;
            return PL_OK;
        }
    return pl_err(PL_ENOTFOUND, "pl_topology_ancestor: %s '%s' has no %s above it",
                  pl_vertex_kind_name((pl_vertex_kind)t->kind[v]), pl_topo_name(t, v),
                  pl_vertex_kind_name(kind));
}

int32_t pl_topo_machine_of(const pl_topology *t, int32_t v)
{
    if (!t || v < 0 || v >= t->n)
        return -1;
    for (int32_t x = v; x >= 0; x = t->parent[x])
        if (t->kind[x] == PL_VK_MACHINE)
            return x;
    return -1;
}

int pl_topo_is(const pl_topology *t, int32_t v, pl_vertex_kind kind)
{
    return t && v >= 0 && v < t->n && t->kind[v] == kind;
}

int pl_topo_hosts_cpu_tasks(const pl_topology *t, int32_t v)
{
    int32_t npk = 1;
    return pl_topo_is(t, v, PL_VK_PACKAGE) ||
           (pl_topo_is(t, v, PL_VK_MACHINE) &&
            pl_topology_descendants(t, v, PL_VK_PACKAGE, NULL, 0, &npk) == PL_OK && npk == 0);
}

int32_t pl_topo_common_machine(const pl_topology *t, const int32_t *v, int32_t n)
{
    int32_t m = -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t x = pl_topo_machine_of(t, v[i]);
        if (x < 0 || (i > 0 && x != m))
            return -1;
        m = x;
    }
    return m;
}

pl_status pl_topo_list(const pl_topology *t, int32_t v, int kind, int32_t **out, int32_t *n)
{
    *out = NULL;
    pl_status st = pl_topology_descendants(t, v, kind, NULL, 0, n);
    if (!st && !(*out = pl_alloc((size_t)*n + 1, sizeof **out)))
        st = PL_ENOMEM;
    if (!st)
        st = pl_topology_descendants(t, v, kind, *out, *n, n);
    if (st) {
        free(*out);
        *out = NULL;
    }
    return st;
}

pl_status pl_topology_subtree_amount(const pl_topology *t, int32_t v, int kind, pl_resource res,
                                     int64_t *capacity, int64_t *free_amount)
{
    const char *fn = "pl_topology_subtree_amount";
    pl_status st = pl_topo_check_vertex(t, v, fn);
    if (st)
        return st;
    if (kind < -1 || kind >= PL_VK_COUNT || (unsigned)res >= PL_RES_COUNT)
        return pl_err(PL_EINVAL, "%s: bad kind or resource", fn);
    int64_t c = 0, f = 0;
    for (int32_t x = v; x >= 0; x = next_preorder(t, x, v)) {
        if (kind >= 0 && t->kind[x] != kind)
            continue;
        int64_t cx = pl_topo_cap(t, x)[res];
        if (pl_add_ovf(c, cx, &c) || pl_add_ovf(f, cx - pl_topo_used(t, x)[res], &f))
            return pl_err(PL_EOVERFLOW, "%s: sum of %s overflows", fn, pl_resource_name(res));
    }
    if (capacity)
        *capacity = c;
    if (free_amount)
        *free_amount = f;
    return PL_OK;
}

/* ---- Dijkstra ---------------------------------------------------------------------- */

/* Scratch of one search; reused across the searches of a matrix. The key is
 * lexicographic: path weight, then the negated bottleneck bandwidth, so that
 * among equally short paths the one with the widest bottleneck wins. */
typedef struct search {
    const pl_topology *t;
    int64_t *key;
    int64_t *nbw;     /* -bottleneck bandwidth of the best path found */
    int32_t *via;     /* half-link a vertex was reached through, -1 at the source */
    int32_t *heap, *pos; /* pos: -1 never seen, -2 settled, else heap index */
    int32_t hsize;
    int32_t *seen;    /* touched vertices, to reset */
    int32_t nseen;
} search;

/* One of each per vertex. */
static const pl_column search_cols[] = {
    PL_COLUMN(search, key), PL_COLUMN(search, nbw), PL_COLUMN(search, via),
    PL_COLUMN(search, heap), PL_COLUMN(search, pos), PL_COLUMN(search, seen),
};

static pl_status search_init(search *s, const pl_topology *t)
{
    *s = (search){.t = t};
    if (pl_columns_alloc(s, search_cols, PL_NCOLUMNS(search_cols), t->n))
        return PL_ENOMEM;
    for (int32_t i = 0; i < t->n; i++)
        s->pos[i] = -1;
    return PL_OK;
}

static void search_free(search *s)
{
    pl_columns_free(s, search_cols, PL_NCOLUMNS(search_cols));
}

static int before(const search *s, int32_t a, int32_t b)
{
    return s->key[a] < s->key[b] || (s->key[a] == s->key[b] && s->nbw[a] < s->nbw[b]);
}

static void heap_set(search *s, int32_t i, int32_t v)
{
    s->heap[i] = v;
    s->pos[v] = i;
}

static void sift_up(search *s, int32_t i)
{
    int32_t v = s->heap[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!before(s, v, s->heap[p]))
            break;
        heap_set(s, i, s->heap[p]);
        i = p;
    }
    heap_set(s, i, v);
}

static int32_t pop(search *s)
{
    int32_t top = s->heap[0], v = s->heap[--s->hsize];
    if (s->hsize > 0) {
        int32_t i = 0;
        for (;;) {
            int32_t c = 2 * i + 1;
            if (c >= s->hsize)
                break;
            if (c + 1 < s->hsize && before(s, s->heap[c + 1], s->heap[c]))
                c++;
            if (!before(s, s->heap[c], v))
                break;
            heap_set(s, i, s->heap[c]);
            i = c;
        }
        heap_set(s, i, v);
    }
    s->pos[top] = -2;
    return top;
}

static void offer(search *s, int32_t v, int64_t key, int64_t nbw, int32_t via)
{
    if (s->pos[v] == -2)
        return;
    if (s->pos[v] == -1) {
        s->seen[s->nseen++] = v;
        s->key[v] = key;
        s->nbw[v] = nbw;
        s->via[v] = via;
        heap_set(s, s->hsize++, v);
        sift_up(s, s->hsize - 1);
    } else if (key < s->key[v] || (key == s->key[v] && nbw < s->nbw[v])) {
        s->key[v] = key;
        s->nbw[v] = nbw;
        s->via[v] = via;
        sift_up(s, s->pos[v]);
    }
}

static void search_reset(search *s)
{
    for (int32_t i = 0; i < s->nseen; i++)
        s->pos[s->seen[i]] = -1;
    s->nseen = 0;
    s->hsize = 0;
}

/* Run from src until every vertex with want[v] set is settled (want NULL:
 * until `target` is settled; target -1 and want NULL: everything). */
static pl_status run_search(search *s, int32_t src, int32_t target, const uint8_t *want,
                            int32_t nwant)
{
    const pl_topology *t = s->t;
    search_reset(s);
    offer(s, src, 0, -INT64_MAX, -1);
    int32_t left = nwant;
    while (s->hsize > 0) {
        int32_t u = pop(s);
        if (u == target || (want && want[u] && --left == 0))
            break;
        for (int32_t h = t->first_inc[u]; h >= 0; h = t->next_inc[h]) {
            int32_t l = h / 2, v = t->end[h ^ 1];
            int64_t k, bw = t->bw[l] ? t->bw[l] : INT64_MAX;
            if (pl_add_ovf(s->key[u], t->weight[l], &k))
                return pl_err(PL_EOVERFLOW, "topology: path weight overflows int64");
            offer(s, v, k, -bw > s->nbw[u] ? -bw : s->nbw[u], h); /* -min(bottleneck, bw) */
        }
    }
    return PL_OK;
}

static pl_status check_pair(const pl_topology *t, int32_t a, int32_t b, const void *out, const char *fn)
{
    pl_status st;
    if ((st = pl_topo_check_vertex(t, a, fn)) || (st = pl_topo_check_vertex(t, b, fn)))
        return st;
    if (!out)
        return pl_err(PL_EINVAL, "%s: output pointer is NULL", fn);
    return PL_OK;
}

static pl_status no_path(const pl_topology *t, int32_t a, int32_t b, const char *fn)
{
    return pl_err(PL_ENOTFOUND, "%s: no link path between '%s' (%d) and '%s' (%d)", fn,
                  pl_topo_name(t, a), a, pl_topo_name(t, b), b);
}

/* One search from a to b for the pair queries: on PL_OK, b is settled and
 * the caller reads its key, bottleneck or predecessors, then search_free(). */
static pl_status pair_search(search *s, const pl_topology *t, int32_t a, int32_t b,
                             const void *out, const char *fn)
{
    pl_status st = check_pair(t, a, b, out, fn);
    if (st || (st = search_init(s, t)))
        return st;
    if ((st = run_search(s, a, b, NULL, 0)) == PL_OK && s->pos[b] != -2)
        st = no_path(t, a, b, fn);
    if (st)
        search_free(s);
    return st;
}

/* The best path's weight from a to b, or (bottleneck) its narrowest bandwidth. */
static pl_status pair_value(const pl_topology *t, int32_t a, int32_t b, int bottleneck, int64_t *out,
                            const char *fn)
{
    search s;
    pl_status st = pair_search(&s, t, a, b, out, fn);
    if (st)
        return st;
    *out = bottleneck ? -s.nbw[b] : s.key[b];
    search_free(&s);
    return PL_OK;
}

pl_status pl_topology_distance(const pl_topology *t, int32_t a, int32_t b, int64_t *weight)
{
    return pair_value(t, a, b, 0, weight, "pl_topology_distance");
}

pl_status pl_topology_bottleneck_bw(const pl_topology *t, int32_t a, int32_t b, int64_t *bw)
{
    return pair_value(t, a, b, 1, bw, "pl_topology_bottleneck_bw");
}

pl_status pl_topology_path(const pl_topology *t, int32_t a, int32_t b, int32_t *links, int32_t cap,
                           int32_t *count)
{
    search s;
    pl_status st = pair_search(&s, t, a, b, count, "pl_topology_path");
    if (st)
        return st;
    /* Collect backwards into the heap array (free now), then reverse.
     * via[v] is the half-link seen from the predecessor, so end[via[v]] is
     * the predecessor. */
    int32_t k = 0;
    for (int32_t v = b; s.via[v] >= 0; v = t->end[s.via[v]])
        s.heap[k++] = s.via[v] / 2;
    for (int32_t i = 0; i < k / 2; i++) {
        int32_t x = s.heap[i];
        s.heap[i] = s.heap[k - 1 - i];
        s.heap[k - 1 - i] = x;
    }
    st = pl_topo_list_out(s.heap, k, links, cap, count, "pl_topology_path");
    search_free(&s);
    return st;
}

struct pl_topo_dist {
    search s;
    uint8_t *want;      /* [n] all 0 between calls */
};

pl_status pl_topo_dist_create(const pl_topology *t, pl_topo_dist **out)
{
    pl_topo_dist *d = pl_alloc(1, sizeof *d);
    if (!d)
        return PL_ENOMEM;
    pl_status st = search_init(&d->s, t);
    if (!st && !(d->want = pl_alloc((size_t)t->n + 1, 1)))
        st = PL_ENOMEM;
    return PL_HAND_OUT(st, d, pl_topo_dist_free, out);
}

void pl_topo_dist_free(pl_topo_dist *d)
{
    if (!d)
        return;
    search_free(&d->s);
    free(d->want);
    free(d);
}

/* The matrix for verts (checked by the caller). Work is in the searched
 * part of the graph only: the scratch arrays are reset vertex by vertex, so
 * one context serves every machine of a large cluster. */
pl_status pl_topo_dist_matrix(pl_topo_dist *d, const int32_t *verts, int32_t k, int64_t *matrix)
{
    int32_t distinct = 0;
    for (int32_t i = 0; i < k; i++)
        if (!d->want[verts[i]]) {
            d->want[verts[i]] = 1;
            distinct++;
        }
    pl_status st = PL_OK;
    for (int32_t i = 0; i < k && st == PL_OK; i++) {
        /* Stops once every wanted vertex is settled: a machine's GPUs are
         * found without exploring the rest of a large cluster. */
        st = run_search(&d->s, verts[i], -1, d->want, distinct);
        for (int32_t j = 0; j < k && st == PL_OK; j++)
            matrix[(int64_t)i * k + j] = d->s.pos[verts[j]] == -2 ? d->s.key[verts[j]] : -1;
    }
    for (int32_t i = 0; i < k; i++)
        d->want[verts[i]] = 0;
    return st;
}

pl_status pl_topology_distance_matrix(const pl_topology *t, const int32_t *verts, int32_t k,
                                      int64_t *matrix)
{
    const char *fn = "pl_topology_distance_matrix";
    if (!t || (k > 0 && (!verts || !matrix)) || k < 0)
        return pl_err(PL_EINVAL, "%s: NULL argument or negative count", fn);
    for (int32_t i = 0; i < k; i++) {
        pl_status st = pl_topo_check_vertex(t, verts[i], fn);
        if (st)
            return st;
    }
    if (k == 0)
        return PL_OK;
    pl_topo_dist *d = NULL;
    pl_status st = pl_topo_dist_create(t, &d);
    if (!st)
        st = pl_topo_dist_matrix(d, verts, k, matrix);
    pl_topo_dist_free(d);
    return st;
}

/* ---- bipartition ------------------------------------------------------------------- */

/* Child of `anc` on the way up from v (v itself if its parent is anc). */
static int32_t child_towards(const pl_topology *t, int32_t v, int32_t anc)
{
    while (t->parent[v] != anc)
        v = t->parent[v];
    return v;
}

static int32_t lca(const pl_topology *t, int32_t a, int32_t b)
{
    while (a >= 0 && b >= 0 && a != b) {
        if (t->depth[a] > t->depth[b])
            a = t->parent[a];
        else if (t->depth[b] > t->depth[a])
            b = t->parent[b];
        else {
            a = t->parent[a];
            b = t->parent[b];
        }
    }
    return a == b ? a : -1;
}

pl_status pl_topology_bipartition(const pl_topology *t, const int32_t *verts, int32_t k,
                                  uint8_t *side)
{
    const char *fn = "pl_topology_bipartition";
    if (!t || k < 0 || (k > 0 && (!verts || !side)))
        return pl_err(PL_EINVAL, "%s: NULL argument or negative count", fn);
    for (int32_t i = 0; i < k; i++) {
        pl_status st = pl_topo_check_vertex(t, verts[i], fn);
        if (st)
            return st;
        for (int32_t j = 0; j < i; j++)
            if (verts[j] == verts[i])
                return pl_err(PL_EINVAL, "%s: vertex %d given twice", fn, verts[i]);
        side[i] = 0;
    }
    if (k < 2)
        return PL_OK;
    /* Common ancestor (-1: the vertices are in different trees). */
    int32_t anc = verts[0];
    for (int32_t i = 1; i < k && anc >= 0; i++)
        anc = lca(t, anc, verts[i]);
    int32_t *group = pl_alloc((size_t)k, sizeof *group); /* representative of each vertex's group */
    int32_t *size = pl_alloc((size_t)k, sizeof *size);   /* per group index, by first member */
    int32_t *gidx = pl_alloc((size_t)k, sizeof *gidx);   /* group index of each vertex */
    if (!group || !size || !gidx) {
        free(group);
        free(size);
        free(gidx);
        return PL_ENOMEM;
    }
    int32_t ngroups = 0;
    int flat = 1; /* every vertex is its own group: nothing to keep together */
    for (int32_t i = 0; i < k; i++) {
        int32_t v = verts[i], g;
        if (anc < 0) { /* different trees: group by root */
            g = v;
            while (t->parent[g] >= 0)
                g = t->parent[g];
        } else {
            g = v == anc ? v : child_towards(t, v, anc);
        }
        if (g != v)
            flat = 0;
        int32_t j = 0;
        while (j < ngroups && group[j] != g)
            j++;
        if (j == ngroups) {
            group[ngroups] = g;
            size[ngroups++] = 0;
        }
        size[j]++;
        gidx[i] = j;
    }
    if (flat || ngroups < 2) {
        for (int32_t i = 0; i < k; i++)
            side[i] = i >= (k + 1) / 2;
    } else {
        /* Largest group first (ties: first seen), each to the lighter side. */
        int32_t load[2] = {0, 0};
        int32_t *order = group; /* group ids are no longer needed */
        for (int32_t j = 0; j < ngroups; j++)
            order[j] = j;
        for (int32_t a = 1; a < ngroups; a++) { /* insertion sort, stable, by size desc */
            int32_t x = order[a], b = a - 1;
            while (b >= 0 && size[order[b]] < size[x]) {
                order[b + 1] = order[b];
                b--;
            }
            order[b + 1] = x;
        }
        int32_t *gs = size; /* size[g] is read before gs[g] is written for the same g */
        for (int32_t a = 0; a < ngroups; a++) {
            int32_t g = order[a], sz = size[g];
            int s = load[1] < load[0];
            load[s] += sz;
            gs[g] = s;
        }
        int flip = load[1] > load[0];
        for (int32_t i = 0; i < k; i++)
            side[i] = (uint8_t)(gs[gidx[i]] ^ flip);
    }
    free(group);
    free(size);
    free(gidx);
    return PL_OK;
}
