/* "two-level" (seed 003, Kim thesis ch. 3) as a policy: level 1 on the
 * thesis's platforms (Table 3.6 machines, Table 3.3 runtimes) reproduces the
 * derived fixture of the notes; a hand-made two-platform case; a single
 * platform type degenerates to a fair split; level 2 by co-runner affinity;
 * option errors. */
#include <math.h>
#include "kim_fixture.h"
#include "../coloc/kim_csv.h"

static pl_decision *place_tl(const pl_topology *t, const running_set *rs, pl_job *const *q, int32_t n,
                             const pl_profile_set *ps, const pl_two_level_opts *to)
{
    pl_policy_opts o = kim_opts("two-level", ps, to);
    return kim_place(&o, t, rs, q, n);
}

/* Level 1's table: the run time of a task of workload w on platform p is
 * rt[w * np + p]. */
static pl_two_level_opts table_opts(int32_t np, const char *const *plats, int32_t nw, const char *const *works,
                                    const double *rt)
{
    pl_two_level_opts to;
    pl_two_level_opts_init(&to);
    to.nplatforms = np;
    to.platforms = plats;
    to.nworkloads = nw;
    to.workloads = works;
    to.task_runtime_s = rt;
    return to;
}

enum { NAPPS = 5, NPLAT = 4 };
static const char *const app_name[NAPPS] = {"AutoDock", "Blast", "CacheBench", "Montage", "ThreeKaonOmega"};
static const char *const plat_name[NPLAT] = {"gene", "cheetah", "darth", "lcloud"};

/* Table 3.6's 100 machines (one GPU per core), Table 3.3 as the table of
 * the options, and one 1-task job per task with Table 3.7's counts / 60
 * (rounded up: 156, 1140, 150, 300, 461): the same order of task counts,
 * and none of them binding. Placed GPUs per (application, platform) must be
 * tests/data/kim/level1_table3_6.csv; the other 1727 jobs wait. */
static void test_level1_table36_fixture(void **state)
{
    (void)state;
    kim_csv t36, t33, t37, fx;
    kim_csv_load(&t36, "kim/table3_6.csv");
    kim_csv_load(&t33, "kim/table3_3.csv");
    kim_csv_load(&t37, "kim/table3_7.csv");
    kim_csv_load(&fx, "kim/level1_table3_6.csv");
    kim_group g[NPLAT];
    double rt[NAPPS * NPLAT];
    for (int p = 0; p < NPLAT; p++) {
        int cores = (int)kim_csv_lookup(&t36, "platform", plat_name[p], NULL, NULL, "cores_per_node");
        int sockets = cores >= 8 ? 2 : 1;
        g[p] = (kim_group){plat_name[p], (int)kim_csv_lookup(&t36, "platform", plat_name[p], NULL, NULL, "nodes"),
                           sockets, cores / sockets, 1};
        for (int k = 0; k < NAPPS; k++)
            rt[k * NPLAT + p] = kim_csv_lookup(&t33, "app", app_name[k], "platform", plat_name[p], "runtime_s");
    }
    pl_topology *t = kim_cluster(g, NPLAT);
    pl_two_level_opts to = table_opts(NPLAT, plat_name, NAPPS, app_name, rt);
    int32_t n = 0, cap = 0;
    for (int k = 0; k < NAPPS; k++)
        cap += (int32_t)ceil(kim_csv_lookup(&t37, "app", app_name[k], NULL, NULL, "tasks") / 60);
    assert_int_equal(cap, 2207);
    pl_job **q = calloc((size_t)cap, sizeof *q);
    int *app_of = calloc((size_t)cap, sizeof *app_of);
    for (int k = 0; k < NAPPS; k++) {
        int jobs = (int)ceil(kim_csv_lookup(&t37, "app", app_name[k], NULL, NULL, "tasks") / 60);
        for (int j = 0; j < jobs; j++) {
            app_of[n] = k;
            q[n++] = mkjob(app_name[k], 1, 0, app_name[k], "1");
        }
    }
    pl_decision *d = place_tl(t, NULL, q, n, NULL, &to);
    int32_t got[NAPPS * NPLAT] = {0}, placed = 0;
    for (int32_t i = 0; i < n; i++) {
        pl_decision_info info;
        if (!kim_placed(d, i, &info))
            continue;
        placed++;
        const char *m = kim_name(t, info.machine);
        int p = 0;
        while (p < NPLAT && strncmp(m, plat_name[p], strlen(plat_name[p])) != 0)
            p++;
        assert_true(p < NPLAT);
        got[app_of[i] * NPLAT + p]++;
    }
    assert_int_equal(placed, 480);
    for (int k = 0; k < NAPPS; k++)
        for (int p = 0; p < NPLAT; p++) {
            int want = 0;
            for (int r = 0; r < fx.nrows; r++)
                if (!strcmp(kim_csv_str(&fx, r, "app"), app_name[k]) && !strcmp(kim_csv_str(&fx, r, "platform"), plat_name[p]))
                    want = (int)kim_csv_num(&fx, r, "cores");
            if (got[k * NPLAT + p] != want)
                fail_msg("%s on %s: %d GPUs, fixture %d", app_name[k], plat_name[p], got[k * NPLAT + p], want);
        }
    pl_decision_free(d);
    kim_free_jobs(q, n);
    free(q);
    free(app_of);
    kim_csv_free(&t36);
    kim_csv_free(&t33);
    kim_csv_free(&t37);
    kim_csv_free(&fx);
    pl_topology_free(t);
}

