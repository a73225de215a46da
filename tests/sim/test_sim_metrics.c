/* Utilisation over time, fragmentation, their means and CSV, computed by
 * hand on tiny runs (doc/simulator.md sec. 5b). */
#include "simtest.h"

/* One Minsky (4 GPUs, 2 x 10 cores), fcfs, jobs with durations only:
 * A (1 GPU, 2 cores/task) at 0 for 10 s; B (2 GPUs, 2 cores/task) at 5 for
 * 20 s. Rounds at 0 and 5 place them at once: A [0, 10), B [5, 25).
 * GPUs used 1 [0,5), 3 [5,10), 2 [10,25), 0 after; cores 2, 6, 4, 0 of 20.
 * Means over [0, 25]: GPU (0.25x5 + 0.75x5 + 0.5x15) / 25 = 0.5; cores
 * (0.1x5 + 0.3x5 + 0.2x15) / 25 = 0.2. The reference job (lower medians:
 * 1 GPU, 2 cores) always fits in the free GPUs: fragmentation 0. */
static pl_jobset *one_machine_jobs(void)
{
    return SIM_JOBS(sim_job("a", 1, 2, 0, 10), sim_job("b", 2, 2, 5, 20));
}

static void test_one_machine_utilisation(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    pl_jobset *js = one_machine_jobs();
    pl_sim_result *r = sim_run(t, js, "fcfs");
    assert_true(fabs(sim_rec(r, 1).finish - 25) < SIM_EPS);

    assert_int_equal(pl_sim_result_timeline_count(r), 4);
    static const double times[4] = {0, 5, 10, 25}, util[4] = {0.25, 0.75, 0.5, 0};
    static const double cores[4] = {0.1, 0.3, 0.2, 0};
    static const int running[4] = {1, 2, 1, 0}, used[4] = {1, 3, 2, 0};
    for (int i = 0; i < 4; i++) {
        pl_sim_sample p = sim_sample(r, i);
        assert_true(p.time == times[i]);
        assert_int_equal(p.running, running[i]);
        assert_int_equal(p.queued, 0);
        assert_int_equal(p.gpus_used, used[i]);
        assert_int_equal(p.gpus_failed, 0);
        assert_true(fabs(p.gpu_util - util[i]) < SIM_EPS);
        assert_true(fabs(p.core_util - cores[i]) < SIM_EPS);
        assert_true(p.nvme_util == -1); /* a Minsky has no storage device */
        assert_true(p.fragmentation == 0);
    }
    pl_sim_sample p;
    assert_pl_status(pl_sim_result_timeline(r, 4, &p), PL_EINVAL);
    assert_pl_status(pl_sim_result_timeline(NULL, 0, &p), PL_EINVAL);
    assert_int_equal(pl_sim_result_timeline_count(NULL), 0);

    pl_sim_summary m = sim_sum(r);
    assert_true(fabs(m.mean_gpu_util - 0.5) < SIM_EPS);
    assert_true(fabs(m.mean_core_util - 0.2) < SIM_EPS);
    assert_true(m.mean_nvme_util == -1);
    assert_true(m.mean_fragmentation == 0);

    char *csv = sim_csv(pl_sim_result_write_timeline_csv, r, NULL);
    assert_string_equal(csv,
                        "time,running,queued,gpus_used,gpus_failed,gpu_util,core_util,nvme_util,fragmentation,remote_gpus\n"
                        "0.000000,1,0,1,0,0.250000,0.100000,-1.000000,0.000000,0\n"
                        "5.000000,2,0,3,0,0.750000,0.300000,-1.000000,0.000000,0\n"
                        "10.000000,1,0,2,0,0.500000,0.200000,-1.000000,0.000000,0\n"
                        "25.000000,0,0,0,0,0.000000,0.000000,-1.000000,0.000000,0\n");
    free(csv);
    assert_pl_status(pl_sim_result_write_timeline_csv(NULL, stdout), PL_EINVAL);
    sim_free(r, js, t);
}

/* Two Minsky machines (8 GPUs), fcfs, no cores asked: A (3 GPUs, 10 s) at
 * 0 -> node0; B (3 GPUs, 20 s) at 1 -> node1 (node0 has 1 free); C (2 GPUs,
 * 5 s) at 2 waits for 2 free GPUs on one machine until A ends at 10, then
 * node0 [10, 15). Reference job: lower median of {3, 3, 2} = 3 GPUs, so a
 * machine with fewer than 3 free GPUs strands them:
 *   [0, 1)  free 1 + 4, stranded 1      -> 0.2
 *   [1, 10) free 1 + 1, stranded 2      -> 1   (C queued)
 *   [10,15) free 2 + 1, stranded 3      -> 1
 *   [15,21) free 4 + 1, stranded 1      -> 0.2
 * Mean over [0, 21]: (0.2 + 9 + 5 + 1.2) / 21; GPU utilisation 3, 6, 5, 3 of
 * 8: (3 + 54 + 25 + 18) / 8 / 21. */
