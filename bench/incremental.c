/* bench-incremental: warm versus from-scratch re-solves of a Firmament-style
 * scheduling graph under task churn. See doc/bench.md.
 *
 * The graph (default 12,500 machines, 100,000 tasks) is built twice from the
 * same seed: the "warm" copy is solved once and then re-solved after every
 * round with the library's default warm start; the "cold" copy receives the
 * identical changes and is solved with cold_start = 1 on every K-th round
 * (--cold-every, default 10: from-scratch solves of the large graph are slow).
 * Each round removes ~1% of the tasks (pl_flownet_remove_node: the task's
 * arcs go with it; the sink's demand drops by one per task) and adds ~1% new
 * tasks (pl_flownet_add_node + arcs; the sink's demand grows).
 *
 * Every solve has verify = 1 (the certificate is checked). On rounds with a
 * cold solve its cost must equal the warm one; every round, all solvers'
 * warm costs must agree (they see the same graphs; with --pin only the first
 * solve's, since each solver's own placement is pinned). Either mismatch makes the
 * exit status 1. Times: wall time of the whole pl_flownet_solve() call. Each
 * solver runs in a child process so that a crash or a hang (time limit) is
 * reported and the others still run.
 *
 * --pin models Firmament's default (no preemption): after every solve, each
 * task the warm copy placed is pinned to its machine in both copies (one
 * running arc left), so later rounds only place arriving and waiting tasks. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
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

#define MAX_SOLVERS 16

static struct {
    bench_sched_params sp;
    int rounds;
    double churn_pct;
    int cold_every;
    double timeout, budget;
    int verbose;
    int pin;              /* Firmament's default: placed tasks are pinned (no preemption) */
    char initial[64];     /* solver of the first solve; "" = the series' own */
    char solvers[256];
} opt;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* What a child reports to the parent, followed by (rounds + 1) costs. */
typedef struct report {
    int ok;               /* 1: every round solved */
    int mismatches;       /* warm != cold */
    int warm_used;        /* rounds in which stats.warm was set */
    int inc_used;         /* rounds in which stats.incremental was set */
    int rounds_done;
    double initial;       /* first solve (from scratch) */
    double med_warm, med_cold, med_churn;
    int cold_samples;
    int stopped;          /* rounds cut short by the time budget */
    char msg[240];
} report;

/* Rounds 1, 1 + K, 1 + 2K, ...: the first round always has a cold sample,
 * so a series cut short by the time budget still compares warm and cold. */
static int is_cold_round(int r)
{
    return (r - 1) % opt.cold_every == 0;
}

/* One round of churn applied identically to both copies. */
static pl_status churn(bench_sched *s, bench_rng *r, int32_t k)
{
    pl_status st;
    for (int32_t i = 0; i < k && s->ntasks > 0; i++)
        if ((st = bench_sched_remove_task(s, (int32_t)bench_rng_range(r, 0, s->ntasks - 1))))
            return st;
    for (int32_t i = 0; i < k; i++)
        if ((st = bench_sched_add_task(s, -1)))
            return st;
    return PL_OK;
}

/* --pin: pin every task the warm copy placed, in both copies (identical
 * calls keep identical arc ids). Untimed: a scheduler does this between
 * rounds; the arc changes it makes are part of the next re-solve's work. */
static pl_status pin_placed(bench_sched *w, bench_sched *c, int32_t **machine_of, int32_t *cap, int32_t *pinned)
{
    if (w->ntasks > *cap) {
        int32_t *m = realloc(*machine_of, sizeof *m * (size_t)w->ntasks);
        if (!m)
            return PL_ENOMEM;
        *machine_of = m;
        *cap = w->ntasks;
    }
    pl_status st;
    if ((st = bench_sched_placement(w, *machine_of)) || (st = bench_sched_pin(w, *machine_of, pinned)) ||
        (st = bench_sched_pin(c, *machine_of, NULL)))
        return st;
    return PL_OK;
}

/* Time the whole pl_flownet_solve() call; the certificate check (and the
 * cost query) run after it, untimed. *warm: bit 0 stats.warm, bit 1
 * stats.incremental. */