/* The queue of the fast / slow cases: four 1-GPU jobs of type B, then four of A. */
static void fast_slow_queue(pl_job **q)
{
    for (int i = 0; i < 8; i++)
        q[i] = mkjob(i < 4 ? "b" : "a", 1, 0, i < 4 ? "B" : "A", "1");
}

/* Its table: A runs 1 s on fast, 4 s on slow; B 2 s on both. */
static pl_decision *place_fast_slow(const pl_topology *t, pl_job *const *q)
{
    static const char *const plats[2] = {"fast", "slow"}, *const works[2] = {"A", "B"};
    static const double rt[4] = {1, 4, 2, 2};
    pl_two_level_opts to = table_opts(2, plats, 2, works, rt);
    return place_tl(t, NULL, q, 8, NULL, &to);
}

/* Two platforms of 4 GPUs. A runs 1 s on fast, 4 s on slow: PA(A) = 4 /
 * 0.25; B runs 2 s on both: PA(B) = 1 / 1. avg_fast = 2.5 (A alone above
 * it), avg_slow = 0.625 (B alone above it): A gets fast, B slow, although
 * the B jobs come first in the queue. Without the table every platform is
 * alike: the shares are an equal split of each platform (2 + 2). */
static void test_two_platforms_by_hand(void **state)
{
    (void)state;
    static const kim_group g[] = {{"fast", 1, 2, 2, 1}, {"slow", 1, 2, 2, 1}};
    pl_topology *t = kim_cluster(g, 2);
    pl_job *q[8];
    fast_slow_queue(q);
    pl_decision *d = place_fast_slow(t, q);
    for (int i = 0; i < 8; i++)
        assert_string_equal(kim_name(t, dec(d, i, PL_DECISION_PLACED).machine), i < 4 ? "slow0" : "fast0");
    pl_decision_free(d);
    d = place_tl(t, NULL, q, 8, NULL, NULL);
    int on_fast[2] = {0, 0};
    for (int i = 0; i < 8; i++)
        on_fast[i >= 4] += !strcmp(kim_name(t, dec(d, i, PL_DECISION_PLACED).machine), "fast0");
    assert_int_equal(on_fast[0], 2);
    assert_int_equal(on_fast[1], 2);
    pl_decision_free(d);
    kim_free_jobs(q, 8);
    pl_topology_free(t);
}

/* Platforms as machine attributes: the same two machines, named alike
 * ("node0", "node1"), tagged platform = fast / slow, decide as the named
 * ones above; without the attribute the name decides again. */
