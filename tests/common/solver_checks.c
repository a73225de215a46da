/* The shared battery's checks of the registry entry, the error paths and
 * the solver called directly on a normalised problem (see solver_cases.h). */
#include <string.h>
#include "solver_cases.h"

void sc_test_registered(void **state)
{
    const sc_solver *s = *state;
    const pl_solver_ops *ops = NULL;
    assert_pl_ok(pl_solver_find(s->name, &ops));
    assert_ptr_equal(ops, s->ops);
    assert_string_equal(ops->name, s->name);
    assert_true(strlen(ops->description) > 10);
    assert_int_equal((ops->flags & PL_SOLVER_WARM_START) != 0, (s->flags & SC_WARM) != 0);
    assert_int_equal(ops->free_state != NULL, (s->flags & SC_KEEPS_STATE) != 0);
}

/* ---- error paths ------------------------------------------------------- */

/* Infeasible networks that reach the solver (the supplies balance). */
pl_flownet *sc_infeasible_net(int k)
{
    pl_flownet *net = NULL;
    switch (k) {
    case 0: /* 5 units but the only route holds 3 */
        net = sc_new_net(3);
        sc_supply(net, 0, 5);
        sc_supply(net, 2, -5);
        sc_arc(net, 0, 1, 0, 3, 1);
        sc_arc(net, 1, 2, 0, 10, 1);
        break;
    case 1: /* a supply node with no arc at all */
        net = sc_new_net(3);
        sc_supply(net, 0, 1);
        sc_supply(net, 2, -1);
        sc_arc(net, 1, 2, 0, 10, 1);
        break;
    case 2: /* arcs everywhere but the wrong way round, with negative costs
             * that invite circulation */
        net = sc_new_net(4);
        sc_supply(net, 0, 2);
        sc_supply(net, 3, -2);
        sc_arc(net, 3, 0, 0, 5, -1);
        sc_arc(net, 0, 1, 0, 5, -2);
        sc_arc(net, 1, 0, 0, 5, 1);
        sc_arc(net, 2, 3, 0, 5, 1);
        break;
    case 3: /* a lower bound that cannot be met */
        net = sc_new_net(2);
        sc_arc(net, 0, 1, 2, 4, 1);
        break;
    case 4: /* 10 units from 0 to 3, min cut a->t 3 + s->b 4 = 7 */
        net = sc_new_net(4);
        sc_supply(net, 0, 10);
        sc_supply(net, 3, -10);
        sc_arc(net, 0, 1, 0, 4, 1);
        sc_arc(net, 0, 2, 0, 4, 1);
        sc_arc(net, 1, 3, 0, 3, 1);
        sc_arc(net, 2, 3, 0, 10, 1);
        break;
    default:
        fail_msg("no infeasible network %d", k);
    }
    return net;
}

static void expect_message(const sc_solver *s)
{
    if (s->infeasible_says ? !strstr(pl_last_error(), s->infeasible_says) : !*pl_last_error())
        fail_msg("%s: \"%s\" does not say \"%s\"", s->name, pl_last_error(),
                 s->infeasible_says ? s->infeasible_says : "anything");
}

/* Solving net fails with want, says why and keeps no solution; frees net. */
static void expect_refused(pl_flownet *net, const pl_solve_opts *o, pl_status want)
{
    assert_pl_status(sc_solve(net, o, NULL, NULL), want);
    assert_true(strlen(pl_last_error()) > 0);
    assert_false(pl_flownet_has_solution(net));
    pl_flownet_free(net);
}

/* Each infeasible network, with the checked copy too; then unbalanced
 * supplies, which the driver reports before any solver runs. No solution
 * is kept. */
