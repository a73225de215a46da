/* pl_feasible_flow (Dinic from a virtual source to a virtual sink) on the
 * normalised view of hand-built networks. Every result is checked for arc
 * bounds and for conservation against the supplies, and the amount of
 * supply routed is compared with the max-flow value worked out by hand (or,
 * for random networks, by an independent Edmonds-Karp on a matrix). */
#include "../common/testutil.h"
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"

/* A network plus its normalised view and a flow from pl_feasible_flow. */
typedef struct mf_case {
    pl_flownet *net;
    pl_flow_problem p;
    int64_t *flow;
    int feasible;
} mf_case;

static pl_flownet *new_net(int32_t nodes)
{
    pl_flownet *net = NULL;
    assert_pl_ok(pl_flownet_create(&net));
    if (nodes > 0)
        assert_pl_ok(pl_flownet_add_nodes(net, nodes, NULL));
    return net;
}

static void arc(pl_flownet *net, int32_t t, int32_t h, int64_t cap)
{
    assert_pl_ok(pl_flownet_add_arc(net, t, h, 0, cap, 0, NULL));
}

static void supply(pl_flownet *net, int32_t v, int64_t b)
{
    assert_pl_ok(pl_flownet_set_supply(net, v, b));
}

/* Normalise and run pl_feasible_flow. The flow array starts full of garbage
 * so a solver relying on a zeroed buffer would be caught. */
static void run_case(mf_case *c, pl_flownet *net)
{
    c->net = net;
    assert_pl_ok(pl_flownet_normalise(net, &c->p));
    assert_int_equal(c->p.n, pl_flownet_node_count(net));
    assert_int_equal(c->p.m, pl_flownet_arc_count(net));
    c->flow = malloc(((size_t)c->p.m + 1) * sizeof *c->flow);
    assert_non_null(c->flow);
    for (int32_t a = 0; a < c->p.m; a++)
        c->flow[a] = 12345;
    c->feasible = -1;
    assert_pl_ok(pl_feasible_flow(&c->p, c->flow, &c->feasible));
    assert_true(c->feasible == 0 || c->feasible == 1);
}

static void free_case(mf_case *c)
{
    free(c->flow);
    pl_flownet_free(c->net);
}

/* Check 0 <= flow <= cap and that every node sends at most its supply (or
 * absorbs at most its demand) and transit nodes conserve flow; exactly the
 * supplies when feasible. Returns the supply routed. */
static int64_t check_flow(const mf_case *c)
{
    const pl_flow_problem *p = &c->p;
    int64_t *bal = calloc((size_t)p->n + 1, sizeof *bal);
    assert_non_null(bal);
    for (int32_t a = 0; a < p->m; a++) {
        if (c->flow[a] < 0 || c->flow[a] > p->cap[a])
            fail_msg("arc %d: flow %lld outside 0..%lld", a, (long long)c->flow[a],
                     (long long)p->cap[a]);
        bal[p->tail[a]] += c->flow[a];
        bal[p->head[a]] -= c->flow[a];
    }
    int64_t routed = 0, absorbed = 0;
    for (int32_t v = 0; v < p->n; v++) {
        int64_t b = p->supply[v];
        int ok = b > 0 ? bal[v] >= 0 && bal[v] <= b
               : b < 0 ? bal[v] <= 0 && bal[v] >= b
               : bal[v] == 0;
        if (c->feasible == 1)
            ok = bal[v] == b;
        if (!ok)
            fail_msg("node %d: net outflow %lld with supply %lld (feasible=%d)", v,
                     (long long)bal[v], (long long)b, c->feasible);
        if (b > 0)
            routed += bal[v];
        else if (b < 0)
            absorbed -= bal[v];
    }
    assert_int_equal(routed, absorbed);
    free(bal);
    return routed;
}

static int64_t total_supply(const pl_flow_problem *p)
{
    int64_t t = 0;
    for (int32_t v = 0; v < p->n; v++)
        if (p->supply[v] > 0)
            t += p->supply[v];
    return t;
}

/* s=0 (5) -> a=1 (cap 3), s -> b=2 (cap 4), a -> b (cap 1), a -> t=3 (cap 2),
 * b -> t (cap 5), t demands 5. Cuts: {s} 7, {s,a,b} 7, so 5 fits. */
