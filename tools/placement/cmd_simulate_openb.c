/* `placement simulate --nodes NODES.csv --trace PODS.csv --saturate`: the
 * ATC'23 fragmentation paper's experiment on Alibaba's openb lists
 * (doc/simulator.md sec. "openb"), dispatched from cmd_simulate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <placement/placement.h>
#include "internal/openb.h"
#include "internal/frag.h"
#include "commands.h"

#define MAXP 16

static void usage(FILE *f)
{
    fprintf(f,
            "usage: placement simulate --nodes NODES.csv --trace PODS.csv (--saturate | --timeline)\n"
            "                          [--inflate X] [--seeds A-B] [--policy LIST|all] [--out DIR]\n"
            "\n"
            "Alibaba's openb node and pod lists (ATC'23 \"Beware of Fragmentation\"). --saturate:\n"
            "pods sampled until the arrived GPU demand reaches X (default 1.3) times the cluster's\n"
            "GPUs, placed in arrival order, none departing; one row per policy, means over the\n"
            "seeds (default 42-51): GPU allocation ratio (%% of the cluster's GPU milli) at 90, 100,\n"
            "110 and 130%% arrived demand, fragmented share of the idle GPU milli at 100%%, and\n"
            "milliseconds per pod. --timeline: the list's own creation and deletion times\n"
            "(placed, failed, mean and peak allocation). Policies (all: every one):");
    for (int i = 0; pl_fpolicy_at(i); i++)
        fprintf(f, " %s", pl_fpolicy_at(i)->name);
    fprintf(f, "\n  --out DIR  DIR/saturate.csv (policy, arrived %%, mean allocation, mean\n"
               "             fragmentation) and DIR/saturate.svg (allocation against arrived demand)\n");
}

static int fail(const char *msg)
{
    fprintf(stderr, "placement simulate: %s\n", msg);
    return 2;
}

typedef struct curve {
    const char *policy;
    double *alloc, *frag;  /* means over the seeds */
    double ms, placed, failed, mean, peak;
} curve;

static int write_svg(const char *dir, const curve *c, int nc, int npoints)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/saturate.svg", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    static const char *const color[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f"};
    const double W = 640, H = 400, L = 60, B = 50, lo = 50;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' font-family='sans-serif' "
               "font-size='12'>\n<rect width='100%%' height='100%%' fill='white'/>\n", W + 160, H);
    fprintf(f, "<text x='%.0f' y='%.0f' text-anchor='middle'>arrived GPU demand (%% of cluster GPUs)</text>\n",
            L + (W - L) / 2, H - 10);
    fprintf(f, "<text x='15' y='%.0f' transform='rotate(-90 15 %.0f)' text-anchor='middle'>GPU allocation "
               "ratio (%%)</text>\n", (H - B) / 2, (H - B) / 2);
    for (int y = 50; y <= 100; y += 10) {
        double py = (H - B) - (y - lo) / (100 - lo) * (H - B - 20);
        fprintf(f, "<line x1='%.0f' x2='%.0f' y1='%.1f' y2='%.1f' stroke='#ddd'/><text x='%.0f' y='%.1f' "
                   "text-anchor='end'>%d</text>\n", L, W, py, py, L - 4, py + 4, y);
    }
    for (int x = 0; x < npoints; x += 10) {
        double px = L + (double)x / (npoints - 1) * (W - L);
        fprintf(f, "<text x='%.1f' y='%.0f' text-anchor='middle'>%d</text>\n", px, H - B + 15, x);
    }
    for (int i = 0; i < nc; i++) {
        fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='1.5' points='", color[i % 8]);
        for (int x = 0; x < npoints; x++) {
            double v = c[i].alloc[x] < lo ? lo : c[i].alloc[x];
            fprintf(f, "%.1f,%.1f ", L + (double)x / (npoints - 1) * (W - L),
                    (H - B) - (v - lo) / (100 - lo) * (H - B - 20));
        }
        fprintf(f, "'/>\n<text x='%.0f' y='%d' fill='%s'>%s</text>\n", W + 10, 30 + 16 * i, color[i % 8],
                c[i].policy);
    }
    fprintf(f, "</svg>\n");
    return fclose(f) == 0;
}

static int write_csv(const char *dir, const curve *c, int nc, int npoints)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/saturate.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fprintf(f, "policy,arrived_pct,alloc_pct,frag_pct\n");
    for (int i = 0; i < nc; i++)
        for (int x = 0; x < npoints; x++)
            fprintf(f, "%s,%d,%.4f,%.4f\n", c[i].policy, x, c[i].alloc[x], c[i].frag[x]);
    return fclose(f) == 0;
}

