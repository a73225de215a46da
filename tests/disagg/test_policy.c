/* Disaggregation policies on the thesis's system (5 nodes x 25 cores, 10
 * NVMe of 2 GB/s and 600 GB, optionally one 4 GB/s 16 GB GPU split {1,2,4}):
 * scripted job sequences whose every decision is computed by hand in the
 * comments (table model: SMUFIN T(k,1) = 1600/1500/1450 s, T(3,s) = 1450,
 * 1460, 1470, 1480, ...), plus the error paths of apply. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include <placement/disagg.h>

#define MB 1000000LL
#define GB 1000000000LL

static pl_disagg_workload job(pl_disagg_type t, double arrival, int high)
{
    pl_disagg_workload w;
    assert_pl_ok(pl_disagg_workload_preset(t, arrival, high, &w));
    return w;
}

static pl_disagg_cluster *thesis(int gpu)
{
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_thesis(gpu, &c));
    return c;
}

/* Decide with `policy`, check it placed, apply at now; returns the decision. */
static pl_disagg_decision place(pl_disagg_cluster *c, pl_disagg_policy policy,
                                const pl_disagg_workload *w, double now, double lf_bw,
                                double lf_cap, int32_t *id)
{
    pl_disagg_decision d;
    assert_pl_ok(pl_disagg_decide(c, policy, w, now, lf_bw, lf_cap, &d));
    assert_int_equal(d.placed, 1);
    assert_pl_ok(pl_disagg_apply(c, w, &d, now, id));
    return d;
}

static void assert_new(const pl_disagg_decision *d, int32_t node, int32_t first, int32_t n)
{
    assert_int_equal(d->node, node);
    assert_int_equal(d->composition, -1);
    assert_int_equal(d->n_new_devices, n);
    for (int32_t i = 0; i < n; i++)
        assert_int_equal(d->new_devices[i], first + i);
}

static void assert_shared(const pl_disagg_decision *d, int32_t comp, int32_t node)
{
    assert_int_equal(d->composition, comp);
    assert_int_equal(d->node, node);
    assert_int_equal(d->n_new_devices, 0);
}

static int32_t free_cores(const pl_disagg_cluster *c, int32_t node)
{
    int32_t f = -1;
    assert_pl_ok(pl_disagg_node_free(c, node, &f, NULL));
    return f;
}

