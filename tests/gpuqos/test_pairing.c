/* Min-Max Pairing, Greedy and the min-cost-flow optimum: hand-made matrices
 * (values worked out in the comments), the two fixed bugs of Algorithm 2,
 * and random matrices where neither heuristic may beat the flow optimum,
 * which itself must equal exhaustive search. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include <placement/gpuqos.h>

#define E NAN
#define TOL 1e-6

static pl_gpu_pairing_problem prob(int32_t n, int32_t m, const double *b, const double *l)
{
    pl_gpu_pairing_problem p = { n, m, b, l };
    return p;
}

static void assert_pairs(const int32_t *got, const int32_t *want, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("LS %d paired with %d, want %d", i, got[i], want[i]);
}

static double value(const pl_gpu_pairing_problem *p, const int32_t *pair)
{
    double v = -1;
    assert_pl_ok(pl_gpu_pairing_value(p, pair, &v));
    return v;
}

/* Row 1 has one element: (1,0), then (0,1). Value 1 + 1/1.5 + 1 + 1/1.2 =
 * 3.5; the alternative (0,0) + LS 1 alone is 1 + 1/1.1 + 1 = 2.909. */
static void test_hand_2x2(void **state)
{
    (void)state;
    const double m[] = { 0.1, 0.5, 0.2, E };
    pl_gpu_pairing_problem p = prob(2, 2, m, NULL);
    int32_t a[2], b[2];
    const int32_t want[] = { 1, 0 };
    assert_pl_ok(pl_gpu_mmp(&p, a));
    assert_pl_ok(pl_gpu_pairing_optimal(&p, NULL, b));
    assert_pairs(a, want, 2);
    assert_pairs(b, want, 2);
    assert_true(fabs(value(&p, a) - 3.5) < 1e-12);
    double mv, ov;
    assert_pl_ok(pl_gpu_mmp_vs_optimal(&p, NULL, &mv, &ov));
    assert_true(fabs(mv - 3.5) < 1e-12 && fabs(ov - 3.5) < 1e-12);
}

/* Empty rows run alone, empty columns are dropped; the LS term counts:
 * with ls 0.25 on (0,0) and 0 on (0,1): (0,0) gives 0.8 + 1/1.1 = 1.709,
 * (0,1) gives 1 + 1/1.3 = 1.769, so the optimum takes (0,1) although its
 * batch slowdown is larger; MMP (batch slowdowns only) drops 0.3 and takes
 * (0,0). */
static void test_empty_and_ls_term(void **state)
{
    (void)state;
    const double m[] = { 0.1, 0.3, E, E, E, E };
    const double l[] = { 0.25, 0.0, 0, 0, 0, 0 };
    pl_gpu_pairing_problem p = prob(2, 3, m, l);
    int32_t a[2], b[2];
    assert_pl_ok(pl_gpu_mmp(&p, a));
    assert_pl_ok(pl_gpu_pairing_optimal(&p, NULL, b));
    const int32_t wa[] = { 0, -1 }, wb[] = { 1, -1 };
    assert_pairs(a, wa, 2);
    assert_pairs(b, wb, 2);
    assert_true(fabs(value(&p, a) - (0.8 + 1 / 1.1 + 1)) < 1e-12);
    assert_true(fabs(value(&p, b) - (1 + 1 / 1.3 + 1)) < 1e-12);
}

/* Fix 1 (line 30 tests column C_j): dropping 0.9 empties column 2, so y
 * falls to 2 = x; after 0.4 goes, (0,0) is paired by its row and then
 * column 1's single element (1,1) by the column rule because x == y == 1.
 * With y stuck at 3 the column rule would not fire, 0.3 would be dropped
 * and LS 1 would run alone. Optimum: the same (0,0), (1,1). */
static void test_fix_column_count(void **state)
{
    (void)state;
    const double m[] = { 0.1, 0.4, E, 0.2, 0.3, 0.9 };
    pl_gpu_pairing_problem p = prob(2, 3, m, NULL);
    int32_t a[2], b[2];
    const int32_t want[] = { 0, 1 };
    assert_pl_ok(pl_gpu_mmp(&p, a));
    assert_pairs(a, want, 2);
    assert_pl_ok(pl_gpu_pairing_optimal(&p, NULL, b));
    assert_pairs(b, want, 2);
}

