/* Shared GPUs in the simulator (doc/simulator.md sec. 2, 3c, 5b): a GPU of
 * units capacity u holds at most u jobs, co-tenants pay the share factor,
 * a shared GPU counts once in the utilisation, a failure kills every
 * holder; gpu-qos (seed 003 ch. 5) run end to end with hand-computed
 * pairs and finish times. */
#include "simtest.h"

/* One machine, two sockets, one GPU per socket with `units` units, 8 cores
 * per socket: "cluster/node0/package0/gpu0" and ".../package1/gpu0". */
static pl_topology *two_socket_machine(int units)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"templates\": {\"m\": {\"tree\": {\"kind\": \"machine\", \"children\": ["
             "{\"kind\": \"package\", \"os_index\": 0, \"capacity\": {\"cores\": 8}, \"children\": ["
             "  {\"kind\": \"numa\", \"os_index\": 0, \"capacity\": {\"memory\": 68719476736}},"
             "  {\"kind\": \"gpu\", \"os_index\": 0, \"capacity\": {\"units\": %d, \"gpu-memory\": 17179869184}}]},"
             "{\"kind\": \"package\", \"os_index\": 1, \"capacity\": {\"cores\": 8}, \"children\": ["
             "  {\"kind\": \"numa\", \"os_index\": 1, \"capacity\": {\"memory\": 68719476736}},"
             "  {\"kind\": \"gpu\", \"os_index\": 0, \"capacity\": {\"units\": %d, \"gpu-memory\": 17179869184}}]}],"
             "\"links\": ["
             "  {\"a\": \"package0/gpu0\", \"b\": \"package0\", \"kind\": \"nvlink\", \"bw\": 40e9},"
             "  {\"a\": \"package1/gpu0\", \"b\": \"package1\", \"kind\": \"nvlink\", \"bw\": 40e9},"
             "  {\"a\": \"package0\", \"b\": \"package1\", \"kind\": \"intersocket\", \"bw\": 38.4e9},"
             "  {\"a\": \"package0\", \"b\": \".\", \"kind\": \"board\"},"
             "  {\"a\": \"package1\", \"b\": \".\", \"kind\": \"board\"}]}}},"
             " \"machines\": [{\"template\": \"m\"}]}",
             units, units);
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(json, 0, &t));
    return t;
}

/* A one-GPU, one-core job of a profiled type; slo > 0 makes it
 * latency-sensitive for gpu-qos. */
static pl_job *typed_job(const char *name, const char *type, double arrival, double slo)
{
    pl_job *j = sim_job(name, 1, 1, arrival, 0);
    assert_pl_ok(pl_job_set_workload(j, type, "1"));
    if (slo > 0)
        assert_pl_ok(pl_job_set_slo(j, slo));
    return j;
}

/* LS types A (solo 10 s), B (8 s); batch X (20 s), Y (30 s), Z (40 s).
 * Co-located times give the gpu-qos matrix (LS slowdown must stay < 0.2):
 *   A|X 11 (0.1), X|A 24 (0.2);  A|Z 11.5 (0.15), Z|A 56 (0.4);  A|Y 13 (0.3: no pair)
 *   B|X 8.4 (0.05), X|B 26 (0.3); B|Y 8.8 (0.1), Y|B 33 (0.1);   B|Z 12 (0.5: no pair)
 * so m = [A: X 0.2, Z 0.4; B: X 0.3, Y 0.1]. MMP: no single row or column
 * (x 2 != y 3), drop the maximum 0.4 (A,Z); A has X alone: A+X; B then has
 * Y alone (x == y == 1): B+Y. Z stays unpaired. */
