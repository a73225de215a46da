/* Disaggregation model: presets and Eq. 4.5, the SMUFIN/FIO/YOLO models,
 * Eq. 4.1-4.4, 4.6, 5.1, Algorithm 3's split count and the EDF order, with
 * the worked values of doc/disagg.md. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include <placement/disagg.h>

#define MB 1000000LL
#define GB 1000000000LL

static pl_disagg_workload preset(pl_disagg_type t, double arrival, int high)
{
    pl_disagg_workload w;
    assert_pl_ok(pl_disagg_workload_preset(t, arrival, high, &w));
    return w;
}

static void test_presets_and_deadlines(void **state)
{
    (void)state;
    pl_disagg_workload w = preset(PL_DISAGG_BANDWIDTH_BOUND, 100, 0);
    assert_true(w.base_time_s == 1600 && w.nvme_bw_bytes_per_s == 1800 * MB &&
                w.nvme_cap_bytes == 43 * GB && w.cores == 6 && w.model == PL_DISAGG_MODEL_SMUFIN);
    /* Eq. 4.5: 1600 * 4 + 100. */
    assert_true(w.deadline_s == 6500);
    w = preset(PL_DISAGG_CAPACITY_BOUND, 0, 1);
    assert_true(w.base_time_s == 800 && w.nvme_bw_bytes_per_s == 160 * MB &&
                w.nvme_cap_bytes == 600 * GB && w.cores == 6 && w.model == PL_DISAGG_MODEL_NONE);
    assert_true(fabs(w.deadline_s - 960) < 1e-9); /* 800 * 1.2 */
    w = preset(PL_DISAGG_COMPUTE_BOUND, 10, 0);
    assert_true(w.base_time_s == 900 && w.cores == 15 && w.nvme_bw_bytes_per_s == 0 &&
                w.gpu_mem_bytes == 0 && w.deadline_s == 3610);
    w = preset(PL_DISAGG_GPU_BOUND, 0, 1);
    assert_true(w.base_time_s == 152 && w.gpu_bw_bytes_per_s == 1000 * MB &&
                w.gpu_mem_bytes == 2 * GB && w.cores == 2 && w.model == PL_DISAGG_MODEL_YOLO);
    assert_true(fabs(w.deadline_s - 182.4) < 1e-9);
    /* custom workload: the caller sets fields and asks for Eq. 4.5 */
    pl_disagg_workload x = {.base_time_s = 50, .arrival_s = 5, .high_priority = 0};
    assert_pl_ok(pl_disagg_set_deadline(&x));
    assert_true(x.deadline_s == 205);
    assert_pl_status(pl_disagg_workload_preset((pl_disagg_type)9, 0, 0, &w), PL_EINVAL);
    assert_pl_status(pl_disagg_workload_preset(PL_DISAGG_GPU_BOUND, 0, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_disagg_set_deadline(NULL), PL_EINVAL);
}

static double nvme_time(const pl_disagg_cluster *c, const pl_disagg_workload *w, int32_t k, int32_t s)
{
    double t = -1;
    assert_pl_ok(pl_disagg_predict_nvme(c, w, k, k * 2000 * MB, s, &t));
    return t;
}

