/* Internal read-only views of one subtree for the placement policies (not
 * installed): its shape, to recognise machines that are copies of one another
 * in a cluster, and its amounts, to recognise copies in the same state. Both
 * read the arrays directly: a policy call looks at every machine of a
 * 1,000-machine cluster, where the public per-vertex queries cost more than
 * the work they feed. */
#ifndef PL_TOPOLOGY_SUBTREE_H
#define PL_TOPOLOGY_SUBTREE_H

#include <placement/topology.h>
#include "../core/core.h"

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

/* Capacity, then allocated amount, of every resource of verts[0..n) into
 * out (2 * PL_RES_COUNT words per vertex, in that order). The vertices must
 * exist. */
PL_INTERNAL void pl_topo_amounts_of(const pl_topology *t, const int32_t *verts, int32_t n, int64_t *out);

#endif
