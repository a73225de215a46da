/* Seed 001's NVMe simulation (placement/nvme_sim.h): hand-checked traces,
 * metric definitions, the measurement window, generation, determinism,
 * scenario smoke runs, the CLI and the thesis's qualitative S1 result. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <placement/placement.h>
#include "../common/testutil.h"
#include <placement/disagg.h>
#include <placement/nvme_sim.h>

#define EPS 1e-6

static pl_disagg_workload preset(pl_disagg_type t, double at, int high)
{
    pl_disagg_workload w;
    assert_pl_ok(pl_disagg_workload_preset(t, at, high, &w));
    return w;
}

static pl_nvme_sim_opts small_cluster(int32_t cores, int32_t nvme)
{
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    o.nodes = 1;
    o.cores_per_node = cores;
    o.nvme = nvme;
    o.window = 0;
    return o;
}

static pl_nvme_sim_record rec_of(const pl_nvme_sim_result *r, int32_t i)
{
    pl_nvme_sim_record x;
    assert_pl_ok(pl_nvme_sim_result_record(r, i, &x));
    return x;
}

/* 1 node x 25 cores, 1 NVMe, first fit. By hand:
 * J0 SMUFIN at 0 takes device 0 (1600 s) -> 0..1600, deadline 6400.
 * J1 capacity-bound at 10 (deadline 3210): the device has 200 MB/s but only
 *    557 GB left, no free device -> waits.
 * J2 compute at 20 (15 of 19 free cores) -> 20..920.
 * J3 high-priority SMUFIN at 30 (deadline 30 + 1.2 x 1600 = 1950) waits.
 * At 1600 EDF takes J3 (1950) before J1 (3210): 1600..3200, missed; J1 then
 * waits for the device again: 3200..4000, missed (3210). */
static void test_hand_trace_first_fit(void **st)
{
    (void)st;
    pl_disagg_workload w[4] = {
        preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0),
        preset(PL_DISAGG_CAPACITY_BOUND, 10, 0),
        preset(PL_DISAGG_COMPUTE_BOUND, 20, 0),
        preset(PL_DISAGG_BANDWIDTH_BOUND, 30, 1),
    };
    pl_nvme_sim_opts o = small_cluster(25, 1);
    pl_nvme_sim_result *r;
    assert_pl_ok(pl_nvme_sim_run(&o, w, 4, PL_DISAGG_FIRST_FIT, &r));
    const double start[4] = {0, 3200, 20, 1600}, finish[4] = {1600, 4000, 920, 3200};
    const int missed[4] = {0, 1, 0, 1};
    for (int i = 0; i < 4; i++) {
        pl_nvme_sim_record x = rec_of(r, i);
        assert_float_equal(x.start_s, start[i], EPS);
        assert_float_equal(x.finish_s, finish[i], EPS);
        assert_int_equal(x.missed, missed[i]);
        assert_int_equal(x.node, 0);
        assert_int_equal(x.comp_size, i == 2 ? 0 : 1);
        assert_int_equal(x.composition, i == 2 ? -1 : (i == 0 ? 0 : (i == 3 ? 1 : 2)));
    }
    assert_float_equal(rec_of(r, 3).deadline_s, 1950, EPS);
    pl_nvme_sim_summary s;
    assert_pl_ok(pl_nvme_sim_result_summary(r, &s));
    assert_int_equal(s.jobs, 4);
    assert_int_equal(s.done, 4);
    assert_int_equal(s.window_jobs, 4);
    assert_int_equal(s.window_reached, 0);
    assert_float_equal(s.missed_pct, 50.0, EPS);
    assert_float_equal(s.missed_high_pct, 25.0, EPS); /* share of all workloads */
    assert_float_equal(s.mean_wait_s, (0 + 3190 + 0 + 1570) / 4.0, EPS);
    assert_int_equal(s.compositions, 3); /* dissolved with its last sharer, ids not reused */
    assert_float_equal(s.mean_comp_size, 1.0, EPS);
    assert_float_equal(s.mean_sharing, 1.0, EPS);
    assert_float_equal(s.mean_hosted, 1.0, EPS);
    /* Window [0, 4000]. Core-seconds 6x1600 + 15x900 + 6x1600 + 6x800 = 37500 of 25 x 4000. */
    assert_float_equal(s.window_start_s, 0, EPS);
    assert_float_equal(s.window_end_s, 4000, EPS);
    assert_float_equal(s.cpu_util_pct, 37.5, EPS);
    /* MB/s x s: 1800 x 3200 + 160 x 800 = 5,888,000 of 2000 x 4000. */
    assert_float_equal(s.bw_util_pct, 73.6, EPS);
    /* GB x s: 43 x 3200 + 600 x 800 = 617,600 of 600 x 4000. */
    assert_float_equal(s.cap_util_pct, 100.0 * 617600 / 2400000, EPS);
    assert_float_equal(s.nvme_usage_pct, 100.0, EPS); /* the device is never idle */
    pl_nvme_sim_result_free(r);
}

/* 1 node x 25 cores, 3 NVMe, maximise composition. By hand:
 * J0 SMUFIN at 0: grows 1600 -> 1500 -> 1450: {0,1,2}, 0..1450.
 * J1 SMUFIN at 100 shares it (4200 MB/s free, T(3,2) = 1460): 100..1560.
 * J2 compute at 200: 13 free cores < 15, waits for J0: 1450..2350. */
/* Two SMUFIN at 0 and 100 and a compute job at 200 on 1 node x 25 cores
 * and 3 devices, under max-composition. */