static void test_max_composition_sequence(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_workload w;
    pl_disagg_decision d;
    const pl_disagg_policy P = PL_DISAGG_MAX_COMPOSITION;

    /* J1 SMUFIN: nothing in use. Minimal set {0} (2000 >= 1800 MB/s, 600 >= 43 GB);
     * grow while T improves: 1600 -> 1500 -> 1450, stop at max_composition 3.
     * First-fit node 0. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 0, 3);
    assert_true(d.predicted_time_s == 1450);
    int32_t comp = -1;
    assert_pl_ok(pl_disagg_nvme_composition(c, 2, &comp));
    assert_int_equal(comp, 0);

    /* J2 SMUFIN: C0 free 4200 MB/s, 1757 GB, node 0 19 cores, T(3,2) = 1460 <= 6400:
     * the only candidate. ttl = 1460 - TTL(C0) 1450 = 10. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_shared(&d, 0, 0);
    assert_true(d.predicted_time_s == 1460 && d.score == 10);

    /* J3 capacity-bound: C0 free 2400 MB/s, 1714 GB, 13 cores; no model: 800 s;
     * ttl = 800 - 1460 = -660. */
    w = job(PL_DISAGG_CAPACITY_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_shared(&d, 0, 0);
    assert_true(d.predicted_time_s == 800 && d.score == -660);

    /* J4 compute-bound (15 cores): node 0 has 7 free -> first fit node 1. */
    w = job(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_true(d.node == 1 && d.composition == -1 && d.n_new_devices == 0);

    /* J5 SMUFIN high priority (deadline 1920): C0 free 2240 MB/s, 1114 GB, node 0
     * 7 cores, T(3,4) = 1480 <= 1920 -> share C0; ttl = 1480 - 1460 = 20. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 1);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_shared(&d, 0, 0);
    assert_true(d.predicted_time_s == 1480 && d.score == 20);

    /* J6 SMUFIN: C0 has 440 MB/s left -> new {3,4,5}; node 0 has 1 core, node 1 10. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 1, 3, 3);

    /* J7 capacity-bound high priority: C0 node 0 has 1 core, C1 node 1 has 4 ->
     * no candidate. New: {6} meets 600 GB; T(2 devices) = 800 does not improve
     * on 800, so no over-provisioning; first-fit node 2. */
    w = job(PL_DISAGG_CAPACITY_BOUND, 0, 1);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 2, 6, 1);

    pl_disagg_composition_info ci;
    assert_pl_ok(pl_disagg_composition(c, 0, &ci));
    assert_true(ci.node == 0 && ci.n_devices == 3 && ci.sharers == 4);
    assert_true(ci.bw_bytes_per_s == 6000 * MB && ci.cap_bytes == 1800 * GB);
    assert_true(ci.free_bw_bytes_per_s == 440 * MB && ci.free_cap_bytes == 1071 * GB);
    assert_true(ci.end_s == 1480);
    assert_int_equal(free_cores(c, 0), 1);
    assert_int_equal(free_cores(c, 1), 4);
    pl_disagg_cluster_free(c);
}

static void test_growth_stops_at_first_non_improving(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_opts o;
    pl_disagg_opts_init(&o);
    o.max_composition = 5;
    assert_pl_ok(pl_disagg_set_opts(c, &o));
    pl_disagg_decision d;
    /* table: T(4,1) = T(3,1) = 1450: stops at 3 even though 5 are allowed */
    pl_disagg_workload w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    assert_pl_ok(pl_disagg_max_composition(c, &w, 0, &d));
    assert_new(&d, 0, 0, 3);
    /* parametric: 1597 -> 1561 -> 1527 -> 1527 (BW_peak 6000 caps 8000): 3 */
    o.perf = PL_DISAGG_PERF_PARAMETRIC;
    assert_pl_ok(pl_disagg_set_opts(c, &o));
    assert_pl_ok(pl_disagg_max_composition(c, &w, 0, &d));
    assert_new(&d, 0, 0, 3);
    assert_true(d.predicted_time_s == 1527);
    /* FIO: t/k always improves: up to max_composition (5), 1600 / 5 = 320 s */
    w.model = PL_DISAGG_MODEL_FIO;
    assert_pl_ok(pl_disagg_max_composition(c, &w, 0, &d));
    assert_new(&d, 0, 0, 5);
    assert_true(d.predicted_time_s == 320);
    /* max_composition 2 caps SMUFIN at {0,1} */
    o.max_composition = 2;
    o.perf = PL_DISAGG_PERF_TABLE;
    assert_pl_ok(pl_disagg_set_opts(c, &o));
    w.model = PL_DISAGG_MODEL_SMUFIN;
    assert_pl_ok(pl_disagg_max_composition(c, &w, 0, &d));
    assert_new(&d, 0, 0, 2);
    assert_true(d.predicted_time_s == 1500);
    pl_disagg_cluster_free(c);
}

static void test_deadline_filters_candidates(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_workload w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    pl_disagg_decision d;
    place(c, PL_DISAGG_MAX_COMPOSITION, &w, 0, 0, 0, NULL); /* C0 = {0,1,2} */
    place(c, PL_DISAGG_MAX_COMPOSITION, &w, 0, 0, 0, NULL); /* shares C0 */
    /* High-priority SMUFIN that arrived at 0 (deadline 1920) decided at 500:
     * sharing C0 would end at 500 + T(3,3) = 1970 > 1920 -> not a candidate;
     * a new {3,4,5} is built although it also ends late (1950): the policy
     * places, the deadline is then missed. */
    pl_disagg_workload h = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 1);
    assert_pl_ok(pl_disagg_max_composition(c, &h, 500, &d));
    assert_int_equal(d.placed, 1);
    assert_new(&d, 0, 3, 3);
    /* decided at 400 it fits: 400 + 1470 = 1870 <= 1920 */
    assert_pl_ok(pl_disagg_max_composition(c, &h, 400, &d));
    assert_shared(&d, 0, 0);
    assert_true(d.predicted_time_s == 1470);
    /* min-fragmentation filters the same way */
    assert_pl_ok(pl_disagg_min_fragmentation(c, &h, 500, &d));
    assert_true(d.composition == -1 && d.n_new_devices == 1 && d.new_devices[0] == 3);
    /* first fit uses no model: shares regardless of the deadline */
    assert_pl_ok(pl_disagg_first_fit(c, &h, 500, &d));
    assert_shared(&d, 0, 0);
    pl_disagg_cluster_free(c);
}

