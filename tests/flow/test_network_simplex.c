/* Tests of the primal network simplex solver ("network-simplex"): the
 * shared battery of common/solver_cases.h (hand-computed cases, error
 * paths, direct calls, fixtures, random networks against ssp, warm
 * re-solves), each also run with the invariant-checking copy below, plus
 * degenerate and blocking pivots, the pivot block, the memory report, the
 * saved basis and when it is reused, larger random networks with several
 * block sizes, and the pivots a warm re-solve saves on the largest fixture.
 *
 * A second copy of the solver is compiled into this file with NS_DEBUG, so
 * that every spanning-tree invariant (thread, sizes, last successors,
 * potentials, residual capacities, strong feasibility) is checked after
 * every pivot; it runs through the public driver via pl_solve_opts::ops
 * (sc_solver::checked). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/solver_cases.h"

#define NS_DEBUG 1
#define NS_ASSERT(x) assert_true(x)
#define pl_solver_network_simplex ns_checked_solver
#include "flow/solvers/network_simplex.c"
#undef pl_solver_network_simplex

/* The registered solver (its declaration was renamed above with the copy). */
extern const pl_solver_ops pl_solver_network_simplex;

/* ---- helpers ------------------------------------------------------------- */

static pl_status direct_solve(sc_direct *d)
{
    return ns_checked_solver.solve(&d->p, NULL, &d->out);
}

static void direct_free(sc_direct *d)
{
    ns_checked_solver.free_state(d->slot);
    d->slot = NULL;
}

/* 21 bytes per arc (6: ends, 32-bit cost, capacity, state), 17 per
 * artificial arc (4: no stored cost), 49 per tree node (5), 8 per node for
 * the kept supplies, the work record, and 9 bytes per node of scratch for
 * the initial pivots (one source and one sink). Then without a state slot:
 * nothing is kept, same answer. */