static void test_platform_attribute(void **state)
{
    (void)state;
    static const kim_group g[] = {{"node", 2, 2, 2, 1}};
    pl_topology *t = kim_cluster(g, 1);
    int32_t mach[2], nm = 0;
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_MACHINE, mach, 2, &nm));
    assert_int_equal(nm, 2);
    assert_pl_ok(pl_topology_set_attr(t, mach[0], PL_TWO_LEVEL_PLATFORM_ATTR, "fast"));
    assert_pl_ok(pl_topology_set_attr(t, mach[1], PL_TWO_LEVEL_PLATFORM_ATTR, "slow"));
    pl_job *q[8];
    fast_slow_queue(q);
    pl_decision *d = place_fast_slow(t, q);
    for (int i = 0; i < 8; i++)
        assert_int_equal(dec(d, i, PL_DECISION_PLACED).machine, i < 4 ? mach[1] : mach[0]);
    pl_decision_free(d);
    /* attributes removed: both are platform "node" (the name), unknown to
     * the table, so the table changes nothing: the decisions without it */
    assert_pl_ok(pl_topology_set_attr(t, mach[0], PL_TWO_LEVEL_PLATFORM_ATTR, NULL));
    assert_pl_ok(pl_topology_set_attr(t, mach[1], PL_TWO_LEVEL_PLATFORM_ATTR, NULL));
    d = place_fast_slow(t, q);
    pl_decision *plain = place_tl(t, NULL, q, 8, NULL, NULL);
    int differ = 0;
    for (int i = 0; i < 8; i++)
        differ += dec(d, i, PL_DECISION_PLACED).machine != dec(plain, i, PL_DECISION_PLACED).machine;
    assert_int_equal(differ, 0);
    pl_decision_free(d);
    pl_decision_free(plain);
    kim_free_jobs(q, 8);
    pl_topology_free(t);
}

/* One platform type (two Minsky machines, "node0" and "node1"): level 1
 * splits the 8 GPUs equally between the two workloads (4 + 4) instead of
 * giving them to the first in the queue; with room for all, all run. */
static void test_single_platform_fair_split(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *q[16];
    for (int i = 0; i < 16; i++)
        q[i] = mkjob(i < 8 ? "a" : "b", 1, 0, i < 8 ? "A" : "B", "1");
    pl_decision *d = place_tl(t, NULL, q, 16, NULL, NULL);
    int placed[2] = {0, 0};
    for (int i = 0; i < 16; i++) {
        pl_decision_info info;
        placed[i >= 8] += kim_placed(d, i, &info);
    }
    assert_int_equal(placed[0], 4);
    assert_int_equal(placed[1], 4);
    pl_decision_free(d);
    pl_job *few[6] = {q[0], q[1], q[2], q[8], q[9], q[10]};
    d = place_tl(t, NULL, few, 6, NULL, NULL);
    for (int i = 0; i < 6; i++)
        dec(d, i, PL_DECISION_PLACED);
    pl_decision_free(d);
    kim_free_jobs(q, 16);
    pl_topology_free(t);
}

/* Level 2. A Minsky: "hog" runs on gpu0 (socket 0), "calm" on gpu3
 * (socket 1); gpu1 (next to the hog) and gpu2 (next to calm) are free.
 * Nobody slows anybody but the hog: V 2x, X by x_slow. Over the four
 * workloads present, CA(V) = (0 + 0 + 1 + 0) / 4 = 0.25 and CA(X) =
 * (x_slow - 1) / 4. The type of larger CA chooses first and takes gpu2 (no
 * slowdown), the other is left with gpu1 next to the hog: whatever the
 * queue order. */
