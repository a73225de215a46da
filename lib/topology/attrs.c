/* Vertex attributes: key/value strings on any vertex ("arch" = "power8",
 * "zone" = "a"), what placement constraints test (placement/job.h). A
 * vertex has few attributes, so each keeps a short list in setting order
 * and lookups scan it. */
#include <stdlib.h>
#include <string.h>
#include "topology_impl.h"

static pl_topo_attr *attr_at(const pl_topology *t, int64_t index_plus_one)
{
    return index_plus_one ? &t->attrs[index_plus_one - 1] : NULL;
}

/* The entry of key on v, and the entry before it (NULL: key is the head). */
static pl_topo_attr *find(const pl_topology *t, int32_t v, const char *key, pl_topo_attr **prev)
{
    *prev = NULL;
    for (pl_topo_attr *a = attr_at(t, t->attr_head[v]); a; a = attr_at(t, a->next)) {
        if (!strcmp(a->key, key))
            return a;
        *prev = a;
    }
    return NULL;
}

/* Room for need entries; new slots zeroed, since pl_topo_free_attrs() frees
 * whatever any slot up to the capacity holds. */
static pl_status grow_attrs(pl_topology *t, int64_t need)
{
    int64_t old_cap = t->attrs_cap;
    if (pl_grow((void **)&t->attrs, &t->attrs_cap, need, sizeof *t->attrs))
        return PL_ENOMEM;
    if (t->attrs_cap > old_cap)
        memset(t->attrs + old_cap, 0, (size_t)(t->attrs_cap - old_cap) * sizeof *t->attrs);
    return PL_OK;
}

static pl_status check_key(const pl_topology *t, int32_t v, const char *key, const char *fn)
{
    pl_status st = pl_topo_check_vertex(t, v, fn);
    if (st)
        return st;
    if (!key || !*key)
        return pl_err(PL_EINVAL, "%s: the attribute key must be a non-empty string", fn);
    return PL_OK;
}

static pl_status remove_attr(pl_topology *t, int32_t v, const char *key)
{
    pl_topo_attr *prev, *a = find(t, v, key, &prev);
    if (!a)
        return PL_OK;
    if (prev)
        prev->next = a->next;
    else
        t->attr_head[v] = (int32_t)a->next;
    free(a->key);
    free(a->value);
    a->key = a->value = NULL;
    return PL_OK;
}

pl_status pl_topology_set_attr(pl_topology *t, int32_t v, const char *key, const char *value)
{
    pl_status st = check_key(t, v, key, "pl_topology_set_attr");
    if (st)
        return st;
    if (!value)
        return remove_attr(t, v, key);
    if (!*value)
        return pl_err(PL_EINVAL, "pl_topology_set_attr: attribute \"%s\": the value must be non-empty "
                      "(pass NULL to remove the attribute)", key);
    char *val = pl_strdup(value);
    if (!val)
        return PL_ENOMEM;
    pl_topo_attr *prev, *a = find(t, v, key, &prev);
    if (a) {
        free(a->value);
        a->value = val;
        return PL_OK;
    }
    char *k = pl_strdup(key);
    if (!k || t->nattrs >= INT32_MAX - 1 || grow_attrs(t, t->nattrs + 1)) {
        free(k);
        free(val);
        return t->nattrs >= INT32_MAX - 1 ? pl_err(PL_EINVAL, "pl_topology_set_attr: too many attributes")
                                           : PL_ENOMEM;
    }
    int64_t idx = t->nattrs++;
    free(t->attrs[idx].key); /* leftovers of a failed graft's stage */
    free(t->attrs[idx].value);
    t->attrs[idx] = (pl_topo_attr){.next = 0, .key = k, .value = val};
    /* Append, so that pl_topology_attr_at() lists attributes in setting order. */
    pl_topo_attr *last = attr_at(t, t->attr_head[v]);
    while (last && last->next)
        last = attr_at(t, last->next);
    if (last)
        last->next = idx + 1;
    else
        t->attr_head[v] = (int32_t)(idx + 1);
    return PL_OK;
}

