/* libFuzzer harness: JSON cluster loader, then a few graph queries. */
#include <stddef.h>
#include <stdint.h>

#include <placement/topology.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pl_topology *topo = NULL;
    /* size 0 means strlen to the loader, so an empty input is skipped
     * rather than read past its end. */
    if (size == 0)
        return 0;
    if (pl_topology_load_json_string((const char *)data, size, &topo) != PL_OK)
        return 0;
    int32_t n = pl_topology_vertex_count(topo);
    (void)pl_topology_link_count(topo);
    if (n > 0) {
        int64_t w = 0;
        (void)pl_topology_distance(topo, 0, n - 1, &w);
    }
    pl_topology_free(topo);
    return 0;
}
