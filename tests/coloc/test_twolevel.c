/* Two-level scheduling (seed 003, Kim thesis ch. 3): platform affinity from
 * Table 3.3 against Table 3.4, the level-1 core split on Table 3.6 resources
 * (derived fixture in notes-seed003-kim-thesis.md), level 2 by co-runner
 * affinity on hand-made combinations, errors. The thesis tables are read
 * from tests/data/kim (ch. 3 sec. 1.2 and sec. 2). */
#include <math.h>
#include <string.h>
#include "kim_csv.h"
#include <placement/coloc.h>

enum { AUTODOCK, BLAST, CACHEBENCH, MONTAGE, TKO, NAPPS };
enum { GENE, CHEETAH, DARTH, LCLOUD, NPLAT };
static const char *const app_name[NAPPS] = { "AutoDock", "Blast", "CacheBench", "Montage", "ThreeKaonOmega" };
static const char *const plat_name[NPLAT] = { "gene", "cheetah", "darth", "lcloud" };

/* Table 3.3: OneCore mean task runtime (s); Table 3.4: platform affinity as
 * printed; Table 3.6 (120 cores per platform); Table 3.7 (task counts). */
static double table33[NAPPS * NPLAT], table34[NAPPS * NPLAT];
static int32_t table36_cores[NPLAT];
static int64_t table37_tasks[NAPPS];

static void matrix(const char *file, const char *col, double *out)
{
    kim_csv t;
    kim_csv_load(&t, file);
    assert_int_equal(t.nrows, NAPPS * NPLAT);
    for (int k = 0; k < NAPPS; k++)
        for (int p = 0; p < NPLAT; p++)
            out[k * NPLAT + p] = kim_csv_lookup(&t, "app", app_name[k], "platform", plat_name[p], col);
    kim_csv_free(&t);
}

static int load_tables(void **state)
{
    (void)state;
    matrix("kim/table3_3.csv", "runtime_s", table33);
    matrix("kim/table3_4.csv", "pa", table34);
    kim_csv t;
    kim_csv_load(&t, "kim/table3_6.csv");
    for (int p = 0; p < NPLAT; p++) {
        table36_cores[p] = (int32_t)kim_csv_lookup(&t, "platform", plat_name[p], NULL, NULL, "total_cores");
        assert_int_equal(table36_cores[p], (int32_t)(kim_csv_lookup(&t, "platform", plat_name[p], NULL, NULL, "nodes") *
                                                     kim_csv_lookup(&t, "platform", plat_name[p], NULL, NULL, "cores_per_node")));
    }
    kim_csv_free(&t);
    kim_csv_load(&t, "kim/table3_7.csv");
    for (int k = 0; k < NAPPS; k++)
        table37_tasks[k] = (int64_t)kim_csv_lookup(&t, "app", app_name[k], NULL, NULL, "tasks");
    kim_csv_free(&t);
    /* spot checks against the thesis text, so a wrong file fails here */
    assert_true(table33[MONTAGE * NPLAT + LCLOUD] == 106.63);
    assert_true(table34[BLAST * NPLAT + GENE] == 0.640);
    assert_int_equal(table36_cores[GENE], 120);
    assert_int_equal(table37_tasks[BLAST], 68400);
    return 0;
}

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

/* The notes' derived fixture (tests/data/kim/level1_table3_6.csv); a pair
 * not listed gets no cores. */
static void check_fixture(const int32_t *alloc)
{
    int32_t want[NAPPS * NPLAT] = { 0 };
    kim_csv t;
    kim_csv_load(&t, "kim/level1_table3_6.csv");
    for (int r = 0; r < t.nrows; r++) {
        int k = 0, p = 0;
        while (k < NAPPS && strcmp(app_name[k], kim_csv_str(&t, r, "app")) != 0)
            k++;
        while (p < NPLAT && strcmp(plat_name[p], kim_csv_str(&t, r, "platform")) != 0)
            p++;
        assert_true(k < NAPPS && p < NPLAT);
        want[k * NPLAT + p] = (int32_t)kim_csv_num(&t, r, "cores");
    }
    kim_csv_free(&t);
    for (int i = 0; i < NAPPS * NPLAT; i++)
        if (alloc[i] != want[i])
            fail_msg("app %d platform %d: %d cores, fixture says %d", i / NPLAT, i % NPLAT, alloc[i], want[i]);
}

static void test_level1_table36_fixture(void **state)
{
    (void)state;
    int32_t alloc[NAPPS * NPLAT];
    /* from the printed Table 3.4 and from PA recomputed from Table 3.3 */
    assert_pl_ok(pl_coloc_share_cores(table34, NAPPS, NPLAT, table36_cores, table37_tasks, alloc));
    check_fixture(alloc);
    double pa[NAPPS * NPLAT];
    assert_pl_ok(pl_coloc_platform_affinity(table33, NAPPS, NPLAT, pa));
    assert_pl_ok(pl_coloc_share_cores(pa, NAPPS, NPLAT, table36_cores, table37_tasks, alloc));
    check_fixture(alloc);
}

static void test_level1_binding_demand(void **state)
{
    (void)state;
    /* CacheBench needs only 10 tasks: served first (smallest N_task) on gene,
     * its unused share flows to AutoDock and Blast: 110 / 2 = 55 each. */
    int64_t tasks[NAPPS] = { 9360, 68400, 10, 18000, 27648 };
    int32_t alloc[NAPPS * NPLAT];
    assert_pl_ok(pl_coloc_share_cores(table34, NAPPS, NPLAT, table36_cores, tasks, alloc));
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
    assert_pl_ok(pl_coloc_share_cores(pa, 2, 2, cores, tasks, alloc));
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
    assert_pl_ok(pl_coloc_map_pilots(3, 4, 3, pilots, combos, 6, 1, core_app, node_combo));
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
    assert_pl_ok(pl_coloc_map_pilots(2, 4, 2, pilots, combos, 1, 7, core_app, node_combo));
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
    assert_pl_ok(pl_coloc_map_pilots(2, 4, 2, pilots, combos, 1, 7, again, node_combo));
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
    assert_pl_status(pl_coloc_share_cores(t0, 2, 2, cores, tasks, alloc), PL_EINVAL);
    const int32_t pilots[1] = { 9 };
    const pl_coloc_combo ok[] = { { 1, { 0 }, { 0.1 } } };
    const pl_coloc_combo three[] = { { 3, { 0, 1, 2 }, { 0, 0, 0 } } };
    const pl_coloc_combo twice[] = { { 2, { 0, 0 }, { 0, 0 } } };
    int32_t core_app[8], node_combo[2];
    assert_pl_status(pl_coloc_map_pilots(2, 4, 1, pilots, ok, 1, 1, core_app, node_combo), PL_EINVAL);
    const int32_t p3[3] = { 1, 1, 1 };
    assert_pl_status(pl_coloc_map_pilots(2, 4, 3, p3, three, 1, 1, core_app, node_combo), PL_EINVAL);
    assert_pl_status(pl_coloc_map_pilots(2, 4, 3, p3, twice, 1, 1, core_app, node_combo), PL_EINVAL);
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
    return cmocka_run_group_tests(tests, load_tables, NULL);
}
