/* libFuzzer harness: hwloc XML loader from a buffer, then graph queries. */
#include <stddef.h>
#include <stdint.h>

#include <hwloc.h>
#include <placement/topology.h>
#include "fuzz_topology.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* hwloc unloads its plugins (the libxml2 XML backend among them) when its
 * last topology is destroyed. libxml2 keeps the last parse error (2 blocks,
 * 112 bytes) until the next one, on purpose; once the plugin is unloaded
 * nothing points at that record and LeakSanitizer reports it after any
 * malformed input. One topology kept for the whole run keeps the plugins
 * loaded, so only real leaks are reported. */
static hwloc_topology_t keep_plugins;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    hwloc_topology_init(&keep_plugins);
    hwloc_topology_set_xmlbuffer(keep_plugins, "<topology/>", 12);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* xml_length 0 means strlen, and a NULL buffer means the live machine:
     * neither is what the fuzzer means by an empty input. */
    if (size == 0)
        return 0;
    pl_hwloc_opts opts;
    pl_hwloc_opts_init(&opts);
    opts.xml_buffer = (const char *)data;
    opts.xml_length = size;
    pl_topology *topo = NULL;
    if (pl_topology_load_hwloc(&opts, &topo) != PL_OK)
        return 0;
    pl_fuzz_query_and_free(topo);
    return 0;
}