/* Hand-built decision for a new composition of devices [first, first+n) on node. */
static pl_disagg_decision manual_new(int32_t node, int32_t first, int32_t n)
{
    pl_disagg_decision d;
    memset(&d, 0, sizeof d);
    d.placed = 1;
    d.node = node;
    d.composition = d.gpu = d.vgpu = -1;
    d.n_new_devices = n;
    for (int32_t i = 0; i < n; i++)
        d.new_devices[i] = first + i;
    return d;
}

static void test_ttl_versus_alpha(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_workload s = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    place(c, PL_DISAGG_MAX_COMPOSITION, &s, 0, 0, 0, NULL); /* C0 {0,1,2} node 0, ends 1450 */
    place(c, PL_DISAGG_MAX_COMPOSITION, &s, 0, 0, 0, NULL); /* shares C0, ends 1460 */
    pl_disagg_decision m = manual_new(1, 3, 3);              /* C1 {3,4,5} node 1 at 200 */
    s.arrival_s = 200;
    assert_pl_ok(pl_disagg_set_deadline(&s));
    assert_pl_ok(pl_disagg_apply(c, &s, &m, 200, NULL));     /* ends 200 + 1450 = 1650 */

    /* Capacity-bound job at 200 (800 s, 160 MB/s, 600 GB, 6 cores):
     * C0: free 2400 MB/s, 1714 GB, node 0 13 cores; TTL(C0) = 1460 - 200 = 1260,
     *     ttl = 800 - 1260 = -460; alpha = [1 - (160/2400 + 600/1714)] / (6/13) = 1.263762
     * C1: free 4200 MB/s, 1757 GB, node 1 19 cores; TTL(C1) = 1650 - 200 = 1450,
     *     ttl = -650; alpha = [1 - (160/4200 + 600/1757)] / (6/19) = 1.964643
     * Max composition frees resources sooner (C1); min fragmentation fills C0. */
    pl_disagg_workload x = job(PL_DISAGG_CAPACITY_BOUND, 200, 0);
    pl_disagg_decision d;
    assert_pl_ok(pl_disagg_max_composition(c, &x, 200, &d));
    assert_shared(&d, 1, 1);
    assert_true(fabs(d.score + 650) < 1e-9);
    assert_pl_ok(pl_disagg_min_fragmentation(c, &x, 200, &d));
    assert_shared(&d, 0, 0);
    assert_true(fabs(d.score - 1.263762) < 5e-7);
    pl_disagg_cluster_free(c);
}

static void test_fitness_breaks_ttl_ties(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_workload x = job(PL_DISAGG_CAPACITY_BOUND, 0, 0);
    pl_disagg_decision m = manual_new(0, 0, 3); /* C0: 3 devices */
    assert_pl_ok(pl_disagg_apply(c, &x, &m, 0, NULL));
    m = manual_new(1, 3, 2);                    /* C1: 2 devices */
    assert_pl_ok(pl_disagg_apply(c, &x, &m, 0, NULL));
    /* Another capacity job at 0: both ttl = 800 - 800 = 0. Eq. 4.1 on free space:
     * C0 (5840 - 160) + (1200 - 600) = 6280; C1 (3840 - 160) + (600 - 600) = 3680:
     * ascending fitness (tightest fit) -> C1. */
    pl_disagg_decision d;
    assert_pl_ok(pl_disagg_max_composition(c, &x, 0, &d));
    assert_shared(&d, 1, 1);
    assert_true(d.score == 0);
    pl_disagg_cluster_free(c);
}

