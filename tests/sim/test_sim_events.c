/* Task-start and device-failure events, checked by hand on tiny runs
 * (doc/simulator.md sec. 1 and 1b), and the failure-trace reader. */
#include <unistd.h>
#include "simtest.h"
#include "sim/sim_impl.h"

/* Options of one policy with one failure. */
static pl_sim_opts with_failure(const char *policy, const pl_sim_failure *f)
{
    pl_sim_opts o = sim_opts(policy);
    o.failures = f;
    o.nfailures = 1;
    return o;
}

/* Same time: finish < failure < repair < task start < arrival < round. */
static void test_event_order(void **s)
{
    (void)s;
    pl_sim_heap h = {0};
    assert_pl_ok(pl_sim_heap_push(&h, 3.0, PL_SIM_EV_ROUND, -1, 0));
    assert_pl_ok(pl_sim_heap_push(&h, 3.0, PL_SIM_EV_ARRIVAL, 1, 0));
    assert_pl_ok(pl_sim_heap_push(&h, 3.0, PL_SIM_EV_TASK_START, 2, 0));
    assert_pl_ok(pl_sim_heap_push(&h, 3.0, PL_SIM_EV_REPAIR, 3, 0));
    assert_pl_ok(pl_sim_heap_push(&h, 3.0, PL_SIM_EV_FAILURE, 4, 0));
    assert_pl_ok(pl_sim_heap_push(&h, 3.0, PL_SIM_EV_FINISH, 5, 0));
    static const int want[6] = {PL_SIM_EV_FINISH, PL_SIM_EV_FAILURE, PL_SIM_EV_REPAIR,
                                PL_SIM_EV_TASK_START, PL_SIM_EV_ARRIVAL, PL_SIM_EV_ROUND};
    pl_sim_event e;
    for (int i = 0; i < 6; i++) {
        assert_true(pl_sim_heap_pop(&h, &e));
        assert_int_equal(e.kind, want[i]);
    }
    assert_false(pl_sim_heap_pop(&h, &e));
    pl_sim_heap_free(&h);
}

/* One Minsky, fcfs. A (1 GPU, 100 s) at 0 is placed on gpu0 at round 0;
 * gpu0 fails at 30 (repair 50 s: back at 80). A is killed at 30, re-queued,
 * and the round at 30 (after the failure: same time, later kind) places it
 * on gpu1; it restarts from scratch: 30 -> 130. Lost work: 30 GPU-seconds. */
static void test_failure_restart(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    pl_jobset *js = SIM_JOBS(sim_job("a", 1, 0, 0, 100));
    pl_sim_failure f = {30, sim_vertex(t, "cluster/rack0/node0/package0/gpu0"), 50};
    pl_sim_opts o = with_failure("fcfs", &f);
    pl_sim_result *r = sim_run_opts(t, js, &o);
    pl_sim_job_record a = sim_rec(r, 0);
    assert_int_equal(a.state, PL_SIM_DONE);
    assert_true(a.placed == 30 && a.start == 30 && a.finish == 130 && a.wait == 30);
    assert_int_equal(a.restarts, 1);
    pl_sim_summary m = sim_sum(r);
    assert_int_equal(m.failures, 1);
    assert_int_equal(m.jobs_killed, 1);
    assert_true(m.lost_gpu_seconds == 30);
    assert_true(fabs(m.makespan - 130) < SIM_EPS);
    /* Time series: 0 (A on gpu0), 30 (A on gpu1, gpu0 down), 80 (repaired), 130. */
    static const double times[4] = {0, 30, 80, 130};
    static const int used[4] = {1, 1, 1, 0}, failed[4] = {0, 1, 0, 0};
    assert_int_equal(pl_sim_result_timeline_count(r), 4);
    for (int i = 0; i < 4; i++) {
        pl_sim_sample p = sim_sample(r, i);
        assert_true(p.time == times[i]);
        assert_int_equal(p.gpus_used, used[i]);
        assert_int_equal(p.gpus_failed, failed[i]);
    }
    sim_free(r, js, t);
}