static void test_feasible_diamond(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 5);
    supply(net, 3, -5);
    arc(net, 0, 1, 3);
    arc(net, 0, 2, 4);
    arc(net, 1, 2, 1);
    arc(net, 1, 3, 2);
    arc(net, 2, 3, 5);
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 1);
    assert_int_equal(check_flow(&c), 5);
    free_case(&c);
}

/* s (10) -> a cap 4, s -> b cap 4, a -> t cap 3, b -> t cap 10, t -10.
 * Min cut {s,a}: a->t 3 + s->b 4 = 7, so 7 routed and 3 units are stuck. */
static void test_infeasible_cut(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 10);
    supply(net, 3, -10);
    arc(net, 0, 1, 4);
    arc(net, 0, 2, 4);
    arc(net, 1, 3, 3);
    arc(net, 2, 3, 10);
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 0);
    assert_int_equal(check_flow(&c), 7);
    assert_int_equal(c.flow[0], 3);
    assert_int_equal(c.flow[1], 4);
    free_case(&c);
}

/* Sources s1=0 (3), s2=1 (4); sinks t1=2 (-5), t2=3 (-2).
 * s1->t1 cap 3, s2->t1 cap 2, s2->x=4 cap 5, x->t2 cap 5: s1 must use its
 * only arc fully, s2 splits 2 to t1 and 2 via x to t2. All flows forced. */
static void test_multi_source_sink(void **state)
{
    (void)state;
    pl_flownet *net = new_net(5);
    supply(net, 0, 3);
    supply(net, 1, 4);
    supply(net, 2, -5);
    supply(net, 3, -2);
    arc(net, 0, 2, 3);
    arc(net, 1, 2, 2);
    arc(net, 1, 4, 5);
    arc(net, 4, 3, 5);
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 1);
    assert_int_equal(check_flow(&c), 7);
    assert_int_equal(c.flow[0], 3);
    assert_int_equal(c.flow[1], 2);
    assert_int_equal(c.flow[2], 2);
    assert_int_equal(c.flow[3], 2);
    free_case(&c);
}

/* Only the path through a carries flow: the direct arc has capacity 0. */
static void test_zero_capacity(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 2);
    supply(net, 2, -2);
    arc(net, 0, 2, 0);
    arc(net, 0, 1, 2);
    arc(net, 1, 2, 2);
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 1);
    assert_int_equal(check_flow(&c), 2);
    assert_int_equal(c.flow[0], 0);
    assert_int_equal(c.flow[1], 2);
    free_case(&c);

    /* With the detour removed nothing can move. */
    net = new_net(2);
    supply(net, 0, 2);
    supply(net, 1, -2);
    arc(net, 0, 1, 0);
    run_case(&c, net);
    assert_int_equal(c.feasible, 0);
    assert_int_equal(check_flow(&c), 0);
    assert_int_equal(c.flow[0], 0);
    free_case(&c);
}

/* Three parallel arcs 0->1 of capacity 2, 3, 0: 5 units need exactly
 * (2, 3, 0); 6 units are one too many. */
static void test_parallel_arcs(void **state)
{
    (void)state;
    for (int64_t want = 5; want <= 6; want++) {
        pl_flownet *net = new_net(2);
        supply(net, 0, want);
        supply(net, 1, -want);
        arc(net, 0, 1, 2);
        arc(net, 0, 1, 3);
        arc(net, 0, 1, 0);
        mf_case c;
        run_case(&c, net);
        assert_int_equal(c.feasible, want == 5);
        assert_int_equal(check_flow(&c), 5);
        assert_int_equal(c.flow[0], 2);
        assert_int_equal(c.flow[1], 3);
        assert_int_equal(c.flow[2], 0);
        free_case(&c);
    }
}

/* Node 2 has supply 4 but no arc at all: whatever else is routed, it is not. */
static void test_supply_without_arcs(void **state)
{
    (void)state;
    pl_flownet *net = new_net(4);
    supply(net, 0, 3);
    supply(net, 1, -7);
    supply(net, 2, 4);
    arc(net, 0, 1, 10);
    arc(net, 3, 1, 10); /* node 3: no supply, feeds nothing */
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 0);
    assert_int_equal(check_flow(&c), 3);
    assert_int_equal(c.flow[0], 3);
    assert_int_equal(c.flow[1], 0);
    free_case(&c);
}