static void test_min_fragmentation_sequence(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_workload w;
    pl_disagg_decision d;
    const pl_disagg_policy P = PL_DISAGG_MIN_FRAGMENTATION;

    /* J1 SMUFIN: nothing in use; minimal {0} (no over-provisioning); all beta 0 -> node 0. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 0, 1);
    assert_true(d.predicted_time_s == 1600 && d.score == 0);
    /* J2 compute (15): beta n0 = 1 - 19/25 = 0.24, others 0 -> node 1. */
    w = job(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_true(d.node == 1 && d.score == 0);
    /* J3 capacity: C0 has 200 MB/s but only 557 GB free -> new {1}; betas
     * 0.24, 0.6, 0, 0, 0 -> node 2. */
    w = job(PL_DISAGG_CAPACITY_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 2, 1, 1);
    /* J4 SMUFIN: C0 200 MB/s, C1 1840 MB/s but 0 GB -> new {2} on node 3. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 3, 2, 1);
    /* J5 SMUFIN: new {3} on node 4 (the last beta 0). */
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 4, 3, 1);
    /* J6 capacity: new {4}; betas 0.24, 0.6, 0.24, 0.24, 0.24. Least used
     * first -> node 0; the opposite order packs onto node 1 (0.6). */
    w = job(PL_DISAGG_CAPACITY_BOUND, 0, 0);
    pl_disagg_opts o;
    pl_disagg_opts_init(&o);
    o.node_order = PL_DISAGG_MOST_USED_FIRST;
    assert_pl_ok(pl_disagg_set_opts(c, &o));
    assert_pl_ok(pl_disagg_min_fragmentation(c, &w, 0, &d));
    assert_new(&d, 1, 4, 1);
    assert_true(fabs(d.score - 0.6) < 1e-12);
    pl_disagg_opts_init(&o);
    assert_pl_ok(pl_disagg_set_opts(c, &o));
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 4, 1);
    assert_true(fabs(d.score - 0.24) < 1e-12);
    /* J7 compute: free 13, 10, 19, 19, 19 -> fits nodes 2-4, all beta 0.24 -> node 2. */
    w = job(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_true(d.node == 2 && fabs(d.score - 0.24) < 1e-12);
    pl_disagg_cluster_free(c);
}

static void test_first_fit_sequence(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_workload w;
    pl_disagg_decision d;
    const pl_disagg_policy P = PL_DISAGG_FIRST_FIT;

    /* J1 SMUFIN: {0} (no over-provisioning), node 0. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 0, 1);
    /* J2 SMUFIN: C0 has 200 MB/s -> {1}, node 0 (19 free). */
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 1, 1);
    /* J3 capacity: C0/C1 have 557 GB < 600 -> {2}, node 0 (13 free). */
    w = job(PL_DISAGG_CAPACITY_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 2, 1);
    /* J4 compute: node 0 has 7 -> node 1. */
    w = job(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_int_equal(d.node, 1);
    /* J5 SMUFIN: {3}, node 0 still has 7 >= 6. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 3, 1);
    /* J6 compute: node 0 has 1, node 1 10 -> node 2. */
    w = job(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_int_equal(d.node, 2);
    /* J7 custom (100 MB/s, 10 GB, 1 core): the first composition with room is
     * C0 (200 MB/s, 557 GB, node 0 has 1 core) -> shares it. */
    pl_disagg_workload small = {.base_time_s = 100, .nvme_bw_bytes_per_s = 100 * MB,
                                .nvme_cap_bytes = 10 * GB, .cores = 1};
    assert_pl_ok(pl_disagg_set_deadline(&small));
    d = place(c, P, &small, 0, 0, 0, NULL);
    assert_shared(&d, 0, 0);
    assert_true(d.predicted_time_s == 100);
    /* J8 SMUFIN high priority decided at 5000 (deadline 1920): first fit has no
     * deadline check: {4} on node 1 (node 0 is full). */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 1);
    d = place(c, P, &w, 5000, 0, 0, NULL);
    assert_new(&d, 1, 4, 1);
    assert_int_equal(free_cores(c, 0), 0);
    pl_disagg_cluster_free(c);
}

