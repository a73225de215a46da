/* Tests of the cost-scaling solver ("cost-scaling"): hand-computed optima on
 * small networks covering each feature of the normalised problem, the error
 * paths (infeasible, unbounded, iteration limit, bad scaling factor, price
 * overflow), direct calls on a normalised problem (certificate, warm start
 * from an optimal or unusable starting point, memory report), every
 * Firmament fixture, agreement with "ssp" on hundreds of random networks, and
 * warm re-solves after random changes against cold solves. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"
#include "flow/flownet_impl.h"

#define CS "cost-scaling"

/* ---- helpers ------------------------------------------------------------- */

static pl_flownet *new_net(int32_t nodes)
{
    pl_flownet *net = NULL;
    assert_pl_ok(pl_flownet_create(&net));
    if (nodes > 0)
        assert_pl_ok(pl_flownet_add_nodes(net, nodes, NULL));
    return net;
}

static int32_t arc(pl_flownet *net, int32_t t, int32_t h, int64_t lo, int64_t hi, int64_t cost)
{
    int32_t id = -1;
    assert_pl_ok(pl_flownet_add_arc(net, t, h, lo, hi, cost, &id));
    return id;
}

static void supply(pl_flownet *net, int32_t node, int64_t b)
{
    assert_pl_ok(pl_flownet_set_supply(net, node, b));
}

static int64_t flow_of(const pl_flownet *net, int32_t a)
{
    int64_t f = -1;
    assert_pl_ok(pl_flownet_get_flow(net, a, &f));
    return f;
}

static void assert_flows(const pl_flownet *net, const int64_t *want, int32_t m)
{
    for (int32_t a = 0; a < m; a++)
        if (flow_of(net, a) != want[a])
            fail_msg("arc %d carries %lld, want %lld", a, (long long)flow_of(net, a),
                     (long long)want[a]);
}

/* Solve with cost scaling and the certificate check; returns the status. */
static pl_status solve_cs(pl_flownet *net, int scaling, int64_t limit, int cold,
                          pl_solve_stats *stats, int64_t *cost)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = CS;
    o.verify = 1;
    o.scaling_factor = scaling;
    o.max_iterations = limit;
    o.cold_start = cold;
    pl_status st = pl_flownet_solve(net, &o, stats);
    if (st == PL_OK && cost)
        st = pl_flownet_solution_cost(net, cost);
    return st;
}

static void expect_cost(pl_flownet *net, int64_t want)
{
    int64_t cost = 0;
    assert_pl_ok(solve_cs(net, 0, 0, 0, NULL, &cost));
    assert_int_equal(cost, want);
}

static void test_registered(void **state)
{
    (void)state;
    const pl_solver_ops *ops = NULL;
    assert_pl_ok(pl_solver_find(CS, &ops));
    assert_ptr_equal(ops, &pl_solver_cost_scaling);
    assert_string_equal(ops->name, CS);
    assert_true(ops->flags & PL_SOLVER_WARM_START);
    assert_null(ops->free_state);
    assert_true(strlen(ops->description) > 10);
}

/* ---- small hand-computed networks --------------------------------------- */

/* 0 ships 5 units to 5.
 *   a0 0->1 cap 4 cost 1    a4 2->4 cap 4 cost 1
 *   a1 0->2 cap 3 cost 4    a5 3->5 cap 4 cost 1
 *   a2 1->2 cap 2 cost 2    a6 4->3 cap 2 cost 1
 *   a3 1->3 cap 3 cost 5    a7 4->5 cap 2 cost 3
 * Cheapest routes in turn: 0-1-2-4-3-5 (6, 2 units: a2 and a6 full),
 * 0-1-3-5 (7, 2 units: a0 and a5 full), 0-2-4-5 (8, 1 unit): 34.
 * Potentials pi = (0, 1.5, 4, 6.5, 5, 8) (times 2 for integers) give reduced
 * cost 0 on a1, a3, a4, a7 and < 0 on the four full arcs, so the optimum is
 * unique: flows 4 1 2 2 3 4 2 1. */
static pl_flownet *classic6(void)
{
    pl_flownet *net = new_net(6);
    supply(net, 0, 5);
    supply(net, 5, -5);
    arc(net, 0, 1, 0, 4, 1);
    arc(net, 0, 2, 0, 3, 4);
    arc(net, 1, 2, 0, 2, 2);
    arc(net, 1, 3, 0, 3, 5);
    arc(net, 2, 4, 0, 4, 1);
    arc(net, 3, 5, 0, 4, 1);
    arc(net, 4, 3, 0, 2, 1);
    arc(net, 4, 5, 0, 2, 3);
    return net;
}

static void test_classic_six_nodes(void **state)
{
    (void)state;
    pl_flownet *net = classic6();
    expect_cost(net, 34);
    static const int64_t want[] = {4, 1, 2, 2, 3, 4, 2, 1};
    assert_flows(net, want, 8);
    pl_flownet_free(net);
}

