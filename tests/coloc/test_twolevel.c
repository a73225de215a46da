/* Two-level scheduling (seed 003, Kim thesis ch. 3): platform affinity from
 * Table 3.3 against Table 3.4, the level-1 core split on Table 3.6 resources
 * (derived fixture in notes-seed003-kim-thesis.md), level 2 by co-runner
 * affinity on hand-made combinations, errors. The thesis tables are the C
 * arrays below, each named after its table (ch. 3 sec. 1.2 and sec. 3). */
#include <math.h>
#include <string.h>
#include "testutil.h"

enum { AUTODOCK, BLAST, CACHEBENCH, MONTAGE, TKO, NAPPS };
enum { GENE, CHEETAH, DARTH, LCLOUD, NPLAT };

/* Table 3.3: OneCore mean task runtime (s). */
static const double table33[NAPPS * NPLAT] = {
    480.42, 244.05, 347.11, 294.16,
    63.97, 37.9, 46.35, 38.47,
    376.35, 336.11, 357.93, 354.83,
    309.21, 150.77, 142.41, 106.63,
    200.18, 71.02, 101.08, 86.88,
};

/* Table 3.4: platform affinity as printed. */
static const double table34[NAPPS * NPLAT] = {
    0.614, 1.532, 0.978, 1.214,
    0.640, 1.308, 1.009, 1.284,
    0.929, 1.080, 0.994, 1.006,
    0.431, 1.234, 1.326, 1.883,
    0.431, 1.822, 1.181, 1.428,
};

/* Table 3.6 (120 cores per platform) and Table 3.7 (task counts). */
static const int32_t table36_cores[NPLAT] = { 60 * 2, 15 * 8, 15 * 8, 10 * 12 };
static const int64_t table37_tasks[NAPPS] = { 9360, 68400, 9000, 18000, 27648 };

static void test_platform_affinity_table34(void **state)
{
    (void)state;
    double pa[NAPPS * NPLAT];
    assert_pl_ok(pl_coloc_platform_affinity(table33, NAPPS, NPLAT, pa));
    for (int k = 0; k < NAPPS; k++)
        for (int p = 0; p < NPLAT; p++) {
            double got = round(pa[k * NPLAT + p] * 1000) / 1000, want = table34[k * NPLAT + p];
            /* Blast gene = 0.63947 and Blast cheetah = 1.30862 are printed
             * 0.640 and 1.308: a rounding slip of the thesis, one unit of the
             * third decimal; every other entry matches to 3 decimals. */
            int slip = k == BLAST && (p == GENE || p == CHEETAH);
            if (slip)
                assert_true(fabs(got - want) < 0.0011 && fabs(got - want) > 0.0009);
            else if (fabs(got - want) > 1e-9)
                fail_msg("PA(%d,%d) = %.5f, Table 3.4 says %.3f", k, p, pa[k * NPLAT + p], want);
        }
    /* the worked example of sec. 2.1: Montage on lcloud = (2.90 + 1.41 + 1.34) / 3 */
    assert_true(fabs(pa[MONTAGE * NPLAT + LCLOUD] - 1.88312) < 1e-5);
}

static void check_fixture(const int32_t *alloc)
{
    static const int32_t want[NAPPS * NPLAT] = {
        /*          gene cheetah darth lcloud */
        /* AutoDock */ 40, 60, 0, 0,
        /* Blast    */ 40, 0, 0, 0,
        /* CacheB.  */ 40, 0, 0, 0,
        /* Montage  */ 0, 0, 60, 60,
        /* TKO      */ 0, 60, 60, 60,
    };
    for (int i = 0; i < NAPPS * NPLAT; i++)
        if (alloc[i] != want[i])
            fail_msg("app %d platform %d: %d cores, fixture says %d", i / NPLAT, i % NPLAT, alloc[i], want[i]);
}

static void test_level1_table36_fixture(void **state)
{
    (void)state;
    int32_t alloc[NAPPS * NPLAT];
    /* from the printed Table 3.4 and from PA recomputed from Table 3.3 */
    assert_pl_ok(pl_coloc_level1(table34, NAPPS, NPLAT, table36_cores, table37_tasks, alloc));
    check_fixture(alloc);
    double pa[NAPPS * NPLAT];
    assert_pl_ok(pl_coloc_platform_affinity(table33, NAPPS, NPLAT, pa));
    assert_pl_ok(pl_coloc_level1(pa, NAPPS, NPLAT, table36_cores, table37_tasks, alloc));
    check_fixture(alloc);
}

static void test_level1_binding_demand(void **state)
{
    (void)state;
    /* CacheBench needs only 10 tasks: served first (smallest N_task) on gene,
     * its unused share flows to AutoDock and Blast: 110 / 2 = 55 each. */
    int64_t tasks[NAPPS] = { 9360, 68400, 10, 18000, 27648 };
    int32_t alloc[NAPPS * NPLAT];
    assert_pl_ok(pl_coloc_level1(table34, NAPPS, NPLAT, table36_cores, tasks, alloc));
    assert_int_equal(alloc[CACHEBENCH * NPLAT + GENE], 10);
    assert_int_equal(alloc[AUTODOCK * NPLAT + GENE], 55);
    assert_int_equal(alloc[BLAST * NPLAT + GENE], 55);
    assert_int_equal(alloc[AUTODOCK * NPLAT + CHEETAH], 60);
    assert_int_equal(alloc[TKO * NPLAT + CHEETAH], 60);
}