static pl_nvme_sim_result *three_job_trace(int static_sharing)
{
    pl_disagg_workload w[3] = {
        preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0),
        preset(PL_DISAGG_BANDWIDTH_BOUND, 100, 0),
        preset(PL_DISAGG_COMPUTE_BOUND, 200, 0),
    };
    pl_nvme_sim_opts o = small_cluster(25, 3);
    assert_int_equal(o.static_sharing, 0); /* re-evaluation is the default */
    o.static_sharing = static_sharing;
    pl_nvme_sim_result *r;
    assert_pl_ok(pl_nvme_sim_run(&o, w, 3, PL_DISAGG_MAX_COMPOSITION, &r));
    return r;
}

static void test_hand_trace_max_composition(void **st)
{
    (void)st;
    /* run times fixed at start: test_hand_trace_reshared re-evaluates */
    pl_nvme_sim_result *r = three_job_trace(1);
    pl_nvme_sim_record a = rec_of(r, 0), b = rec_of(r, 1), c = rec_of(r, 2);
    assert_float_equal(a.finish_s, 1450, EPS);
    assert_float_equal(b.start_s, 100, EPS);
    assert_float_equal(b.finish_s, 1560, EPS);
    assert_float_equal(c.start_s, 1450, EPS);
    assert_float_equal(c.finish_s, 2350, EPS);
    assert_int_equal(a.comp_size, 3);
    assert_int_equal(a.sharers, 1);
    assert_int_equal(b.composition, a.composition);
    assert_int_equal(b.sharers, 2);
    assert_int_equal((int)b.decided_by, (int)PL_DISAGG_MAX_COMPOSITION);
    pl_nvme_sim_summary s;
    assert_pl_ok(pl_nvme_sim_result_summary(r, &s));
    assert_float_equal(s.missed_pct, 0, EPS);
    assert_float_equal(s.mean_wait_s, (0 + 0 + 1250) / 3.0, EPS);
    assert_int_equal(s.compositions, 1);
    assert_float_equal(s.mean_comp_size, 3, EPS);
    assert_float_equal(s.mean_hosted, 2, EPS);
    /* Sharers over the composition's life 0..1560: 1 for 100 s, 2 for 1350 s, 1 for 110 s. */
    assert_float_equal(s.mean_sharing, (100 + 2700 + 110) / 1560.0, EPS);
    /* 3 devices composed 0..1560 of the window 0..2350. */
    assert_float_equal(s.nvme_usage_pct, 100.0 * 1560 / 2350, EPS);
    assert_float_equal(s.cpu_util_pct, 100.0 * (6 * 1450 + 6 * 1460 + 15 * 900) / (25.0 * 2350),
                       EPS);
    pl_nvme_sim_result_free(r);
}

/* The same trace with sharers re-evaluated (the default): T(3,1) = 1450,
 * T(3,2) = 1460. At 100 B joins: A has 1350/1450 of its work left, now at
 * 1460 s per job: A ends 100 + 1350 x 1460 / 1450 = 1459.3103... B has then
 * done 1359.31/1460 = 1350/1450, so 100/1450 is left at 1450 s per job: B
 * ends 100 s after A. C (15 cores, 13 free) starts when A leaves. */
static void test_hand_trace_reshared(void **st)
{
    (void)st;
    pl_nvme_sim_result *r = three_job_trace(0);
    pl_nvme_sim_record a = rec_of(r, 0), b = rec_of(r, 1), c = rec_of(r, 2);
    const double a_end = 100 + 1350.0 * 1460 / 1450;
    assert_float_equal(a.finish_s, a_end, EPS);
    assert_float_equal(b.start_s, 100, EPS);
    assert_float_equal(b.finish_s, a_end + 100, EPS);
    assert_float_equal(c.start_s, a_end, EPS);
    assert_float_equal(c.finish_s, a_end + 900, EPS);
    assert_int_equal(b.sharers, 2);
    pl_nvme_sim_summary s;
    assert_pl_ok(pl_nvme_sim_result_summary(r, &s));
    /* Sharers 0..a_end+100: 1 for 100 s, 2 until a_end, 1 for 100 s. */
    assert_float_equal(s.mean_sharing, (100 + 2 * (a_end - 100) + 100) / (a_end + 100), EPS);
    pl_nvme_sim_result_free(r);
}

/* Physically attached (sec. 4.4.1): 3 nodes x 6 cores, 2 devices, both on
 * node 0 (ceil(0.6 x 2)). Two SMUFIN at 0 under first fit: disaggregated,
 * J1 runs at once on node 1 with device 1; physically attached, node 1 has
 * no device and node 0 no core left, so J1 waits for J0: 1600..3200. */
static void test_pa_layout(void **st)
{
    (void)st;
    pl_disagg_workload w[2] = {preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0),
                               preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0)};
    pl_nvme_sim_opts o = small_cluster(6, 2);
    o.nodes = 3;
    for (int pa = 0; pa <= 1; pa++) {
        o.layout = pa ? PL_NVME_LAYOUT_PA : PL_NVME_LAYOUT_DISAGG;
        pl_nvme_sim_result *r;
        assert_pl_ok(pl_nvme_sim_run(&o, w, 2, PL_DISAGG_FIRST_FIT, &r));
        pl_nvme_sim_record j0 = rec_of(r, 0), j1 = rec_of(r, 1);
        assert_int_equal(j0.node, 0);
        assert_float_equal(j0.finish_s, 1600, EPS);
        assert_int_equal(j1.node, pa ? 0 : 1);
        assert_float_equal(j1.start_s, pa ? 1600 : 0, EPS);
        assert_float_equal(j1.finish_s, pa ? 3200 : 1600, EPS);
        pl_nvme_sim_result_free(r);
    }
    o.nodes = 1;
    o.layout = PL_NVME_LAYOUT_PA;
    pl_nvme_sim_result *r = NULL;
    assert_pl_status(pl_nvme_sim_run(&o, w, 2, PL_DISAGG_FIRST_FIT, &r), PL_EINVAL);
    o.layout = (pl_nvme_layout)7;
    assert_pl_status(pl_nvme_sim_run(&o, w, 2, PL_DISAGG_FIRST_FIT, &r), PL_EINVAL);
}