/* 0 ships 4 units to 3.
 *   a0 0->1 cap 3 cost -2   a3 2->3 cap 5 cost 1
 *   a1 1->3 cap 3 cost 1    a4 1->2 cap 2 cost -3
 *   a2 0->2 cap 5 cost 1    a5 2->1 cap 9 cost 4
 * Node 1 takes at most 3 units (a0, -2 each); from it 1-2-3 costs -2 (2
 * units, a4) and 1-3 costs 1: 3 units for 2*(-4) + (-1) = -9. The 4th goes
 * 0-2-3 for 2. a5 would only close the positive cycle 1-2-1. Optimum -7,
 * flows 3 1 1 3 2 0. */
static void test_negative_costs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 4);
    supply(net, 3, -4);
    arc(net, 0, 1, 0, 3, -2);
    arc(net, 1, 3, 0, 3, 1);
    arc(net, 0, 2, 0, 5, 1);
    arc(net, 2, 3, 0, 5, 1);
    arc(net, 1, 2, 0, 2, -3);
    arc(net, 2, 1, 0, 9, 4);
    expect_cost(net, -7);
    static const int64_t want[] = {3, 1, 1, 3, 2, 0};
    assert_flows(net, want, 6);
    pl_flownet_free(net);
}

/* No supply; only negative cycles of finite capacity pay.
 *   a0 0->1 cap 2 cost 1, a1 1->2 cap 3 cost -4, a2 2->0 cap 5 cost 1,
 *   a3 2->1 cap 10 cost 3.
 * Each unit on a1 (-4, cap 3) returns to 1 either by 2-0-1 (cost 2, cap 2:
 * cycle -2) or by a3 (cost 3: cycle -1): 2 units the first way, 1 the second,
 * -5 in all, flows 2 3 2 1. */
static void test_negative_cycle_finite(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    arc(net, 0, 1, 0, 2, 1);
    arc(net, 1, 2, 0, 3, -4);
    arc(net, 2, 0, 0, 5, 1);
    arc(net, 2, 1, 0, 10, 3);
    expect_cost(net, -5);
    static const int64_t want[] = {2, 3, 2, 1};
    assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* 0 ships 3 units to 2.
 *   a0 0->1 [2,5] cost 3,  a1 0->2 [0,5] cost 1,  a2 1->2 [0,5] cost 1,
 *   a3 2->0 [1,4] cost 2.
 * Forced: 2 units on 0-1-2 (8) and 1 unit back on a3 (2); the 1 remaining
 * unit of supply and the unit a3 brings back take a1 (2). Anything more only
 * adds positive cycles: 12, flows 2 2 2 1. */
static void test_lower_bounds(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 3);
    supply(net, 2, -3);
    arc(net, 0, 1, 2, 5, 3);
    arc(net, 0, 2, 0, 5, 1);
    arc(net, 1, 2, 0, 5, 1);
    arc(net, 2, 0, 1, 4, 2);
    expect_cost(net, 12);
    static const int64_t want[] = {2, 2, 2, 1};
    assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* 5 units from 0 to 1 over parallel arcs (cap, cost): (2, 5), (3, 1),
 * (1, 2), (1, -1). Cheapest first: -1 + 3 + 2 = 4. */
static void test_parallel_arcs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(2);
    supply(net, 0, 5);
    supply(net, 1, -5);
    arc(net, 0, 1, 0, 2, 5);
    arc(net, 0, 1, 0, 3, 1);
    arc(net, 0, 1, 0, 1, 2);
    arc(net, 0, 1, 0, 1, -1);
    expect_cost(net, 4);
    static const int64_t want[] = {0, 3, 1, 1};
    assert_flows(net, want, 4);
    pl_flownet_free(net);
}

/* Loops move no flow between nodes: each is set on its own.
 *   a0 loop at 0 cap 5 cost -3 -> full (-15); a1 loop at 0 cap 4 cost 2 ->
 *   empty; a2 loop at 1 cap 0 cost -7 -> empty; a3 loop at 1 [3,6] cost 4 ->
 *   at its lower bound (12); a4 0->1 cap 2 cost 1 carries the supply (2).
 * Optimum -1. */
static void test_loop_arcs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(2);
    supply(net, 0, 2);
    supply(net, 1, -2);
    arc(net, 0, 0, 0, 5, -3);
    arc(net, 0, 0, 0, 4, 2);
    arc(net, 1, 1, 0, 0, -7);
    arc(net, 1, 1, 3, 6, 4);
    arc(net, 0, 1, 0, 2, 1);
    expect_cost(net, -1);
    static const int64_t want[] = {5, 0, 0, 3, 2};
    assert_flows(net, want, 5);
    pl_flownet_free(net);
}

/* Zero-capacity arcs cannot be used however cheap:
 *   a0 0->1 cap 0 cost -10, a1 0->2 cap 0 cost -5, a2 0->1 cap 3 cost 2,
 *   a3 1->2 cap 5 cost 1, a4 0->2 cap 9 cost 4.
 * 3 units 0 -> 2: 0-1-2 at 3 per unit beats 4 and holds all of them: 9. */
static void test_zero_capacity_arcs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 3);
    supply(net, 2, -3);
    arc(net, 0, 1, 0, 0, -10);
    arc(net, 0, 2, 0, 0, -5);
    arc(net, 0, 1, 0, 3, 2);
    arc(net, 1, 2, 0, 5, 1);
    arc(net, 0, 2, 0, 9, 4);
    expect_cost(net, 9);
    static const int64_t want[] = {0, 0, 3, 3, 0};
    assert_flows(net, want, 5);
    pl_flownet_free(net);
}

