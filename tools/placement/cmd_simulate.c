/* `placement simulate`: replay a workload under one or more policies and
 * print the comparison table (doc/simulator.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>
#include "commands.h"

#define MAX_POLICIES 16
/* Long-only options (no short letter). */
enum { OPT_SHARE_FACTOR = 0x100, OPT_SHARE_MODEL, OPT_USAGE_TRACES };

static void simulate_usage(FILE *f)
{
    fprintf(f,
            "usage: placement simulate (--scenario NAME | --trace FILE) [--cluster FILE.json]\n"
            "                          [--machines N] [--jobs N] [--policy NAME[,NAME...]] [--seed N]\n"
            "                          [--interval S] [--runtime progress|artifact]\n"
            "                          [--utility paper|artifact] [--sa-model lookup|tree]\n"
            "                          [--startup-delay S] [--failures FILE] [--out DIR] [--quiet]\n"
            "                          [--format table|csv|json] [--no-disaggregation]\n"
            "                          [--gpu-share-factor F] [--gpu-share-model constant|usage]\n"
            "                          [--usage-traces FILE]\n"
            "\n"
            "Replay a workload on a cluster (Minsky machines unless --cluster) under each\n"
            "policy (same workload, same cluster) and print one row per policy: makespan (the\n"
            "SC17 paper's cumulative execution time), mean turnaround, mean and max wait, mean\n"
            "slowdown against the ideal solo time, jobs slower than ideal, jobs placed below\n"
            "their minimal utility, rejected and unfinished jobs, the policy's time per\n"
            "scheduling call (median, 99th percentile), mean GPU utilisation and mean\n"
            "fragmentation. Metrics: doc/simulator.md.\n"
            "\n"
            "  -s, --scenario NAME  a built-in scenario:");
    for (const char *const *n = pl_sim_scenario_names(); *n; n++)
        fprintf(f, " %s", *n);
    fprintf(f, "\n                       seed 001: nvme-s1 nvme-s2 nvme-s3 nvme-deadline nvme-devices\n"
               "                       nvme-fio (own options: --scenario nvme-s1 --help)");
    fprintf(f, "\n                       seed 003: kim-ch2 kim-ch3 kim-ch4 kim-ch5 (own options: --scenario\n"
               "                       kim-ch2 --help)");
    fprintf(f,
            "\n"
            "  -t, --trace FILE     a workload trace: CSV or JSON (columns arrival, gpus, cores,\n"
            "                       memory, type, size, duration, deadline, priority, ...;\n"
            "                       doc/simulator.md) or an SC17 artifact file (workloads-*.json)\n"
            "  -c, --cluster FILE   a JSON cluster description (doc/topology-json.md) instead of\n"
            "                       the Minsky machines\n"
            "  -m, --machines N     Minsky machines (default: the scenario's; 5 for a trace)\n"
            "  -n, --jobs N         jobs of the generated sc17-s2 workload (default 10000)\n"
            "  -p, --policy LIST    comma-separated policies (default topo-aware,topo-aware-p,fcfs,bf):");
    for (int i = 0; i < pl_policy_count(); i++)
        fprintf(f, " %s", pl_policy_get(i)->name);
    fprintf(f,
            "\n"
            "      --seed N         seed of the generated workload and of the random policy (default 1)\n"
            "  -i, --interval S     seconds between scheduling rounds (default 1; 0: a round at\n"
            "                       the time of each event that asks for one)\n"
            "  -r, --runtime MODEL  progress (default: remaining work rescaled when neighbours\n"
            "                       change) or artifact (the SC17 artifact's, for comparison)\n"
            "      --utility FORM   the utility form of the policies: paper (default: seed 002's\n"
            "                       Eq. 1-5 with the fixes of doc/interference.md) or artifact\n"
            "                       (the SC17 artifact's, for comparison)\n"
            "      --sa-model M     sa-placement's slowdowns: lookup (default: the profiles')\n"
            "                       or tree (a bagged REPTree learned from the profiles' measured\n"
            "                       pairs, Kim ch. 2; doc/policies.md sec. 4e)\n"
            "  -d, --startup-delay S  seconds from a job's placement to its tasks' start (default 0;\n"
            "                       a trace's startup column wins)\n"
            "  -f, --failures FILE  device failures: CSV time,gpu,repair (gpu: vertex or path)\n"
            "      --gpu-share-factor F  device-side slowdown of jobs sharing a GPU (>= 1; default\n"
            "                       1.2737, doc/simulator.md sec. 3c)\n"
            "      --gpu-share-model M  constant (default: F for every pair of co-tenants) or usage\n"
            "                       (a pair's slowdowns replayed from their workloads' GPU usage\n"
            "                       patterns: the built-in Table 5.1 models and --usage-traces;\n"
            "                       F where a workload has none); gpu-qos then predicts its\n"
            "                       pairs by the same patterns (and F)\n"
            "      --usage-traces FILE  usage-pattern CSV: workload,kind,gap_s,duration_s,bytes,split\n"
            "                       (with --gpu-share-model usage)\n"
            "  -o, --out DIR        write DIR/NAME-POLICY.csv (one line per job),\n"
            "                       DIR/NAME-POLICY-timeline.csv (utilisation over time) and\n"
            "                       DIR/NAME.svg (CDFs of slowdown and waiting time, utilisation)\n"
            "  -q, --quiet          no progress bar on the terminal\n"
            "      --no-disaggregation  drmaestro and drmaestro-na run as drmaestro-local and\n"
            "                       drmaestro-na-local: a task's GPUs on its own machine\n"
            "      --nodes FILE     Alibaba's openb node list: the ATC'23 saturation experiment on\n"
            "                       an openb pod list (--trace), own options: --nodes FILE --help\n"
            "  -F, --format FMT     table (default), csv (a header and one line per policy) or\n"
            "                       json (one document: the workload, its size, a record per policy)\n"
            "\n"
            "Exit status: 0 ok, 1 a load or a run failed, 2 usage error.\n");
}

