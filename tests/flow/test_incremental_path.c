/* The incremental path of pl_flownet_solve() (lib/flow/incremental.c): when
 * it is taken (stats.incremental), when it must not be, and that it always
 * lands on the optimum of a from-scratch solve of a twin network that got
 * the same changes. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "../common/testutil.h"

#define MACHINES 6
#define SLOTS 2
#define MAX_TASKS 512

/* A small Firmament-style graph: task -> unscheduled -> sink, task -> X ->
 * machine -> sink, task -> preferred machine. Built twice, identically. */
typedef struct twin {
    pl_flownet *net[2]; /* [0] re-solved warm, [1] solved from scratch */
    int32_t sink, x, unsched, machine[MACHINES];
    int32_t task[MAX_TASKS];
    int ntasks;
    pl_test_rng rng;
} twin;

#define EACH(t, call) do { for (int k_ = 0; k_ < 2; k_++) { pl_flownet *net = (t)->net[k_]; \
        assert_pl_ok(call); } } while (0)

static int64_t supply_of(pl_flownet *net, int32_t v)
{
    int64_t b;
    assert_pl_ok(pl_flownet_get_supply(net, v, &b));
    return b;
}

static void add_task(twin *t)
{
    int32_t v[2];
    for (int k = 0; k < 2; k++)
        assert_pl_ok(pl_flownet_add_node(t->net[k], NULL, 1, &v[k]));
    assert_int_equal(v[0], v[1]);
    EACH(t, pl_flownet_set_supply(net, t->sink, supply_of(net, t->sink) - 1));
    int64_t cu = pl_test_range(&t->rng, 40, 60), cx = pl_test_range(&t->rng, 10, 20);
    int32_t pm = t->machine[pl_test_range(&t->rng, 0, MACHINES - 1)];
    int64_t cp = pl_test_range(&t->rng, 0, 8);
    EACH(t, pl_flownet_add_arc(net, v[0], t->unsched, 0, 1, cu, NULL));
    EACH(t, pl_flownet_add_arc(net, v[0], t->x, 0, 1, cx, NULL));
    EACH(t, pl_flownet_add_arc(net, v[0], pm, 0, 1, cp, NULL));
    t->task[t->ntasks++] = v[0];
}

static void remove_task(twin *t)
{
    int i = (int)pl_test_range(&t->rng, 0, t->ntasks - 1);
    EACH(t, pl_flownet_remove_node(net, t->task[i]));
    EACH(t, pl_flownet_set_supply(net, t->sink, supply_of(net, t->sink) + 1));
    t->task[i] = t->task[--t->ntasks];
}

static void twin_init(twin *t, int tasks, uint64_t seed)
{
    memset(t, 0, sizeof *t);
    t->rng.s = seed;
    for (int k = 0; k < 2; k++) {
        pl_flownet *net;
        assert_pl_ok(pl_flownet_create(&net));
        t->net[k] = net;
        assert_pl_ok(pl_flownet_add_node(net, "sink", 0, &t->sink));
        assert_pl_ok(pl_flownet_add_node(net, "X", 0, &t->x));
        assert_pl_ok(pl_flownet_add_node(net, "U", 0, &t->unsched));
        assert_pl_ok(pl_flownet_add_arc(net, t->unsched, t->sink, 0, PL_CAP_INF, 0, NULL));
        for (int i = 0; i < MACHINES; i++) {
            assert_pl_ok(pl_flownet_add_node(net, NULL, 0, &t->machine[i]));
            assert_pl_ok(pl_flownet_add_arc(net, t->x, t->machine[i], 0, SLOTS, i, NULL));
            assert_pl_ok(pl_flownet_add_arc(net, t->machine[i], t->sink, 0, SLOTS, 0, NULL));
        }
    }
    for (int i = 0; i < tasks; i++)
        add_task(t);
}

static void twin_free(twin *t)
{
    pl_flownet_free(t->net[0]);
    pl_flownet_free(t->net[1]);
}

/* Solve both copies (the first warm with `solver`, the second from scratch
 * with network simplex); assert the same cost and a valid certificate, and
 * return whether the warm solve took the incremental path. */