static pl_profile_set *abxyz_profiles(void)
{
    pl_profile_set *ps = NULL;
    assert_pl_ok(pl_profile_set_create(&ps));
    static const struct { const char *t; double s; } solo[] = {{"A", 10}, {"B", 8}, {"X", 20}, {"Y", 30}, {"Z", 40}};
    for (size_t i = 0; i < sizeof solo / sizeof *solo; i++)
        assert_pl_ok(pl_profile_set_add_solo(ps, solo[i].t, "1", 1, PL_SPREAD_INTRA_SOCKET, solo[i].s));
    static const struct { const char *a, *b; double t; } co[] = {
        {"A", "X", 11}, {"X", "A", 24}, {"A", "Z", 11.5}, {"Z", "A", 56}, {"A", "Y", 13},
        {"B", "X", 8.4}, {"X", "B", 26}, {"B", "Y", 8.8}, {"Y", "B", 33}, {"B", "Z", 12}};
    for (size_t i = 0; i < sizeof co / sizeof *co; i++)
        assert_pl_ok(pl_profile_set_add_colocated(ps, co[i].a, "1", 1, co[i].b, "1", 1, co[i].t));
    return ps;
}

/* A (SLO 12), X, B (SLO 10), Y, Z, all at 0. */
static pl_jobset *abxyz_jobs(void)
{
    return SIM_JOBS(typed_job("a", "A", 0, 12), typed_job("x", "X", 0, 0), typed_job("b", "B", 0, 10),
                    typed_job("y", "Y", 0, 0), typed_job("z", "Z", 0, 0));
}

/* The two-socket machine of `units`-unit GPUs, the profiles above. */
typedef struct shared_case {
    pl_topology *t;
    pl_profile_set *ps;
    pl_jobset *js;
} shared_case;

static shared_case shared_case_new(int units, pl_jobset *js)
{
    return (shared_case){two_socket_machine(units), abxyz_profiles(), js};
}

static void shared_case_free(shared_case *c)
{
    pl_jobset_free(c->js);
    pl_profile_set_free(c->ps);
    pl_topology_free(c->t);
}

static pl_sim_result *run_gq(const shared_case *c, const char *policy, double factor)
{
    pl_sim_opts o = sim_opts(policy);
    o.policy.profiles = c->ps;
    o.gpu_share_factor = factor;
    return sim_run_opts(c->t, c->js, &o);
}

static void expect(const pl_sim_result *r, int i, double start, double finish, int shared)
{
    pl_sim_job_record x = sim_rec(r, i);
    if (x.state != PL_SIM_DONE || fabs(x.start - start) > SIM_EPS || fabs(x.finish - finish) > SIM_EPS ||
        x.shared_gpu != shared)
        fail_msg("job %s: state %d, start %.6f finish %.6f shared %d; want done, %.6f, %.6f, %d", x.name,
                 (int)x.state, x.start, x.finish, x.shared_gpu, start, finish, shared);
}

/* The per-job CSVs of a and b are the same bytes; b is released. */
static void same_csv(const pl_sim_result *a, pl_sim_result *b)
{
    char *ca = sim_csv(pl_sim_result_write_csv, a, NULL), *cb = sim_csv(pl_sim_result_write_csv, b, NULL);
    assert_string_equal(ca, cb);
    free(ca);
    free(cb);
    pl_sim_result_free(b);
}

/* Two-unit GPUs, share factor 1.5. The round at 0 puts A+X on socket 0's
 * GPU (best fit: both sockets have one shareable GPU, the first wins) and
 * B+Y on socket 1's; Z finds no empty GPU and waits (gpu-qos never puts an
 * unpaired job next to another). Each pair is alone on its socket, so a
 * job's slowdown is its co-tenant's profile slowdown x 1.5:
 *   A 1.1 x 1.5 = 1.65: ends 16.5;  X 1.2 x 1.5 = 1.8: rate 1/36
 *   B 1.1 x 1.5 = 1.65: ends 13.2;  Y 1.1 x 1.5 = 1.65: rate 1/49.5
 * At 13.2 Y has done 13.2/49.5 = 4/15 and runs alone: ends 13.2 + 11/15 x
 * 30 = 35.2. At 16.5 X has done 16.5/36 and ends 16.5 + (1 - 16.5/36) x
 * 20 = 27.333333. The round at 14 and 17 find no empty GPU (a batch job is
 * not an LS row); the round at 28 puts Z alone on socket 0's GPU: 28-68.
 * Both LS jobs miss their SLO (16.5 > 12, 13.2 > 10) although gpu-qos
 * predicted 1.1: its predictor has no device-side term. */
