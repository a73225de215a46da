/* `placement simulate --scenario nvme-s1|nvme-s2|nvme-s3`: seed 001's NVMe
 * experiments (placement/nvme_sim.h, doc/results.md "Seed 001"). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>
#include "commands.h"
#include <placement/disagg.h>
#include <placement/nvme_sim.h>
#include "nvme_sweep.h"

#define NVME_MAX_POLICIES 5

static void nvme_usage(FILE *f)
{
    fprintf(f,
            "usage: placement simulate --scenario nvme-s1|nvme-s2|nvme-s3|nvme-gpu-s1|nvme-gpu-s2|\n"
            "                          nvme-gpu-s3 [--load LF] [--jobs N]\n"
            "       placement simulate --scenario nvme-deadline|nvme-devices|nvme-fio|nvme-gpu-split|\n"
            "                          nvme-gpu-dist|nvme-gpu-hetero|nvme-gpu-overhead [options]\n"
            "                          [--policy NAME[,NAME...]] [--seed N] [--out DIR]\n"
            "\n"
            "Seed 001 (Call thesis, Tables 4.2-4.5): 5 nodes x 25 cores, a pool of 10 NVMe\n"
            "(2 GB/s, 600 GB), Poisson arrivals of the Table 4.1 workloads at the rate giving\n"
            "the target load factor, 20%% high priority (deadline 1.2 x base time, others 4),\n"
            "an EDF queue. One row per policy: missed deadlines (all, high priority; %% of all\n"
            "workloads), mean wait, mean composition size and sharing ratio, NVMe usage and\n"
            "CPU / bandwidth / capacity utilisation (%%).\n"
            "\n"
            "  -l, --load LF        target load factor (default 0.7)\n"
            "      --load-basis B   cpu (default: offered core load of the fat node),\n"
            "                       bottleneck (the most loaded of cores, NVMe bandwidth, capacity)\n"
            "                       or nvme (the more loaded of NVMe bandwidth and capacity)\n"
            "      --all-jobs       measure every workload (default: from the fat node's CPU load\n"
            "                       factor reaching LF to the last arrival, as the thesis)\n"
            "      --layout L       disagg (default: one NVMe pool) or pa (physically attached:\n"
            "                       6 devices on node 0, 4 on node 1)\n"
            "  -c, --cluster FILE   run on the cluster of a JSON topology (doc/topology-json.md)\n"
            "                       instead: machines are nodes, storage and GPUs in a pool are\n"
            "                       disaggregated, those in a machine attached to it (doc/disagg.md;\n"
            "                       examples/clusters/call-da.json is the default cluster); not\n"
            "                       with --layout or a sweep\n"
            "      --arrivals A     poisson (default) or regular (every gap the mean, as the\n"
            "                       thesis's public simulator generates them)\n"
            "      --static-sharing fix a run time at its start (default: sharers re-evaluated\n"
            "                       whenever a composition's sharing set changes)\n"
            "      --node-order O   least-used (default, Eq. 4.3 as the thesis's text) or most-used:\n"
            "                       minimise-fragmentation's node order for new placements\n"
            "      --smufin-oversubscribe  model-aware policies let SMUFIN share a composition\n"
            "                       past its bandwidth request (up to 6 sharers, slowed by the model)\n"
            "  -n, --jobs N         workloads (default 1500)\n"
            "  -p, --policy LIST    comma-separated, default all: first-fit, max-composition,\n"
            "                       min-fragmentation, disagg-aware (and gpu-aware with a GPU)\n"
            "      --gpu-unsplit    the GPU cannot be split into vGPUs (Fig. 5.5a)\n"
            "      --gpu-overhead P GPU workloads run P %% slower (disaggregation overhead, Fig. 5.8)\n"
            "      --seed N         workload seed (default 1)\n"
            "  -o, --out DIR        write DIR/SCENARIO-POLICY.csv (one line per workload)\n"
            "\n"
            "Sweeps (S1-S3 at the target load; one row per policy at every point):\n"
            "  nvme-deadline  high-priority deadline factor 1.0-1.5 (sec. 4.4.4)\n"
            "  nvme-devices   10 down to 2 NVMe devices (sec. 4.4.5)\n"
            "  nvme-fio       S1 with 100/70/50%% of its bandwidth-bound workloads FIO (M1-M3),\n"
            "                 loads 0.5-0.9 (sec. 4.4.6)\n"
            "  nvme-gpu-split chapter 5's S1-S3 (Table 5.3, one GPU) with the GPU unsplittable (0)\n"
            "                 and splittable into 1/2/4 vGPUs (1) (Fig. 5.5)\n"
            "  nvme-gpu-dist  the same mixes: workloads per node by kind, physically attached\n"
            "                 (GPU on node 2), GPU unsplittable, GPU split (Fig. 5.6)\n"
            "  nvme-gpu-hetero  3 NVMe and one unsplittable GPU, loads 0.6-0.9 of the NVMe load\n"
            "                 factor (Fig. 5.7)\n"
            "  nvme-gpu-overhead  the same at NVMe load 0.8, GPU overhead 0-5 %% (Fig. 5.8)\n"
            "Chapter 5 scenarios (one 4 GB/s 16 GB GPU, YOLO workloads): nvme-gpu-s1 (50/20/20/10\n"
            "bandwidth/capacity/compute/GPU), nvme-gpu-s2 (10/0/10/80), nvme-gpu-s3 (20/20/10/40)\n"
            "\n"
            "Exit status: 0 ok, 1 a run failed, 2 usage error.\n");
}

/* 0 or 1 for the option value `arg` naming the first or the second choice
 * (the enums' values), -1 for anything else. */
