/* Tests of the cycle-canceling solver ("cycle-canceling"): the shared
 * battery of common/solver_cases.h (hand-computed cases, error paths,
 * direct calls), plus how many cycles it cancels, the amount an
 * infeasibility report names, and random tiny networks against brute
 * force. Every solve goes through the certificate check (opts.verify). */
#include <stdlib.h>
#include <string.h>
#include "../common/solver_cases.h"
#include "internal/flownet_impl.h"

static const sc_solver CC = {
    .name = "cycle-canceling",
    .ops = &pl_solver_cycle_canceling,
    .flags = SC_UNSHIFTED,
    .infeasible_says = "units of supply cannot reach",
    .limit_says = "max_iterations",
};

/* Solve with explicit options; returns the status, fills stats. */
static pl_status solve_opts(pl_flownet *net, int64_t max_iter, pl_solve_stats *stats)
{
    pl_solve_opts o = sc_opts(&CC);
    o.max_iterations = max_iter;
    return sc_solve(net, &o, stats, NULL);
}

/* The circulation of sc_circulation_net() is the only negative cycle:
 * exactly one is cancelled. */
static void test_one_cycle_cancelled(void **state)
{
    (void)state;
    pl_flownet *net = sc_circulation_net();
    pl_solve_stats stats;
    assert_pl_ok(solve_opts(net, 0, &stats));
    assert_int_equal(stats.iterations, 1);
    assert_string_equal(stats.solver, CC.name);
    pl_flownet_free(net);
}

/* The report names how much supply cannot be routed: 3 of 10 units (min
 * cut 7). */
static void test_infeasible_amount(void **state)
{
    (void)state;
    pl_flownet *net = sc_infeasible_net(4);
    pl_solve_stats stats;
    assert_pl_status(solve_opts(net, 0, &stats), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "3 of the 10 units"));
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* Three disjoint triangles with costs (-3, 1, 1), i.e. -1 per unit, and
 * uniform capacities 1, 2, 3. Zero supplies make the feasible flow 0; each
 * triangle is the only negative cycle of its component and one
 * cancellation saturates it, so exactly 3 cycles are cancelled, for a cost
 * of -1 - 2 - 3 = -6. A limit of 2 stops short, a limit of 3 does not. */
static pl_flownet *three_triangles(void)
{
    pl_flownet *net = sc_new_net(9);
    for (int32_t k = 0; k < 3; k++) {
        int32_t b = 3 * k;
        sc_arc(net, b, b + 1, 0, k + 1, -3);
        sc_arc(net, b + 1, b + 2, 0, k + 1, 1);
        sc_arc(net, b + 2, b, 0, k + 1, 1);
    }
    return net;
}

static void test_max_iterations(void **state)
{
    (void)state;
    pl_flownet *net = three_triangles();
    pl_solve_stats stats;

    assert_pl_status(solve_opts(net, 2, &stats), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "max_iterations"));
    assert_false(pl_flownet_has_solution(net));
    assert_int_equal(stats.iterations, 2);

    assert_pl_ok(solve_opts(net, 3, &stats));
    assert_int_equal(stats.iterations, 3);
    int64_t cost = 0;
    assert_pl_ok(pl_flownet_solution_cost(net, &cost));
    assert_int_equal(cost, -6);

    assert_pl_ok(solve_opts(net, 0, &stats));
    assert_int_equal(stats.iterations, 3);
    pl_flownet_free(net);
}

/* ---- brute force on tiny random networks ------------------------------ */

#define BF_MAX_ARCS 6

typedef struct bf_net {
    int32_t n, m;
    int32_t tail[BF_MAX_ARCS], head[BF_MAX_ARCS];
    int64_t lower[BF_MAX_ARCS], upper[BF_MAX_ARCS], cost[BF_MAX_ARCS];
    int64_t supply[4];
} bf_net;

/* Enumerate every integer flow within the bounds; *found = 0 if none meets
 * the supplies. */
