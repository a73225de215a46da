/* Sharing over time (pl_disagg_opts.reshare: composition sharers and GPU
 * co-runners) and the physically-attached layout (pl_disagg_add_nvme_at,
 * pl_disagg_add_gpu_at), on hand-computed cases.
 *
 * Two sharers: a SMUFIN-like job of 900 MB/s (so that two fit one 2 GB/s
 * device) follows the table at k = 1: T(1,1) = 1600 s, T(1,2) = 1650 s.
 *   A starts alone at 0: end 1600.
 *   B joins at 400: A has done 400/1600 = 1/4, 3/4 left at T = 1650:
 *     A ends 400 + 0.75 x 1650 = 1637.5; B ends 400 + 1650 = 2050.
 *   A leaves at 1637.5: B has done 1237.5/1650 = 3/4, 1/4 left at T = 1600:
 *     B ends 1637.5 + 0.25 x 1600 = 2037.5.
 * Without reshare the ends stay 1600 and 2050. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include <placement/disagg.h>

#define MB 1000000LL
#define GB 1000000000LL
#define EPS 1e-9

static pl_disagg_workload smufin_900(double arrival)
{
    pl_disagg_workload w;
    assert_pl_ok(pl_disagg_workload_preset(PL_DISAGG_BANDWIDTH_BOUND, arrival, 0, &w));
    w.nvme_bw_bytes_per_s = 900 * MB;
    return w;
}

static pl_disagg_cluster *one_device(int reshare)
{
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_create(&c));
    assert_pl_ok(pl_disagg_add_node(c, 25, 0, NULL));
    assert_pl_ok(pl_disagg_add_nvme(c, 2000 * MB, 600 * GB, NULL));
    pl_disagg_opts o;
    pl_disagg_opts_init(&o);
    assert_int_equal(o.reshare, 0); /* the default keeps run times fixed */
    o.reshare = reshare;
    assert_pl_ok(pl_disagg_set_opts(c, &o));
    return c;
}

static double end_of(const pl_disagg_cluster *c, int32_t id)
{
    double end = -1;
    assert_pl_ok(pl_disagg_placement(c, id, NULL, NULL, NULL, NULL, &end));
    return end;
}

/* Start A at 0 on a new composition of device 0, B at 400 sharing it. */
static void start_two(pl_disagg_cluster *c, int32_t *a, int32_t *b, int32_t *comp)
{
    pl_disagg_workload wa = smufin_900(0), wb = smufin_900(400);
    pl_disagg_decision d;
    assert_pl_ok(pl_disagg_first_fit(c, &wa, 0, &d));
    assert_true(d.placed && d.n_new_devices == 1 && d.new_devices[0] == 0);
    assert_float_equal(d.predicted_time_s, 1600, EPS);
    assert_pl_ok(pl_disagg_apply(c, &wa, &d, 0, a));
    assert_float_equal(end_of(c, *a), 1600, EPS);
    assert_pl_ok(pl_disagg_placement(c, *a, NULL, comp, NULL, NULL, NULL));
    assert_pl_ok(pl_disagg_first_fit(c, &wb, 400, &d));
    assert_true(d.placed && d.composition == *comp);
    assert_float_equal(d.predicted_time_s, 1650, EPS);
    assert_pl_ok(pl_disagg_apply(c, &wb, &d, 400, b));
}

static void test_two_sharers_reevaluated(void **state)
{
    (void)state;
    pl_disagg_cluster *c = one_device(1);
    int32_t a, b, comp;
    start_two(c, &a, &b, &comp);
    assert_float_equal(end_of(c, a), 1637.5, EPS); /* A slowed down by B */
    assert_float_equal(end_of(c, b), 2050, EPS);
    pl_disagg_composition_info info;
    assert_pl_ok(pl_disagg_composition(c, comp, &info));
    assert_float_equal(info.end_s, 2050, EPS);
    assert_int_equal(info.sharers, 2);
    assert_pl_ok(pl_disagg_release_at(c, a, 1637.5));
    assert_float_equal(end_of(c, b), 2037.5, EPS); /* B alone again: faster */
    assert_pl_ok(pl_disagg_release_at(c, b, 2037.5));
    assert_pl_status(pl_disagg_release_at(c, b, 2037.5), PL_EINVAL);
    assert_pl_status(pl_disagg_release_at(NULL, 0, 0), PL_EINVAL);
    /* The composition dissolved: the device is back in the pool. */
    int32_t dc = 0;
    assert_pl_ok(pl_disagg_nvme_composition(c, 0, &dc));
    assert_int_equal(dc, -1);
    pl_disagg_cluster_free(c);
}

