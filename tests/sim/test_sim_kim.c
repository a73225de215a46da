/* Seed 003's experiments (placement/kim_sim.h): the key claim of each
 * scenario, through the library and through `placement simulate`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"
#include <placement/kim_sim.h>
#include <placement/gpuqos.h>

static char out[1 << 16];

typedef pl_status (*kim_fn)(const pl_kim_opts *, pl_kim_row *, int32_t, int32_t *);

/* Run an experiment with `runs` (0: its default); its rows must be named `names`. */
static void run_rows(kim_fn fn, int32_t runs, pl_kim_row *rows, int32_t n, const char *const *names)
{
    pl_kim_opts o;
    pl_kim_opts_init(&o);
    o.runs = runs;
    int32_t got = -1;
    assert_pl_ok(fn(&o, rows, n, &got));
    assert_int_equal(got, n);
    for (int32_t r = 0; r < n; r++)
        assert_string_equal(rows[r].policy, names[r]);
    assert_pl_status(fn(&o, rows, n - 1, &got), PL_EINVAL);
    o.runs = -1;
    assert_pl_status(fn(&o, rows, n, &got), PL_EINVAL);
}

/* `placement ARGS` must print a column named header; the first number after
 * each row name goes to values[]. */
static void cli_values(const char *args, const char *header, const char *const *names, int n, double *values)
{
    assert_int_equal(pl_test_run_cli(NULL, args, 0, out, sizeof out), 0);
    assert_non_null(strstr(out, header));
    for (int i = 0; i < n; i++) {
        char key[32];
        snprintf(key, sizeof key, "\n%s ", names[i]);
        const char *row = strstr(out, key);
        if (!row)
            fail_msg("no row %s in:\n%s", names[i], out);
        values[i] = strtod(row + strlen(key), NULL);
    }
}

static const char *const ch2_names[PL_KIM_CH2_ROWS] = {"sa-placement", "best", "random", "greedy",
                                                       "ha", "ia", "sa-lookup"};
static const char *const ch3_names[PL_KIM_CH3_ROWS] = {"two-level", "fair-allcore", "worst-allcore"};
static const char *const ch4_names[PL_KIM_CH4_ROWS] = {"es-basic", "att-aware", "activity-aware",
                                                       "lb-basic", "periodic", "spot", "cores-bound",
                                                       "constrained-bound"};

/* Ch. 2 sec. 4.2: sa-placement on the learned model at >= 90 % of Best
 * (thesis 96.13 %) and above Random, Greedy, HA and IA. */
static void test_ch2(void **s)
{
    (void)s;
    pl_kim_row rows[PL_KIM_CH2_ROWS];
    run_rows(pl_kim_ch2, 0, rows, PL_KIM_CH2_ROWS, ch2_names);
    assert_true(rows[1].value > 100 - 1e-9 && rows[1].value < 100 + 1e-9);
    assert_true(rows[0].value >= 90);
    for (int32_t r = 2; r < 6; r++) {
        assert_true(rows[0].value > rows[r].value);
        assert_true(rows[r].extra > 0); /* sa-placement's gain over it */
    }
    /* the lookup predictor anneals too: close, not above the learned model */
    assert_true(rows[6].value >= 90 && rows[6].value <= rows[0].value);
    for (int w = 0; w < PL_KIM_CH2_WORKLOADS; w++)
        for (int32_t r = 0; r < PL_KIM_CH2_ROWS; r++)
            assert_true(rows[r].per_workload[w] <= 100 + 1e-9); /* nothing beats the exhaustive Best */
}

/* Seeds 5-11 used to fail: one of IA's five seeded runs (seed 9) paired
 * WL1's applications so that, placed one at a time, the last one found the
 * full cluster's free slots in no shape it could take. The baselines now
 * look ahead (doc/coloc.md sec. 2b), so every seed gives a table, and the
 * claim holds there too. */
static void test_ch2_seed5(void **s)
{
    (void)s;
    pl_kim_opts o;
    pl_kim_opts_init(&o);
    o.seed = 5;
    pl_kim_row rows[PL_KIM_CH2_ROWS];
    int32_t got = -1;
    assert_pl_ok(pl_kim_ch2(&o, rows, PL_KIM_CH2_ROWS, &got));
    assert_int_equal(got, PL_KIM_CH2_ROWS);
    assert_true(rows[1].value > 100 - 1e-9 && rows[1].value < 100 + 1e-9);
    assert_true(rows[0].value >= 90);
    for (int32_t r = 2; r < 6; r++)
        assert_true(rows[0].value > rows[r].value);
    for (int w = 0; w < PL_KIM_CH2_WORKLOADS; w++)
        for (int32_t r = 0; r < PL_KIM_CH2_ROWS; r++)
            assert_true(rows[r].per_workload[w] > 0 && rows[r].per_workload[w] <= 100 + 1e-9);
    double pct[PL_KIM_CH2_ROWS];
    cli_values("simulate --scenario kim-ch2 --seed 5", "pct_of_best", ch2_names, PL_KIM_CH2_ROWS, pct);
    for (int32_t r = 0; r < PL_KIM_CH2_ROWS; r++)
        assert_true(fabs(pct[r] - rows[r].value) < 0.006); /* printed with 2 decimals */
}

