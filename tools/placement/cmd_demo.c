/* `placement demo`: the SC17 prototype (the artifact's job file and the
 * paper's Table 1) and scenario 1 under the four policies of seed 002, our
 * numbers beside the paper's and the artifact's (doc/results.md explains
 * every difference). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <placement/placement.h>
#include "commands.h"

static const char *const policies[] = {"topo-aware", "topo-aware-p", "fcfs", "bf"};
#define NPOL 4

/* Seed 002, prototype (one Minsky, 6 jobs): cumulative execution time, s. */
static const double paper_proto[NPOL] = {454.2, 356.9, 456.2, 461.7};

/* The SC17 artifact run as a peer on workloads-100.json / 5 machines
 * (design notes): makespan, mean wait, mean slowdown, slower than ideal,
 * below minimal utility, ms per scheduler call. */
static const struct {
    double makespan, mean_wait, mean_slow;
    int slower, below;
    double call_ms;
} artifact_s1[NPOL] = {
    {1512.5, 75.6, 1.008, 7, 7, 1.6},
    {1540.0, 75.7, 1.003, 0, 0, 1.7},
    {1666.5, 207.9, 1.034, 24, 14, 1.0},
    {1653.3, 129.2, 1.033, 24, 15, 1.0},
};

static void demo_usage(FILE *f)
{
    fprintf(f,
            "usage: placement demo [--out DIR]\n"
            "\n"
            "Replay the SC17 paper's prototype on one Minsky, with the artifact's 6 jobs\n"
            "(sc17-proto) and with the paper's Table 1 (sc17-table1), and its scenario 1\n"
            "(sc17-s1: workloads-100.json on 5 Minsky machines) under topo-aware,\n"
            "topo-aware-p, fcfs and bf; print our numbers beside the paper's and the\n"
            "artifact's, and write per-job CSVs and the SVG plots.\n"
            "\n"
            "  -o, --out DIR   where the CSVs and SVGs go (default placement-demo)\n");
}

static void print_proto(const char *title, const sim_row *rows, const sim_row *art)
{
    printf("\n== %s ==\n", title);
    sim_print_table(stdout, rows, NPOL);
    printf("\ncumulative execution time (= makespan), ours vs the paper's:\n");
    printf("%-13s %9s %13s %9s %12s %12s\n", "policy", "ours_s", "ours_artif_rt", "paper_s",
           "ours_speedup", "paper_speedup");
    double ours_p = rows[1].sum.makespan, paper_p = paper_proto[1];
    for (int p = 0; p < NPOL; p++)
        printf("%-13s %9.1f %13.1f %9.1f %11.2fx %11.2fx\n", policies[p], rows[p].sum.makespan,
               art[p].sum.makespan, paper_proto[p], rows[p].sum.makespan / ours_p,
               paper_proto[p] / paper_p);
    printf("(speedup = the policy's time over topo-aware-p's; ours_artif_rt: the same run with\n"
           " the artifact's run-time model, --runtime artifact)\n");
}

static void print_s1(const sim_row *rows)
{
    printf("\n== sc17-s1: scenario 1 (workloads-100.json, 5 Minsky; seed 002 sec. 5.4) ==\n");
    sim_print_table(stdout, rows, NPOL);
    printf("\nours vs the SC17 artifact run on the same file (design notes):\n");
    printf("%-13s %17s %17s %13s %9s %9s %13s\n", "policy", "makespan_s", "mean_wait_s",
           "mean_slow", "slower", "below_u", "ms_per_call");
    printf("%-13s %17s %17s %13s %9s %9s %13s\n", "", "ours / artif", "ours / artif",
           "ours / artif", "ours/art", "ours/art", "ours / artif");
    for (int p = 0; p < NPOL; p++) {
        const pl_sim_summary *s = &rows[p].sum;
        printf("%-13s %8.1f/%8.1f %8.1f/%8.1f %6.3f/%6.3f %4d/%4d %4d/%4d %6.2f/%6.2f\n",
               policies[p], s->makespan, artifact_s1[p].makespan, s->mean_wait,
               artifact_s1[p].mean_wait, s->mean_slowdown, artifact_s1[p].mean_slow,
               (int)s->slower_than_ideal, artifact_s1[p].slower, (int)s->below_min_utility,
               artifact_s1[p].below, s->decision_mean * 1e3, artifact_s1[p].call_ms);
    }
    printf("(the artifact double-books GPUs and its fcfs/bf skip free machines and sockets;\n"
           " doc/results.md explains every difference)\n");
}

int cmd_demo(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    const char *out = "placement-demo";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'h': demo_usage(stdout); return 0;
        default: demo_usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "placement demo: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    static const char *const scenarios[] = {"sc17-proto", "sc17-table1", "sc17-s1"};
    static const char *const titles[] = {
        "sc17-proto: the prototype, the artifact's job file (6 jobs, 1 Minsky; seed 002 sec. 5.2)",
        "sc17-table1: the prototype, the paper's Table 1 (6 jobs, CaffeRef profiled; 1 Minsky)"};
    enum { NSC = 3 };
    char svg[NSC][4096];
    double wall = 0;
    for (int sc = 0; sc < NSC; sc++) {
        pl_topology *topo = NULL;
        pl_jobset *jobs = NULL;
        if (pl_sim_scenario(scenarios[sc], NULL, &topo, &jobs)) {
            fprintf(stderr, "placement demo: %s\n", pl_last_error());
            return 1;
        }
        sim_settings set = {.seed = 1, .out_dir = out, .runtime = PL_SIM_RUNTIME_PROGRESS,
                            .svg_path = svg[sc], .svg_path_size = sizeof svg[sc]};
        sim_row rows[NPOL], art[NPOL];
        int rc = sim_compare(scenarios[sc], topo, jobs, policies, NPOL, &set, rows);
        if (!rc && sc < 2) {
            sim_settings aset = {.seed = 1, .quiet = 1, .runtime = PL_SIM_RUNTIME_ARTIFACT};
            rc = sim_compare(scenarios[sc], topo, jobs, policies, NPOL, &aset, art);
        }
        pl_jobset_free(jobs);
        pl_topology_free(topo);
        if (rc)
            return rc;
        for (int p = 0; p < NPOL; p++)
            wall += rows[p].sum.wall_time;
        if (sc < 2)
            print_proto(titles[sc], rows, art);
        else
            print_s1(rows);
    }
    printf("\nplots (CDFs of slowdown and waiting time, GPU utilisation over time, per policy): %s, %s, %s\n",
           svg[0], svg[1], svg[2]);
    printf("per-job records: %s/SCENARIO-POLICY.csv; simulated in %.2f s\n", out, wall);
    return 0;
}