static void test_two_sharers_static(void **state)
{
    (void)state;
    pl_disagg_cluster *c = one_device(0);
    int32_t a, b, comp;
    start_two(c, &a, &b, &comp);
    assert_float_equal(end_of(c, a), 1600, EPS);
    assert_float_equal(end_of(c, b), 2050, EPS);
    assert_pl_ok(pl_disagg_release_at(c, a, 1600));
    assert_float_equal(end_of(c, b), 2050, EPS);
    pl_disagg_cluster_free(c);
}

/* Three changes in a row on a 2-device composition (T(2,s) = 1500, 1520,
 * 1560): A at 0 (1500); B at 150: A 0.9 left -> 150 + 0.9 x 1520 = 1518;
 * C at 302: A has 0.9 - 152/1520 = 0.8 left -> 302 + 0.8 x 1560 = 1550,
 * B 1 - 0.1 = 0.9 left -> 302 + 0.9 x 1560 = 1706, C 302 + 1560 = 1862. */
static void test_three_sharers(void **state)
{
    (void)state;
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_thesis(0, &c));
    pl_disagg_opts o;
    pl_disagg_opts_init(&o);
    o.reshare = 1;
    assert_pl_ok(pl_disagg_set_opts(c, &o));
    pl_disagg_workload w[3];
    for (int i = 0; i < 3; i++)
        w[i] = smufin_900(0);
    pl_disagg_decision d;
    memset(&d, 0, sizeof d);
    d.placed = 1;
    d.node = 0;
    d.composition = -1;
    d.gpu = d.vgpu = -1;
    d.n_new_devices = 2;
    d.new_devices[0] = 0;
    d.new_devices[1] = 1;
    int32_t id[3], comp;
    assert_pl_ok(pl_disagg_apply(c, &w[0], &d, 0, &id[0]));
    assert_float_equal(end_of(c, id[0]), 1500, EPS);
    assert_pl_ok(pl_disagg_placement(c, id[0], NULL, &comp, NULL, NULL, NULL));
    d.n_new_devices = 0;
    d.composition = comp;
    assert_pl_ok(pl_disagg_apply(c, &w[1], &d, 150, &id[1]));
    assert_float_equal(end_of(c, id[0]), 1518, 1e-6);
    assert_pl_ok(pl_disagg_apply(c, &w[2], &d, 302, &id[2]));
    assert_float_equal(end_of(c, id[0]), 1550, 1e-6);
    assert_float_equal(end_of(c, id[1]), 1706, 1e-6);
    assert_float_equal(end_of(c, id[2]), 1862, 1e-6);
    pl_disagg_cluster_free(c);
}

/* GPU co-runners (Fig. 5.3 factors 1, 1.05, 1.25, 3.5 for 1-4 busy vGPUs
 * of a 4-way split GPU; YOLO 152 s: 152, 159.6, 190, 532 s per run).
 * A starts alone at 0 (end 152); B, C, D join at 38, when A has 3/4 left:
 * after B, A ends 38 + 0.75 x 159.6; after C, 38 + 0.75 x 190; after D,
 * 38 + 0.75 x 532 = 437, and B, C, D end 38 + 532 = 570. A leaves at 437:
 * B, C, D have done 399/532 = 3/4, 1/4 left at 190 s: they end 484.5. B
 * leaves at 484.5: C and D have nothing left, they end at 484.5. Without
 * reshare the ends are 152, 38 + 159.6, 38 + 190 and 570. */
static void test_gpu_corunners(void **state)
{
    (void)state;
    for (int reshare = 0; reshare <= 1; reshare++) {
        pl_disagg_cluster *c = NULL;
        assert_pl_ok(pl_disagg_cluster_thesis(1, &c));
        pl_disagg_opts o;
        pl_disagg_opts_init(&o);
        o.reshare = reshare;
        assert_pl_ok(pl_disagg_set_opts(c, &o));
        pl_disagg_workload w;
        pl_disagg_decision d;
        int32_t id[4];
        for (int i = 0; i < 4; i++) {
            double at = i ? 38 : 0;
            assert_pl_ok(pl_disagg_workload_preset(PL_DISAGG_GPU_BOUND, at, 0, &w));
            assert_pl_ok(pl_disagg_gpu_aware(c, &w, at, &d));
            assert_true(d.placed);
            assert_int_equal(d.vgpu, i);
            assert_int_equal(d.partition, i ? 0 : 4);
            assert_pl_ok(pl_disagg_apply(c, &w, &d, at, &id[i]));
            if (i == 1)
                assert_float_equal(end_of(c, id[0]), reshare ? 38 + 0.75 * 159.6 : 152, EPS);
            if (i == 2)
                assert_float_equal(end_of(c, id[0]), reshare ? 38 + 0.75 * 190 : 152, EPS);
        }
        assert_float_equal(end_of(c, id[0]), reshare ? 437 : 152, 1e-9);
        assert_float_equal(end_of(c, id[1]), reshare ? 570 : 38 + 159.6, 1e-9);
        assert_float_equal(end_of(c, id[2]), reshare ? 570 : 38 + 190, 1e-9);
        assert_float_equal(end_of(c, id[3]), 570, 1e-9);
        double t = reshare ? 437 : 152;
        assert_pl_ok(pl_disagg_release_at(c, id[0], t));
        for (int i = 1; i < 4; i++)
            assert_float_equal(end_of(c, id[i]), reshare ? 484.5 : i == 1 ? 38 + 159.6
                                                               : i == 2   ? 38 + 190
                                                                          : 570,
                               1e-9);
        if (reshare) {
            assert_pl_ok(pl_disagg_release_at(c, id[1], 484.5));
            assert_float_equal(end_of(c, id[2]), 484.5, 1e-9);
            assert_float_equal(end_of(c, id[3]), 484.5, 1e-9);
        }
        pl_disagg_cluster_free(c);
    }
}