int cmd_simulate_openb(int argc, char **argv)
{
    const char *nodes = NULL, *trace = NULL, *out = NULL, *pols[MAXP + 1] = {NULL};
    char polbuf[512] = "all";
    int timeline = -1, np = 0;
    double inflate = 1.3;
    long s0 = 42, s1 = 51;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--saturate")) {
            timeline = 0;
        } else if (!strcmp(a, "--timeline")) {
            timeline = 1;
        } else if (!v) {
            return fail("an option is missing its value (--help)");
        } else if (!strcmp(a, "--nodes")) {
            nodes = argv[++i];
        } else if (!strcmp(a, "--trace") || !strcmp(a, "-t")) {
            trace = argv[++i];
        } else if (!strcmp(a, "--out") || !strcmp(a, "-o")) {
            out = argv[++i];
        } else if (!strcmp(a, "--policy") || !strcmp(a, "-p")) {
            snprintf(polbuf, sizeof polbuf, "%s", argv[++i]);
        } else if (!strcmp(a, "--inflate")) {
            char *end;
            inflate = strtod(argv[++i], &end);
            if (*end || !(inflate >= 0.01 && inflate <= 10))
                return fail("--inflate wants a number in [0.01, 10]");
        } else if (!strcmp(a, "--seeds") || !strcmp(a, "--seed")) {
            int n = sscanf(argv[++i], "%ld-%ld", &s0, &s1);
            if (n == 1)
                s1 = s0;
            if (n < 1 || s0 < 0 || s1 < s0 || s1 - s0 > 999)
                return fail("--seeds wants N or A-B (at most 1000 seeds)");
        } else {
            fprintf(stderr, "placement simulate: unknown option '%s' with --nodes (--help)\n", a);
            return 2;
        }
    }
    if (!nodes || !trace || timeline < 0)
        return fail("--nodes, --trace and one of --saturate, --timeline are required (--help)");
    if (!strcmp(polbuf, "all")) {
        for (int i = 0; pl_fpolicy_at(i) && np < MAXP; i++)
            pols[np++] = pl_fpolicy_at(i)->name;
    } else {
        for (char *t = strtok(polbuf, ","); t && np < MAXP; t = strtok(NULL, ",")) {
            if (!pl_fpolicy_find(t)) {
                fprintf(stderr, "placement simulate: '%s' does not run on openb lists (--help lists those that do)\n", t);
                return 2;
            }
            pols[np++] = t;
        }
    }
    pl_topology *topo = NULL;
    pl_openb_pods pods;
    if (pl_openb_load_nodes(nodes, &topo)) {
        fprintf(stderr, "placement simulate: %s\n", pl_last_error());
        return 1;
    }
    if (pl_openb_load_pods(trace, &pods)) {
        fprintf(stderr, "placement simulate: %s\n", pl_last_error());
        pl_topology_free(topo);
        return 1;
    }
    int nseeds = timeline ? 1 : (int)(s1 - s0 + 1), npoints = 0, rc = 0;
    curve c[MAXP];
    memset(c, 0, sizeof c);
    if (timeline)
        printf("%-15s %8s %8s %10s %10s %10s\n", "policy", "placed", "failed", "alloc_mean", "alloc_peak", "ms_per_pod");
    else
        printf("%-15s %8s %8s %8s %8s %8s %10s\n", "policy", "alloc90", "alloc100", "alloc110", "alloc130", "frag100",
               "ms_per_pod");
    for (int p = 0; p < np && !rc; p++) {
        c[p].policy = pols[p];
        for (long seed = s0; seed < s0 + nseeds && !rc; seed++) {
            pl_saturate_opts o;
            pl_saturate_result r;
            pl_saturate_opts_init(&o);
            o.policy = pols[p];
            o.seed = (uint64_t)seed;
            o.inflate = inflate;
            o.timeline = timeline;
            if (pl_saturate_run(topo, &pods, &o, &r)) {
                fprintf(stderr, "placement simulate: %s\n", pl_last_error());
                rc = 1;
                break;
            }
            if (!timeline && !c[p].alloc) {
                npoints = r.npoints;
                c[p].alloc = calloc((size_t)npoints, sizeof *c[p].alloc);
                c[p].frag = calloc((size_t)npoints, sizeof *c[p].frag);
            }
            for (int x = 0; !timeline && x < npoints && c[p].alloc; x++) {
                c[p].alloc[x] += r.alloc[x] / nseeds;
                c[p].frag[x] += r.frag[x] / nseeds;
            }
            c[p].ms += 1000.0 * r.seconds / (double)(r.pods ? r.pods : 1) / nseeds;
            c[p].placed += (double)r.placed / nseeds;
            c[p].failed += (double)r.failed / nseeds;
            for (int64_t k = 0; k < r.nsamples; k++) {
                c[p].mean += r.talloc[k] / (double)r.nsamples;
                c[p].peak = r.talloc[k] > c[p].peak ? r.talloc[k] : c[p].peak;
            }
            pl_saturate_result_free(&r);
        }
        if (rc)
            break;
        if (timeline) {
            printf("%-15s %8.0f %8.0f %10.2f %10.2f %10.4f\n", pols[p], c[p].placed, c[p].failed, c[p].mean,
                   c[p].peak, c[p].ms);
        } else if (c[p].alloc) {
            double *a = c[p].alloc;
            int last = npoints - 1;
            printf("%-15s %8.2f %8.2f %8.2f %8.2f %8.2f %10.4f\n", pols[p], a[90 < last ? 90 : last],
                   a[100 < last ? 100 : last], a[110 < last ? 110 : last], a[130 < last ? 130 : last],
                   c[p].frag[100 < last ? 100 : last], c[p].ms);
        }
        fflush(stdout);
    }
    if (!rc && out && !timeline) {
        if (mkdir(out, 0777) && errno != EEXIST) {
            fprintf(stderr, "placement simulate: cannot create %s\n", out);
            rc = 1;
        } else if (!write_csv(out, c, np, npoints) || !write_svg(out, c, np, npoints)) {
            fprintf(stderr, "placement simulate: cannot write the curves in %s\n", out);
            rc = 1;
        }
    }
    for (int p = 0; p < np; p++) {
        free(c[p].alloc);
        free(c[p].frag);
    }
    pl_openb_pods_free(&pods);
    pl_topology_free(topo);
    return rc;
}