static void test_aware_sequence(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_workload w;
    const pl_disagg_policy P = PL_DISAGG_AWARE;

    /* J1 SMUFIN at (0.4, 0.3) -> max composition: new {0,1,2} on node 0. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    pl_disagg_decision d = place(c, P, &w, 0, 0.4, 0.3, NULL);
    assert_int_equal(d.policy, PL_DISAGG_MAX_COMPOSITION);
    assert_new(&d, 0, 0, 3);
    /* J2 SMUFIN at (0.6, 0.3) -> min fragmentation: C0 is the only candidate,
     * alpha = [1 - (1800/4200 + 43/1757)] / (6/19) = 1.732024. */
    d = place(c, P, &w, 0, 0.6, 0.3, NULL);
    assert_int_equal(d.policy, PL_DISAGG_MIN_FRAGMENTATION);
    assert_shared(&d, 0, 0);
    assert_true(fabs(d.score - 1.732024) < 5e-7);
    /* J3 capacity at (0.8, 0.8) -> min fragmentation: C0, alpha 1.263762. */
    w = job(PL_DISAGG_CAPACITY_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0.8, 0.8, NULL);
    assert_int_equal(d.policy, PL_DISAGG_MIN_FRAGMENTATION);
    assert_shared(&d, 0, 0);
    assert_true(fabs(d.score - 1.263762) < 5e-7);
    /* J4 SMUFIN at (0.8, 0.6) -> max composition: C0 (2240 MB/s, 7 cores),
     * T(3,4) = 1480, ttl = 1480 - 1460 = 20. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0.8, 0.6, NULL);
    assert_int_equal(d.policy, PL_DISAGG_MAX_COMPOSITION);
    assert_shared(&d, 0, 0);
    assert_true(d.score == 20);
    /* J5 compute at (0.3, 0.6) -> min fragmentation: node 0 has 1 core; betas
     * of nodes 1-4 are 0 -> node 1. */
    w = job(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0.3, 0.6, NULL);
    assert_int_equal(d.policy, PL_DISAGG_MIN_FRAGMENTATION);
    assert_int_equal(d.node, 1);
    /* J6 SMUFIN at (0.3, 0.6) -> min fragmentation: C0 has 440 MB/s -> new
     * minimal {3}; betas n1 0.6, n2 0 -> node 2. */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0.3, 0.6, NULL);
    assert_int_equal(d.policy, PL_DISAGG_MIN_FRAGMENTATION);
    assert_new(&d, 2, 3, 1);
    pl_disagg_cluster_free(c);
}