static void direct_memory(sc_direct *d)
{
    assert_int_equal(d->out.memory_bytes,
                     21 * 6 + 17 * 4 + 49 * 5 + 8 * 4 + (int64_t)sizeof(ns_work) + 9 * 4);
    assert_non_null(d->slot);
    direct_free(d);
    sc_direct_build(d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d->out.state = NULL;
    assert_pl_ok(direct_solve(d));
    assert_int_equal(sc_direct_check(d), -7);
}

/* At most 48 bytes per arc and 100 per node. */
static void fixture_memory(const pl_test_fixture *fx, const pl_solve_stats *stats)
{
    assert_true(stats->memory_bytes >= 25 * (int64_t)fx->arcs);
    assert_true(stats->memory_bytes <= 48 * (int64_t)fx->arcs + 100 * ((int64_t)fx->nodes + 1) + 1024);
}

static const sc_solver NS = {
    .name = "network-simplex",
    .ops = &pl_solver_network_simplex,
    .checked = &ns_checked_solver,
    .flags = SC_WARM | SC_KEEPS_STATE | SC_VS_SSP | SC_UNTRUSTED_WARM,
    .infeasible_says = "no flow satisfies the supplies and arc bounds",
    .warm_fewer_min = 440, /* two thirds */
    .direct_checks = direct_memory,
    .fixture_checks = fixture_memory,
};

typedef struct ns_opts {
    int pivot_block;
    int64_t limit;
    int cold;
    int checked; /* run the NS_DEBUG copy */
} ns_opts;

static pl_solve_opts ns_solve_opts(ns_opts so)
{
    pl_solve_opts o = sc_opts(&NS);
    if (so.checked)
        o.ops = &ns_checked_solver;
    o.pivot_block = so.pivot_block;
    o.max_iterations = so.limit;
    o.cold_start = so.cold;
    return o;
}

/* Solve with network simplex and the certificate check; returns the status. */
static pl_status solve_ns(pl_flownet *net, ns_opts so, pl_solve_stats *stats, int64_t *cost)
{
    pl_solve_opts o = ns_solve_opts(so);
    return sc_solve(net, &o, stats, cost);
}

static void test_registered_copy(void **state)
{
    (void)state;
    assert_non_null(strstr(pl_solver_network_simplex.description, "simplex"));
    assert_ptr_equal(ns_checked_solver.solve, solve); /* the copy under test is this file's */
}

/* ---- small hand-computed networks --------------------------------------- */

/* The entering arc blocks itself: 0 ships 5 to 1 over a0 (cap 2, cost 1)
 * and a1 (cap 10, cost 3). a0 enters first and reaches its capacity before
 * any tree arc empties, so it just moves to its upper bound; a1 takes the
 * rest: 2 + 9 = 11. */
static void test_entering_arc_blocks(void **state)
{
    (void)state;
    pl_flownet *net = sc_new_net(2);
    sc_supply(net, 0, 5);
    sc_supply(net, 1, -5);
    sc_arc(net, 0, 1, 0, 2, 1);
    sc_arc(net, 0, 1, 0, 10, 3);
    sc_expect_cost(&NS, net, 11);
    static const int64_t want[] = {2, 3};
    sc_assert_flows(net, want, 2);
    pl_flownet_free(net);
}

/* The network of the shared case loop_arcs (optimum -1, flows
 * 5 0 0 3 2): a loop whose cost changes sign between solves flips with it
 * (warm). */
static void test_loop_arcs_cost_flip(void **state)
{
    (void)state;
    pl_flownet *net = sc_loop_net();
    sc_expect_cost(&NS, net, -1);
    static const int64_t want[] = {5, 0, 0, 3, 2};
    sc_assert_flows(net, want, 5);
    /* A loop whose cost changes sign between solves flips with it (warm). */
    assert_pl_ok(pl_flownet_set_arc_cost(net, 0, 3));
    assert_pl_ok(pl_flownet_set_arc_cost(net, 1, -2));
    int64_t cost = 0;
    pl_solve_stats st;
    assert_pl_ok(solve_ns(net, (ns_opts){0}, &st, &cost));
    assert_int_equal(st.warm, 1);
    assert_int_equal(cost, -8 + 12 + 2);
    static const int64_t want2[] = {0, 4, 0, 3, 2};
    sc_assert_flows(net, want2, 5);
    pl_flownet_free(net);
}

/* Heavy degeneracy: an 8 x 8 assignment where every cost is 5 except a
 * cheap diagonal shifted by one (cost 1 from i to (i + 1) mod 8). Every
 * basis has 7 zero-flow tree arcs besides the 8 assignment arcs; strongly
 * feasible trees keep the pivots from cycling. Optimum 8. Then all costs
 * equal: 40. */
static void test_degenerate_assignment(void **state)
{
    (void)state;
    const int32_t k = 8;
    pl_flownet *net = sc_new_net(2 * k);
    for (int32_t i = 0; i < k; i++) {
        sc_supply(net, i, 1);
        sc_supply(net, k + i, -1);
    }
    for (int32_t i = 0; i < k; i++)
        for (int32_t j = 0; j < k; j++)
            sc_arc(net, i, k + j, 0, 1, j == (i + 1) % k ? 1 : 5);
    sc_expect_cost(&NS, net, 8);
    for (int32_t i = 0; i < k; i++)
        for (int32_t j = 0; j < k; j++)
            assert_int_equal(sc_flow_of(net, i * k + j), j == (i + 1) % k);
    for (int32_t a = 0; a < k * k; a++)
        assert_pl_ok(pl_flownet_set_arc_cost(net, a, 5));
    sc_expect_cost(&NS, net, 40);
    pl_flownet_free(net);
}

/* ---- options ------------------------------------------------------------ */

/* pivot_block: negative is rejected; any positive size (even 1, or more
 * than the arcs) reaches the same optimum. */
static void test_pivot_block(void **state)
{
    (void)state;
    pl_flownet *net = sc_classic6();
    assert_pl_status(solve_ns(net, (ns_opts){.pivot_block = -1}, NULL, NULL), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "pivot_block"));
    assert_false(pl_flownet_has_solution(net));
    static const int blocks[] = {0, 1, 2, 3, 8, 1000000};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        int64_t cost = 0;
        assert_pl_ok(solve_ns(net, (ns_opts){.pivot_block = blocks[i], .cold = 1}, NULL, &cost));
        assert_int_equal(cost, 34);
    }
    pl_flownet_free(net);

    /* The largest fixture, with blocks of 1, 50 and 100000 arcs. */
    char path[PL_PATH_MAX];
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    static const int big[] = {1, 50, 100000};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        int64_t cost = 0;
        assert_pl_ok(solve_ns(net, (ns_opts){.pivot_block = big[i], .cold = 1}, NULL, &cost));
        assert_int_equal(cost, 1115043);
    }
    pl_flownet_free(net);
}