/* Transportation, infinite arcs: sources 0 (5) and 1 (4), sinks 2 (-3),
 * 3 (-4), 4 (-2); costs from 0: 4 6 9, from 1: 5 3 8. Source 1 saves 3 at
 * sink 3, so it sends its 4 units there (12); source 0 serves sinks 2 and 4
 * (12 + 18). Every one-unit exchange costs more (e.g. 8 + 6 > 3 + 9): 42. */
static void test_several_sources_and_sinks(void **state)
{
    (void)state;
    pl_flownet *net = new_net(5);
    supply(net, 0, 5);
    supply(net, 1, 4);
    supply(net, 2, -3);
    supply(net, 3, -4);
    supply(net, 4, -2);
    static const int64_t c[2][3] = {{4, 6, 9}, {5, 3, 8}};
    for (int32_t s = 0; s < 2; s++)
        for (int32_t t = 0; t < 3; t++)
            arc(net, s, 2 + t, 0, PL_CAP_INF, c[s][t]);
    expect_cost(net, 42);
    static const int64_t want[] = {3, 0, 2, 0, 4, 0};
    assert_flows(net, want, 6);
    pl_flownet_free(net);
}

/* An infinite arc of negative cost without a negative cycle: refine
 * saturates it at the normaliser's finite "infinity" and has to send nearly
 * all of that back.
 *   a0 0->1 inf cost -3, a1 1->2 cap 4 cost 1, a2 1->0 cap 5 cost 5.
 * 2 units go 0-1-2 (-2 each); 0-1-0 costs +2, so a2 stays empty: -4. */
static void test_negative_infinite_arc(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 2);
    supply(net, 2, -2);
    arc(net, 0, 1, 0, PL_CAP_INF, -3);
    arc(net, 1, 2, 0, 4, 1);
    arc(net, 1, 0, 0, 5, 5);
    expect_cost(net, -4);
    static const int64_t want[] = {2, 2, 0};
    assert_flows(net, want, 3);
    pl_flownet_free(net);
}

/* All costs zero: the first (and only) phase is eps = 1, a plain
 * feasibility problem. 3 units 0 -> 3 over two routes of capacity 2. */
static void test_zero_costs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 3);
    supply(net, 3, -3);
    arc(net, 0, 1, 0, 2, 0);
    arc(net, 1, 3, 0, 2, 0);
    arc(net, 0, 2, 0, 2, 0);
    arc(net, 2, 3, 0, 2, 0);
    expect_cost(net, 0);
    assert_int_equal(flow_of(net, 0) + flow_of(net, 2), 3);
    pl_flownet_free(net);
}

/* Costs at the library's limit (n * |cost| <= 2^60 with n = 3): scaled by
 * n + 1 = 4 they reach 2^61 - 4, and the exact answer must still come out.
 * 0 -> 2 directly at C or via 1 at C - 1 + (-(C - 3)) = 2: 2 units, the
 * cheap route holds 1. Cost 2 + C. */
static void test_huge_costs(void **state)
{
    (void)state;
    const int64_t C = ((int64_t)1 << 60) / 3;
    pl_flownet *net = new_net(3);
    supply(net, 0, 2);
    supply(net, 2, -2);
    arc(net, 0, 2, 0, 5, C);
    arc(net, 0, 1, 0, 1, C - 1);
    arc(net, 1, 2, 0, 5, -(C - 3));
    expect_cost(net, C + 2);
    pl_flownet_free(net);
}

/* A chain of 9 arcs of cost C = 2^60 / 10 on 10 nodes is within the
 * library's limits (the cost of the path, 0.9 * 2^60, fits), but its
 * potentials scaled by n + 1 = 11 reach about 10 * 2^60 > 2^62: the solver
 * must say PL_EOVERFLOW instead of wrapping. ssp solves it. */
static void test_price_overflow(void **state)
{
    (void)state;
    const int64_t C = ((int64_t)1 << 60) / 10;
    pl_flownet *net = new_net(10);
    supply(net, 0, 1);
    supply(net, 9, -1);
    for (int32_t v = 0; v < 9; v++)
        arc(net, v, v + 1, 0, 1, C);
    assert_pl_status(solve_cs(net, 0, 0, 1, NULL, NULL), PL_EOVERFLOW);
    assert_non_null(strstr(pl_last_error(), "int64"));
    assert_false(pl_flownet_has_solution(net));
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 9 * C);
    pl_flownet_free(net);
}

/* ---- error paths ------------------------------------------------------- */