/* Chapter 5 (Fig. 5.5): 1 node x 25 cores, no NVMe, one 4 GB/s 16 GB GPU,
 * two YOLO (152 s, 1000 MB/s, 2 GB, 2 cores) at 0, GPU-aware policy.
 * Splittable: Algorithm 3 splits it into min(4000/1000, 16/2) = 4 vGPUs;
 * the second starts beside the first at once, and both run at the co-run
 * factor 1.05 of two busy vGPUs: both end at 159.6 s (the first is
 * re-evaluated when the second starts). Unsplittable ({1} only): the second
 * waits for the GPU, 152..304. */
static void test_gpu_split(void **st)
{
    (void)st;
    pl_disagg_workload w[2] = {preset(PL_DISAGG_GPU_BOUND, 0, 0), preset(PL_DISAGG_GPU_BOUND, 0, 0)};
    pl_nvme_sim_opts o = small_cluster(25, 0);
    pl_nvme_sim_result *r = NULL;
    assert_pl_status(pl_nvme_sim_run(&o, w, 2, PL_DISAGG_GPU_AWARE, &r), PL_EINVAL); /* no GPU */
    o.gpus = 1;
    for (int split = 0; split <= 1; split++) {
        o.gpu_split = split;
        assert_pl_ok(pl_nvme_sim_run(&o, w, 2, PL_DISAGG_GPU_AWARE, &r));
        pl_nvme_sim_record a = rec_of(r, 0), b = rec_of(r, 1);
        assert_float_equal(a.start_s, 0, EPS);
        assert_float_equal(a.finish_s, split ? 159.6 : 152, EPS);
        assert_float_equal(b.start_s, split ? 0 : 152, EPS);
        assert_float_equal(b.finish_s, split ? 159.6 : 304, EPS);
        assert_int_equal((int)b.decided_by, (int)PL_DISAGG_GPU_AWARE);
        pl_nvme_sim_result_free(r);
    }
}

/* GPU co-runners re-evaluated (Fig. 5.3's factors 1, 1.05 for 1, 2 busy
 * vGPUs), split GPU as above, A at 0 and B at 76. At 76 A has done half
 * its work; with two busy vGPUs a full run takes 159.6 s: A ends 76 + 0.5 x
 * 159.6 = 155.8 (its first finish event, 152, is stale and dropped). At
 * 155.8 B has done 79.8/159.6 = 1/2 and runs alone again: it ends 155.8 +
 * 0.5 x 152 = 231.8. With static sharing: A 152, B 76 + 159.6 = 235.6. */
static void test_gpu_corunners_reevaluated(void **st)
{
    (void)st;
    pl_disagg_workload w[2] = {preset(PL_DISAGG_GPU_BOUND, 0, 0),
                               preset(PL_DISAGG_GPU_BOUND, 76, 0)};
    pl_nvme_sim_result *re = NULL, *fx = NULL;
    pl_nvme_sim_opts o = small_cluster(25, 0);
    o.gpus = 1;
    assert_pl_ok(pl_nvme_sim_run(&o, w, 2, PL_DISAGG_GPU_AWARE, &re));
    o.static_sharing = 1;
    assert_pl_ok(pl_nvme_sim_run(&o, w, 2, PL_DISAGG_GPU_AWARE, &fx));
    assert_float_equal(rec_of(re, 1).start_s, 76, EPS);
    assert_float_equal(rec_of(re, 0).finish_s, 155.8, EPS);
    assert_float_equal(rec_of(re, 1).finish_s, 231.8, EPS);
    assert_float_equal(rec_of(fx, 0).finish_s, 152, EPS);
    assert_float_equal(rec_of(fx, 1).finish_s, 235.6, EPS);
    pl_nvme_sim_result_free(re);
    pl_nvme_sim_result_free(fx);
}

/* Physically attached with a GPU (Fig. 5.6a): 3 nodes x 25 cores, 2 NVMe
 * (both on node 0), the GPU on node 2. A YOLO at 0 under GPU-aware: Eq. 5.1
 * ties on three empty nodes and takes node 0 when disaggregated; attached,
 * it must run on node 2. */
static void test_pa_gpu_node(void **st)
{
    (void)st;
    pl_disagg_workload w = preset(PL_DISAGG_GPU_BOUND, 0, 0);
    pl_nvme_sim_opts o = small_cluster(25, 2);
    o.nodes = 3;
    o.gpus = 1;
    for (int pa = 0; pa <= 1; pa++) {
        o.layout = pa ? PL_NVME_LAYOUT_PA : PL_NVME_LAYOUT_DISAGG;
        pl_nvme_sim_result *r = NULL;
        assert_pl_ok(pl_nvme_sim_run(&o, &w, 1, PL_DISAGG_GPU_AWARE, &r));
        pl_nvme_sim_record a = rec_of(r, 0);
        assert_int_equal(a.node, pa ? 2 : 0);
        assert_float_equal(a.finish_s, 152, EPS);
        pl_nvme_sim_result_free(r);
    }
}