/* Zero supplies (with arcs and a loop) and an empty network are trivially
 * feasible with zero flow. */
static void test_trivial(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    arc(net, 0, 1, 5);
    arc(net, 1, 2, 5);
    arc(net, 2, 0, 5);
    arc(net, 1, 1, 5);
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 1);
    for (int32_t a = 0; a < 4; a++)
        assert_int_equal(c.flow[a], 0);
    free_case(&c);

    run_case(&c, new_net(0));
    assert_int_equal(c.feasible, 1);
    free_case(&c);
}

/* Lower bounds are folded into the supplies by normalisation: arc 0->1 with
 * lower 2 makes node 0 demand 2 and node 1 supply 2, which only the return
 * arc 1->0 can carry back. Capacity 3 suffices, capacity 1 routes 1 of 2. */
static void test_lower_bounds(void **state)
{
    (void)state;
    for (int64_t back = 1; back <= 3; back += 2) {
        pl_flownet *net = new_net(2);
        assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 2, 5, 0, NULL));
        arc(net, 1, 0, back);
        mf_case c;
        run_case(&c, net);
        assert_int_equal(c.p.supply[0], -2);
        assert_int_equal(c.p.supply[1], 2);
        assert_int_equal(c.feasible, back >= 2);
        assert_int_equal(check_flow(&c), back >= 2 ? 2 : 1);
        free_case(&c);
    }
}

/* An infinite arc gets the finite cap_inf; the flow must stay within it. */
static void test_infinite_arc(void **state)
{
    (void)state;
    pl_flownet *net = new_net(3);
    supply(net, 0, 1000000);
    supply(net, 2, -1000000);
    assert_pl_ok(pl_flownet_add_arc(net, 0, 1, 0, PL_CAP_INF, 1, NULL));
    assert_pl_ok(pl_flownet_add_arc(net, 1, 2, 0, PL_CAP_INF, 1, NULL));
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 1);
    assert_int_equal(check_flow(&c), 1000000);
    assert_int_equal(c.flow[0], 1000000);
    free_case(&c);
}

/* Unit capacities: 0 -> {2,1}, 2 -> {3,4}, 1 -> 3, 3 -> 5, 4 -> 5; 2 units
 * from 0 to 5. Arcs are tried in id order, so the first phase sends
 * 0-2-3-5 and blocks 0-1-3; the second unit needs the longer path
 * 0-1-3-2-4-5 through the backward arc 3->2. The only maximum flow is
 * 0-2-4-5 plus 0-1-3-5. */
static void test_needs_backward_arc(void **state)
{
    (void)state;
    pl_flownet *net = new_net(6);
    supply(net, 0, 2);
    supply(net, 5, -2);
    arc(net, 0, 2, 1);
    arc(net, 0, 1, 1);
    arc(net, 2, 3, 1);
    arc(net, 2, 4, 1);
    arc(net, 1, 3, 1);
    arc(net, 3, 5, 1);
    arc(net, 4, 5, 1);
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 1);
    assert_int_equal(check_flow(&c), 2);
    /* The only way to route 2 units: 0-2-4-5 and 0-1-3-5. */
    assert_int_equal(c.flow[2], 0);
    assert_int_equal(c.flow[3], 1);
    assert_int_equal(c.flow[4], 1);
    free_case(&c);
}

/* A chain of 100000 nodes: the path search is iterative, so its depth does
 * not touch the C stack. A parallel chain of reverse arcs is ignored. */
static void test_long_path(void **state)
{
    (void)state;
    const int32_t n = 100000;
    pl_flownet *net = new_net(n);
    assert_pl_ok(pl_flownet_reserve(net, n, 2 * n));
    supply(net, 0, 7);
    supply(net, n - 1, -7);
    for (int32_t v = 0; v + 1 < n; v++) {
        arc(net, v, v + 1, 9);
        arc(net, v + 1, v, 9);
    }
    mf_case c;
    run_case(&c, net);
    assert_int_equal(c.feasible, 1);
    assert_int_equal(check_flow(&c), 7);
    for (int32_t a = 0; a < c.p.m; a += 2)
        if (c.flow[a] - c.flow[a + 1] != 7)
            fail_msg("chain link %d carries %lld net", a / 2,
                     (long long)(c.flow[a] - c.flow[a + 1]));
    free_case(&c);
}

