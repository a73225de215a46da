/* Runtime model (seed 003, Kim thesis ch. 2 sec. 3.1): REPTree-style
 * regression trees and bagging recover a noisy step function, pruning cuts
 * noise, bagging is deterministic for a seed, save/load round-trips
 * predictions exactly, CSV training and its errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "coloc/coloc_impl.h"

#define N 600

static double gauss(pl_test_rng *r)
{
    double u = ((double)(pl_test_rand(r) >> 11) + 0.5) / 9007199254740992.0;
    double v = ((double)(pl_test_rand(r) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static double unit(pl_test_rng *r)
{
    return (double)(pl_test_rand(r) >> 11) / 9007199254740992.0;
}

/* Three steps on x0 in [0, 3): 1, 3, 2; x1 is an irrelevant feature. */
static double step(double x)
{
    return x < 1 ? 1 : x < 2 ? 3 : 2;
}

static void make_steps(double *x, double *y, int n, uint64_t seed)
{
    pl_test_rng r = { seed };
    for (int i = 0; i < n; i++) {
        x[2 * i] = 3 * unit(&r);
        x[2 * i + 1] = 10 * unit(&r);
        y[i] = step(x[2 * i]) + 0.1 * gauss(&r);
    }
}

static void check_steps(const pl_coloc_model *m)
{
    /* points at least 0.2 away from the steps at 1 and 2 */
    const double at[] = { 0.1, 0.5, 0.8, 1.2, 1.5, 1.8, 2.2, 2.5, 2.9 };
    for (size_t i = 0; i < sizeof at / sizeof *at; i++)
        for (double x1 = 0.5; x1 < 10; x1 += 3) {
            double x[2] = { at[i], x1 }, y;
            assert_pl_ok(pl_coloc_model_predict(m, x, &y));
            if (fabs(y - step(at[i])) >= 0.2)
                fail_msg("f(%.1f, %.1f) = %.3f, want %.0f +- 0.2", at[i], x1, y, step(at[i]));
        }
}

static void test_single_tree_recovers_steps(void **state)
{
    (void)state;
    static double x[2 * N], y[N];
    make_steps(x, y, N, 42);
    pl_coloc_model_opts o;
    pl_coloc_model_opts_init(&o);
    o.trees = 1;
    o.bootstrap = 0;
    pl_coloc_model *m;
    assert_pl_ok(pl_coloc_model_train(x, y, N, 2, NULL, &o, &m));
    check_steps(m);
    /* the first split is on x0 near a step: the tree found the structure */
    assert_int_equal(m->trees[0].feature[0], 0);
    double th = m->trees[0].threshold[0];
    assert_true(fabs(th - 1) < 0.05 || fabs(th - 2) < 0.05);
    assert_string_equal(pl_coloc_model_feature_name(m, 1), "f1");
    assert_null(pl_coloc_model_feature_name(m, 2));
    pl_coloc_model_free(m);
}

static void test_bagging_recovers_steps(void **state)
{
    (void)state;
    static double x[2 * N], y[N];
    make_steps(x, y, N, 7);
    pl_coloc_model *m;
    assert_pl_ok(pl_coloc_model_train(x, y, N, 2, NULL, NULL, &m));
    assert_int_equal(pl_coloc_model_trees(m), 100);
    assert_int_equal(pl_coloc_model_features(m), 2);
    check_steps(m);
    pl_coloc_model_free(m);
}

static void test_pruning_cuts_noise(void **state)
{
    (void)state;
    /* pure noise: almost no split survives the held-out fold */
    static double x[2 * N], y[N];
    pl_test_rng r = { 3 };
    for (int i = 0; i < N; i++) {
        x[2 * i] = unit(&r);
        x[2 * i + 1] = unit(&r);
        y[i] = gauss(&r);
    }
    pl_coloc_model_opts o;
    pl_coloc_model_opts_init(&o);
    o.trees = 1;
    o.bootstrap = 0;
    pl_coloc_model *pruned, *full;
    assert_pl_ok(pl_coloc_model_train(x, y, N, 2, NULL, &o, &pruned));
    o.prune_folds = 0;
    assert_pl_ok(pl_coloc_model_train(x, y, N, 2, NULL, &o, &full));
    int32_t np = pruned->trees[0].nodes, nf = full->trees[0].nodes;
    if (!(nf > 100 && np * 10 < nf))
        fail_msg("pruned %d nodes, unpruned %d", np, nf);
    pl_coloc_model_free(pruned);
    pl_coloc_model_free(full);
}