static void test_infeasible(void **state)
{
    (void)state;
    /* Capacity: 5 units but the only route holds 3. */
    pl_flownet *net = new_net(3);
    supply(net, 0, 5);
    supply(net, 2, -5);
    arc(net, 0, 1, 0, 3, 1);
    arc(net, 1, 2, 0, 10, 1);
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EINFEASIBLE);
    assert_true(strlen(pl_last_error()) > 0);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);

    /* A supply node with no arc at all. */
    net = new_net(3);
    supply(net, 0, 1);
    supply(net, 2, -1);
    arc(net, 1, 2, 0, 10, 1);
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EINFEASIBLE);
    pl_flownet_free(net);

    /* Arcs everywhere but the wrong way round, with negative costs that
     * invite circulation. */
    net = new_net(4);
    supply(net, 0, 2);
    supply(net, 3, -2);
    arc(net, 3, 0, 0, 5, -1);
    arc(net, 0, 1, 0, 5, -2);
    arc(net, 1, 0, 0, 5, 1);
    arc(net, 2, 3, 0, 5, 1);
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EINFEASIBLE);
    pl_flownet_free(net);

    /* A lower bound that cannot be met. */
    net = new_net(2);
    arc(net, 0, 1, 2, 4, 1);
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EINFEASIBLE);
    pl_flownet_free(net);
}

/* A feasible network with a negative cycle 0-1-0 of infinite arcs: the
 * driver reports it before the solver runs. */
static void test_unbounded(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 1);
    supply(net, 2, -1);
    arc(net, 0, 1, 0, PL_CAP_INF, -2);
    arc(net, 1, 0, 0, PL_CAP_INF, 1);
    arc(net, 1, 2, 0, 1, 0);
    assert_pl_status(solve_cs(net, 0, 0, 0, NULL, NULL), PL_EUNBOUNDED);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* max_iterations caps pushes + relabels. */
static void test_max_iterations(void **state)
{
    (void)state;
    pl_flownet *net = classic6();
    pl_solve_stats stats;
    assert_pl_ok(solve_cs(net, 0, 0, 1, &stats, NULL));
    int64_t needed = stats.iterations;
    assert_true(needed > 2);
    assert_string_equal(stats.solver, CS);
    assert_pl_status(solve_cs(net, 0, 1, 1, &stats, NULL), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "limit"));
    assert_false(pl_flownet_has_solution(net));
    assert_pl_status(solve_cs(net, 0, needed - 1, 1, &stats, NULL), PL_ELIMIT);
    int64_t cost = 0;
    assert_pl_ok(solve_cs(net, 0, needed, 1, &stats, &cost));
    assert_int_equal(stats.iterations, needed);
    assert_int_equal(cost, 34);
    pl_flownet_free(net);
}

static void test_scaling_factor(void **state)
{
    (void)state;
    pl_flownet *net = classic6();
    assert_pl_status(solve_cs(net, 1, 0, 1, NULL, NULL), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "scaling_factor"));
    assert_pl_status(solve_cs(net, -4, 0, 1, NULL, NULL), PL_EINVAL);
    static const int factors[] = {0, 2, 3, 16, 64, 1000000};
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++) {
        int64_t cost = 0;
        assert_pl_ok(solve_cs(net, factors[i], 0, 1, NULL, &cost));
        assert_int_equal(cost, 34);
    }
    pl_flownet_free(net);

    /* The largest fixture, with alpha 2 and 64. */
    char path[PL_PATH_MAX];
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    for (int f = 2; f <= 64; f *= 32) {
        int64_t cost = 0;
        assert_pl_ok(solve_cs(net, f, 0, 1, NULL, &cost));
        assert_int_equal(cost, 1115043);
    }
    pl_flownet_free(net);
}

/* ---- the solver called directly on a normalised problem ------------------- */

#define DMAX 16

typedef struct direct_problem {
    pl_flow_problem p;
    int32_t first[DMAX + 1], arcs[2 * DMAX];
    uint8_t inf[DMAX];
    int64_t flow[DMAX], pot[DMAX];
    pl_flow_solution out;
} direct_problem;

