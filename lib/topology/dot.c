/* Graphviz picture of a topology (pl_topology_write_dot). */
#include <string.h>
#include "topology_impl.h"

/* Machines and sockets become boxes around their contents. */
static int is_box(const pl_topology *t, int32_t v)
{
    return t->kind[v] == PL_VK_MACHINE || t->kind[v] == PL_VK_PACKAGE;
}

static int allocated(const pl_topology *t, int32_t v)
{
    for (int r = 0; r < PL_RES_COUNT; r++)
        if (pl_topo_used(t, v)[r] > 0)
            return 1;
    return 0;
}

/* Name inside a DOT double-quoted string: '"' and '\' escaped. */
static void put_escaped(pl_topo_out *o, const char *s)
{
    while (*s) {
        size_t plain = strcspn(s, "\"\\");
        pl_topo_printf(o, "%.*s", (int)plain, s);
        s += plain;
        if (*s)
            pl_topo_printf(o, "\\%c", *s++);
    }
}

/* label="NAME\nKIND" (the \n is DOT's line break escape). */
static void put_label(pl_topo_out *o, const pl_topology *t, int32_t v)
{
    pl_topo_printf(o, "label=\"");
    put_escaped(o, pl_topo_name(t, v));
    pl_topo_printf(o, "\\n%s\"", pl_vertex_kind_name((pl_vertex_kind)t->kind[v]));
}

static void open_vertex(pl_topo_out *o, const pl_topology *t, int32_t v, int indent)
{
    if (is_box(t, v)) {
        pl_topo_printf(o, "%*ssubgraph cluster_%d {\n%*s", indent, "", v, indent + 2, "");
        put_label(o, t, v);
        pl_topo_printf(o, ";\n");
        indent += 2;
    }
    pl_topo_printf(o, "%*sv%d [", indent, "", v);
    put_label(o, t, v);
    if (allocated(t, v))
        pl_topo_printf(o, ", style=filled, fillcolor=grey");
    pl_topo_printf(o, "];\n");
}

/* Indentation of v's lines: 2 per enclosing box, plus the graph's own 2. */
static int indent_of(const pl_topology *t, int32_t v)
{
    int boxes = 0;
    for (int32_t a = t->parent[v]; a >= 0; a = t->parent[a])
        boxes += is_box(t, a);
    return 2 + 2 * boxes;
}

/* Preorder walk that closes a box once its whole subtree is out; iterative
 * so a deep containment chain cannot overflow the stack. */
static void write_vertices(pl_topo_out *o, const pl_topology *t)
{
    int32_t v = t->first_root;
    while (v >= 0 && !o->failed) {
        open_vertex(o, t, v, indent_of(t, v));
        if (t->first_child[v] >= 0) {
            v = t->first_child[v];
            continue;
        }
        /* Leave v's subtree, and each ancestor's that this completes. */
        for (;;) {
            if (is_box(t, v))
                pl_topo_printf(o, "%*s}\n", indent_of(t, v), "");
            if (t->next_sibling[v] >= 0) {
                v = t->next_sibling[v];
                break;
            }
            if ((v = t->parent[v]) < 0)
                break;
        }
    }
}

static void write_edges(pl_topo_out *o, const pl_topology *t)
{
    char bw[32];
    for (int32_t l = 0; l < t->nl && !o->failed; l++) {
        pl_topo_printf(o, "  v%d -- v%d [label=\"%s", t->end[2 * l], t->end[2 * l + 1],
                       pl_link_kind_name((pl_link_kind)t->lkind[l]));
        if (t->bw[l]) {
            pl_topo_fmt_bw(bw, sizeof bw, t->bw[l]);
            pl_topo_printf(o, " %s", bw);
        }
        pl_topo_printf(o, "\"];\n");
    }
}

pl_status pl_topology_write_dot(const pl_topology *t, FILE *f)
{
    if (!t || !f)
        return pl_err(PL_EINVAL, "pl_topology_write_dot: NULL argument");
    pl_topo_out o = {f, 0};
    pl_topo_printf(&o, "graph topology {\n  node [shape=box];\n");
    write_vertices(&o, t);
    write_edges(&o, t);
    pl_topo_printf(&o, "}\n");
    return pl_topo_out_end(&o, "pl_topology_write_dot");
}