/* Physically attached: 2 nodes x 10 cores, device 0 on node 1. A SMUFIN
 * (6 cores) must run on node 1 although node 0 comes first; a second one
 * cannot run (the device is taken, node 0 has none) until a pool device
 * appears, which node 0 may use. */
static pl_disagg_cluster *two_nodes(int32_t cores0, int32_t cores1)
{
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_create(&c));
    assert_pl_ok(pl_disagg_add_node(c, cores0, 0, NULL));
    assert_pl_ok(pl_disagg_add_node(c, cores1, 0, NULL));
    return c;
}

static void test_pa_layout(void **state)
{
    (void)state;
    pl_disagg_cluster *c = two_nodes(10, 10);
    int32_t dev = -1;
    assert_pl_status(pl_disagg_add_nvme_at(c, 2000 * MB, 600 * GB, 2, &dev), PL_EINVAL);
    assert_pl_status(pl_disagg_add_nvme_at(c, 0, 600 * GB, 1, &dev), PL_EINVAL);
    assert_pl_ok(pl_disagg_add_nvme_at(c, 2000 * MB, 600 * GB, 1, &dev));
    assert_int_equal(dev, 0);
    pl_disagg_workload w;
    assert_pl_ok(pl_disagg_workload_preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0, &w));
    const pl_disagg_policy pols[] = {PL_DISAGG_FIRST_FIT, PL_DISAGG_MAX_COMPOSITION,
                                     PL_DISAGG_MIN_FRAGMENTATION};
    pl_disagg_decision d;
    for (int i = 0; i < 3; i++) {
        assert_pl_ok(pl_disagg_decide(c, pols[i], &w, 0, 0, 0, &d));
        assert_true(d.placed);
        assert_int_equal(d.node, 1);
        assert_int_equal(d.n_new_devices, 1);
        assert_int_equal(d.new_devices[0], 0);
    }
    /* Composing the node-1 device onto node 0 is refused. */
    pl_disagg_decision bad = d;
    bad.node = 0;
    assert_pl_status(pl_disagg_apply(c, &w, &bad, 0, NULL), PL_EINFEASIBLE);
    int32_t id;
    assert_pl_ok(pl_disagg_apply(c, &w, &d, 0, &id));
    for (int i = 0; i < 3; i++) {
        assert_pl_ok(pl_disagg_decide(c, pols[i], &w, 0, 0, 0, &d));
        assert_false(d.placed); /* node 0 has the cores but no device */
    }
    int32_t pool;
    assert_pl_ok(pl_disagg_add_nvme(c, 2000 * MB, 600 * GB, &pool));
    assert_pl_ok(pl_disagg_first_fit(c, &w, 0, &d));
    assert_true(d.placed);
    assert_int_equal(d.node, 0);
    assert_int_equal(d.new_devices[0], pool);
    pl_disagg_cluster_free(c);
}

/* SMUFIN oversubscription: the thesis's T(1, 2) is two SMUFIN of 1800 MB/s
 * on one 2 GB/s device, which a hard reservation forbids. One device, A
 * (Table 4.1 SMUFIN) from 0 alone (1600 s); B at 400: max-composition
 * cannot place it by default (no free device, 200 MB/s left); with
 * smufin_oversubscribe it shares at T(1, 2) = 1650, re-evaluating A to
 * 400 + 0.75 x 1650 = 1637.5 and B ending at 2050. First fit (no model)
 * never oversubscribes; min-fragmentation cannot either (alpha is undefined
 * on a negative free bandwidth). */