/* The CSR residual view pl_flownet_normalise would build. */
static void direct_build(direct_problem *d, int32_t n, int32_t m, const int32_t *tail,
                         const int32_t *head, const int64_t *cap, const int64_t *cost,
                         const int64_t *sup)
{
    memset(d, 0, sizeof *d);
    for (int32_t a = 0; a < m; a++) {
        d->first[tail[a] + 1]++;
        d->first[head[a] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        d->first[v + 1] += d->first[v];
    int32_t pos[DMAX + 1];
    memcpy(pos, d->first, sizeof pos);
    for (int32_t a = 0; a < m; a++) {
        d->arcs[pos[tail[a]]++] = 2 * a;
        d->arcs[pos[head[a]]++] = 2 * a + 1;
    }
    d->p = (pl_flow_problem){.n = n, .m = m, .tail = tail, .head = head, .cap = cap, .cost = cost,
                             .supply = sup, .out_first = d->first, .out_arcs = d->arcs,
                             .is_inf = d->inf, .cap_inf = 0};
    d->out = (pl_flow_solution){.flow = d->flow, .potential = d->pot, .iterations = -1};
}

/* Every residual arc with capacity left has reduced cost >= 0, and the flow
 * meets the supplies; returns the cost. */
static int64_t check_direct(const direct_problem *d)
{
    const pl_flow_problem *p = &d->p;
    int64_t bal[DMAX] = {0}, total = 0;
    for (int32_t a = 0; a < p->m; a++) {
        assert_in_range(d->flow[a], 0, p->cap[a]);
        bal[p->tail[a]] += d->flow[a];
        bal[p->head[a]] -= d->flow[a];
        total += d->flow[a] * p->cost[a];
    }
    for (int32_t v = 0; v < p->n; v++)
        assert_int_equal(bal[v], p->supply[v]);
    for (int32_t r = 0; r < 2 * p->m; r++) {
        if (pl_residual_cap(p, d->flow, r) == 0)
            continue;
        int64_t rc = pl_residual_cost(p, r) + d->pot[pl_residual_tail(p, r)] -
                     d->pot[pl_residual_head(p, r)];
        if (rc < 0)
            fail_msg("residual arc %d has reduced cost %lld", r, (long long)rc);
    }
    return total;
}

/* Same network as test_negative_costs. */
static const int32_t nc_tail[] = {0, 1, 0, 2, 1, 2}, nc_head[] = {1, 3, 2, 3, 2, 1};
static const int64_t nc_cap[] = {3, 3, 5, 5, 2, 9}, nc_cost[] = {-2, 1, 1, 1, -3, 4};
static const int64_t nc_sup[] = {4, 0, 0, -4};

static void test_direct_certificate_and_memory(void **state)
{
    (void)state;
    direct_problem d;
    direct_build(&d, 4, 6, nc_tail, nc_head, nc_cap, nc_cost, nc_sup);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(check_direct(&d), -7);
    int64_t lowest = INT64_MAX;
    for (int32_t v = 0; v < 4; v++)
        lowest = d.pot[v] < lowest ? d.pot[v] : lowest;
    assert_int_equal(lowest, 0); /* potentials are reported shifted to minimum 0 */
    assert_true(d.out.iterations > 0);
    /* 48 bytes per arc (24 per residual arc) plus at most 64 per node. */
    assert_true(d.out.memory_bytes >= 48 * 6);
    assert_true(d.out.memory_bytes <= 48 * 6 + 64 * 5);
}

/* Warm start from the optimal flow and its exact potentials: nothing to
 * do, no push or relabel, and the potentials come back unchanged (shifted to
 * minimum 0). */
static void test_direct_warm_from_optimum(void **state)
{
    (void)state;
    direct_problem d;
    direct_build(&d, 4, 6, nc_tail, nc_head, nc_cap, nc_cost, nc_sup);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    int64_t flow[6], pot[4];
    memcpy(flow, d.flow, sizeof flow);
    memcpy(pot, d.pot, sizeof pot);
    d.p.warm = 1;
    d.out.iterations = -1;
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);
    assert_memory_equal(flow, d.flow, sizeof flow);
    assert_memory_equal(pot, d.pot, sizeof pot);
    assert_int_equal(check_direct(&d), -7);
}

/* Warm start from garbage: an arbitrary flow within bounds and potentials
 * so far apart that scaling them by n + 1 overflows; the solver falls back
 * to zero prices and still finds the optimum. */
static void test_direct_warm_from_garbage(void **state)
{
    (void)state;
    direct_problem d;
    direct_build(&d, 4, 6, nc_tail, nc_head, nc_cap, nc_cost, nc_sup);
    d.p.warm = 1;
    static const int64_t f0[] = {1, 3, 5, 0, 2, 9};
    memcpy(d.flow, f0, sizeof f0);
    d.pot[0] = INT64_MAX / 2;
    d.pot[1] = -(INT64_MAX / 2);
    d.pot[2] = 7;
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(check_direct(&d), -7);

    /* Moderate garbage potentials are used as they are. */
    direct_build(&d, 4, 6, nc_tail, nc_head, nc_cap, nc_cost, nc_sup);
    d.p.warm = 1;
    memcpy(d.flow, f0, sizeof f0);
    static const int64_t p0[] = {100, -3, 55, 1};
    memcpy(d.pot, p0, sizeof p0);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(check_direct(&d), -7);
}

/* Supply stranded behind a capacity-2 arc; reported as infeasible. */
static void test_direct_infeasible(void **state)
{
    (void)state;
    static const int32_t tail[] = {0, 1}, head[] = {1, 2};
    static const int64_t cap[] = {2, 10}, cost[] = {1, -1};
    static const int64_t sup[] = {9, 0, -13, 4};
    direct_problem d;
    direct_build(&d, 4, 2, tail, head, cap, cost, sup);
    assert_pl_status(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "supplies"));
}

static void test_direct_nothing_to_do(void **state)
{
    (void)state;
    direct_problem d;
    direct_build(&d, 0, 0, NULL, NULL, NULL, NULL, NULL);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);

    /* Nodes but no arcs and no supply. */
    static const int64_t zero[] = {0, 0, 0};
    direct_build(&d, 3, 0, NULL, NULL, NULL, NULL, zero);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.out.iterations, 0);

    static const int32_t tail[] = {0, 1}, head[] = {1, 0};
    static const int64_t cap[] = {4, 4}, cost[] = {3, 0}, sup[] = {0, 0};
    direct_build(&d, 2, 2, tail, head, cap, cost, sup);
    assert_pl_ok(pl_solver_cost_scaling.solve(&d.p, NULL, &d.out));
    assert_int_equal(d.flow[0], 0);
    assert_int_equal(d.flow[1], 0);
    assert_int_equal(check_direct(&d), 0);
}

