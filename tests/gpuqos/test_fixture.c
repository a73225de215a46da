/* Table 5.1 as a fixture: synthetic traces shaped by each model's GPU
 * utilisation (tests/data/kim/README.md), the 3 x 5 QoS matrix of the
 * thesis's set-up (Cifar10 LS x Imagenet batch, factors 1, 2, 4, 8), and
 * properties that must hold whatever the traces: splitting lowers the mean
 * LS slowdown, a looser QoS never removes a pair, and MMP never beats the
 * min-cost-flow optimum. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "testutil.h"
#include <placement/gpuqos.h>

#define KERNELS 10

typedef struct model {
    char name[32];
    double util;
    int ls;
    pl_gpu_call calls[KERNELS];
    pl_gpu_trace t;
} model;

static int load(model *m, int max)
{
    char path[PL_PATH_MAX], line[256];
    FILE *f = fopen(pl_test_data(path, "kim/table5_1.csv"), "r");
    assert_non_null(f);
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        char name[32], ds[32], role[16];
        double params, util, net;
        int batch;
        if (line[0] == '#' || strncmp(line, "name,", 5) == 0)
            continue;
        assert_int_equal(sscanf(line, "%31[^,],%31[^,],%lf,%d,%lf,%lf,%15s", name, ds, &params, &batch,
                                &util, &net, role), 7);
        model *x = &m[n++];
        memset(x, 0, sizeof *x);
        snprintf(x->name, sizeof x->name, "%s", name);
        x->util = util / 100.0;
        x->ls = strcmp(role, "ls") == 0;
        double period = x->ls ? 0.1 : 0.4, slot = period / KERNELS;
        for (int k = 0; k < KERNELS; k++) {
            pl_gpu_call *c = &x->calls[k];
            c->kind = PL_GPU_KERNEL;
            c->duration_s = slot * x->util;
            c->start_s = k * slot + slot * (1 - x->util);
            c->split = !x->ls;
            c->split2_duration_s = c->duration_s / 2 * 1.15;
        }
        x->t = (pl_gpu_trace){ x->calls, KERNELS, period, 0.0 };
    }
    fclose(f);
    return n;
}

static void test_table51_pairing(void **state)
{
    (void)state;
    model m[8];
    assert_int_equal(load(m, 8), 8);
    assert_string_equal(m[1].name, "Resnet32");
    assert_true(fabs(m[1].util - 0.4574) < 1e-12);
    pl_gpu_trace ls[3], batch[5];
    int nl = 0, nb = 0;
    for (int i = 0; i < 8; i++) {
        if (m[i].ls)
            ls[nl++] = m[i].t;
        else
            batch[nb++] = m[i].t;
    }
    assert_int_equal(nl, 3);
    assert_int_equal(nb, 5);
    pl_gpu_sim_opts o;
    pl_gpu_sim_opts_init(&o);
    o.horizon_s = 20;

    /* kernel split helps the LS models on average */
    const int32_t one[] = { 1 }, eight[] = { 8 };
    double b1[15], l1[15], b8[15], l8[15];
    assert_pl_ok(pl_gpu_qos_matrix(ls, 3, batch, 5, one, 1, 1e9, &o, b1, l1, NULL));
    assert_pl_ok(pl_gpu_qos_matrix(ls, 3, batch, 5, eight, 1, 1e9, &o, b8, l8, NULL));
    double s1 = 0, s8 = 0, o1 = 0, o8 = 0;
    for (int e = 0; e < 15; e++) {
        s1 += l1[e];
        s8 += l8[e];
        o1 += b1[e];
        o8 += b8[e];
    }
    assert_true(s8 < s1);
    assert_true(o8 > o1); /* and the batch models pay for it */

    const int32_t fs[] = { 1, 2, 4, 8 };
    const double qos[] = { 0.10, 0.20, 0.30 };
    int prev = -1;
    for (int q = 0; q < 3; q++) {
        double b[15], l[15];
        assert_pl_ok(pl_gpu_qos_matrix(ls, 3, batch, 5, fs, 4, qos[q], &o, b, l, NULL));
        int cnt = 0;
        for (int e = 0; e < 15; e++)
            cnt += !isnan(b[e]);
        assert_true(cnt >= prev);
        prev = cnt;
        pl_gpu_pairing_problem p = { 3, 5, b, l };
        double mv, ov;
        assert_pl_ok(pl_gpu_mmp_vs_optimal(&p, NULL, &mv, &ov));
        assert_true(mv <= ov + 1e-9);
        assert_true(ov >= 3.0); /* never worse than every LS alone */
        print_message("QoS %.0f%%: %d pairs meet QoS; MMP %.4f, optimum %.4f (%.2f%%)\n",
                      qos[q] * 100, cnt, mv, ov, 100 * mv / ov);
    }
    assert_true(prev > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table51_pairing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
