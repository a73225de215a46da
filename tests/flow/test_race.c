/* Tests of the race ("race": relaxation and cost scaling on two threads,
 * lib/flow/solvers/race.c): the shared battery of common/solver_cases.h
 * (hand-computed cases, fixtures, random networks against ssp, warm
 * re-solves), then the race itself through pl_race_run() with entrants
 * written here: a loser that waits to be cancelled, first finishers that
 * fail, a loser that never listens and scribbles over its arrays, cost
 * scaling alone on the incremental path, and warm re-solves by other
 * solvers after a race. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "../common/solver_cases.h"
#include "internal/flownet_impl.h"

static const sc_solver RACE = {
    .name = "race",
    .ops = &pl_solver_race,
    .flags = SC_WARM | SC_VS_SSP | SC_UNTRUSTED_WARM | SC_UNSHIFTED | SC_LIMIT_APPROX | SC_RACING,
    /* Both entrants' infeasibility reports say it. */
    .infeasible_says = "no flow satisfies the supplies and arc bounds",
};

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* ---- entrants ------------------------------------------------------------------ */

/* Set when the spinner saw the cancellation (the tests run one at a time). */
static atomic_int spinner_cancelled;

/* A hopeless solver: waits for the cancellation for up to 20 s. */
static pl_status spin(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    (void)p;
    (void)out;
    for (int i = 0; i < 20000; i++) {
        if (pl_solve_cancelled(opts)) {
            atomic_store(&spinner_cancelled, 1);
            return pl_solver_error(PL_ELIMIT, "spinner: cancelled");
        }
        sleep_ms(1);
    }
    return pl_solver_error(PL_EINTERNAL, "spinner: never cancelled");
}

/* Set when broken() has failed: the entrants that must finish after it wait
 * for it, so that no thread schedule decides the order. */
static atomic_int broken_done;

static pl_status broken(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    (void)p;
    (void)opts;
    out->flow[0] = 12345; /* a failed entrant's arrays must not leak out */
    pl_status st = pl_solver_error(PL_EINTERNAL, "broken at once");
    atomic_store(&broken_done, 1);
    return st;
}

/* Sleep until broken() has failed (at most 20 s), then 50 ms more: the race
 * has counted it finished by then. */
static void after_broken(void)
{
    for (int i = 0; i < 20000 && !atomic_load(&broken_done); i++)
        sleep_ms(1);
    sleep_ms(50);
}

static pl_status sleepy_relaxation(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    sleep_ms(50);
    return pl_solver_relaxation.solve(p, opts, out);
}

static pl_status sleepy_broken(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    (void)p;
    (void)opts;
    (void)out;
    after_broken();
    return pl_solver_error(PL_EOVERFLOW, "sleepy failure");
}

/* Does not stop when told: goes on until the race is decided (it waits for
 * the flag only to finish surely last) and then "succeeds" with garbage. */
static pl_status deaf_scribbler(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    for (int i = 0; i < 20000 && !pl_solve_cancelled(opts); i++)
        sleep_ms(1);
    sleep_ms(20);
    for (int32_t a = 0; a < p->m; a++)
        out->flow[a] = a % 2 ? p->cap[a] : 0;
    for (int32_t v = 0; v < p->n; v++)
        out->potential[v] = 1000 * v;
    out->iterations = 777;
    return PL_OK;
}

#define ENTRANT(fn) {.name = #fn, .description = #fn, .solve = fn, .flags = PL_SOLVER_WARM_START}
static const pl_solver_ops SPIN = ENTRANT(spin), BROKEN = ENTRANT(broken),
                           SLEEPY_RX = ENTRANT(sleepy_relaxation), SLEEPY_BROKEN = ENTRANT(sleepy_broken),
                           DEAF = ENTRANT(deaf_scribbler);

