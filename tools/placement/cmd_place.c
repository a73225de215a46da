/* `placement place`: run a placement policy on a topology and a job queue,
 * print one line per job (or the topology DOT after the placement). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>
#include "commands.h"

static void place_usage(FILE *f)
{
    fprintf(f,
            "usage: placement place (--builtin NAME [--machines N [--per-rack K]] | --xml FILE |\n"
            "                        --json FILE) (--jobs FILE | --sc17 FILE)\n"
            "                       [--policy NAME] [--profiles FILE] [--utility artifact|paper]\n"
            "                       [--seed N] [--dot | --format table|csv|json]\n"
            "\n"
            "Decide where the queued jobs go on an idle topology with a placement policy\n"
            "(doc/policies.md) and print, per job: its decision, machine, GPUs, job utility,\n"
            "communication cost (Eq. 3), predicted slowdown and the reason it was not placed.\n"
            "A task with NVMe demands (storage_bw, storage_bytes) shows its device after its\n"
            "GPU as +nvme:PATH (JSON: \"storage\", one device or null per entry).\n"
            "\n"
            "  -b, --builtin NAME  a reference machine:");
    for (const char *const *n = pl_topology_builtin_names(); *n; n++)
        fprintf(f, " %s", *n);
    fprintf(f,
            "\n"
            "  -m, --machines N    a cluster of N copies of the builtin machine\n"
            "  -r, --per-rack K    machines per rack in the cluster (default 32)\n"
            "  -x, --xml FILE      an hwloc XML export\n"
            "  -j, --json FILE     a JSON cluster description (doc/topology-json.md)\n"
            "  -J, --jobs FILE     the queue, in the job JSON format (doc/jobs.md)\n"
            "  -s, --sc17 FILE     the queue, an SC17 artifact workloads-*.json file\n"
            "  -p, --policy NAME   the policy (default topo-aware):");
    for (int i = 0; i < pl_policy_count(); i++)
        fprintf(f, " %s", pl_policy_get(i)->name);
    fprintf(f,
            "\n"
            "  -P, --profiles FILE interference profiles in the SC17 format (default: built in)\n"
            "  -u, --utility FORM  paper (default: Eq. 1-5 fixed) or artifact (the SC17 artifact's)\n"
            "      --seed N        seed of the random policy (default 1)\n"
            "  -d, --dot           write the topology as Graphviz DOT after applying the\n"
            "                      placement (allocated vertices shaded) instead of the table\n"
            "  -F, --format FMT    table (default), csv (a header and one line per job) or json\n"
            "                      (one document: the policy and a record per job, GPU paths\n"
            "                      and vertex ids)\n"
            "\n"
            "Exit status: 0 ok, 1 an input could not be loaded or the policy failed, 2 usage error.\n");
}

typedef struct place_args {
    const char *builtin, *xml, *json, *jobs, *sc17, *policy, *profiles, *utility;
    long long machines, per_rack;
    unsigned long long seed;
    int dot;
    int format;              /* OUT_TABLE, OUT_CSV or OUT_JSON */
} place_args;

static int usage_error(const char *msg)
{
    fprintf(stderr, "placement place: %s\n", msg);
    return 2;
}

