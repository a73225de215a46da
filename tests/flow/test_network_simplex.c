/* Tests of the primal network simplex solver ("network-simplex"):
 * hand-computed optima on small networks covering each feature of the
 * normalised problem, the error paths (infeasible, unbounded, iteration
 * limit, bad pivot block, cost overflow), direct calls on a normalised
 * problem (certificate, memory report, the saved basis and when it is
 * reused), every Firmament fixture, agreement with "ssp" on hundreds of
 * random networks, warm re-solves after random changes against cold solves,
 * and the pivots a warm re-solve saves on the largest fixture.
 *
 * A second copy of the solver is compiled into this file with NS_DEBUG, so
 * that every spanning-tree invariant (thread, sizes, last successors,
 * potentials, residual capacities, strong feasibility) is checked after
 * every pivot on the random networks; it runs through the public driver via
 * pl_solve_opts::ops. */
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

#define NS "network-simplex"

/* ---- helpers ------------------------------------------------------------- */

static const pl_solver_ops *ns_ops(void)
{
    const pl_solver_ops *ops = NULL;
    assert_pl_ok(pl_solver_find(NS, &ops));
    return ops;
}

typedef struct ns_opts {
    int pivot_block;
    int64_t limit;
    int cold;
    int checked; /* run the NS_DEBUG copy */
} ns_opts;

/* Solve with network simplex and the certificate check; returns the status. */
static pl_status solve_ns(pl_flownet *net, ns_opts so, pl_solve_stats *stats, int64_t *cost)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = NS;
    if (so.checked)
        o.ops = &ns_checked_solver;
    o.verify = 1;
    o.pivot_block = so.pivot_block;
    o.max_iterations = so.limit;
    o.cold_start = so.cold;
    pl_status st = pl_flownet_solve(net, &o, stats);
    if (st == PL_OK && cost)
        st = pl_flownet_solution_cost(net, cost);
    return st;
}

/* The checked copy agrees, with every tree invariant holding; also run by
 * every shared case of solver_cases.c after its own solve. */
static void expect_checked(pl_flownet *net, int64_t want)
{
    int64_t cost = 0;
    assert_pl_ok(solve_ns(net, (ns_opts){.checked = 1, .cold = 1}, NULL, &cost));
    assert_int_equal(cost, want);
}

static void expect_cost(pl_flownet *net, int64_t want)
{
    int64_t cost = 0;
    assert_pl_ok(solve_ns(net, (ns_opts){0}, NULL, &cost));
    assert_int_equal(cost, want);
    expect_checked(net, want);
}

static void test_registered(void **state)
{
    (void)state;
    const pl_solver_ops *ops = ns_ops();
    assert_string_equal(ops->name, NS);
    assert_true(ops->flags & PL_SOLVER_WARM_START);
    assert_non_null(ops->free_state);
    assert_non_null(strstr(ops->description, "simplex"));
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
    expect_cost(net, 11);
    static const int64_t want[] = {2, 3};
    sc_assert_flows(net, want, 2);
    pl_flownet_free(net);
}

/* The loop network of the shared loop-arcs case (optimum -1, flows
 * 5 0 0 3 2): a loop whose cost changes sign between solves flips with it
 * (warm). */
static void test_loop_arcs_cost_flip(void **state)
{
    (void)state;
    pl_flownet *net = sc_loop_net();
    expect_cost(net, -1);
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
    expect_cost(net, 8);
    for (int32_t i = 0; i < k; i++)
        for (int32_t j = 0; j < k; j++)
            assert_int_equal(sc_flow_of(net, i * k + j), j == (i + 1) % k);
    for (int32_t a = 0; a < k * k; a++)
        assert_pl_ok(pl_flownet_set_arc_cost(net, a, 5));
    expect_cost(net, 40);
    pl_flownet_free(net);
}

/* A chain of 9 arcs of cost 2^60 / 10 (potentials reach 0.9 * 2^60); the
 * shared huge-costs case covers costs at the library's limit. */
static void test_huge_cost_chain(void **state)
{
    (void)state;
    pl_flownet *net;
    const int64_t D = ((int64_t)1 << 60) / 10;
    net = sc_new_net(10);
    sc_supply(net, 0, 1);
    sc_supply(net, 9, -1);
    for (int32_t v = 0; v < 9; v++)
        sc_arc(net, v, v + 1, 0, 1, D);
    expect_cost(net, 9 * D);
    pl_flownet_free(net);
}

/* ---- error paths ------------------------------------------------------- */

