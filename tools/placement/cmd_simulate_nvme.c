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

#define NVME_MAX_POLICIES 4

static void nvme_usage(FILE *f)
{
    fprintf(f,
            "usage: placement simulate --scenario nvme-s1|nvme-s2|nvme-s3 [--load LF] [--jobs N]\n"
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
            "      --load-basis B   cpu (default: offered core load of the fat node) or\n"
            "                       bottleneck (the most loaded of cores, NVMe bandwidth, capacity)\n"
            "      --all-jobs       measure every workload (default: from the fat node's CPU load\n"
            "                       factor reaching LF to the last arrival, as the thesis)\n"
            "  -n, --jobs N         workloads (default 1500)\n"
            "  -p, --policy LIST    comma-separated, default all: first-fit, max-composition,\n"
            "                       min-fragmentation, disagg-aware\n"
            "      --seed N         workload seed (default 1)\n"
            "  -o, --out DIR        write DIR/SCENARIO-POLICY.csv (one line per workload)\n"
            "\n"
            "Exit status: 0 ok, 1 a run failed, 2 usage error.\n");
}

static int nvme_usage_error(const char *msg)
{
    fprintf(stderr, "placement simulate: %s\n", msg);
    return 2;
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
        {NULL, 0, NULL, 0},
    };
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    const char *scenario = NULL, *policy = "first-fit,max-composition,min-fragmentation,disagg-aware";
    const char *out_dir = NULL;
    char *end;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "s:l:n:p:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 's': scenario = optarg; break;
        case 'p': policy = optarg; break;
        case 'o': out_dir = optarg; break;
        case 'A': o.window = 0; break;
        case 'B':
            if (!strcmp(optarg, "cpu"))
                o.load_basis = PL_NVME_LOAD_CPU;
            else if (!strcmp(optarg, "bottleneck"))
                o.load_basis = PL_NVME_LOAD_BOTTLENECK;
            else
                return nvme_usage_error("--load-basis wants 'cpu' or 'bottleneck'");
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
    if (!scenario || pl_nvme_sim_scenario(scenario, &o)) {
        fprintf(stderr, "placement simulate: %s\n", pl_last_error());
        return 2;
    }
    char polbuf[256];
    snprintf(polbuf, sizeof polbuf, "%s", policy);
    pl_disagg_policy pols[NVME_MAX_POLICIES];
    const char *names[NVME_MAX_POLICIES];
    int npol = 0;
    for (char *tok = strtok(polbuf, ","); tok; tok = strtok(NULL, ",")) {
        if (npol == NVME_MAX_POLICIES)
            return nvme_usage_error("--policy wants 1 to 4 names");
        if (pl_disagg_policy_find(tok, &pols[npol])) {
            fprintf(stderr, "placement simulate: %s\n", pl_last_error());
            return 2;
        }
        names[npol] = pl_disagg_policy_name(pols[npol]);
        npol++;
    }
    if (npol == 0)
        return nvme_usage_error("--policy wants 1 to 4 names");

    pl_disagg_workload *jobs = NULL;
    int32_t n = 0;
    double rate = 0;
    if (pl_nvme_sim_rate(&o, &rate) || pl_nvme_sim_generate(&o, &jobs, &n)) {
        fprintf(stderr, "placement simulate: %s\n", pl_last_error());
        return 1;
    }
    printf("%s: %d workloads (%.0f%% bandwidth / %.0f%% capacity / %.0f%% compute), target load "
           "%.2f, one arrival every %.1f s (last at %.2f days); %d nodes x %d cores, %d NVMe\n",
           scenario, (int)n, 100 * o.frac_bandwidth, 100 * o.frac_capacity, 100 * o.frac_compute,
           o.load, 1 / rate, jobs[n - 1].arrival_s / 86400.0, (int)o.nodes,
           (int)o.cores_per_node, (int)o.nvme);
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