static void test_min_leaf_and_depth(void **state)
{
    (void)state;
    static double x[2 * N], y[N];
    make_steps(x, y, N, 11);
    pl_coloc_model_opts o;
    pl_coloc_model_opts_init(&o);
    o.trees = 1;
    o.bootstrap = 0;
    o.prune_folds = 0;
    o.max_depth = 1;
    pl_coloc_model *m;
    assert_pl_ok(pl_coloc_model_train(x, y, N, 2, NULL, &o, &m));
    assert_int_equal(m->trees[0].nodes, 3);   /* a stump */
    pl_coloc_model_free(m);
    o.max_depth = 0;
    o.min_leaf = N;   /* no split can leave N on both sides */
    assert_pl_ok(pl_coloc_model_train(x, y, N, 2, NULL, &o, &m));
    assert_int_equal(m->trees[0].nodes, 1);
    double mean = 0;
    for (int i = 0; i < N; i++)
        mean += y[i] / N;
    assert_true(fabs(m->trees[0].value[0] - mean) < 1e-12);
    pl_coloc_model_free(m);
}

static void test_bagging_deterministic(void **state)
{
    (void)state;
    static double x[2 * N], y[N];
    make_steps(x, y, 300, 5);
    pl_coloc_model_opts o;
    pl_coloc_model_opts_init(&o);
    o.trees = 20;
    o.seed = 99;
    pl_coloc_model *a, *b, *c;
    assert_pl_ok(pl_coloc_model_train(x, y, 300, 2, NULL, &o, &a));
    assert_pl_ok(pl_coloc_model_train(x, y, 300, 2, NULL, &o, &b));
    o.seed = 100;
    assert_pl_ok(pl_coloc_model_train(x, y, 300, 2, NULL, &o, &c));
    int differ = 0;
    pl_test_rng r = { 1 };
    for (int i = 0; i < 200; i++) {
        double q[2] = { 3 * unit(&r), 10 * unit(&r) }, ya, yb, yc;
        assert_pl_ok(pl_coloc_model_predict(a, q, &ya));
        assert_pl_ok(pl_coloc_model_predict(b, q, &yb));
        assert_pl_ok(pl_coloc_model_predict(c, q, &yc));
        assert_true(ya == yb);
        differ += ya != yc;
    }
    assert_true(differ > 0);   /* the seed matters */
    pl_coloc_model_free(a);
    pl_coloc_model_free(b);
    pl_coloc_model_free(c);
}

static void tmp_path(char *buf, const char *name)
{
    snprintf(buf, 256, "/tmp/pl_coloc_%ld_%s", (long)getpid(), name);
}

static void test_save_load_roundtrip(void **state)
{
    (void)state;
    static double x[2 * N], y[N];
    make_steps(x, y, N, 8);
    const char *names[2] = { "solo_runtime_s", "cpu idle %" };
    pl_coloc_model_opts o;
    pl_coloc_model_opts_init(&o);
    o.trees = 30;
    pl_coloc_model *m, *l;
    assert_pl_ok(pl_coloc_model_train(x, y, N, 2, names, &o, &m));
    char path[256];
    tmp_path(path, "model.txt");
    assert_pl_ok(pl_coloc_model_save(m, path));
    assert_pl_ok(pl_coloc_model_load(path, &l));
    assert_int_equal(pl_coloc_model_trees(l), 30);
    assert_string_equal(pl_coloc_model_feature_name(l, 1), "cpu idle %");
    pl_test_rng r = { 2 };
    for (int i = 0; i < 500; i++) {
        double q[2] = { 3.2 * unit(&r) - 0.1, 10 * unit(&r) }, a, b;
        assert_pl_ok(pl_coloc_model_predict(m, q, &a));
        assert_pl_ok(pl_coloc_model_predict(l, q, &b));
        if (a != b)
            fail_msg("prediction %.17g != loaded %.17g", a, b);
    }
    pl_coloc_model_free(m);
    pl_coloc_model_free(l);
    unlink(path);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_train_csv(void **state)
{
    (void)state;
    char path[256];
    tmp_path(path, "samples.csv");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "# profiling samples\nsolo_runtime_s, net_send_mb_per_s ,runtime_s\n");
    pl_test_rng r = { 4 };
    for (int i = 0; i < 200; i++) {
        double solo = 100 + 50 * unit(&r), net = 100 * unit(&r);
        /* co-run slowdown 1.5x once the network is busy beyond 50 MB/s */
        fprintf(f, "%.6f,%.6f,%.6f\n", solo, net, net > 50 ? 1.5 * 120 : 120.0);
        if (i == 100)
            fputs("\n", f);
    }
    fclose(f);
    pl_coloc_model_opts o;
    pl_coloc_model_opts_init(&o);
    o.trees = 10;
    pl_coloc_model *m;
    assert_pl_ok(pl_coloc_model_train_csv(path, &o, &m));
    assert_int_equal(pl_coloc_model_features(m), 2);
    assert_string_equal(pl_coloc_model_feature_name(m, 1), "net_send_mb_per_s");
    assert_string_equal(m->names[2], "runtime_s");
    double q[2] = { 120, 80 }, yq;
    assert_pl_ok(pl_coloc_model_predict(m, q, &yq));
    assert_true(fabs(yq - 180) < 1e-9);
    q[1] = 10;
    assert_pl_ok(pl_coloc_model_predict(m, q, &yq));
    assert_true(fabs(yq - 120) < 1e-9);
    pl_coloc_model_free(m);
    unlink(path);
}