static void test_infeasible(void **state)
{
    (void)state;
    /* Capacity: 5 units but the only route holds 3. */
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 5);
    sc_supply(net, 2, -5);
    sc_arc(net, 0, 1, 0, 3, 1);
    sc_arc(net, 1, 2, 0, 10, 1);
    assert_pl_status(solve_ns(net, (ns_opts){0}, NULL, NULL), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "no flow satisfies the supplies and arc bounds"));
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);

    /* A supply node with no arc at all. */
    net = sc_new_net(3);
    sc_supply(net, 0, 1);
    sc_supply(net, 2, -1);
    sc_arc(net, 1, 2, 0, 10, 1);
    assert_pl_status(solve_ns(net, (ns_opts){0}, NULL, NULL), PL_EINFEASIBLE);
    pl_flownet_free(net);

    /* Arcs everywhere but the wrong way round, with negative costs that
     * invite circulation. */
    net = sc_new_net(4);
    sc_supply(net, 0, 2);
    sc_supply(net, 3, -2);
    sc_arc(net, 3, 0, 0, 5, -1);
    sc_arc(net, 0, 1, 0, 5, -2);
    sc_arc(net, 1, 0, 0, 5, 1);
    sc_arc(net, 2, 3, 0, 5, 1);
    assert_pl_status(solve_ns(net, (ns_opts){0}, NULL, NULL), PL_EINFEASIBLE);
    assert_pl_status(solve_ns(net, (ns_opts){.checked = 1}, NULL, NULL), PL_EINFEASIBLE);
    pl_flownet_free(net);

    /* A lower bound that cannot be met. */
    net = sc_new_net(2);
    sc_arc(net, 0, 1, 2, 4, 1);
    assert_pl_status(solve_ns(net, (ns_opts){0}, NULL, NULL), PL_EINFEASIBLE);
    pl_flownet_free(net);
}

/* max_iterations caps the pivots; exactly the number needed succeeds. */
static void test_max_iterations(void **state)
{
    (void)state;
    pl_flownet *net = sc_classic6();
    pl_solve_stats stats;
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1}, &stats, NULL));
    int64_t needed = stats.iterations;
    assert_true(needed > 2);
    assert_string_equal(stats.solver, NS);
    assert_pl_status(solve_ns(net, (ns_opts){.cold = 1, .limit = 1}, &stats, NULL), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), "limit"));
    assert_false(pl_flownet_has_solution(net));
    assert_pl_status(solve_ns(net, (ns_opts){.cold = 1, .limit = needed - 1}, &stats, NULL), PL_ELIMIT);
    assert_int_equal(stats.iterations, needed - 1);
    int64_t cost = 0;
    assert_pl_ok(solve_ns(net, (ns_opts){.cold = 1, .limit = needed}, &stats, &cost));
    assert_int_equal(stats.iterations, needed);
    assert_int_equal(cost, 34);
    /* A warm re-solve with nothing changed needs no pivot, so even a limit
     * of 1 is never reached. */
    assert_pl_ok(solve_ns(net, (ns_opts){.limit = 1}, &stats, &cost));
    assert_int_equal(stats.warm, 1);
    assert_int_equal(stats.iterations, 0);
    assert_int_equal(cost, 34);
    pl_flownet_free(net);
}

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

/* ---- the solver called directly on a normalised problem ------------------- */

static pl_status direct_solve(sc_direct *d)
{
    return ns_checked_solver.solve(&d->p, NULL, &d->out);
}

static void direct_free(sc_direct *d)
{
    ns_checked_solver.free_state(d->slot);
    d->slot = NULL;
}

static void test_direct_certificate_and_memory(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(sc_direct_check(&d), -7);
    int64_t lowest = INT64_MAX;
    for (int32_t v = 0; v < 4; v++)
        lowest = d.pot[v] < lowest ? d.pot[v] : lowest;
    assert_int_equal(lowest, 0); /* potentials are reported shifted to minimum 0 */
    assert_true(d.out.iterations > 0);
    /* 25 bytes per slot (6 arcs + 4 artificial), 49 per tree node (5), 8
     * per node for the kept supplies, the work record, and 9 bytes per node
     * of scratch for the initial pivots (one source and one sink). */
    assert_int_equal(d.out.memory_bytes,
                     25 * 10 + 49 * 5 + 8 * 4 + (int64_t)sizeof(ns_work) + 9 * 4);
    assert_non_null(d.slot);
    direct_free(&d);

    /* No state slot: nothing is kept, same answer. */
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.out.state = NULL;
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(sc_direct_check(&d), -7);
}

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