const char *pl_topology_attr(const pl_topology *t, int32_t v, const char *key)
{
    if (!t || v < 0 || v >= t->n || !key)
        return NULL;
    pl_topo_attr *prev, *a = find(t, v, key, &prev);
    return a ? a->value : NULL;
}

int32_t pl_topology_attr_count(const pl_topology *t, int32_t v)
{
    if (!t || v < 0 || v >= t->n)
        return 0;
    int32_t n = 0;
    for (pl_topo_attr *a = attr_at(t, t->attr_head[v]); a; a = attr_at(t, a->next))
        n++;
    return n;
}

pl_status pl_topology_attr_at(const pl_topology *t, int32_t v, int32_t i, const char **key,
                              const char **value)
{
    pl_status st = pl_topo_check_vertex(t, v, "pl_topology_attr_at");
    if (st)
        return st;
    pl_topo_attr *a = attr_at(t, t->attr_head[v]);
    for (int32_t k = 0; a && k < i; k++)
        a = attr_at(t, a->next);
    if (i < 0 || !a)
        return pl_err(PL_EINVAL, "pl_topology_attr_at: vertex %d has %d attributes, index %d", v,
                      pl_topology_attr_count(t, v), i);
    if (key)
        *key = a->key;
    if (value)
        *value = a->value;
    return PL_OK;
}

/* ---- copying (pl_topology_graft) and release ------------------------------------ */

static int64_t live_attrs(const pl_topology *t)
{
    int64_t n = 0;
    for (int64_t i = 0; i < t->nattrs; i++)
        n += t->attrs[i].key != NULL;
    return n;
}

static void free_range(pl_topology *t, int64_t from, int64_t to)
{
    for (int64_t i = from; i < to; i++) {
        free(t->attrs[i].key);
        free(t->attrs[i].value);
        t->attrs[i].key = t->attrs[i].value = NULL;
    }
}

pl_status pl_topo_stage_attrs(pl_topology *dst, const pl_topology *src)
{
    int64_t n = live_attrs(src);
    if (n == 0)
        return PL_OK;
    if (dst->nattrs + n >= INT32_MAX)
        return pl_err(PL_EINVAL, "pl_topology_graft: too many vertex attributes");
    if (grow_attrs(dst, dst->nattrs + n))
        return PL_ENOMEM;
    /* Slots past nattrs hold nothing linked: clear leftovers of an earlier stage. */
    free_range(dst, dst->nattrs, dst->nattrs + n);
    int64_t k = dst->nattrs;
    for (int32_t v = 0; v < src->n; v++)
        for (pl_topo_attr *a = attr_at(src, src->attr_head[v]); a; a = attr_at(src, a->next), k++) {
            dst->attrs[k].next = 0;
            dst->attrs[k].key = pl_strdup(a->key);
            dst->attrs[k].value = pl_strdup(a->value);
            if (!dst->attrs[k].key || !dst->attrs[k].value) {
                free_range(dst, dst->nattrs, k + 1);
                return PL_ENOMEM;
            }
        }
    return PL_OK;
}

void pl_topo_link_staged_attrs(pl_topology *dst, int32_t base, const pl_topology *src)
{
    /* Same walk as the stage, so slot k holds the k-th attribute in it. */
    for (int32_t v = 0; v < src->n; v++) {
        int64_t prev = 0;
        for (pl_topo_attr *a = attr_at(src, src->attr_head[v]); a; a = attr_at(src, a->next)) {
            int64_t idx = dst->nattrs++;
            if (prev)
                dst->attrs[prev - 1].next = idx + 1;
            else
                dst->attr_head[base + v] = (int32_t)(idx + 1);
            prev = idx + 1;
        }
    }
}

void pl_topo_free_attrs(pl_topology *t)
{
    /* Up to the capacity: a stage whose graft failed later leaves strings there. */
    if (t->attrs)
        free_range(t, 0, t->attrs_cap);
    free(t->attrs);
    free(t->attr_head);
}