static void test_smufin_table(void **state)
{
    (void)state;
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_thesis(0, &c));
    pl_disagg_workload w = preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    /* Composing lowers the solo time; beyond 3 devices nothing changes. */
    assert_true(nvme_time(c, &w, 1, 1) == 1600);
    assert_true(nvme_time(c, &w, 2, 1) == 1500);
    assert_true(nvme_time(c, &w, 3, 1) == 1450);
    assert_true(nvme_time(c, &w, 4, 1) == 1450);
    /* Thresholds of the notes: no significant (<= 4%) slowdown up to 2, 3
     * and 6 sharers on 1, 2 and 3 devices; then x1.5 per extra sharer from
     * the value at the threshold. */
    const int32_t thr[3] = {2, 3, 6};
    for (int32_t k = 1; k <= 3; k++) {
        double solo = nvme_time(c, &w, k, 1);
        for (int32_t s = 2; s <= thr[k - 1]; s++) {
            assert_true(nvme_time(c, &w, k, s) > nvme_time(c, &w, k, s - 1));
            assert_true(nvme_time(c, &w, k, s) <= solo * 1.04);
        }
        double at = nvme_time(c, &w, k, thr[k - 1]);
        assert_true(fabs(nvme_time(c, &w, k, thr[k - 1] + 1) / at - 1.5) < 1e-9);
        assert_true(fabs(nvme_time(c, &w, k, thr[k - 1] + 2) / at - 2.25) < 1e-9);
    }
    assert_true(nvme_time(c, &w, 1, 3) == 2475 && nvme_time(c, &w, 2, 4) == 2340);
    assert_true(nvme_time(c, &w, 3, 7) == 2250);
    /* six sharers on three devices still beat one job alone on one device */
    assert_true(nvme_time(c, &w, 3, 6) < nvme_time(c, &w, 1, 1));
    /* a custom SMUFIN-like job scales the table by base / 1600 */
    pl_disagg_workload h = w;
    h.base_time_s = 800;
    assert_true(nvme_time(c, &h, 1, 3) == 1237.5);
    /* FIO: t / k; no model: base time whatever the composition */
    pl_disagg_workload f = w;
    f.model = PL_DISAGG_MODEL_FIO;
    assert_true(nvme_time(c, &f, 2, 1) == 800 && nvme_time(c, &f, 4, 3) == 400);
    pl_disagg_workload cap = preset(PL_DISAGG_CAPACITY_BOUND, 0, 0);
    assert_true(nvme_time(c, &cap, 3, 5) == 800);
    double t;
    assert_pl_status(pl_disagg_predict_nvme(c, &w, 0, 2000 * MB, 1, &t), PL_EINVAL);
    assert_pl_status(pl_disagg_predict_nvme(c, &w, 1, 2000 * MB, 0, &t), PL_EINVAL);
    assert_pl_status(pl_disagg_predict_nvme(c, &w, 1, 0, 1, &t), PL_EINVAL);
    assert_pl_status(pl_disagg_predict_nvme(c, &w, 1, 2000 * MB, 1, NULL), PL_EINVAL);
    pl_disagg_cluster_free(c);
}

static void test_smufin_parametric(void **state)
{
    (void)state;
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_thesis(0, &c));
    pl_disagg_opts o;
    pl_disagg_opts_init(&o);
    assert_true(o.smufin_m == 0.98 && o.bw_peak_bytes_per_s == 6000 * MB && o.max_composition == 3 &&
                o.nvme_beta_cores == 6 && o.perf == PL_DISAGG_PERF_TABLE);
    o.perf = PL_DISAGG_PERF_PARAMETRIC;
    assert_pl_ok(pl_disagg_set_opts(c, &o));
    pl_disagg_workload w = preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    /* ceil(1600 * 0.98^(min(bw/s, 6000)/1800 - 1)):
     * 2000 -> 1596.41 -> 1597; 4000 -> 1560.98 -> 1561; 6000 and 8000 (capped) -> 1527;
     * 2 sharers on 1 device: 1000 -> 1614.43 -> 1615; 6 sharers: 333.3 -> 1627. */
    assert_true(nvme_time(c, &w, 1, 1) == 1597);
    assert_true(nvme_time(c, &w, 2, 1) == 1561);
    assert_true(nvme_time(c, &w, 3, 1) == 1527);
    assert_true(nvme_time(c, &w, 4, 1) == 1527);
    assert_true(nvme_time(c, &w, 1, 2) == 1615);
    assert_true(nvme_time(c, &w, 1, 6) == 1627);
    /* m = 1 for other workloads: their model ignores the form */
    pl_disagg_workload cap = preset(PL_DISAGG_CAPACITY_BOUND, 0, 0);
    assert_true(nvme_time(c, &cap, 1, 1) == 800);
    /* option validation */
    pl_disagg_opts bad = o;
    bad.max_composition = 0;
    assert_pl_status(pl_disagg_set_opts(c, &bad), PL_EINVAL);
    bad = o;
    bad.max_composition = PL_DISAGG_MAX_COMPOSE + 1;
    assert_pl_status(pl_disagg_set_opts(c, &bad), PL_EINVAL);
    bad = o;
    bad.smufin_m = 0;
    assert_pl_status(pl_disagg_set_opts(c, &bad), PL_EINVAL);
    bad = o;
    bad.perf = (pl_disagg_perf)7;
    assert_pl_status(pl_disagg_set_opts(c, &bad), PL_EINVAL);
    bad = o;
    bad.nvme_beta_cores = 0;
    assert_pl_status(pl_disagg_set_opts(c, &bad), PL_EINVAL);
    assert_pl_status(pl_disagg_set_opts(c, NULL), PL_EINVAL);
    pl_disagg_cluster_free(c);
}