static void test_gpu_qos_pairs(void **s)
{
    (void)s;
    shared_case c = shared_case_new(2, abxyz_jobs());
    pl_sim_result *r = run_gq(&c, "gpu-qos", 1.5);
    expect(r, 0, 0, 16.5, 1);
    expect(r, 1, 0, 16.5 + (1 - 16.5 / 36) * 20, 1);
    expect(r, 2, 0, 13.2, 1);
    expect(r, 3, 0, 35.2, 1);
    expect(r, 4, 28, 68, 0);
    assert_true(fabs(sim_rec(r, 0).slowdown - 1.65) < SIM_EPS);
    pl_sim_summary m = sim_sum(r);
    assert_int_equal(m.shared_jobs, 4);
    assert_int_equal(m.slo_violations, 2);
    assert_true(fabs(m.makespan - 68) < SIM_EPS);

    /* A shared GPU is busy once: 2 GPUs used by 4 jobs at 0; 1 GPU (Y's)
     * from 27.33 until Z takes the other at 28; 1 (Z's) after 35.2. */
    static const double times[] = {0, 13.2, 16.5, 16.5 + (1 - 16.5 / 36) * 20, 28, 35.2, 68};
    static const int used[] = {2, 2, 2, 1, 2, 1, 0}, running[] = {4, 3, 2, 1, 2, 1, 0};
    assert_int_equal(pl_sim_result_timeline_count(r), 7);
    for (int i = 0; i < 7; i++) {
        pl_sim_sample p = sim_sample(r, i);
        if (fabs(p.time - times[i]) > SIM_EPS || p.gpus_used != used[i] || p.running != running[i])
            fail_msg("point %d: t %.6f, %d GPUs used, %d running; want %.6f, %d, %d", i, p.time, p.gpus_used,
                     p.running, times[i], used[i], running[i]);
    }
    double x_end = times[3];
    double util = (x_end * 1 + (28 - x_end) * 0.5 + (35.2 - 28) * 1 + (68 - 35.2) * 0.5) / 68;
    assert_true(fabs(m.mean_gpu_util - util) < SIM_EPS);
    pl_sim_result_free(r);

    /* Share factor 1: the co-tenant costs what gpu-qos predicted. A ends at
     * 11, B at 8.8 (both within their SLO); X: 11/24 done at 11, ends 11 +
     * (13/24) x 20 = 21.833333; Y: 8.8/33 done at 8.8, ends 8.8 + 22 =
     * 30.8; Z runs 22-62. */
    r = run_gq(&c, "gpu-qos", 1);
    expect(r, 0, 0, 11, 1);
    expect(r, 1, 0, 11 + 13.0 / 24 * 20, 1);
    expect(r, 2, 0, 8.8, 1);
    expect(r, 3, 0, 30.8, 1);
    expect(r, 4, 22, 62, 0);
    assert_int_equal(sim_sum(r).slo_violations, 0);
    pl_sim_result_free(r);
    shared_case_free(&c);
}

/* On-line pairing: LS job A alone on the 2-unit GPU of a one-GPU socket
 * from 0; batch X arrives at 2 and joins it (A is a running LS row with a
 * unit left). Factor 1.5: A did 2/10 alone, then runs at 1/16.5: ends 2 +
 * 0.8 x 16.5 = 15.2; X runs at 1/36 from 2, has done 13.2/36 at 15.2 and
 * ends 15.2 + (1 - 13.2/36) x 20 = 27.866667. */
