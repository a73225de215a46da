/* bench/gen.c's pinning helpers, which bench-incremental --pin relies on:
 * bench_sched_placement() must turn a solution into one machine per placed
 * task that respects every machine's flow, and bench_sched_pin() must leave
 * exactly one cost-0 running arc per placed task, identically in two copies. */
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"
#include "../../bench/gen.h"

/* 24 machines of 4 slots in racks of 6 (96 slots) for 120 tasks: some wait. */
static void build(bench_sched *s)
{
    bench_sched_params p;
    bench_sched_defaults(&p);
    p.machines = 24;
    p.tasks = 120;
    p.machines_per_rack = 6;
    p.slots = 4;
    p.prefs = 4;
    p.tasks_per_job = 10;
    p.seed = 7;
    assert_pl_ok(bench_sched_build(&p, s));
}

static void solve(pl_flownet *net, const char *solver)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = solver;
    o.verify = 1;
    assert_pl_ok(pl_flownet_solve(net, &o, NULL));
}

static int64_t flow(const pl_flownet *net, int32_t arc)
{
    int64_t f;
    assert_pl_ok(pl_flownet_get_flow(net, arc, &f));
    return f;
}

static int64_t cost_of(const pl_flownet *net, int32_t arc)
{
    pl_arc_info a;
    assert_pl_ok(pl_flownet_get_arc(net, arc, &a));
    return a.cost;
}

/* Tasks per machine equal the machine -> sink flow; a task on a preferred
 * machine keeps it, one entering through a preferred rack stays in it;
 * waiting tasks are exactly those on their unscheduled arc. */
static void test_placement_matches_flow(void **state)
{
    (void)state;
    bench_sched s;
    build(&s);
    solve(s.net, "network-simplex");
    int32_t *m = malloc(sizeof *m * (size_t)s.ntasks);
    assert_non_null(m);
    assert_pl_ok(bench_sched_placement(&s, m));
    int32_t per[24] = {0}, waiting = 0;
    for (int32_t i = 0; i < s.ntasks; i++) {
        const int32_t *arcs = s.task_arcs + (size_t)i * BENCH_SCHED_MAX_TASK_ARCS;
        assert_int_equal(flow(s.net, arcs[0]) == 1, m[i] == -1); /* arcs[0]: unscheduled */
        if (m[i] < 0) {
            waiting++;
            continue;
        }
        assert_true(m[i] < 24);
        per[m[i]]++;
        for (int32_t q = 2; q < s.task_narcs[i]; q++) {
            pl_arc_info a;
            assert_pl_ok(pl_flownet_get_arc(s.net, arcs[q], &a));
            if (flow(s.net, arcs[q]) == 0)
                continue;
            if (a.head == s.machine[m[i]])
                continue;                             /* on its preferred machine */
            int32_t rack = -1;                        /* else through a preferred rack */
            for (int32_t k = 0; k < s.nracks; k++)
                if (s.rack[k] == a.head)
                    rack = k;
            assert_int_equal(rack, m[i] / 6);
        }
    }
    assert_true(waiting >= 120 - 96);
    for (int32_t k = 0; k < 24; k++) {
        int64_t out = 0;
        pl_arc_info a;
        /* the machine -> sink arc follows the rack -> machine arc */
        assert_pl_ok(pl_flownet_get_arc(s.net, s.rack_machine_arc[k] + 1, &a));
        assert_int_equal(a.tail, s.machine[k]);
        assert_int_equal(a.head, s.sink);
        out = flow(s.net, s.rack_machine_arc[k] + 1);
        assert_int_equal(per[k], out);
        assert_true(per[k] <= 4);
    }
    free(m);
    bench_sched_free(&s);
}

/* After pinning every placed task, the only costs left are the waiting
 * tasks' unscheduled arcs: the re-solve's optimum is their sum, and nothing
 * moves. Both copies get the same arc ids. */
