/* `placement solve` and `placement solvers`. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>
#include "commands.h"

static void solve_usage(FILE *f)
{
    fprintf(f,
            "usage: placement solve [--solver NAME|all] [--verify] [--lp-check] [--flows]\n"
            "                       [--pivot-block N] [--scaling-factor N]\n"
            "                       [--format table|csv|json] FILE.min\n"
            "\n"
            "Solve a DIMACS min-cost-flow problem (FILE '-' reads standard input).\n"
            "Prints 's COST' (the DIMACS solution line); with --solver all, a table with\n"
            "every solver's optimal cost and time side by side.\n"
            "\n"
            "  -s, --solver NAME  solver to use (default %s; 'placement solvers' lists them)\n"
            "  -v, --verify       check the optimality certificate (bounds, conservation,\n"
            "                     reduced costs)\n"
            "  -l, --lp-check     also solve the problem as an LP with GLPK and compare costs\n"
            "  -f, --flows        print 'f TAIL HEAD FLOW' for every arc with flow\n"
            "  -q, --quiet        do not print the solve time on standard error\n"
            "      --pivot-block N     network-simplex: arcs per pivot search block\n"
            "                          (default about sqrt(arcs))\n"
            "      --scaling-factor N  cost-scaling: epsilon divisor per phase, >= 2 (default 16)\n"
            "  -F, --format F     with --solver all: table (default), csv or json, one row per\n"
            "                     solver: solver, status, cost, seconds, iterations, checks, error\n"
            "\n"
            "Exit status: 0 solved, 1 infeasible/unbounded/check failed, 2 usage or input error.\n",
            PL_DEFAULT_SOLVER);
}

typedef struct solve_args {
    const char *solver;
    const char *file;
    int verify, lp_check, flows, quiet;
    int pivot_block, scaling_factor;
    int format;
} solve_args;

/* A non-negative int option value, or -1 with a message. */
static int int_arg(const char *name, const char *text)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < 0 || v > 1000000000) {
        fprintf(stderr, "placement solve: --%s wants an integer in 0..1000000000, got '%s'\n", name,
                text);
        return -1;
    }
    return (int)v;
}

static int parse_args(int argc, char **argv, solve_args *a)
{
    static const struct option longopts[] = {
        {"solver", required_argument, NULL, 's'}, {"verify", no_argument, NULL, 'v'},
        {"lp-check", no_argument, NULL, 'l'},     {"flows", no_argument, NULL, 'f'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {"pivot-block", required_argument, NULL, 'P'},
        {"scaling-factor", required_argument, NULL, 'S'},
        {"format", required_argument, NULL, 'F'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "s:vlfqF:h", longopts, NULL)) != -1) {
        switch (c) {
        case 's': a->solver = optarg; break;
        case 'v': a->verify = 1; break;
        case 'l': a->lp_check = 1; break;
        case 'f': a->flows = 1; break;
        case 'q': a->quiet = 1; break;
        case 'h': solve_usage(stdout); return 0;
        case 'P':
            if ((a->pivot_block = int_arg("pivot-block", optarg)) < 0)
                return 2;
            break;
        case 'S':
            if ((a->scaling_factor = int_arg("scaling-factor", optarg)) < 0)
                return 2;
            break;
        case 'F':
            if ((a->format = out_format(optarg)) < 0) {
                fprintf(stderr, "placement solve: --format wants table, csv or json, got '%s'\n", optarg);
                return 2;
            }
            break;
        default: solve_usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "placement solve: expected exactly one FILE\n");
        solve_usage(stderr);
        return 2;
    }
    a->file = argv[optind];
    /* One solver prints the DIMACS solution, which has a format of its own. */
    if (a->format != OUT_TABLE && !(a->solver && !strcmp(a->solver, "all"))) {
        fprintf(stderr, "placement solve: --format csv|json needs --solver all\n");
        return 2;
    }
    return -1;
}