static void test_batch_joins_running_ls(void **s)
{
    (void)s;
    shared_case c = shared_case_new(2, SIM_JOBS(typed_job("a", "A", 0, 100), typed_job("x", "X", 1.5, 0)));
    /* Occupy socket 1's GPU so that X's only choices are joining A or waiting. */
    assert_pl_ok(pl_topology_alloc(c.t, sim_vertex(c.t, "cluster/node0/package1/gpu0"), PL_RES_UNITS, 2));
    pl_sim_result *r = run_gq(&c, "gpu-qos", 1.5);
    expect(r, 0, 0, 15.2, 1);
    expect(r, 1, 2, 15.2 + (1 - 13.2 / 36) * 20, 1);
    pl_sim_result_free(r);
    shared_case_free(&c);
}

/* One-unit GPUs: gpu-qos finds no shareable GPU, so every pair dissolves and
 * it schedules like a non-sharing policy. Round 0: A alone on socket 0's
 * GPU, X on socket 1's (no neighbour: one GPU per socket), B, Y, Z wait.
 * A 0-10; round 10: B (LS) on socket 0: 10-18; round 18: Y: 18-48; X ends
 * 20, round 20: Z: 20-60. bf and fcfs decide the same, so the per-job CSVs
 * are equal byte for byte (whatever the share factor: nothing shares). */
static void test_gpu_qos_one_unit(void **s)
{
    (void)s;
    shared_case c = shared_case_new(1, abxyz_jobs());
    pl_sim_result *r = run_gq(&c, "gpu-qos", PL_SIM_GPU_SHARE_FACTOR);
    expect(r, 0, 0, 10, 0);
    expect(r, 1, 0, 20, 0);
    expect(r, 2, 10, 18, 0);
    expect(r, 3, 18, 48, 0);
    expect(r, 4, 20, 60, 0);
    pl_sim_summary m = sim_sum(r);
    assert_int_equal(m.shared_jobs, 0);
    assert_true(fabs(m.makespan - 60) < SIM_EPS);
    for (int64_t i = 0; i < pl_sim_result_timeline_count(r); i++)
        assert_true(sim_sample(r, i).running <= 2); /* never more jobs than GPUs */
    static const char *const others[] = {"bf", "fcfs"};
    for (int i = 0; i < 2; i++)
        same_csv(r, run_gq(&c, others[i], 2));
    pl_sim_result_free(r);
    shared_case_free(&c);
}

/* ---- the allocation check on shared GPUs ------------------------------------------ */

static pl_status all_on_first_gpu(const pl_policy_request *req, pl_decision *out)
{
    int32_t g = -1, n = 0;
    pl_status st = pl_topology_descendants(req->topo, -1, PL_VK_GPU, &g, 1, &n);
    if (st && st != PL_ELIMIT)
        return st;
    st = PL_OK;
    int32_t twice[2] = {g, g};
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        int k = pl_job_task_count(req->queue[i]);
        pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = twice, .machine = -1,
                                 .utility = 1, .reason = ""};
        st = pl_decision_set(out, i, &info);
    }
    return st;
}

/* The jobs under "test-all-on-gpu0" on a machine of 2-unit GPUs: the
 * allocation check stops the run with msg. */
static void all_on_gpu0_fails(pl_jobset *js, const char *msg)
{
    pl_topology *t = two_socket_machine(2);
    pl_sim_opts o = sim_opts("test-all-on-gpu0");
    sim_run_fails(t, js, &o, PL_EINTERNAL, msg);
    sim_free(NULL, js, t);
}

static void over_capacity(double third_arrival)
{
    all_on_gpu0_fails(SIM_JOBS(sim_job("first", 1, 1, 0, 100), sim_job("second", 1, 1, 0, 100),
                               sim_job("third", 1, 1, third_arrival, 100)),
                      "GPU cluster/node0/package0/gpu0 given to job third is already held "
                      "by 2 jobs (first, second), as many as its units capacity");
}

/* A 2-unit GPU takes two jobs, never a third (same round, or a later one);
 * one job cannot name a GPU twice. */
static void test_capacity_is_a_hard_limit(void **s)
{
    (void)s;
    static const pl_policy_ops ops = {
    .name = "test-all-on-gpu0",
    .description = "puts every task on the first GPU",
    .place = all_on_first_gpu,
};
    assert_pl_ok(pl_policy_register(&ops));
    over_capacity(0);
    over_capacity(5);
    all_on_gpu0_fails(SIM_JOBS(sim_job("pair", 2, 1, 0, 10)), "GPU cluster/node0/package0/gpu0 given to job pair twice");
    assert_pl_ok(pl_policy_unregister("test-all-on-gpu0"));
}