static void test_smufin_oversubscribe(void **state)
{
    (void)state;
    for (int over = 0; over <= 1; over++) {
        pl_disagg_cluster *c = one_device(1);
        pl_disagg_opts o;
        pl_disagg_opts_init(&o);
        assert_int_equal(o.smufin_oversubscribe, 0);
        o.reshare = 1;
        o.smufin_oversubscribe = over;
        assert_pl_ok(pl_disagg_set_opts(c, &o));
        pl_disagg_workload wa, wb;
        assert_pl_ok(pl_disagg_workload_preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0, &wa));
        assert_pl_ok(pl_disagg_workload_preset(PL_DISAGG_BANDWIDTH_BOUND, 400, 0, &wb));
        pl_disagg_decision d;
        int32_t a, b;
        assert_pl_ok(pl_disagg_max_composition(c, &wa, 0, &d));
        assert_true(d.placed && d.n_new_devices == 1);
        assert_pl_ok(pl_disagg_apply(c, &wa, &d, 0, &a));
        assert_pl_ok(pl_disagg_first_fit(c, &wb, 400, &d));
        assert_false(d.placed);
        assert_pl_ok(pl_disagg_max_composition(c, &wb, 400, &d));
        assert_int_equal(d.placed, over);
        if (over) {
            assert_float_equal(d.predicted_time_s, 1650, EPS);
            assert_pl_ok(pl_disagg_apply(c, &wb, &d, 400, &b));
            assert_float_equal(end_of(c, a), 1637.5, EPS);
            assert_float_equal(end_of(c, b), 2050, EPS);
            pl_disagg_composition_info info;
            assert_pl_ok(pl_disagg_composition(c, d.composition, &info));
            assert_int_equal(info.sharers, 2);
            assert_true(info.free_bw_bytes_per_s == 0);
            pl_disagg_workload wc;
            assert_pl_ok(pl_disagg_workload_preset(PL_DISAGG_BANDWIDTH_BOUND, 400, 0, &wc));
            assert_pl_ok(pl_disagg_min_fragmentation(c, &wc, 400, &d));
            assert_false(d.placed);
        }
        pl_disagg_cluster_free(c);
    }
}

/* A physically-attached GPU (Fig. 5.6a): node 0 has 25 cores, node 1 only
 * 3; the GPU (Table 5.2, splits {1, 2, 4}) is on node 1. Every policy puts
 * a YOLO (2 cores) on node 1 although node 0 has more room (and Eq. 5.1
 * would pick it); a second YOLO finds a free vGPU but no cores on node 1:
 * it waits, with the decision cleared. */
static void test_pa_gpu(void **state)
{
    (void)state;
    pl_disagg_cluster *c = two_nodes(25, 3);
    static const int32_t t4[] = {1, 2, 4};
    int32_t g = -1;
    assert_pl_status(pl_disagg_add_gpu_at(c, 4000 * MB, 16 * GB, t4, 3, 2, &g), PL_EINVAL);
    assert_pl_ok(pl_disagg_add_gpu_at(c, 4000 * MB, 16 * GB, t4, 3, 1, &g));
    assert_int_equal(g, 0);
    pl_disagg_workload w;
    assert_pl_ok(pl_disagg_workload_preset(PL_DISAGG_GPU_BOUND, 0, 0, &w));
    pl_disagg_decision d;
    for (int p = 0; p <= (int)PL_DISAGG_GPU_AWARE; p++) {
        assert_pl_ok(pl_disagg_decide(c, (pl_disagg_policy)p, &w, 0, 0, 0, &d));
        assert_true(d.placed);
        assert_int_equal(d.node, 1);
        assert_int_equal(d.gpu, 0);
    }
    pl_disagg_decision bad = d;
    bad.node = 0;
    assert_pl_status(pl_disagg_apply(c, &w, &bad, 0, NULL), PL_EINFEASIBLE);
    assert_pl_ok(pl_disagg_apply(c, &w, &d, 0, NULL));
    assert_pl_ok(pl_disagg_gpu_aware(c, &w, 0, &d));
    assert_false(d.placed);
    assert_int_equal(d.node, -1);
    assert_int_equal(d.gpu, -1);
    assert_int_equal(d.vgpu, -1);
    pl_disagg_cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_sharers_reevaluated),
        cmocka_unit_test(test_two_sharers_static),
        cmocka_unit_test(test_three_sharers),
        cmocka_unit_test(test_gpu_corunners),
        cmocka_unit_test(test_pa_gpu),
        cmocka_unit_test(test_smufin_oversubscribe),
        cmocka_unit_test(test_pa_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