/* One Minsky, bf. B (4 GPUs, 50 s) at 0 runs from round 0; gpu2 fails at
 * 10 (repair 40 s: back at 50): B is killed and waits, 3 GPUs being up. C (1
 * GPU, 20 s) arrives at 15: bf skips B and runs C 15 -> 35. The round after
 * C (35) still has 3 GPUs up; the repair at 50 lets B run 50 -> 100.
 * Rounds: 0, 10, 15, 35, 50. */
static void test_failure_waits_for_repair(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    pl_jobset *js = SIM_JOBS(sim_job("b", 4, 0, 0, 50), sim_job("c", 1, 0, 15, 20));
    pl_sim_failure f = {10, sim_vertex(t, "cluster/rack0/node0/package1/gpu2"), 40};
    pl_sim_opts o = with_failure("bf", &f);
    pl_sim_result *r = sim_run_opts(t, js, &o);
    pl_sim_job_record b = sim_rec(r, 0), c = sim_rec(r, 1);
    assert_true(b.start == 50 && b.finish == 100 && b.wait == 50);
    assert_int_equal(b.restarts, 1);
    assert_true(c.start == 15 && c.finish == 35);
    assert_int_equal(c.restarts, 0);
    pl_sim_summary m = sim_sum(r);
    assert_int_equal(m.rounds, 5);
    assert_true(m.lost_gpu_seconds == 40);
    pl_sim_result_free(r);

    /* Never repaired: B can never run again; it stays queued (unfinished). */
    f.repair = 0;
    r = sim_run_opts(t, js, &o);
    assert_int_equal(sim_rec(r, 0).state, PL_SIM_UNFINISHED);
    assert_true(sim_rec(r, 0).start == -1 && sim_rec(r, 0).placed == -1);
    assert_int_equal(sim_rec(r, 1).state, PL_SIM_DONE);
    assert_int_equal(sim_sum(r).unfinished, 1);
    sim_free(r, js, t);
}

/* The profiled run of test_sim.c's hand-checked case, with a startup delay
 * of 10 s for J1 only. J0 (AlexNet b1, 1 GPU) starts at 1 on gpu0 and runs
 * alone (69.165 s per job) until J1 (AlexNet b4, placed at 3 on gpu1) begins
 * at 13; then J0 runs at 75.03 s per job:
 *   f0 = 13 + (1 - 12 / 69.165) x 75.03;
 * J1 runs at 114.86 s per job next to J0, alone (109.435) after f0:
 *   f1 = f0 + (1 - (f0 - 13) / 114.86) x 109.435. */
static void test_startup_delay(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    pl_jobset *js = SIM_JOBS(sim_profiled_job("j0", 1, 0.5, "bvlc_alexnet", "1"),
                             sim_profiled_job("j1", 1, 2.2, "bvlc_alexnet", "4"));
    static const double delays[2] = {0, 10};
    pl_sim_opts o = sim_opts("fcfs");
    o.job_startup_delay = delays;
    pl_sim_result *r = sim_run_opts(t, js, &o);
    double f0 = 13 + (1 - 12 / 69.165) * 75.03;
    double f1 = f0 + (1 - (f0 - 13) / 114.86) * 109.435;
    pl_sim_job_record a = sim_rec(r, 0), b = sim_rec(r, 1);
    assert_true(a.placed == 1 && a.start == 1 && fabs(a.finish - f0) < SIM_EPS);
    assert_true(b.placed == 3 && b.start == 13 && fabs(b.wait - 10.8) < SIM_EPS);
    assert_true(fabs(b.finish - f1) < SIM_EPS);
    assert_true(fabs(b.run_time - (f1 - 13)) < SIM_EPS);
    /* While J1 starts up it holds gpu1: 2 GPUs used from 3. */
    pl_sim_sample p = {0};
    for (int64_t i = 0; i < pl_sim_result_timeline_count(r) && p.time != 3; i++)
        p = sim_sample(r, i);
    assert_true(p.time == 3 && p.gpus_used == 2 && p.running == 2);
    pl_sim_result_free(r);

    /* The same delay for every job: J0 too begins 10 s after its round. */
    o.job_startup_delay = NULL;
    o.startup_delay = 10;
    r = sim_run_opts(t, js, &o);
    assert_true(sim_rec(r, 0).start == 11 && sim_rec(r, 1).start == 13);
    pl_sim_result_free(r);

    o.startup_delay = -1;
    pl_sim *sim = NULL;
    assert_pl_status(pl_sim_create(t, js, &o, &sim), PL_EINVAL);
    sim_free(NULL, js, t);
}

