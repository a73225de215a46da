/* libFuzzer harness: DIMACS min-cost-flow reader, then a bounded solve. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <placement/flownet.h>
#include <placement/solver.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A header may declare up to PL_FLOWNET_MAX_SIZE nodes with no node line,
 * and DIMACS makes them all exist: the reader then allocates memory in
 * proportion to the declared count, by design (doc/robustness.md). The
 * fuzzer's memory limit would report that as a failure, so inputs whose
 * problem line declares more than this many nodes or arcs are skipped. */
#define MAX_DECLARED 1000000LL

static int declares_huge(const uint8_t *data, size_t size)
{
    size_t pos = 0;
    while (pos < size) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - data) - pos : size - pos;
        char line[256];
        size_t k = len < sizeof line - 1 ? len : sizeof line - 1;
        memcpy(line, data + pos, k);
        line[k] = '\0';
        const char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        long long n = 0, m = 0;
        if (*s == 'p' && sscanf(s + 1, "%*s %lld %lld", &n, &m) == 2 &&
            (n > MAX_DECLARED || m > MAX_DECLARED))
            return 1;
        pos += len + 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (declares_huge(data, size))
        return 0;
    pl_flownet *net = NULL;
    /* length 0 is a valid empty text; the reader must not read past size. */
    if (pl_flownet_read_dimacs_string((const char *)data, size, &net) != PL_OK)
        return 0;
    /* Keep each input fast: a fuzzed network may be large, so only small
     * ones are solved, and with an iteration cap. */
    if (pl_flownet_node_count(net) <= 2000 && pl_flownet_arc_count(net) <= 20000) {
        pl_solve_opts opts;
        pl_solve_opts_init(&opts);
        opts.max_iterations = 1000;
        opts.verify = 1;
        if (pl_flownet_solve(net, &opts, NULL) == PL_OK) {
            int64_t cost = 0;
            (void)pl_flownet_solution_cost(net, &cost);
        }
    }
    pl_flownet_free(net);
    return 0;
}
