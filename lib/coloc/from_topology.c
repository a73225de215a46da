/* pl_coloc_cluster_from_topology(): a pl_topology read as the co-location
 * module's heterogeneous cluster (issue 19, one cluster model). The mapping,
 * with the two machine attributes it reads and the order of the types and
 * node ids, is in doc/coloc.md, "A topology as the cluster". */
#include <stdlib.h>
#include <string.h>
#include "coloc_impl.h"
#include "internal/topology_internal.h"

static const char *const fn = "pl_coloc_cluster_from_topology";

/* Path of machine m for messages (cut to buf, which is fine here). */
static const char *path_of(const pl_topology *t, int32_t m, char *buf, size_t size)
{
    buf[0] = '\0';
    (void)pl_topology_path_name(t, m, buf, size);
    return buf;
}

/* Machine m's type name and slot count, or an error naming it. */
static pl_status read_machine(const pl_topology *t, int32_t m, const char **type, int32_t *slots)
{
    char buf[256];
    *type = pl_topology_attr(t, m, PL_COLOC_NODE_TYPE_ATTR);
    const char *s = pl_topology_attr(t, m, PL_COLOC_VM_SLOTS_ATTR);
    if (!*type || !s)
        return pl_err(PL_EINVAL, "%s: machine %s has no \"%s\" attribute (%s)", fn,
                      path_of(t, m, buf, sizeof buf),
                      *type ? PL_COLOC_VM_SLOTS_ATTR : PL_COLOC_NODE_TYPE_ATTR,
                      *type ? "the VMs it holds" : "its node type");
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*s < '0' || *s > '9' || *end != '\0' || v < 1 || v > INT32_MAX)
        return pl_err(PL_EINVAL, "%s: machine %s: %s \"%s\" is not an integer in [1, %d]", fn,
                      path_of(t, m, buf, sizeof buf), PL_COLOC_VM_SLOTS_ATTR, s, INT32_MAX);
    *slots = (int32_t)v;
    return PL_OK;
}

/* Sort the machines into types: type_of[i] for machine i, first[k] the
 * first machine of type k (types numbered by first appearance). */
static pl_status group(const pl_topology *t, const int32_t *mach, int32_t nm, pl_coloc_view *v,
                       int32_t *type_of, int32_t *first)
{
    int32_t types = 0;
    for (int32_t i = 0; i < nm; i++) {
        const char *name = NULL;
        int32_t slots = 0, k = 0;
        pl_status st = read_machine(t, mach[i], &name, &slots);
        if (st != PL_OK)
            return st;
        while (k < types && strcmp(pl_topology_attr(t, mach[first[k]], PL_COLOC_NODE_TYPE_ATTR), name) != 0)
            k++;
        if (k == types) {
            first[types++] = i;
            v->slots[k] = slots;
        } else if (slots != v->slots[k]) {
            char a[256], b[256];
            return pl_err(PL_EINVAL, "%s: machine %s of node type \"%s\" has %s %d, but machine %s "
                          "of that type has %d: every node of a type holds as many VMs", fn,
                          path_of(t, mach[i], a, sizeof a), name, PL_COLOC_VM_SLOTS_ATTR, (int)slots,
                          path_of(t, mach[first[k]], b, sizeof b), (int)v->slots[k]);
        }
        v->nodes[k]++;
        type_of[i] = k;
    }
    v->cluster = (pl_coloc_cluster){.types = types, .nodes = v->nodes, .slots = v->slots};
    return PL_OK;
}

pl_status pl_coloc_cluster_from_topology(const pl_topology *t, pl_coloc_view *out)
{
    if (!t || !out)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    memset(out, 0, sizeof *out);
    pl_coloc_view v = {0};
    int32_t *mach = NULL, nm = 0, *type_of = NULL, *next = NULL;
    pl_status st = pl_topo_list(t, -1, PL_VK_MACHINE, &mach, &nm);
    if (st == PL_OK && nm == 0)
        st = pl_err(PL_EINVAL, "%s: the topology has no machine", fn);
    if (st == PL_OK) {
        /* at most one type per machine */
        v.nodes = pl_alloc((size_t)nm, sizeof *v.nodes);
        v.slots = pl_alloc((size_t)nm, sizeof *v.slots);
        v.machine_of_node = pl_alloc((size_t)nm, sizeof *v.machine_of_node);
        type_of = pl_alloc((size_t)nm, sizeof *type_of);
        next = pl_alloc((size_t)nm, sizeof *next);
        if (!v.nodes || !v.slots || !v.machine_of_node || !type_of || !next)
            st = PL_ENOMEM;
    }
    if (st == PL_OK)
        st = group(t, mach, nm, &v, type_of, next);
    if (st == PL_OK) {
        /* ids type by type: next[k] becomes the next free id of type k */
        for (int32_t k = 0, id = 0; k < v.cluster.types; k++) {
            next[k] = id;
            id += v.nodes[k];
        }
        for (int32_t i = 0; i < nm; i++)
            v.machine_of_node[next[type_of[i]]++] = mach[i];
        *out = v;
    } else {
        pl_coloc_view_free(&v);
    }
    free(mach);
    free(type_of);
    free(next);
    return st;
}

void pl_coloc_view_free(pl_coloc_view *v)
{
    if (!v)
        return;
    free(v->nodes);
    free(v->slots);
    free(v->machine_of_node);
    memset(v, 0, sizeof *v);
}
