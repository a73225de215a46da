/* Node lists with capacities and key=value attributes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal/constraints_impl.h"

pl_status pl_cnodes_create(pl_cnodes **out)
{
    return pl_create_zeroed("pl_cnodes_create", (void **)out, sizeof **out);
}

static void node_clear(cnode *n)
{
    free(n->name);
    for (int32_t i = 0; i < n->nattrs; i++) {
        free(n->keys[i]);
        free(n->values[i]);
    }
    free(n->keys);
    free(n->values);
}

void pl_cnodes_free(pl_cnodes *nodes)
{
    if (!nodes)
        return;
    for (int64_t i = 0; i < nodes->n; i++)
        node_clear(&nodes->v[i]);
    free(nodes->v);
    free(nodes);
}

static char *dup_range(const char *s, size_t len)
{
    char *r = pl_alloc(len + 1, 1);
    if (r)
        memcpy(r, s, len);
    return r;
}

/* Parse "k=v,k=v" into n's arrays. */
static pl_status parse_attrs(cnode *n, const char *attrs)
{
    if (!attrs || !*attrs)
        return PL_OK;
    int32_t count = 1;
    for (const char *p = attrs; *p; p++)
        count += *p == ',';
    n->keys = pl_alloc((size_t)count, sizeof *n->keys);
    n->values = pl_alloc((size_t)count, sizeof *n->values);
    if (!n->keys || !n->values)
        return PL_ENOMEM;
    const char *p = attrs;
    for (int32_t i = 0; i < count; i++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq || eq == p || (size_t)(eq - p) + 1 == len || memchr(eq + 1, '=', len - (size_t)(eq - p) - 1))
            return pl_err(PL_EPARSE, "node attributes \"%s\": item %d \"%.*s\" is not key=value",
                          attrs, i + 1, (int)len, p);
        char *key = dup_range(p, (size_t)(eq - p));
        char *val = dup_range(eq + 1, len - (size_t)(eq - p) - 1);
        if (!key || !val) {
            free(key);
            free(val);
            return PL_ENOMEM;
        }
        for (int32_t k = 0; k < n->nattrs; k++)
            if (strcmp(n->keys[k], key) == 0) {
                pl_status st = pl_err(PL_EPARSE, "node attributes \"%s\": key \"%s\" repeated", attrs, key);
                free(key);
                free(val);
                return st;
            }
        n->keys[n->nattrs] = key;
        n->values[n->nattrs] = val;
        n->nattrs++;
        p = end ? end + 1 : p + len;
    }
    return PL_OK;
}

/* Copy n attributes from arrays into a node being built. */
static pl_status copy_attrs(cnode *n, const char *const *keys, const char *const *values, int32_t count)
{
    if (count <= 0)
        return PL_OK;
    n->keys = pl_alloc((size_t)count, sizeof *n->keys);
    n->values = pl_alloc((size_t)count, sizeof *n->values);
    if (!n->keys || !n->values)
        return PL_ENOMEM;
    for (int32_t i = 0; i < count; i++) {
        if (!keys[i] || !values[i])
            return pl_err(PL_EINVAL, "node attributes: item %d is NULL", i);
        n->keys[i] = pl_strdup(keys[i]);
        n->values[i] = pl_strdup(values[i]);
        n->nattrs = i + 1;
        if (!n->keys[i] || !n->values[i])
            return PL_ENOMEM;
    }
    return PL_OK;
}

/* Append n, or release what it holds on failure. */
static pl_status add_node(pl_cnodes *nodes, cnode *n, pl_status st, int32_t *id)
{
    if (st == PL_OK && nodes->n >= INT32_MAX)
        st = pl_err(PL_EINVAL, "pl_cnodes_add: too many nodes");
    if (st == PL_OK)
        st = pl_grow((void **)&nodes->v, &nodes->cap, nodes->n + 1, sizeof *nodes->v);
    if (st != PL_OK) {
        node_clear(n);
        return st;
    }
    nodes->v[nodes->n] = *n;
    if (id)
        *id = (int32_t)nodes->n;
    nodes->n++;
    return PL_OK;
}

/* A node with its capacities and name, before its attributes (*n zeroed
 * first, so add_node() can release it whatever happens). */
static pl_status node_init(cnode *n, const char *name, double cores, double mem_gb)
{
    memset(n, 0, sizeof *n);
    if (!(cores >= 0) || !(mem_gb >= 0) || !isfinite(cores) || !isfinite(mem_gb))
        return pl_err(PL_EINVAL, "pl_cnodes_add: capacities %g cores, %g GB must be finite and >= 0",
                      cores, mem_gb);
    n->cores = cores;
    n->mem_gb = mem_gb;
    if (name && !(n->name = pl_strdup(name)))
        return PL_ENOMEM;
    return PL_OK;
}

pl_status pl_cnodes_add_attrs(pl_cnodes *nodes, const char *name, double cores, double mem_gb,
                              const char *const *keys, const char *const *values, int32_t nattrs,
                              int32_t *id)
{
    if (!nodes || (nattrs > 0 && (!keys || !values)))
        return pl_err(PL_EINVAL, "pl_cnodes_add_attrs: NULL argument");
    cnode n;
    pl_status st = node_init(&n, name, cores, mem_gb);
    if (st == PL_OK)
        st = copy_attrs(&n, keys, values, nattrs);
    return add_node(nodes, &n, st, id);
}

pl_status pl_cnodes_add(pl_cnodes *nodes, const char *name, double cores, double mem_gb,
                        const char *attrs, int32_t *id)
{
    if (!nodes)
        return pl_err(PL_EINVAL, "pl_cnodes_add: NULL nodes");
    cnode n;
    pl_status st = node_init(&n, name, cores, mem_gb);
    if (st == PL_OK)
        st = parse_attrs(&n, attrs);
    return add_node(nodes, &n, st, id);
}

int32_t pl_cnodes_count(const pl_cnodes *nodes)
{
    return nodes ? (int32_t)nodes->n : 0;
}

const char *pl_cnodes_attr(const pl_cnodes *nodes, int32_t node, const char *key)
{
    if (!nodes || !key || node < 0 || node >= nodes->n)
        return NULL;
    const cnode *n = &nodes->v[node];
    for (int32_t i = 0; i < n->nattrs; i++)
        if (strcmp(n->keys[i], key) == 0)
            return n->values[i];
    return NULL;
}

pl_status pl_cnodes_capacity(const pl_cnodes *nodes, int32_t node, double *cores, double *mem_gb)
{
    if (!nodes || node < 0 || node >= nodes->n)
        return pl_err(PL_EINVAL, "pl_cnodes_capacity: bad node %d", node);
    if (cores)
        *cores = nodes->v[node].cores;
    if (mem_gb)
        *mem_gb = nodes->v[node].mem_gb;
    return PL_OK;
}

int pl_cfilter_matches(const pl_cnodes *nodes, int32_t node, const cfilter *f)
{
    if (f->set)
        return node >= 0 && node < f->nset && f->set[node];
    const char *v = pl_cnodes_attr(nodes, node, f->key);
    int eq = v && strcmp(v, f->value) == 0;
    return f->negate ? !eq : eq;
}
