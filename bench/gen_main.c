/* placement-gen: write a generated min-cost-flow instance in DIMACS `min` form. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: placement-gen FAMILY SIZE... [options] > FILE.min\n"
            "\n"
            "  netgen NODES ARCS          NETGEN-style transshipment network\n"
            "      [--sources K] [--sinks K] [--supply F] [--max-cost C] [--max-cap U] [--inf-pct P]\n"
            "  grid ROWS COLS             grid, arcs both ways between neighbours; source/sink\n"
            "      [--corners] [--pairs K] [--supply F] [--max-cost C] [--max-cap U]\n"
            "                             pairs spread at random (default) or at two corners\n"
            "  assignment N               dense N x N assignment [--max-cost C]\n"
            "  scheduling MACHINES TASKS [MACHINES_PER_RACK [SLOTS [PREFS]]]\n"
            "      [--tasks-per-job J]    Firmament-style scheduling graph (defaults 40 8 8, J 100)\n"
            "  FAMILY --arcs M            the instance bench-solvers uses for about M arcs\n"
            "\n"
            "  --seed S      random seed (default 1); the output depends only on the arguments\n"
            "  -o FILE       write to FILE instead of standard output\n");
}

static int parse_i64(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end) {
        fprintf(stderr, "placement-gen: not an integer: %s\n", s);
        return -1;
    }
    *v = x;
    return 0;
}

static int parse_i32(const char *s, int32_t *v)
{
    int64_t x;
    if (parse_i64(s, &x))
        return -1;
    if (x < INT32_MIN || x > INT32_MAX) {
        fprintf(stderr, "placement-gen: out of range: %s\n", s);
        return -1;
    }
    *v = (int32_t)x;
    return 0;
}

int main(int argc, char **argv)
{
    enum { O_SOURCES = 256, O_SINKS, O_SUPPLY, O_MAXCOST, O_MAXCAP, O_INF, O_CORNERS, O_PAIRS, O_TPJ, O_ARCS };
    static const struct option longopts[] = {
        {"seed", required_argument, NULL, 's'},     {"output", required_argument, NULL, 'o'},
        {"sources", required_argument, NULL, O_SOURCES}, {"sinks", required_argument, NULL, O_SINKS},
        {"supply", required_argument, NULL, O_SUPPLY},  {"max-cost", required_argument, NULL, O_MAXCOST},
        {"max-cap", required_argument, NULL, O_MAXCAP}, {"inf-pct", required_argument, NULL, O_INF},
        {"corners", no_argument, NULL, O_CORNERS},      {"pairs", required_argument, NULL, O_PAIRS},
        {"tasks-per-job", required_argument, NULL, O_TPJ}, {"arcs", required_argument, NULL, O_ARCS},
        {"help", no_argument, NULL, 'h'},               {NULL, 0, NULL, 0},
    };
    int64_t seed = 1, sources = 0, sinks = 0, supply = 0, max_cost = 0, max_cap = 0, inf_pct = -1, pairs = 0,
            tpj = 0, arcs = 0;
    int corners = 0, c;
    const char *output = NULL;
    while ((c = getopt_long(argc, argv, "s:o:h", longopts, NULL)) != -1) {
        int64_t *dst = NULL;
        switch (c) {
        case 's': dst = &seed; break;
        case 'o': output = optarg; break;
        case O_SOURCES: dst = &sources; break;
        case O_SINKS: dst = &sinks; break;
        case O_SUPPLY: dst = &supply; break;
        case O_MAXCOST: dst = &max_cost; break;
        case O_MAXCAP: dst = &max_cap; break;
        case O_INF: dst = &inf_pct; break;
        case O_PAIRS: dst = &pairs; break;
        case O_TPJ: dst = &tpj; break;
        case O_ARCS: dst = &arcs; break;
        case O_CORNERS: corners = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
        if (dst && parse_i64(optarg, dst))
            return 2;
    }
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    const char *family = argv[optind++];
    int npos = argc - optind;
    char **pos = argv + optind;
    pl_flownet *net = NULL;
    pl_status st;
    if (arcs > 0) {
        if (npos) {
            fprintf(stderr, "placement-gen: --arcs takes no SIZE arguments\n");
            return 2;
        }
        st = bench_gen_family(family, arcs, (uint64_t)seed, &net, NULL, 0);
    } else if (strcmp(family, "netgen") == 0) {
        bench_netgen_params p;
        bench_netgen_defaults(&p);
        if (npos != 2 || parse_i32(pos[0], &p.nodes) || parse_i32(pos[1], &p.arcs)) {
            usage(stderr);
            return 2;
        }
        p.sources = (int32_t)sources;
        p.sinks = (int32_t)sinks;
        p.total_supply = supply;
        if (max_cost > 0)
            p.max_cost = max_cost;
        if (max_cap > 0)
            p.max_cap = max_cap;
        if (inf_pct >= 0)
            p.inf_pct = (int)inf_pct;
        p.seed = (uint64_t)seed;
        st = bench_gen_netgen(&p, &net);
        if (st == PL_OK && pl_flownet_arc_count(net) > p.arcs)
            fprintf(stderr, "placement-gen: note: the feasibility skeleton alone needs %d arcs (> %d asked)\n",
                    pl_flownet_arc_count(net), p.arcs);
    } else if (strcmp(family, "grid") == 0) {
        bench_grid_params p;
        bench_grid_defaults(&p);
        if (npos != 2 || parse_i32(pos[0], &p.rows) || parse_i32(pos[1], &p.cols)) {
            usage(stderr);
            return 2;
        }
        p.corners = corners;
        p.pairs = (int32_t)pairs;
        p.supply = supply;
        if (max_cost > 0)
            p.max_cost = max_cost;
        if (max_cap > 0)
            p.max_cap = max_cap;
        p.seed = (uint64_t)seed;
        st = bench_gen_grid(&p, &net);
    } else if (strcmp(family, "assignment") == 0) {
        int32_t n;
        if (npos != 1 || parse_i32(pos[0], &n)) {
            usage(stderr);
            return 2;
        }
        st = bench_gen_assignment(n, max_cost > 0 ? max_cost : 1000, (uint64_t)seed, &net);
    } else if (strcmp(family, "scheduling") == 0) {
        bench_sched_params p;
        bench_sched_defaults(&p);
        int32_t *fields[] = {&p.machines, &p.tasks, &p.machines_per_rack, &p.slots, &p.prefs};
        if (npos < 2 || npos > 5) {
            usage(stderr);
            return 2;
        }
        for (int i = 0; i < npos; i++)
            if (parse_i32(pos[i], fields[i]))
                return 2;
        if (tpj > 0)
            p.tasks_per_job = (int32_t)tpj;
        p.seed = (uint64_t)seed;
        bench_sched s;
        st = bench_sched_build(&p, &s);
        if (st == PL_OK) {
            net = s.net;
            s.net = NULL;
            bench_sched_free(&s);
        }
    } else {
        fprintf(stderr, "placement-gen: unknown family \"%s\"\n", family);
        usage(stderr);
        return 2;
    }
    if (st != PL_OK) {
        fprintf(stderr, "placement-gen: %s\n", pl_last_error()[0] ? pl_last_error() : pl_status_string(st));
        return 1;
    }
    FILE *f = output ? fopen(output, "w") : stdout;
    if (!f) {
        fprintf(stderr, "placement-gen: %s: %s\n", output, strerror(errno));
        pl_flownet_free(net);
        return 1;
    }
    fprintf(f, "c generated by placement-gen");
    for (int i = 1; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n");
    st = pl_flownet_write_dimacs(net, f);
    if ((output && fclose(f)) || (!output && fflush(f)))
        st = st ? st : PL_EIO;
    pl_flownet_free(net);
    if (st != PL_OK) {
        fprintf(stderr, "placement-gen: write failed: %s\n", pl_last_error());
        return 1;
    }
    return 0;
}