/* Exit code for a failed library call: 1 for an answer about the problem,
 * 2 for bad input or usage. */
static int fail_code(pl_status st)
{
    return (st == PL_EINFEASIBLE || st == PL_EUNBOUNDED || st == PL_EVERIFY) ? 1 : 2;
}

static int report_failure(const char *what, pl_status st)
{
    if (st == PL_EINFEASIBLE)
        fprintf(stderr, "placement: %s: infeasible: %s\n", what, pl_last_error());
    else if (st == PL_EUNBOUNDED)
        fprintf(stderr, "placement: %s: unbounded: %s\n", what, pl_last_error());
    else
        fprintf(stderr, "placement: %s: %s\n", what, pl_last_error());
    return fail_code(st);
}

static int lp_check(pl_flownet *net, const char *what)
{
    int64_t lp_cost;
    pl_status st = pl_flow_lp_check(net, &lp_cost);
    if (st)
        return report_failure(what, st);
    return 0;
}

/* One solver: the DIMACS solution on stdout, the time on stderr. */
static int solve_one(pl_flownet *net, const solve_args *a)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = a->solver;
    o.verify = a->verify;
    o.pivot_block = a->pivot_block;
    o.scaling_factor = a->scaling_factor;
    pl_solve_stats stats;
    pl_status st = pl_flownet_solve(net, &o, &stats);
    if (st) {
        if (st == PL_EINFEASIBLE)
            printf("infeasible\n");
        else if (st == PL_EUNBOUNDED)
            printf("unbounded\n");
        return report_failure(a->file, st);
    }
    int rc = a->lp_check ? lp_check(net, a->file) : 0;
    if (a->flows)
        pl_flownet_write_solution(net, stdout);
    else {
        int64_t cost;
        pl_flownet_solution_cost(net, &cost);
        printf("s %" PRId64 "\n", cost);
    }
    if (!a->quiet)
        fprintf(stderr, "%s: %d nodes, %d arcs, %" PRId64 " iterations, %.6f s (setup %.6f s), "
                "%.1f bytes/arc%s%s\n",
                stats.solver, stats.nodes, stats.arcs, stats.iterations, stats.solve_seconds,
                stats.setup_seconds,
                stats.arcs > 0 ? (double)stats.memory_bytes / stats.arcs : 0.0, a->verify ? ", certificate ok" : "",
                a->lp_check && rc == 0 ? ", GLPK agrees" : "");
    return rc;
}

/* One solver's line of --solver all; cost and iterations only when ok. */
typedef struct solve_row {
    const char *solver;
    pl_status status;
    int64_t cost, iterations;
    double seconds;
    const char *checks, *error;
} solve_row;

static void print_row(const solve_row *r, int format, int first)
{
    if (format == OUT_TABLE) {
        if (r->status)
            printf("%-18s %16s %10.4f %12s %s\n", r->solver, pl_status_name(r->status), r->seconds, "-",
                   r->error);
        else
            printf("%-18s %16" PRId64 " %10.4f %12" PRId64 " %s\n", r->solver, r->cost, r->seconds,
                   r->iterations, r->checks);
    } else if (format == OUT_CSV) {
        out_csv_field(stdout, r->solver);
        printf(",%s,", pl_status_name(r->status));
        if (!r->status)
            printf("%" PRId64, r->cost);
        printf(",%.6f,", r->seconds);
        if (!r->status)
            printf("%" PRId64, r->iterations);
        putchar(',');
        out_csv_field(stdout, r->status ? "" : r->checks);
        putchar(',');
        out_csv_field(stdout, r->status ? r->error : "");
        putchar('\n');
    } else {
        printf("%s\n    {\"solver\": ", first ? "" : ",");
        out_json_string(stdout, r->solver);
        printf(", \"status\": \"%s\", \"cost\": ", pl_status_name(r->status));
        if (r->status)
            printf("null, \"seconds\": ");
        else
            printf("%" PRId64 ", \"seconds\": ", r->cost);
        out_json_number(stdout, r->seconds);
        if (r->status)
            printf(", \"iterations\": null, \"checks\": null, \"error\": ");
        else {
            printf(", \"iterations\": %" PRId64 ", \"checks\": ", r->iterations);
            out_json_string(stdout, r->checks);
            printf(", \"error\": ");
        }
        if (r->status)
            out_json_string(stdout, r->error);
        else
            printf("null");
        putchar('}');
    }
}