static pl_status solve(pl_flownet *net, const char *solver, int cold, double *secs, int *warm, int64_t *cost)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = solver;
    o.cold_start = cold;
    pl_solve_stats s;
    memset(&s, 0, sizeof s);
    double t0 = now();
    pl_status st = pl_flownet_solve(net, &o, &s);
    *secs = now() - t0;
    *warm = (s.warm != 0) | (s.incremental != 0) << 1;
    if (st == PL_OK)
        st = pl_flow_verify(net);
    if (st == PL_OK)
        st = pl_flownet_solution_cost(net, cost);
    return st;
}

/* The whole series for one solver; runs in the child. */
static void run_series(const char *solver, report *rep, int64_t *costs)
{
    memset(rep, 0, sizeof *rep);
    bench_sched w, c;
    pl_status st;
    int nw = 0, nc = 0;
    int32_t *machine_of = NULL, machine_cap = 0, pinned = 0;
    double t0 = now();
    if ((st = bench_sched_build(&opt.sp, &w)) || (st = bench_sched_build(&opt.sp, &c))) {
        snprintf(rep->msg, sizeof rep->msg, "build: %s", pl_last_error());
        return;
    }
    int32_t k = (int32_t)(opt.sp.tasks * opt.churn_pct / 100.0 + 0.5);
    if (k < 1)
        k = 1;
    if (opt.verbose)
        printf("  [%s] graphs built in %.2f s: %d nodes, %d arcs each; churn %d tasks out + %d in per round\n",
               solver, now() - t0, pl_flownet_node_count(w.net), pl_flownet_arc_count(w.net), k, k);
    double *warm_t = calloc((size_t)opt.rounds + 1, sizeof *warm_t);
    double *cold_t = calloc((size_t)opt.rounds + 1, sizeof *cold_t);
    double *churn_t = calloc((size_t)opt.rounds + 1, sizeof *churn_t);
    if (!warm_t || !cold_t || !churn_t) {
        snprintf(rep->msg, sizeof rep->msg, "out of memory");
        goto done;
    }
    int warm_flag;
    if ((st = solve(w.net, opt.initial[0] ? opt.initial : solver, 0, &rep->initial, &warm_flag, &costs[0]))) {
        snprintf(rep->msg, sizeof rep->msg, "initial solve: %s: %s", pl_status_name(st), pl_last_error());
        goto done;
    }
    if (opt.verbose)
        printf("  [%s] initial solve %.4f s, cost %" PRId64 "\n", solver, rep->initial, costs[0]);
    if (opt.pin) {
        /* Pinning all the tasks changes most arcs: one untimed re-solve
         * settles it, so that the rounds measure the steady state. */
        double ss;
        int64_t scost;
        if ((st = pin_placed(&w, &c, &machine_of, &machine_cap, &pinned)) ||
            (st = solve(w.net, solver, 0, &ss, &warm_flag, &scost))) {
            snprintf(rep->msg, sizeof rep->msg, "pinning the first placement: %s: %s", pl_status_name(st),
                     pl_last_error());
            goto done;
        }
        if (opt.verbose)
            printf("  [%s] %d tasks pinned, settled in %.4f s, cost %" PRId64 "\n", solver, pinned, ss, scost);
    }
    bench_rng rw, rc;
    bench_rng_seed(&rw, opt.sp.seed ^ 0x5eedULL);
    bench_rng_seed(&rc, opt.sp.seed ^ 0x5eedULL);
    double series_start = now();
    for (int r = 1; r <= opt.rounds; r++) {
        if (r > 1 && now() - series_start > opt.budget) {
            rep->stopped = 1;
            break;
        }
        double tc = now();
        if ((st = churn(&w, &rw, k)) || (st = churn(&c, &rc, k))) {
            snprintf(rep->msg, sizeof rep->msg, "round %d: changing the graph: %s", r, pl_last_error());
            goto done;
        }
        churn_t[r - 1] = (now() - tc) / 2;
        double ws;
        if ((st = solve(w.net, solver, 0, &ws, &warm_flag, &costs[r]))) {
            snprintf(rep->msg, sizeof rep->msg, "round %d warm: %s: %s", r, pl_status_name(st), pl_last_error());
            goto done;
        }
        warm_t[nw++] = ws;
        rep->warm_used += (warm_flag & 1) != 0;
        rep->inc_used += (warm_flag & 2) != 0;
        rep->rounds_done = r;
        if (is_cold_round(r)) {
            double cs;
            int64_t ccost;
            if ((st = solve(c.net, solver, 1, &cs, &warm_flag, &ccost))) {
                snprintf(rep->msg, sizeof rep->msg, "round %d cold: %s: %s", r, pl_status_name(st),
                         pl_last_error());
                goto done;
            }
            cold_t[nc++] = cs;
            if (ccost != costs[r]) {
                printf("MISMATCH %s round %d: warm cost %" PRId64 ", cold cost %" PRId64 "\n", solver, r, costs[r],
                       ccost);
                rep->mismatches++;
            }
            if (opt.verbose)
                printf("  [%s] round %3d: warm %.4f s, cold %.4f s, cost %" PRId64 "\n", solver, r, ws, cs,
                       costs[r]);
        } else if (opt.verbose)
            printf("  [%s] round %3d: warm %.4f s, cost %" PRId64 "\n", solver, r, ws, costs[r]);
        if (opt.pin && (st = pin_placed(&w, &c, &machine_of, &machine_cap, &pinned))) {
            snprintf(rep->msg, sizeof rep->msg, "round %d: pinning: %s: %s", r, pl_status_name(st), pl_last_error());
            goto done;
        }
        if (opt.pin && opt.verbose)
            printf("  [%s] round %3d: %d tasks pinned\n", solver, r, pinned);
        fflush(stdout);
    }
    rep->ok = 1;
done:
    rep->cold_samples = nc;
    rep->med_warm = median(warm_t, nw);
    rep->med_cold = median(cold_t, nc);
    rep->med_churn = median(churn_t, rep->rounds_done);
    free(warm_t);
    free(cold_t);
    free(churn_t);
    free(machine_of);
    bench_sched_free(&w);
    bench_sched_free(&c);
}

