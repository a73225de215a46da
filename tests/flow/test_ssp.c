/* Tests of the successive-shortest-paths solver ("ssp"): the shared
 * battery of common/solver_cases.h (hand-computed cases, error paths,
 * direct calls, warm re-solves), plus the amounts an infeasibility report
 * names, the dual certificate checked here, and a 200x200 assignment
 * problem checked against an independent Hungarian algorithm. */
#include <stdlib.h>
#include <string.h>
#include "../common/solver_cases.h"
#include "internal/flownet_impl.h"

/* The -7 network needs at most one augmentation per unit of supply. */
static void direct_iterations(sc_direct *d)
{
    assert_true(d->out.iterations <= 4);
}

static const sc_solver SSP = {
    .name = "ssp",
    .ops = &pl_solver_ssp,
    .flags = SC_WARM,
    /* sc_classic6() needs exactly 3 augmentations (see solver_cases.c). */
    .classic6_iterations = 3,
    .infeasible_says = "units of supply cannot reach any demand",
    .direct_checks = direct_iterations,
};

/* ---- error paths ------------------------------------------------------- */

/* The report names the supply stranded: 2 of 5 units behind a 3-unit arc;
 * directly, 7 of node 0's 9 units (arc 0->1 holds 2) plus node 3's 4 (no
 * arc leaves it). */
static void test_infeasible_amounts(void **state)
{
    (void)state;
    pl_flownet *net = sc_infeasible_net(0);
    assert_pl_status(pl_test_solve(net, "ssp", NULL), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "2 of the 5 units"));
    pl_flownet_free(net);

    sc_direct d;
    sc_direct_build(&d, 4, 2, sc_strand_tail, sc_strand_head, sc_strand_cap, sc_strand_cost, sc_strand_sup);
    assert_pl_status(pl_solver_ssp.solve(&d.p, NULL, &d.out), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "11 units"));
}

/* ---- dual certificate ---------------------------------------------------- */

/* A 30-node network from a fixed formula: an infinite positive-cost backbone
 * in both directions (so every supply is routable) plus 80 extra arcs with
 * costs in [-20, 20], some lower bounds and parallel/loop arcs. The check is
 * done here rather than trusting pl_flow_verify: flows within bounds,
 * conservation, and reduced cost cost + pi(u) - pi(v) >= 0 below the upper
 * bound and <= 0 above the lower bound. */
static pl_flownet *formula_net(void)
{
    const int32_t n = 30;
    pl_flownet *net = sc_new_net(n);
    sc_supply(net, 0, 15);
    sc_supply(net, 10, -5);
    sc_supply(net, 29, -10);
    for (int32_t v = 0; v + 1 < n; v++) {
        sc_arc(net, v, v + 1, 0, PL_CAP_INF, 50);
        sc_arc(net, v + 1, v, 0, PL_CAP_INF, 50);
    }
    for (int32_t k = 0; k < 80; k++) {
        int32_t t = (k * 7 + 3) % n, h = (k * 11 + 5) % n;
        int64_t hi = (k * 5) % 9, lo = (k % 6 == 0) ? hi / 2 : 0;
        int64_t c = ((k * 37) % 41) - 20;
        sc_arc(net, t, h, lo, hi, c);
    }
    return net;
}

static void test_potentials_certify_optimality(void **state)
{
    (void)state;
    pl_flownet *net = formula_net();
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    const int64_t *flow = pl_flownet_flows(net);
    const int64_t *pi = pl_flownet_potentials(net);
    assert_non_null(flow);
    assert_non_null(pi);
    int32_t n = pl_flownet_node_count(net), m = pl_flownet_arc_count(net);
    int64_t *bal = calloc((size_t)n, sizeof *bal);
    assert_non_null(bal);
    int64_t total = 0;
    int tight_negative = 0;
    for (int32_t a = 0; a < m; a++) {
        pl_arc_info ai;
        assert_pl_ok(pl_flownet_get_arc(net, a, &ai));
        assert_in_range(flow[a], ai.lower, ai.upper);
        int64_t rc = ai.cost + pi[ai.tail] - pi[ai.head];
        if (flow[a] < ai.upper && rc < 0)
            fail_msg("arc %d below its upper bound has reduced cost %lld", a, (long long)rc);
        if (flow[a] > ai.lower && rc > 0)
            fail_msg("arc %d above its lower bound has reduced cost %lld", a, (long long)rc);
        tight_negative += rc < 0;
        bal[ai.tail] += flow[a];
        bal[ai.head] -= flow[a];
        total += flow[a] * ai.cost;
    }
    for (int32_t v = 0; v < n; v++) {
        int64_t b;
        assert_pl_ok(pl_flownet_get_supply(net, v, &b));
        assert_int_equal(bal[v], b);
    }
    assert_int_equal(total, cost);
    /* Some arcs are held at their upper bound by a strictly negative reduced
     * cost: the certificate is not a trivial all-tight one. */
    assert_true(tight_negative > 0);
    /* The optimum, as also found by GLPK's simplex when this test was written. */
    assert_int_equal(cost, 1713);
    free(bal);
    pl_flownet_free(net);
}