/* Every solver on the same network, side by side. */
static int solve_all(pl_flownet *net, const solve_args *a)
{
    int rc = 0, rows = 0;
    if (a->format == OUT_TABLE)
        printf("%-18s %16s %10s %12s %s\n", "solver", "cost", "seconds", "iterations", "checks");
    else if (a->format == OUT_CSV)
        printf("solver,status,cost,seconds,iterations,checks,error\n");
    else {
        printf("{\"file\": ");
        out_json_string(stdout, a->file);
        printf(", \"solvers\": [");
    }
    for (int i = 0; i < pl_solver_count(); i++) {
        const pl_solver_ops *ops = pl_solver_at(i);
        if (!ops)
            continue;
        pl_solve_opts o;
        pl_solve_opts_init(&o);
        o.ops = ops;
        o.verify = a->verify;
        o.pivot_block = a->pivot_block;
        o.scaling_factor = a->scaling_factor;
        o.cold_start = 1; /* each solver from scratch, not from the previous one's answer */
        pl_solve_stats stats;
        solve_row r = {ops->name, pl_flownet_solve(net, &o, &stats), 0, 0, 0.0, "-", ""};
        r.seconds = stats.solve_seconds;
        if (r.status) {
            r.error = pl_last_error();
            if (fail_code(r.status) > rc)
                rc = fail_code(r.status);
            print_row(&r, a->format, rows++ == 0);
            continue;
        }
        pl_flownet_solution_cost(net, &r.cost);
        r.iterations = stats.iterations;
        r.checks = a->verify ? "certificate ok" : "-";
        char buf[64];
        if (a->lp_check) {
            pl_status lst = pl_flow_lp_check(net, NULL);
            /* Only PL_EVERIFY is a disagreement: PL_EOVERFLOW means GLPK cannot
             * hold the values exactly, other statuses that it could not check. */
            snprintf(buf, sizeof buf, "%s%s%s", a->verify ? "certificate ok, " : "",
                     lst == PL_OK ? "GLPK agrees" : lst == PL_EVERIFY ? "GLPK DISAGREES"
                                                                      : "GLPK cannot check: ",
                     lst == PL_OK || lst == PL_EVERIFY ? "" : pl_status_name(lst));
            r.checks = buf;
            if (lst != PL_OK && rc == 0)
                rc = 1;
        }
        print_row(&r, a->format, rows++ == 0);
    }
    if (a->format == OUT_JSON)
        printf("\n  ]}\n");
    return rc;
}

int cmd_solve(int argc, char **argv)
{
    solve_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    pl_flownet *net;
    pl_status st = pl_flownet_read_dimacs(a.file, &net);
    if (st) {
        fprintf(stderr, "placement: %s\n", pl_last_error());
        return 2;
    }
    rc = (a.solver && !strcmp(a.solver, "all")) ? solve_all(net, &a) : solve_one(net, &a);
    pl_flownet_free(net);
    return rc;
}

int cmd_solvers(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: placement solvers\n\nList the min-cost-flow solvers, built-in and registered.\n");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "placement solvers: unexpected argument '%s'\n", argv[1]);
        return 2;
    }
    for (int i = 0; i < pl_solver_count(); i++) {
        const pl_solver_ops *ops = pl_solver_at(i);
        if (ops)
            printf("%-18s %s%s\n", ops->name, ops->description ? ops->description : "",
                   strcmp(ops->name, PL_DEFAULT_SOLVER) ? "" : " (default)");
    }
    return 0;
}