static void test_yolo_factor(void **state)
{
    (void)state;
    double f = 0;
    const double want[6] = {1.0, 1.05, 1.25, 3.5, 5.25, 7.875};
    for (int32_t n = 1; n <= 6; n++) {
        assert_pl_ok(pl_disagg_yolo_factor(n, &f));
        assert_true(fabs(f - want[n - 1]) < 1e-12);
    }
    assert_pl_status(pl_disagg_yolo_factor(0, &f), PL_EINVAL);
    assert_pl_status(pl_disagg_yolo_factor(1, NULL), PL_EINVAL);
}

static void test_fitness_alpha_beta(void **state)
{
    (void)state;
    /* Eq. 4.1, SMUFIN on a free 2-composition: (4000 - 1800) + (1200 - 43) = 3357. */
    assert_true(fabs(pl_disagg_fitness(4000 * MB, 1200 * GB, 1800 * MB, 43 * GB) - 3357) < 1e-9);
    double a = 0;
    /* Eq. 4.2: [1 - (1800/4000 + 43/1200)] / (6/25) = 0.5141667 / 0.24 */
    assert_pl_ok(pl_disagg_alpha(4000 * MB, 1200 * GB, 25, 1800 * MB, 43 * GB, 6, &a));
    assert_true(fabs(a - 2.142361) < 5e-7);
    /* single free NVMe, 10 free cores: [1 - (0.9 + 0.0716667)] / 0.6 */
    assert_pl_ok(pl_disagg_alpha(2000 * MB, 600 * GB, 10, 1800 * MB, 43 * GB, 6, &a));
    assert_true(fabs(a - 0.047222) < 5e-7);
    /* capacity-bound on a free 2-composition, 25 cores: [1 - (0.04 + 0.5)] / 0.24 */
    assert_pl_ok(pl_disagg_alpha(4000 * MB, 1200 * GB, 25, 160 * MB, 600 * GB, 6, &a));
    assert_true(fabs(a - 1.916667) < 5e-7);
    /* negative when demands exceed the free space: [1 - (1 + 1)] / (6/6) */
    assert_pl_ok(pl_disagg_alpha(2000 * MB, 600 * GB, 6, 2000 * MB, 600 * GB, 6, &a));
    assert_true(fabs(a + 1) < 1e-12);
    /* a zero demand costs nothing even on a full resource */
    assert_pl_ok(pl_disagg_alpha(0, 600 * GB, 12, 0, 300 * GB, 6, &a));
    assert_true(fabs(a - 1.0) < 1e-12);
    /* guards */
    assert_pl_status(pl_disagg_alpha(4000, 1200, 25, 1800, 43, 0, &a), PL_EINVAL);
    assert_true(strstr(pl_last_error(), "undefined") != NULL);
    assert_pl_status(pl_disagg_alpha(4000, 1200, 4, 1800, 43, 6, &a), PL_EINVAL);
    assert_pl_status(pl_disagg_alpha(0, 1200, 25, 1800, 43, 6, &a), PL_EINVAL);
    assert_pl_status(pl_disagg_alpha(-1, 1200, 25, 1800, 43, 6, &a), PL_EINVAL);
    assert_pl_status(pl_disagg_alpha(4000, 1200, 25, 1800, 43, 6, NULL), PL_EINVAL);
    /* Eq. 4.3 */
    double b = 0;
    assert_pl_ok(pl_disagg_beta(19, 25, &b));
    assert_true(fabs(b - 0.24) < 1e-12);
    assert_pl_ok(pl_disagg_beta(25, 25, &b));
    assert_true(b == 0);
    assert_pl_status(pl_disagg_beta(26, 25, &b), PL_EINVAL);
    assert_pl_status(pl_disagg_beta(0, 0, &b), PL_EINVAL);
    /* Eq. 5.1: YOLO (2 cores) on nodes with 25 and 8 free cores */
    double f25 = 0, f8 = 0;
    assert_pl_ok(pl_disagg_core_fitness(25, 2, 6, &f25));
    assert_pl_ok(pl_disagg_core_fitness(8, 2, 6, &f8));
    assert_true(fabs(f25 - 23.0 / 6) < 1e-12 && fabs(f25 - 3.833333) < 5e-7);
    assert_true(f8 == 1.0 && f25 > f8);
    assert_pl_status(pl_disagg_core_fitness(8, 2, 0, &f8), PL_EINVAL);
}