/* -1: go on; otherwise the exit code. */
static int parse_args(int argc, char **argv, place_args *a)
{
    static const struct option longopts[] = {
        {"builtin", required_argument, NULL, 'b'}, {"machines", required_argument, NULL, 'm'},
        {"per-rack", required_argument, NULL, 'r'}, {"xml", required_argument, NULL, 'x'},
        {"json", required_argument, NULL, 'j'},     {"jobs", required_argument, NULL, 'J'},
        {"sc17", required_argument, NULL, 's'},     {"policy", required_argument, NULL, 'p'},
        {"profiles", required_argument, NULL, 'P'}, {"utility", required_argument, NULL, 'u'},
        {"seed", required_argument, NULL, 'S'},     {"dot", no_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'F'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    int c, sources = 0, queues = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:m:r:x:j:J:s:p:P:u:F:dh", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': a->builtin = optarg; sources++; break;
        case 'x': a->xml = optarg; sources++; break;
        case 'j': a->json = optarg; sources++; break;
        case 'J': a->jobs = optarg; queues++; break;
        case 's': a->sc17 = optarg; queues++; break;
        case 'p': a->policy = optarg; break;
        case 'P': a->profiles = optarg; break;
        case 'u': a->utility = optarg; break;
        case 'd': a->dot = 1; break;
        case 'F':
            if ((a->format = out_format(optarg)) < 0)
                return usage_error("--format wants table, csv or json");
            break;
        case 'm':
            if ((a->machines = parse_count("place", "machines", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'r':
            if ((a->per_rack = parse_count("place", "per-rack", optarg, 0x7fffffff)) < 0)
                return 2;
            break;
        case 'S':
            if (!parse_seed(optarg, &a->seed))
                return usage_error("--seed wants an integer in 0..18446744073709551615");
            break;
        case 'h': place_usage(stdout); return 0;
        default: place_usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "placement place: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (sources != 1)
        return usage_error("give exactly one of --builtin, --xml, --json");
    if (a->dot && a->format != OUT_TABLE)
        return usage_error("--dot and --format exclude each other");
    if (queues != 1)
        return usage_error("give exactly one of --jobs, --sc17");
    if ((a->machines || a->per_rack) && !a->builtin)
        return usage_error("--machines and --per-rack need --builtin");
    if (a->per_rack && !a->machines)
        return usage_error("--per-rack needs --machines");
    if (a->utility && strcmp(a->utility, "artifact") && strcmp(a->utility, "paper"))
        return usage_error("--utility wants 'artifact' or 'paper'");
    return -1;
}

static pl_status load_topology(const place_args *a, pl_topology **out)
{
    return load_machines(a->xml, a->json, a->builtin, a->machines, a->per_rack, out);
}

static const char *kind_name(pl_decision_kind k)
{
    switch (k) {
    case PL_DECISION_PLACED: return "placed";
    case PL_DECISION_POSTPONED: return "postponed";
    case PL_DECISION_WAITING: return "waiting";
    case PL_DECISION_REJECTED: return "rejected";
    }
    return "?";
}

#define NCOL 8

/* The table's cells, one row per job (row 0: the header). */
typedef struct table {
    char *(*cell)[NCOL];
    int32_t rows;
} table;

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static pl_status gpu_list(const pl_topology *t, const pl_decision_info *info, char **out)
{
    size_t cap = 64, len = 0;
    char *s = malloc(cap), path[1024];
    if (!s)
        return PL_ENOMEM;
    s[0] = '\0';
    for (int32_t g = 0; g < info->ngpus; g++) {
        /* A CPU-only task has no GPU: its package, marked so. */
        int cpu = info->gpus[g] < 0;
        pl_status st = pl_topology_path_name(t, info->hosts[g], path, sizeof path);
        /* Its NVMe device, if it asked for one: "+nvme:" and the device. */
        size_t at = strlen(path);
        if (!st && info->storage && info->storage[g] >= 0 && at + 7 < sizeof path) {
            memcpy(path + at, "+nvme:", 7);
            st = pl_topology_path_name(t, info->storage[g], path + at + 6, sizeof path - at - 6);
        }
        if (st) {
            free(s);
            return st;
        }
        size_t need = len + strlen(path) + 6;
        if (need > cap) {
            char *n = realloc(s, cap = need * 2);
            if (!n) {
                free(s);
                return PL_ENOMEM;
            }
            s = n;
        }
        len += (size_t)sprintf(s + len, "%s%s%s", g ? "," : "", cpu ? "cpu:" : "", path);
    }
    *out = s;
    return PL_OK;
}

static pl_status fill_row(const pl_topology *t, const pl_job *job, const pl_decision_info *info,
                          char *row[NCOL])
{
    char buf[1024];
    row[0] = dup_text(pl_job_name(job));
    row[1] = dup_text(kind_name(info->kind));
    if (info->kind == PL_DECISION_PLACED && info->machine >= 0) {
        pl_status st = pl_topology_path_name(t, info->machine, buf, sizeof buf);
        if (st)
            return st;
        row[2] = dup_text(buf);
    } else {
        row[2] = dup_text(info->kind == PL_DECISION_PLACED ? "(several)" : "-");
    }
    if (info->kind == PL_DECISION_PLACED) {
        pl_status st = gpu_list(t, info, &row[3]);
        if (st)
            return st;
    } else {
        row[3] = dup_text("-");
    }
    int scored = info->kind == PL_DECISION_PLACED || info->kind == PL_DECISION_POSTPONED;
    snprintf(buf, sizeof buf, "%.4f", info->utility);
    row[4] = dup_text(scored ? buf : "-");
    snprintf(buf, sizeof buf, "%lld", (long long)info->comm_cost);
    row[5] = dup_text(info->kind == PL_DECISION_PLACED ? buf : "-");
    snprintf(buf, sizeof buf, "%.3f", info->slowdown);
    row[6] = dup_text(info->kind == PL_DECISION_PLACED ? buf : "-");
    row[7] = dup_text(info->reason);
    for (int c = 0; c < NCOL; c++)
        if (!row[c])
            return PL_ENOMEM;
    return PL_OK;
}

static void print_table(const table *tb)
{
    size_t w[NCOL] = {0};
    for (int32_t r = 0; r < tb->rows; r++)
        for (int c = 0; c < NCOL; c++)
            if (strlen(tb->cell[r][c]) > w[c])
                w[c] = strlen(tb->cell[r][c]);
    for (int32_t r = 0; r < tb->rows; r++) {
        for (int c = 0; c < NCOL - 1; c++)
            printf("%-*s  ", (int)w[c], tb->cell[r][c]);
        printf("%s\n", tb->cell[r][NCOL - 1]);
    }
}

static void print_csv(const table *tb)
{
    for (int32_t r = 0; r < tb->rows; r++)
        for (int c = 0; c < NCOL; c++) {
            out_csv_field(stdout, tb->cell[r][c]);
            fputc(c + 1 < NCOL ? ',' : '\n', stdout);
        }
}

/* One decision as a JSON record: names where a person reads them, vertex
 * ids beside them for programs. */
static pl_status print_json_record(const pl_topology *t, const pl_job *job, const pl_decision_info *info)
{
    char path[1024];
    int placed = info->kind == PL_DECISION_PLACED;
    fputs("{\"job\": ", stdout);
    out_json_string(stdout, pl_job_name(job));
    fputs(", \"decision\": ", stdout);
    out_json_string(stdout, kind_name(info->kind));
    fputs(", \"machine\": ", stdout);
    if (placed && info->machine >= 0) {
        pl_status st = pl_topology_path_name(t, info->machine, path, sizeof path);
        if (st)
            return st;
        out_json_string(stdout, path);
    } else {
        fputs("null", stdout);
    }
    fputs(", \"gpus\": [", stdout);
    for (int32_t g = 0; g < info->ngpus; g++) {
        fputs(g ? ", " : "", stdout);
        if (info->gpus[g] < 0) {
            fputs("null", stdout);
            continue;
        }
        pl_status st = pl_topology_path_name(t, info->gpus[g], path, sizeof path);
        if (st)
            return st;
        out_json_string(stdout, path);
    }
    fputs("], \"hosts\": [", stdout);
    for (int32_t g = 0; g < info->ngpus; g++) {
        pl_status st = pl_topology_path_name(t, info->hosts[g], path, sizeof path);
        if (st)
            return st;
        fputs(g ? ", " : "", stdout);
        out_json_string(stdout, path);
    }
    /* Only a job with NVMe demands has "storage": its device per entry. */
    for (int32_t g = 0; info->storage && g < info->ngpus; g++) {
        fputs(g ? ", " : "], \"storage\": [", stdout);
        pl_status st = info->storage[g] < 0 ? PL_OK : pl_topology_path_name(t, info->storage[g], path, sizeof path);
        if (st)
            return st;
        if (info->storage[g] < 0)
            fputs("null", stdout);
        else
            out_json_string(stdout, path);
    }
    fputs("], \"gpu_ids\": [", stdout);
    for (int32_t g = 0; g < info->ngpus; g++)
        printf("%s%d", g ? ", " : "", (int)info->gpus[g]);
    fputs("], \"utility\": ", stdout);
    if (placed || info->kind == PL_DECISION_POSTPONED)
        out_json_number(stdout, info->utility);
    else
        fputs("null", stdout);
    fputs(", \"comm\": ", stdout);
    if (placed)
        printf("%lld", (long long)info->comm_cost);
    else
        fputs("null", stdout);
    fputs(", \"slowdown\": ", stdout);
    if (placed)
        out_json_number(stdout, info->slowdown);
    else
        fputs("null", stdout);
    fputs(", \"reason\": ", stdout);
    out_json_string(stdout, info->reason);
    fputc('}', stdout);
    return PL_OK;
}

static pl_status print_json(const pl_topology *t, const char *policy, pl_job *const *q, int32_t n,
                            const pl_decision *d)
{
    fputs("{\"policy\": ", stdout);
    out_json_string(stdout, policy);
    fputs(", \"decisions\": [", stdout);
    pl_status st = PL_OK;
    for (int32_t i = 0; i < n && !st; i++) {
        pl_decision_info info;
        fputs(i ? ",\n  " : "\n  ", stdout);
        if (!(st = pl_decision_get(d, i, &info)))
            st = print_json_record(t, q[i], &info);
    }
    fputs("\n]}\n", stdout);
    return st;
}

static void free_table(table *tb)
{
    for (int32_t r = 0; r < tb->rows; r++)
        for (int c = 0; c < NCOL; c++)
            free(tb->cell[r][c]);
    free(tb->cell);
}

static pl_status report(const pl_topology *t, pl_job *const *q, int32_t n, const pl_decision *d,
                        int format)
{
    static const char *const head[NCOL] = {"job", "decision", "machine", "gpus",
                                           "utility", "comm", "slowdown", "reason"};
    table tb = {calloc((size_t)n + 1, sizeof *tb.cell), 0};
    if (!tb.cell)
        return PL_ENOMEM;
    pl_status st = PL_OK;
    for (int c = 0; c < NCOL; c++)
        if (!(tb.cell[0][c] = dup_text(head[c])))
            st = PL_ENOMEM;
    tb.rows = 1;
    for (int32_t i = 0; i < n && !st; i++) {
        pl_decision_info info;
        if (!(st = pl_decision_get(d, i, &info)))
            st = fill_row(t, q[i], &info, tb.cell[tb.rows]);
        tb.rows++;
    }
    if (!st && format == OUT_CSV)
        print_csv(&tb);
    else if (!st)
        print_table(&tb);
    free_table(&tb);
    return st;
}

static pl_status run(const place_args *a, pl_topology *t, pl_jobset *set)
{
    pl_profile_set *ps = NULL;
    pl_status st = PL_OK;
    if (a->profiles && (st = pl_profile_set_load_sc17(a->profiles, &ps)))
        return st;
    int32_t n = pl_jobset_count(set);
    pl_job **q = calloc((size_t)n + 1, sizeof *q);
    if (!q) {
        pl_profile_set_free(ps);
        return PL_ENOMEM;
    }
    for (int32_t i = 0; i < n; i++)
        q[i] = pl_jobset_get(set, i);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    if (a->policy)
        o.policy = a->policy;
    o.profiles = ps;
    if (a->seed)
        o.seed = a->seed;
    if (a->utility)
        o.utility.form = strcmp(a->utility, "paper") ? PL_UTILITY_ARTIFACT : PL_UTILITY_PAPER;
    pl_decision *d = NULL;
    st = pl_policy_place(&o, t, NULL, 0, q, n, &d);
    if (!st && a->dot) {
        if (!(st = pl_decision_apply(d, q, n, t)))
            st = pl_topology_write_dot(t, stdout);
    } else if (!st && a->format == OUT_JSON) {
        st = print_json(t, o.policy ? o.policy : "topo-aware", q, n, d);
    } else if (!st) {
        st = report(t, q, n, d, a->format);
    }
    pl_decision_free(d);
    free(q);
    pl_profile_set_free(ps);
    return st;
}

int cmd_place(int argc, char **argv)
{
    place_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    pl_topology *t = NULL;
    pl_jobset *set = NULL;
    pl_status st = load_topology(&a, &t);
    if (!st)
        st = a.jobs ? pl_jobset_load_json(a.jobs, &set) : pl_jobset_load_sc17(a.sc17, &set);
    if (!st)
        st = run(&a, t, set);
    pl_jobset_free(set);
    pl_topology_free(t);
    if (st) {
        fprintf(stderr, "placement place: %s\n", pl_last_error());
        return 1;
    }
    return 0;
}