static int solve_twin(twin *t, const char *solver)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.verify = 1;
    o.solver = solver;
    pl_solve_stats sw, sc;
    assert_pl_ok(pl_flownet_solve(t->net[0], &o, &sw));
    o.solver = "network-simplex";
    o.cold_start = 1;
    assert_pl_ok(pl_flownet_solve(t->net[1], &o, &sc));
    assert_int_equal(sc.incremental, 0);
    int64_t cw, cc;
    assert_pl_ok(pl_flownet_solution_cost(t->net[0], &cw));
    assert_pl_ok(pl_flownet_solution_cost(t->net[1], &cc));
    assert_int_equal(cw, cc);
    /* The lazily computed cost is the flows' cost. */
    const int64_t *f = pl_flownet_flows(t->net[0]);
    int64_t sum = 0;
    for (int32_t a = 0; a < pl_flownet_arc_count(t->net[0]); a++) {
        pl_arc_info info;
        if (pl_flownet_arc_removed(t->net[0], a))
            continue;
        assert_pl_ok(pl_flownet_get_arc(t->net[0], a, &info));
        sum += f[a] * info.cost;
    }
    assert_int_equal(sum, cw);
    return sw.incremental;
}

/* Build the twin and solve it once with relaxation: that full solve arms
 * the warm copy. */
static void twin_armed(twin *t, int tasks, uint64_t seed)
{
    twin_init(t, tasks, seed);
    assert_int_equal(solve_twin(t, "relaxation"), 0);
}

/* Churn of every kind keeps the incremental path, round after round. */
static void test_taken_under_churn(void **s)
{
    (void)s;
    twin t;
    twin_init(&t, 10, 1);
    assert_int_equal(solve_twin(&t, "relaxation"), 0); /* the first solve arms */
    for (int round = 0; round < 40; round++) {
        switch (round % 5) {
        case 0: remove_task(&t); add_task(&t); break;
        case 1: add_task(&t); break;
        case 2: remove_task(&t); break;
        case 3: { /* a machine's cost and capacity move */
            int32_t m = t.machine[pl_test_range(&t.rng, 0, MACHINES - 1)];
            int32_t a = -1;
            for (int32_t b = 0; b < pl_flownet_arc_count(t.net[0]) && a < 0; b++) {
                pl_arc_info info;
                if (!pl_flownet_arc_removed(t.net[0], b) && pl_flownet_get_arc(t.net[0], b, &info) == PL_OK &&
                    info.tail == m)
                    a = b;
            }
            assert_true(a >= 0);
            int64_t up = pl_test_range(&t.rng, 0, 3);
            EACH(&t, pl_flownet_set_arc_bounds(net, a, 0, up));
            break;
        }
        default: { /* a task's X arc gets dearer or cheaper */
            int32_t v = t.task[pl_test_range(&t.rng, 0, t.ntasks - 1)];
            for (int32_t b = 0; b < pl_flownet_arc_count(t.net[0]); b++) {
                pl_arc_info info;
                if (!pl_flownet_arc_removed(t.net[0], b) && pl_flownet_get_arc(t.net[0], b, &info) == PL_OK &&
                    info.tail == v && info.head == t.x) {
                    int64_t c = pl_test_range(&t.rng, 0, 70);
                    EACH(&t, pl_flownet_set_arc_cost(net, b, c));
                }
            }
            break;
        }
        }
        if (!solve_twin(&t, "relaxation"))
            fail_msg("round %d: the re-solve did not take the incremental path", round);
    }
    twin_free(&t);
}

/* A lower bound disarms the network (full path, still right) until it is
 * gone and one full solve has re-armed it. */
static void test_lower_bound_disarms(void **s)
{
    (void)s;
    twin t;
    twin_armed(&t, 8, 2);
    int32_t a;
    assert_pl_ok(pl_flownet_add_arc(t.net[0], t.x, t.machine[0], 1, 2, 3, &a));
    assert_pl_ok(pl_flownet_add_arc(t.net[1], t.x, t.machine[0], 1, 2, 3, NULL));
    assert_int_equal(solve_twin(&t, "relaxation"), 0);
    remove_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 0); /* still a lower bound */
    EACH(&t, pl_flownet_set_arc_bounds(net, a, 0, 2));
    assert_int_equal(solve_twin(&t, "relaxation"), 0); /* the full solve that re-arms */
    add_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 1);
    twin_free(&t);
}

/* Another solver in between takes the full path and disarms; relaxation
 * re-arms on its next (full) solve. So does a cold start. */
static void test_other_solver_and_cold_start(void **s)
{
    (void)s;
    twin t;
    twin_armed(&t, 9, 3);
    add_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 1);
    remove_task(&t);
    assert_int_equal(solve_twin(&t, "network-simplex"), 0);
    add_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 0);
    add_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 1);
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = "relaxation";
    o.cold_start = 1;
    pl_solve_stats st;
    assert_pl_ok(pl_flownet_solve(t.net[0], &o, &st));
    assert_int_equal(st.incremental, 0);
    remove_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 1);
    twin_free(&t);
}