static void test_pin_then_resolve(void **state)
{
    (void)state;
    bench_sched w, c;
    build(&w);
    build(&c);
    solve(w.net, "relaxation");
    int32_t *m = malloc(sizeof *m * (size_t)w.ntasks), *m2 = malloc(sizeof *m2 * (size_t)w.ntasks);
    assert_non_null(m);
    assert_non_null(m2);
    assert_pl_ok(bench_sched_placement(&w, m));
    int64_t expect = 0;
    int32_t placed = 0, pinned = -1;
    for (int32_t i = 0; i < w.ntasks; i++) {
        if (m[i] < 0)
            expect += cost_of(w.net, w.task_arcs[(size_t)i * BENCH_SCHED_MAX_TASK_ARCS]);
        else
            placed++;
    }
    assert_pl_ok(bench_sched_pin(&w, m, &pinned));
    assert_int_equal(pinned, placed);
    assert_pl_ok(bench_sched_pin(&c, m, NULL));
    for (int32_t i = 0; i < w.ntasks; i++) {
        if (m[i] < 0) {
            assert_int_equal(w.task_machine[i], -1);
            continue;
        }
        assert_int_equal(w.task_narcs[i], 1);
        int32_t arc = w.task_arcs[(size_t)i * BENCH_SCHED_MAX_TASK_ARCS];
        assert_int_equal(arc, c.task_arcs[(size_t)i * BENCH_SCHED_MAX_TASK_ARCS]);
        pl_arc_info a, b;
        assert_pl_ok(pl_flownet_get_arc(w.net, arc, &a));
        assert_pl_ok(pl_flownet_get_arc(c.net, arc, &b));
        assert_memory_equal(&a, &b, sizeof a);
        assert_int_equal(a.tail, w.task[i]);
        assert_int_equal(a.head, w.machine[m[i]]);
        assert_int_equal(a.cost, 0);
        assert_int_equal(a.upper, 1);
    }
    assert_int_equal(pl_flownet_arc_count(w.net), pl_flownet_arc_count(c.net));
    solve(w.net, "relaxation");                       /* warm, after the pin's changes */
    solve(c.net, "network-simplex");                  /* from scratch */
    int64_t cw, cc;
    assert_pl_ok(pl_flownet_solution_cost(w.net, &cw));
    assert_pl_ok(pl_flownet_solution_cost(c.net, &cc));
    assert_int_equal(cw, expect);
    assert_int_equal(cc, expect);
    assert_pl_ok(bench_sched_placement(&w, m2));
    for (int32_t i = 0; i < w.ntasks; i++)
        if (m[i] >= 0)
            assert_int_equal(m2[i], m[i]);
    /* Pinning again pins nothing new. */
    assert_pl_ok(bench_sched_pin(&w, m2, &pinned));
    assert_int_equal(pinned, 0);
    free(m);
    free(m2);
    bench_sched_free(&w);
    bench_sched_free(&c);
}

/* Every task's recorded arcs are live and leave it, after pins, removals
 * (the last task included) and additions. */
static void check_arc_lists(const bench_sched *s)
{
    int32_t total = 0;
    for (int32_t i = 0; i < s->ntasks; i++) {
        const int32_t *arcs = s->task_arcs + (size_t)i * BENCH_SCHED_MAX_TASK_ARCS;
        assert_true(s->task_narcs[i] >= 1);
        assert_int_equal(s->task_narcs[i] == 1, s->task_machine[i] >= 0);
        for (int32_t q = 0; q < s->task_narcs[i]; q++) {
            pl_arc_info a;
            assert_false(pl_flownet_arc_removed(s->net, arcs[q]));
            assert_pl_ok(pl_flownet_get_arc(s->net, arcs[q], &a));
            assert_int_equal(a.tail, s->task[i]);
        }
        total += s->task_narcs[i];
    }
    /* and no other arc leaves a task: the fixed arcs are X -> rack, rack ->
     * machine, machine -> sink and unscheduled -> sink */
    int32_t fixed = s->nracks + 2 * s->p.machines + s->njobs, live = 0;
    for (int32_t a = 0; a < pl_flownet_arc_count(s->net); a++)
        live += !pl_flownet_arc_removed(s->net, a);
    assert_int_equal(live, fixed + total);
}

static void test_churn_keeps_arc_lists(void **state)
{
    (void)state;
    bench_sched s;
    build(&s);
    solve(s.net, "network-simplex");
    int32_t *m = malloc(sizeof *m * 256);
    assert_non_null(m);
    int32_t pinned;
    assert_pl_ok(bench_sched_placement(&s, m));
    assert_pl_ok(bench_sched_pin(&s, m, &pinned));
    assert_true(pinned > 0);
    check_arc_lists(&s);
    assert_pl_ok(bench_sched_remove_task(&s, s.ntasks - 1)); /* the last one: nothing moves */
    assert_pl_ok(bench_sched_remove_task(&s, 0));
    assert_pl_ok(bench_sched_remove_task(&s, 5));
    for (int k = 0; k < 6; k++)
        assert_pl_ok(bench_sched_add_task(&s, -1));
    assert_int_equal(s.ntasks, 123);
    check_arc_lists(&s);
    solve(s.net, "relaxation");
    assert_pl_ok(bench_sched_placement(&s, m));
    assert_pl_ok(bench_sched_pin(&s, m, &pinned));
    check_arc_lists(&s);
    free(m);
    bench_sched_free(&s);
}

static void test_errors(void **state)
{
    (void)state;
    bench_sched s;
    build(&s);
    int32_t *m = malloc(sizeof *m * (size_t)s.ntasks);
    assert_non_null(m);
    assert_int_equal(bench_sched_placement(&s, m), PL_EINVAL); /* not solved */
    assert_non_null(strstr(pl_last_error(), "no solution"));
    for (int32_t i = 0; i < s.ntasks; i++)
        m[i] = -1;
    m[3] = 24;
    assert_int_equal(bench_sched_pin(&s, m, NULL), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "no machine 24"));
    free(m);
    bench_sched_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_placement_matches_flow),
        cmocka_unit_test(test_pin_then_resolve),
        cmocka_unit_test(test_churn_keeps_arc_lists),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