/* Eq. 4.3's node order (o->node_order) reaches the policy: 2 nodes x 25
 * cores, a compute job of 15 cores at 0 (node 0, both empty) and one of 5
 * cores at 10 under minimise-fragmentation: least used first puts it on
 * the empty node 1 (beta 0 < 0.6), most used first on node 0. */
static void test_node_order(void **st)
{
    (void)st;
    pl_disagg_workload w[2] = {preset(PL_DISAGG_COMPUTE_BOUND, 0, 0),
                               preset(PL_DISAGG_COMPUTE_BOUND, 10, 0)};
    w[1].cores = 5;
    pl_nvme_sim_opts o = small_cluster(25, 0);
    o.nodes = 2;
    for (int most = 0; most <= 1; most++) {
        o.node_order = most ? PL_DISAGG_MOST_USED_FIRST : PL_DISAGG_LEAST_USED_FIRST;
        pl_nvme_sim_result *r = NULL;
        assert_pl_ok(pl_nvme_sim_run(&o, w, 2, PL_DISAGG_MIN_FRAGMENTATION, &r));
        assert_int_equal(rec_of(r, 0).node, 0);
        assert_int_equal(rec_of(r, 1).node, most ? 0 : 1);
        pl_nvme_sim_result_free(r);
    }
}

/* The thesis's window: 1 node x 30 cores (the fat node is the same), three
 * compute jobs at 0, 100, 2000, target 1.0. The load factor is 0.5 at 0 and
 * 1.0 at 100: the window is [100, 2000] and counts J1, J2. Cores busy in it:
 * J0 100..900 and J1 100..1000, 15 each = 25,500 of 30 x 1900. */
static void test_measurement_window(void **st)
{
    (void)st;
    pl_disagg_workload w[3] = {
        preset(PL_DISAGG_COMPUTE_BOUND, 0, 0),
        preset(PL_DISAGG_COMPUTE_BOUND, 100, 0),
        preset(PL_DISAGG_COMPUTE_BOUND, 2000, 0),
    };
    pl_nvme_sim_opts o = small_cluster(30, 0);
    o.window = 1;
    o.load = 1.0;
    pl_nvme_sim_result *r;
    assert_pl_ok(pl_nvme_sim_run(&o, w, 3, PL_DISAGG_FIRST_FIT, &r));
    pl_nvme_sim_summary s;
    assert_pl_ok(pl_nvme_sim_result_summary(r, &s));
    assert_int_equal(s.window_reached, 1);
    assert_float_equal(s.window_start_s, 100, EPS);
    assert_float_equal(s.window_end_s, 2000, EPS);
    assert_int_equal(s.window_jobs, 2);
    assert_int_equal(s.done, 3);
    assert_float_equal(s.cpu_util_pct, 100.0 * 25500 / (30 * 1900), EPS);
    pl_nvme_sim_result_free(r);

    /* Never reached (target above 1): the whole run counts. */
    o.load = 1.5;
    assert_pl_ok(pl_nvme_sim_run(&o, w, 3, PL_DISAGG_FIRST_FIT, &r));
    assert_pl_ok(pl_nvme_sim_result_summary(r, &s));
    assert_int_equal(s.window_reached, 0);
    assert_int_equal(s.window_jobs, 3);
    assert_float_equal(s.window_end_s, 2900, EPS);
    pl_nvme_sim_result_free(r);
}

/* Rates by hand. S1 per workload: cores x time = 0.7x6x1600 + 0.1x6x800 +
 * 0.2x15x900 = 9900 core-s of 125 cores; bandwidth 0.7x1800x1600 +
 * 0.1x160x800 = 2,028,800 MB of 20,000 MB/s (the bottleneck). */
static void test_rate(void **st)
{
    (void)st;
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    double rate;
    assert_pl_ok(pl_nvme_sim_rate(&o, &rate));
    assert_float_equal(rate, 0.7 * 125 / 9900.0, 1e-12);
    o.load_basis = PL_NVME_LOAD_BOTTLENECK;
    assert_pl_ok(pl_nvme_sim_rate(&o, &rate));
    assert_float_equal(rate, 0.7 * 20000 / 2028800.0, 1e-12);
    /* S2's bottleneck is capacity: 0.7x600x800 + 0.1x43x1600 = 342,880 GB s of 6000 GB. */
    assert_pl_ok(pl_nvme_sim_scenario("nvme-s2", &o));
    assert_pl_ok(pl_nvme_sim_rate(&o, &rate));
    assert_float_equal(rate, 0.7 * 6000 / 342880.0, 1e-12);
    /* NVMe basis (Fig. 5.7), S3 at 0.5: bandwidth 0.2x1800x1600 + 0.1x160x800
     * = 588,800 MB of 20,000 MB/s = 29.44 s, capacity 61,760 GB s of 6000 GB
     * = 10.29 s; the cores (94.8 s per workload) are left out. */
    assert_pl_ok(pl_nvme_sim_scenario("nvme-s3", &o));
    o.load = 0.5;
    o.load_basis = PL_NVME_LOAD_NVME;
    assert_pl_ok(pl_nvme_sim_rate(&o, &rate));
    assert_float_equal(rate, 0.5 / 29.44, 1e-12);
    o.load_basis = PL_NVME_LOAD_BOTTLENECK;
    assert_pl_ok(pl_nvme_sim_rate(&o, &rate));
    assert_float_equal(rate, 0.5 * 125 / 11850.0, 1e-12);
    o.load_basis = (pl_nvme_load_basis)3;
    assert_pl_status(pl_nvme_sim_rate(&o, &rate), PL_EINVAL);
    o.load_basis = PL_NVME_LOAD_CPU;
    o.gpu_overhead = -0.1;
    assert_pl_status(pl_nvme_sim_rate(&o, &rate), PL_EINVAL);
    o.gpu_overhead = 0;
    o.load = 0;
    assert_pl_status(pl_nvme_sim_rate(&o, &rate), PL_EINVAL);
    pl_nvme_sim_opts_init(&o);
    o.frac_bandwidth = o.frac_capacity = o.frac_compute = 0;
    assert_pl_status(pl_nvme_sim_rate(&o, &rate), PL_EINVAL);
}