static void level2_case(double x_slow, int v_first_in_queue)
{
    pl_topology *t = minsky();
    static const kim_solo solo[] = {{"V", 1, PL_SPREAD_INTRA_SOCKET, 10}, {"X", 1, PL_SPREAD_INTRA_SOCKET, 10},
                                    {"hog", 1, PL_SPREAD_INTRA_SOCKET, 10}, {"calm", 1, PL_SPREAD_INTRA_SOCKET, 10}};
    const kim_coloc co[] = {{"V", 1, "hog", 1, 20}, {"X", 1, "hog", 1, 10 * x_slow}};
    pl_profile_set *ps = KIM_PROFILES(solo, co);
    pl_job *hog = mkjob("hog", 1, 0, "hog", "1"), *calm = mkjob("calm", 1, 0, "calm", "1");
    running_set rs = {0};
    int32_t g0 = vx(t, "machine/package0/gpu0"), g1 = vx(t, "machine/package0/gpu1");
    int32_t g2 = vx(t, "machine/package1/gpu2"), g3 = vx(t, "machine/package1/gpu3");
    run_on(&rs, t, hog, &g0, 1);
    run_on(&rs, t, calm, &g3, 1);
    pl_job *v = mkjob("v", 1, 0, "V", "1"), *x = mkjob("x", 1, 0, "X", "1");
    pl_job *q[2] = {v_first_in_queue ? v : x, v_first_in_queue ? x : v};
    int vi = v_first_in_queue ? 0 : 1, xi = 1 - vi;
    pl_decision *d = place_tl(t, &rs, q, 2, ps, NULL);
    int v_wins = 0.25 > (x_slow - 1) / 4;
    assert_gpus(d, vi, v_wins ? &g2 : &g1, 1);
    assert_gpus(d, xi, v_wins ? &g1 : &g2, 1);
    assert_true(fabs(dec(d, vi, PL_DECISION_PLACED).slowdown - (v_wins ? 1.0 : 2.0)) < 1e-12);
    assert_true(fabs(dec(d, xi, PL_DECISION_PLACED).slowdown - (v_wins ? x_slow : 1.0)) < 1e-12);
    pl_decision_free(d);
    pl_job_free(v);
    pl_job_free(x);
    pl_job_free(hog);
    pl_job_free(calm);
    pl_profile_set_free(ps);
    pl_topology_free(t);
}

static void test_level2_corunner_affinity(void **state)
{
    (void)state;
    level2_case(1.1, 0);   /* queue [X, V]: V (CA 0.25 > 0.025) chooses first */
    level2_case(3.0, 1);   /* queue [V, X]: X (CA 0.5 > 0.25) chooses first */
}

static void test_option_errors(void **state)
{
    (void)state;
    pl_topology *t = minsky();
    pl_job *j = mkjob("j", 1, 0, "A", "1");
    static const char *const dup[2] = {"gene", "gene"}, *const works[1] = {"A"}, *const empty[1] = {""};
    static const double rt[2] = {1, 2}, bad[2] = {1, 0};
    pl_two_level_opts to = table_opts(2, dup, 1, works, rt);
    kim_expect_einval("two-level", t, &j, &to, "listed twice");
    static const char *const plats[2] = {"gene", "lcloud"};
    to.platforms = plats;
    to.task_runtime_s = bad;
    kim_expect_einval("two-level", t, &j, &to, "task_runtime_s");
    to.task_runtime_s = NULL;
    kim_expect_einval("two-level", t, &j, &to, "needs names and task_runtime_s");
    to.task_runtime_s = rt;
    to.nplatforms = 1;
    to.platforms = empty;
    kim_expect_einval("two-level", t, &j, &to, "empty");
    to.nplatforms = -1;
    kim_expect_einval("two-level", t, &j, &to, "< 0");
    pl_sa_policy_opts other;
    pl_sa_policy_opts_init(&other);
    kim_expect_einval("two-level", t, &j, &other, "not this policy's options");
    pl_job_free(j);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_level1_table36_fixture),
        cmocka_unit_test(test_two_platforms_by_hand),
        cmocka_unit_test(test_platform_attribute),
        cmocka_unit_test(test_single_platform_fair_split),
        cmocka_unit_test(test_level2_corunner_affinity),
        cmocka_unit_test(test_option_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