static void test_direct_nothing_to_do(void **state)
{
    (void)state;
    sc_direct d;
    sc_direct_build(&d, 0, 0, NULL, NULL, NULL, NULL, NULL);
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(d.out.iterations, 0);
    assert_null(d.slot);

    /* Nodes but no arcs and no supply. */
    static const int64_t zero[] = {0, 0, 0};
    sc_direct_build(&d, 3, 0, NULL, NULL, NULL, NULL, zero);
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(d.out.iterations, 0);
    direct_free(&d);

    /* A positive cycle: stays empty. */
    static const int32_t tail[] = {0, 1}, head[] = {1, 0};
    static const int64_t cap[] = {4, 4}, cost[] = {3, 0}, sup[] = {0, 0};
    sc_direct_build(&d, 2, 2, tail, head, cap, cost, sup);
    assert_pl_ok(direct_solve(&d));
    assert_int_equal(d.flow[0], 0);
    assert_int_equal(d.flow[1], 0);
    assert_int_equal(sc_direct_check(&d), 0);
    assert_int_equal(d.out.iterations, 0);
    direct_free(&d);
}

/* ---- fixtures ------------------------------------------------------------ */

/* Every network of tests/data/flow/EXPECTED.txt reaches its listed optimum
 * and passes the certificate check; the memory report is at most 48 bytes
 * per arc and 100 per node. */
static void test_fixtures(void **state)
{
    (void)state;
    pl_test_fixture *fixtures;
    int count = pl_test_read_fixtures(&fixtures);
    assert_true(count >= 17);
    for (int i = 0; i < count; i++) {
        const char *file = fixtures[i].file;
        int64_t want = fixtures[i].cost;
        int32_t nodes = fixtures[i].nodes, arcs = fixtures[i].arcs;
        pl_flownet *net = pl_test_load_fixture(&fixtures[i]);
        int64_t cost = 0;
        pl_solve_stats stats;
        assert_pl_ok(solve_ns(net, (ns_opts){0}, &stats, &cost));
        if (cost != want)
            fail_msg("%s: cost %" PRId64 ", expected %" PRId64, file, cost, want);
        assert_true(stats.iterations > 0);
        assert_true(stats.memory_bytes >= 25 * (int64_t)arcs);
        assert_true(stats.memory_bytes <= 48 * (int64_t)arcs + 100 * ((int64_t)nodes + 1) + 1024);
        if (arcs < 1000) { /* and with every invariant checked */
            cost = 0;
            assert_pl_ok(solve_ns(net, (ns_opts){.checked = 1, .cold = 1}, NULL, &cost));
            assert_int_equal(cost, want);
        }
        pl_flownet_free(net);
    }
    free(fixtures);
}

/* ---- random networks against ssp ------------------------------------------ */

static void agree_with_ssp(const pl_randnet_opts *o, uint64_t seed, int count, ns_opts so)
{
    pl_test_rng rng = {seed};
    int optimal = 0;
    so.cold = 1;
    for (int i = 0; i < count; i++) {
        pl_flownet *net = pl_randnet(&rng, o);
        assert_non_null(net);
        int64_t want = 0, got = 0;
        pl_status want_st = pl_test_solve(net, "ssp", &want);
        pl_status got_st = solve_ns(net, so, NULL, &got);
        if (got_st != want_st)
            fail_msg("network %d (seed %" PRIu64 "): network-simplex says %s (%s), ssp says %s", i,
                     seed, pl_status_name(got_st), pl_last_error(), pl_status_name(want_st));
        if (got_st == PL_OK && got != want)
            fail_msg("network %d (seed %" PRIu64 "): network-simplex %" PRId64 ", ssp %" PRId64, i,
                     seed, got, want);
        optimal += got_st == PL_OK;
        pl_flownet_free(net);
    }
    /* The mix holds optimal cases as well as failures. */
    assert_true(optimal > count / 5);
    assert_true(optimal < count);
}

/* 400 small networks with every feature: negative costs, lower bounds,
 * infinite arcs (so infeasible and unbounded cases too); then 300 more with
 * the invariant-checking copy and tiny pivot blocks. */
static void test_random_small(void **state)
{
    (void)state;
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    agree_with_ssp(&o, 1, 400, (ns_opts){0});
    agree_with_ssp(&o, 5, 150, (ns_opts){.checked = 1});
    agree_with_ssp(&o, 6, 150, (ns_opts){.checked = 1, .pivot_block = 1});
}

