/* The drmaestro scenario and the simulator's DRMaestro driver: remote GPUs
 * with their network penalty, computed by hand on a two-machine case, and
 * the scenario smoke-tested at a small size (doc/simulator.md sec. 3b). */
#include "simtest.h"

#define WARMUP 800.0

/* The scenario's two-machine cluster with its one warm-up job (20 cores of
 * one machine for 800 s), plus five jobs of one Rodinia type (1 GPU, 2
 * cores) at 0.5. */
static void two_machines(pl_topology **t, pl_jobset **js, const char *type, double seconds)
{
    pl_sim_scenario_opts so;
    pl_sim_scenario_opts_init(&so);
    so.machines = 2;
    so.jobs = 1;
    pl_jobset *all = NULL;
    assert_pl_ok(pl_sim_scenario("drmaestro", &so, t, &all));
    assert_int_equal(pl_jobset_count(all), 2);
    assert_pl_ok(pl_jobset_create(js));
    pl_job *w = NULL;
    assert_pl_ok(pl_job_copy(pl_jobset_get(all, 0), &w));
    assert_string_equal(pl_job_name(w), "warmup0");
    assert_pl_ok(pl_jobset_add(*js, w, NULL));
    pl_jobset_free(all);
    for (int i = 0; i < 5; i++) {
        pl_job *j = NULL;
        pl_task_demand d = {.gpus = 1, .cores = 2, .memory = 8LL << 30};
        char name[16];
        snprintf(name, sizeof name, "%s%d", type, i);
        assert_pl_ok(pl_job_create(name, &j));
        assert_pl_ok(pl_job_add_task(j, &d, NULL));
        assert_pl_ok(pl_job_set_workload(j, type, ""));
        assert_pl_ok(pl_job_set_arrival(j, 0.5));
        assert_pl_ok(pl_job_set_duration(j, seconds));
        assert_pl_ok(pl_jobset_add(*js, j, NULL));
    }
}

/* lavaMD's network share: 2 % alone, 3 % next to iperf. Two lavaMD jobs on
 * one socket: each slows by (1 + (0.98/0.97 - 1) x 0.02/0.17) (its
 * contention factor against a saturating co-runner, scaled by the
 * neighbour's share over NW's 17 %). One remote lavaMD GPU loads the
 * network 2 x 0.02 / 2 machines = 0.02, so the remote factor is
 * 1/0.98 + 0.02 x (1/0.97 - 1/0.98). */
#define LAVA_PAIR (1 + (0.98 / 0.97 - 1) * (0.02 / 0.17))
#define LAVA_REMOTE (1 / 0.98 + 0.02 * (1 / 0.97 - 1 / 0.98))

/* drmaestro: the warm-up takes one machine's cores at round 0; at round 1
 * phase 1 puts the five tasks on the other machine (10 slots of 2 cores),
 * phase 2 gives four of them its GPUs (two per socket: 0.12 % slower, within
 * the QoS tolerance) and one a GPU of the warm-up machine (remote: 2.06 %
 * slower, within it too). fcfs cannot use the warm-up machine's GPUs (no
 * free core there): the fifth job waits for the first four (76.09) and
 * starts at the next whole-second round, 77. */
static void test_remote_penalty(void **s)
{
    (void)s;
    pl_topology *t = NULL;
    pl_jobset *js = NULL;
    two_machines(&t, &js, "lavamd", 75);
    assert_true(fabs(LAVA_PAIR - 1.0012129) < 1e-6);
    assert_true(fabs(LAVA_REMOTE - 1.0206186) < 1e-6);

    pl_sim_result *r = sim_run(t, js, "drmaestro");
    assert_true(sim_rec(r, 0).start == 0 && sim_rec(r, 0).finish == WARMUP);
    int remote = 0;
    for (int i = 1; i <= 5; i++) {
        pl_sim_job_record x = sim_rec(r, i);
        assert_int_equal(x.state, PL_SIM_DONE);
        assert_true(x.start == 1);
        if (x.remote_gpus) {
            remote++;
            assert_true(fabs(x.finish - (1 + 75 * LAVA_REMOTE)) < SIM_EPS);
            assert_true(fabs(x.slowdown - LAVA_REMOTE) < SIM_EPS);
            assert_int_equal(x.machine, -1);
        } else {
            assert_true(fabs(x.finish - (1 + 75 * LAVA_PAIR)) < SIM_EPS);
        }
    }
    assert_int_equal(remote, 1);
    pl_sim_summary m = sim_sum(r);
    assert_int_equal(m.remote_jobs, 1);
    assert_int_equal(m.slower_than_ideal, 5);
    assert_int_equal(m.qos_violations, 0);
    pl_sim_sample p = {0};
    for (int64_t i = 0; i < pl_sim_result_timeline_count(r) && p.time < 1; i++)
        assert_pl_ok(pl_sim_result_timeline(r, i, &p));
    assert_true(p.time == 1 && p.gpus_used == 5 && p.remote_gpus == 1);
    pl_sim_result_free(r);

    r = sim_run(t, js, "fcfs");
    for (int i = 1; i <= 4; i++)
        assert_true(fabs(sim_rec(r, i).finish - (1 + 75 * LAVA_PAIR)) < SIM_EPS);
    assert_true(sim_rec(r, 5).start == 77); /* the next whole-second round after 76.09 */
    assert_int_equal(sim_sum(r).remote_jobs, 0);
    pl_sim_result_free(r);
    pl_jobset_free(js);
    pl_topology_free(t);
}