static void test_fragmentation(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(2);
    pl_jobset *js = SIM_JOBS(sim_job("a", 3, 0, 0, 10), sim_job("b", 3, 0, 1, 20), sim_job("c", 2, 0, 2, 5));
    pl_sim_result *r = sim_run(t, js, "fcfs");
    assert_int_equal(sim_rec(r, 0).machine, 0);
    assert_int_equal(sim_rec(r, 1).machine, 1);
    assert_int_equal(sim_rec(r, 2).machine, 0);
    assert_true(fabs(sim_rec(r, 2).start - 10) < SIM_EPS);

    static const double times[5] = {0, 1, 2, 10, 15}, frag[5] = {0.2, 1, 1, 1, 0.2};
    static const int queued[5] = {0, 0, 1, 0, 0};
    assert_int_equal(pl_sim_result_timeline_count(r), 6);
    for (int i = 0; i < 5; i++) {
        pl_sim_sample p = sim_sample(r, i);
        assert_true(p.time == times[i]);
        assert_true(fabs(p.fragmentation - frag[i]) < SIM_EPS);
        assert_int_equal(p.queued, queued[i]);
        assert_true(p.core_util == 0); /* the packages model cores; nobody asked for any */
    }
    pl_sim_sample last = sim_sample(r, 5);
    assert_true(last.time == 21 && last.gpus_used == 0 && last.fragmentation == 0);
    pl_sim_summary m = sim_sum(r);
    assert_true(fabs(m.mean_fragmentation - 15.4 / 21) < SIM_EPS);
    assert_true(fabs(m.mean_gpu_util - 100.0 / 8 / 21) < SIM_EPS);
    sim_free(r, js, t);
}

/* Background load: a GPU allocated in the topology given to the simulator
 * counts as used from the start. */
static void test_background_load(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    assert_pl_ok(pl_topology_alloc(t, sim_vertex(t, "cluster/rack0/node0/package1/gpu3"), PL_RES_UNITS, 1));
    pl_jobset *js = SIM_JOBS(sim_job("a", 1, 0, 0, 10));
    pl_sim_result *r = sim_run(t, js, "fcfs");
    assert_int_equal(sim_sample(r, 0).gpus_used, 2);
    assert_int_equal(sim_sample(r, pl_sim_result_timeline_count(r) - 1).gpus_used, 1);
    assert_true(fabs(sim_sum(r).mean_gpu_util - 0.5) < SIM_EPS);
    sim_free(r, js, t);
}

static void timeline_sane(const pl_sim_result *r)
{
    assert_true(pl_sim_result_timeline_count(r) > 100);
    pl_sim_summary m = sim_sum(r);
    assert_true(m.mean_gpu_util > 0 && m.mean_gpu_util <= 1);
    assert_true(m.mean_fragmentation >= 0 && m.mean_fragmentation <= 1);
}

/* Same inputs, same time-series bytes. */
static void test_timeline_determinism(void **s)
{
    (void)s;
    size_t len;
    free(sim_csv_twice(150, 6, 7, "bf", pl_sim_result_write_timeline_csv, timeline_sane, &len));
}

typedef struct calls {
    int n;
    int32_t settled[8], total[8];
    double t[8];
} calls;

static void record_progress(void *data, int32_t settled, int32_t total, double sim_time)
{
    calls *c = data;
    if (c->n < 8) {
        c->settled[c->n] = settled;
        c->total[c->n] = total;
        c->t[c->n] = sim_time;
    }
    c->n++;
}

static void count_progress(void *data, int32_t settled, int32_t total, double sim_time)
{
    (void)settled;
    (void)total;
    (void)sim_time;
    (*(int *)data)++;
}

/* The progress callback: the one-machine run of test_one_machine_utilisation
 * settles a at 10 (half the jobs) and b at 25 (all), then the final call. */
static void test_progress_callback(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    pl_jobset *js = one_machine_jobs();
    calls c = {0};
    pl_sim_opts o = sim_opts("fcfs");
    o.progress = record_progress;
    o.progress_data = &c;
    pl_sim_result_free(sim_run_opts(t, js, &o));
    assert_int_equal(c.n, 3);
    assert_true(c.settled[0] == 1 && c.t[0] == 10 && c.total[0] == 2);
    assert_true(c.settled[1] == 2 && c.t[1] == 25);
    assert_true(c.settled[2] == 2 && c.t[2] == 25);
    sim_free(NULL, js, t);

    /* 3000 jobs: one call per thousandth at most, plus the last. */
    pl_sim_scenario_opts so;
    pl_sim_scenario_opts_init(&so);
    so.jobs = 3000;
    so.machines = 40;
    assert_pl_ok(pl_sim_scenario("sc17-s2", &so, &t, &js));
    int n = 0;
    o.progress = count_progress;
    o.progress_data = &n;
    pl_sim_result_free(sim_run_opts(t, js, &o));
    assert_true(n >= 1000 && n <= 1001);
    sim_free(NULL, js, t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_machine_utilisation),
        cmocka_unit_test(test_fragmentation),
        cmocka_unit_test(test_background_load),
        cmocka_unit_test(test_timeline_determinism),
        cmocka_unit_test(test_progress_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
