/* `placement topo`: show a machine or cluster topology as text or DOT. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>
#include "commands.h"

static void topo_usage(FILE *f)
{
    fprintf(f,
            "usage: placement topo [--xml FILE | --json FILE | --builtin NAME] [--dot]\n"
            "                      [--machines N [--per-rack K] [--network-bw BYTES_PER_S]]\n"
            "\n"
            "Print a topology: its containment tree with capacities, its links, and the GPU\n"
            "distance matrix of each machine; or a Graphviz picture with --dot. Without a\n"
            "source option, the machine this runs on (hwloc).\n"
            "\n"
            "  -x, --xml FILE      an hwloc XML export (lstopo --of xml)\n"
            "  -j, --json FILE     a JSON cluster description (doc/topology.md)\n"
            "  -b, --builtin NAME  a reference machine:");
    for (const char *const *n = pl_topology_builtin_names(); *n; n++)
        fprintf(f, " %s", *n);
    fprintf(f,
            "\n"
            "  -d, --dot           write Graphviz DOT instead of text\n"
            "  -m, --machines N    a cluster of N copies of the machine\n"
            "  -r, --per-rack K    machines per rack in the cluster (default 32)\n"
            "      --network-bw B  machine-rack and rack-cluster bandwidth, bytes/s\n"
            "                      (default 12500000000, 100 Gb/s)\n"
            "\n"
            "Exit status: 0 ok, 1 the topology could not be built or written, 2 usage error.\n");
}

typedef struct topo_args {
    const char *xml, *json, *builtin;
    int dot;
    long long machines, per_rack, network_bw;
} topo_args;

/* A positive integer option value in 1..max, or -1 with a message. */
static long long count_arg(const char *name, const char *text, long long max)
{
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < 1 || v > max) {
        fprintf(stderr, "placement topo: --%s wants an integer in 1..%lld, got '%s'\n", name, max,
                text);
        return -1;
    }
    return v;
}

/* -1: go on; otherwise the exit code. */
static int parse_args(int argc, char **argv, topo_args *a)
{
    static const struct option longopts[] = {
        {"xml", required_argument, NULL, 'x'},      {"json", required_argument, NULL, 'j'},
        {"builtin", required_argument, NULL, 'b'},  {"dot", no_argument, NULL, 'd'},
        {"machines", required_argument, NULL, 'm'}, {"per-rack", required_argument, NULL, 'r'},
        {"network-bw", required_argument, NULL, 'N'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c, sources = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "x:j:b:dm:r:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'x': a->xml = optarg; sources++; break;
        case 'j': a->json = optarg; sources++; break;
        case 'b': a->builtin = optarg; sources++; break;
        case 'd': a->dot = 1; break;
        case 'm':
            if ((a->machines = count_arg("machines", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'r':
            if ((a->per_rack = count_arg("per-rack", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'N':
            if ((a->network_bw = count_arg("network-bw", optarg, INT64_MAX)) < 0)
                return 2;
            break;
        case 'h': topo_usage(stdout); return 0;
        default: topo_usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "placement topo: unexpected argument '%s'\n", argv[optind]);
        topo_usage(stderr);
        return 2;
    }
    if (sources > 1) {
        fprintf(stderr, "placement topo: give at most one of --xml, --json, --builtin\n");
        return 2;
    }
    if (!a->machines && (a->per_rack || a->network_bw)) {
        fprintf(stderr, "placement topo: --per-rack and --network-bw need --machines\n");
        return 2;
    }
    return -1;
}

static pl_status load(const topo_args *a, pl_topology **out)
{
    if (a->xml)
        return pl_topology_load_xml(a->xml, out);
    if (a->json)
        return pl_topology_load_json(a->json, out);
    if (a->builtin)
        return pl_topology_builtin(a->builtin, out);
    return pl_topology_load_hwloc(NULL, out);
}

/* The topology to print: the loaded one, or a cluster of copies of it. */
static pl_status build(const topo_args *a, pl_topology **out)
{
    pl_topology *t = NULL;
    pl_status st = load(a, &t);
    if (st || !a->machines) {
        *out = t;
        return st;
    }
    st = pl_topology_cluster(t, (int32_t)a->machines, a->per_rack ? (int32_t)a->per_rack : 32,
                             a->network_bw, out);
    pl_topology_free(t);
    return st;
}

int cmd_topo(int argc, char **argv)
{
    topo_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    pl_topology *t = NULL;
    pl_status st = build(&a, &t);
    if (st == PL_OK)
        st = a.dot ? pl_topology_write_dot(t, stdout) : pl_topology_write_text(t, stdout);
    pl_topology_free(t);
    if (st) {
        fprintf(stderr, "placement topo: %s\n", pl_last_error());
        return 1;
    }
    return 0;
}
