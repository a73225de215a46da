/* Homogeneous clusters from a machine template (pl_topology_cluster). */
#include <stdio.h>
#include <string.h>
#include "topology_impl.h"

#define DEFAULT_NETWORK_BW 12500000000LL /* 100 Gb/s */

/* The template is one machine: exactly one root, of kind machine. Several
 * roots would make "node<i>" ambiguous (which root is the node?). */
static pl_status check_template(const pl_topology *t)
{
    if (!t)
        return pl_err(PL_EINVAL, "pl_topology_cluster: template is NULL");
    if (t->first_root < 0)
        return pl_err(PL_EINVAL, "pl_topology_cluster: template is empty");
    if (t->next_sibling[t->first_root] >= 0)
        return pl_err(PL_EINVAL, "pl_topology_cluster: template has several roots; it must be one machine");
    if (t->kind[t->first_root] != PL_VK_MACHINE)
        return pl_err(PL_EINVAL, "pl_topology_cluster: template root '%s' is a %s, not a machine",
                      pl_topo_name(t, t->first_root),
                      pl_vertex_kind_name((pl_vertex_kind)t->kind[t->first_root]));
    return PL_OK;
}

/* Give v a new name appended to the arena (room reserved by the caller). The
 * old bytes stay behind unused: a few bytes per machine. */
static void rename_reserved(pl_topology *t, int32_t v, const char *name)
{
    size_t len = strlen(name) + 1;
    memcpy(t->names + t->names_len, name, len);
    t->name_off[v] = t->names_len;
    t->names_len += (int64_t)len;
}

/* Room for everything up front so the many grafts never reallocate: one
 * growth of each array instead of a series of copies. */
static pl_status reserve_all(pl_topology *c, const pl_topology *tpl, int64_t machines, int64_t racks)
{
    int64_t v = 1 + racks + machines * (int64_t)tpl->n;
    int64_t l = racks + machines + machines * (int64_t)tpl->nl;
    /* "cluster", "rack<r>", and per machine the template's names plus "node<i>" (<= 16 bytes). */
    int64_t names = 8 + racks * 16 + machines * (tpl->names_len + 16);
    if (v > PL_TOPO_MAX || l > PL_TOPO_MAX / 2)
        return pl_err(PL_EINVAL, "pl_topology_cluster: %lld machines of %d vertices and %d links "
                      "exceed the topology limits", (long long)machines, tpl->n, tpl->nl);
    return pl_topo_reserve(c, v, l, names);
}

static pl_status build(pl_topology *c, const pl_topology *tpl, int32_t machines, int32_t per_rack,
                       int64_t bw)
{
    int32_t racks = (int32_t)(((int64_t)machines + per_rack - 1) / per_rack);
    pl_status st = reserve_all(c, tpl, machines, racks);
    int32_t root = -1, rack = -1;
    if (st == PL_OK)
        st = pl_topology_add_vertex(c, PL_VK_CLUSTER, -1, "cluster", -1, &root);
    char name[32];
    for (int32_t i = 0; i < machines && st == PL_OK; i++) {
        if (i % per_rack == 0) {
            snprintf(name, sizeof name, "rack%d", i / per_rack);
            if ((st = pl_topology_add_vertex(c, PL_VK_RACK, root, name, -1, &rack)) ||
                (st = pl_topology_add_link(c, rack, root, PL_LK_NETWORK, bw, 0, 0, NULL)))
                break;
        }
        int32_t node;
        if ((st = pl_topology_graft(c, rack, tpl, &node)))
            break;
        snprintf(name, sizeof name, "node%d", i);
        rename_reserved(c, node, name);
        st = pl_topology_add_link(c, node, rack, PL_LK_NETWORK, bw, 0, 0, NULL);
    }
    return st;
}

pl_status pl_topology_cluster(const pl_topology *tpl, int32_t machines, int32_t per_rack,
                              int64_t network_bw, pl_topology **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_topology_cluster: out is NULL");
    *out = NULL;
    pl_status st = check_template(tpl);
    if (st)
        return st;
    if (machines < 1 || per_rack < 1)
        return pl_err(PL_EINVAL, "pl_topology_cluster: %d machines, %d per rack: both must be >= 1",
                      machines, per_rack);
    if (network_bw < 0)
        return pl_err(PL_EINVAL, "pl_topology_cluster: negative network bandwidth");
    pl_topology *c;
    if ((st = pl_topology_create(&c)))
        return st;
    st = build(c, tpl, machines, per_rack, network_bw ? network_bw : DEFAULT_NETWORK_BW);
    return PL_HAND_OUT(st, c, pl_topology_free, out);
}