/* A job in its startup delay holds its GPUs: C (4 GPUs) cannot start until
 * A (startup 5 s, then 10 s) and B (no delay, 10 s) are done. fcfs:
 * A placed 0, begins 5, ends 15; B placed 1, ends 11; C placed at 15. */
static void test_startup_holds_resources(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    pl_jobset *js = SIM_JOBS(sim_job("a", 1, 0, 0, 10), sim_job("b", 1, 0, 1, 10), sim_job("c", 4, 0, 2, 1));
    static const double delays[3] = {5, 0, 0};
    pl_sim_opts o = sim_opts("fcfs");
    o.job_startup_delay = delays;
    pl_sim_result *r = sim_run_opts(t, js, &o);
    assert_true(sim_rec(r, 0).start == 5 && sim_rec(r, 0).finish == 15);
    assert_true(sim_rec(r, 1).start == 1 && sim_rec(r, 1).finish == 11);
    assert_true(sim_rec(r, 2).placed == 15 && sim_rec(r, 2).finish == 16);
    sim_free(r, js, t);
}

/* A failure while the job is still starting up kills it too; the stale
 * task-start event is ignored. A (1 GPU, 10 s, startup 5) placed on gpu0 at
 * 0; gpu0 fails at 2 (never repaired); round 2 places A on gpu1: begins 7,
 * ends 17. */
static void test_failure_during_startup(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    pl_jobset *js = SIM_JOBS(sim_job("a", 1, 0, 0, 10));
    pl_sim_failure f = {2, sim_vertex(t, "cluster/rack0/node0/package0/gpu0"), 0};
    pl_sim_opts o = with_failure("fcfs", &f);
    o.startup_delay = 5;
    pl_sim_result *r = sim_run_opts(t, js, &o);
    pl_sim_job_record a = sim_rec(r, 0);
    assert_true(a.placed == 2 && a.start == 7 && a.finish == 17);
    assert_int_equal(a.restarts, 1);
    assert_true(sim_sum(r).lost_gpu_seconds == 2);
    sim_free(r, js, t);
}

/* A broken policy that always takes gpu0 (which is down). */
static pl_status first_gpu(const pl_policy_request *req, pl_decision *out)
{
    int32_t g = -1;
    pl_status st = pl_topology_find(req->topo, "cluster/rack0/node0/package0/gpu0", &g);
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = 1, .gpus = &g, .machine = -1,
                                 .utility = 1, .reason = ""};
        st = pl_decision_set(out, i, &info);
    }
    return st;
}

static void test_failed_gpu_check(void **s)
{
    (void)s;
    static const pl_policy_ops ops = {
    .name = "test-failed-gpu",
    .description = "places on gpu0",
    .place = first_gpu,
};
    assert_pl_ok(pl_policy_register(&ops));
    pl_topology *t = sim_minsky(1);
    pl_jobset *js = SIM_JOBS(sim_job("late", 1, 0, 5, 10));
    pl_sim_failure f = {1, sim_vertex(t, "cluster/rack0/node0/package0/gpu0"), 0};
    pl_sim_opts o = with_failure("test-failed-gpu", &f);
    sim_run_fails(t, js, &o, PL_EINTERNAL, "GPU cluster/rack0/node0/package0/gpu0 given to job late is down");
    pl_sim *sim = NULL;

    /* Bad failures are refused when the simulator is created. */
    f.gpu = sim_vertex(t, "cluster/rack0/node0/package0");
    assert_pl_status(pl_sim_create(t, js, &o, &sim), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "is not a GPU"));
    f.gpu = sim_vertex(t, "cluster/rack0/node0/package0/gpu0");
    f.time = -1;
    assert_pl_status(pl_sim_create(t, js, &o, &sim), PL_EINVAL);
    f.time = 1;
    f.repair = -2;
    assert_pl_status(pl_sim_create(t, js, &o, &sim), PL_EINVAL);
    o.failures = NULL;
    assert_pl_status(pl_sim_create(t, js, &o, &sim), PL_EINVAL);
    sim_free(NULL, js, t);
    assert_pl_ok(pl_policy_unregister("test-failed-gpu"));
}

