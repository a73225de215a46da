/* `placement simulate --scenario kim-ch2|kim-ch3|kim-ch4|kim-ch5`: seed 003's experiments
 * (placement/kim_sim.h, doc/results.md "Seed 003"). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <placement/placement.h>
#include <placement/kim_sim.h>
#include "commands.h"

static void kim_usage(FILE *f)
{
    fprintf(f,
            "usage: placement simulate --scenario kim-ch2|kim-ch3|kim-ch4|kim-ch5 [--seed N] [--runs N]\n"
            "                          [--iterations N] [--setting S] [--verbose]\n"
            "\n"
            "Seed 003 (Kim thesis) ch. 2 sec. 4.2: the nine Table 2.6 workloads (4 applications\n"
            "of 8 VMs) on the Table 2.1 cluster (8 T1 + 4 T2 nodes), candidate configurations\n"
            "C1-C6. One row per policy: pct_of_best (geometric-mean speed-up as %% of the\n"
            "exhaustive Best, mean over the workloads) and sa_gain_pct (sa-placement's mean\n"
            "improvement over the policy). sa-placement anneals on a bagged REPTree model\n"
            "learned from random co-runs (sa-lookup: on pairwise profile lookups); runtimes\n"
            "come from a reconstructed contention model.\n"
            "\n"
            "kim-ch3, ch. 3 sec. 3: the Table 3.7 workload on the Table 3.6 platforms (gene,\n"
            "cheetah, darth, lcloud; 480 cores) with pilot jobs. One row per policy (two-level,\n"
            "fair-allcore, worst-allcore): speedup_vs_worst_allcore (the thesis's performance\n"
            "improvement: makespan reduction, 100 (1 - M / M_worst) %%), the mean makespan_s and\n"
            "worst_over_m (M_worst / M).\n"
            "\n"
            "kim-ch4, ch. 4: the six constraint-aware algorithms replayed VM by VM in time (units\n"
            "grow, VMs run Table 4.2 applications until the last creation, migrations cost time).\n"
            "--setting cluster (default): the sec. 5 cluster of Table 4.4 (4 nodes x 12 cores, 36\n"
            "VMs, units of 1-5 VMs, groups of 1-3 units); --setting simulation: the sec. 4.2\n"
            "Default (256 nodes, 3 attributes, units up to 500%%, groups up to 64 units). 60%% of\n"
            "the groups with a node constraint and 60%% with anti-affinity. One row per\n"
            "algorithm: n_active_ratio (time-weighted active nodes / es-basic's), sigma_ratio\n"
            "(time-weighted CPU-utilisation sigma from 20%% to 80%% of the creations / lb-basic's),\n"
            "failed_pct (VMs not created) and migrations (VM live migrations per scenario); row\n"
            "cores-bound: the running VMs' cores over a node's, rounded up; constrained-bound: the\n"
            "fewest nodes that hold them under every constraint, any re-arrangement allowed (cluster\n"
            "only). No algorithm does better than either.\n"
            "\n"
            "kim-ch5, ch. 5 sec. 4.2: kernel split. Each Cifar10 (latency-sensitive) model of\n"
            "Table 5.1 shares a GPU with each of the 5 Imagenet (batch) models, whose kernels are\n"
            "split by 1, 2, 4, 8, on the GPU usage-pattern simulator (synthetic traces shaped by\n"
            "Table 5.1's GPU utilisation). One row per LS model: ls_fF (its slowdown %%, mean\n"
            "over the batch models) and batch_fF (theirs).\n"
            "\n"
            "      --seed N         training, annealing and random-baseline seed (default 1)\n"
            "      --runs N         kim-ch2: random placements averaged for random and ia (default 5);\n"
            "                       kim-ch3: simulation runs averaged (default 100);\n"
            "                       kim-ch4: generated scenarios averaged (default 200 cluster, 20 simulation)\n"
            "      --setting S      kim-ch4: cluster (default) or simulation\n"
            "      --iterations N   annealing iterations (default 2000)\n"
            "  -v, --verbose        also print %% of Best per workload (WL1-WL9)\n"
            "\n"
            "Exit status: 0 ok, 1 a run failed, 2 usage error.\n");
}

static int kim_ch2(const pl_kim_opts *o, int verbose)
{
    pl_kim_row rows[PL_KIM_CH2_ROWS];
    int32_t n = 0;
    if (pl_kim_ch2(o, rows, PL_KIM_CH2_ROWS, &n)) {
        fprintf(stderr, "placement simulate: kim-ch2: %s\n", pl_last_error());
        return 1;
    }
    printf("kim-ch2: %d workloads (Table 2.6) on 8 T1 + 4 T2 nodes, 6 configurations\n",
           PL_KIM_CH2_WORKLOADS);
    printf("%-14s %11s %11s", "policy", "pct_of_best", "sa_gain_pct");
    if (verbose)
        for (int w = 0; w < PL_KIM_CH2_WORKLOADS; w++)
            printf("   WL%d", w + 1);
    printf("\n");
    for (int32_t r = 0; r < n; r++) {
        printf("%-14s %11.2f %11.2f", rows[r].policy, rows[r].value, rows[r].extra);
        if (verbose)
            for (int w = 0; w < PL_KIM_CH2_WORKLOADS; w++)
                printf(" %5.1f", rows[r].per_workload[w]);
        printf("\n");
    }
    return 0;
}

static int kim_ch3(const pl_kim_opts *o)
{
    pl_kim_row rows[PL_KIM_CH3_ROWS];
    int32_t n = 0;
    if (pl_kim_ch3(o, rows, PL_KIM_CH3_ROWS, &n)) {
        fprintf(stderr, "placement simulate: kim-ch3: %s\n", pl_last_error());
        return 1;
    }
    printf("kim-ch3: Table 3.7 workload (132,408 tasks, 5 applications) on 480 cores of 4 platforms, "
           "mean of %d runs\n", o->runs ? (int)o->runs : 100);
    printf("%-14s %24s %11s %12s\n", "policy", "speedup_vs_worst_allcore", "makespan_s", "worst_over_m");
    for (int32_t r = 0; r < n; r++)
        printf("%-14s %24.2f %11.1f %12.4f\n", rows[r].policy, rows[r].value, rows[r].extra, rows[r].ratio);
    return 0;
}

static int kim_ch4(const pl_kim_opts *o)
{
    pl_kim_row rows[PL_KIM_CH4_ROWS];
    int32_t n = 0;
    if (pl_kim_ch4(o, rows, PL_KIM_CH4_ROWS, &n)) {
        fprintf(stderr, "placement simulate: kim-ch4: %s\n", pl_last_error());
        return 1;
    }
    if (o->setting == PL_KIM_CH4_SIMULATION)
        printf("kim-ch4 (simulation): 256 nodes x 12 cores, 3 attributes, VM by VM, mean of %d scenarios\n",
               o->runs ? (int)o->runs : 20);
    else
        printf("kim-ch4 (cluster, Table 4.4): 4 nodes x 12 cores, 36 VMs, VM by VM, mean of %d scenarios\n",
               o->runs ? (int)o->runs : 200);
    printf("%-17s %14s %11s %11s %11s\n", "policy", "n_active_ratio", "sigma_ratio", "failed_pct", "migrations");
    for (int32_t r = 0; r < n; r++)
        if (r >= PL_KIM_CH4_ROWS - 2 && isnan(rows[r].value)) /* no exact bound on 256 nodes */
            printf("%-17s %14s %11s %11s %11s\n", rows[r].policy, "-", "-", "-", "-");
        else if (r >= PL_KIM_CH4_ROWS - 2) /* the bounds: node counts only */
            printf("%-17s %14.3f %11s %11s %11s\n", rows[r].policy, rows[r].value, "-", "-", "-");
        else
            printf("%-17s %14.3f %11.3f %11.2f %11.2f\n", rows[r].policy, rows[r].value, rows[r].extra,
                   rows[r].ratio, rows[r].moves);
    return 0;
}