/* 150 larger, denser networks with wide costs and capacities, and block
 * sizes 0 (default), 3 and 1000. */
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
     * of this size infeasible; the small test covers them. */
    o.lower_bounds = 0;
    agree_with_ssp(&o, 2, 50, (ns_opts){0});
    agree_with_ssp(&o, 3, 50, (ns_opts){.pivot_block = 3, .checked = 1});
    agree_with_ssp(&o, 4, 50, (ns_opts){.pivot_block = 1000});
}

/* ---- warm starts ------------------------------------------------------------ */

/* Rounds of a few random changes; after each, the warm re-solve of one
 * network must match a cold solve of its twin (same status, same cost,
 * certificate checked on both). Returns the number of solves that reused
 * the basis: reported warm by the driver and, when only costs, bounds or
 * supplies changed, using fewer pivots than the cold twin or none. */
static int warm_rounds(uint64_t seed, int32_t n, int32_t m, int64_t max_cost, int rounds, int per_round,
                       int structural, int checked)
{
    pl_test_rng rng = {seed};
    pl_flownet *warm = sc_warm_net(&rng, n, m, max_cost);
    pl_test_rng copy = {seed};
    pl_flownet *cold = sc_warm_net(&copy, n, m, max_cost);
    int reused = 0;
    for (int round = 0; round < rounds; round++) {
        pl_solve_stats ws, cs;
        int64_t wc = 0, cc = 0;
        pl_status wst = solve_ns(warm, (ns_opts){.checked = checked}, &ws, &wc);
        pl_status cst = solve_ns(cold, (ns_opts){.checked = checked, .cold = 1}, &cs, &cc);
        if (wst != cst || wc != cc)
            fail_msg("seed %" PRIu64 " round %d: warm %s cost %" PRId64 " (%s), cold %s cost %" PRId64,
                     seed, round, pl_status_name(wst), wc, wst ? pl_last_error() : "", pl_status_name(cst), cc);
        assert_int_equal(cs.warm, 0);
        assert_int_equal(ws.warm, round > 0);
        reused += ws.warm && ws.iterations < cs.iterations;
        /* Solved again unchanged, the kept basis is optimal as it is. */
        if (round % 4 == 3) {
            assert_pl_ok(solve_ns(warm, (ns_opts){.checked = checked}, &ws, &wc));
            assert_int_equal(ws.iterations, 0);
            assert_int_equal(wc, cc);
        }
        for (int c = 0; c < per_round; c++)
            sc_random_change(&rng, warm, cold, max_cost, structural);
    }
    pl_flownet_free(warm);
    pl_flownet_free(cold);
    return reused;
}

static void test_warm_random_changes(void **state)
{
    (void)state;
    /* 60 small networks x 12 rounds of 1-3 changes of costs, bounds and
     * supplies, with small and with wide costs. */
    int reused = 0, solves = 0;
    for (uint64_t seed = 100; seed < 130; seed++, solves += 11)
        reused += warm_rounds(seed, 8 + (int32_t)(seed % 10), 30, 20, 12, 1 + (int)(seed % 3), 0, 0);
    for (uint64_t seed = 200; seed < 230; seed++, solves += 11)
        reused += warm_rounds(seed, 20, 80, 100000, 12, 2, 0, seed % 2);
    /* Most warm solves beat their cold twin on pivots. */
    if (reused < solves * 2 / 3)
        fail_msg("only %d of %d warm solves took fewer pivots than cold", reused, solves);
    /* Bigger networks, more changes per round. */
    for (uint64_t seed = 250; seed < 256; seed++)
        warm_rounds(seed, 120, 900, 1000, 10, 25, 0, 0);
}

