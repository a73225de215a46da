/* bench-solvers: every built-in min-cost-flow solver on a size ladder of
 * generated instances (NETGEN-style, grid, dense assignment, Firmament-style
 * scheduling), on a NETGEN sweep (several densities and seeds at 256k, 512k
 * and 1M arcs) and on the DIMACS fixtures, optionally against LEMON's
 * NetworkSimplex and CostScaling (bench/lemon_runner.cc). See doc/bench.md.
 *
 * Each solve runs in a forked child (cold start, verify = 1), so that a
 * crashing or hanging solver (one being written, say) is reported in the
 * table and the run goes on. Times: ours = pl_solve_stats setup_seconds +
 * solve_seconds (normalisation + solver; verification excluded); LEMON =
 * run() alone (graph and map set-up excluded). Costs of every solver that
 * succeeded (and LEMON's, and the fixtures' EXPECTED.txt) must agree: a
 * MISMATCH line is printed and the exit status is 1 otherwise (also when a
 * certificate check fails, PL_EVERIFY). */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gen.h"

#ifndef PL_BENCH_DATA_DIR
#define PL_BENCH_DATA_DIR "tests/data/flow"
#endif
#ifndef PL_BENCH_LEMON_RUNNER
#define PL_BENCH_LEMON_RUNNER ""
#endif

#define MAX_SOLVERS 16
#define BIG_ARCS 500000 /* "large instance" threshold of the summary */
#define MAX_DENSITIES 8

/* ---- options ----------------------------------------------------------------- */

typedef struct limit {
    const char *solver;
    int64_t max_arcs;
} limit;

static struct {
    int64_t max_arcs;
    char families[256];
    char solvers[256];
    const char *data_dir;
    const char *lemon;
    const char *tmp_root;
    double timeout;
    int repeat;          /* each solve is timed as the best of up to `repeat` runs, */
    double repeat_budget; /* but no further run once the runs took this many seconds */
    uint64_t seed;
    limit limits[MAX_SOLVERS];
    int nlimits;
    int cpu_clock;                /* 1: process CPU time instead of wall time (see usage) */
    int sweep_seeds;              /* NETGEN sweep: seeds per density and rung */
    int densities[MAX_DENSITIES]; /* NETGEN sweep: arcs per node */
    int ndensities;
} opt;

/* Exact solvers that are too slow for the large rungs, with their default
 * largest arc count (a 64k-arc rung still runs with ssp and cycle-canceling;
 * relaxation took over 60 s on netgen-256k and grid-64k, doc/bench.md). */
static const limit slow_defaults[] = {
    {"ssp", 70000}, {"cycle-canceling", 70000}, {"glpk", 20000}, {"relaxation", 70000}};

static int64_t solver_limit(const char *name)
{
    for (int i = 0; i < opt.nlimits; i++)
        if (strcmp(opt.limits[i].solver, name) == 0)
            return opt.limits[i].max_arcs;
    return -1; /* no limit */
}

static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p = e ? e + 1 : p + len;
    }
    return 0;
}

/* ---- temporary files ------------------------------------------------------------ */

static char tmp_dir[4096], tmp_file[4200];

static void cleanup_tmp(void)
{
    if (tmp_file[0])
        unlink(tmp_file);
    tmp_file[0] = 0;
    if (tmp_dir[0])
        rmdir(tmp_dir);
    tmp_dir[0] = 0;
}

/* Children of fork() must not clean up the parent's directory. */
static void child_signals(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
}

static void on_signal(int sig)
{
    /* async-signal-safe: unlink, rmdir, _exit */
    if (tmp_file[0])
        unlink(tmp_file);
    if (tmp_dir[0])
        rmdir(tmp_dir);
    _exit(128 + sig);
}

/* ---- one solve in a child process ---------------------------------------------- */

typedef struct result {
    int ran;          /* 0: skipped */
    int status;       /* pl_status, or -1 timeout, -2 crash, -3 other failure */
    int64_t cost;
    double seconds;   /* setup + solve */
    double setup;
    int64_t memory;
    int64_t iterations;
    char msg[240];
} result;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of this process (user + system): on a machine shared with other
 * jobs it counts only the time the solve ran, where wall time also counts
 * the time it waited for a core. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Read up to len bytes from fd until EOF or the deadline; returns bytes read,
 * -1 on timeout. */