static int kim_ch5(const pl_kim_opts *o)
{
    pl_kim_row rows[PL_KIM_CH5_ROWS];
    int32_t n = 0;
    if (pl_kim_ch5(o, rows, PL_KIM_CH5_ROWS, &n)) {
        fprintf(stderr, "placement simulate: kim-ch5: %s\n", pl_last_error());
        return 1;
    }
    printf("kim-ch5: kernel split, each Cifar10 (LS) model with the 5 Imagenet (batch) models of Table 5.1 on\n"
           "the GPU usage-pattern simulator (synthetic traces); mean slowdown %% over the batch models\n");
    printf("%-10s %8s %8s %8s %8s %11s %11s %11s %11s\n", "ls_model", "ls_f1", "ls_f2", "ls_f4", "ls_f8",
           "batch_f1", "batch_f2", "batch_f4", "batch_f8");
    for (int32_t r = 0; r < n; r++) {
        printf("%-10s", rows[r].policy);
        for (int f = 0; f < 2 * PL_KIM_CH5_FACTORS; f++)
            printf(f < PL_KIM_CH5_FACTORS ? " %8.2f" : " %11.2f", rows[r].per_workload[f]);
        printf("\n");
    }
    return 0;
}

int cmd_simulate_kim(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"scenario", required_argument, NULL, 's'}, {"seed", required_argument, NULL, 'S'},
        {"runs", required_argument, NULL, 'r'},     {"iterations", required_argument, NULL, 'i'},
        {"verbose", no_argument, NULL, 'v'},        {"help", no_argument, NULL, 'h'},
        {"setting", required_argument, NULL, 'T'},
        {NULL, 0, NULL, 0},
    };
    const char *scenario = NULL;
    int verbose = 0;
    pl_kim_opts o;
    pl_kim_opts_init(&o);
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "s:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 's': scenario = optarg; break;
        case 'S': {
            unsigned long long seed;
            if (!parse_seed(optarg, &seed)) {
                fprintf(stderr, "placement simulate: --seed wants an integer in 0..18446744073709551615\n");
                return 2;
            }
            o.seed = seed;
            break;
        }
        case 'r': {
            long long v = parse_count("simulate", "runs", optarg, 100000);
            if (v < 1)
                return 2;
            o.runs = (int32_t)v;
            break;
        }
        case 'i': {
            long long v = parse_count("simulate", "iterations", optarg, 100000000);
            if (v < 1)
                return 2;
            o.iterations = v;
            break;
        }
        case 'T':
            if (!strcmp(optarg, "cluster") || !strcmp(optarg, "simulation")) {
                o.setting = optarg[0] == 'c' ? PL_KIM_CH4_CLUSTER : PL_KIM_CH4_SIMULATION;
                break;
            }
            fprintf(stderr, "placement simulate: --setting wants cluster or simulation\n");
            return 2;
        case 'v': verbose = 1; break;
        case 'h': kim_usage(stdout); return 0;
        default: kim_usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "placement simulate: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (scenario && !strcmp(scenario, "kim-ch2"))
        return kim_ch2(&o, verbose);
    if (scenario && !strcmp(scenario, "kim-ch3"))
        return kim_ch3(&o);
    if (scenario && !strcmp(scenario, "kim-ch4"))
        return kim_ch4(&o);
    if (scenario && !strcmp(scenario, "kim-ch5"))
        return kim_ch5(&o);
    fprintf(stderr, "placement simulate: no scenario '%s' (known: kim-ch2, kim-ch3, kim-ch4, kim-ch5)\n",
            scenario ? scenario : "");
    return 2;
}