/* A cold start keeps the work's memory (PL_SOLVER_COLD_KEEPS_STATE) but
 * not its basis: on a hand-made 3 x 3 assignment (costs 4 1 3 / 2 0 5 /
 * 3 2 2, optimum 1 + 2 + 2 = 5) a second cold solve takes as many pivots
 * as the first (a warm one takes none) in the same work; new costs are
 * read (arc 0->1 at 9: 4 + 0 + 2 = 6); and when a removed arc's id is
 * reused with other ends (1->1 replaced by a second 1->0, cost 0: same node
 * and arc counts, new structure) the ends are reloaded: 3 + 0 + 2 = 5 on
 * the new arc (the old ends would give 6). */
static void test_cold_keeps_memory_not_basis(void **state)
{
    (void)state;
    static const int64_t c[3][3] = {{4, 1, 3}, {2, 0, 5}, {3, 2, 2}};
    pl_flownet *net = sc_new_net(6);
    for (int32_t i = 0; i < 3; i++) {
        sc_supply(net, i, 1);
        sc_supply(net, 3 + i, -1);
    }
    for (int32_t i = 0; i < 3; i++)
        for (int32_t j = 0; j < 3; j++)
            sc_arc(net, i, 3 + j, 0, 1, c[i][j]);
    pl_solve_stats first, again, warm;
    int64_t cost = 0;
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, &first, &cost));
    assert_int_equal(cost, 5);
    void *work = net->solver_state;
    assert_non_null(work);
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, &again, &cost));
    assert_int_equal(cost, 5);
    assert_int_equal(again.warm, 0);
    assert_int_equal(again.iterations, first.iterations);
    assert_true(first.iterations > 0);
    assert_ptr_equal(net->solver_state, work);
    assert_pl_ok(solve_ns(net, (ns_opts){0}, &warm, &cost));
    assert_int_equal(warm.warm, 1);
    assert_int_equal(warm.iterations, 0);

    assert_pl_ok(pl_flownet_set_arc_cost(net, 1, 9));
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, NULL, &cost));
    assert_int_equal(cost, 6);

    assert_pl_ok(pl_flownet_remove_arc(net, 4));
    int32_t id = -1;
    assert_pl_ok(pl_flownet_add_arc(net, 1, 3, 0, 1, 0, &id));
    assert_int_equal(id, 4);
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, NULL, &cost));
    assert_int_equal(cost, 5);
    assert_int_equal(sc_flow_of(net, 4), 1);
    assert_int_equal(sc_flow_of(net, 2), 1);
    assert_int_equal(sc_flow_of(net, 7), 1);
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1, .checked = 1}, NULL, &cost));
    assert_int_equal(cost, 5);
    pl_flownet_free(net);
}

/* Costs are held in 32 bits while every |cost| fits, else in 64: scaling
 * every cost of the classic six-node case (optimum 34) by 2^33 scales the
 * optimum, on a warm start (the held 32-bit costs widened, values kept)
 * and cold; back to the small costs, a cold start narrows them again. */
