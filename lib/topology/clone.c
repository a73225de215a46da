/* pl_topo_clone (internal.h): pl_topology_copy by whole arrays. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "topology_impl.h"

/* dst = a copy of count elements of src (NULL for none); 1 if out of memory.
 * Not zero-filled first: every element is written. */
static int dup_array(void **dst, const void *src, int64_t count, size_t size)
{
    *dst = NULL;
    if (count <= 0)
        return 0;
    if (!(*dst = pl_realloc_array(NULL, (size_t)count, size)))
        return 1;
    memcpy(*dst, src, (size_t)count * size);
    return 0;
}

pl_status pl_topo_clone(const pl_topology *t, pl_topology **out)
{
    *out = NULL;
    if (!t)
        return pl_err(PL_EINVAL, "pl_topo_clone: NULL topology");
    pl_topology *c;
    pl_status st = pl_topology_create(&c);
    if (st)
        return st;
    const int64_t n = t->n, nl = t->nl;
    /* Capacities exactly the sizes: growing a clone later zero-fills from
     * there, as pl_topo_reserve does for any topology. */
    int failed = dup_array((void **)&c->kind, t->kind, n, sizeof *t->kind) ||
                 dup_array((void **)&c->parent, t->parent, n, sizeof *t->parent) ||
                 dup_array((void **)&c->depth, t->depth, n, sizeof *t->depth) ||
                 dup_array((void **)&c->os_index, t->os_index, n, sizeof *t->os_index) ||
                 dup_array((void **)&c->first_child, t->first_child, n, sizeof *t->first_child) ||
                 dup_array((void **)&c->last_child, t->last_child, n, sizeof *t->last_child) ||
                 dup_array((void **)&c->next_sibling, t->next_sibling, n, sizeof *t->next_sibling) ||
                 dup_array((void **)&c->name_off, t->name_off, n, sizeof *t->name_off) ||
                 dup_array((void **)&c->cap, t->cap, n * PL_RES_COUNT, sizeof *t->cap) ||
                 dup_array((void **)&c->used, t->used, n * PL_RES_COUNT, sizeof *t->used) ||
                 dup_array((void **)&c->first_inc, t->first_inc, n, sizeof *t->first_inc) ||
                 dup_array((void **)&c->last_inc, t->last_inc, n, sizeof *t->last_inc) ||
                 dup_array((void **)&c->end, t->end, 2 * nl, sizeof *t->end) ||
                 dup_array((void **)&c->next_inc, t->next_inc, 2 * nl, sizeof *t->next_inc) ||
                 dup_array((void **)&c->lkind, t->lkind, nl, sizeof *t->lkind) ||
                 dup_array((void **)&c->bw, t->bw, nl, sizeof *t->bw) ||
                 dup_array((void **)&c->lat, t->lat, nl, sizeof *t->lat) ||
                 dup_array((void **)&c->weight, t->weight, nl, sizeof *t->weight) ||
                 dup_array((void **)&c->names, t->names, t->names_len, 1) ||
                 (n > 0 && !(c->attr_head = pl_alloc((size_t)n, sizeof *c->attr_head)));
    if (failed || (st = pl_topo_stage_attrs(c, t))) {
        pl_topology_free(c);
        return failed ? PL_ENOMEM : st;
    }
    c->n = t->n;
    c->nl = t->nl;
    c->vcap = n;
    c->lcap = nl;
    c->first_root = t->first_root;
    c->last_root = t->last_root;
    c->names_len = c->names_cap = t->names_len;
    pl_topo_link_staged_attrs(c, 0, t);
    *out = c;
    return PL_OK;
}