/* Fix 2 (no spin): LS 0 takes batch 0 by its row; then the maximum 0.9 is
 * dropped, emptying LS 1's row: it runs alone instead of the loop spinning
 * with x = 1 forever. Batch 2/3 go to LS 2 after 0.3 is dropped. The
 * variant that drops only when stuck pairs LS 1 with batch 1 (the
 * optimum). Values: MMP (1 + 1/1.1) + 1 + (1 + 1/1.2); optimum adds
 * 1/1.9 - 0 for LS 1 paired instead of alone. */
static void test_fix_no_spin(void **state)
{
    (void)state;
    const double m[] = { 0.1, E, E, E,
                         E, 0.9, E, E,
                         E, E, 0.2, 0.3 };
    pl_gpu_pairing_problem p = prob(3, 4, m, NULL);
    int32_t a[3], v[3], b[3];
    const int32_t wa[] = { 0, -1, 2 }, wopt[] = { 0, 1, 2 };
    assert_pl_ok(pl_gpu_mmp(&p, a));
    assert_pairs(a, wa, 3);
    assert_pl_ok(pl_gpu_mmp_variant(&p, 1, v));
    assert_pairs(v, wopt, 3);
    assert_pl_ok(pl_gpu_pairing_optimal(&p, NULL, b));
    assert_pairs(b, wopt, 3);
    assert_true(fabs(value(&p, a) - (1 + 1 / 1.1 + 1 + 1 + 1 / 1.2)) < 1e-12);
    assert_true(fabs(value(&p, b) - value(&p, a) - (1 + 1 / 1.9 - 1)) < 1e-12);
    /* two rows competing for one column: the second is left empty by the pairing */
    const double m2[] = { 0.1, E, 0.3, E };
    pl_gpu_pairing_problem p2 = prob(2, 2, m2, NULL);
    const int32_t w2[] = { 0, -1 };
    assert_pl_ok(pl_gpu_mmp(&p2, a));
    assert_pairs(a, w2, 2);
}

/* As printed, Algorithm 2 drops the maximum even in a round that paired:
 * column 2 empty (dropped); 0.5 then 0.4 go; round 3 pairs (2,1) by its
 * row and (1,3) by the column rule (x == y == 2), then drops 0.05, the last
 * element of LS 0, which runs alone. The "only when stuck" variant pairs
 * it with batch 0: the optimum, 3 + 1/1.05 + 1/1.2 + 1/1.15. */
static void test_literal_drop_after_pair(void **state)
{
    (void)state;
    const double m[] = { 0.05, 0.30, E, 0.50,
                         0.10, E, E, 0.20,
                         E, 0.15, E, 0.40 };
    pl_gpu_pairing_problem p = prob(3, 4, m, NULL);
    int32_t a[3], v[3], b[3];
    const int32_t wa[] = { -1, 3, 1 }, wopt[] = { 0, 3, 1 };
    assert_pl_ok(pl_gpu_mmp(&p, a));
    assert_pairs(a, wa, 3);
    assert_pl_ok(pl_gpu_mmp_variant(&p, 1, v));
    assert_pairs(v, wopt, 3);
    assert_pl_ok(pl_gpu_pairing_optimal(&p, NULL, b));
    assert_pairs(b, wopt, 3);
    assert_true(fabs(value(&p, b) - (3 + 1 / 1.05 + 1 / 1.2 + 1 / 1.15)) < 1e-12);
    /* every registered solver finds the same optimum, certificate checked */
    static const char *const solvers[] = { "ssp", "cost-scaling", "network-simplex",
                                           "cycle-canceling", "glpk" };
    for (int s = 0; s < 5; s++) {
        pl_solve_opts o;
        pl_solve_opts_init(&o);
        o.solver = solvers[s];
        o.verify = 1;
        assert_pl_ok(pl_gpu_pairing_optimal(&p, &o, b));
        assert_pairs(b, wopt, 3);
    }
}

/* Greedy takes the lowest slowdown first: (0,0) = 0.1 leaves LS 1 only
 * batch 0... which is gone, so LS 1 runs alone; MMP pairs both. */
static void test_greedy_vs_mmp(void **state)
{
    (void)state;
    const double m[] = { 0.1, 0.2, 0.15, E };
    pl_gpu_pairing_problem p = prob(2, 2, m, NULL);
    int32_t g[2], a[2];
    const int32_t wg[] = { 0, -1 }, wa[] = { 1, 0 };
    assert_pl_ok(pl_gpu_greedy(&p, g));
    assert_pairs(g, wg, 2);
    assert_pl_ok(pl_gpu_mmp(&p, a));
    assert_pairs(a, wa, 2);
}

/* ---- random matrices --------------------------------------------------------------- */

