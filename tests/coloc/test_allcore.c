/* Ch. 3 sec. 3's baselines: Fair-AllCore and Worst-AllCore level 1 on the
 * Table 3.6 platforms (hand-computed from Table 3.4), and their AllCore
 * level 2 (whole nodes per application). */
#include <string.h>
#include "kim_csv.h"
#include <placement/coloc.h>

#define NAPPS 5
#define NPLAT 4
static const char *const app_name[NAPPS] = {"AutoDock", "Blast", "CacheBench", "Montage", "ThreeKaonOmega"};
static const char *const plat_name[NPLAT] = {"gene", "cheetah", "darth", "lcloud"};
enum { AD, BL, CB, MO, TK };
static double table34[NAPPS * NPLAT];
static const int32_t cores[NPLAT] = {120, 120, 120, 120}; /* Table 3.6 */

static int load(void **state)
{
    (void)state;
    kim_csv t;
    kim_csv_load(&t, "kim/table3_4.csv");
    for (int k = 0; k < NAPPS; k++)
        for (int p = 0; p < NPLAT; p++)
            table34[k * NPLAT + p] = kim_csv_lookup(&t, "app", app_name[k], "platform", plat_name[p], "pa");
    kim_csv_free(&t);
    return 0;
}

static void test_fair(void **s)
{
    (void)s;
    const int64_t big[NAPPS] = {9360, 68400, 9000, 18000, 27648}; /* Table 3.7: never binding */
    int32_t alloc[NAPPS * NPLAT];
    assert_pl_ok(pl_coloc_fair_share(NAPPS, NPLAT, cores, big, alloc));
    for (int i = 0; i < NAPPS * NPLAT; i++)
        assert_int_equal(alloc[i], 24);
    /* A finished application gets nothing; a small one takes what it needs
     * and its unused share flows to the others: 10 tasks -> 10 cores, then
     * 110 / 3 -> 36, 37, 37 on the first platform. */
    const int64_t small[NAPPS] = {0, 1000, 10, 1000, 1000};
    assert_pl_ok(pl_coloc_fair_share(NAPPS, NPLAT, cores, small, alloc));
    assert_int_equal(alloc[AD * NPLAT + 0], 0);
    assert_int_equal(alloc[CB * NPLAT + 0], 10);
    assert_int_equal(alloc[CB * NPLAT + 1], 0);
    assert_int_equal(alloc[BL * NPLAT + 0] + alloc[MO * NPLAT + 0] + alloc[TK * NPLAT + 0], 110);
    for (int k = BL; k <= TK; k += (k == BL ? 2 : 1))
        assert_true(alloc[k * NPLAT + 0] == 36 || alloc[k * NPLAT + 0] == 37);
}

/* By hand from Table 3.4: averages gene 0.609, cheetah 1.3952, darth 1.0976,
 * lcloud 1.363; below them: gene {Montage, TKO}, cheetah {Blast, CacheBench,
 * Montage}, darth and lcloud {AutoDock, Blast, CacheBench}. Served by
 * increasing tasks (CB, AD, MO, TK, BL), each from its least affine platform:
 * CB darth 40, lcloud 40, cheetah 40; AD darth 40, lcloud 40; MO gene 60,
 * cheetah 40; TK gene 60; BL darth 40, lcloud 40, cheetah 40. */
static void test_worst(void **s)
{
    (void)s;
    const int64_t tasks[NAPPS] = {9360, 68400, 9000, 18000, 27648};
    int32_t alloc[NAPPS * NPLAT];
    assert_pl_ok(pl_coloc_worst_share(table34, NAPPS, NPLAT, cores, tasks, alloc));
    const int32_t want[NAPPS * NPLAT] = {
        0, 0, 40, 40,   /* AutoDock */
        0, 40, 40, 40,  /* Blast */
        0, 40, 40, 40,  /* CacheBench */
        60, 40, 0, 0,   /* Montage */
        60, 0, 0, 0,    /* ThreeKaonOmega */
    };
    assert_memory_equal(alloc, want, sizeof want);
    /* the affinity sharing on the same input is the mirror image (the notes' fixture) */
    assert_pl_ok(pl_coloc_share_cores(table34, NAPPS, NPLAT, cores, tasks, alloc));
    assert_int_equal(alloc[MO * NPLAT + 0], 0);
    assert_int_equal(alloc[TK * NPLAT + 1], 60);
    assert_pl_status(pl_coloc_worst_share(NULL, NAPPS, NPLAT, cores, tasks, alloc), PL_EINVAL);
    assert_pl_status(pl_coloc_fair_share(0, NPLAT, cores, tasks, alloc), PL_EINVAL);
}

/* AllCore level 2: with only the AllCore combinations, pilots fill whole
 * nodes of one application; the remainders share the next node. */
static void test_allcore_map(void **s)
{
    (void)s;
    pl_coloc_combo allcore[2] = {{.napps = 1, .app = {0}, .ca = {0.1}}, {.napps = 1, .app = {1}, .ca = {0.2}}};
    const int32_t pilots[2] = {10, 6}; /* 3 nodes of 4 cores + 2 and 2 left over, on 5 nodes */
    int32_t core_app[20], node_combo[5];
    assert_pl_ok(pl_coloc_map_pilots(5, 4, 2, pilots, allcore, 2, 1, core_app, node_combo));
    int whole = 0, mixed = 0, idle = 0;
    for (int v = 0; v < 5; v++) {
        int n0 = 0, n1 = 0;
        for (int c = 0; c < 4; c++) {
            n0 += core_app[v * 4 + c] == 0;
            n1 += core_app[v * 4 + c] == 1;
        }
        whole += (n0 == 4) != (n1 == 4);
        mixed += n0 == 2 && n1 == 2;
        idle += n0 + n1 == 0;
        assert_int_equal(node_combo[v] >= 0, n0 == 4 || n1 == 4);
    }
    assert_int_equal(whole, 3);
    assert_int_equal(mixed, 1);
    assert_int_equal(idle, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fair),
        cmocka_unit_test(test_worst),
        cmocka_unit_test(test_allcore_map),
    };
    return cmocka_run_group_tests(tests, load, NULL);
}
