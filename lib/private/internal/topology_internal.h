/* Internal helpers of lib/topology for the placement policies (not
 * installed): a whole copy by arrays (clone.c), and read-only views of one
 * subtree (subtree.c): its shape, to recognise machines that are copies of
 * one another in a cluster, and its amounts, to recognise copies in the same
 * state. They read the arrays directly: a policy call copies the cluster and
 * looks at every machine of it, 1,000 of them in the simulator's scale
 * benchmark, where the public per-vertex calls cost more than the work they
 * feed. */
#ifndef PL_TOPOLOGY_INTERNAL_H
#define PL_TOPOLOGY_INTERNAL_H

#include <placement/topology.h>
#include "internal/core.h"

/* The same as pl_topology_copy() (every vertex, link, name, capacity,
 * allocation and attribute, with the same ids), by copying the arrays
 * rather than adding the vertices and links one by one. */
PL_INTERNAL pl_status pl_topo_clone(const pl_topology *t, pl_topology **out);

/* The subtree of vertex v in preorder and its shape as a word sequence: per
 * vertex in turn its kind, its parent's position (-1 for v), its number of
 * links, then per link (in incidence order) the link's kind, its weight and
 * the position of its other end (-1 outside the subtree). Two subtrees with
 * equal words have the same containment tree, kinds and links by position,
 * so the same distances between their vertices when *self_contained.
 *
 * pos: scratch of one entry per vertex of t, all -1 (left so on return).
 * *verts (n entries) and *words (nwords) are grown with pl_grow (caps in
 * *vcap, *wcap) and owned by the caller. *self_contained = 0 when a link of
 * a vertex other than v leaves the subtree (a shortest path between two of
 * its vertices could then run outside it). Fails only out of memory. */
PL_INTERNAL pl_status pl_topo_subtree_shape(const pl_topology *t, int32_t v, int32_t *pos,
                                            int32_t **verts, int64_t *vcap, int32_t *n,
                                            int64_t **words, int64_t *wcap, int64_t *nwords,
                                            int *self_contained);

/* The capacity of every resource of verts[0..n) into out (PL_RES_COUNT
 * words per vertex). The vertices must exist. */
PL_INTERNAL void pl_topo_capacities_of(const pl_topology *t, const int32_t *verts, int32_t n, int64_t *out);

/* The allocated amounts of verts[0..n) into out, only of the resources a
 * vertex has a capacity of (none can be allocated of the others), vertex by
 * vertex in resource order; returns the number of words written (at most
 * n * PL_RES_COUNT). So vertices of equal capacities give equal layouts. */
PL_INTERNAL int64_t pl_topo_used_of(const pl_topology *t, const int32_t *verts, int32_t n, int64_t *out);

/* The machine vertex above v (v itself included), -1 when v is not a
 * vertex of t or has none (a pool's device). Unlike pl_topology_ancestor()
 * it sets no error message: callers ask it of pool devices routinely. */
PL_INTERNAL int32_t pl_topo_machine_of(const pl_topology *t, int32_t v);

/* v is a vertex of that kind. */
PL_INTERNAL int pl_topo_is(const pl_topology *t, int32_t v, pl_vertex_kind kind);

/* v may host a CPU-only task: a package, or a machine that models no
 * package (it then holds the task's cores and memory itself). */
PL_INTERNAL int pl_topo_hosts_cpu_tasks(const pl_topology *t, int32_t v);

/* The machine holding every one of v[0..n), -1 when they are on several,
 * one has none, or n is 0. */
PL_INTERNAL int32_t pl_topo_common_machine(const pl_topology *t, const int32_t *v, int32_t n);

/* The vertices of kind under v (v < 0: the whole topology; kind < 0: every
 * kind) in preorder, into *out, allocated with one spare entry (so never
 * NULL on success; the caller frees it), *n of them. PL_ENOMEM, or the
 * errors of pl_topology_descendants(); *out is NULL on error. */
PL_INTERNAL pl_status pl_topo_list(const pl_topology *t, int32_t v, int kind, int32_t **out, int32_t *n);

#endif