/* fcfs on one GPU of 2 units: a and b (100 s, no profile) share it from 0
 * at rate 1 / (100 x factor). The GPU fails at 10 (repair 40 s): both are
 * killed, and every unit of the GPU is taken, so no job is placed on it
 * while it is down (a unit left free would let fcfs place one there, which
 * the allocation check refuses). Both restart at 50 and end at 50 + 100 x
 * 1.2737 = 177.37. */
static void test_failure_kills_every_holder(void **s)
{
    (void)s;
    pl_topology *t = two_socket_machine(2);
    assert_pl_ok(pl_topology_alloc(t, sim_vertex(t, "cluster/node0/package1/gpu0"), PL_RES_UNITS, 2));
    pl_jobset *js = SIM_JOBS(sim_job("a", 1, 1, 0, 100), sim_job("b", 1, 1, 0, 100));
    pl_sim_failure f = {10, sim_vertex(t, "cluster/node0/package0/gpu0"), 40};
    pl_sim_opts o = sim_opts("fcfs");
    o.failures = &f;
    o.nfailures = 1;
    pl_sim_result *r = sim_run_opts(t, js, &o);
    for (int i = 0; i < 2; i++) {
        expect(r, i, 50, 50 + 100 * PL_SIM_GPU_SHARE_FACTOR, 1);
        assert_int_equal(sim_rec(r, i).restarts, 1);
    }
    pl_sim_summary m = sim_sum(r);
    assert_int_equal(m.jobs_killed, 2);
    assert_true(fabs(m.lost_gpu_seconds - 20) < SIM_EPS);
    pl_sim_sample p = sim_sample(r, 1);
    assert_true(p.time == 10);
    assert_int_equal(p.gpus_failed, 1);
    assert_int_equal(p.gpus_used, 1); /* the background-loaded GPU */
    assert_int_equal(p.queued, 2);
    sim_free(r, js, t);
}

static void test_share_factor_option(void **s)
{
    (void)s;
    pl_sim_opts o;
    pl_sim_opts_init(&o);
    assert_true(o.gpu_share_factor == PL_SIM_GPU_SHARE_FACTOR);
    assert_true(fabs(PL_SIM_GPU_SHARE_FACTOR - (1 + (36.38 + 28.95 + 16.78) / 300)) < 1e-12);
    pl_topology *t = two_socket_machine(2);
    pl_jobset *js = SIM_JOBS(sim_job("a", 1, 1, 0, 10));
    pl_sim *sim = NULL;
    static const double bad[] = {0.99, 0, -1, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        o.gpu_share_factor = bad[i];
        assert_pl_status(pl_sim_create(t, js, &o, &sim), PL_EINVAL);
        assert_non_null(strstr(pl_last_error(), "gpu_share_factor"));
        assert_null(sim);
    }
    sim_free(NULL, js, t);
}

/* ---- the example of doc/results.md (examples/sim/) ----------------------------------- */

static pl_topology *example_cluster(const char *name, int64_t want_units)
{
    char rel[256], path[PL_PATH_MAX];
    snprintf(rel, sizeof rel, "../../examples/sim/%s", name);
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json(pl_test_data(path, rel), &t));
    /* The JSON tree sets every GPU's units capacity. */
    int32_t g[16], n = 0;
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_GPU, g, 16, &n));
    assert_int_equal(n, 8);
    for (int32_t i = 0; i < n; i++) {
        int64_t cap = 0;
        assert_pl_ok(pl_topology_amount(t, g[i], PL_RES_UNITS, &cap, NULL, NULL));
        assert_true(cap == want_units);
    }
    return t;
}

static pl_sim_result *example_run(const pl_topology *t, const pl_sim_trace *tr, const char *policy)
{
    return sim_run(t, pl_sim_trace_jobs(tr), policy);
}