static void test_ch2_cli(void **s)
{
    (void)s;
    double pct[PL_KIM_CH2_ROWS];
    cli_values("simulate --scenario kim-ch2", "pct_of_best", ch2_names, PL_KIM_CH2_ROWS, pct);
    assert_true(pct[0] >= 90);
    for (int i = 2; i < 6; i++)
        assert_true(pct[0] > pct[i]);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario kim-nope", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "no scenario 'kim-nope'"));
}

/* Ch. 3 sec. 3: two-level at least 15 % faster than Worst-AllCore (thesis
 * 27.0 %), Fair-AllCore in between (thesis 14.1 %). */
static void test_ch3(void **s)
{
    (void)s;
    pl_kim_row rows[PL_KIM_CH3_ROWS], again[PL_KIM_CH3_ROWS];
    run_rows(pl_kim_ch3, 10, rows, PL_KIM_CH3_ROWS, ch3_names);
    assert_true(rows[0].value >= 15);
    assert_true(rows[1].value > 0);
    /* the thesis's gap between the two is 12.9 points; level 1 by fair
     * shares with level 2 by affinity gives about 5 (measured) */
    assert_true(rows[0].value >= rows[1].value + 8);
    assert_true(rows[2].value == 0 && rows[2].ratio == 1);
    /* 132,408 tasks of 38-480 s on 480 cores: at least total OneCore work / 480 */
    assert_true(rows[0].extra > 132408.0 * 37.9 / 480);
    assert_true(rows[0].ratio > 1.15);
    run_rows(pl_kim_ch3, 10, again, PL_KIM_CH3_ROWS, ch3_names);
    assert_true(again[0].extra == rows[0].extra); /* same seed, same runs */
}

static void test_ch3_cli(void **s)
{
    (void)s;
    double v[PL_KIM_CH3_ROWS];
    cli_values("simulate --scenario kim-ch3 --runs 3", "speedup_vs_worst_allcore", ch3_names, PL_KIM_CH3_ROWS, v);
    assert_true(v[0] >= 15 && v[0] > v[1] && v[2] == 0);
}

/* Ch. 4, VM by VM on the Table 4.4 cluster: units grow, so LB-basic
 * migrates and spot / periodic migration rebalance (sigma at most the
 * thesis's 0.790 for spot, below LB-basic for periodic); the ES algorithms
 * keep fewer nodes active than ES-basic but no fewer than the cores bound
 * and the constrained bound (every constraint, any re-arrangement), both
 * above 0.75 of ES-basic: why the thesis's 0.651-0.683 is out of reach
 * (doc/results.md). Failures stay rare. */
static void test_ch4(void **s)
{
    (void)s;
    pl_kim_row rows[PL_KIM_CH4_ROWS];
    run_rows(pl_kim_ch4, 0, rows, PL_KIM_CH4_ROWS, ch4_names);
    assert_true(fabs(rows[0].value - 1) < 1e-9 && fabs(rows[3].extra - 1) < 1e-9);
    assert_true(rows[1].value < 0.97 && rows[2].value < 0.97);
    assert_true(rows[2].value > rows[6].value && rows[1].value > rows[6].value);
    assert_true(rows[6].value > 0.75 && rows[6].value < 0.85);
    /* the constraints raise the bound: 0.849, still below activity-aware */
    assert_true(rows[7].value > rows[6].value + 0.03 && rows[7].value < rows[2].value);
    assert_true(rows[5].extra <= 0.79 && rows[4].extra < 0.9);
    assert_true(rows[3].moves > 2);      /* grown units move even under worst fit */
    assert_true(rows[5].moves > rows[3].moves && rows[4].moves > rows[3].moves);
    for (int r = 3; r < 6; r++)
        assert_true(rows[r].value > 1.1); /* spreading costs nodes */
    assert_true(rows[0].extra > 2);
    for (int r = 0; r < 6; r++)
        assert_true(rows[r].ratio >= 0 && rows[r].ratio < 5);
    /* the simulation's Default setting: activeness-aware ahead of attribute-aware there */
    pl_kim_opts o;
    pl_kim_opts_init(&o);
    o.setting = PL_KIM_CH4_SIMULATION;
    o.runs = 2;
    int32_t got = 0;
    assert_pl_ok(pl_kim_ch4(&o, rows, PL_KIM_CH4_ROWS, &got));
    assert_true(rows[2].value < rows[1].value && rows[1].value < 1 && rows[5].extra < 0.85);
    assert_true(isnan(rows[7].value)); /* no exact bound on 256 nodes */
    o.setting = 7;
    assert_pl_status(pl_kim_ch4(&o, rows, PL_KIM_CH4_ROWS, &got), PL_EINVAL);
}

