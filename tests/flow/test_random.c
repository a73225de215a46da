/* Every built-in solver against GLPK on many random small networks:
 * mixed supplies, lower bounds, negative costs, infinite arcs, and so
 * infeasible and unbounded cases. pl_glpk_min_cost builds its own LP from the
 * raw arrays, independently of pl_flownet_solve's normalisation. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "../common/testutil.h"
#include "internal/glpk_util.h"

#define N_NETWORKS 600

typedef struct tally {
    int optimal, infeasible, unbounded;
} tally;

/* GLPK's answer for net: status and cost. */
static pl_status glpk_answer(const pl_flownet *net, int64_t *cost)
{
    int32_t n = pl_flownet_node_count(net), m = pl_flownet_arc_count(net);
    int32_t *tail = calloc((size_t)m + 1, sizeof *tail), *head = calloc((size_t)m + 1, sizeof *head);
    int64_t *lo = calloc((size_t)m + 1, 8), *up = calloc((size_t)m + 1, 8), *c = calloc((size_t)m + 1, 8);
    int64_t *b = calloc((size_t)n + 1, 8);
    for (int32_t a = 0; a < m; a++) {
        pl_arc_info info;
        pl_flownet_get_arc(net, a, &info);
        tail[a] = info.tail;
        head[a] = info.head;
        lo[a] = info.lower;
        up[a] = info.upper;
        c[a] = info.cost;
    }
    for (int32_t v = 0; v < n; v++)
        pl_flownet_get_supply(net, v, &b[v]);
    pl_status st = pl_glpk_min_cost(n, m, tail, head, lo, up, c, b, cost);
    free(tail); free(head); free(lo); free(up); free(c); free(b);
    return st;
}

static void agree_with_glpk(const char *solver, const pl_randnet_opts *o, uint64_t seed, tally *t)
{
    pl_test_rng rng = {seed};
    for (int i = 0; i < N_NETWORKS; i++) {
        pl_flownet *net = pl_randnet(&rng, o);
        assert_non_null(net);
        int64_t want = 0, got = 0;
        pl_status want_st = glpk_answer(net, &want);
        pl_status got_st = pl_test_solve(net, solver, &got);
        if (got_st != want_st)
            fail_msg("network %d (seed %" PRIu64 "): %s says %s (%s), GLPK says %s", i, seed, solver,
                     pl_status_name(got_st), pl_last_error(), pl_status_name(want_st));
        if (got_st == PL_OK) {
            if (got != want)
                fail_msg("network %d (seed %" PRIu64 "): %s cost %" PRId64 ", GLPK %" PRId64, i, seed,
                         solver, got, want);
            /* And the independent LP check on the held solution agrees too. */
            assert_pl_ok(pl_flow_lp_check(net, NULL));
            t->optimal++;
        } else if (got_st == PL_EINFEASIBLE) {
            t->infeasible++;
        } else if (got_st == PL_EUNBOUNDED) {
            t->unbounded++;
        }
        pl_flownet_free(net);
    }
}

/* The mix must really contain every outcome, or the test proves little. */
static void check_mix(const tally *t)
{
    assert_true(t->optimal >= N_NETWORKS / 4);
    assert_true(t->infeasible >= 10);
    assert_true(t->unbounded >= 10);
}

static void run_mixed(const char *solver)
{
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    tally t = {0};
    agree_with_glpk(solver, &o, 12345, &t);
    check_mix(&t);
}

/* Denser networks with feasible flows more likely: bigger capacities, no
 * lower bounds or infinite arcs; costs still mixed in sign. */
static void run_dense(const char *solver)
{
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    o.max_nodes = 25;
    o.max_arcs = 120;
    o.max_cap = 40;
    o.max_supply = 5;
    o.lower_bounds = 0;
    o.inf_arcs = 0;
    tally t = {0};
    agree_with_glpk(solver, &o, 999, &t);
    assert_true(t.optimal >= N_NETWORKS / 4);
    assert_int_equal(t.unbounded, 0);
}

static void test_ssp_mixed(void **s) { (void)s; run_mixed("ssp"); }
static void test_ssp_dense(void **s) { (void)s; run_dense("ssp"); }
static void test_cc_mixed(void **s) { (void)s; run_mixed("cycle-canceling"); }
static void test_cc_dense(void **s) { (void)s; run_dense("cycle-canceling"); }
static void test_glpk_mixed(void **s) { (void)s; run_mixed("glpk"); }
static void test_glpk_dense(void **s) { (void)s; run_dense("glpk"); }
static void test_ns_mixed(void **s) { (void)s; run_mixed("network-simplex"); }
static void test_ns_dense(void **s) { (void)s; run_dense("network-simplex"); }
static void test_cs_mixed(void **s) { (void)s; run_mixed("cost-scaling"); }
static void test_cs_dense(void **s) { (void)s; run_dense("cost-scaling"); }
static void test_rx_mixed(void **s) { (void)s; run_mixed("relaxation"); }
static void test_rx_dense(void **s) { (void)s; run_dense("relaxation"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ssp_mixed),  cmocka_unit_test(test_ssp_dense),
        cmocka_unit_test(test_cc_mixed),   cmocka_unit_test(test_cc_dense),
        cmocka_unit_test(test_glpk_mixed), cmocka_unit_test(test_glpk_dense),
        cmocka_unit_test(test_ns_mixed),   cmocka_unit_test(test_ns_dense),
        cmocka_unit_test(test_cs_mixed),   cmocka_unit_test(test_cs_dense),
        cmocka_unit_test(test_rx_mixed),   cmocka_unit_test(test_rx_dense),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