/* Independent max flow: Edmonds-Karp on a capacity matrix with super source
 * ns and super sink ns+1. */
#define RN_MAX 8
static int64_t matrix_maxflow(const pl_flow_problem *p)
{
    int64_t cap[RN_MAX + 2][RN_MAX + 2] = {{0}};
    int32_t S = p->n, T = p->n + 1, N = p->n + 2;
    for (int32_t a = 0; a < p->m; a++)
        if (p->tail[a] != p->head[a])
            cap[p->tail[a]][p->head[a]] += p->cap[a];
    for (int32_t v = 0; v < p->n; v++) {
        if (p->supply[v] > 0)
            cap[S][v] += p->supply[v];
        else
            cap[v][T] -= p->supply[v];
    }
    int64_t total = 0;
    for (;;) {
        int32_t prev[RN_MAX + 2], queue[RN_MAX + 2], qh = 0, qt = 0;
        for (int32_t v = 0; v < N; v++)
            prev[v] = -1;
        prev[S] = S;
        queue[qt++] = S;
        while (qh < qt && prev[T] < 0) {
            int32_t u = queue[qh++];
            for (int32_t v = 0; v < N; v++)
                if (prev[v] < 0 && cap[u][v] > 0) {
                    prev[v] = u;
                    queue[qt++] = v;
                }
        }
        if (prev[T] < 0)
            return total;
        int64_t d = INT64_MAX;
        for (int32_t v = T; v != S; v = prev[v])
            d = cap[prev[v]][v] < d ? cap[prev[v]][v] : d;
        for (int32_t v = T; v != S; v = prev[v]) {
            cap[prev[v]][v] -= d;
            cap[v][prev[v]] += d;
        }
        total += d;
    }
}

/* Random small networks (parallel arcs, loops, zero capacities, balanced
 * random supplies): routed amount equals the matrix max flow, and feasible
 * exactly when that covers all supply. */
static void test_random_against_matrix(void **state)
{
    (void)state;
    pl_test_rng rng = {20240601};
    int feasible_seen = 0, infeasible_seen = 0;
    for (int iter = 0; iter < 2000; iter++) {
        int32_t n = (int32_t)pl_test_range(&rng, 2, RN_MAX);
        pl_flownet *net = new_net(n);
        int32_t m = (int32_t)pl_test_range(&rng, 0, 3 * n);
        for (int32_t i = 0; i < m; i++)
            arc(net, (int32_t)pl_test_range(&rng, 0, n - 1),
                (int32_t)pl_test_range(&rng, 0, n - 1), pl_test_range(&rng, 0, 6));
        /* Balanced supplies: move random units from one node to another. */
        int64_t *b = calloc((size_t)n, sizeof *b);
        assert_non_null(b);
        for (int k = (int)pl_test_range(&rng, 0, 4); k > 0; k--) {
            int64_t u = pl_test_range(&rng, 1, 5);
            b[pl_test_range(&rng, 0, n - 1)] += u;
            b[pl_test_range(&rng, 0, n - 1)] -= u;
        }
        for (int32_t v = 0; v < n; v++)
            supply(net, v, b[v]);
        free(b);

        mf_case c;
        run_case(&c, net);
        int64_t want = matrix_maxflow(&c.p);
        int64_t got = check_flow(&c);
        if (got != want)
            fail_msg("iteration %d: routed %lld, max flow is %lld", iter, (long long)got,
                     (long long)want);
        assert_int_equal(c.feasible, want == total_supply(&c.p));
        feasible_seen += c.feasible;
        infeasible_seen += !c.feasible;
        free_case(&c);
    }
    /* The generator must exercise both outcomes to mean anything. */
    assert_true(feasible_seen > 100);
    assert_true(infeasible_seen > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feasible_diamond),
        cmocka_unit_test(test_infeasible_cut),
        cmocka_unit_test(test_multi_source_sink),
        cmocka_unit_test(test_zero_capacity),
        cmocka_unit_test(test_parallel_arcs),
        cmocka_unit_test(test_supply_without_arcs),
        cmocka_unit_test(test_trivial),
        cmocka_unit_test(test_lower_bounds),
        cmocka_unit_test(test_infinite_arc),
        cmocka_unit_test(test_needs_backward_arc),
        cmocka_unit_test(test_long_path),
        cmocka_unit_test(test_random_against_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