static void test_generate(void **st)
{
    (void)st;
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    pl_disagg_workload *w, *w2;
    int32_t n, n2;
    assert_pl_ok(pl_nvme_sim_generate(&o, &w, &n));
    assert_int_equal(n, 1500);
    int count[3] = {0, 0, 0}, high = 0;
    assert_float_equal(w[0].arrival_s, 0, 0);
    for (int32_t i = 0; i < n; i++) {
        if (i > 0)
            assert_true(w[i].arrival_s >= w[i - 1].arrival_s);
        int t = w[i].cores == 15 ? 2 : w[i].nvme_cap_bytes == 600000000000LL ? 1 : 0;
        count[t]++;
        high += w[i].high_priority != 0;
        double delta = w[i].high_priority ? 1.2 : 4.0;
        assert_float_equal(w[i].deadline_s, w[i].arrival_s + delta * w[i].base_time_s, 1e-6);
    }
    /* Binomial draws: 3 standard deviations of 1500 trials around the shares. */
    assert_true(abs(count[0] - 1050) < 54);
    assert_true(abs(count[1] - 150) < 35);
    assert_true(abs(count[2] - 300) < 47);
    assert_true(abs(high - 300) < 47);
    /* Mean inter-arrival near 1 / rate = 113.1 s (sd of the mean ~2.9 s). */
    double mean = w[n - 1].arrival_s / (n - 1);
    assert_true(fabs(mean - 9900 / (0.7 * 125)) < 10);
    /* Same seed, same workload; another seed, another. */
    assert_pl_ok(pl_nvme_sim_generate(&o, &w2, &n2));
    assert_memory_equal(w, w2, sizeof *w * (size_t)n);
    free(w2);
    o.seed = 2;
    assert_pl_ok(pl_nvme_sim_generate(&o, &w2, &n2));
    assert_true(memcmp(w, w2, sizeof *w * (size_t)n) != 0);
    free(w2);
    free(w);
    o.jobs = 0;
    assert_pl_status(pl_nvme_sim_generate(&o, &w, &n), PL_EINVAL);
}

static char *csv_of(const pl_nvme_sim_result *r, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    assert_pl_ok(pl_nvme_sim_result_write_csv(r, f));
    fclose(f);
    return buf;
}

static void test_determinism_csv(void **st)
{
    (void)st;
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    o.jobs = 300;
    o.seed = 7;
    char *csv[3];
    size_t len[3];
    for (int k = 0; k < 3; k++) {
        if (k == 2)
            o.seed = 8;
        pl_disagg_workload *w;
        int32_t n;
        assert_pl_ok(pl_nvme_sim_generate(&o, &w, &n));
        pl_nvme_sim_result *r;
        assert_pl_ok(pl_nvme_sim_run(&o, w, n, PL_DISAGG_AWARE, &r));
        csv[k] = csv_of(r, &len[k]);
        pl_nvme_sim_result_free(r);
        free(w);
    }
    assert_int_equal(len[0], len[1]);
    assert_memory_equal(csv[0], csv[1], len[0]);
    assert_true(len[0] != len[2] || memcmp(csv[0], csv[2], len[0]) != 0);
    assert_non_null(strstr(csv[0], "job,type,high_priority,arrival,deadline,start,finish,wait,"
                                   "missed,node,composition,comp_size,sharers,decided_by\n"));
    assert_non_null(strstr(csv[0], "\n0,"));
    for (int k = 0; k < 3; k++)
        free(csv[k]);
}

static void test_scenarios_and_names(void **st)
{
    (void)st;
    const char *const *names = pl_nvme_sim_scenario_names();
    assert_string_equal(names[0], "nvme-s1");
    assert_string_equal(names[2], "nvme-s3");
    assert_string_equal(names[3], "nvme-gpu-s1");
    assert_null(names[6]);
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    assert_pl_ok(pl_nvme_sim_scenario("nvme-s2", &o));
    assert_float_equal(o.frac_bandwidth, 0.1, 0);
    assert_float_equal(o.frac_capacity, 0.7, 0);
    assert_pl_ok(pl_nvme_sim_scenario("nvme-s3", &o));
    assert_float_equal(o.frac_compute, 0.7, 0);
    assert_pl_status(pl_nvme_sim_scenario("nvme-s4", &o), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "nvme-s1"));
    pl_disagg_policy p;
    assert_pl_ok(pl_disagg_policy_find("disagg-aware", &p));
    assert_int_equal((int)p, (int)PL_DISAGG_AWARE);
    assert_string_equal(pl_disagg_policy_name(PL_DISAGG_MIN_FRAGMENTATION), "min-fragmentation");
    assert_string_equal(pl_disagg_policy_name(PL_DISAGG_GPU_AWARE), "gpu-aware");
    assert_null(pl_disagg_policy_name((pl_disagg_policy)5));
    assert_pl_ok(pl_nvme_sim_scenario("nvme-gpu-s3", &o));
    assert_float_equal(o.frac_gpu, 0.4, 0);
    assert_int_equal(o.gpus, 1);
    assert_pl_ok(pl_nvme_sim_scenario("nvme-s1", &o));
    assert_float_equal(o.frac_gpu, 0, 0);
    assert_int_equal(o.gpus, 0);
    assert_pl_status(pl_disagg_policy_find("bf", &p), PL_ENOTFOUND);
}