/* ---- 200x200 assignment against the Hungarian algorithm ------------------ */

#define ASSIGN_N 200

/* Deterministic, irregular costs in [0, 999] (a mixing hash of i and j). */
static int64_t assign_cost(int32_t i, int32_t j)
{
    uint64_t x = (uint64_t)i * 1000003u + (uint64_t)j * 7919u + 12345u;
    x ^= x >> 16;
    x *= 0x45d9f3bu;
    x ^= x >> 16;
    x *= 0x45d9f3bu;
    x ^= x >> 16;
    return (int64_t)(x % 1000u);
}

/* Hungarian algorithm (shortest augmenting path with row/column potentials,
 * O(n^3)), 1-based as in the classical formulation; returns the minimum
 * total cost of a perfect assignment for cost c(i, j) + shift. */
static int64_t hungarian(int32_t n, int64_t shift)
{
    size_t sz = (size_t)n + 1;
    int64_t *u = calloc(sz, sizeof *u), *v = calloc(sz, sizeof *v), *minv = calloc(sz, sizeof *minv);
    int32_t *p = calloc(sz, sizeof *p), *way = calloc(sz, sizeof *way);
    char *used = calloc(sz, 1);
    assert_true(u && v && minv && p && way && used);
    for (int32_t i = 1; i <= n; i++) {
        p[0] = i;
        int32_t j0 = 0;
        for (int32_t j = 0; j <= n; j++) {
            minv[j] = INT64_MAX;
            used[j] = 0;
        }
        do {
            used[j0] = 1;
            int32_t i0 = p[j0], j1 = 0;
            int64_t delta = INT64_MAX;
            for (int32_t j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                int64_t cur = assign_cost(i0 - 1, j - 1) + shift - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int32_t j = 0; j <= n; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int32_t j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    int64_t total = 0;
    for (int32_t j = 1; j <= n; j++)
        total += assign_cost(p[j] - 1, j - 1) + shift;
    free(u);
    free(v);
    free(minv);
    free(p);
    free(way);
    free(used);
    return total;
}

/* Workers 0..n-1 (supply 1) to jobs n..2n-1 (demand 1), one unit arc each. */
static void check_assignment(int64_t shift)
{
    const int32_t n = ASSIGN_N;
    pl_flownet *net = sc_new_net(2 * n);
    assert_pl_ok(pl_flownet_reserve(net, 2 * n, n * n));
    for (int32_t i = 0; i < n; i++) {
        sc_supply(net, i, 1);
        sc_supply(net, n + i, -1);
    }
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            sc_arc(net, i, n + j, 0, 1, assign_cost(i, j) + shift);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, hungarian(n, shift));
    /* A real permutation: each job taken exactly once (workers by conservation). */
    const int64_t *flow = pl_flownet_flows(net);
    for (int32_t j = 0; j < n; j++) {
        int64_t in = 0;
        for (int32_t i = 0; i < n; i++)
            in += flow[(size_t)i * n + j];
        assert_int_equal(in, 1);
    }
    pl_flownet_free(net);
}

static void test_assignment_200(void **state)
{
    (void)state;
    check_assignment(0);
}

/* Same costs shifted to [-500, 499]: half the arcs start saturated, so the
 * solver first has to undo most of that flow. The optimum moves by exactly
 * n * shift, which the Hungarian run confirms independently. */
static void test_assignment_200_negative(void **state)
{
    (void)state;
    check_assignment(-500);
    assert_int_equal(hungarian(ASSIGN_N, -500), hungarian(ASSIGN_N, 0) - 500 * ASSIGN_N);
}

int main(void)
{
    const struct CMUnitTest own[] = {
        cmocka_unit_test(test_infeasible_amounts),
        cmocka_unit_test(test_potentials_certify_optimality),
        cmocka_unit_test(test_assignment_200),
        cmocka_unit_test(test_assignment_200_negative),
    };
    return sc_run_suite(&SSP, own, sizeof own / sizeof own[0]);
}