static void test_gpu_aware_sequence(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(1);
    pl_disagg_workload w;
    pl_disagg_decision d;
    const pl_disagg_policy P = PL_DISAGG_GPU_AWARE;
    int32_t ids[3];

    /* J0, J1 compute: Eq. 5.1 (25 - 15) / 6 on every node -> node 0; then node 0
     * has 10 free (not enough) -> node 1. */
    w = job(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_true(d.node == 0 && fabs(d.score - 10.0 / 6) < 1e-12);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_int_equal(d.node, 1);
    /* J2 YOLO: no vGPU -> Algorithm 3 splits GPU 0 into min(4000/1000, 16/2) = 4;
     * vGPU 0. Nodes: (10 - 2)/6 = 1.33 on nodes 0, 1; 23/6 on 2-4 -> node 2. */
    w = job(PL_DISAGG_GPU_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, &ids[0]);
    assert_true(d.gpu == 0 && d.vgpu == 0 && d.partition == 4 && d.node == 2);
    assert_true(d.predicted_time_s == 152 && fabs(d.score - 23.0 / 6) < 1e-12);
    /* J3 YOLO: vGPU 1 with 2 co-runners: 152 * 1.05 = 159.6 <= 608; node 2 now
     * 19/6, nodes 3-4 23/6 -> node 3. */
    d = place(c, P, &w, 0, 0, 0, &ids[1]);
    assert_true(d.gpu == 0 && d.vgpu == 1 && d.partition == 0 && d.node == 3);
    assert_true(fabs(d.predicted_time_s - 159.6) < 1e-9);
    /* J4 YOLO high priority (deadline 182.4): a third co-runner takes
     * 152 * 1.25 = 190 > 182.4, and the only GPU is split -> it waits. */
    pl_disagg_workload h = job(PL_DISAGG_GPU_BOUND, 0, 1);
    assert_pl_ok(pl_disagg_gpu_aware(c, &h, 0, &d));
    assert_int_equal(d.placed, 0);
    assert_true(d.node == -1 && d.gpu == -1);
    /* ... while first fit (no model) takes vGPU 2 on node 0 (10 free). */
    assert_pl_ok(pl_disagg_first_fit(c, &h, 0, &d));
    assert_true(d.placed && d.gpu == 0 && d.vgpu == 2 && d.node == 0);
    /* J5 YOLO regular (deadline 608): vGPU 2, 190 s; node 4 (23/6). */
    d = place(c, P, &w, 0, 0, 0, &ids[2]);
    assert_true(d.vgpu == 2 && d.node == 4 && fabs(d.predicted_time_s - 190) < 1e-9);
    int32_t nv = -1, busy = -1;
    assert_pl_ok(pl_disagg_gpu_state(c, 0, &nv, &busy));
    assert_true(nv == 4 && busy == 3);
    /* J6 SMUFIN: NVMe jobs over-provision as in chapter 4: {0,1,2}, first-fit
     * node 0 (10 free). */
    w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    d = place(c, P, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 0, 3);
    /* Releasing the three YOLO jobs leaves the GPU unsplit again. */
    for (int i = 0; i < 3; i++)
        assert_pl_ok(pl_disagg_release(c, ids[i]));
    assert_pl_ok(pl_disagg_gpu_state(c, 0, &nv, &busy));
    assert_true(nv == 0 && busy == 0);
    assert_pl_ok(pl_disagg_gpu_aware(c, &h, 0, &d));
    assert_true(d.placed && d.partition == 4 && d.vgpu == 0);
    pl_disagg_cluster_free(c);
}

static void test_eq51_example(void **state)
{
    (void)state;
    /* The thesis's Eq. 5.1 example: YOLO on nodes with 8 and 25 free cores:
     * (8 - 2)/6 = 1.0 vs (25 - 2)/6 = 3.833 -> the 25-core node (id 1). */
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_create(&c));
    assert_pl_ok(pl_disagg_add_node(c, 8, 0, NULL));
    assert_pl_ok(pl_disagg_add_node(c, 25, 0, NULL));
    const int32_t t4[3] = {1, 2, 4};
    assert_pl_ok(pl_disagg_add_gpu(c, 4000 * MB, 16 * GB, t4, 3, NULL));
    pl_disagg_workload w = job(PL_DISAGG_GPU_BOUND, 0, 0);
    pl_disagg_decision d;
    assert_pl_ok(pl_disagg_gpu_aware(c, &w, 0, &d));
    assert_true(d.placed && d.node == 1 && fabs(d.score - 3.833333) < 5e-7);
    /* first fit would take node 0 */
    assert_pl_ok(pl_disagg_first_fit(c, &w, 0, &d));
    assert_int_equal(d.node, 0);
    pl_disagg_cluster_free(c);
}

static void test_release_dissolves(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(0);
    pl_disagg_workload w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    int32_t a = -1, b = -1;
    place(c, PL_DISAGG_MAX_COMPOSITION, &w, 0, 0, 0, &a);
    place(c, PL_DISAGG_MAX_COMPOSITION, &w, 0, 0, 0, &b);
    int32_t node = -1, comp = -1, gpu = 0, vgpu = 0;
    double end = 0;
    assert_pl_ok(pl_disagg_placement(c, b, &node, &comp, &gpu, &vgpu, &end));
    assert_true(node == 0 && comp == 0 && gpu == -1 && vgpu == -1 && end == 1460);
    assert_pl_ok(pl_disagg_release(c, a));
    pl_disagg_composition_info ci;
    assert_pl_ok(pl_disagg_composition(c, 0, &ci));
    assert_true(ci.sharers == 1 && ci.free_bw_bytes_per_s == 4200 * MB && ci.end_s == 1460);
    assert_int_equal(free_cores(c, 0), 19);
    assert_pl_ok(pl_disagg_release(c, b));
    assert_pl_status(pl_disagg_composition(c, 0, &ci), PL_EINVAL);
    assert_pl_ok(pl_disagg_nvme_composition(c, 1, &comp));
    assert_int_equal(comp, -1);
    assert_int_equal(free_cores(c, 0), 25);
    assert_pl_status(pl_disagg_release(c, b), PL_EINVAL);
    assert_pl_status(pl_disagg_release(c, 99), PL_EINVAL);
    /* the freed devices are composed again (new id 1; ids are not reused) */
    pl_disagg_decision d = place(c, PL_DISAGG_MAX_COMPOSITION, &w, 0, 0, 0, NULL);
    assert_new(&d, 0, 0, 3);
    assert_pl_ok(pl_disagg_nvme_composition(c, 0, &comp));
    assert_int_equal(comp, 1);
    pl_disagg_cluster_free(c);
}