static void test_errors(void **st)
{
    (void)st;
    pl_disagg_workload w[2] = {preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0),
                               preset(PL_DISAGG_GPU_BOUND, 0, 0)};
    pl_nvme_sim_result *r = NULL;
    assert_pl_status(pl_nvme_sim_run(NULL, NULL, 1, PL_DISAGG_FIRST_FIT, &r), PL_EINVAL);
    assert_pl_status(pl_nvme_sim_run(NULL, w, 0, PL_DISAGG_FIRST_FIT, &r), PL_EINVAL);
    assert_pl_status(pl_nvme_sim_run(NULL, w, 2, PL_DISAGG_FIRST_FIT, &r), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "GPU"));
    assert_pl_status(pl_nvme_sim_run(NULL, w, 1, (pl_disagg_policy)5, &r), PL_EINVAL);
    assert_null(r);
    /* A workload larger than any node never runs: unfinished and missed. */
    pl_disagg_workload big = preset(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    big.cores = 26;
    assert_pl_ok(pl_nvme_sim_run(NULL, &big, 1, PL_DISAGG_FIRST_FIT, &r));
    pl_nvme_sim_summary s;
    assert_pl_ok(pl_nvme_sim_result_summary(r, &s));
    assert_int_equal(s.unfinished, 1);
    assert_float_equal(s.missed_pct, 100, 0);
    assert_float_equal(rec_of(r, 0).start_s, -1, 0);
    assert_pl_status(pl_nvme_sim_result_record(r, 1, &(pl_nvme_sim_record){0}), PL_EINVAL);
    pl_nvme_sim_result_free(r);
    pl_nvme_sim_result_free(NULL);
    assert_int_equal(pl_nvme_sim_result_count(NULL), 0);
}

static pl_nvme_sim_summary run_scenario(const char *name, double load, int32_t jobs,
                                        uint64_t seed, pl_disagg_policy p)
{
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    assert_pl_ok(pl_nvme_sim_scenario(name, &o));
    o.load = load;
    o.jobs = jobs;
    o.seed = seed;
    pl_disagg_workload *w;
    int32_t n;
    assert_pl_ok(pl_nvme_sim_generate(&o, &w, &n));
    pl_nvme_sim_result *r;
    assert_pl_ok(pl_nvme_sim_run(&o, w, n, p, &r));
    assert_int_equal(pl_nvme_sim_result_count(r), n);
    pl_nvme_sim_summary s;
    assert_pl_ok(pl_nvme_sim_result_summary(r, &s));
    pl_nvme_sim_result_free(r);
    free(w);
    return s;
}

static void test_scenarios_smoke(void **st)
{
    (void)st;
    for (const char *const *name = pl_nvme_sim_scenario_names(); *name; name++) {
        for (int p = 0; p <= (int)PL_DISAGG_AWARE; p++) {
            pl_nvme_sim_summary s = run_scenario(*name, 0.7, 150, 3, (pl_disagg_policy)p);
            assert_int_equal(s.jobs, 150);
            assert_int_equal(s.done, 150);
            assert_int_equal(s.unfinished, 0);
            assert_true(s.window_jobs > 0 && s.window_jobs <= 150);
            assert_true(s.missed_pct >= 0 && s.missed_pct <= 100);
            assert_true(s.missed_high_pct <= s.missed_pct);
            assert_true(s.cpu_util_pct > 0 && s.cpu_util_pct <= 100 + EPS);
            assert_true(s.bw_util_pct <= s.nvme_usage_pct + EPS);
            assert_true(s.nvme_usage_pct <= 100 + EPS);
            assert_true(s.mean_comp_size >= 1 && s.mean_comp_size <= 3);
            assert_true(s.mean_sharing >= 1);
            if (p == PL_DISAGG_FIRST_FIT || p == PL_DISAGG_MIN_FRAGMENTATION)
                assert_float_equal(s.mean_comp_size, 1, 0); /* no over-provisioning */
            if (p == PL_DISAGG_AWARE)
                assert_int_equal(s.maxcomp_decisions + s.minfrag_decisions, 150);
            else
                assert_int_equal(s.maxcomp_decisions + s.minfrag_decisions,
                                 p == PL_DISAGG_FIRST_FIT ? 0 : 150);
        }
    }
}

/* The thesis's headline (Table 4.3, S1 at load 0.7: first fit 47.55% missed,
 * disaggregation-aware 0.47%, sharing 1.00 vs 2.06), with sharers
 * re-evaluated (the default): five 1500-workload runs. Single runs are
 * chaotic (a finish moved by a second changes later decisions), so the
 * margins are on the means; doc/results.md gives them (67.6 vs 14.8). */