/* Fork a child for one solver; collect its report and costs. */
static void run_child(const char *solver, report *rep, int64_t *costs, int *crashed)
{
    size_t ncost = (size_t)opt.rounds + 1;
    memset(rep, 0, sizeof *rep);
    *crashed = 0;
    int fds[2];
    if (pipe(fds)) {
        snprintf(rep->msg, sizeof rep->msg, "pipe: %s", strerror(errno));
        *crashed = 1;
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(rep->msg, sizeof rep->msg, "fork: %s", strerror(errno));
        *crashed = 1;
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        report r;
        int64_t *cs = calloc(ncost, sizeof *cs);
        if (!cs)
            _exit(3);
        run_series(solver, &r, cs);
        fflush(stdout);
        const char *p = (const char *)&r;
        size_t left = sizeof r;
        int okw = 1;
        while (okw && left) {
            ssize_t k = write(fds[1], p, left);
            okw = k > 0;
            p += k > 0 ? k : 0;
            left -= k > 0 ? (size_t)k : 0;
        }
        p = (const char *)cs;
        left = ncost * sizeof *cs;
        while (okw && left) {
            ssize_t k = write(fds[1], p, left);
            okw = k > 0;
            p += k > 0 ? k : 0;
            left -= k > 0 ? (size_t)k : 0;
        }
        _exit(okw ? 0 : 1);
    }
    close(fds[1]);
    size_t total = sizeof *rep + ncost * sizeof *costs, got = 0;
    char *buf = malloc(total);
    double deadline = now() + opt.timeout;
    int timed_out = 0;
    while (buf && got < total) {
        double left = deadline - now();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
        int pr = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            continue;
        ssize_t k = read(fds[0], buf + got, total - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fds[0]);
    int wst = 0;
    if (timed_out)
        kill(pid, SIGKILL);
    waitpid(pid, &wst, 0);
    if (buf && got == total) {
        memcpy(rep, buf, sizeof *rep);
        memcpy(costs, buf + sizeof *rep, ncost * sizeof *costs);
    } else {
        *crashed = 1;
        if (timed_out)
            snprintf(rep->msg, sizeof rep->msg, "timeout after %.0f s", opt.timeout);
        else if (WIFSIGNALED(wst))
            snprintf(rep->msg, sizeof rep->msg, "crashed: %s", strsignal(WTERMSIG(wst)));
        else
            snprintf(rep->msg, sizeof rep->msg, "child failed (exit %d)", WEXITSTATUS(wst));
    }
    free(buf);
}

/* A string option into a fixed buffer: refused, not cut, when too long. */
static int copy_arg(char *dst, size_t size, const char *option, const char *arg)
{
    if (strlen(arg) >= size) {
        fprintf(stderr, "bench-incremental: %s: longer than %zu characters\n", option, size - 1);
        return -1;
    }
    memcpy(dst, arg, strlen(arg) + 1);
    return 0;
}

static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bench-incremental [options]\n"
            "\n"
            "Warm versus from-scratch re-solves of a Firmament-style scheduling graph under churn.\n"
            "\n"
            "  --machines N        machines (default 12500)\n"
            "  --tasks N           tasks (default 100000)\n"
            "  --machines-per-rack N, --slots N, --prefs N, --tasks-per-job N\n"
            "                      graph shape (defaults 40, 8, 8, 100)\n"
            "  --rounds N          churn rounds after the first solve (default 100)\n"
            "  --churn PCT         tasks removed and added per round, in %% of tasks (default 1)\n"
            "  --cold-every K      from-scratch solve on every K-th round (default 10)\n"
            "  --solvers LIST      comma list (default: every solver flagged PL_SOLVER_WARM_START)\n"
            "  --budget SEC        per solver: start no new round after SEC seconds of rounds\n"
            "                      (default 300); the medians cover the rounds done\n"
            "  --timeout SEC       hard limit per solver, the child is killed (default 3600)\n"
            "  --pin               Firmament's default mode (no preemption): after every solve each\n"
            "                      placed task is pinned to its machine (one running arc, its other\n"
            "                      arcs removed); default: every task may move in every round\n"
            "  --initial SOLVER    solve the first time with SOLVER, then re-solve with each of\n"
            "                      --solvers (e.g. cost-scaling first, relaxation after)\n"
            "  --seed S            seed (default 1)\n"
            "  -v, --verbose       one line per round\n"
            "\n"
            "Exit status: 0, or 1 if a warm and a cold cost (or two solvers' costs) differ.\n");
}

