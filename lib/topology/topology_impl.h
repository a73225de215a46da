/* Internal layout of pl_topology, shared by the files of lib/topology. */
#ifndef PL_TOPOLOGY_IMPL_H
#define PL_TOPOLOGY_IMPL_H

#include <placement/topology.h>
#include "internal/core.h"
#include "internal/columns.h"

/* Vertices and links are structure-of-arrays so that a 10,000-machine cluster
 * (hundreds of thousands of vertices) costs a few allocations, not one per
 * vertex; names live in one arena. Incidence lists are singly linked through
 * half-links: half-link 2l is link l seen from its end a, 2l + 1 from b. */
struct pl_topology {
    int32_t n, nl;               /* vertices, links */
    int64_t vcap, lcap;          /* allocated room */
    uint8_t *kind;               /* [n] pl_vertex_kind */
    int32_t *parent, *depth, *os_index;
    int32_t *first_child, *last_child, *next_sibling;
    int32_t first_root, last_root; /* roots chained through next_sibling */
    int64_t *name_off;           /* [n] offset into names */
    char *names;
    int64_t names_len, names_cap;
    int64_t *cap;                /* [n * PL_RES_COUNT] */
    int64_t *used;               /* [n * PL_RES_COUNT] */
    int32_t *first_inc, *last_inc; /* [n] first/last half-link, -1 if none */
    int32_t *end;                /* [2 nl] vertex of each half-link: end[2l] = a, end[2l+1] = b */
    int32_t *next_inc;           /* [2 nl] next half-link of the same vertex */
    uint8_t *lkind;              /* [nl] */
    int64_t *bw, *lat, *weight;  /* [nl] */
    /* Vertex attributes (attrs.c): per vertex a singly linked list through
     * attrs[].next in setting order; attr_head[v] and next hold an index + 1
     * (0: none), so the zero-filled growth of the vertex arrays means "no
     * attribute". Removed entries keep their slot with key NULL. */
    int32_t *attr_head;          /* [n] */
    struct pl_topo_attr *attrs;
    int64_t nattrs, attrs_cap;
};

typedef struct pl_topo_attr {
    int64_t next;                /* index + 1 of the vertex's next attribute, 0: last */
    char *key, *value;
} pl_topo_attr;

struct pl_topology_snapshot {
    int32_t n;
    int64_t *used;               /* [n * PL_RES_COUNT] */
};

/* xml_guard.c: PL_EPARSE with "WHAT:LINE: ..." when the hwloc XML text
 * [text, text + len) has a shape that crashes or exhausts one of hwloc's
 * importers; PL_OK otherwise (hwloc still parses it and may refuse it). */
PL_INTERNAL pl_status pl_hwloc_xml_guard(const char *what, const char *text, size_t len);

/* query.c: a reusable context for pl_topology_distance_matrix(), whose
 * scratch is sized to the topology once; writers that need a matrix per
 * machine keep one instead of paying O(vertices) per machine. */
typedef struct pl_topo_dist pl_topo_dist;
PL_INTERNAL pl_status pl_topo_dist_create(const pl_topology *t, pl_topo_dist **out);
PL_INTERNAL pl_status pl_topo_dist_matrix(pl_topo_dist *d, const int32_t *verts, int32_t k,
                                          int64_t *matrix);
PL_INTERNAL void pl_topo_dist_free(pl_topo_dist *d);

#define PL_TOPO_MAX ((int32_t)0x7ffffffe)

static inline const char *pl_topo_name(const pl_topology *t, int32_t v)
{
    return t->names + t->name_off[v];
}

static inline int64_t *pl_topo_cap(const pl_topology *t, int32_t v)
{
    return t->cap + (int64_t)v * PL_RES_COUNT;
}

static inline int64_t *pl_topo_used(const pl_topology *t, int32_t v)
{
    return t->used + (int64_t)v * PL_RES_COUNT;
}

/* topology.c: the per-vertex and per-link arrays (core/columns.h), for the
 * files that grow, copy or free them whole. Not the names arena nor
 * attr_head, which have their own sizes and owners. */
PL_INTERNAL extern const pl_column pl_topo_vertex_cols[], pl_topo_link_cols[];
PL_INTERNAL extern const size_t pl_topo_nvertex_cols, pl_topo_nlink_cols;

/* Validate a handle and vertex id for a function named fn; sets the error. */
PL_INTERNAL pl_status pl_topo_check_vertex(const pl_topology *t, int32_t v, const char *fn);

/* Copying src's attributes to dst in two steps so that pl_topology_graft()
 * stays all or nothing: stage duplicates every string into free slots of
 * dst (the only step that can fail; dst unchanged on failure), link then
 * attaches them to dst's vertices base + v once those exist. */
PL_INTERNAL pl_status pl_topo_stage_attrs(pl_topology *dst, const pl_topology *src);
PL_INTERNAL void pl_topo_link_staged_attrs(pl_topology *dst, int32_t base, const pl_topology *src);
/* Release the attribute storage (pl_topology_free). */
PL_INTERNAL void pl_topo_free_attrs(pl_topology *t);

/* Reserve room for extra vertices / links / name bytes (amortised growth). */
PL_INTERNAL pl_status pl_topo_reserve(pl_topology *t, int64_t vertices, int64_t links, int64_t name_bytes);

/* The array protocol of the list queries: copy k results, report ELIMIT. */
PL_INTERNAL pl_status pl_topo_list_out(const int32_t *res, int32_t k, int32_t *out, int32_t cap,
                                       int32_t *count, const char *fn);

/* Human units for the writers (text.c): bandwidth in decimal GB/s, MB/s,
 * B/s ("40 GB/s", "15.75 GB/s"), bytes in binary GiB, MiB, KiB, B. */
PL_INTERNAL void pl_topo_fmt_bw(char *buf, size_t size, int64_t bytes_per_s);
PL_INTERNAL void pl_topo_fmt_bytes(char *buf, size_t size, int64_t bytes);

/* Output stream of a writer that remembers the first failure, so a writer
 * prints without checking each call and asks once at the end. */
typedef struct pl_topo_out {
    FILE *f;
    int failed;
} pl_topo_out;

PL_INTERNAL void pl_topo_printf(pl_topo_out *o, const char *fmt, ...) PL_PRINTF(2, 3);
/* Flush and report: PL_OK, or PL_EIO naming fn if any write failed. */
PL_INTERNAL pl_status pl_topo_out_end(pl_topo_out *o, const char *fn);

#endif