static int usage_error(const char *msg)
{
    fprintf(stderr, "placement simulate: %s\n", msg);
    return 2;
}

/* Split LIST at commas into names (pointing into buf). Returns the count or -1. */
static int split_policies(char *buf, const char **names)
{
    int n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (n == MAX_POLICIES)
            return -1;
        names[n++] = tok;
    }
    return n;
}

/* Seed 001's and seed 003's scenarios have their own models and options:
 * 1 if a --scenario argument starts with prefix. */
static int wants_scenario(int argc, char **argv, const char *prefix)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--scenario") || !strcmp(a, "-s")) && i + 1 < argc)
            a = argv[++i];
        else if (!strncmp(a, "--scenario=", 11))
            a += 11;
        else if (!strncmp(a, "-s", 2) && a[2])
            a += 2;
        else
            continue;
        if (!strncmp(a, prefix, strlen(prefix)))
            return 1;
    }
    return 0;
}

int cmd_simulate(int argc, char **argv)
{
    if (wants_scenario(argc, argv, "nvme-"))
        return cmd_simulate_nvme(argc, argv);
    if (wants_scenario(argc, argv, "kim-"))
        return cmd_simulate_kim(argc, argv);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--nodes"))
            return cmd_simulate_openb(argc, argv);
    static const struct option longopts[] = {
        {"scenario", required_argument, NULL, 's'}, {"trace", required_argument, NULL, 't'},
        {"machines", required_argument, NULL, 'm'}, {"jobs", required_argument, NULL, 'n'},
        {"policy", required_argument, NULL, 'p'},   {"seed", required_argument, NULL, 'S'},
        {"interval", required_argument, NULL, 'i'}, {"out", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},          {"help", no_argument, NULL, 'h'},
        {"runtime", required_argument, NULL, 'r'},  {"cluster", required_argument, NULL, 'c'},
        {"startup-delay", required_argument, NULL, 'd'}, {"failures", required_argument, NULL, 'f'},
        {"format", required_argument, NULL, 'F'},  {"utility", required_argument, NULL, 'U'},
        {"no-disaggregation", no_argument, NULL, 'N'}, {"sa-model", required_argument, NULL, 'M'},
        {"gpu-share-factor", required_argument, NULL, OPT_SHARE_FACTOR},
        {"gpu-share-model", required_argument, NULL, OPT_SHARE_MODEL},
        {"usage-traces", required_argument, NULL, OPT_USAGE_TRACES},
        {NULL, 0, NULL, 0},
    };
    const char *scenario = NULL, *trace = NULL, *policy = "topo-aware,topo-aware-p,fcfs,bf";
    const char *cluster = NULL, *failures = NULL, *format = "table";
    long long machines = 0, njobs = 0;
    int no_disagg = 0;
    sim_settings set = {.seed = 1, .runtime = PL_SIM_RUNTIME_PROGRESS};
    pl_sa_policy_opts sa;
    pl_sa_policy_opts_init(&sa);
    char *end;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "s:t:m:n:p:i:o:r:c:d:f:F:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 's': scenario = optarg; break;
        case 't': trace = optarg; break;
        case 'c': cluster = optarg; break;
        case 'f': failures = optarg; break;
        case 'd':
            set.startup_delay = strtod(optarg, &end);
            if (!*optarg || *end || !(set.startup_delay >= 0 && set.startup_delay <= PL_SIM_MAX_SECONDS))
                return usage_error("--startup-delay wants a number of seconds in [0, 1e10]");
            break;
        case 'p': policy = optarg; break;
        case 'o': set.out_dir = optarg; break;
        case 'q': set.quiet = 1; break;
        case 'F':
            if (out_format(optarg) < 0)
                return usage_error("--format wants table, csv or json");
            format = optarg;
            break;
        case 'r':
            if (!strcmp(optarg, "progress"))
                set.runtime = PL_SIM_RUNTIME_PROGRESS;
            else if (!strcmp(optarg, "artifact"))
                set.runtime = PL_SIM_RUNTIME_ARTIFACT;
            else
                return usage_error("--runtime wants 'progress' or 'artifact'");
            break;
        case 'N': no_disagg = 1; break;
        case 'M':
            if (strcmp(optarg, "lookup") && strcmp(optarg, "tree"))
                return usage_error("--sa-model wants 'lookup' or 'tree'");
            sa.model = strcmp(optarg, "tree") ? PL_SA_MODEL_LOOKUP : PL_SA_MODEL_TREE;
            set.sa_opts = &sa;
            break;
        case 'U':
            if (strcmp(optarg, "paper") && strcmp(optarg, "artifact"))
                return usage_error("--utility wants 'paper' or 'artifact'");
            set.utility = strcmp(optarg, "paper") ? PL_UTILITY_ARTIFACT : PL_UTILITY_PAPER;
            set.utility_set = 1;
            break;
        case 'm':
            if ((machines = parse_count("simulate", "machines", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'n':
            if ((njobs = parse_count("simulate", "jobs", optarg, 0x7fffffff)) < 0)
                return 2;
            if (njobs > PL_SIM_MAX_GENERATED_JOBS) {
                fprintf(stderr, "placement simulate: --jobs wants at most %d (a generated "
                        "workload; a larger one can come from --trace), got '%s'\n",
                        PL_SIM_MAX_GENERATED_JOBS, optarg);
                return 2;
            }
            break;
        case 'S':
            if (!parse_seed(optarg, &set.seed))
                return usage_error("--seed wants an integer in 0..18446744073709551615");
            break;
        case 'i':
            set.interval = strtod(optarg, &end);
            if (!*optarg || *end || !(set.interval >= 0 && set.interval <= PL_SIM_MAX_SECONDS))
                return usage_error("--interval wants a number of seconds in [0, 1e10]");
            break;
        case OPT_SHARE_FACTOR:
            set.gpu_share_factor = strtod(optarg, &end);
            if (!*optarg || *end || !(set.gpu_share_factor >= 1 && set.gpu_share_factor <= 1e6))
                return usage_error("--gpu-share-factor wants a number in [1, 1e6]");
            break;
        case OPT_SHARE_MODEL:
            if (strcmp(optarg, "constant") && strcmp(optarg, "usage"))
                return usage_error("--gpu-share-model wants 'constant' or 'usage'");
            set.gpu_share_model = strcmp(optarg, "usage") ? PL_SIM_GPU_SHARE_CONSTANT : PL_SIM_GPU_SHARE_USAGE;
            break;
        case OPT_USAGE_TRACES: set.usage_traces = optarg; break;
        case 'h': simulate_usage(stdout); return 0;
        default: simulate_usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "placement simulate: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (set.usage_traces && set.gpu_share_model != PL_SIM_GPU_SHARE_USAGE)
        return usage_error("--usage-traces needs --gpu-share-model usage");
    if (!!scenario + !!trace != 1)
        return usage_error("give exactly one of --scenario, --trace");
    if (cluster && machines)
        return usage_error("--machines sizes the Minsky cluster: not with --cluster");
    char polbuf[1024];
    const char *names[MAX_POLICIES];
    snprintf(polbuf, sizeof polbuf, "%s", policy);
    int npol = split_policies(polbuf, names);
    if (npol < 1)
        return usage_error("--policy wants 1 to 16 comma-separated names");
    for (int p = 0; p < npol && no_disagg; p++) /* the variants that keep GPUs local */
        names[p] = !strcmp(names[p], "drmaestro") ? "drmaestro-local"
                   : !strcmp(names[p], "drmaestro-na") ? "drmaestro-na-local" : names[p];
    for (int p = 0; p < npol; p++) {
        const pl_policy_ops *ops;
        if (pl_policy_find(names[p], &ops)) {
            fprintf(stderr, "placement simulate: %s\n", pl_last_error());
            return 2;
        }
    }

    pl_topology *topo = NULL;
    pl_jobset *jobs = NULL;
    pl_sim_trace *tr = NULL;
    pl_sim_failure *fail = NULL;
    int32_t nfail = 0;
    pl_status st;
    const char *name;
    if (scenario) {
        pl_sim_scenario_opts so;
        pl_sim_scenario_opts_init(&so);
        so.machines = (int32_t)machines;
        so.jobs = (int32_t)njobs;
        so.seed = set.seed;
        st = pl_sim_scenario(scenario, &so, &topo, &jobs);
        name = scenario;
    } else {
        pl_topology *m = NULL;
        st = pl_sim_trace_load(trace, &tr);
        if (!st) {
            set.priority = pl_sim_trace_priorities(tr);
            if (set.startup_delay == 0)
                set.startup = pl_sim_trace_startup_delays(tr);
        }
        if (!st && !cluster)
            st = pl_topology_builtin("minsky", &m);
        if (!st && !cluster)
            st = pl_topology_cluster(m, machines ? (int32_t)machines : 5, 32, 0, &topo);
        pl_topology_free(m);
        name = "trace";
    }
    if (!st && cluster) {
        pl_topology_free(topo);
        topo = NULL;
        st = pl_topology_load_json(cluster, &topo);
    }
    if (!st && failures) {
        st = pl_sim_failures_load(failures, topo, &fail, &nfail);
        set.failures = fail;
        set.nfailures = nfail;
    }
    const pl_jobset *work = tr ? pl_sim_trace_jobs(tr) : jobs;
    if (st) {
        fprintf(stderr, "placement simulate: %s\n", pl_last_error());
        pl_jobset_free(jobs);
        pl_sim_trace_free(tr);
        pl_sim_failures_free(fail);
        pl_topology_free(topo);
        return 1;
    }
    sim_row rows[MAX_POLICIES];
    char svg[4096] = "";
    set.svg_path = svg;
    set.svg_path_size = sizeof svg;
    int32_t nmach = 0, ngpu = 0;
    pl_topology_descendants(topo, -1, PL_VK_MACHINE, NULL, 0, &nmach);
    pl_topology_descendants(topo, -1, PL_VK_GPU, NULL, 0, &ngpu);
    int table = !strcmp(format, "table");
    if (table && cluster)
        printf("%s: %d jobs on %d machines, %d GPUs (%s)\n", name, (int)pl_jobset_count(work), (int)nmach,
               (int)ngpu, cluster);
    else if (table)
        printf("%s: %d jobs on %d %s machines\n", name, (int)pl_jobset_count(work), (int)nmach,
               scenario && !strcmp(scenario, "drmaestro") ? "Firestone" : "Minsky");
    int rc = sim_compare(name, topo, work, names, npol, &set, rows);
    if (!rc && !table) {
        if (!strcmp(format, "csv"))
            sim_print_csv(stdout, rows, npol);
        else
            sim_print_json(stdout, name, pl_jobset_count(work), nmach, ngpu, rows, npol);
    } else if (!rc) {
        sim_print_table(stdout, rows, npol);
        if (set.out_dir)
            printf("per-job CSVs: %s/%s-POLICY.csv; utilisation: %s/%s-POLICY-timeline.csv; plot: %s\n",
                   set.out_dir, name, set.out_dir, name, svg);
    }
    pl_jobset_free(jobs);
    pl_sim_trace_free(tr);
    pl_sim_failures_free(fail);
    pl_topology_free(topo);
    return rc;
}
