/* `placement slurm-conf`: the Slurm configuration of a cluster the library
 * describes (doc/slurm.md): NodeName lines, gres.conf, topology.conf. The
 * job_submit hook (examples/slurm/job_submit.lua) loads the same cluster, so
 * node names, GPU order and GPU types here are what it relies on. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <placement/placement.h>
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: placement slurm-conf (--json FILE | --builtin NAME [--machines N [--per-rack K]])\n"
            "                            [--out DIR] [--device-prefix P] [--nvlink-bw B] [--untyped]\n"
            "\n"
            "Write Slurm's view of a cluster: slurm.conf NodeName lines (CPUs, sockets,\n"
            "RealMemory, Gres), gres.conf (each GPU's File=, Cores= of its socket and\n"
            "Links=, the NVLink matrix Slurm's GPU selection reads) and topology.conf\n"
            "(racks as switches). Every GPU gets its own type, idx<K> for the K-th GPU of\n"
            "its node, so that a job can be given exactly the GPUs the placement chose\n"
            "(doc/slurm.md).\n"
            "\n"
            "  -j, --json FILE         a JSON cluster description (doc/topology-json.md)\n"
            "  -b, --builtin NAME      a reference machine (see placement topo --help)\n"
            "  -m, --machines N        a cluster of N copies of the builtin machine\n"
            "  -r, --per-rack K        machines per rack (default 32)\n"
            "  -o, --out DIR           write DIR/slurm.conf, DIR/gres.conf, DIR/topology.conf\n"
            "                          (default: all three to standard output)\n"
            "  -p, --device-prefix P   File= of GPU i is P<i> (default /dev/nvidia)\n"
            "      --nvlink-bw B       bytes/s of one NVLink in Links= (default 20000000000)\n"
            "      --untyped           no per-GPU types (Gres=gpu:N; the hook cannot pin GPUs)\n"
            "\n"
            "Exit status: 0 ok, 1 the cluster could not be loaded or a file written, 2 usage error.\n");
}

typedef struct sc_args {
    const char *json, *builtin, *out, *prefix;
    long long machines, per_rack, nvlink_bw;
    int untyped;
} sc_args;

/* -1: go on; otherwise the exit code. */
static int parse_args(int argc, char **argv, sc_args *a)
{
    static const struct option longopts[] = {
        {"json", required_argument, NULL, 'j'},      {"builtin", required_argument, NULL, 'b'},
        {"machines", required_argument, NULL, 'm'},  {"per-rack", required_argument, NULL, 'r'},
        {"out", required_argument, NULL, 'o'},       {"device-prefix", required_argument, NULL, 'p'},
        {"nvlink-bw", required_argument, NULL, 'N'}, {"untyped", no_argument, NULL, 'U'},
        {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "j:b:m:r:o:p:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j': a->json = optarg; break;
        case 'b': a->builtin = optarg; break;
        case 'o': a->out = optarg; break;
        case 'p': a->prefix = optarg; break;
        case 'U': a->untyped = 1; break;
        case 'm':
            if ((a->machines = parse_count("slurm-conf", "machines", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'r':
            if ((a->per_rack = parse_count("slurm-conf", "per-rack", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'N':
            if ((a->nvlink_bw = parse_count("slurm-conf", "nvlink-bw", optarg, INT64_MAX)) < 0)
                return 2;
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "placement slurm-conf: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!a->json == !a->builtin) {
        fprintf(stderr, "placement slurm-conf: give exactly one of --json, --builtin\n");
        return 2;
    }
    if ((a->machines || a->per_rack) && !a->builtin) {
        fprintf(stderr, "placement slurm-conf: --machines and --per-rack go with --builtin\n");
        return 2;
    }
    if (a->per_rack && !a->machines) {
        fprintf(stderr, "placement slurm-conf: --per-rack needs --machines\n");
        return 2;
    }
    return -1;
}

static pl_status load(const sc_args *a, pl_topology **out)
{
    return load_machines(NULL, a->json, a->builtin, a->machines, a->per_rack, out);
}

/* Vertices of kind under v (v = -1: all), preorder; NULL on failure. */
static int32_t *list_of(const pl_topology *t, int32_t v, int kind, int32_t *n)
{
    if (pl_topology_descendants(t, v, kind, NULL, 0, n))
        return NULL;
    int32_t *ids = malloc(sizeof *ids * (size_t)(*n > 0 ? *n : 1));
    if (ids && pl_topology_descendants(t, v, kind, ids, *n, n)) {
        free(ids);
        return NULL;
    }
    return ids;
}

static const char *vname(const pl_topology *t, int32_t v)
{
    pl_vertex_info info;
    return pl_topology_vertex(t, v, &info) ? "?" : info.name;
}

static int os_index(const pl_topology *t, int32_t v)
{
    pl_vertex_info info;
    return pl_topology_vertex(t, v, &info) ? -1 : info.os_index;
}

/* Slurm numbers a node's GPUs in gres.conf order; the hook numbers them the
 * same way: by os_index, preorder among equals (a stable insertion sort). */
static void sort_gpus(const pl_topology *t, int32_t *g, int32_t n)
{
    for (int32_t i = 1; i < n; i++) {
        int32_t x = g[i], j = i;
        while (j > 0 && os_index(t, g[j - 1]) > os_index(t, x)) {
            g[j] = g[j - 1];
            j--;
        }
        g[j] = x;
    }
}

static int64_t cores_of(const pl_topology *t, int32_t pkg)
{
    int64_t cap = 0, cores = 0;
    pl_topology_amount(t, pkg, PL_RES_CORES, &cap, NULL, NULL);
    int32_t n = 0;
    /* Templates loaded with core vertices count cores as vertices. */
    if (!pl_topology_descendants(t, pkg, PL_VK_CORE, NULL, 0, &n))
        cores = n;
    return cap > 0 ? cap : cores;
}

/* One machine's NodeName line. */
static void node_line(FILE *f, const pl_topology *t, int32_t m, int32_t ngpus, int untyped)
{
    int32_t npkg = 0;
    int32_t *pkgs = list_of(t, m, PL_VK_PACKAGE, &npkg);
    int64_t cpus = 0, per = -1, mem_cap = 0, unused;
    for (int32_t i = 0; pkgs && i < npkg; i++) {
        int64_t c = cores_of(t, pkgs[i]);
        cpus += c;
        per = (per == -1 || per == c) ? c : -2;
    }
    if (!pkgs || npkg == 0)
        pl_topology_amount(t, m, PL_RES_CORES, &cpus, NULL, NULL);
    pl_topology_subtree_amount(t, m, PL_VK_NUMA, PL_RES_MEMORY, &mem_cap, &unused);
    if (mem_cap == 0)
        pl_topology_amount(t, m, PL_RES_MEMORY, &mem_cap, NULL, NULL);
    fprintf(f, "NodeName=%s CPUs=%lld", vname(t, m), (long long)(cpus > 0 ? cpus : 1));
    if (pkgs && npkg > 0 && per > 0)
        fprintf(f, " Sockets=%d CoresPerSocket=%lld ThreadsPerCore=1", npkg, (long long)per);
    fprintf(f, " RealMemory=%lld", (long long)(mem_cap / (1024 * 1024)));
    if (ngpus > 0 && untyped)
        fprintf(f, " Gres=gpu:%d", ngpus);
    for (int32_t k = 0; k < ngpus && !untyped; k++)
        fprintf(f, "%sgpu:idx%d:1", k ? "," : " Gres=", k);
    fprintf(f, " State=UNKNOWN\n");
    free(pkgs);
}

/* "a-b" core range of the socket holding gpu (Slurm's core numbering: the
 * sockets' cores in order), or "" when it is not under a socket. */
static void core_range(const pl_topology *t, int32_t m, int32_t gpu, char *buf, size_t size)
{
    int32_t pkg, npkg = 0;
    buf[0] = '\0';
    if (pl_topology_ancestor(t, gpu, PL_VK_PACKAGE, &pkg))
        return;
    int32_t *pkgs = list_of(t, m, PL_VK_PACKAGE, &npkg);
    int64_t first = 0;
    for (int32_t i = 0; pkgs && i < npkg; i++) {
        int64_t c = cores_of(t, pkgs[i]);
        if (pkgs[i] == pkg) {
            if (c > 0)
                snprintf(buf, size, "%lld-%lld", (long long)first, (long long)(first + c - 1));
            break;
        }
        first += c;
    }
    free(pkgs);
}

/* Bandwidth of the NVLinks joining a and b directly (parallel links add up). */
static int64_t direct_nvlink_bw(const pl_topology *t, int32_t a, int32_t b)
{
    int32_t n = 0;
    int32_t *links = NULL;
    if (pl_topology_links_of(t, a, NULL, 0, &n) || n == 0 || !(links = malloc(sizeof *links * (size_t)n)))
        return 0;
    int64_t bw = 0;
    if (!pl_topology_links_of(t, a, links, n, &n))
        for (int32_t i = 0; i < n; i++) {
            pl_link_info li;
            if (!pl_topology_link(t, links[i], &li) && li.kind == PL_LK_NVLINK &&
                (li.a == b || li.b == b))
                bw += li.bw_bytes_per_s > 0 ? li.bw_bytes_per_s : 1;
        }
    free(links);
    return bw;
}

/* Bottleneck bandwidth of the best path from a to b when it runs over
 * NVSwitch links through NVSwitches only (DGX-2), else 0: a path through
 * another GPU or a socket is not a link of the pair. */
static int64_t nvswitch_bw(const pl_topology *t, int32_t a, int32_t b)
{
    int32_t n = 0, links[16], cur = a;
    if (pl_topology_path(t, a, b, links, 16, &n) || n < 2)
        return 0;
    for (int32_t i = 0; i < n; i++) {
        pl_link_info li;
        pl_vertex_info vi;
        if (pl_topology_link(t, links[i], &li) || li.kind != PL_LK_NVSWITCH)
            return 0;
        cur = li.a == cur ? li.b : li.a;
        if (cur != b && (pl_topology_vertex(t, cur, &vi) || vi.kind != PL_VK_NVSWITCH))
            return 0;
    }
    int64_t bw = 0;
    if (pl_topology_bottleneck_bw(t, a, b, &bw) || bw == INT64_MAX)
        return 1;
    return bw;
}

/* Slurm's Links value of a GPU pair: how many NVLinks join them (their
 * bandwidth in units of one NVLink, at least 1), directly or through
 * NVSwitches; 0 when only PCIe, a socket or another GPU is between them. */
static long long link_value(const pl_topology *t, int32_t a, int32_t b, long long nvlink_bw)
{
    int64_t bw = direct_nvlink_bw(t, a, b);
    if (bw == 0)
        bw = nvswitch_bw(t, a, b);
    if (bw == 0)
        return 0;
    long long v = (long long)((bw + nvlink_bw / 2) / nvlink_bw);
    return v > 0 ? v : 1;
}

static void gres_lines(FILE *f, const pl_topology *t, int32_t m, const int32_t *g, int32_t n,
                       const sc_args *a)
{
    for (int32_t i = 0; i < n; i++) {
        char cores[64];
        fprintf(f, "NodeName=%s Name=gpu", vname(t, m));
        if (!a->untyped)
            fprintf(f, " Type=idx%d", i);
        fprintf(f, " File=%s%d", a->prefix, os_index(t, g[i]) >= 0 ? os_index(t, g[i]) : i);
        core_range(t, m, g[i], cores, sizeof cores);
        if (cores[0])
            fprintf(f, " Cores=%s", cores);
        fprintf(f, " Links=");
        for (int32_t j = 0; j < n; j++)
            fprintf(f, "%s%lld", j ? "," : "",
                    i == j ? -1LL : link_value(t, g[i], g[j], a->nvlink_bw));
        fputc('\n', f);
    }
}

/* Digits ending a name: its number, or -1 (none, or a leading zero that a
 * Slurm range would not reproduce). */
static long long name_number(const char *s, size_t *prefix_len)
{
    size_t n = strlen(s), i = n;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
        i--;
    *prefix_len = i;
    if (i == n || n - i > 9 || (s[i] == '0' && n - i > 1))
        return -1;
    return atoll(s + i);
}

/* A Slurm hostlist of the names of vertices v[0..n): runs of one prefix and
 * consecutive numbers become prefix[a-b]. */
static void hostlist(FILE *f, const pl_topology *t, const int32_t *v, int32_t n)
{
    for (int32_t i = 0; i < n;) {
        const char *s = vname(t, v[i]);
        size_t plen, qlen;
        long long x = name_number(s, &plen);
        int32_t j = i + 1;
        while (x >= 0 && j < n) {
            const char *q = vname(t, v[j]);
            if (name_number(q, &qlen) != x + (j - i) || qlen != plen || strncmp(s, q, plen))
                break;
            j++;
        }
        fprintf(f, "%s", i ? "," : "");
        if (j - i > 1)
            fprintf(f, "%.*s[%lld-%lld]", (int)plen, s, x, x + (j - i - 1));
        else
            fprintf(f, "%s", s);
        i = j;
    }
}

/* The machines directly under v. */
static int32_t *child_machines(const pl_topology *t, int32_t v, int32_t *n)
{
    int32_t all = 0, *kids = list_of(t, v, -1, &all);
    if (!kids)
        return NULL;
    *n = 0;
    for (int32_t i = 0; i < all; i++) {
        pl_vertex_info info;
        if (!pl_topology_vertex(t, kids[i], &info) && info.kind == PL_VK_MACHINE &&
            info.parent == v)
            kids[(*n)++] = kids[i];
    }
    return kids;
}

/* topology/tree: a switch per rack over its machines, one per cluster root
 * over its racks (and a "<root>-nodes" switch for machines outside racks). */
static void topology_conf(FILE *f, const pl_topology *t)
{
    int32_t nroots = 0, *roots = list_of(t, -1, -1, &nroots);
    fprintf(f, "# topology.conf written by placement slurm-conf (TopologyPlugin=topology/tree)\n");
    for (int32_t r = 0; roots && r < nroots; r++) {
        pl_vertex_info info;
        if (pl_topology_vertex(t, roots[r], &info) || info.parent != -1)
            continue;
        if (info.kind == PL_VK_MACHINE) {
            fprintf(f, "SwitchName=%s-switch Nodes=%s\n", info.name, info.name);
            continue;
        }
        int32_t nracks = 0, *racks = list_of(t, roots[r], PL_VK_RACK, &nracks);
        int32_t ndirect = 0, *direct = child_machines(t, roots[r], &ndirect);
        for (int32_t k = 0; racks && k < nracks; k++) {
            int32_t nm = 0, *ms = child_machines(t, racks[k], &nm);
            if (ms && nm > 0) {
                fprintf(f, "SwitchName=%s Nodes=", vname(t, racks[k]));
                hostlist(f, t, ms, nm);
                fputc('\n', f);
            }
            free(ms);
        }
        if (direct && ndirect > 0 && nracks == 0) {
            fprintf(f, "SwitchName=%s Nodes=", info.name);
            hostlist(f, t, direct, ndirect);
            fputc('\n', f);
        } else if (racks && nracks > 0) {
            if (direct && ndirect > 0) {
                fprintf(f, "SwitchName=%s-nodes Nodes=", info.name);
                hostlist(f, t, direct, ndirect);
                fputc('\n', f);
            }
            fprintf(f, "SwitchName=%s Switches=", info.name);
            hostlist(f, t, racks, nracks);
            if (direct && ndirect > 0)
                fprintf(f, ",%s-nodes", info.name);
            fputc('\n', f);
        }
        free(racks);
        free(direct);
    }
    free(roots);
}

static int write_confs(const pl_topology *t, const sc_args *a, FILE *slurm, FILE *gres)
{
    int32_t nm = 0, *ms = list_of(t, -1, PL_VK_MACHINE, &nm);
    if (!ms)
        return 1;
    fprintf(slurm, "# slurm.conf lines written by placement slurm-conf (doc/slurm.md)\n"
                   "GresTypes=gpu\n");
    fprintf(gres, "# gres.conf written by placement slurm-conf: %s\n"
                  "# Links= counts NVLinks (units of %lld bytes/s), 0 = no NVLink between them\n",
            a->untyped ? "untyped GPUs" : "GPU K of a node is Type=idxK,", a->nvlink_bw);
    for (int32_t i = 0; i < nm; i++) {
        int32_t ng = 0, *g = list_of(t, ms[i], PL_VK_GPU, &ng);
        if (!g) {
            free(ms);
            return 1;
        }
        sort_gpus(t, g, ng);
        node_line(slurm, t, ms[i], ng, a->untyped);
        gres_lines(gres, t, ms[i], g, ng, a);
        free(g);
    }
    free(ms);
    return 0;
}

static FILE *open_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "placement slurm-conf: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static int write_dir(const pl_topology *t, const sc_args *a)
{
    if (mkdir(a->out, 0777) && errno != EEXIST) {
        fprintf(stderr, "placement slurm-conf: cannot create %s: %s\n", a->out, strerror(errno));
        return 1;
    }
    FILE *s = open_in(a->out, "slurm.conf"), *g = open_in(a->out, "gres.conf"),
         *tp = open_in(a->out, "topology.conf");
    int rc = (s && g && tp) ? write_confs(t, a, s, g) : 1;
    if (tp && !rc)
        topology_conf(tp, t);
    FILE *fs[3] = {s, g, tp};
    for (int i = 0; i < 3; i++)
        if (fs[i] && (ferror(fs[i]) | fclose(fs[i])))
            rc = 1;
    if (rc)
        fprintf(stderr, "placement slurm-conf: writing into %s failed\n", a->out);
    return rc;
}

/* To standard output the three files follow each other, each after a
 * "# ==> NAME <==" line (as head prints several files). */
static int write_stdout(const pl_topology *t, const sc_args *a)
{
    char *gbuf = NULL;
    size_t glen = 0;
    FILE *g = open_memstream(&gbuf, &glen);
    if (!g)
        return 1;
    printf("# ==> slurm.conf <==\n");
    int rc = write_confs(t, a, stdout, g);
    fclose(g);
    if (!rc) {
        printf("\n# ==> gres.conf <==\n%s\n# ==> topology.conf <==\n", gbuf);
        topology_conf(stdout, t);
    }
    free(gbuf);
    return rc || ferror(stdout);
}

int cmd_slurm_conf(int argc, char **argv)
{
    sc_args a = {.prefix = "/dev/nvidia", .nvlink_bw = 20000000000LL};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    pl_topology *t = NULL;
    if (load(&a, &t)) {
        fprintf(stderr, "placement slurm-conf: %s\n", pl_last_error());
        return 1;
    }
    rc = a.out ? write_dir(t, &a) : write_stdout(t, &a);
    pl_topology_free(t);
    return rc;
}
