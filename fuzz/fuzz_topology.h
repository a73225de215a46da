/* What the topology harnesses do with a topology that loaded: the queries
 * every loader's output must survive (counts, one shortest path), then free. */
#ifndef PL_FUZZ_TOPOLOGY_H
#define PL_FUZZ_TOPOLOGY_H

#include <placement/topology.h>

static inline void pl_fuzz_query_and_free(pl_topology *topo)
{
    int32_t n = pl_topology_vertex_count(topo);
    (void)pl_topology_link_count(topo);
    if (n > 0) {
        int64_t w = 0;
        (void)pl_topology_distance(topo, 0, n - 1, &w);
    }
    pl_topology_free(topo);
}

#endif