/* ---- fixtures ------------------------------------------------------------ */

/* Every network of tests/data/flow/EXPECTED.txt reaches its listed optimum
 * and passes the certificate check. */
static void test_fixtures(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    FILE *f = fopen(pl_test_data(path, "flow/EXPECTED.txt"), "r");
    assert_non_null(f);
    char line[512];
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        char file[256], rel[300];
        int64_t want;
        int nodes, arcs;
        if (sscanf(line, "%255s cost=%" SCNd64 " nodes=%d arcs=%d", file, &want, &nodes, &arcs) != 4)
            continue;
        snprintf(rel, sizeof rel, "flow/%s", file);
        pl_flownet *net;
        assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, rel), &net));
        int64_t cost = 0;
        pl_solve_stats stats;
        assert_pl_ok(solve_cs(net, 0, 0, 0, &stats, &cost));
        if (cost != want)
            fail_msg("%s: cost %" PRId64 ", expected %" PRId64, file, cost, want);
        assert_true(stats.memory_bytes > 0);
        pl_flownet_free(net);
        count++;
    }
    fclose(f);
    assert_true(count >= 17);
}

/* ---- random networks against ssp ------------------------------------------ */

static void agree_with_ssp(const pl_randnet_opts *o, uint64_t seed, int count, int scaling)
{
    pl_test_rng rng = {seed};
    int optimal = 0;
    for (int i = 0; i < count; i++) {
        pl_flownet *net = pl_randnet(&rng, o);
        assert_non_null(net);
        int64_t want = 0, got = 0;
        pl_status want_st = pl_test_solve(net, "ssp", &want);
        pl_status got_st = solve_cs(net, scaling, 0, 1, NULL, &got);
        if (got_st != want_st)
            fail_msg("network %d (seed %" PRIu64 "): cost-scaling says %s (%s), ssp says %s", i, seed,
                     pl_status_name(got_st), pl_last_error(), pl_status_name(want_st));
        if (got_st == PL_OK && got != want)
            fail_msg("network %d (seed %" PRIu64 "): cost-scaling %" PRId64 ", ssp %" PRId64, i, seed,
                     got, want);
        optimal += got_st == PL_OK;
        pl_flownet_free(net);
    }
    /* The mix holds optimal cases as well as failures. */
    assert_true(optimal > count / 5);
    assert_true(optimal < count);
}

/* 400 small networks with every feature: negative costs, lower bounds,
 * infinite arcs (so infeasible and unbounded cases too). */
static void test_random_small(void **state)
{
    (void)state;
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    agree_with_ssp(&o, 1, 400, 0);
}

/* 150 larger, denser networks with wide costs and capacities, and alpha 2
 * and 64 (many more and many fewer phases). */
static void test_random_larger(void **state)
{
    (void)state;
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    o.max_nodes = 60;
    o.max_arcs = 400;
    o.max_cap = 1000;
    o.max_cost = 1000000;
    o.max_supply = 300;
    /* Random lower bounds on hundreds of arcs make nearly every network
     * infeasible at this size; the small test covers them. */
    o.lower_bounds = 0;
    agree_with_ssp(&o, 2, 50, 0);
    agree_with_ssp(&o, 3, 50, 2);
    agree_with_ssp(&o, 4, 50, 64);
}

/* ---- warm starts ------------------------------------------------------------ */

/* A random network that stays feasible and bounded under any change of
 * costs, bounds and supplies: random finite arcs plus a backbone of
 * infinite, expensive arcs between node 0 and every other node. */
static pl_flownet *warm_net(pl_test_rng *r, int32_t n, int32_t m, int64_t max_cost)
{
    pl_flownet *net = new_net(n);
    for (int32_t v = 1; v < n; v++) {
        arc(net, 0, v, 0, PL_CAP_INF, 4 * max_cost);
        arc(net, v, 0, 0, PL_CAP_INF, 4 * max_cost);
    }
    for (int32_t i = 0; i < m; i++) {
        int32_t t = (int32_t)pl_test_range(r, 0, n - 1), h = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t hi = pl_test_range(r, 0, 20), lo = pl_test_range(r, 0, 5) == 0 ? pl_test_range(r, 0, hi) : 0;
        arc(net, t, h, lo, hi, pl_test_range(r, -max_cost, max_cost));
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t s = (int32_t)pl_test_range(r, 0, n - 1), t = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t k = pl_test_range(r, 1, 10), bs, bt;
        pl_flownet_get_supply(net, s, &bs);
        supply(net, s, bs + k);
        pl_flownet_get_supply(net, t, &bt);
        supply(net, t, bt - k);
    }
    return net;
}

/* One random change, applied identically to both networks. Arcs of the
 * backbone (ids below 2(n-1)) keep their infinite capacity. */