static void test_split_count(void **state)
{
    (void)state;
    const int32_t t4[3] = {1, 2, 4};
    int32_t n = -1;
    /* 16 GB/s GPU, 4 GB/s job (2 GB memory): min(4, 8) = 4 */
    assert_pl_ok(pl_disagg_split_count(16000 * MB, 16 * GB, 4000 * MB, 2 * GB, t4, 3, &n));
    assert_int_equal(n, 4);
    /* Table 5.2's GPU (4 GB/s, 16 GB) and YOLO (1000 MB/s, 2 GB): min(4, 8) = 4 */
    assert_pl_ok(pl_disagg_split_count(4000 * MB, 16 * GB, 1000 * MB, 2 * GB, t4, 3, &n));
    assert_int_equal(n, 4);
    /* 3 fits -> rounded down to the allowed 2; 8 -> capped at 4 */
    assert_pl_ok(pl_disagg_split_count(3000 * MB, 16 * GB, 1000 * MB, 2 * GB, t4, 3, &n));
    assert_int_equal(n, 2);
    assert_pl_ok(pl_disagg_split_count(16000 * MB, 16 * GB, 1000 * MB, 0, t4, 3, &n));
    assert_int_equal(n, 4);
    /* memory-bound: 16 GB / 6 GB = 2 */
    assert_pl_ok(pl_disagg_split_count(16000 * MB, 16 * GB, 1000 * MB, 6 * GB, t4, 3, &n));
    assert_int_equal(n, 2);
    /* too big for the whole GPU */
    assert_pl_ok(pl_disagg_split_count(4000 * MB, 16 * GB, 1000 * MB, 20 * GB, t4, 3, &n));
    assert_int_equal(n, 0);
    const int32_t only4[1] = {4};
    assert_pl_ok(pl_disagg_split_count(4000 * MB, 16 * GB, 2000 * MB, 2 * GB, only4, 1, &n));
    assert_int_equal(n, 0);
    const int32_t bad[2] = {1, 0};
    assert_pl_status(pl_disagg_split_count(4000, 16, 1, 1, bad, 2, &n), PL_EINVAL);
    assert_pl_status(pl_disagg_split_count(4000, 16, 1, 1, t4, 0, &n), PL_EINVAL);
    assert_pl_status(pl_disagg_split_count(0, 16, 1, 1, t4, 3, &n), PL_EINVAL);
    assert_pl_status(pl_disagg_split_count(4000, 16, 1, 1, t4, 3, NULL), PL_EINVAL);
}

static void test_load_factors_and_switch(void **state)
{
    (void)state;
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_thesis(1, &c));
    int32_t nn, nv, ng;
    pl_disagg_counts(c, &nn, &nv, &ng);
    assert_true(nn == 5 && nv == 10 && ng == 1);
    pl_disagg_workload j[5] = {
        preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0), preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0),
        preset(PL_DISAGG_CAPACITY_BOUND, 0, 0), preset(PL_DISAGG_COMPUTE_BOUND, 0, 0),
        preset(PL_DISAGG_GPU_BOUND, 0, 0)};
    pl_disagg_load lf;
    assert_pl_ok(pl_disagg_load_factors(c, j, 5, &lf));
    /* demands / totals: cores 35/125, bw 3760/20000 MB/s, cap 686/6000 GB,
     * GPU bw 1000/4000, GPU mem 2/16 */
    assert_true(fabs(lf.cpu - 0.28) < 1e-12);
    assert_true(fabs(lf.nvme_bw - 0.188) < 1e-12);
    assert_true(fabs(lf.nvme_cap - 686.0 / 6000) < 1e-12);
    assert_true(fabs(lf.gpu_bw - 0.25) < 1e-12 && fabs(lf.gpu_mem - 0.125) < 1e-12);
    assert_pl_ok(pl_disagg_load_factors(c, NULL, 0, &lf));
    assert_true(lf.cpu == 0 && lf.nvme_bw == 0);
    assert_pl_status(pl_disagg_load_factors(c, NULL, 2, &lf), PL_EINVAL);
    /* Eq. 4.4 test vectors */
    assert_int_equal(pl_disagg_aware_choice(0.4, 0.3), PL_DISAGG_MAX_COMPOSITION);
    assert_int_equal(pl_disagg_aware_choice(0.6, 0.3), PL_DISAGG_MIN_FRAGMENTATION);
    assert_int_equal(pl_disagg_aware_choice(0.8, 0.6), PL_DISAGG_MAX_COMPOSITION);
    assert_int_equal(pl_disagg_aware_choice(0.8, 0.8), PL_DISAGG_MIN_FRAGMENTATION);
    assert_int_equal(pl_disagg_aware_choice(0.3, 0.6), PL_DISAGG_MIN_FRAGMENTATION);
    /* boundaries are inclusive */
    assert_int_equal(pl_disagg_aware_choice(0.5, 0.5), PL_DISAGG_MAX_COMPOSITION);
    assert_int_equal(pl_disagg_aware_choice(0.7, 0.7), PL_DISAGG_MAX_COMPOSITION);
    assert_int_equal(pl_disagg_aware_choice(0.69, 0.1), PL_DISAGG_MIN_FRAGMENTATION);
    pl_disagg_cluster_free(c);
}