static void expect_parse(const char *text, const char *where)
{
    char path[256], want[300];
    tmp_path(path, "bad.csv");
    write_file(path, text);
    pl_coloc_model *m = (pl_coloc_model *)1;
    assert_pl_status(pl_coloc_model_train_csv(path, NULL, &m), PL_EPARSE);
    assert_null(m);
    snprintf(want, sizeof want, "%s%s", path, where);
    if (!strstr(pl_last_error(), want))
        fail_msg("message '%s' lacks '%s'", pl_last_error(), want);
    unlink(path);
}

static void test_csv_errors(void **state)
{
    (void)state;
    expect_parse("a,b,y\n1,2,3\n1,2\n", ":3:");
    expect_parse("a,b,y\n1,2,3\n\n1,abc,3\n", ":4:");
    assert_non_null(strstr(pl_last_error(), "'abc'"));
    expect_parse("a,b,y\n1,2,nan\n", ":2:");
    expect_parse("a,b,y\n", ":1:");
    expect_parse("# only a comment\n", ":1:");
    expect_parse("y\n1\n", ":1:");
    expect_parse("a,,y\n1,2,3\n", ":1:");
    pl_coloc_model *m;
    assert_pl_status(pl_coloc_model_train_csv("/nonexistent/x.csv", NULL, &m), PL_EIO);
}

static void test_load_errors(void **state)
{
    (void)state;
    char path[256];
    tmp_path(path, "bad.model");
    pl_coloc_model *m;
    write_file(path, "not-a-model 1\n");
    assert_pl_status(pl_coloc_model_load(path, &m), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), ":1:"));
    write_file(path, "placement-coloc-model 2\n");
    assert_pl_status(pl_coloc_model_load(path, &m), PL_EPARSE);
    write_file(path, "placement-coloc-model 1\nfeatures 1\nfeature a\ntarget y\ntrees 1\ntree 3\n"
                     "0 0.5 1 5 0\n-1 0 -1 -1 1\n-1 0 -1 -1 2\n");
    assert_pl_status(pl_coloc_model_load(path, &m), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), ":7:"));
    write_file(path, "placement-coloc-model 1\nfeatures 1\nfeature a\ntarget y\ntrees 1\ntree 3\n"
                     "0 0.5 1 2 0\n-1 0 -1 -1 1\n");
    assert_pl_status(pl_coloc_model_load(path, &m), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "end of file"));
    /* a valid hand-written stump */
    write_file(path, "placement-coloc-model 1\nfeatures 1\nfeature a\ntarget y\ntrees 1\ntree 3\n"
                     "0 0.5 1 2 0\n-1 0 -1 -1 1\n-1 0 -1 -1 2\n");
    assert_pl_ok(pl_coloc_model_load(path, &m));
    double x = 0.7, y;
    assert_pl_ok(pl_coloc_model_predict(m, &x, &y));
    assert_true(y == 2);
    pl_coloc_model_free(m);
    unlink(path);
    assert_pl_status(pl_coloc_model_load("/nonexistent/m", &m), PL_EIO);
}

static void test_train_errors(void **state)
{
    (void)state;
    double x[4] = { 1, 2, 3, NAN }, y[2] = { 1, 2 };
    pl_coloc_model *m;
    assert_pl_status(pl_coloc_model_train(x, y, 2, 2, NULL, NULL, &m), PL_EINVAL);
    assert_pl_status(pl_coloc_model_train(x, y, 0, 2, NULL, NULL, &m), PL_EINVAL);
    pl_coloc_model_opts o;
    pl_coloc_model_opts_init(&o);
    o.trees = 0;
    assert_pl_status(pl_coloc_model_train(x, y, 1, 2, NULL, &o, &m), PL_EINVAL);
    assert_pl_status(pl_coloc_model_predict(NULL, x, y), PL_EINVAL);
    pl_coloc_model_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_tree_recovers_steps),
        cmocka_unit_test(test_bagging_recovers_steps),
        cmocka_unit_test(test_pruning_cuts_noise),
        cmocka_unit_test(test_min_leaf_and_depth),
        cmocka_unit_test(test_bagging_deterministic),
        cmocka_unit_test(test_save_load_roundtrip),
        cmocka_unit_test(test_train_csv),
        cmocka_unit_test(test_csv_errors),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_train_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