static void expect_example(const pl_sim_result *r, int shared_jobs, int slo_violations, double makespan)
{
    pl_sim_summary m = sim_sum(r);
    assert_int_equal(m.shared_jobs, shared_jobs);
    assert_int_equal(m.slo_violations, slo_violations);
    assert_true(fabs(m.makespan - makespan) < 1e-5);
}

/* The 40-job trace on two Minsky-like machines (regression of the numbers
 * quoted in doc/results.md, seed 003): with 1-unit GPUs gpu-qos shares
 * nothing; with 2-unit GPUs it shares 29 jobs' GPUs (LS + batch pairs only)
 * where fcfs shares all 40. (Until issue 23 gpu-qos on 1-unit GPUs was bf to
 * the byte: both took the machine of highest utility; bf now takes the one
 * with the fewest free GPUs, as seed 002's best fit does. The 2-GPU
 * AlexNet-128 jobs now see their profiled slowdown next to 1-GPU
 * neighbours: batch17 and batch18 run 1840.1 and 1815.7 s instead of 1815.2.) */
static void test_example_trace(void **s)
{
    (void)s;
    char path[PL_PATH_MAX];
    pl_sim_trace *tr = NULL;
    assert_pl_ok(pl_sim_trace_load(pl_test_data(path, "../../examples/sim/shared-gpus-trace.csv"), &tr));
    assert_int_equal(pl_jobset_count(pl_sim_trace_jobs(tr)), 40);

    pl_topology *t = example_cluster("cluster-exclusive-gpus.json", 1);
    pl_sim_result *q = example_run(t, tr, "gpu-qos");
    expect_example(q, 0, 11, 3847.312158);
    pl_sim_result_free(q);
    pl_topology_free(t);

    t = example_cluster("cluster-with-shared-gpus.json", 2);
    q = example_run(t, tr, "gpu-qos");
    expect_example(q, 29, 0, 3794.417043);
    assert_int_equal(sim_sum(q).done, 40);
    assert_true(fabs(sim_sum(q).mean_turnaround - 500.200633) < 1e-5);
    /* only 1-GPU jobs share: every LS job has one GPU and a pair needs equal task counts */
    for (int i = 0; i < 40; i++) {
        pl_sim_job_record x = sim_rec(q, i);
        if (x.shared_gpu)
            assert_int_equal(x.ngpus, 1);
    }
    pl_sim_result_free(q);
    pl_sim_result *b = example_run(t, tr, "fcfs");
    expect_example(b, 40, 0, 3046.549524);
    pl_sim_result_free(b);
    pl_topology_free(t);
    pl_sim_trace_free(tr);
}

/* The command of doc/results.md. */
static void test_example_cli(void **s)
{
    (void)s;
    char tp[PL_PATH_MAX], cp[PL_PATH_MAX], args[3 * PL_PATH_MAX];
    static char out[1 << 16];
    snprintf(args, sizeof args, "simulate --trace '%s' --cluster '%s' --policy gpu-qos,fcfs --quiet",
             pl_test_data(tp, "../../examples/sim/shared-gpus-trace.csv"),
             pl_test_data(cp, "../../examples/sim/cluster-with-shared-gpus.json"));
    assert_int_equal(pl_test_run_cli(NULL, args, 0, out, sizeof out), 0);
    assert_non_null(strstr(out, "trace: 40 jobs on 2 machines, 8 GPUs"));
    assert_non_null(strstr(out, "\ngpu-qos           3794.4      500.2"));
    assert_non_null(strstr(out, "\nfcfs              3046.5      499.3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_qos_pairs),
        cmocka_unit_test(test_batch_joins_running_ls),
        cmocka_unit_test(test_gpu_qos_one_unit),
        cmocka_unit_test(test_capacity_is_a_hard_limit),
        cmocka_unit_test(test_failure_kills_every_holder),
        cmocka_unit_test(test_share_factor_option),
        cmocka_unit_test(test_example_trace),
        cmocka_unit_test(test_example_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