int main(int argc, char **argv)
{
    enum { O_M = 256, O_T, O_MPR, O_SLOTS, O_PREFS, O_TPJ, O_ROUNDS, O_CHURN, O_COLD, O_SOLV, O_TIMEOUT, O_SEED, O_BUDGET, O_PIN, O_INIT };
    static const struct option longopts[] = {
        {"machines", required_argument, NULL, O_M},     {"tasks", required_argument, NULL, O_T},
        {"machines-per-rack", required_argument, NULL, O_MPR}, {"slots", required_argument, NULL, O_SLOTS},
        {"prefs", required_argument, NULL, O_PREFS},     {"tasks-per-job", required_argument, NULL, O_TPJ},
        {"rounds", required_argument, NULL, O_ROUNDS},   {"churn", required_argument, NULL, O_CHURN},
        {"cold-every", required_argument, NULL, O_COLD}, {"solvers", required_argument, NULL, O_SOLV},
        {"timeout", required_argument, NULL, O_TIMEOUT}, {"seed", required_argument, NULL, O_SEED},
        {"budget", required_argument, NULL, O_BUDGET},  {"pin", no_argument, NULL, O_PIN},
        {"initial", required_argument, NULL, O_INIT},
        {"verbose", no_argument, NULL, 'v'},             {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bench_sched_defaults(&opt.sp);
    opt.sp.machines = 12500;
    opt.sp.tasks = 100000;
    opt.rounds = 100;
    opt.churn_pct = 1.0;
    opt.cold_every = 10;
    opt.timeout = 3600;
    opt.budget = 300;
    int c;
    while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
        switch (c) {
        case O_M: opt.sp.machines = atoi(optarg); break;
        case O_T: opt.sp.tasks = atoi(optarg); break;
        case O_MPR: opt.sp.machines_per_rack = atoi(optarg); break;
        case O_SLOTS: opt.sp.slots = atoi(optarg); break;
        case O_PREFS: opt.sp.prefs = atoi(optarg); break;
        case O_TPJ: opt.sp.tasks_per_job = atoi(optarg); break;
        case O_ROUNDS: opt.rounds = atoi(optarg); break;
        case O_CHURN: opt.churn_pct = strtod(optarg, NULL); break;
        case O_COLD: opt.cold_every = atoi(optarg); break;
        case O_SOLV:
            if (copy_arg(opt.solvers, sizeof opt.solvers, "--solvers", optarg))
                return 2;
            break;
        case O_TIMEOUT: opt.timeout = strtod(optarg, NULL); break;
        case O_BUDGET: opt.budget = strtod(optarg, NULL); break;
        case O_SEED: opt.sp.seed = strtoull(optarg, NULL, 10); break;
        case O_PIN: opt.pin = 1; break;
        case O_INIT:
            if (copy_arg(opt.initial, sizeof opt.initial, "--initial", optarg))
                return 2;
            break;
        case 'v': opt.verbose = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc || opt.sp.machines < 1 || opt.sp.tasks < 1 || opt.rounds < 0 || opt.cold_every < 1 ||
        opt.churn_pct < 0 || opt.timeout <= 0 || opt.budget < 0) {
        usage(stderr);
        return 2;
    }
    if (opt.initial[0] && pl_solver_find(opt.initial, NULL) != PL_OK) {
        fprintf(stderr, "bench-incremental: --initial: %s\n", pl_last_error());
        return 2;
    }
    const char *names[MAX_SOLVERS];
    int n = 0;
    for (int i = 0; i < pl_solver_count() && n < MAX_SOLVERS; i++) {
        const pl_solver_ops *ops = pl_solver_at(i);
        if (opt.solvers[0] ? in_list(opt.solvers, ops->name) : (ops->flags & PL_SOLVER_WARM_START) != 0)
            names[n++] = ops->name;
    }
    if (!n) {
        fprintf(stderr, "bench-incremental: no solver selected\n");
        return 2;
    }
    int32_t k = (int32_t)(opt.sp.tasks * opt.churn_pct / 100.0 + 0.5);
    printf("bench-incremental: scheduling graph, %d machines (%d per rack, %d slots), %d tasks (%d preference "
           "arcs each, %d per job), seed %" PRIu64 "\n",
           opt.sp.machines, opt.sp.machines_per_rack, opt.sp.slots, opt.sp.tasks, opt.sp.prefs,
           opt.sp.tasks_per_job, opt.sp.seed);
    printf("%d rounds, each removing %d tasks (remove_node) and adding %d (add_node + arcs), sink demand adjusted\n",
           opt.rounds, k < 1 ? 1 : k, k < 1 ? 1 : k);
    if (opt.initial[0])
        printf("--initial: the first solve is %s's, every re-solve the series' own solver's\n", opt.initial);
    if (opt.pin)
        printf("--pin: after every solve the tasks placed are pinned to their machines (Firmament's default, "
               "no preemption); only the first solve's cost is compared across solvers\n");
    printf("warm re-solve every round (default options); from-scratch re-solve (cold_start=1, on an identical "
           "copy) on %s\n",
           opt.cold_every == 1 ? "every round" : "a subset of rounds");
    if (opt.cold_every > 1)
        printf("  (rounds 1, %d, %d, ...: from-scratch solves of the large graph are slow; --cold-every 1 for all)\n",
               1 + opt.cold_every, 1 + 2 * opt.cold_every);
    printf("time budget: a solver starts no new round after %.0f s of rounds (--budget); medians cover the rounds done\n",
           opt.budget);
    printf("times: wall time of pl_flownet_solve(); pl_flow_verify() after every solve (not timed)\n\n");
    fflush(stdout);

    report reps[MAX_SOLVERS];
    int crashed[MAX_SOLVERS];
    int64_t *costs = calloc((size_t)n * (size_t)(opt.rounds + 1), sizeof *costs);
    if (!costs) {
        perror("calloc");
        return 2;
    }
    int failures = 0;
    for (int i = 0; i < n; i++) {
        double t0 = now();
        run_child(names[i], &reps[i], costs + (size_t)i * (size_t)(opt.rounds + 1), &crashed[i]);
        if (crashed[i] || !reps[i].ok)
            printf("%s: FAILED after %d rounds: %s\n", names[i], reps[i].rounds_done, reps[i].msg);
        else
            printf("%s: done in %.1f s\n", names[i], now() - t0);
        failures += reps[i].mismatches;
        fflush(stdout);
    }
    /* All solvers see the same graphs: their warm costs must agree round by round. */
    int ref = -1;
    for (int i = 0; i < n; i++) {
        if (crashed[i] || !reps[i].ok)
            continue;
        if (ref < 0) {
            ref = i;
            continue;
        }
        const int64_t *a = costs + (size_t)ref * (size_t)(opt.rounds + 1),
                      *b = costs + (size_t)i * (size_t)(opt.rounds + 1);
        int upto = reps[ref].rounds_done < reps[i].rounds_done ? reps[ref].rounds_done : reps[i].rounds_done;
        /* Pinned graphs follow each solver's own placement: two optimal
         * solutions may differ, so only the first solve is shared. */
        if (opt.pin)
            upto = 0;
        for (int r = 0; r <= upto; r++)
            if (a[r] != b[r]) {
                printf("MISMATCH round %d: %s cost %" PRId64 ", %s cost %" PRId64 "\n", r, names[ref], a[r],
                       names[i], b[r]);
                failures++;
            }
    }
    printf("\n%-16s %11s %14s %14s %14s %10s %12s %10s %9s %s\n", "solver", "initial s", "median warm s",
           "median cold s", "warm/cold", "speed-up", "cold rounds", "warm used", "incr", "costs");
    int best_w = -1, best_c = -1;
    for (int i = 0; i < n; i++) {
        const report *r = &reps[i];
        if (crashed[i] || (!r->ok && r->rounds_done == 0 && r->initial == 0)) {
            printf("%-16s FAILED: %s\n", names[i], r->msg);
            continue;
        }
        char ratio[32] = "-", speed[32] = "-";
        if (r->cold_samples && r->med_cold > 0 && r->rounds_done) {
            snprintf(ratio, sizeof ratio, "%.4f", r->med_warm / r->med_cold);
            snprintf(speed, sizeof speed, "%.1fx", r->med_warm > 0 ? r->med_cold / r->med_warm : 0);
        }
        printf("%-16s %11.4f %14.6f %14.6f %14s %10s %12d %6d/%-3d %5d/%-3d %s%s\n", names[i], r->initial,
               r->med_warm, r->med_cold, ratio, speed, r->cold_samples, r->warm_used, r->rounds_done, r->inc_used,
               r->rounds_done, r->mismatches ? "MISMATCH" : "warm == cold",
               !r->ok ? " (FAILED part-way)" : r->stopped ? " (stopped by --budget)" : "");
        if (r->rounds_done && (best_w < 0 || r->med_warm < reps[best_w].med_warm))
            best_w = i;
        if (r->cold_samples && (best_c < 0 || r->med_cold < reps[best_c].med_cold))
            best_c = i;
    }
    /* The target compares the best re-solve with the best from-scratch solve. */
    if (best_w >= 0 && best_c >= 0 && reps[best_w].med_warm > 0)
        printf("\nbest warm re-solve: %s %.6f s; best from scratch: %s %.6f s; best from scratch / best warm = "
               "%.1fx\n",
               names[best_w], reps[best_w].med_warm, names[best_c], reps[best_c].med_cold,
               reps[best_c].med_cold / reps[best_w].med_warm);
    if (n && reps[0].rounds_done)
        printf("\n(median time to apply one round of churn to a graph, untimed in the above: %.6f s)\n",
               reps[0].med_churn);
    if (failures)
        printf("\n%d cost mismatch(es)\n", failures);
    free(costs);
    return failures ? 1 : 0;
}