/* drmaestro-na: at round 1 the load is 0, so the remote option's expected
 * time is 75 / 0.98 = 76.5 s, beyond the goal (tau = phi = 75 s): it is
 * withheld and the fifth job postponed at the rounds of 1, 2, ..., 10 (the
 * rounds run every second while a job waits); after max_postpone (10)
 * postponements the remote option is offered again: it runs remote from 11,
 * at load 0.02, and ends at 11 + 75 x LAVA_REMOTE. */
static void test_network_aware_postpones(void **s)
{
    (void)s;
    pl_topology *t = NULL;
    pl_jobset *js = NULL;
    two_machines(&t, &js, "lavamd", 75);
    pl_sim_result *r = sim_run(t, js, "drmaestro-na");
    int remote = 0;
    for (int i = 1; i <= 5; i++) {
        pl_sim_job_record x = sim_rec(r, i);
        if (!x.remote_gpus) {
            assert_true(x.start == 1 && fabs(x.finish - (1 + 75 * LAVA_PAIR)) < SIM_EPS);
            continue;
        }
        remote++;
        assert_true(x.start == 11);
        assert_true(fabs(x.finish - (11 + 75 * LAVA_REMOTE)) < SIM_EPS);
    }
    assert_int_equal(remote, 1);
    pl_sim_result_free(r);
    pl_jobset_free(js);
    pl_topology_free(t);
}

/* Five NW jobs (70 s) for one free machine's 4 GPUs (2 per socket). Two NW
 * on a socket slow each other 1 + (0.83/0.51 - 1) x 0.17/0.17 = 1.62745
 * (QoS violated); a remote GPU costs NW 1/0.83 = 1.2048 even unloaded.
 * firmament (no interference model) starts four at 1, paired on both
 * sockets: all four end at 1 + 70 x 1.62745 = 114.92 and violate their
 * QoS; the fifth runs alone from the next whole-second round, 115. drmaestro keeps one NW per socket and none
 * remote: starts 1, 1, 71, 71, 141, no slowdown, no violation. */
static void test_colocation_qos(void **s)
{
    (void)s;
    pl_topology *t = NULL;
    pl_jobset *js = NULL;
    two_machines(&t, &js, "nw", 70);
    const double pair = 1 + (0.83 / 0.51 - 1);
    pl_sim_result *r = sim_run(t, js, "firmament");
    int paired = 0;
    for (int i = 1; i <= 5; i++) {
        pl_sim_job_record x = sim_rec(r, i);
        if (x.start == 1) {
            paired++;
            assert_true(fabs(x.finish - (1 + 70 * pair)) < SIM_EPS);
            assert_true(fabs(x.slowdown - pair) < SIM_EPS);
        } else {
            assert_true(x.start == 115 && x.finish == 185); /* alone, at the round after 114.92 */
        }
    }
    assert_int_equal(paired, 4);
    pl_sim_summary m = sim_sum(r);
    assert_int_equal(m.qos_violations, 4);
    assert_int_equal(m.remote_jobs, 0);
    pl_sim_result_free(r);

    r = sim_run(t, js, "drmaestro");
    int starts[3] = {0};
    for (int i = 1; i <= 5; i++) {
        pl_sim_job_record x = sim_rec(r, i);
        assert_true(fabs(x.slowdown - 1) < SIM_EPS);
        assert_int_equal(x.remote_gpus, 0);
        int k = x.start == 1 ? 0 : x.start == 71 ? 1 : x.start == 141 ? 2 : -1;
        assert_true(k >= 0);
        starts[k]++;
    }
    assert_int_equal(starts[0], 2);
    assert_int_equal(starts[1], 2);
    assert_int_equal(starts[2], 1);
    assert_int_equal(sim_sum(r).qos_violations, 0);
    pl_sim_result_free(r);
    pl_jobset_free(js);
    pl_topology_free(t);
}