/* Race a and b on the -7 network (4 nodes, 6 arcs) called directly. */
static pl_status race_direct(const pl_solver_ops *a, const pl_solver_ops *b, sc_direct *d, int *winner)
{
    const pl_solver_ops *ops[2] = {a, b};
    sc_direct_build(d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    return pl_race_run(ops, &d->p, &o, &d->out, winner);
}

/* ---- cancellation and failures ----------------------------------------------------- */

/* Race loser against winner, the loser in thread `side` (0: the calling
 * one): the winner's optimum of the -7 network comes out. */
static void expect_win(const pl_solver_ops *loser, const pl_solver_ops *winner, int side, sc_direct *d)
{
    int got = -2;
    assert_pl_ok(side ? race_direct(winner, loser, d, &got) : race_direct(loser, winner, d, &got));
    assert_int_equal(got, 1 - side);
    assert_int_equal(sc_direct_check(d), -7);
    assert_null(d->slot); /* entrants get no state slot */
}

/* The loser is told to stop as soon as the other wins, in either thread. */
static void test_loser_cancelled(void **state)
{
    (void)state;
    for (int side = 0; side < 2; side++) {
        sc_direct d;
        atomic_store(&spinner_cancelled, 0);
        expect_win(&SPIN, &SLEEPY_RX, side, &d);
        assert_int_equal(atomic_load(&spinner_cancelled), 1);
        assert_true(d.out.iterations > 0);
    }
}

/* A first finisher that fails does not end the race: the other's answer is
 * taken, whichever thread each ran in. */
static void test_first_failure_waits(void **state)
{
    (void)state;
    for (int side = 0; side < 2; side++) {
        sc_direct d;
        expect_win(&BROKEN, &SLEEPY_RX, side, &d);
    }
}

/* A loser that never reads the flag only makes the race slower: its late
 * "success" and its scribbles do not replace the winner's answer. */
static void test_deaf_loser(void **state)
{
    (void)state;
    for (int side = 0; side < 2; side++) {
        sc_direct d;
        expect_win(&DEAF, &pl_solver_relaxation, side, &d);
        assert_true(d.out.iterations != 777);
    }
}

/* Relaxation and cost scaling read the flag: called (directly, so that no
 * thread schedule decides what is tested) with the flag already raised,
 * each stops with PL_ELIMIT before doing any iteration; with it lowered,
 * each solves. */
static void test_solvers_stop(void **state)
{
    (void)state;
    const pl_solver_ops *solvers[2] = {&pl_solver_relaxation, &pl_solver_cost_scaling};
    for (int i = 0; i < 2; i++) {
        for (int raised = 1; raised >= 0; raised--) {
            sc_direct d;
            atomic_int stop;
            atomic_init(&stop, raised);
            sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
            pl_solve_opts o;
            pl_solve_opts_init(&o);
            o.reserved[0] = (void *)&stop;
            pl_status st = solvers[i]->solve(&d.p, &o, &d.out);
            if (raised) {
                assert_pl_status(st, PL_ELIMIT);
                assert_non_null(strstr(pl_last_error(), "cancelled"));
            } else {
                assert_pl_ok(st);
                assert_int_equal(sc_direct_check(&d), -7);
            }
        }
    }
}

/* Both fail: the error (status and message) of the one that finished first. */
static void test_both_fail(void **state)
{
    (void)state;
    for (int side = 0; side < 2; side++) {
        sc_direct d;
        int winner = -2;
        atomic_store(&broken_done, 0);
        pl_status st = side ? race_direct(&SLEEPY_BROKEN, &BROKEN, &d, &winner)
                            : race_direct(&BROKEN, &SLEEPY_BROKEN, &d, &winner);
        assert_pl_status(st, PL_EINTERNAL);
        assert_string_equal(pl_last_error(), "broken at once");
        assert_int_equal(winner, -1);
    }
}

/* Through the network: the iteration limit applies to each entrant, and a
 * race both lose leaves no solution. */
static void test_limit(void **state)
{
    (void)state;
    pl_flownet *net = sc_classic6();
    pl_solve_opts o = sc_opts(&RACE);
    o.cold_start = 1;
    o.max_iterations = 1;
    assert_pl_status(sc_solve(net, &o, NULL, NULL), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "iteration limit 1 reached"));
    assert_false(pl_flownet_has_solution(net));
    o.max_iterations = 0;
    int64_t cost = 0;
    pl_solve_stats stats;
    assert_pl_ok(sc_solve(net, &o, &stats, &cost));
    assert_int_equal(cost, 34);
    assert_string_equal(stats.solver, "race");
    assert_true(stats.iterations > 0);
    pl_flownet_free(net);
}