/* Changing more than a quarter of the arcs takes the full path. */
static void test_many_changes_full_path(void **s)
{
    (void)s;
    twin t;
    twin_armed(&t, 30, 4);
    int32_t m = pl_flownet_arc_count(t.net[0]);
    for (int32_t a = 0; a < m; a++)
        if (!pl_flownet_arc_removed(t.net[0], a)) {
            int64_t c = pl_test_range(&t.rng, 0, 30);
            EACH(&t, pl_flownet_set_arc_cost(net, a, c));
        }
    assert_int_equal(solve_twin(&t, "relaxation"), 0);
    add_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 1);
    twin_free(&t);
}

/* A node gaining hundreds of arcs outgrows its list's room again and again
 * (the list moves, then the pool is compacted by a full solve); the answers
 * stay right and most re-solves stay incremental. */
static void test_hub_growth(void **s)
{
    (void)s;
    twin t;
    twin_armed(&t, 4, 5);
    int incremental = 0, rounds = 60;
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < 8; i++)
            add_task(&t); /* each task adds an arc into X and U */
        for (int i = 0; i < 7; i++)
            remove_task(&t);
        incremental += solve_twin(&t, "relaxation");
    }
    assert_true(t.ntasks > 60);
    if (incremental < rounds / 2)
        fail_msg("only %d of %d re-solves were incremental", incremental, rounds);
    twin_free(&t);
}

/* Unbalanced supplies are reported as by a full solve; once mended, the
 * network is armed again after one full solve. */
static void test_infeasible_then_mended(void **s)
{
    (void)s;
    twin t;
    twin_armed(&t, 6, 6);
    int64_t b = supply_of(t.net[0], t.sink);
    assert_pl_ok(pl_flownet_set_supply(t.net[0], t.sink, b - 1));
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = "relaxation";
    assert_pl_status(pl_flownet_solve(t.net[0], &o, NULL), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "sum to"));
    assert_pl_ok(pl_flownet_set_supply(t.net[0], t.sink, b));
    assert_int_equal(solve_twin(&t, "relaxation"), 0);
    remove_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 1);
    twin_free(&t);
}

/* The DIMACS solution line carries the lazily computed cost. */
static void test_solution_file_after_incremental(void **s)
{
    (void)s;
    twin t;
    twin_armed(&t, 7, 7);
    add_task(&t);
    assert_int_equal(solve_twin(&t, "relaxation"), 1);
    int64_t cost;
    assert_pl_ok(pl_flownet_solution_cost(t.net[0], &cost));
    char buf[4096] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(f);
    assert_pl_ok(pl_flownet_write_solution(t.net[0], f));
    fclose(f);
    char want[64];
    snprintf(want, sizeof want, "s %" PRId64 "\n", cost);
    assert_true(strncmp(buf, want, strlen(want)) == 0);
    twin_free(&t);
}

/* A total cost beyond int64 after an incremental solve is reported by the
 * cost query (the full path reports it from the solve itself). */
static void test_cost_overflow_reported_lazily(void **s)
{
    (void)s;
    pl_flownet *net;
    int32_t a;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_ok(pl_flownet_add_node(net, NULL, 1024, NULL));
    assert_pl_ok(pl_flownet_add_node(net, NULL, -1024, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, 2048, 1, &a));
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = "relaxation";
    pl_solve_stats st;
    assert_pl_ok(pl_flownet_solve(net, &o, &st));
    assert_int_equal(st.incremental, 0);
    assert_pl_ok(pl_flownet_set_arc_cost(net, a, (int64_t)1 << 58));
    assert_pl_ok(pl_flownet_solve(net, &o, &st));
    assert_int_equal(st.incremental, 1);
    int64_t cost;
    assert_pl_status(pl_flownet_solution_cost(net, &cost), PL_EOVERFLOW);
    /* The same network solved in full fails in the solve. */
    o.cold_start = 1;
    assert_pl_status(pl_flownet_solve(net, &o, &st), PL_EOVERFLOW);
    pl_flownet_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_taken_under_churn),
        cmocka_unit_test(test_lower_bound_disarms),
        cmocka_unit_test(test_other_solver_and_cold_start),
        cmocka_unit_test(test_many_changes_full_path),
        cmocka_unit_test(test_hub_growth),
        cmocka_unit_test(test_infeasible_then_mended),
        cmocka_unit_test(test_solution_file_after_incremental),
        cmocka_unit_test(test_cost_overflow_reported_lazily),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