static char *write_tmp(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/pl_sim_failures_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void load_error(const pl_topology *t, const char *text, const char *want)
{
    char *path = write_tmp(text);
    pl_sim_failure *f = NULL;
    int32_t n = -1;
    assert_pl_status(pl_sim_failures_load(path, t, &f, &n), PL_EPARSE);
    assert_null(f);
    assert_int_equal(n, 0);
    if (!strstr(pl_last_error(), want))
        fail_msg("message '%s' lacks '%s'", pl_last_error(), want);
    assert_non_null(strstr(pl_last_error(), path));
    unlink(path);
}

static void test_failures_load(void **s)
{
    (void)s;
    pl_topology *t = sim_minsky(1);
    char *path = write_tmp("# a failure trace\n"
                           "gpu, time ,repair\n"
                           "cluster/rack0/node0/package0/gpu1,12.5,30\n"
                           "\n"
                           "cluster/rack0/node0/package1/gpu3,40,\n");
    pl_sim_failure *f = NULL;
    int32_t n = 0;
    assert_pl_ok(pl_sim_failures_load(path, t, &f, &n));
    assert_int_equal(n, 2);
    assert_true(f[0].time == 12.5 && f[0].gpu == sim_vertex(t, "cluster/rack0/node0/package0/gpu1") &&
                f[0].repair == 30);
    assert_true(f[1].time == 40 && f[1].gpu == sim_vertex(t, "cluster/rack0/node0/package1/gpu3") &&
                f[1].repair == 0);
    pl_sim_failures_free(f);
    unlink(path);

    char text[128];
    snprintf(text, sizeof text, "time,gpu\n5,%d\n", (int)sim_vertex(t, "cluster/rack0/node0/package1/gpu2"));
    path = write_tmp(text);
    assert_pl_ok(pl_sim_failures_load(path, t, &f, &n));
    assert_int_equal(n, 1);
    assert_int_equal(f[0].gpu, sim_vertex(t, "cluster/rack0/node0/package1/gpu2"));
    assert_true(f[0].repair == 0);
    pl_sim_failures_free(f);
    unlink(path);

    load_error(t, "time,gpu,when\n", ":1: unknown column 'when' (known: time, gpu, repair)");
    load_error(t, "time,repair\n1,2\n", "missing column 'gpu'");
    load_error(t, "time,gpu\n1,cluster/rack0/node0/package0/gpu7\n", ":2: column 'gpu': no vertex "
                                                                     "'cluster/rack0/node0/package0/gpu7'");
    load_error(t, "time,gpu\n1,cluster/rack0/node0/package0\n", ":2: column 'gpu': "
                                                                "'cluster/rack0/node0/package0' is not a GPU");
    load_error(t, "time,gpu\n1,9999\n", "column 'gpu': no vertex 9999");
    const char *g1 = "cluster/rack0/node0/package0/gpu1";
    snprintf(text, sizeof text, "time,gpu\n\n# c\nsoon,%s\n", g1);
    load_error(t, text, ":4: column 'time': expected a number, got 'soon'");
    snprintf(text, sizeof text, "time,gpu\n-3,%s\n", g1);
    load_error(t, text, "column 'time': expected a number in [0, inf], got '-3'");
    snprintf(text, sizeof text, "time,gpu,repair\n1,%s,-1\n", g1);
    load_error(t, text, ":2: column 'repair': expected a number in [0, inf], got '-1'");
    load_error(t, "time,gpu\n1\n", ":2: 1 fields, the header has 2");
    load_error(t, "time,gpu\n1,\"x\"\n", "quoted fields are not supported");
    load_error(t, "time,time\n", "column 'time' appears twice");
    load_error(t, "", "empty (no header line)");
    assert_pl_status(pl_sim_failures_load("/nonexistent/failures.csv", t, &f, &n), PL_EIO);
    assert_pl_status(pl_sim_failures_load(NULL, t, &f, &n), PL_EINVAL);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_order),
        cmocka_unit_test(test_failure_restart),
        cmocka_unit_test(test_failure_waits_for_repair),
        cmocka_unit_test(test_startup_delay),
        cmocka_unit_test(test_startup_holds_resources),
        cmocka_unit_test(test_failure_during_startup),
        cmocka_unit_test(test_failed_gpu_check),
        cmocka_unit_test(test_failures_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