static void test_apply_errors(void **state)
{
    (void)state;
    pl_disagg_cluster *c = thesis(1);
    pl_disagg_workload s = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    pl_disagg_workload y = job(PL_DISAGG_GPU_BOUND, 0, 0);
    pl_disagg_workload k = job(PL_DISAGG_COMPUTE_BOUND, 0, 0);
    pl_disagg_decision d = manual_new(0, 0, 1);
    assert_pl_ok(pl_disagg_apply(c, &s, &d, 0, NULL)); /* C0 = {0} on node 0 */

    /* bad ids */
    pl_disagg_decision e = manual_new(7, 1, 1);
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINVAL);
    e = manual_new(0, 10, 1);
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINVAL);
    e = manual_new(0, 1, 2);
    e.new_devices[1] = 1;
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINVAL);
    assert_true(strstr(pl_last_error(), "twice") != NULL);
    e = manual_new(0, 1, 1);
    e.placed = 0;
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINVAL);
    e = manual_new(0, 0, 0);
    e.composition = 0;
    e.n_new_devices = -1;
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINVAL);
    /* composition 0 is attached to node 0, not node 1 */
    e = manual_new(1, 0, 0);
    e.composition = 0;
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINVAL);
    e.composition = 5;
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINVAL);
    /* both an existing and a new composition */
    e = manual_new(0, 1, 1);
    e.composition = 0;
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINVAL);

    /* over-allocation */
    e = manual_new(0, 0, 1); /* device 0 is in C0 */
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINFEASIBLE);
    e = manual_new(0, 0, 0);
    e.composition = 0; /* C0 has 200 MB/s free, SMUFIN needs 1800 */
    assert_pl_status(pl_disagg_apply(c, &s, &e, 0, NULL), PL_EINFEASIBLE);
    assert_true(strstr(pl_last_error(), "composition 0") != NULL);
    pl_disagg_workload big = s;
    big.nvme_cap_bytes = 700 * GB; /* one device holds 600 GB */
    e = manual_new(0, 1, 1);
    assert_pl_status(pl_disagg_apply(c, &big, &e, 0, NULL), PL_EINFEASIBLE);
    pl_disagg_workload many = k;
    many.cores = 20; /* node 0 has 19 */
    e = manual_new(0, 0, 0);
    assert_pl_status(pl_disagg_apply(c, &many, &e, 0, NULL), PL_EINFEASIBLE);
    /* a compute job must not name NVMe */
    e = manual_new(1, 1, 1);
    assert_pl_status(pl_disagg_apply(c, &k, &e, 0, NULL), PL_EINVAL);

    /* GPU: disallowed split, bad vGPU, in-use vGPU, double split */
    pl_disagg_decision g = manual_new(1, 0, 0);
    g.gpu = 0;
    g.vgpu = 0;
    g.partition = 3;
    assert_pl_status(pl_disagg_apply(c, &y, &g, 0, NULL), PL_EINVAL);
    g.partition = 4;
    g.vgpu = 4;
    assert_pl_status(pl_disagg_apply(c, &y, &g, 0, NULL), PL_EINVAL);
    g.gpu = 1;
    g.vgpu = 0;
    assert_pl_status(pl_disagg_apply(c, &y, &g, 0, NULL), PL_EINVAL);
    g.gpu = 0;
    assert_pl_ok(pl_disagg_apply(c, &y, &g, 0, NULL));
    assert_pl_status(pl_disagg_apply(c, &y, &g, 0, NULL), PL_EINFEASIBLE); /* already split */
    g.partition = 0;
    assert_pl_status(pl_disagg_apply(c, &y, &g, 0, NULL), PL_EINFEASIBLE); /* vGPU 0 busy */
    pl_disagg_workload fat = y;
    fat.gpu_mem_bytes = 5 * GB; /* a quarter holds 4 GB */
    g.vgpu = 1;
    assert_pl_status(pl_disagg_apply(c, &fat, &g, 0, NULL), PL_EINFEASIBLE);

    /* nothing changed by the failures */
    assert_int_equal(free_cores(c, 0), 19);
    assert_int_equal(free_cores(c, 1), 23);
    pl_disagg_composition_info ci;
    assert_pl_ok(pl_disagg_composition(c, 0, &ci));
    assert_true(ci.sharers == 1 && ci.free_bw_bytes_per_s == 200 * MB);
    int32_t comp = 0;
    assert_pl_ok(pl_disagg_nvme_composition(c, 1, &comp));
    assert_int_equal(comp, -1);
    int32_t nv = 0, busy = 0;
    assert_pl_ok(pl_disagg_gpu_state(c, 0, &nv, &busy));
    assert_true(nv == 4 && busy == 1);

    /* invalid workloads and policies */
    pl_disagg_workload both = s;
    both.gpu_mem_bytes = GB;
    assert_pl_status(pl_disagg_decide(c, PL_DISAGG_FIRST_FIT, &both, 0, 0, 0, &d), PL_EINVAL);
    pl_disagg_workload zero = s;
    zero.base_time_s = 0;
    assert_pl_status(pl_disagg_max_composition(c, &zero, 0, &d), PL_EINVAL);
    pl_disagg_workload neg = s;
    neg.cores = -1;
    assert_pl_status(pl_disagg_min_fragmentation(c, &neg, 0, &d), PL_EINVAL);
    pl_disagg_workload nomodel = k;
    nomodel.model = PL_DISAGG_MODEL_SMUFIN;
    assert_pl_status(pl_disagg_gpu_aware(c, &nomodel, 0, &d), PL_EINVAL);
    assert_pl_status(pl_disagg_decide(c, (pl_disagg_policy)9, &s, 0, 0, 0, &d), PL_EINVAL);
    assert_pl_status(pl_disagg_decide(NULL, PL_DISAGG_FIRST_FIT, &s, 0, 0, 0, &d), PL_EINVAL);
    assert_pl_status(pl_disagg_decide(c, PL_DISAGG_FIRST_FIT, &s, 0, 0, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_disagg_apply(c, NULL, &d, 0, NULL), PL_EINVAL);
    pl_disagg_cluster_free(c);
}