static void test_s1_disagg_aware_beats_first_fit(void **st)
{
    (void)st;
    double ff = 0, da = 0, ffw = 0, daw = 0;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        pl_nvme_sim_summary f = run_scenario("nvme-s1", 0.7, 1500, seed, PL_DISAGG_FIRST_FIT);
        pl_nvme_sim_summary d = run_scenario("nvme-s1", 0.7, 1500, seed, PL_DISAGG_AWARE);
        assert_true(d.missed_pct < f.missed_pct);
        assert_float_equal(f.mean_sharing, 1.0, EPS);
        assert_true(d.mean_sharing > 1.5);
        assert_true(d.mean_comp_size > 1.0);
        ff += f.missed_pct / 5;
        da += d.missed_pct / 5;
        ffw += f.mean_wait_s / 5;
        daw += d.mean_wait_s / 5;
    }
    assert_true(ff > 40);     /* first fit saturates the pool one device per workload */
    assert_true(da < 25);
    assert_true(ff - da > 30);
    assert_true(daw < ffw);
}

/* Generation options of sec. 4.4.4-4.4.6 and the thesis simulator's
 * regular arrivals. */
static void test_generate_options(void **st)
{
    (void)st;
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    o.jobs = 300;
    o.arrivals = PL_NVME_ARRIVALS_REGULAR;
    o.frac_fio = 1;
    o.delta_high = 1.0;
    double rate;
    assert_pl_ok(pl_nvme_sim_rate(&o, &rate));
    pl_disagg_workload *w;
    int32_t n, fio = 0, high = 0;
    assert_pl_ok(pl_nvme_sim_generate(&o, &w, &n));
    for (int32_t i = 0; i < n; i++) {
        assert_float_equal(w[i].arrival_s, i / rate, 1e-6);
        if (w[i].nvme_bw_bytes_per_s == 1800000000LL) {
            assert_int_equal((int)w[i].model, (int)PL_DISAGG_MODEL_FIO);
            fio++;
        }
        if (w[i].high_priority) {
            assert_float_equal(w[i].deadline_s, w[i].arrival_s + w[i].base_time_s, 1e-9);
            high++;
        } else {
            assert_float_equal(w[i].deadline_s, w[i].arrival_s + 4 * w[i].base_time_s, 1e-9);
        }
    }
    assert_true(fio > 150 && high > 30);
    free(w);
    o.frac_fio = 1.5;
    assert_pl_status(pl_nvme_sim_generate(&o, &w, &n), PL_EINVAL);
    o.frac_fio = 0;
    o.delta_high = 0;
    assert_pl_status(pl_nvme_sim_generate(&o, &w, &n), PL_EINVAL);
    o.delta_high = 1.2;
    o.arrivals = (pl_nvme_arrivals)5;
    assert_pl_status(pl_nvme_sim_generate(&o, &w, &n), PL_EINVAL);
    /* Fig. 5.8's overhead: GPU workloads run 5 % longer, their deadlines
     * stay those of the 152 s base time; the others are untouched. */
    o.arrivals = PL_NVME_ARRIVALS_POISSON;
    assert_pl_ok(pl_nvme_sim_scenario("nvme-gpu-s2", &o));
    o.gpu_overhead = 0.05;
    assert_pl_ok(pl_nvme_sim_generate(&o, &w, &n));
    int32_t gpu = 0;
    for (int32_t i = 0; i < n; i++) {
        if (w[i].gpu_mem_bytes == 0) {
            assert_true(w[i].base_time_s == 1600 || w[i].base_time_s == 900);
            continue;
        }
        gpu++;
        assert_float_equal(w[i].base_time_s, 159.6, 1e-9);
        double slack = w[i].deadline_s - w[i].arrival_s;
        assert_float_equal(slack, (w[i].high_priority ? 1.2 : 4) * 152, 1e-6);
    }
    assert_true(gpu > 200);
    free(w);
}

/* Table 4.3, S1 at 0.6: first fit misses 0.07 % disaggregated and 64.52 %
 * physically attached (6 + 4 devices on two nodes whose 25 cores hold at
 * most four SMUFIN each). Ours (mean of seeds 1-5): 3.8 % and 73.5 %. */
static void test_s1_pa_first_fit(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pl_nvme_sim_opts o;
        pl_nvme_sim_opts_init(&o);
        o.load = 0.6;
        o.seed = seed;
        pl_disagg_workload *w;
        int32_t n;
        assert_pl_ok(pl_nvme_sim_generate(&o, &w, &n));
        pl_nvme_sim_summary s[2];
        for (int pa = 0; pa <= 1; pa++) {
            o.layout = pa ? PL_NVME_LAYOUT_PA : PL_NVME_LAYOUT_DISAGG;
            pl_nvme_sim_result *r;
            assert_pl_ok(pl_nvme_sim_run(&o, w, n, PL_DISAGG_FIRST_FIT, &r));
            assert_pl_ok(pl_nvme_sim_result_summary(r, &s[pa]));
            pl_nvme_sim_result_free(r);
        }
        free(w);
        assert_true(s[0].missed_pct < 10);
        assert_true(s[1].missed_pct > 40);
        assert_true(s[1].nvme_usage_pct < 81); /* at most 8 of the 10 devices work */
    }
}

static char cli_out[1 << 16];

static int count_rows(const char *out, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = out; p; p = strchr(p, '\n')) {
        if (*p == '\n')
            p++;
        n += !strncmp(p, prefix, len);
    }
    return n;
}

/* Run the CLI with `args` into cli_out, expecting exit status 0. */
static void cli_ok(const char *args)
{
    assert_int_equal(pl_test_run_cli(NULL, args, 0, cli_out, sizeof cli_out), 0);
}