static double best_exhaustive(const pl_gpu_pairing_problem *p, int32_t i, char *used)
{
    if (i == p->nls)
        return 0;
    double best = 1 + best_exhaustive(p, i + 1, used); /* alone */
    for (int32_t j = 0; j < p->nbatch; j++) {
        size_t e = (size_t)i * (size_t)p->nbatch + (size_t)j;
        if (used[j] || isnan(p->batch_slow[e]))
            continue;
        used[j] = 1;
        double v = 1 / (1 + (p->ls_slow ? p->ls_slow[e] : 0)) + 1 / (1 + p->batch_slow[e]) +
                   best_exhaustive(p, i + 1, used);
        used[j] = 0;
        if (v > best)
            best = v;
    }
    return best;
}

static void test_random_never_beats_flow(void **state)
{
    (void)state;
    pl_test_rng rng = { 20260701 };
    const int runs = 3000;
    int mmp_hits = 0, var_hits = 0, greedy_hits = 0;
    double mmp_ratio = 0, var_ratio = 0, greedy_ratio = 0;
    for (int run = 0; run < runs; run++) {
        int32_t n = (int32_t)pl_test_range(&rng, 1, 5);
        int32_t m = (int32_t)pl_test_range(&rng, n, 7);
        int density = (int)pl_test_range(&rng, 20, 100);
        double b[35], l[35];
        for (int32_t e = 0; e < n * m; e++) {
            b[e] = pl_test_range(&rng, 1, 100) <= density ? (double)pl_test_range(&rng, 0, 1000) / 500.0 : NAN;
            l[e] = (double)pl_test_range(&rng, 0, 300) / 1000.0;
        }
        pl_gpu_pairing_problem p = prob(n, m, b, (run & 1) ? l : NULL);
        int32_t pa[5], pv[5], pg[5], po[5];
        assert_pl_ok(pl_gpu_mmp(&p, pa));
        assert_pl_ok(pl_gpu_mmp_variant(&p, 1, pv));
        assert_pl_ok(pl_gpu_greedy(&p, pg));
        assert_pl_ok(pl_gpu_pairing_optimal(&p, NULL, po));
        double va = value(&p, pa), vv = value(&p, pv), vg = value(&p, pg), vo = value(&p, po);
        char used[8] = { 0 };
        double ex = best_exhaustive(&p, 0, used);
        if (fabs(vo - ex) > TOL)
            fail_msg("run %d: flow optimum %.9f, exhaustive %.9f", run, vo, ex);
        if (va > vo + TOL || vv > vo + TOL || vg > vo + TOL)
            fail_msg("run %d: a heuristic beats the optimum %.9f: mmp %.9f variant %.9f greedy %.9f",
                     run, vo, va, vv, vg);
        mmp_hits += va > vo - TOL;
        var_hits += vv > vo - TOL;
        greedy_hits += vg > vo - TOL;
        mmp_ratio += va / vo;
        var_ratio += vv / vo;
        greedy_ratio += vg / vo;
    }
    print_message("random %d: optimum reached by MMP %d, MMP-stuck-only %d, Greedy %d; mean ratio "
                  "%.4f / %.4f / %.4f\n", runs, mmp_hits, var_hits, greedy_hits, mmp_ratio / runs,
                  var_ratio / runs, greedy_ratio / runs);
    assert_true(mmp_hits > 0);
}

static void test_errors(void **state)
{
    (void)state;
    const double bad[] = { -0.1 };
    pl_gpu_pairing_problem p = prob(1, 1, bad, NULL);
    int32_t a[1];
    assert_pl_status(pl_gpu_mmp(&p, a), PL_EINVAL);
    const double ok[] = { 0.1, E };
    pl_gpu_pairing_problem q = prob(1, 2, ok, NULL);
    const int32_t to_empty[] = { 1 };
    double v;
    assert_pl_status(pl_gpu_pairing_value(&q, to_empty, &v), PL_EINVAL);
    pl_gpu_pairing_problem z = prob(0, 0, NULL, NULL);
    assert_pl_ok(pl_gpu_mmp(&z, a));
    assert_pl_ok(pl_gpu_pairing_optimal(&z, NULL, a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_2x2),
        cmocka_unit_test(test_empty_and_ls_term),
        cmocka_unit_test(test_fix_column_count),
        cmocka_unit_test(test_fix_no_spin),
        cmocka_unit_test(test_literal_drop_after_pair),
        cmocka_unit_test(test_greedy_vs_mmp),
        cmocka_unit_test(test_random_never_beats_flow),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