/* ---- warm starts --------------------------------------------------------------------- */

/* Cost scaling alone (its rival fails at once) on the incremental path: it
 * reads contiguous copies of the network's gapped residual lists. */
static pl_status race_cs_only(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    const pl_solver_ops *ops[2] = {&BROKEN, &pl_solver_cost_scaling};
    int winner = -2;
    pl_status st = pl_race_run(ops, p, opts, out, &winner);
    return st == PL_OK && winner != 1 ? pl_solver_error(PL_EINTERNAL, "winner %d", winner) : st;
}

static const pl_solver_ops RACE_CS = {.name = "race-cs", .description = "test", .solve = race_cs_only,
                                      .flags = PL_SOLVER_WARM_START | PL_SOLVER_INCREMENTAL};

static pl_status solve_with(pl_flownet *net, const char *solver, const pl_solver_ops *ops, int cold,
                            pl_solve_stats *stats, int64_t *cost)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = solver;
    o.ops = ops;
    o.verify = 1;
    o.cold_start = cold;
    return sc_solve(net, &o, stats, cost);
}

/* The scheduler's incremental case on the largest fixture (a Firmament
 * graph, 1600 tasks; 16 tasks leave and 16 arrive per round): warm re-solves
 * by the race, by cost scaling alone inside a race, and by relaxation and
 * cost scaling after a race, each equal to a cold network-simplex solve of
 * a twin; the race's re-solves take the incremental path. */
static void test_warm_after_race(void **state)
{
    (void)state;
    static const struct { const char *solver; const pl_solver_ops *ops; int incremental; } rounds[] = {
        {"race", NULL, 1},   {"race", NULL, 1},       {NULL, &RACE_CS, 1},        {NULL, &RACE_CS, 1},
        {"race", NULL, 1},   {"relaxation", NULL, 1}, {"race", NULL, 1},          {"cost-scaling", NULL, 0},
        {"race", NULL, 0},   {"race", NULL, 1},
    };
    char path[PL_PATH_MAX];
    pl_flownet *net, *twin;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &twin));
    pl_solve_stats stats;
    int64_t cost = 0;
    assert_pl_ok(solve_with(net, "race", NULL, 0, &stats, &cost));
    assert_int_equal(cost, 1115043);
    pl_test_rng rng = {23}, rng2 = {23};
    for (size_t i = 0; i < sizeof rounds / sizeof rounds[0]; i++) {
        sc_churn(&rng, net, 16);
        sc_churn(&rng2, twin, 16);
        int64_t warm_cost = 0, cold_cost = 0;
        assert_pl_ok(solve_with(net, rounds[i].solver, rounds[i].ops, 0, &stats, &warm_cost));
        assert_int_equal(stats.warm, 1);
        if (stats.incremental != rounds[i].incremental)
            fail_msg("round %zu (%s): incremental %d", i, stats.solver, stats.incremental);
        assert_pl_ok(solve_with(twin, "network-simplex", NULL, 1, NULL, &cold_cost));
        if (warm_cost != cold_cost)
            fail_msg("round %zu (%s): warm cost %" PRId64 ", cold %" PRId64, i, stats.solver, warm_cost,
                     cold_cost);
    }
    pl_flownet_free(net);
    pl_flownet_free(twin);
}

int main(void)
{
    const struct CMUnitTest own[] = {
        cmocka_unit_test(test_loser_cancelled),  cmocka_unit_test(test_first_failure_waits),
        cmocka_unit_test(test_both_fail),        cmocka_unit_test(test_deaf_loser),
        cmocka_unit_test(test_limit),            cmocka_unit_test(test_warm_after_race),
        cmocka_unit_test(test_solvers_stop),
    };
    return sc_run_suite(&RACE, own, sizeof own / sizeof own[0]);
}
