/* `placement topo`: show a machine or cluster topology as text or DOT. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>
#include "commands.h"

static void topo_usage(FILE *f)
{
    fprintf(f,
            "usage: placement topo [--xml FILE | --json FILE | --builtin NAME]\n"
            "                      [--dot | --format table|csv|json]\n"
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
            "  -F, --format F      table (default: the text above), csv (one row per vertex:\n"
            "                      id, kind, name, path, parent, os_index, then capacity and\n"
            "                      allocated amount of each resource) or json (vertices,\n"
            "                      links and each machine's GPU distance matrix)\n"
            "  -m, --machines N    a cluster of N copies of the machine\n"
            "  -r, --per-rack K    machines per rack in the cluster (default 32)\n"
            "      --network-bw B  machine-rack and rack-cluster bandwidth, bytes/s\n"
            "                      (default 12500000000, 100 Gb/s)\n"
            "\n"
            "Exit status: 0 ok, 1 the topology could not be built or written, 2 usage error.\n");
}

typedef struct topo_args {
    const char *xml, *json, *builtin;
    int dot, format;
    long long machines, per_rack, network_bw;
} topo_args;

/* -1: go on; otherwise the exit code. */
static int parse_args(int argc, char **argv, topo_args *a)
{
    static const struct option longopts[] = {
        {"xml", required_argument, NULL, 'x'},      {"json", required_argument, NULL, 'j'},
        {"builtin", required_argument, NULL, 'b'},  {"dot", no_argument, NULL, 'd'},
        {"machines", required_argument, NULL, 'm'}, {"per-rack", required_argument, NULL, 'r'},
        {"network-bw", required_argument, NULL, 'N'}, {"help", no_argument, NULL, 'h'},
        {"format", required_argument, NULL, 'F'},
        {NULL, 0, NULL, 0},
    };
    int c, sources = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "x:j:b:dm:r:F:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'x': a->xml = optarg; sources++; break;
        case 'j': a->json = optarg; sources++; break;
        case 'b': a->builtin = optarg; sources++; break;
        case 'd': a->dot = 1; break;
        case 'm':
            if ((a->machines = parse_count("topo", "machines", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'r':
            if ((a->per_rack = parse_count("topo", "per-rack", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'N':
            if ((a->network_bw = parse_count("topo", "network-bw", optarg, INT64_MAX)) < 0)
                return 2;
            break;
        case 'F':
            if ((a->format = out_format(optarg)) < 0) {
                fprintf(stderr, "placement topo: --format wants table, csv or json, got '%s'\n", optarg);
                return 2;
            }
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
    if (a->dot && a->format != OUT_TABLE) {
        fprintf(stderr, "placement topo: --dot and --format csv|json exclude each other\n");
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

static pl_status write_csv(const pl_topology *t, FILE *f)
{
    fputs("id,kind,name,path,parent,os_index", f);
    for (int r = 0; r < PL_RES_COUNT; r++)
        fprintf(f, ",%s,%s_allocated", pl_resource_name((pl_resource)r), pl_resource_name((pl_resource)r));
    fputc('\n', f);
    char path[4096];
    for (int32_t v = 0; v < pl_topology_vertex_count(t); v++) {
        pl_vertex_info info;
        pl_status st = pl_topology_vertex(t, v, &info);
        if (!st)
            st = pl_topology_path_name(t, v, path, sizeof path); /* PL_ELIMIT, never cut */
        if (st)
            return st;
        fprintf(f, "%d,%s,", v, pl_vertex_kind_name(info.kind));
        out_csv_field(f, info.name);
        fputc(',', f);
        out_csv_field(f, path);
        fprintf(f, ",%d,%d", info.parent, info.os_index);
        for (int r = 0; r < PL_RES_COUNT; r++) {
            int64_t cap, used;
            pl_topology_amount(t, v, (pl_resource)r, &cap, &used, NULL);
            fprintf(f, ",%" PRId64 ",%" PRId64, cap, used);
        }
        fputc('\n', f);
    }
    return ferror(f) ? pl_solver_error(PL_EIO, "writing the CSV failed") : PL_OK;
}

/* {"resource": amount, ...} of the non-zero amounts (capacity or allocated). */
static void json_amounts(const pl_topology *t, int32_t v, int allocated, FILE *f)
{
    const char *sep = "";
    fputc('{', f);
    for (int r = 0; r < PL_RES_COUNT; r++) {
        int64_t cap, used;
        pl_topology_amount(t, v, (pl_resource)r, &cap, &used, NULL);
        int64_t x = allocated ? used : cap;
        if (x == 0)
            continue;
        fprintf(f, "%s", sep);
        out_json_string(f, pl_resource_name((pl_resource)r));
        fprintf(f, ": %" PRId64, x);
        sep = ", ";
    }
    fputc('}', f);
}

static pl_status json_vertices(const pl_topology *t, FILE *f)
{
    char path[4096];
    fputs("  \"vertices\": [", f);
    for (int32_t v = 0; v < pl_topology_vertex_count(t); v++) {
        pl_vertex_info info;
        pl_status st = pl_topology_vertex(t, v, &info);
        if (!st)
            st = pl_topology_path_name(t, v, path, sizeof path); /* PL_ELIMIT, never cut */
        if (st)
            return st;
        fprintf(f, "%s\n    {\"id\": %d, \"kind\": \"%s\", \"name\": ", v ? "," : "", v,
                pl_vertex_kind_name(info.kind));
        out_json_string(f, info.name);
        fputs(", \"path\": ", f);
        out_json_string(f, path);
        fprintf(f, ", \"parent\": %d, \"os_index\": %d, \"capacity\": ", info.parent, info.os_index);
        json_amounts(t, v, 0, f);
        fputs(", \"allocated\": ", f);
        json_amounts(t, v, 1, f);
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
    return PL_OK;
}

static pl_status json_links(const pl_topology *t, FILE *f)
{
    fputs("  \"links\": [", f);
    for (int32_t l = 0; l < pl_topology_link_count(t); l++) {
        pl_link_info k;
        pl_status st = pl_topology_link(t, l, &k);
        if (st)
            return st;
        fprintf(f, "%s\n    {\"a\": %d, \"b\": %d, \"kind\": \"%s\", \"bw_bytes_per_s\": %" PRId64
                ", \"latency_ns\": %" PRId64 ", \"weight\": %" PRId64 "}",
                l ? "," : "", k.a, k.b, pl_link_kind_name(k.kind), k.bw_bytes_per_s, k.latency_ns, k.weight);
    }
    fputs("\n  ],\n", f);
    return PL_OK;
}

/* One machine's GPUs (vertex ids, preorder) and their distance matrix; null
 * for a pair without a path. */
static pl_status json_machine_gpus(const pl_topology *t, int32_t m, FILE *f)
{
    int32_t n = 0;
    pl_status st = pl_topology_descendants(t, m, PL_VK_GPU, NULL, 0, &n);
    int32_t *g = malloc(sizeof *g * (size_t)(n > 0 ? n : 1));
    int64_t *d = malloc(sizeof *d * (size_t)(n > 0 ? n * n : 1));
    if (!st && (!g || !d))
        st = pl_solver_error(PL_ENOMEM, "out of memory");
    if (!st)
        st = pl_topology_descendants(t, m, PL_VK_GPU, g, n, &n);
    if (!st && n > 0)
        st = pl_topology_distance_matrix(t, g, n, d);
    if (!st) {
        fprintf(f, "{\"machine\": %d, \"gpus\": [", m);
        for (int32_t i = 0; i < n; i++)
            fprintf(f, "%s%d", i ? ", " : "", g[i]);
        fputs("], \"distance\": [", f);
        for (int32_t i = 0; i < n; i++) {
            fputs(i ? ", [" : "[", f);
            for (int32_t j = 0; j < n; j++)
                if (d[i * n + j] < 0)
                    fprintf(f, "%snull", j ? ", " : "");
                else
                    fprintf(f, "%s%" PRId64, j ? ", " : "", d[i * n + j]);
            fputc(']', f);
        }
        fputs("]}", f);
    }
    free(g);
    free(d);
    return st;
}

static pl_status write_json(const pl_topology *t, FILE *f)
{
    fputs("{\n", f);
    pl_status st = json_vertices(t, f);
    if (!st)
        st = json_links(t, f);
    if (st)
        return st;
    fputs("  \"machines\": [", f);
    int first = 1;
    for (int32_t v = 0; v < pl_topology_vertex_count(t) && !st; v++) {
        pl_vertex_info info;
        if (pl_topology_vertex(t, v, &info) || info.kind != PL_VK_MACHINE)
            continue;
        fputs(first ? "\n    " : ",\n    ", f);
        first = 0;
        st = json_machine_gpus(t, v, f);
    }
    if (st)
        return st;
    fputs("\n  ]\n}\n", f);
    return ferror(f) ? pl_solver_error(PL_EIO, "writing the JSON failed") : PL_OK;
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
        st = a.dot ? pl_topology_write_dot(t, stdout)
           : a.format == OUT_CSV ? write_csv(t, stdout)
           : a.format == OUT_JSON ? write_json(t, stdout)
                                  : pl_topology_write_text(t, stdout);
    pl_topology_free(t);
    if (st) {
        fprintf(stderr, "placement topo: %s\n", pl_last_error());
        return 1;
    }
    return 0;
}