static ssize_t read_deadline(int fd, char *buf, size_t len, double deadline)
{
    size_t got = 0;
    for (;;) {
        double left = deadline - now();
        if (left <= 0)
            return -1;
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue; /* re-check the deadline */
        if (r < 0)
            return (ssize_t)got;
        if (got == len) { /* drain and discard the rest */
            char junk[4096];
            ssize_t k = read(fd, junk, sizeof junk);
            if (k <= 0)
                return (ssize_t)got;
            continue;
        }
        ssize_t k = read(fd, buf + got, len - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return (ssize_t)got;
        got += (size_t)k;
    }
}

static void finish_child(pid_t pid, int timed_out, result *res)
{
    int wst = 0;
    if (timed_out) {
        kill(pid, SIGKILL);
        waitpid(pid, &wst, 0);
        res->status = -1;
        snprintf(res->msg, sizeof res->msg, "timeout after %.0f s", opt.timeout);
        return;
    }
    waitpid(pid, &wst, 0);
    if (WIFSIGNALED(wst)) {
        res->status = -2;
        snprintf(res->msg, sizeof res->msg, "crashed: %s", strsignal(WTERMSIG(wst)));
    }
}

/* Clear res, open a pipe for the child's result and fork: the child's pid
 * (0 in the child), or -1 with the reason in res. */
static pid_t start_child(result *res, int fds[2])
{
    memset(res, 0, sizeof *res);
    res->ran = 1;
    if (pipe(fds)) {
        res->status = -3;
        snprintf(res->msg, sizeof res->msg, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        res->status = -3;
        snprintf(res->msg, sizeof res->msg, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
    }
    return pid;
}

static void run_solver(pl_flownet *net, const char *solver, int repeat, result *res)
{
    int fds[2];
    pid_t pid = start_child(res, fds);
    if (pid < 0)
        return;
    if (pid == 0) {
        child_signals();
        close(fds[0]);
        result r = {.ran = 1};
        double spent = 0;
        for (int k = 0; k < repeat && (k == 0 || spent < opt.repeat_budget); k++) {
            pl_solve_opts o;
            pl_solve_opts_init(&o);
            o.solver = solver;
            o.verify = !opt.cpu_clock; /* with the CPU clock: checked below, outside the timing */
            o.cold_start = 1;
            pl_solve_stats s;
            memset(&s, 0, sizeof s);
            double c0 = cpu_now();
            pl_status st = pl_flownet_solve(net, &o, &s);
            double cpu = cpu_now() - c0;
            if (st == PL_OK && opt.cpu_clock)
                st = pl_flow_verify(net);
            if (st == PL_OK)
                st = pl_flownet_solution_cost(net, &r.cost);
            r.status = (int)st;
            if (st != PL_OK) {
                snprintf(r.msg, sizeof r.msg, "%s: %s", pl_status_name(st), pl_last_error());
                break;
            }
            double t = opt.cpu_clock ? cpu : s.setup_seconds + s.solve_seconds;
            spent += t;
            if (k == 0 || t < r.seconds) {
                r.seconds = t;
                r.setup = s.setup_seconds;
            }
            r.memory = s.memory_bytes;
            r.iterations = s.iterations;
        }
        ssize_t w = write(fds[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fds[1]);
    ssize_t got = read_deadline(fds[0], (char *)res, sizeof *res, now() + opt.timeout);
    close(fds[0]);
    if (got < 0) {
        finish_child(pid, 1, res);
        return;
    }
    if (got != (ssize_t)sizeof *res) {
        memset(res, 0, sizeof *res);
        res->ran = 1;
        res->status = -3;
        snprintf(res->msg, sizeof res->msg, "child exited without a result");
    }
    finish_child(pid, 0, res);
}

/* Run the LEMON runner with one algorithm flag on `file`. */
static void run_lemon(const char *file, const char *flag, const char *name, int repeat, result *res)
{
    int fds[2];
    pid_t pid = start_child(res, fds);
    if (pid < 0)
        return;
    if (pid == 0) {
        child_signals();
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[1]);
        char rep[16], budget[32];
        snprintf(rep, sizeof rep, "%d", repeat);
        snprintf(budget, sizeof budget, "%g", opt.repeat_budget);
        if (opt.cpu_clock)
            execl(opt.lemon, opt.lemon, flag, "--cpu", "--repeat", rep, "--budget", budget, file, (char *)NULL);
        else
            execl(opt.lemon, opt.lemon, flag, "--repeat", rep, "--budget", budget, file, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char buf[4096];
    ssize_t got = read_deadline(fds[0], buf, sizeof buf - 1, now() + opt.timeout);
    close(fds[0]);
    if (got < 0) {
        finish_child(pid, 1, res);
        return;
    }
    buf[got] = 0;
    finish_child(pid, 0, res);
    if (res->status)
        return;
    /* Line: NAME STATUS RUN_SECONDS COST INIT_SECONDS */
    char *line = strstr(buf, name);
    char stname[32];
    long long cost;
    double run_s, init_s;
    if (!line || sscanf(line + strlen(name), " %31s %lf %lld %lf", stname, &run_s, &cost, &init_s) != 4) {
        res->status = -3;
        snprintf(res->msg, sizeof res->msg, "no result from %s", opt.lemon);
        return;
    }
    if (strcmp(stname, "OPTIMAL") != 0) {
        res->status = strcmp(stname, "INFEASIBLE") == 0 ? PL_EINFEASIBLE : PL_EUNBOUNDED;
        snprintf(res->msg, sizeof res->msg, "%s", stname);
        return;
    }
    res->seconds = run_s;
    res->setup = init_s;
    res->cost = cost;
}

/* ---- table ------------------------------------------------------------------------ */

static const char *solver_names[MAX_SOLVERS];
static int nsolvers;
static int lemon_on;
/* Per solver: timed out earlier in the current family, so larger rungs are skipped. */
static int timed_out[MAX_SOLVERS + 2];
static int failures; /* mismatches and certificate failures */

typedef struct summary {
    char family[32];
    char rung[16]; /* ladder rung label ("512k"), empty for fixtures */
    char name[96];
    int64_t arcs;
    double best_ours, best_lemon;
    const char *best_ours_solver, *best_lemon_solver;
    double cs_ours, cs_lemon; /* cost-scaling and lemon-cs seconds, 0 = not run or failed */
    double mem_per_arc[MAX_SOLVERS]; /* 0 = not reported / not run */
} summary;

static summary *sums;
static int nsums, capsums;

static void print_header(void)
{
    printf("%-22s %9s %9s  %-16s %10s %9s %16s %7s", "instance", "nodes", "arcs", "solver", "seconds", "(setup)",
           "cost", "B/arc");
    if (lemon_on)
        printf(" %9s", "vs LEMON");
    printf("\n");
}

static void print_row(const char *inst, int32_t n, int32_t m, const char *solver, const result *r,
                      double lemon_best, int ours)
{
    printf("%-22s %9d %9d  %-16s ", inst, n, m, solver);
    if (!r->ran) {
        printf("%s\n", r->msg);
        return;
    }
    if (r->status != PL_OK) {
        printf("FAILED %s\n", r->msg);
        return;
    }
    char mem[32] = "-", ratio[32] = "";
    if (r->memory > 0 && m > 0)
        snprintf(mem, sizeof mem, "%.1f", (double)r->memory / m);
    if (ours && lemon_best > 0)
        snprintf(ratio, sizeof ratio, "%.2fx", r->seconds / lemon_best);
    if (ours)
        printf("%10.6f %9.6f %16" PRId64 " %7s", r->seconds, r->setup, r->cost, mem);
    else
        printf("%10.6f %9s %16" PRId64 " %7s", r->seconds, "-", r->cost, "-");
    if (lemon_on && ours)
        printf(" %9s", ratio);
    printf("\n");
}

/* Solve `net` with every solver (and LEMON), print its rows, check costs.
 * `rung` groups the instance in the summary (NULL: fixtures). */
static void bench_instance(const char *family, const char *rung, const char *inst, pl_flownet *net,
                           int has_expected, int64_t expected)
{
    int32_t n = pl_flownet_node_count(net), m = pl_flownet_arc_count(net);
    result res[MAX_SOLVERS], lres[2];
    memset(lres, 0, sizeof lres);
    /* LEMON first (it needs the file), so that the ratio column can be printed
     * with our rows; the file is deleted right after. */
    if (lemon_on) {
        snprintf(tmp_file, sizeof tmp_file, "%s/%s.min", tmp_dir, inst);
        pl_flownet_set_id_base(net, 1);
        if (pl_flownet_save_dimacs(net, tmp_file) != PL_OK) {
            for (int k = 0; k < 2; k++) {
                lres[k].ran = 1;
                lres[k].status = -3;
                snprintf(lres[k].msg, sizeof lres[k].msg, "writing the instance: %s", pl_last_error());
            }
        } else {
            for (int k = 0; k < 2; k++) {
                if (timed_out[MAX_SOLVERS + k]) {
                    snprintf(lres[k].msg, sizeof lres[k].msg, "skipped (timed out on a smaller %s instance)",
                             family);
                    continue;
                }
                run_lemon(tmp_file, k ? "--cs" : "--ns", k ? "lemon-cs" : "lemon-ns", opt.repeat, &lres[k]);
                timed_out[MAX_SOLVERS + k] = lres[k].status == -1;
            }
        }
        unlink(tmp_file);
        tmp_file[0] = 0;
    }
    double lemon_best = 0;
    const char *lemon_best_name = NULL;
    for (int k = 0; k < 2; k++)
        if (lres[k].ran && lres[k].status == PL_OK && (lemon_best == 0 || lres[k].seconds < lemon_best)) {
            lemon_best = lres[k].seconds;
            lemon_best_name = k ? "lemon-cs" : "lemon-ns";
        }
    if (lemon_best_name && lemon_best <= 0)
        lemon_best = 1e-9;

    summary sm;
    memset(&sm, 0, sizeof sm);
    snprintf(sm.family, sizeof sm.family, "%s", family);
    snprintf(sm.rung, sizeof sm.rung, "%s", rung ? rung : "");
    snprintf(sm.name, sizeof sm.name, "%s", inst);
    sm.arcs = m;
    for (int i = 0; i < nsolvers; i++) {
        int64_t lim = solver_limit(solver_names[i]);
        if (lim >= 0 && m > lim) {
            memset(&res[i], 0, sizeof res[i]);
            snprintf(res[i].msg, sizeof res[i].msg, "skipped (> %" PRId64 " arcs)", lim);
        } else if (timed_out[i]) {
            memset(&res[i], 0, sizeof res[i]);
            snprintf(res[i].msg, sizeof res[i].msg, "skipped (timed out on a smaller %s instance)", family);
        } else {
            run_solver(net, solver_names[i], opt.repeat, &res[i]);
            timed_out[i] = res[i].status == -1;
        }
        print_row(inst, n, m, solver_names[i], &res[i], lemon_best, 1);
        if (res[i].ran && res[i].status == PL_OK) {
            if (!sm.best_ours_solver || res[i].seconds < sm.best_ours) {
                sm.best_ours = res[i].seconds;
                sm.best_ours_solver = solver_names[i];
            }
            if (res[i].memory > 0)
                sm.mem_per_arc[i] = (double)res[i].memory / (m > 0 ? m : 1);
            if (strcmp(solver_names[i], "cost-scaling") == 0)
                sm.cs_ours = res[i].seconds > 0 ? res[i].seconds : 1e-9;
        }
        if (res[i].ran && res[i].status == PL_EVERIFY) {
            printf("VERIFY-FAILED %s %s: %s\n", inst, solver_names[i], res[i].msg);
            failures++;
        }
        fflush(stdout);
    }
    if (lemon_on)
        for (int k = 0; k < 2; k++)
            print_row(inst, n, m, k ? "lemon-cs" : "lemon-ns", &lres[k], 0, 0);
    sm.best_lemon = lemon_best_name ? lemon_best : 0;
    sm.best_lemon_solver = lemon_best_name;
    if (lres[1].ran && lres[1].status == PL_OK)
        sm.cs_lemon = lres[1].seconds > 0 ? lres[1].seconds : 1e-9;

    /* Costs must agree. */
    int have_ref = has_expected;
    int64_t ref = expected;
    const char *ref_name = "EXPECTED.txt";
    int mismatch = 0;
    for (int i = 0; i < nsolvers + 2; i++) {
        const result *r = i < nsolvers ? &res[i] : &lres[i - nsolvers];
        const char *name = i < nsolvers ? solver_names[i] : (i == nsolvers ? "lemon-ns" : "lemon-cs");
        if (!r->ran || r->status != PL_OK)
            continue;
        if (!have_ref) {
            have_ref = 1;
            ref = r->cost;
            ref_name = name;
        } else if (r->cost != ref) {
            printf("MISMATCH %s: %s cost %" PRId64 " but %s cost %" PRId64 "\n", inst, name, r->cost, ref_name,
                   ref);
            mismatch = 1;
        }
    }
    failures += mismatch;
    if (sm.best_ours_solver && sm.best_lemon_solver) {
        printf("%-22s %9d %9d  => best ours %s %.6f s / best LEMON %s %.6f s = %.2fx", inst, n, m,
               sm.best_ours_solver, sm.best_ours, sm.best_lemon_solver, sm.best_lemon,
               sm.best_ours / sm.best_lemon);
        if (sm.cs_ours > 0 && sm.cs_lemon > 0)
            printf("; cost-scaling / lemon-cs = %.2fx", sm.cs_ours / sm.cs_lemon);
        printf("\n");
    } else if (sm.best_ours_solver)
        printf("%-22s %9d %9d  => best ours %s %.6f s\n", inst, n, m, sm.best_ours_solver, sm.best_ours);
    fflush(stdout);
    if (nsums == capsums) {
        capsums = capsums ? 2 * capsums : 64;
        sums = realloc(sums, sizeof *sums * (size_t)capsums);
        if (!sums) {
            perror("realloc");
            exit(2);
        }
    }
    sums[nsums++] = sm;
}

/* ---- fixtures ---------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int expected_cost(const char *dir, const char *file, int64_t *cost)
{
    char path[4200], line[512];
    snprintf(path, sizeof path, "%s/EXPECTED.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t len = strlen(file);
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        long long c;
        if (strncmp(line, file, len) == 0 && line[len] == ' ' && sscanf(line + len, " cost=%lld", &c) == 1) {
            *cost = c;
            found = 1;
        }
    }
    fclose(f);
    return found;
}

static void bench_fixtures(void)
{
    memset(timed_out, 0, sizeof timed_out);
    DIR *d = opendir(opt.data_dir);
    if (!d) {
        printf("fixtures: cannot open %s: %s (skipped)\n", opt.data_dir, strerror(errno));
        return;
    }
    char **names = NULL;
    size_t nn = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if ((l > 3 && strcmp(e->d_name + l - 3, ".in") == 0) || (l > 4 && strcmp(e->d_name + l - 4, ".min") == 0)) {
            if (nn == cap) {
                cap = cap ? 2 * cap : 32;
                names = realloc(names, sizeof *names * cap);
                if (!names) {
                    perror("realloc");
                    exit(2);
                }
            }
            names[nn++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_str);
    for (size_t i = 0; i < nn; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", opt.data_dir, names[i]);
        pl_flownet *net;
        if (pl_flownet_read_dimacs(path, &net) != PL_OK) {
            printf("%s: %s (skipped)\n", path, pl_last_error());
            free(names[i]);
            continue;
        }
        int64_t exp = 0;
        int has = expected_cost(opt.data_dir, names[i], &exp);
        char inst[64];
        snprintf(inst, sizeof inst, "%.*s", (int)(strcspn(names[i], ".")), names[i]);
        bench_instance("fixtures", NULL, inst, net, has, exp);
        pl_flownet_free(net);
        free(names[i]);
    }
    free(names);
}

/* ---- ladder ------------------------------------------------------------------------- */

static const struct {
    int64_t arcs;
    const char *label;
} ladder[] = {
    {1 << 10, "1k"}, {1 << 12, "4k"}, {1 << 14, "16k"}, {1 << 16, "64k"},
    {1 << 18, "256k"}, {1 << 19, "512k"}, {1 << 20, "1M"},
};

static void bench_family(const char *family)
{
    memset(timed_out, 0, sizeof timed_out);
    for (size_t k = 0; k < sizeof ladder / sizeof ladder[0]; k++) {
        if (ladder[k].arcs > opt.max_arcs)
            break;
        char inst[64], desc[128];
        snprintf(inst, sizeof inst, "%s-%s", family, ladder[k].label);
        pl_flownet *net;
        double t0 = now();
        pl_status st = bench_gen_family(family, ladder[k].arcs, opt.seed, &net, desc, sizeof desc);
        if (st != PL_OK) {
            printf("%s: generator failed: %s\n", inst, pl_last_error());
            continue;
        }
        printf("# %s: placement-gen %s --arcs %" PRId64 " --seed %" PRIu64 " (= %s), generated in %.2f s\n", inst,
               family, ladder[k].arcs, opt.seed, desc, now() - t0);
        bench_instance(family, ladder[k].label, inst, net, 0, 0);
        pl_flownet_free(net);
    }
}

/* The NETGEN sweep: for each density (arcs per node) and each rung from
 * 256k arcs on, opt.sweep_seeds instances of different seeds. One family
 * per density ("netgen-d8"), so that the summary shows how the ratios move
 * with density and, through the seeds, how much they vary per instance. */
static void bench_netgen_sweep(void)
{
    for (int d = 0; d < opt.ndensities; d++) {
        char family[32];
        snprintf(family, sizeof family, "netgen-d%d", opt.densities[d]);
        memset(timed_out, 0, sizeof timed_out);
        for (size_t k = 0; k < sizeof ladder / sizeof ladder[0]; k++) {
            if (ladder[k].arcs < (1 << 18) || ladder[k].arcs > opt.max_arcs)
                continue;
            for (int j = 0; j < opt.sweep_seeds; j++) {
                uint64_t seed = opt.seed + (uint64_t)j;
                bench_netgen_params p;
                bench_netgen_defaults(&p);
                p.arcs = (int32_t)ladder[k].arcs;
                p.nodes = (int32_t)(ladder[k].arcs / opt.densities[d]);
                p.seed = seed;
                char inst[64];
                snprintf(inst, sizeof inst, "%s-%s-s%" PRIu64, family, ladder[k].label, seed);
                pl_flownet *net;
                double t0 = now();
                if (bench_gen_netgen(&p, &net) != PL_OK) {
                    printf("%s: generator failed: %s\n", inst, pl_last_error());
                    continue;
                }
                printf("# %s: placement-gen netgen %d %d --seed %" PRIu64 ", generated in %.2f s\n", inst,
                       p.nodes, p.arcs, seed, now() - t0);
                bench_instance(family, ladder[k].label, inst, net, 0, 0);
                pl_flownet_free(net);
            }
        }
    }
}

/* ---- summary ------------------------------------------------------------------------- */

/* Geometric mean and worst of a ratio over a set of instances. */
typedef struct ratio_acc {
    double logsum, worst;
    int cnt;
} ratio_acc;

static void ratio_add(ratio_acc *r, double num, double den)
{
    if (num <= 0 || den <= 0)
        return;
    double x = num / den;
    r->logsum += log(x);
    r->worst = x > r->worst ? x : r->worst;
    r->cnt++;
}

static void ratio_print(const ratio_acc *r, double target)
{
    if (!r->cnt) {
        printf(" %8s %7s", "n/a", "-");
        if (target > 0)
            printf(" %4s", "-");
        return;
    }
    printf(" %8.2f %7.2f", exp(r->logsum / r->cnt), r->worst);
    if (target > 0)
        printf(" %4s", r->worst <= target ? "yes" : "NO");
}

/* The generated families in the order they ran (fixtures excluded). */
static int summary_families(const char **fam, int max)
{
    int nf = 0;
    for (int i = 0; i < nsums; i++) {
        if (!sums[i].rung[0])
            continue;
        int seen = 0;
        for (int f = 0; f < nf && !seen; f++)
            seen = strcmp(fam[f], sums[i].family) == 0;
        if (!seen && nf < max)
            fam[nf++] = sums[i].family;
    }
    return nf;
}

/* Issue 26's targets: at >= BIG_ARCS arcs, our fastest solver within 1.0x
 * LEMON's fastest on every family, and our cost scaling within 1.0x LEMON's
 * CostScaling. Also the ratios per rung from 256k arcs on, the sizes of the
 * NETGEN sweep. */
static void print_summary(void)
{
    const char *fam[64];
    int nf = summary_families(fam, 64);
    printf("\nRatios per family and rung from 262144 arcs (seconds of this run; geometric mean over the rung's "
           "instances, then the worst):\n");
    printf("%-14s %5s %5s  %-16s %-16s  %s\n", "family", "rung", "inst", "best ours/LEMON", "cs/lemon-cs",
           "fastest of ours");
    printf("%-14s %5s %5s  %8s %7s %8s %7s\n", "", "", "", "geo", "worst", "geo", "worst");
    for (int f = 0; f < nf; f++)
        for (size_t k = 0; k < sizeof ladder / sizeof ladder[0]; k++) {
            if (ladder[k].arcs < (1 << 18))
                continue;
            ratio_acc best = {0, 0, 0}, cs = {0, 0, 0};
            int cnt = 0;
            char fastest[128] = "";
            for (int i = 0; i < nsums; i++) {
                const summary *sm = &sums[i];
                if (strcmp(sm->family, fam[f]) != 0 || strcmp(sm->rung, ladder[k].label) != 0)
                    continue;
                cnt++;
                if (sm->best_ours_solver && sm->best_lemon_solver)
                    ratio_add(&best, sm->best_ours, sm->best_lemon);
                ratio_add(&cs, sm->cs_ours, sm->cs_lemon);
                if (sm->best_ours_solver && !strstr(fastest, sm->best_ours_solver) &&
                    strlen(fastest) + strlen(sm->best_ours_solver) + 2 < sizeof fastest) {
                    if (fastest[0])
                        strcat(fastest, ",");
                    strcat(fastest, sm->best_ours_solver);
                }
            }
            if (!cnt)
                continue;
            printf("%-14s %5s %5d ", fam[f], ladder[k].label, cnt);
            ratio_print(&best, 0);
            ratio_print(&cs, 0);
            printf("  %s\n", fastest);
        }

    printf("\nTargets at >= %d arcs: best ours / best LEMON <= 1.0x and cost-scaling / lemon-cs <= 1.0x on "
           "every family (worst instance)\n",
           BIG_ARCS);
    printf("%-14s %5s  %-21s %-21s\n", "family", "inst", "best ours/LEMON", "cs/lemon-cs");
    printf("%-14s %5s  %8s %7s %4s %8s %7s %4s\n", "", "", "geo", "worst", "met", "geo", "worst", "met");
    int any = 0;
    for (int f = 0; f < nf; f++) {
        ratio_acc best = {0, 0, 0}, cs = {0, 0, 0};
        int big = 0;
        for (int i = 0; i < nsums; i++) {
            const summary *sm = &sums[i];
            if (strcmp(sm->family, fam[f]) != 0 || sm->arcs < BIG_ARCS)
                continue;
            big++;
            if (sm->best_ours_solver && sm->best_lemon_solver)
                ratio_add(&best, sm->best_ours, sm->best_lemon);
            ratio_add(&cs, sm->cs_ours, sm->cs_lemon);
        }
        if (!big)
            continue;
        any = 1;
        printf("%-14s %5d ", fam[f], big);
        ratio_print(&best, 1.0);
        ratio_print(&cs, 1.0);
        printf("\n");
    }
    if (!any)
        printf("(no instance with >= %d arcs in this run)\n", BIG_ARCS);
    printf("\nMemory reported by solvers (pl_solve_stats.memory_bytes / arcs; target <= 48 B/arc at >= %d arcs):\n",
           BIG_ARCS);
    for (int i = 0; i < nsolvers; i++) {
        double mx_all = 0, mx_big = 0;
        for (int k = 0; k < nsums; k++) {
            double v = sums[k].mem_per_arc[i];
            mx_all = v > mx_all ? v : mx_all;
            if (sums[k].arcs >= BIG_ARCS)
                mx_big = v > mx_big ? v : mx_big;
        }
        if (mx_all == 0)
            printf("  %-16s not reported\n", solver_names[i]);
        else if (mx_big == 0)
            printf("  %-16s max %.1f B/arc (no large instance solved)\n", solver_names[i], mx_all);
        else
            printf("  %-16s max %.1f B/arc over all sizes, %.1f B/arc at >= %d arcs: %s\n", solver_names[i], mx_all,
                   mx_big, BIG_ARCS, mx_big <= 48 ? "target met" : "target NOT met");
    }
}

/* ---- main ------------------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bench-solvers [options]\n"
            "\n"
            "Runs every built-in solver (cold start, verify=1) on a ladder of generated instances\n"
            "(1k .. 1M arcs per family) and on the DIMACS fixtures, against LEMON if available.\n"
            "\n"
            "  --max-arcs N        largest ladder rung (default 1048576)\n"
            "  --quick             --max-arcs 65536\n"
            "  --families LIST     comma list of netgen,grid,assignment,scheduling,netgen-sweep,fixtures\n"
            "                      (default all)\n"
            "  --densities LIST    netgen-sweep: arcs per node, comma list (default 4,8,16)\n"
            "  --sweep-seeds N     netgen-sweep: instances (seeds S, S+1, ...) per density and rung\n"
            "                      from 256k arcs (default 3)\n"
            "  --solvers LIST      comma list of solver names (default every built-in solver)\n"
            "  --slow-max-arcs N   largest instance for ssp, cycle-canceling, glpk, relaxation\n"
            "                      (defaults: ssp 70000, cycle-canceling 70000, glpk 20000, relaxation 70000)\n"
            "  --limit NAME=N      largest instance for solver NAME (-1: no limit)\n"
            "  --data DIR          fixtures directory (default %s)\n"
            "  --lemon PATH        LEMON runner (default %s)\n"
            "  --no-lemon          do not compare with LEMON\n"
            "  --tmpdir DIR        where generated instances are written for LEMON (default $TMPDIR or /tmp)\n"
            "  --timeout SEC       per-solve time limit (default 120); a solver that\n"
            "                      times out is skipped on the larger rungs of that family\n"
            "  --repeat N          time every solve as the best of up to N runs (default 3) ...\n"
            "  --repeat-budget SEC ... but start no further run once the runs took SEC seconds\n"
            "                      (default 1; so slow solves run once)\n"
            "  --seed S            generator seed (default 1)\n"
            "  --clock wall|cpu    what a time is (default wall): wall = the library's setup + solve\n"
            "                      seconds and LEMON's run() wall time; cpu = process CPU time of the\n"
            "                      whole pl_flownet_solve() call (certificate checked after it, untimed)\n"
            "                      and of LEMON's run(): steadier on a machine shared with other jobs\n"
            "\n"
            "Exit status: 0, or 1 if costs disagree (MISMATCH) or a certificate check failed.\n",
            PL_BENCH_DATA_DIR, PL_BENCH_LEMON_RUNNER[0] ? PL_BENCH_LEMON_RUNNER : "none built");
}

static int set_limit(const char *name, int64_t v)
{
    for (int i = 0; i < opt.nlimits; i++)
        if (strcmp(opt.limits[i].solver, name) == 0) {
            opt.limits[i].max_arcs = v;
            return 0;
        }
    if (opt.nlimits == MAX_SOLVERS)
        return -1;
    opt.limits[opt.nlimits].solver = name;
    opt.limits[opt.nlimits++].max_arcs = v;
    return 0;
}

int main(int argc, char **argv)
{
    enum { O_MAX = 256, O_QUICK, O_FAM, O_SOLV, O_SLOW, O_LIMIT, O_DATA, O_LEMON, O_NOLEMON, O_TMP, O_TIMEOUT, O_SEED, O_REPEAT,
           O_RBUDGET, O_DENS, O_SWSEEDS, O_CLOCK };
    static const struct option longopts[] = {
        {"max-arcs", required_argument, NULL, O_MAX},
        {"quick", no_argument, NULL, O_QUICK},
        {"families", required_argument, NULL, O_FAM},
        {"solvers", required_argument, NULL, O_SOLV},
        {"slow-max-arcs", required_argument, NULL, O_SLOW},
        {"limit", required_argument, NULL, O_LIMIT},
        {"data", required_argument, NULL, O_DATA},
        {"lemon", required_argument, NULL, O_LEMON},
        {"no-lemon", no_argument, NULL, O_NOLEMON},
        {"tmpdir", required_argument, NULL, O_TMP},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"seed", required_argument, NULL, O_SEED},
        {"repeat", required_argument, NULL, O_REPEAT},
        {"repeat-budget", required_argument, NULL, O_RBUDGET},
        {"densities", required_argument, NULL, O_DENS},
        {"sweep-seeds", required_argument, NULL, O_SWSEEDS},
        {"clock", required_argument, NULL, O_CLOCK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    opt.max_arcs = 1 << 20;
    snprintf(opt.families, sizeof opt.families, "netgen,grid,assignment,scheduling,netgen-sweep,fixtures");
    opt.data_dir = PL_BENCH_DATA_DIR;
    opt.lemon = PL_BENCH_LEMON_RUNNER;
    opt.tmp_root = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
    opt.timeout = 120;
    opt.repeat = 3;
    opt.repeat_budget = 1.0;
    opt.seed = 1;
    opt.sweep_seeds = 3;
    opt.ndensities = 3;
    opt.densities[0] = 4;
    opt.densities[1] = 8;
    opt.densities[2] = 16;
    for (size_t i = 0; i < sizeof slow_defaults / sizeof slow_defaults[0]; i++)
        set_limit(slow_defaults[i].solver, slow_defaults[i].max_arcs);
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case O_MAX: opt.max_arcs = strtoll(optarg, NULL, 10); break;
        case O_QUICK: opt.max_arcs = 1 << 16; break;
        case O_FAM: snprintf(opt.families, sizeof opt.families, "%s", optarg); break;
        case O_SOLV: snprintf(opt.solvers, sizeof opt.solvers, "%s", optarg); break;
        case O_SLOW:
            for (size_t i = 0; i < sizeof slow_defaults / sizeof slow_defaults[0]; i++)
                set_limit(slow_defaults[i].solver, strtoll(optarg, NULL, 10));
            break;
        case O_LIMIT: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg) {
                fprintf(stderr, "bench-solvers: --limit wants NAME=N\n");
                return 2;
            }
            *eq = 0;
            if (set_limit(optarg, strtoll(eq + 1, NULL, 10))) {
                fprintf(stderr, "bench-solvers: too many --limit\n");
                return 2;
            }
            break;
        }
        case O_DATA: opt.data_dir = optarg; break;
        case O_LEMON: opt.lemon = optarg; break;
        case O_NOLEMON: opt.lemon = ""; break;
        case O_TMP: opt.tmp_root = optarg; break;
        case O_TIMEOUT: opt.timeout = strtod(optarg, NULL); break;
        case O_SEED: opt.seed = strtoull(optarg, NULL, 10); break;
        case O_REPEAT: opt.repeat = atoi(optarg); break;
        case O_RBUDGET: opt.repeat_budget = strtod(optarg, NULL); break;
        case O_SWSEEDS: opt.sweep_seeds = atoi(optarg); break;
        case O_CLOCK:
            if (strcmp(optarg, "wall") && strcmp(optarg, "cpu")) {
                fprintf(stderr, "bench-solvers: --clock wants wall or cpu\n");
                return 2;
            }
            opt.cpu_clock = strcmp(optarg, "cpu") == 0;
            break;
        case O_DENS:
            opt.ndensities = 0;
            for (const char *p = optarg; *p;) {
                char *end;
                long d = strtol(p, &end, 10);
                if (end == p || d < 1 || d > 1024 || opt.ndensities == MAX_DENSITIES || (*end && *end != ',')) {
                    fprintf(stderr, "bench-solvers: --densities wants up to %d integers 1..1024, comma separated\n",
                            MAX_DENSITIES);
                    return 2;
                }
                opt.densities[opt.ndensities++] = (int)d;
                p = *end ? end + 1 : end;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc || opt.timeout <= 0 || opt.repeat < 1 || opt.repeat_budget < 0 || opt.sweep_seeds < 0 ||
        opt.ndensities == 0) {
        usage(stderr);
        return 2;
    }
    for (int i = 0; i < pl_solver_count() && nsolvers < MAX_SOLVERS; i++) {
        const pl_solver_ops *ops = pl_solver_at(i);
        if (!opt.solvers[0] || in_list(opt.solvers, ops->name))
            solver_names[nsolvers++] = ops->name;
    }
    if (opt.solvers[0])
        for (const char *p = opt.solvers; *p;) {
            size_t len = strcspn(p, ",");
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)len, p);
            const pl_solver_ops *ops;
            if (pl_solver_find(name, &ops) != PL_OK) {
                fprintf(stderr, "bench-solvers: %s\n", pl_last_error());
                return 2;
            }
            p += len + (p[len] == ',');
        }
    for (const char *p = opt.families; *p;) {
        size_t len = strcspn(p, ",");
        int ok = (len == 8 && strncmp(p, "fixtures", 8) == 0) || (len == 12 && strncmp(p, "netgen-sweep", 12) == 0);
        for (int f = 0; bench_families[f] && !ok; f++)
            ok = strlen(bench_families[f]) == len && strncmp(p, bench_families[f], len) == 0;
        if (!ok) {
            fprintf(stderr, "bench-solvers: unknown family \"%.*s\"\n", (int)len, p);
            return 2;
        }
        p += len + (p[len] == ',');
    }
    lemon_on = opt.lemon && opt.lemon[0] && access(opt.lemon, X_OK) == 0;
    if (opt.lemon && opt.lemon[0] && !lemon_on)
        fprintf(stderr, "bench-solvers: LEMON runner %s not found; comparing without it\n", opt.lemon);
    if (lemon_on) {
        snprintf(tmp_dir, sizeof tmp_dir, "%s/pl-bench-XXXXXX", opt.tmp_root);
        if (!mkdtemp(tmp_dir)) {
            fprintf(stderr, "bench-solvers: mkdtemp %s: %s\n", tmp_dir, strerror(errno));
            return 2;
        }
        atexit(cleanup_tmp);
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        signal(SIGHUP, on_signal);
        signal(SIGPIPE, on_signal); /* e.g. `bench-solvers | head` */
    }

    printf("bench-solvers: %s, ladder up to %" PRId64 " arcs, seed %" PRIu64 ", timeout %.0f s per solve\n",
           lemon_on ? "with LEMON" : "without LEMON", opt.max_arcs, opt.seed, opt.timeout);
    if (opt.cpu_clock)
        printf("times: process CPU seconds; ours = the whole pl_flownet_solve() call (normalise + solver + "
               "mapping back; the certificate is checked after it, untimed)%s; (setup) = the library's wall "
               "setup_seconds\n",
               lemon_on ? "; LEMON = run() only (graph building and map set-up excluded)" : "");
    else
        printf("times: ours = pl_solve_stats setup_seconds + solve_seconds (normalise + solver, verification not "
               "included)%s\n",
               lemon_on ? "; LEMON = run() only (graph building and map set-up excluded)" : "");
    printf("each time is the best of up to %d runs, with no further run once the runs took %g s (on both sides)\n",
           opt.repeat, opt.repeat_budget);
    printf("every solve: cold start, verify=1; B/arc = pl_solve_stats.memory_bytes / arcs ('-' = not reported)\n");
    printf("slow solvers:");
    for (int i = 0; i < opt.nlimits; i++)
        if (opt.limits[i].max_arcs >= 0)
            printf(" %s <= %" PRId64 " arcs", opt.limits[i].solver, opt.limits[i].max_arcs);
    printf("\n\n");
    print_header();
    for (int f = 0; bench_families[f]; f++)
        if (in_list(opt.families, bench_families[f]))
            bench_family(bench_families[f]);
    if (in_list(opt.families, "netgen-sweep"))
        bench_netgen_sweep();
    if (in_list(opt.families, "fixtures"))
        bench_fixtures();
    print_summary();
    if (failures)
        printf("\n%d instance(s) with MISMATCH or failed certificate\n", failures);
    free(sums);
    return failures ? 1 : 0;
}