void sc_test_infeasible(void **state)
{
    const sc_solver *s = *state;
    pl_solve_opts o = sc_opts(s);
    for (int k = 0; k < SC_INFEASIBLE_NETS; k++) {
        pl_flownet *net = sc_infeasible_net(k);
        o.ops = NULL;
        assert_pl_status(sc_solve(net, &o, NULL, NULL), PL_EINFEASIBLE);
        expect_message(s);
        assert_false(pl_flownet_has_solution(net));
        if (s->checked) {
            o.ops = s->checked;
            assert_pl_status(sc_solve(net, &o, NULL, NULL), PL_EINFEASIBLE);
        }
        pl_flownet_free(net);
    }
    o.ops = NULL;
    pl_flownet *net = sc_infeasible_net(4);
    sc_supply(net, 3, -9);
    expect_refused(net, &o, PL_EINFEASIBLE);
}

/* Negative cycles of infinite arcs (feasible with a supply, then with
 * none): the driver reports them before the solver runs. */
void sc_test_unbounded(void **state)
{
    const sc_solver *s = *state;
    pl_solve_opts o = sc_opts(s);
    pl_flownet *net = sc_new_net(3);
    sc_supply(net, 0, 1);
    sc_supply(net, 2, -1);
    sc_arc(net, 0, 1, 0, PL_CAP_INF, -2);
    sc_arc(net, 1, 0, 0, PL_CAP_INF, 1);
    sc_arc(net, 1, 2, 0, 1, 0);
    expect_refused(net, &o, PL_EUNBOUNDED);

    net = sc_new_net(2);
    sc_arc(net, 0, 1, 0, PL_CAP_INF, -1);
    sc_arc(net, 1, 0, 0, PL_CAP_INF, 0);
    expect_refused(net, &o, PL_EUNBOUNDED);
}

/* max_iterations on sc_classic6(): the number a cold solve needs succeeds,
 * one fewer stops there (SC_LIMIT_APPROX: by then) with PL_ELIMIT and no
 * solution. A warm re-solve
 * with nothing changed needs no iteration, so even a limit of 1 is never
 * reached. */
void sc_test_max_iterations(void **state)
{
    const sc_solver *s = *state;
    pl_flownet *net = sc_classic6();
    pl_solve_opts o = sc_opts(s);
    pl_solve_stats stats;
    o.cold_start = 1;
    assert_pl_ok(sc_solve(net, &o, &stats, NULL));
    int64_t needed = stats.iterations;
    if (s->classic6_iterations)
        assert_int_equal(needed, s->classic6_iterations);
    else
        assert_true(needed > 2);
    assert_string_equal(stats.solver, s->name);
    o.max_iterations = 1;
    assert_pl_status(sc_solve(net, &o, &stats, NULL), PL_ELIMIT);
    assert_non_null(strstr(pl_last_error(), s->limit_says ? s->limit_says : "limit"));
    assert_false(pl_flownet_has_solution(net));
    o.max_iterations = needed - 1;
    assert_pl_status(sc_solve(net, &o, &stats, NULL), PL_ELIMIT);
    if (s->flags & SC_LIMIT_APPROX)
        assert_true(stats.iterations <= needed - 1);
    else
        assert_int_equal(stats.iterations, needed - 1);
    o.max_iterations = needed;
    int64_t cost = 0;
    assert_pl_ok(sc_solve(net, &o, &stats, &cost));
    assert_int_equal(stats.iterations, needed);
    assert_int_equal(cost, 34);
    if (s->flags & SC_WARM) {
        o.cold_start = 0;
        o.max_iterations = 1;
        assert_pl_ok(sc_solve(net, &o, &stats, &cost));
        assert_int_equal(stats.warm, 1);
        assert_int_equal(stats.iterations, 0);
        assert_int_equal(cost, 34);
    }
    pl_flownet_free(net);
}

/* ---- a solver called directly on a normalised problem ---------------------- */

