/* libFuzzer harness: JSON cluster loader, then a few graph queries. */
#include <stddef.h>
#include <stdint.h>

#include <placement/topology.h>
#include "fuzz_topology.h"

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
    pl_fuzz_query_and_free(topo);
    return 0;
}