static void test_cost_width(void **state)
{
    (void)state;
    const int64_t k = (int64_t)1 << 33;
    pl_flownet *net = sc_classic6();
    int32_t m = pl_flownet_arc_count(net);
    int64_t small[16], cost = 0;
    pl_solve_stats st;
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, NULL, &cost));
    assert_int_equal(cost, 34);
    assert_non_null(((ns_work *)net->solver_state)->cost32);
    for (int32_t a = 0; a < m; a++) {
        pl_arc_info info;
        assert_pl_ok(pl_flownet_get_arc(net, a, &info));
        small[a] = info.cost;
        assert_pl_ok(pl_flownet_set_arc_cost(net, a, small[a] * k));
    }
    assert_pl_ok(solve_ns(net, (ns_opts){0}, &st, &cost));
    assert_int_equal(st.warm, 1);
    assert_int_equal(cost, 34 * k);
    ns_work *w = net->solver_state;
    assert_null(w->cost32);
    assert_non_null(w->cost);
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, NULL, &cost));
    assert_int_equal(cost, 34 * k);
    assert_ptr_equal(net->solver_state, w);
    assert_null(w->cost32);
    /* One arc above 32 bits, the rest small: against a fresh network. */
    for (int32_t a = 0; a < m; a++)
        assert_pl_ok(pl_flownet_set_arc_cost(net, a, small[a]));
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, NULL, &cost));
    assert_int_equal(cost, 34);
    assert_ptr_equal(net->solver_state, w);
    assert_non_null(w->cost32);
    assert_null(w->cost);
    assert_pl_ok(pl_flownet_set_arc_cost(net, 4, (int64_t)INT32_MAX + 1));
    pl_flownet *fresh = sc_classic6();
    assert_pl_ok(pl_flownet_set_arc_cost(fresh, 4, (int64_t)INT32_MAX + 1));
    int64_t want = 0;
    assert_pl_ok(solve_ns(fresh, (ns_opts){.cold = 1, .checked = 1}, NULL, &want));
    assert_pl_ok(solve_ns(net, (ns_opts){0}, &st, &cost));
    assert_int_equal(st.warm, 1);
    assert_int_equal(cost, want);
    assert_true(want > 34);
    assert_null(w->cost32);
    pl_flownet_free(fresh);
    pl_flownet_free(net);
}

/* ---- the solver called directly on a normalised problem ------------------- */

/* Cost of a cold solve of the given problem (no state kept). */
static int64_t cold_cost(int32_t n, int32_t m, const int32_t *tail, const int32_t *head,
                         const int64_t *cap, const int64_t *cost, const int64_t *sup)
{
    sc_direct c;
    sc_direct_build(&c, n, m, tail, head, cap, cost, sup);
    c.out.state = NULL;
    assert_pl_ok(direct_solve(&c));
    return sc_direct_check(&c);
}

/* The saved basis is reused for a warm start: in place on the same
 * structure (an unchanged problem then needs no pivot and gives the same
 * flows and potentials), carried over when arcs were changed or added, and
 * dropped when it cannot apply. */