static int pick_of(const char *arg, const char *first, const char *second)
{
    return !strcmp(arg, first) ? 0 : !strcmp(arg, second) ? 1 : -1;
}

static int nvme_usage_error(const char *msg)
{
    fprintf(stderr, "placement simulate: %s\n", msg);
    return 2;
}

/* Option `what` naming one of two choices: 1 with *out set, or 0 after
 * saying what it wants. */
static int pick_two(const char *arg, const char *first, const char *second, const char *what,
                    int *out)
{
    int p = pick_of(arg, first, second);
    if (p < 0) {
        fprintf(stderr, "placement simulate: %s wants '%s' or '%s'\n", what, first, second);
        return 0;
    }
    *out = p;
    return 1;
}

static int write_nvme_csv(const char *dir, const char *scenario, const char *policy,
                          const pl_nvme_sim_result *r)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%s.csv", dir, scenario, policy);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "placement: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    pl_status st = pl_nvme_sim_result_write_csv(r, f);
    if (fclose(f) != 0 || st) {
        fprintf(stderr, "placement: writing %s failed\n", path);
        return 1;
    }
    return 0;
}

static int run_nvme(const pl_nvme_sim_opts *opts, const char *scenario, const char *policy,
                    int sweep, const char *out_dir, const char *cluster, const pl_disagg_totals *tot);

static void print_nvme_row(const char *policy, const pl_nvme_sim_summary *s)
{
    printf("%-17s %7.2f %7.2f %9.1f %6.2f %6.2f %6.1f %6.1f %6.1f %6.1f %5d\n", policy,
           s->missed_pct, s->missed_high_pct, s->mean_wait_s, s->mean_comp_size, s->mean_sharing,
           s->nvme_usage_pct, s->cpu_util_pct, s->bw_util_pct, s->cap_util_pct,
           (int)s->unfinished);
}