static void test_ch4_cli(void **s)
{
    (void)s;
    double v[PL_KIM_CH4_ROWS];
    cli_values("simulate --scenario kim-ch4 --runs 20", "n_active_ratio", ch4_names, PL_KIM_CH4_ROWS, v);
    assert_true(fabs(v[0] - 1) < 1e-9 && v[2] < 1 && v[6] < v[2]);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario kim-ch4 --setting nope", 0, out, sizeof out), 2);
}

/* Ch. 5 sec. 4.2: splitting the batch models' kernels lowers every Cifar10
 * model's slowdown at each doubling of f (thesis: Alexnet 28.95 -> 12.56 %
 * from f = 1 to 8) while the batch models pay more at each step. Alexnet's
 * row is recomputed here through the simulator's own calls on the traces
 * of tests/data/kim/README.md (Table 5.1 utilisations). */
static void ch5_trace(double util_pct, int batch, pl_gpu_call *calls, pl_gpu_trace *t)
{
    double period = batch ? 0.4 : 0.1;
    for (int k = 0; k < 10; k++) {
        memset(&calls[k], 0, sizeof calls[k]);
        calls[k].kind = PL_GPU_KERNEL;
        calls[k].duration_s = period / 10 * util_pct / 100;
        calls[k].start_s = (k + 1) * period / 10 - calls[k].duration_s;
        calls[k].split = batch;
        calls[k].split2_duration_s = batch ? calls[k].duration_s * 0.575 : 0;
    }
    t->calls = calls;
    t->ncalls = 10;
    t->period_s = period;
    t->host_slowdown = 0;
}

static void test_ch5(void **s)
{
    (void)s;
    static const char *const names[PL_KIM_CH5_ROWS] = {"Alexnet", "Resnet32", "Trivial"};
    pl_kim_row rows[PL_KIM_CH5_ROWS];
    run_rows(pl_kim_ch5, 0, rows, PL_KIM_CH5_ROWS, names);
    for (int r = 0; r < PL_KIM_CH5_ROWS; r++) {
        const double *v = rows[r].per_workload;
        for (int f = 1; f < PL_KIM_CH5_FACTORS; f++) {
            assert_true(v[f] < v[f - 1]);                                         /* LS */
            assert_true(v[PL_KIM_CH5_FACTORS + f] > v[PL_KIM_CH5_FACTORS + f - 1]); /* batch */
        }
        assert_true(rows[r].value == v[0] && rows[r].extra == v[3] && rows[r].ratio == v[7]);
    }
    static const double batch_util[5] = {71.39, 72.18, 85.31, 81.62, 73.47};
    pl_gpu_call lc[10], bc[10];
    pl_gpu_trace pair[2];
    pl_gpu_sim_opts o;
    pl_gpu_sim_opts_init(&o);
    o.horizon_s = 100;
    for (int fi = 0; fi < PL_KIM_CH5_FACTORS; fi += 3) {
        double mean = 0;
        for (int j = 0; j < 5; j++) {
            ch5_trace(26.46, 0, lc, &pair[0]);
            pl_gpu_trace whole;
            ch5_trace(batch_util[j], 1, bc, &whole);
            assert_pl_ok(pl_gpu_trace_split(&whole, fi ? 8 : 1, &pair[1]));
            pl_gpu_sim_result r[2];
            assert_pl_ok(pl_gpu_simulate(pair, 2, &o, r));
            pl_gpu_trace_release(&pair[1]);
            mean += 100 * r[0].slowdown / 5;
        }
        assert_true(fabs(rows[0].per_workload[fi] - mean) < 1e-9);
    }
}

static void test_ch5_cli(void **s)
{
    (void)s;
    static const char *const names[PL_KIM_CH5_ROWS] = {"Alexnet", "Resnet32", "Trivial"};
    double v[PL_KIM_CH5_ROWS];
    cli_values("simulate --scenario kim-ch5", "ls_f8", names, PL_KIM_CH5_ROWS, v);
    pl_kim_row rows[PL_KIM_CH5_ROWS];
    int32_t n = 0;
    assert_pl_ok(pl_kim_ch5(NULL, rows, PL_KIM_CH5_ROWS, &n));
    for (int r = 0; r < PL_KIM_CH5_ROWS; r++)
        assert_true(fabs(v[r] - rows[r].value) < 0.01); /* ls_f1, printed with 2 decimals */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ch2),     cmocka_unit_test(test_ch2_cli), cmocka_unit_test(test_ch2_seed5),
        cmocka_unit_test(test_ch3),
        cmocka_unit_test(test_ch3_cli), cmocka_unit_test(test_ch4),     cmocka_unit_test(test_ch4_cli),
        cmocka_unit_test(test_ch5),     cmocka_unit_test(test_ch5_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