static void test_direct_saved_basis(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    assert_pl_ok(direct_solve(&d));
    int64_t cold_iters = d.out.iterations;
    int64_t flow[6], pot[4];
    memcpy(flow, d.flow, sizeof flow);
    memcpy(pot, d.pot, sizeof pot);
    void *kept = d.slot;

    d.p.warm = 1;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(d.out.iterations, 0);
    assert_ptr_equal(d.slot, kept); /* reused in place, nothing reallocated */
    assert_memory_equal(flow, d.flow, sizeof flow);
    assert_memory_equal(pot, d.pot, sizeof pot);

    /* Not warm (the caller has no previous solution): cold. */
    d.p.warm = 0;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(d.out.iterations, cold_iters);

    /* Another structure version but every arc joins the same nodes: the
     * basis carries over whole, still optimal. */
    d.p.warm = 1;
    d.p.structure_version = 8;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(d.out.iterations, 0);
    assert_ptr_equal(d.slot, kept);
    assert_memory_equal(flow, d.flow, sizeof flow);

    /* Arc 1 (1->3, 1 unit of 3, so a tree arc) reversed under the same id:
     * its tree position is lost and a node re-hung from the root; same
     * answer as a cold solve. */
    const ns_work *kw = kept;
    assert_int_equal(kw->state[arc_slot(kw, 1)], NS_TREE);
    assert_int_equal(d.flow[1], 1);
    static const int32_t rt[] = {0, 3, 0, 2, 1, 2}, rh[] = {1, 1, 2, 3, 2, 1};
    d.p.tail = rt;
    d.p.head = rh;
    d.p.structure_version = 9;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(sc_direct_check(&d), cold_cost(4, 6, rt, rh, sc_nc_cap, sc_nc_cost, sc_nc_sup));
    assert_ptr_equal(d.slot, kept);

    /* Grown: node 4 (supply 2) and arcs 6 (4->1, cost -1) and 7 (4->3,
     * cost 9) appended, the old ids unchanged: carried into new arrays. */
    static const int32_t gt[] = {0, 1, 0, 2, 2, 2, 4, 4}, gh[] = {1, 3, 2, 3, 1, 1, 1, 3};
    static const int64_t gcap[] = {3, 3, 5, 5, 2, 9, 2, 2}, gcost[] = {-2, 1, 1, 1, -3, 4, -1, 9};
    static const int64_t gsup[] = {4, 0, 0, -6, 2};
    void *slot = d.slot;
    sc_direct_build(&d, 5, 8, gt, gh, gcap, gcost, gsup);
    d.slot = slot;
    d.p.warm = 1;
    d.p.structure_version = 10;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(sc_direct_check(&d), cold_cost(5, 8, gt, gh, gcap, gcost, gsup));
    assert_ptr_not_equal(d.slot, kept);
    /* ... and the new arrays carry on in place. */
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(d.out.iterations, 0);

    /* Shrunk (only a direct call can do that): dropped, solved cold. */
    static const int32_t t2[] = {0, 1}, h2[] = {1, 2};
    static const int64_t cap2[] = {5, 5}, cost2[] = {1, 1}, s2[] = {3, 0, -3};
    slot = d.slot;
    sc_direct_build(&d, 3, 2, t2, h2, cap2, cost2, s2);
    d.slot = slot;
    d.p.warm = 1;
    d.p.structure_version = 11;
    assert_pl_ok(direct_solve(&d));
    assert_true(d.out.iterations > 0);
    assert_int_equal(sc_direct_check(&d), 6);
    direct_free(&d);
}

/* After a change of costs, capacities and supplies the repaired basis
 * (tree arcs out of bounds cut, subtrees re-hung from the root) gives the
 * same optimum as a cold solve. */