static void test_level1_second_round_fallback(void **state)
{
    (void)state;
    /* P0 favours A, P1 favours B (avg 1.25 on both). Round 1: A takes 5 of
     * P0, B all 10 of P1. Round 2: P0 has no affine app in need, so its
     * cores go to B, which still needs 2. */
    const double pa[4] = { 2.0, 0.5, 0.5, 2.0 };
    const int32_t cores[2] = { 10, 10 };
    const int64_t tasks[2] = { 5, 12 };
    int32_t alloc[4];
    assert_pl_ok(pl_coloc_level1(pa, 2, 2, cores, tasks, alloc));
    assert_int_equal(alloc[0], 5);
    assert_int_equal(alloc[1], 0);
    assert_int_equal(alloc[2], 2);
    assert_int_equal(alloc[3], 10);
}

static void test_level2_by_corunner_affinity(void **state)
{
    (void)state;
    /* CA(K,P): app0 (0.5+0.05+0.2)/3 = 0.25, app1 (0.1+0.3+0.1)/3 = 0.167,
     * app2 (0.2+0.1+0.4)/3 = 0.233. app0 first: its best combination is
     * (0,1) with 0.05, twice (4 pilots each, 2 per node); then app2 alone. */
    const pl_coloc_combo combos[] = {
        { 1, { 0 }, { 0.5 } },
        { 1, { 1 }, { 0.1 } },
        { 1, { 2 }, { 0.2 } },
        { 2, { 0, 1 }, { 0.05, 0.3 } },
        { 2, { 0, 2 }, { 0.2, 0.1 } },
        { 2, { 1, 2 }, { 0.1, 0.4 } },
    };
    const int32_t pilots[3] = { 4, 4, 4 };
    int32_t core_app[12], node_combo[3];
    assert_pl_ok(pl_coloc_level2(3, 4, 3, pilots, combos, 6, 1, core_app, node_combo));
    const int32_t want_core[12] = { 0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 2, 2 };
    assert_memory_equal(core_app, want_core, sizeof want_core);
    assert_int_equal(node_combo[0], 3);
    assert_int_equal(node_combo[1], 3);
    assert_int_equal(node_combo[2], 2);
}

static void test_level2_leftovers(void **state)
{
    (void)state;
    /* AllCore of app0 needs 4 pilots but only 3 remain; app1 has no
     * combination: all 5 pilots are packed randomly onto nodes 0-1. */
    const pl_coloc_combo combos[] = { { 1, { 0 }, { 0.3 } } };
    const int32_t pilots[2] = { 3, 2 };
    int32_t core_app[8], node_combo[2], again[8];
    assert_pl_ok(pl_coloc_level2(2, 4, 2, pilots, combos, 1, 7, core_app, node_combo));
    int n0 = 0, n1 = 0;
    for (int i = 0; i < 5; i++) {
        n0 += core_app[i] == 0;
        n1 += core_app[i] == 1;
    }
    assert_int_equal(n0, 3);
    assert_int_equal(n1, 2);
    for (int i = 5; i < 8; i++)
        assert_int_equal(core_app[i], -1);
    assert_int_equal(node_combo[0], -1);
    assert_int_equal(node_combo[1], -1);
    assert_pl_ok(pl_coloc_level2(2, 4, 2, pilots, combos, 1, 7, again, node_combo));
    assert_memory_equal(core_app, again, sizeof again);
}

static void test_corunner_affinity_and_errors(void **state)
{
    (void)state;
    assert_true(fabs(pl_coloc_corunner_affinity(110, 100) - 0.1) < 1e-12);
    assert_true(pl_coloc_corunner_affinity(90, 100) == 0);   /* negative clipped to 0 */
    assert_true(pl_coloc_corunner_affinity(1, 0) == -1);
    double pa[4];
    const double t1[2] = { 1, 2 };
    assert_pl_status(pl_coloc_platform_affinity(t1, 2, 1, pa), PL_EINVAL);
    const double t0[4] = { 1, 0, 1, 1 };
    assert_pl_status(pl_coloc_platform_affinity(t0, 2, 2, pa), PL_EINVAL);
    int32_t alloc[4];
    const int32_t cores[2] = { 1, -1 };
    const int64_t tasks[2] = { 1, 1 };
    assert_pl_status(pl_coloc_level1(t0, 2, 2, cores, tasks, alloc), PL_EINVAL);
    const int32_t pilots[1] = { 9 };
    const pl_coloc_combo ok[] = { { 1, { 0 }, { 0.1 } } };
    const pl_coloc_combo three[] = { { 3, { 0, 1, 2 }, { 0, 0, 0 } } };
    const pl_coloc_combo twice[] = { { 2, { 0, 0 }, { 0, 0 } } };
    int32_t core_app[8], node_combo[2];
    assert_pl_status(pl_coloc_level2(2, 4, 1, pilots, ok, 1, 1, core_app, node_combo), PL_EINVAL);
    const int32_t p3[3] = { 1, 1, 1 };
    assert_pl_status(pl_coloc_level2(2, 4, 3, p3, three, 1, 1, core_app, node_combo), PL_EINVAL);
    assert_pl_status(pl_coloc_level2(2, 4, 3, p3, twice, 1, 1, core_app, node_combo), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "repeats"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_platform_affinity_table34),
        cmocka_unit_test(test_level1_table36_fixture),
        cmocka_unit_test(test_level1_binding_demand),
        cmocka_unit_test(test_level1_second_round_fallback),
        cmocka_unit_test(test_level2_by_corunner_affinity),
        cmocka_unit_test(test_level2_leftovers),
        cmocka_unit_test(test_corunner_affinity_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