static void test_edf(void **state)
{
    (void)state;
    /* deadlines: SMUFIN@0 6400; capacity high@100 1060; compute@0 3600;
     * YOLO@0 608; YOLO@0 again 608 (tie: same arrival -> index order);
     * compute high@2000 -> 3080 */
    pl_disagg_workload j[6] = {
        preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0), preset(PL_DISAGG_CAPACITY_BOUND, 100, 1),
        preset(PL_DISAGG_COMPUTE_BOUND, 0, 0), preset(PL_DISAGG_GPU_BOUND, 0, 0),
        preset(PL_DISAGG_GPU_BOUND, 0, 0), preset(PL_DISAGG_COMPUTE_BOUND, 2000, 1)};
    int32_t order[6];
    assert_pl_ok(pl_disagg_edf_order(j, 6, order));
    const int32_t want[6] = {3, 4, 1, 5, 2, 0};
    for (int i = 0; i < 6; i++)
        assert_int_equal(order[i], want[i]);
    /* equal deadlines: the earlier arrival first */
    j[0].deadline_s = j[1].deadline_s = 50;
    j[0].arrival_s = 10;
    j[1].arrival_s = 5;
    assert_pl_ok(pl_disagg_edf_order(j, 2, order));
    assert_true(order[0] == 1 && order[1] == 0);
    assert_pl_ok(pl_disagg_edf_order(NULL, 0, NULL));
    assert_pl_status(pl_disagg_edf_order(j, -1, order), PL_EINVAL);
}

static void test_cluster_errors(void **state)
{
    (void)state;
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_create(&c));
    int32_t id = -1;
    assert_pl_ok(pl_disagg_add_node(c, 8, 64 * GB, &id));
    assert_int_equal(id, 0);
    assert_pl_status(pl_disagg_add_node(c, -1, 0, &id), PL_EINVAL);
    assert_pl_status(pl_disagg_add_nvme(c, 0, 600 * GB, &id), PL_EINVAL);
    assert_pl_status(pl_disagg_add_nvme(c, 2000 * MB, -5, &id), PL_EINVAL);
    const int32_t s[2] = {1, 17};
    assert_pl_status(pl_disagg_add_gpu(c, 4000 * MB, 16 * GB, s, 2, &id), PL_EINVAL);
    assert_pl_status(pl_disagg_add_gpu(c, 4000 * MB, 16 * GB, s, 0, &id), PL_EINVAL);
    assert_pl_ok(pl_disagg_add_gpu(c, 4000 * MB, 16 * GB, s, 1, &id));
    assert_int_equal(id, 0);
    int32_t cores = 0, v = -1, b = -1;
    int64_t mem = 0;
    assert_pl_ok(pl_disagg_node_free(c, 0, &cores, &mem));
    assert_true(cores == 8 && mem == 64 * GB);
    assert_pl_status(pl_disagg_node_free(c, 1, &cores, &mem), PL_EINVAL);
    assert_pl_ok(pl_disagg_gpu_state(c, 0, &v, &b));
    assert_true(v == 0 && b == 0);
    assert_pl_status(pl_disagg_gpu_state(c, 3, &v, &b), PL_EINVAL);
    assert_pl_status(pl_disagg_nvme_composition(c, 0, &v), PL_EINVAL);
    pl_disagg_composition_info info;
    assert_pl_status(pl_disagg_composition(c, 0, &info), PL_EINVAL);
    assert_pl_status(pl_disagg_placement(c, 0, NULL, NULL, NULL, NULL, NULL), PL_EINVAL);
    assert_pl_status(pl_disagg_release(c, 0), PL_EINVAL);
    assert_pl_status(pl_disagg_cluster_create(NULL), PL_EINVAL);
    pl_disagg_cluster_free(c);
    pl_disagg_cluster_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets_and_deadlines),
        cmocka_unit_test(test_smufin_table),
        cmocka_unit_test(test_smufin_parametric),
        cmocka_unit_test(test_yolo_factor),
        cmocka_unit_test(test_fitness_alpha_beta),
        cmocka_unit_test(test_split_count),
        cmocka_unit_test(test_load_factors_and_switch),
        cmocka_unit_test(test_edf),
        cmocka_unit_test(test_cluster_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