int cmd_simulate_nvme(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"scenario", required_argument, NULL, 's'}, {"load", required_argument, NULL, 'l'},
        {"jobs", required_argument, NULL, 'n'},     {"policy", required_argument, NULL, 'p'},
        {"seed", required_argument, NULL, 'S'},     {"out", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},          {"help", no_argument, NULL, 'h'},
        {"load-basis", required_argument, NULL, 'B'}, {"all-jobs", no_argument, NULL, 'A'},
        {"layout", required_argument, NULL, 'L'},   {"arrivals", required_argument, NULL, 'R'},
        {"static-sharing", no_argument, NULL, 'T'}, {"gpu-unsplit", no_argument, NULL, 'G'},
        {"gpu-overhead", required_argument, NULL, 'O'}, {"node-order", required_argument, NULL, 'N'},
        {"smufin-oversubscribe", no_argument, NULL, 'U'}, {"cluster", required_argument, NULL, 'c'},
        {NULL, 0, NULL, 0},
    };
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    const char *scenario = NULL, *policy = NULL;
    const char *out_dir = NULL, *cluster = NULL;
    char *end;
    int c, pick, layout_set = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "s:l:n:p:o:c:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 's': scenario = optarg; break;
        case 'p': policy = optarg; break;
        case 'o': out_dir = optarg; break;
        case 'c': cluster = optarg; break;
        case 'A': o.window = 0; break;
        case 'T': o.static_sharing = 1; break;
        case 'G': o.gpu_split = 0; break;
        case 'U': o.smufin_oversubscribe = 1; break;
        case 'L':
        case 'R':
        case 'N': {
            /* Two-way choices, in the order of their enums' values. */
            static const char *const two[3][3] = {{"--layout", "disagg", "pa"},
                                                  {"--arrivals", "poisson", "regular"},
                                                  {"--node-order", "least-used", "most-used"}};
            int k = c == 'L' ? 0 : c == 'R' ? 1 : 2;
            if (!pick_two(optarg, two[k][1], two[k][2], two[k][0], &pick))
                return 2;
            if (k == 0) {
                o.layout = (pl_nvme_layout)pick;
                layout_set = 1;
            }
            else if (k == 1)
                o.arrivals = (pl_nvme_arrivals)pick;
            else
                o.node_order = (pl_disagg_node_order)pick;
            break;
        }
        case 'B':
            if ((pick = pick_of(optarg, "cpu", "bottleneck")) < 0 &&
                (pick = strcmp(optarg, "nvme") ? -1 : (int)PL_NVME_LOAD_NVME) < 0)
                return nvme_usage_error("--load-basis wants 'cpu', 'bottleneck' or 'nvme'");
            o.load_basis = (pl_nvme_load_basis)pick;
            break;
        case 'O':
            o.gpu_overhead = strtod(optarg, &end) / 100;
            if (!*optarg || *end || !(o.gpu_overhead >= 0) || o.gpu_overhead > 100)
                return nvme_usage_error("--gpu-overhead wants a percentage in [0, 10000]");
            break;
        case 'q': break; /* no progress line to silence: a run takes well under a second */
        case 'l':
            o.load = strtod(optarg, &end);
            if (!*optarg || *end || !(o.load > 0) || o.load > 100)
                return nvme_usage_error("--load wants a number in (0, 100]");
            break;
        case 'n': {
            long long v = strtoll(optarg, &end, 10);
            if (!*optarg || *end || v < 1 || v > 10000000)
                return nvme_usage_error("--jobs wants an integer in 1..10000000");
            o.jobs = (int32_t)v;
            break;
        }
        case 'S': {
            unsigned long long seed;
            if (!parse_seed(optarg, &seed))
                return nvme_usage_error("--seed wants an integer in 0..18446744073709551615");
            o.seed = seed;
            break;
        }
        case 'h': nvme_usage(stdout); return 0;
        default: nvme_usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "placement simulate: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    int sweep = nvme_is_sweep(scenario);
    if (!scenario || (!sweep && pl_nvme_sim_scenario(scenario, &o))) {
        fprintf(stderr, "placement simulate: %s\n", pl_last_error());
        return 2;
    }
    if (cluster && (layout_set || sweep))
        return nvme_usage_error("--cluster gives the layout and does not run sweeps: not with "
                                "--layout or a sweep scenario");
    pl_topology *topo = NULL;
    pl_disagg_totals tot = {0};
    if (cluster) {
        /* The view is built once here to report a bad file before any run. */
        pl_disagg_cluster *view = NULL;
        pl_status st = pl_topology_load_json(cluster, &topo);
        o.cluster = topo;
        if (st || pl_nvme_sim_cluster(&o, &view)) {
            fprintf(stderr, "placement simulate: %s: %s\n", cluster, pl_last_error());
            pl_topology_free(topo);
            return 1;
        }
        pl_disagg_cluster_totals(view, &tot);
        pl_disagg_cluster_free(view);
        o.gpus = tot.gpus; /* for the default policy list */
    }
    int rc = run_nvme(&o, scenario, policy, sweep, out_dir, cluster, &tot);
    pl_topology_free(topo);
    return rc;
}