static void test_direct_warm_after_changes(void **state)
{
    (void)state;
    sc_direct d;
    int64_t cap[6], cost[6], sup[4];
    memcpy(cap, sc_nc_cap, sizeof cap);
    memcpy(cost, sc_nc_cost, sizeof cost);
    memcpy(sup, sc_nc_sup, sizeof sup);
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, cap, cost, sup);
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(sc_direct_check(&d), -7);
    d.p.warm = 1;

    /* a0 shrinks to 1 and 6 units must go. Into 3 come x on a1 and y on a3
     * (x + y = 6, y <= 5); node 1 gets at most 1 unit from 0, so x > 1
     * needs a5 (cost 4) and y = 5, x = 1 is best: a0 1 (-2), a1 1 (1),
     * a2 5 (5), a3 5 (5), a4 and a5 empty (a4 with a5 only adds a +1
     * cycle): 9. The old tree carried 3 units on a0 and 2 on a4. */
    cap[0] = 1;
    sup[0] = 6;
    sup[3] = -6;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(sc_direct_check(&d), 9);
    static const int64_t want[] = {1, 1, 5, 5, 0, 0};
    assert_memory_equal(d.flow, want, sizeof want);

    /* Make 2-1 attractive: cost -5. 0-2 (1), 2-1 (-5), 1-3 (1): -3 per
     * unit, limited by a1 (cap 3) less what 1-3 already carries... the
     * answer is checked against a cold solve of the same data. */
    cost[5] = -5;
    assert_pl_ok(direct_solve(&d));
    int64_t warm_cost = sc_direct_check(&d);
    sc_direct c;
    sc_direct_build(&c, 4, 6, sc_nc_tail, sc_nc_head, cap, cost, sup);
    assert_pl_ok(direct_solve(&c));
    assert_int_equal(sc_direct_check(&c), warm_cost);
    direct_free(&c);

    /* Infeasible now: a failed solve leaves no state behind. */
    sup[0] = 60;
    sup[3] = -60;
    assert_pl_status(direct_solve(&d), PL_EINFEASIBLE);
    assert_null(d.slot);
}

/* Only costs change: the kept flows and tree stand (no capacity or supply
 * changed), potentials are redone when a tree arc's cost or M changes. Each
 * answer equals a cold solve's. */
static void test_direct_warm_cost_only(void **state)
{
    (void)state;
    sc_direct d;
    int64_t cost[6];
    memcpy(cost, sc_nc_cost, sizeof cost);
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, cost, sc_nc_sup);
    assert_pl_ok(direct_solve(&d));
    d.p.warm = 1;
    const ns_work *kw = d.slot;
    int32_t tree_arc = -1, free_arc = -1;
    for (int32_t a = 0; a < 6; a++) {
        if (kw->state[arc_slot(kw, a)] == NS_TREE)
            tree_arc = a;
        else if (d.flow[a] == 0)
            free_arc = a;
    }
    assert_true(tree_arc >= 0 && free_arc >= 0);
    int64_t pot[4];
    memcpy(pot, d.pot, sizeof pot);

    /* A non-tree arc at 0 gets dearer: nothing moves, not even potentials. */
    cost[free_arc] += 3;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(d.out.iterations, 0);
    assert_memory_equal(pot, d.pot, sizeof pot);
    assert_int_equal(sc_direct_check(&d), cold_cost(4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, cost, sc_nc_sup));

    /* A tree arc's cost changes both ways. */
    for (int k = 0; k < 2; k++) {
        cost[tree_arc] += k ? -9 : 7;
        assert_pl_ok(direct_solve(&d));
        assert_int_equal(sc_direct_check(&d), cold_cost(4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, cost, sc_nc_sup));
    }

    /* max|cost| (so M) grows through a non-tree arc, then shrinks back. */
    for (int k = 0; k < 2; k++) {
        cost[5] = k ? 4 : 1000;
        assert_pl_ok(direct_solve(&d));
        assert_int_equal(sc_direct_check(&d), cold_cost(4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, cost, sc_nc_sup));
    }
    direct_free(&d);
}

/* Only non-tree arcs change cost, so the kept flows, tree and potentials
 * stand, yet the optimum moves. 0 ships 3 units to 1 over parallel arcs a0
 * (cap 2, cost -5), a1 (cap 2, cost 1) and a2 (cap 10, cost 10): a0 full, a1
 * one unit (strictly inside its bounds, so the tree arc between 0 and 1), a2
 * empty, a0 and a2 off the tree. Then a0 costs 1000 and a2 500: a1 takes 2
 * units and a2 1, 502. (M grows too, from 21 to 2001, but the kept basis
 * has no artificial arc it matters for: all are up arcs without flow.) */
