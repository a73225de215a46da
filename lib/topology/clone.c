/* pl_topo_clone (internal.h): pl_topology_copy by whole arrays. */
#include <stdlib.h>
#include <string.h>
#include "internal/topology_internal.h"
#include "topology_impl.h"

static const pl_column names_col[] = {PL_COLUMN(pl_topology, names)};

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
    int failed = pl_columns_copy(c, t, pl_topo_vertex_cols, pl_topo_nvertex_cols, n) ||
                 pl_columns_copy(c, t, pl_topo_link_cols, pl_topo_nlink_cols, nl) ||
                 pl_columns_copy(c, t, names_col, 1, t->names_len) ||
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