/* Parse the policy list and run the scenario or sweep; the exit code. */
static int run_nvme(const pl_nvme_sim_opts *opts, const char *scenario, const char *policy,
                    int sweep, const char *out_dir, const char *cluster, const pl_disagg_totals *tot)
{
    pl_nvme_sim_opts o = *opts;
    if (!policy)
        policy = o.gpus > 0 || (sweep && !strncmp(scenario, "nvme-gpu", 8))
                     ? "first-fit,max-composition,min-fragmentation,disagg-aware,gpu-aware"
                     : "first-fit,max-composition,min-fragmentation,disagg-aware";
    char polbuf[256];
    snprintf(polbuf, sizeof polbuf, "%s", policy);
    pl_disagg_policy pols[NVME_MAX_POLICIES];
    const char *names[NVME_MAX_POLICIES];
    int npol = 0;
    for (char *tok = strtok(polbuf, ","); tok; tok = strtok(NULL, ",")) {
        if (npol == NVME_MAX_POLICIES)
            return nvme_usage_error("--policy wants 1 to 5 names");
        if (pl_disagg_policy_find(tok, &pols[npol])) {
            fprintf(stderr, "placement simulate: %s\n", pl_last_error());
            return 2;
        }
        names[npol] = pl_disagg_policy_name(pols[npol]);
        npol++;
    }
    if (npol == 0)
        return nvme_usage_error("--policy wants 1 to 5 names");
    if (sweep)
        return nvme_run_sweep(scenario, &o, pols, npol);

    pl_disagg_workload *jobs = NULL;
    int32_t n = 0;
    double rate = 0;
    if (pl_nvme_sim_rate(&o, &rate) || pl_nvme_sim_generate(&o, &jobs, &n)) {
        fprintf(stderr, "placement simulate: %s\n", pl_last_error());
        return 1;
    }
    char shape[512];
    if (cluster)
        snprintf(shape, sizeof shape, "%s: %d nodes, %lld cores, %d NVMe, %d GPUs", cluster,
                 (int)tot->nodes, (long long)tot->cores, (int)tot->nvme, (int)tot->gpus);
    else
        snprintf(shape, sizeof shape, "%d nodes x %d cores, %d NVMe (%s)", (int)o.nodes,
                 (int)o.cores_per_node, (int)o.nvme,
                 o.layout == PL_NVME_LAYOUT_PA ? "physically attached" : "disaggregated pool");
    printf("%s: %d workloads (%.0f%% bandwidth / %.0f%% capacity / %.0f%% compute), target load "
           "%.2f, one arrival every %.1f s (%s, last at %.2f days); %s, %s sharing%s%s\n",
           scenario, (int)n, 100 * o.frac_bandwidth, 100 * o.frac_capacity, 100 * o.frac_compute,
           o.load, 1 / rate, o.arrivals == PL_NVME_ARRIVALS_REGULAR ? "regular" : "Poisson",
           jobs[n - 1].arrival_s / 86400.0, shape,
           o.static_sharing ? "static" : "re-evaluated",
           o.node_order == PL_DISAGG_MOST_USED_FIRST ? ", most-used-first nodes" : "",
           o.smufin_oversubscribe ? ", SMUFIN oversubscribed" : "");
    int rc = out_dir ? sim_make_dir(out_dir) : 0;
    for (int p = 0; p < npol && !rc; p++) {
        pl_nvme_sim_result *r = NULL;
        if (pl_nvme_sim_run(&o, jobs, n, pols[p], &r)) {
            fprintf(stderr, "placement simulate: %s: %s\n", names[p], pl_last_error());
            rc = 1;
            break;
        }
        pl_nvme_sim_summary s;
        pl_nvme_sim_result_summary(r, &s);
        if (p == 0) {
            printf("measured: %d workloads arriving in [%.0f s, %.0f s] (%s)\n", (int)s.window_jobs,
                   s.window_start_s, s.window_end_s,
                   s.window_reached ? "from the fat node's CPU load factor reaching the target to "
                                      "the last arrival"
                   : o.window       ? "the fat node never reached the target: whole run"
                                    : "--all-jobs: whole run");
            printf("%-17s %7s %7s %9s %6s %6s %6s %6s %6s %6s %5s\n", "policy", "missed%",
                   "mhigh%", "wait_s", "comp", "share", "nvme%", "cpu%", "bw%", "cap%", "unfin");
        }
        print_nvme_row(names[p], &s);
        if (out_dir)
            rc = write_nvme_csv(out_dir, scenario, names[p], r);
        pl_nvme_sim_result_free(r);
    }
    if (!rc && out_dir)
        printf("per-workload CSVs: %s/%s-POLICY.csv\n", out_dir, scenario);
    free(jobs);
    return rc;
}