static void test_direct_non_tree_costs(void **state)
{
    (void)state;
    static const int32_t tail[] = {0, 0, 0}, head[] = {1, 1, 1};
    static const int64_t cap[] = {2, 2, 10}, sup[] = {3, -3};
    int64_t cost[] = {-5, 1, 10};
    sc_direct d;
    sc_direct_build(&d, 2, 3, tail, head, cap, cost, sup);
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(sc_direct_check(&d), -9);
    const ns_work *kw = d.slot;
    assert_int_equal(kw->state[arc_slot(kw, 0)], NS_UPPER);
    assert_int_equal(kw->state[arc_slot(kw, 1)], NS_TREE);
    assert_int_equal(kw->state[arc_slot(kw, 2)], NS_LOWER);
    cost[0] = 1000;
    cost[2] = 500;
    d.p.warm = 1;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(sc_direct_check(&d), 502);
    static const int64_t want[] = {0, 2, 1};
    assert_memory_equal(d.flow, want, sizeof want);
    direct_free(&d);
}

/* Beyond the library's guarantee (n * max|cost| <= 2^60), which only a
 * direct call can produce: PL_EOVERFLOW instead of wrapped potentials. */
static void test_direct_cost_overflow(void **state)
{
    (void)state;
    static const int32_t tail[] = {0, 1}, head[] = {1, 2};
    static const int64_t cap[] = {1, 1}, cost[] = {(int64_t)1 << 61, 1}, sup[] = {1, 0, -1};
    sc_direct d;
    sc_direct_build(&d, 3, 2, tail, head, cap, cost, sup);
    assert_pl_status(direct_solve(&d), PL_EOVERFLOW);
    assert_non_null(strstr(pl_last_error(), "int64"));
    assert_null(d.slot);
    static const int64_t worst[] = {INT64_MIN, 0};
    sc_direct_build(&d, 3, 2, tail, head, cap, worst, sup);
    assert_pl_status(direct_solve(&d), PL_EOVERFLOW);
}

/* ---- random networks and warm starts ------------------------------------- */

/* 300 small networks with the invariant-checking copy, the second half
 * with pivot blocks of 1 arc. */
static void test_random_small_checked(void **state)
{
    (void)state;
    pl_randnet_opts ro;
    pl_randnet_opts_init(&ro);
    pl_solve_opts o = ns_solve_opts((ns_opts){.checked = 1});
    sc_agree_with_ssp(&o, &ro, 5, 150);
    o.pivot_block = 1;
    sc_agree_with_ssp(&o, &ro, 6, 150);
}

/* 150 larger, denser networks with wide costs and capacities, and block
 * sizes 0 (default), 3 and 1000. */
static void test_random_larger(void **state)
{
    (void)state;
    pl_randnet_opts ro;
    sc_larger_randnet(&ro);
    pl_solve_opts o = ns_solve_opts((ns_opts){0});
    sc_agree_with_ssp(&o, &ro, 2, 50);
    o = ns_solve_opts((ns_opts){.pivot_block = 3, .checked = 1});
    sc_agree_with_ssp(&o, &ro, 3, 50);
    o = ns_solve_opts((ns_opts){.pivot_block = 1000});
    sc_agree_with_ssp(&o, &ro, 4, 50);
}

/* Bigger networks, more changes per round. */
static void test_warm_bigger_networks(void **state)
{
    (void)state;
    for (uint64_t seed = 250; seed < 256; seed++) {
        pl_solve_opts o = sc_opts(&NS);
        sc_warm_rounds(&NS, &o, seed, 120, 900, 1000, 10, 25, 0);
    }
}

/* Warm re-solves after small cost changes on the largest fixture: stats.warm
 * is set, the answer equals a cold solve's, and far fewer pivots are made
 * (at most a tenth of a cold solve's). */