void sc_direct_build(sc_direct *d, int32_t n, int32_t m, const int32_t *tail, const int32_t *head,
                     const int64_t *cap, const int64_t *cost, const int64_t *sup)
{
    assert_in_range(n, 0, SC_DMAX);
    assert_in_range(m, 0, SC_DMAX);
    memset(d, 0, sizeof *d);
    for (int32_t a = 0; a < m; a++) {
        d->first[tail[a] + 1]++;
        d->first[head[a] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        d->first[v + 1] += d->first[v];
    int32_t pos[SC_DMAX + 1];
    memcpy(pos, d->first, sizeof pos);
    for (int32_t a = 0; a < m; a++) {
        d->arcs[pos[tail[a]]++] = 2 * a;
        d->arcs[pos[head[a]]++] = 2 * a + 1;
    }
    d->p = (pl_flow_problem){.n = n, .m = m, .tail = tail, .head = head, .cap = cap, .cost = cost,
                             .supply = sup, .out_first = d->first, .out_arcs = d->arcs,
                             .is_inf = d->inf, .cap_inf = 0, .structure_version = 7};
    d->out = (pl_flow_solution){.flow = d->flow, .potential = d->pot, .iterations = -1,
                                .state = &d->slot};
}

int64_t sc_direct_check(const sc_direct *d)
{
    const pl_flow_problem *p = &d->p;
    int64_t bal[SC_DMAX] = {0}, total = 0;
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

const int32_t sc_nc_tail[6] = {0, 1, 0, 2, 1, 2}, sc_nc_head[6] = {1, 3, 2, 3, 2, 1};
const int64_t sc_nc_cap[6] = {3, 3, 5, 5, 2, 9}, sc_nc_cost[6] = {-2, 1, 1, 1, -3, 4};
const int64_t sc_nc_sup[4] = {4, 0, 0, -4};

const int32_t sc_strand_tail[2] = {0, 1}, sc_strand_head[2] = {1, 2};
const int64_t sc_strand_cap[2] = {2, 10}, sc_strand_cost[2] = {1, -1};
const int64_t sc_strand_sup[4] = {9, 0, -13, 4};

/* The copy of the solver direct calls go to: the checked one if any. */
static const pl_solver_ops *direct_ops(const sc_solver *s)
{
    return s->checked ? s->checked : s->ops;
}

static pl_status direct_solve(const sc_solver *s, sc_direct *d)
{
    return direct_ops(s)->solve(&d->p, NULL, &d->out);
}

static void direct_free(const sc_solver *s, sc_direct *d)
{
    if (d->slot)
        direct_ops(s)->free_state(d->slot);
    d->slot = NULL;
}

/* The solver's own certificate on the -7 network: every residual arc with
 * capacity left has non-negative reduced cost; potentials come shifted to
 * minimum 0 (but with SC_UNSHIFTED). Then the suite's checks (memory, iterations). */
void sc_test_direct_certificate(void **state)
{
    const sc_solver *s = *state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    assert_pl_ok(direct_solve(s, &d));
    assert_int_equal(sc_direct_check(&d), -7);
    int64_t lowest = INT64_MAX;
    for (int32_t v = 0; v < 4; v++)
        lowest = d.pot[v] < lowest ? d.pot[v] : lowest;
    if (!(s->flags & SC_UNSHIFTED))
        assert_int_equal(lowest, 0);
    assert_true(d.out.iterations > 0);
    if (s->direct_checks)
        s->direct_checks(&d);
    direct_free(s, &d);
}

/* Supply stranded behind a capacity-2 arc (7 of node 0's 9 units) and at a
 * node no arc leaves (node 3's 4): infeasible, and no state kept. */
void sc_test_direct_infeasible(void **state)
{
    const sc_solver *s = *state;
    sc_direct d;
    sc_direct_build(&d, 4, 2, sc_strand_tail, sc_strand_head, sc_strand_cap, sc_strand_cost, sc_strand_sup);
    assert_pl_status(direct_solve(s, &d), PL_EINFEASIBLE);
    expect_message(s);
    assert_null(d.slot);
}

/* An empty problem, nodes without arcs, and a positive cycle (stays
 * empty) need no iteration; the empty problem keeps no state. */
void sc_test_direct_nothing_to_do(void **state)
{
    const sc_solver *s = *state;
    sc_direct d;
    sc_direct_build(&d, 0, 0, NULL, NULL, NULL, NULL, NULL);
    assert_pl_ok(direct_solve(s, &d));
    assert_int_equal(d.out.iterations, 0);
    assert_null(d.slot);

    static const int64_t zero[] = {0, 0, 0};
    sc_direct_build(&d, 3, 0, NULL, NULL, NULL, NULL, zero);
    assert_pl_ok(direct_solve(s, &d));
    assert_int_equal(d.out.iterations, 0);
    direct_free(s, &d);

    static const int32_t tail[] = {0, 1}, head[] = {1, 0};
    static const int64_t cap[] = {4, 4}, cost[] = {3, 0}, sup[] = {0, 0};
    sc_direct_build(&d, 2, 2, tail, head, cap, cost, sup);
    assert_pl_ok(direct_solve(s, &d));
    assert_int_equal(d.flow[0], 0);
    assert_int_equal(d.flow[1], 0);
    assert_int_equal(sc_direct_check(&d), 0);
    assert_int_equal(d.out.iterations, 0);
    direct_free(s, &d);
}

/* Warm start from the optimal flow and its potentials (and the solver's
 * kept state, if any): nothing to do, no iteration, and the answer comes
 * back unchanged. */
void sc_test_direct_warm_from_optimum(void **state)
{
    const sc_solver *s = *state;
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    assert_pl_ok(direct_solve(s, &d));
    int64_t flow[6], pot[4];
    memcpy(flow, d.flow, sizeof flow);
    memcpy(pot, d.pot, sizeof pot);
    d.p.warm = 1;
    d.out.iterations = -1;
    assert_pl_ok(direct_solve(s, &d));
    assert_int_equal(d.out.iterations, 0);
    assert_memory_equal(flow, d.flow, sizeof flow);
    assert_memory_equal(pot, d.pot, sizeof pot);
    assert_int_equal(sc_direct_check(&d), -7);
    direct_free(s, &d);
}

/* Warm start from garbage: an arbitrary flow within bounds and potentials
 * so far apart that they cannot be used (beyond +-2^60, or overflowing
 * when scaled by n + 1): the solver falls back to a cold start. Then
 * moderate garbage potentials, which are used as they are, and potentials
 * at the edge of the trusted range, far apart: the solve must stay within
 * int64 and still be exact. */
void sc_test_direct_warm_from_garbage(void **state)
{
    const sc_solver *s = *state;
    static const int64_t f0[] = {1, 3, 5, 0, 2, 9};
    sc_direct d;
    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.p.warm = 1;
    memcpy(d.flow, f0, sizeof f0);
    d.pot[0] = INT64_MAX / 2;
    d.pot[1] = -(INT64_MAX / 2);
    d.pot[2] = 7;
    assert_pl_ok(direct_solve(s, &d));
    assert_int_equal(sc_direct_check(&d), -7);
    direct_free(s, &d);

    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.p.warm = 1;
    memcpy(d.flow, f0, sizeof f0);
    static const int64_t p0[] = {100, -3, 55, 1};
    memcpy(d.pot, p0, sizeof p0);
    assert_pl_ok(direct_solve(s, &d));
    assert_int_equal(sc_direct_check(&d), -7);
    direct_free(s, &d);

    sc_direct_build(&d, 4, 6, sc_nc_tail, sc_nc_head, sc_nc_cap, sc_nc_cost, sc_nc_sup);
    d.p.warm = 1;
    d.pot[0] = (int64_t)1 << 60;
    d.pot[3] = -((int64_t)1 << 60);
    assert_pl_ok(direct_solve(s, &d));
    assert_int_equal(sc_direct_check(&d), -7);
    direct_free(s, &d);
}