/* The sweeps print one row per policy at every point; the new options. */
static void test_cli_sweeps(void **st)
{
    (void)st;
    cli_ok("simulate --scenario nvme-devices --jobs 100 --policy first-fit,disagg-aware");
    assert_non_null(strstr(cli_out, "nvme-devices: sec. 4.4.5"));
    for (int g = 1; g <= 3; g++) {
        char pre[8];
        snprintf(pre, sizeof pre, "S%d ", g);
        assert_int_equal(count_rows(cli_out, pre), 18); /* 9 pool sizes x 2 policies */
    }
    cli_ok("simulate --scenario nvme-fio --jobs 100 --policy disagg-aware");
    assert_int_equal(count_rows(cli_out, "M3 "), 5);
    cli_ok("simulate --scenario nvme-deadline --jobs 100");
    assert_int_equal(count_rows(cli_out, "S2 "), 24); /* 6 factors x 4 policies */
    cli_ok("simulate --scenario nvme-gpu-split --jobs 100");
    assert_int_equal(count_rows(cli_out, "S3 "), 10); /* unsplit and split x 5 policies */
    cli_ok("simulate --scenario nvme-gpu-dist --jobs 100 --policy first-fit,gpu-aware");
    assert_int_equal(count_rows(cli_out, "S2 "), 6); /* 3 layouts x 2 policies */
    /* Physically attached: every GPU workload on node 2, NVMe on nodes 0-1. */
    assert_non_null(strstr(cli_out, "\nS1         pa first-fit"));
    cli_ok("simulate --scenario nvme-gpu-hetero --jobs 100 --policy disagg-aware,gpu-aware");
    assert_int_equal(count_rows(cli_out, "S3 "), 8); /* 4 loads x 2 policies */
    cli_ok("simulate --scenario nvme-gpu-overhead --jobs 100");
    assert_int_equal(count_rows(cli_out, "S1 "), 30); /* 6 overheads x 5 policies */
    cli_ok("simulate --scenario nvme-gpu-s1 --jobs 100 --load-basis nvme --gpu-overhead 5");
    cli_ok("simulate --scenario nvme-s2 --jobs 100 --node-order most-used --policy min-fragmentation "
           "--smufin-oversubscribe");
    assert_non_null(strstr(cli_out, "most-used-first nodes, SMUFIN oversubscribed"));
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1 --node-order x", 1,
                                     cli_out, sizeof cli_out),
                     2);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1 --gpu-overhead x", 1,
                                     cli_out, sizeof cli_out),
                     2);
    cli_ok("simulate --scenario nvme-gpu-s2 --jobs 100 --gpu-unsplit");
    assert_non_null(strstr(cli_out, "\ngpu-aware "));
    cli_ok("simulate --scenario nvme-s1 --jobs 100 --layout pa --arrivals regular "
           "--static-sharing --policy first-fit");
    assert_non_null(strstr(cli_out, "(regular,"));
    assert_non_null(strstr(cli_out, "(physically attached), static sharing"));
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1 --layout x", 1, cli_out,
                                     sizeof cli_out),
                     2);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1 --arrivals x", 1,
                                     cli_out, sizeof cli_out),
                     2);
}

static void test_cli(void **st)
{
    (void)st;
    char dir[] = "/tmp/pl_nvme_cli_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[256];
    snprintf(args, sizeof args,
             "simulate --scenario nvme-s1 --jobs 200 --load 0.8 --policy first-fit,disagg-aware "
             "--out %s",
             dir);
    assert_int_equal(pl_test_run_cli(NULL, args, 0, cli_out, sizeof cli_out), 0);
    assert_non_null(strstr(cli_out, "nvme-s1: 200 workloads"));
    assert_non_null(strstr(cli_out, "target load 0.80"));
    assert_non_null(strstr(cli_out, "\nfirst-fit "));
    assert_non_null(strstr(cli_out, "\ndisagg-aware "));
    assert_null(strstr(cli_out, "max-composition "));
    char path[512];
    snprintf(path, sizeof path, "%s/nvme-s1-disagg-aware.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int lines = 0, ch;
    while ((ch = fgetc(f)) != EOF)
        lines += ch == '\n';
    fclose(f);
    assert_int_equal(lines, 201);
    remove(path);
    snprintf(path, sizeof path, "%s/nvme-s1-first-fit.csv", dir);
    remove(path);
    rmdir(dir);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1 --load 0", 1, cli_out,
                                     sizeof cli_out),
                     2);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s9", 1, cli_out,
                                     sizeof cli_out),
                     2);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s2 --policy bf", 1, cli_out,
                                     sizeof cli_out),
                     2);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s3 --help", 0, cli_out,
                                     sizeof cli_out),
                     0);
    assert_non_null(strstr(cli_out, "--load-basis"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_trace_first_fit),
        cmocka_unit_test(test_hand_trace_max_composition),
        cmocka_unit_test(test_hand_trace_reshared),
        cmocka_unit_test(test_pa_layout),
        cmocka_unit_test(test_gpu_split),
        cmocka_unit_test(test_gpu_corunners_reevaluated),
        cmocka_unit_test(test_pa_gpu_node),
        cmocka_unit_test(test_node_order),
        cmocka_unit_test(test_measurement_window),
        cmocka_unit_test(test_rate),
        cmocka_unit_test(test_generate),
        cmocka_unit_test(test_determinism_csv),
        cmocka_unit_test(test_scenarios_and_names),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_scenarios_smoke),
        cmocka_unit_test(test_s1_disagg_aware_beats_first_fit),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_generate_options),
        cmocka_unit_test(test_s1_pa_first_fit),
        cmocka_unit_test(test_cli_sweeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