static void test_warm_start_is_used(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_flownet *net;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    pl_solve_stats stats;
    int64_t cost = 0;
    assert_pl_ok(solve_ns(net, (ns_opts){0}, &stats, &cost));
    assert_int_equal(cost, 1115043);
    assert_int_equal(stats.warm, 0);
    int64_t first_cold = stats.iterations;

    pl_test_rng rng = {5};
    int32_t m = pl_flownet_arc_count(net);
    for (int round = 0; round < 5; round++) {
        sc_nudge_costs(&rng, net, m / 100);
        int64_t warm_cost = 0, cold_cost = 0;
        assert_pl_ok(solve_ns(net, (ns_opts){0}, &stats, &warm_cost));
        assert_int_equal(stats.warm, 1);
        int64_t warm_iters = stats.iterations;
        pl_solve_stats cold;
        assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, &cold, &cold_cost));
        assert_int_equal(cold.warm, 0);
        assert_int_equal(warm_cost, cold_cost);
        assert_true(cold.iterations > first_cold / 2);
        if (warm_iters * 10 > cold.iterations)
            fail_msg("round %d: warm start took %" PRId64 " pivots, cold %" PRId64, round, warm_iters,
                     cold.iterations);
        /* The next round warm-starts from the cold solve's basis. */
    }
    pl_flownet_free(net);
}

/* The scheduler's incremental case on the largest fixture: each round some
 * tasks finish (their nodes and arcs are removed) and new ones arrive (a
 * node of supply 1 with a copy of a live task's arcs, on reused or new
 * ids), the sink's demand following. The basis carries over the structural
 * change: same optimum as a cold solve, far fewer pivots. */
static void test_warm_after_tasks_change(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_flownet *net;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_100m_16j_100t_10p.in"), &net));
    int64_t b;
    assert_pl_ok(pl_flownet_get_supply(net, 0, &b));
    assert_true(b < 0);
    pl_solve_stats stats;
    assert_pl_ok(solve_ns(net, (ns_opts){0}, &stats, NULL));
    pl_test_rng rng = {17};
    int64_t warm_total = 0, cold_total = 0;
    for (int round = 0; round < 6; round++) {
        sc_churn(&rng, net, 5);
        int64_t warm_cost = 0, cold_cost_ = 0;
        assert_pl_ok(solve_ns(net, (ns_opts){0}, &stats, &warm_cost));
        assert_int_equal(stats.warm, 1);
        int64_t warm_iters = stats.iterations;
        pl_solve_stats cold;
        assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, &cold, &cold_cost_));
        assert_int_equal(warm_cost, cold_cost_);
        if (warm_iters * 10 > cold.iterations)
            fail_msg("round %d: warm start took %" PRId64 " pivots, cold %" PRId64, round, warm_iters,
                     cold.iterations);
        warm_total += warm_iters;
        cold_total += cold.iterations;
    }
    assert_true(warm_total * 20 < cold_total);
    pl_flownet_free(net);
}

int main(void)
{
    const struct CMUnitTest own[] = {
        cmocka_unit_test(test_registered_copy),
        cmocka_unit_test(test_entering_arc_blocks),
        cmocka_unit_test(test_loop_arcs_cost_flip),
        cmocka_unit_test(test_degenerate_assignment),
        cmocka_unit_test(test_pivot_block),
        cmocka_unit_test(test_cold_keeps_memory_not_basis),
        cmocka_unit_test(test_cost_width),
        cmocka_unit_test(test_direct_saved_basis),
        cmocka_unit_test(test_direct_warm_after_changes),
        cmocka_unit_test(test_direct_warm_cost_only),
        cmocka_unit_test(test_direct_non_tree_costs),
        cmocka_unit_test(test_direct_cost_overflow),
        cmocka_unit_test(test_random_small_checked),
        cmocka_unit_test(test_random_larger),
        cmocka_unit_test(test_warm_bigger_networks),
        cmocka_unit_test(test_warm_start_is_used),
        cmocka_unit_test(test_warm_after_tasks_change),
    };
    return sc_run_suite(&NS, own, sizeof own / sizeof own[0]);
}