static void random_change(pl_test_rng *r, pl_flownet *a, pl_flownet *b, int64_t max_cost, int structural)
{
    int32_t n = pl_flownet_node_count(a), m = pl_flownet_arc_count(a);
    int32_t backbone = 2 * (n - 1);
    int kind = (int)pl_test_range(r, 0, structural ? 5 : 3);
    int32_t x = (int32_t)pl_test_range(r, backbone, m - 1);
    if (kind <= 1 || pl_flownet_arc_removed(a, x)) { /* cost, of any arc */
        x = (int32_t)pl_test_range(r, 0, m - 1);
        if (pl_flownet_arc_removed(a, x))
            return;
        int64_t c = pl_test_range(r, -max_cost, max_cost);
        if (x < backbone)
            c = pl_test_range(r, 3 * max_cost, 5 * max_cost);
        assert_pl_ok(pl_flownet_set_arc_cost(a, x, c));
        assert_pl_ok(pl_flownet_set_arc_cost(b, x, c));
    } else if (kind == 2) { /* bounds */
        int64_t hi = pl_test_range(r, 0, 25), lo = pl_test_range(r, 0, 3) == 0 ? pl_test_range(r, 0, hi) : 0;
        assert_pl_ok(pl_flownet_set_arc_bounds(a, x, lo, hi));
        assert_pl_ok(pl_flownet_set_arc_bounds(b, x, lo, hi));
    } else if (kind == 3) { /* supplies: move k units of supply from s to t */
        int32_t s = (int32_t)pl_test_range(r, 0, n - 1), t = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t k = pl_test_range(r, 1, 8), bs, bt;
        assert_pl_ok(pl_flownet_get_supply(a, s, &bs));
        assert_pl_ok(pl_flownet_set_supply(a, s, bs + k));
        assert_pl_ok(pl_flownet_set_supply(b, s, bs + k));
        assert_pl_ok(pl_flownet_get_supply(a, t, &bt));
        assert_pl_ok(pl_flownet_set_supply(a, t, bt - k));
        assert_pl_ok(pl_flownet_set_supply(b, t, bt - k));
    } else if (kind == 4) { /* remove a random (non-backbone) arc */
        assert_pl_ok(pl_flownet_remove_arc(a, x));
        assert_pl_ok(pl_flownet_remove_arc(b, x));
    } else { /* add an arc */
        int32_t t = (int32_t)pl_test_range(r, 0, n - 1), h = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t hi = pl_test_range(r, 0, 20), c = pl_test_range(r, -max_cost, max_cost);
        int32_t ia, ib;
        assert_pl_ok(pl_flownet_add_arc(a, t, h, 0, hi, c, &ia));
        assert_pl_ok(pl_flownet_add_arc(b, t, h, 0, hi, c, &ib));
        assert_int_equal(ia, ib);
    }
}

/* Rounds of a few random changes; after each, the warm re-solve of one
 * network must match a cold solve of its twin (same status, same cost,
 * certificate checked on both). Returns the number of warm solves. */
static int warm_rounds(uint64_t seed, int32_t n, int32_t m, int64_t max_cost, int rounds, int per_round,
                       int structural)
{
    pl_test_rng rng = {seed};
    pl_flownet *warm = warm_net(&rng, n, m, max_cost);
    pl_test_rng copy = {seed};
    pl_flownet *cold = warm_net(&copy, n, m, max_cost);
    int warm_used = 0;
    for (int round = 0; round < rounds; round++) {
        pl_solve_stats ws, cs;
        int64_t wc = 0, cc = 0;
        pl_status wst = solve_cs(warm, 0, 0, 0, &ws, &wc);
        pl_status cst = solve_cs(cold, 0, 0, 1, &cs, &cc);
        if (wst != cst || wc != cc)
            fail_msg("seed %" PRIu64 " round %d: warm %s cost %" PRId64 " (%s), cold %s cost %" PRId64,
                     seed, round, pl_status_name(wst), wc, wst ? pl_last_error() : "", pl_status_name(cst), cc);
        assert_int_equal(cs.warm, 0);
        warm_used += ws.warm != 0;
        for (int c = 0; c < per_round; c++)
            random_change(&rng, warm, cold, max_cost, structural);
    }
    pl_flownet_free(warm);
    pl_flownet_free(cold);
    return warm_used;
}

static void test_warm_random_changes(void **state)
{
    (void)state;
    /* 60 small networks x 12 rounds of 1-3 changes of costs, bounds and
     * supplies, with small and with wide costs. */
    for (uint64_t seed = 100; seed < 130; seed++)
        warm_rounds(seed, 8 + (int32_t)(seed % 10), 30, 20, 12, 1 + (int)(seed % 3), 0);
    for (uint64_t seed = 200; seed < 230; seed++)
        warm_rounds(seed, 20, 80, 100000, 12, 2, 0);
}

static void test_warm_structural_changes(void **state)
{
    (void)state;
    /* Arcs added and removed between solves too. */
    for (uint64_t seed = 300; seed < 330; seed++)
        warm_rounds(seed, 12, 40, 50, 12, 2, 1);
}

/* The infeasible networks of randnet: after each random change the warm
 * solver must agree with ssp on the status as well as the cost. */