static void test_nothing_fits(void **state)
{
    (void)state;
    /* one node of 4 cores, one NVMe: SMUFIN (6 cores) and a 2-device request wait */
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_disagg_cluster_create(&c));
    assert_pl_ok(pl_disagg_add_node(c, 4, 0, NULL));
    assert_pl_ok(pl_disagg_add_nvme(c, 2000 * MB, 600 * GB, NULL));
    pl_disagg_workload w = job(PL_DISAGG_BANDWIDTH_BOUND, 0, 0);
    pl_disagg_decision d;
    for (int p = PL_DISAGG_FIRST_FIT; p <= PL_DISAGG_GPU_AWARE; p++) {
        assert_pl_ok(pl_disagg_decide(c, (pl_disagg_policy)p, &w, 0, 0, 0, &d));
        assert_int_equal(d.placed, 0);
    }
    w.cores = 2;
    w.nvme_cap_bytes = 900 * GB;
    assert_pl_ok(pl_disagg_max_composition(c, &w, 0, &d));
    assert_int_equal(d.placed, 0);
    /* a GPU job on a cluster without GPUs waits too */
    pl_disagg_workload y = job(PL_DISAGG_GPU_BOUND, 0, 0);
    assert_pl_ok(pl_disagg_gpu_aware(c, &y, 0, &d));
    assert_int_equal(d.placed, 0);
    pl_disagg_cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_max_composition_sequence),
        cmocka_unit_test(test_growth_stops_at_first_non_improving),
        cmocka_unit_test(test_deadline_filters_candidates),
        cmocka_unit_test(test_ttl_versus_alpha),
        cmocka_unit_test(test_fitness_breaks_ttl_ties),
        cmocka_unit_test(test_min_fragmentation_sequence),
        cmocka_unit_test(test_first_fit_sequence),
        cmocka_unit_test(test_aware_sequence),
        cmocka_unit_test(test_gpu_aware_sequence),
        cmocka_unit_test(test_eq51_example),
        cmocka_unit_test(test_release_dissolves),
        cmocka_unit_test(test_apply_errors),
        cmocka_unit_test(test_nothing_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