/* The scenario at a small size (4 machines, 64 jobs): every job done under
 * every policy (the allocation check passed every round), the warm-up on
 * half the machines; the baselines never exceed the GPUs of the machines
 * with free cores while the warm-up runs, DRMaestro uses the stranded ones
 * remotely and pays for it (every remote job slower); DRMaestro's
 * co-location filter gives fewer QoS violations than firmament's blind
 * placement. */
static void test_scenario_small(void **s)
{
    (void)s;
    pl_sim_scenario_opts so;
    pl_sim_scenario_opts_init(&so);
    so.machines = 4;
    so.jobs = 64;
    so.seed = 3;
    pl_topology *t = NULL;
    pl_jobset *js = NULL;
    assert_pl_ok(pl_sim_scenario("drmaestro", &so, &t, &js));
    assert_int_equal(pl_jobset_count(js), 2 + 64);
    int32_t ng = 0;
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_GPU, NULL, 0, &ng));
    assert_int_equal(ng, 16);
    static const char *const pols[] = {"fcfs", "bf", "firmament", "drmaestro", "drmaestro-na"};
    int32_t qos[5];
    for (int p = 0; p < 5; p++) {
        pl_sim_result *r = sim_run(t, js, pols[p]);
        pl_sim_summary m = sim_sum(r);
        assert_int_equal(m.done, 66);
        int32_t peak_warm = 0;
        for (int64_t i = 0; i < pl_sim_result_timeline_count(r); i++) {
            pl_sim_sample x;
            assert_pl_ok(pl_sim_result_timeline(r, i, &x));
            if (x.time < WARMUP && x.gpus_used > peak_warm)
                peak_warm = x.gpus_used;
        }
        for (int i = 0; i < 66; i++) {
            pl_sim_job_record x = sim_rec(r, i);
            assert_true(x.remote_gpus ? x.slowdown > 1 + 1e-3 : x.slowdown > 1 - SIM_EPS);
        }
        qos[p] = m.qos_violations;
        if (p < 3) {
            assert_true(peak_warm <= 8);
            assert_int_equal(m.remote_jobs, 0);
        } else {
            assert_true(peak_warm > 8);
            assert_true(m.remote_jobs > 0);
        }
        pl_sim_result_free(r);
    }
    assert_true(qos[2] > 0);
    assert_true(qos[3] < qos[2] && qos[4] < qos[2]); /* drmaestro(-na) < firmament */
    pl_jobset_free(js);
    pl_topology_free(t);
}

/* Same seed, same bytes, for the DRMaestro runs too. */
static void test_determinism(void **s)
{
    (void)s;
    pl_sim_scenario_opts so;
    pl_sim_scenario_opts_init(&so);
    so.machines = 4;
    so.jobs = 48;
    char *csv[2][2];
    size_t len[2][2];
    for (int k = 0; k < 2; k++) {
        pl_topology *t = NULL;
        pl_jobset *js = NULL;
        assert_pl_ok(pl_sim_scenario("drmaestro", &so, &t, &js));
        pl_sim_result *r = sim_run(t, js, "drmaestro-na");
        csv[k][0] = sim_csv(pl_sim_result_write_csv, r, &len[k][0]);
        csv[k][1] = sim_csv(pl_sim_result_write_timeline_csv, r, &len[k][1]);
        pl_sim_result_free(r);
        pl_jobset_free(js);
        pl_topology_free(t);
    }
    for (int c = 0; c < 2; c++) {
        assert_int_equal(len[0][c], len[1][c]);
        assert_memory_equal(csv[0][c], csv[1][c], len[0][c]);
        free(csv[0][c]);
        free(csv[1][c]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_remote_penalty),
        cmocka_unit_test(test_network_aware_postpones),
        cmocka_unit_test(test_colocation_qos),
        cmocka_unit_test(test_scenario_small),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