static void test_warm_mixed_statuses(void **state)
{
    (void)state;
    pl_test_rng rng = {77};
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    o.inf_arcs = 0;
    int failures = 0;
    for (int i = 0; i < 60; i++) {
        pl_flownet *net = pl_randnet(&rng, &o);
        int32_t n = pl_flownet_node_count(net), m = pl_flownet_arc_count(net);
        for (int round = 0; round < 6; round++) {
            int64_t want = 0, got = 0;
            pl_status got_st = solve_cs(net, 0, 0, 0, NULL, &got);
            pl_status want_st = pl_test_solve(net, "ssp", &want);
            if (got_st != want_st || got != want)
                fail_msg("network %d round %d: cost-scaling %s %" PRId64 ", ssp %s %" PRId64, i, round,
                         pl_status_name(got_st), got, pl_status_name(want_st), want);
            failures += got_st != PL_OK;
            /* ssp's solve replaced the warm start: re-solve with cost
             * scaling so the next round starts from its own solution. */
            if (want_st == PL_OK)
                assert_pl_ok(solve_cs(net, 0, 0, 0, NULL, NULL));
            int32_t a = (int32_t)pl_test_range(&rng, 0, m - 1), v = (int32_t)pl_test_range(&rng, 0, n - 1);
            int64_t b;
            assert_pl_ok(pl_flownet_set_arc_cost(net, a, pl_test_range(&rng, -20, 20)));
            assert_pl_ok(pl_flownet_get_supply(net, v, &b));
            assert_pl_ok(pl_flownet_set_supply(net, v, b + 1));
            assert_pl_ok(pl_flownet_get_supply(net, 0, &b));
            assert_pl_ok(pl_flownet_set_supply(net, 0, b - 1));
        }
        pl_flownet_free(net);
    }
    assert_true(failures > 0);
}

/* THE test of the driver's warm-start plumbing: after a solve and a small
 * change, the next cost-scaling solve must report stats.warm == 1, use fewer
 * pushes and relabels than a cold solve (at least 3x fewer over five
 * rounds), and agree with it. Uses the
 * largest fixture with 1% of its arc costs changed. */
static void test_warm_start_is_used(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_flownet *net;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    pl_solve_stats stats;
    int64_t cost = 0;
    assert_pl_ok(solve_cs(net, 0, 0, 0, &stats, &cost));
    assert_int_equal(cost, 1115043);
    assert_int_equal(stats.warm, 0);

    pl_test_rng rng = {5};
    int32_t m = pl_flownet_arc_count(net);
    int64_t warm_total = 0, cold_total = 0;
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < m / 100; i++) {
            int32_t a = (int32_t)pl_test_range(&rng, 0, m - 1);
            pl_arc_info info;
            assert_pl_ok(pl_flownet_get_arc(net, a, &info));
            assert_pl_ok(pl_flownet_set_arc_cost(net, a, info.cost + pl_test_range(&rng, -20, 20)));
        }
        int64_t warm_cost = 0, cold_cost = 0;
        assert_pl_ok(solve_cs(net, 0, 0, 0, &stats, &warm_cost));
        assert_int_equal(stats.warm, 1);
        int64_t warm_iters = stats.iterations;
        pl_solve_stats cold;
        assert_pl_ok(solve_cs(net, 0, 0, 1, &cold, &cold_cost));
        assert_int_equal(cold.warm, 0);
        assert_int_equal(warm_cost, cold_cost);
        if (warm_iters >= cold.iterations)
            fail_msg("round %d: warm start took %" PRId64 " iterations, cold %" PRId64, round, warm_iters,
                     cold.iterations);
        warm_total += warm_iters;
        cold_total += cold.iterations;
        /* Warm-start the next round from the cold solution; same optimum. */
    }
    /* Measured: 2.7x to 7x fewer per round, about 4.8x over the five. */
    if (warm_total * 3 > cold_total)
        fail_msg("warm starts took %" PRId64 " iterations in all, cold %" PRId64, warm_total, cold_total);
    pl_flownet_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),
        cmocka_unit_test(test_classic_six_nodes),
        cmocka_unit_test(test_negative_costs),
        cmocka_unit_test(test_negative_cycle_finite),
        cmocka_unit_test(test_lower_bounds),
        cmocka_unit_test(test_parallel_arcs),
        cmocka_unit_test(test_loop_arcs),
        cmocka_unit_test(test_zero_capacity_arcs),
        cmocka_unit_test(test_several_sources_and_sinks),
        cmocka_unit_test(test_negative_infinite_arc),
        cmocka_unit_test(test_zero_costs),
        cmocka_unit_test(test_huge_costs),
        cmocka_unit_test(test_price_overflow),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_unbounded),
        cmocka_unit_test(test_max_iterations),
        cmocka_unit_test(test_scaling_factor),
        cmocka_unit_test(test_direct_certificate_and_memory),
        cmocka_unit_test(test_direct_warm_from_optimum),
        cmocka_unit_test(test_direct_warm_from_garbage),
        cmocka_unit_test(test_direct_infeasible),
        cmocka_unit_test(test_direct_nothing_to_do),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_random_small),
        cmocka_unit_test(test_random_larger),
        cmocka_unit_test(test_warm_random_changes),
        cmocka_unit_test(test_warm_structural_changes),
        cmocka_unit_test(test_warm_mixed_statuses),
        cmocka_unit_test(test_warm_start_is_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