static int64_t brute_force(const bf_net *g, int *found)
{
    int64_t f[BF_MAX_ARCS], best = INT64_MAX;
    for (int32_t a = 0; a < g->m; a++)
        f[a] = g->lower[a];
    *found = 0;
    for (;;) {
        int64_t bal[4] = {0}, cost = 0;
        for (int32_t a = 0; a < g->m; a++) {
            bal[g->tail[a]] += f[a];
            bal[g->head[a]] -= f[a];
            cost += f[a] * g->cost[a];
        }
        int ok = 1;
        for (int32_t v = 0; v < g->n; v++)
            ok &= bal[v] == g->supply[v];
        if (ok && cost < best) {
            best = cost;
            *found = 1;
        }
        int32_t a = 0;
        while (a < g->m && f[a] == g->upper[a])
            f[a] = g->lower[a], a++;
        if (a == g->m)
            return best;
        f[a]++;
    }
}

static void random_bf_net(pl_test_rng *r, bf_net *g)
{
    g->n = (int32_t)pl_test_range(r, 2, 4);
    g->m = (int32_t)pl_test_range(r, 1, BF_MAX_ARCS);
    int64_t flow[BF_MAX_ARCS];
    for (int32_t a = 0; a < g->m; a++) {
        g->tail[a] = (int32_t)pl_test_range(r, 0, g->n - 1);
        g->head[a] = (int32_t)pl_test_range(r, 0, g->n - 1);
        g->lower[a] = pl_test_range(r, 0, 3) == 0 ? pl_test_range(r, 1, 2) : 0;
        g->upper[a] = g->lower[a] + pl_test_range(r, 0, 3);
        g->cost[a] = pl_test_range(r, -5, 5);
        flow[a] = pl_test_range(r, g->lower[a], g->upper[a]);
    }
    memset(g->supply, 0, sizeof g->supply);
    if (pl_test_range(r, 0, 3) > 0) {
        /* Supplies of a random flow within the bounds: feasible. */
        for (int32_t a = 0; a < g->m; a++) {
            g->supply[g->tail[a]] += flow[a];
            g->supply[g->head[a]] -= flow[a];
        }
    } else {
        int64_t u = pl_test_range(r, 1, 4);
        g->supply[pl_test_range(r, 0, g->n - 1)] += u;
        g->supply[pl_test_range(r, 0, g->n - 1)] -= u;
    }
}

static pl_flownet *bf_to_net(const bf_net *g)
{
    pl_flownet *net = sc_new_net(g->n);
    for (int32_t v = 0; v < g->n; v++)
        sc_supply(net, v, g->supply[v]);
    for (int32_t a = 0; a < g->m; a++)
        sc_arc(net, g->tail[a], g->head[a], g->lower[a], g->upper[a], g->cost[a]);
    return net;
}

/* Random networks with loops, parallel arcs, lower bounds and negative
 * costs: same optimal cost as exhaustive enumeration, or both infeasible. */
static void test_random_brute_force(void **state)
{
    (void)state;
    pl_test_rng rng = {987654321};
    int solved = 0, infeasible = 0;
    for (int iter = 0; iter < 3000; iter++) {
        bf_net g;
        random_bf_net(&rng, &g);
        int found;
        int64_t want = brute_force(&g, &found);
        pl_flownet *net = bf_to_net(&g);
        int64_t cost = 0;
        pl_status st = pl_test_solve(net, CC.name, &cost);
        if (!found) {
            if (st != PL_EINFEASIBLE)
                fail_msg("iteration %d: %s, brute force finds no feasible flow", iter,
                         pl_status_name(st));
            infeasible++;
        } else {
            if (st != PL_OK)
                fail_msg("iteration %d: %s (%s), brute force cost %lld", iter,
                         pl_status_name(st), pl_last_error(), (long long)want);
            if (cost != want)
                fail_msg("iteration %d: cost %lld, brute force %lld", iter, (long long)cost,
                         (long long)want);
            solved++;
        }
        pl_flownet_free(net);
    }
    assert_true(solved > 1000);
    assert_true(infeasible > 100);
}

int main(void)
{
    const struct CMUnitTest own[] = {
        cmocka_unit_test(test_one_cycle_cancelled),
        cmocka_unit_test(test_infeasible_amount),
        cmocka_unit_test(test_max_iterations),
        cmocka_unit_test(test_random_brute_force),
    };
    return sc_run_suite(&CC, own, sizeof own / sizeof own[0]);
}