static void test_warm_structural_changes(void **state)
{
    (void)state;
    /* Arcs added and removed between solves too: the basis is dropped
     * (another structure), the answer must not change. */
    for (uint64_t seed = 300; seed < 330; seed++)
        warm_rounds(seed, 12, 40, 50, 12, 2, 1, seed % 2);
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
    int failures = 0, zero_pivots = 0;
    for (int i = 0; i < 60; i++) {
        pl_flownet *net = pl_randnet(&rng, &o);
        for (int round = 0; round < 6; round++) {
            int64_t want = 0, got = 0;
            pl_status got_st = solve_ns(net, (ns_opts){.checked = i % 2}, NULL, &got);
            pl_status want_st = pl_test_solve(net, "ssp", &want);
            if (got_st != want_st || got != want)
                fail_msg("network %d round %d: network-simplex %s %" PRId64 ", ssp %s %" PRId64, i, round,
                         pl_status_name(got_st), got, pl_status_name(want_st), want);
            failures += got_st != PL_OK;
            /* ssp's solve replaced the kept basis: re-solve with network
             * simplex (cold) so the next round starts from its own basis. */
            if (want_st == PL_OK) {
                pl_solve_stats st;
                assert_pl_ok(solve_ns(net, (ns_opts){.checked = i % 2}, &st, NULL));
                assert_pl_ok(solve_ns(net, (ns_opts){.checked = i % 2}, &st, NULL));
                zero_pivots += st.warm && st.iterations == 0;
            }
            sc_small_change(&rng, net);
        }
        pl_flownet_free(net);
    }
    assert_true(failures > 0);
    assert_true(zero_pivots > 20);
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
        for (int i = 0; i < m / 100; i++) {
            int32_t a = (int32_t)pl_test_range(&rng, 0, m - 1);
            pl_arc_info info;
            assert_pl_ok(pl_flownet_get_arc(net, a, &info));
            assert_pl_ok(pl_flownet_set_arc_cost(net, a, info.cost + pl_test_range(&rng, -20, 20)));
        }
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

/* A random live task (supply 1) of the Firmament network, or -1. */
static int32_t random_task(pl_test_rng *r, const pl_flownet *net)
{
    int32_t n = pl_flownet_node_count(net);
    for (int tries = 0; tries < 1000; tries++) {
        int32_t v = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t b = 0;
        if (!pl_flownet_node_removed(net, v) && pl_flownet_get_supply(net, v, &b) == PL_OK && b == 1)
            return v;
    }
    return -1;
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
    const int32_t sink = 0;
    int64_t b;
    assert_pl_ok(pl_flownet_get_supply(net, sink, &b));
    assert_true(b < 0);
    pl_solve_stats stats;
    assert_pl_ok(solve_ns(net, (ns_opts){0}, &stats, NULL));
    pl_test_rng rng = {17};
    int64_t warm_total = 0, cold_total = 0;
    for (int round = 0; round < 6; round++) {
        for (int k = 0; k < 5; k++) { /* a task leaves */
            int32_t v = random_task(&rng, net);
            assert_true(v > 0);
            assert_pl_ok(pl_flownet_remove_node(net, v));
            assert_pl_ok(pl_flownet_get_supply(net, sink, &b));
            assert_pl_ok(pl_flownet_set_supply(net, sink, b + 1));
        }
        for (int k = 0; k < 5; k++) { /* a task like a live one arrives */
            int32_t like = random_task(&rng, net), v;
            assert_true(like > 0);
            assert_pl_ok(pl_flownet_add_node(net, NULL, 1, &v));
            int32_t m = pl_flownet_arc_count(net);
            for (int32_t a = 0; a < m; a++) {
                pl_arc_info info;
                if (pl_flownet_arc_removed(net, a) || pl_flownet_get_arc(net, a, &info) != PL_OK ||
                    info.tail != like)
                    continue;
                assert_pl_ok(pl_flownet_add_arc(net, v, info.head, info.lower, info.upper,
                                                info.cost + pl_test_range(&rng, 0, 3), NULL));
            }
            assert_pl_ok(pl_flownet_get_supply(net, sink, &b));
            assert_pl_ok(pl_flownet_set_supply(net, sink, b - 1));
        }
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
    sc_set_extra_check(expect_checked);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),
        SC_CASES(NS),
        SC_CASES_EXTRA(NS),
        cmocka_unit_test(test_entering_arc_blocks),
        cmocka_unit_test(test_loop_arcs_cost_flip),
        cmocka_unit_test(test_degenerate_assignment),
        cmocka_unit_test(test_huge_cost_chain),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_max_iterations),
        cmocka_unit_test(test_pivot_block),
        cmocka_unit_test(test_direct_certificate_and_memory),
        cmocka_unit_test(test_direct_saved_basis),
        cmocka_unit_test(test_direct_warm_after_changes),
        cmocka_unit_test(test_direct_warm_cost_only),
        cmocka_unit_test(test_direct_non_tree_costs),
        cmocka_unit_test(test_direct_cost_overflow),
        cmocka_unit_test(test_direct_nothing_to_do),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_random_small),
        cmocka_unit_test(test_random_larger),
        cmocka_unit_test(test_warm_random_changes),
        cmocka_unit_test(test_warm_structural_changes),
        cmocka_unit_test(test_warm_mixed_statuses),
        cmocka_unit_test(test_warm_start_is_used),
        cmocka_unit_test(test_warm_after_tasks_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
