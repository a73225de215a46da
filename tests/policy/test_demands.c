/* Demands as users state them (policy.h's file comment): CPU-only tasks,
 * fractional GPUs, GPU models and CPU millicores, under every registered
 * policy; hand-computed placements. */
#include <stdio.h>
#include <stdlib.h>
#include "policy_fixture.h"

#define GIB (1LL << 30)

static int64_t used(const pl_topology *t, const char *path, pl_resource r)
{
    int64_t a = 0;
    assert_pl_ok(pl_topology_amount(t, vx(t, path), r, NULL, &a, NULL));
    return a;
}

/* A policy that cannot honour a demand must say so, never place wrongly:
 * rejected with the reason (a policy that takes the jobs as they are,
 * PL_POLICY_CPU_JOBS, may also leave it waiting with its reason). */
static void assert_rejected_clearly(const char *policy, const pl_decision_info *info)
{
    const pl_policy_ops *ops;
    assert_pl_ok(pl_policy_find(policy, &ops));
    int as_is = ops->version >= 2 && (ops->flags & PL_POLICY_CPU_JOBS);
    if (!info->reason[0] ||
        !(info->kind == PL_DECISION_REJECTED || (as_is && info->kind == PL_DECISION_WAITING)))
        fail_msg("%s: kind %d, reason \"%s\"", policy, (int)info->kind, info->reason);
}

static pl_job *load_pipeline(pl_jobset **set)
{
    char buf[PL_PATH_MAX];
    assert_pl_ok(pl_jobset_load_json(pl_test_data(buf, "jobs/example.json"), set));
    pl_job *p = pl_jobset_get(*set, 1);
    assert_string_equal(pl_job_name(p), "pipeline");
    /* Some policies need a run time to evaluate a job. */
    assert_pl_ok(pl_job_set_duration(p, 10));
    return p;
}

/* doc/jobs.md's pipeline: 2 GPU tasks and a CPU-only task that must not
 * share task 0's machine, on node0 or node3. It takes 2 GPUs, not 3. */
static void test_pipeline_every_policy(void **state)
{
    (void)state;
    pl_jobset *set;
    pl_job *p = load_pipeline(&set);
    pl_topology *t = minsky_cluster(4, 4);
    int placed = 0;
    for (int i = 0; i < pl_policy_count(); i++) {
        const char *name = pl_policy_get(i)->name;
        pl_decision *d = policy_place(name, t, &p, 1);
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 0, &info));
        if (info.kind != PL_DECISION_PLACED) {
            assert_rejected_clearly(name, &info);
            pl_decision_free(d);
            continue;
        }
        placed++;
        assert_int_equal(info.ngpus, 3);
        assert_true(info.gpus[0] >= 0 && info.gpus[1] >= 0 && info.gpus[0] != info.gpus[1]);
        assert_int_equal(info.gpus[2], -1);
        assert_int_equal(info.hosts[0], info.gpus[0]);
        pl_vertex_info vi;
        assert_pl_ok(pl_topology_vertex(t, info.hosts[2], &vi));
        assert_int_equal(vi.kind, PL_VK_PACKAGE);
        assert_int_not_equal(machine_vertex(t, info.hosts[2]), machine_vertex(t, info.gpus[0]));
        /* Applied: 2 GPU units in the whole cluster, the CPU task's 4 cores and 1 GiB on its package. */
        pl_topology *c;
        assert_pl_ok(pl_topology_copy(t, &c));
        assert_pl_ok(pl_decision_apply(d, &p, 1, c));
        int64_t cap = 0, fr = 0;
        assert_pl_ok(pl_topology_subtree_amount(c, vx(c, "cluster"), PL_VK_GPU, PL_RES_UNITS, &cap, &fr));
        if (cap - fr != 2)
            fail_msg("%s: %lld GPUs taken, want 2", name, (long long)(cap - fr));
        int64_t cores = 0;
        assert_pl_ok(pl_topology_amount(c, info.hosts[2], PL_RES_CORES, NULL, &cores, NULL));
        assert_true(cores >= 4);
        pl_topology_free(c);
        if (!strcmp(name, "topo-aware")) {
            assert_int_equal(info.gpus[0], vx(t, "cluster/rack0/node0/package0/gpu0"));
            assert_int_equal(info.gpus[1], vx(t, "cluster/rack0/node0/package0/gpu1"));
            assert_int_equal(info.hosts[2], vx(t, "cluster/rack0/node3/package0"));
        }
        pl_decision_free(d);
    }
    assert_true(placed >= 10);
    pl_topology_free(t);
    pl_jobset_free(set);
}

static pl_job *frac_job(const char *name, int64_t milli)
{
    pl_job *j;
    pl_task_demand d = {.gpu_milli = milli, .cores = 1};
    assert_pl_ok(pl_job_create(name, &j));
    assert_pl_ok(pl_job_add_task(j, &d, NULL));
    assert_pl_ok(pl_job_set_duration(j, 10));
    return j;
}

/* Three 500-milli jobs on one Minsky: the first two share gpu0 (best fit:
 * the second finds gpu0 with 500 left), the third takes gpu1. */
static void test_fractional_share(void **state)
{
    (void)state;
    pl_topology *t = minsky();
    pl_job *q[3] = {frac_job("a", 500), frac_job("b", 500), frac_job("c", 500)};
    const char *want[3] = {"machine/package0/gpu0", "machine/package0/gpu0", "machine/package0/gpu1"};
    int placed = 0;
    for (int i = 0; i < pl_policy_count(); i++) {
        const char *name = pl_policy_get(i)->name;
        pl_decision *d = policy_place(name, t, q, 3);
        pl_decision_info first;
        assert_pl_ok(pl_decision_get(d, 0, &first));
        if (first.kind != PL_DECISION_PLACED) {
            assert_rejected_clearly(name, &first);
            pl_decision_free(d);
            continue;
        }
        placed++;
        for (int32_t k = 0; k < 3; k++) {
            pl_decision_info info = dec(d, k, PL_DECISION_PLACED);
            assert_int_equal(info.ngpus, 1);
            if (info.gpus[0] != vx(t, want[k]))
                fail_msg("%s: job %d on vertex %d, want %s", name, (int)k, (int)info.gpus[0], want[k]);
        }
        pl_topology *c;
        assert_pl_ok(pl_topology_copy(t, &c));
        assert_pl_ok(pl_decision_apply(d, q, 3, c));
        assert_int_equal(used(c, "machine/package0/gpu0", PL_RES_GPU_MILLI), 1000);
        assert_int_equal(used(c, "machine/package0/gpu1", PL_RES_GPU_MILLI), 500);
        assert_int_equal(used(c, "machine/package0/gpu0", PL_RES_UNITS), 0);
        assert_int_equal(used(c, "machine/package0", PL_RES_CORES), 3);
        pl_topology_free(c);
        pl_decision_free(d);
    }
    assert_true(placed >= 12);
    for (int k = 0; k < 3; k++)
        pl_job_free(q[k]);
    pl_topology_free(t);
}

/* With gpu0 shared by a 300-milli job, 3 whole GPUs are free: a 4-GPU job
 * waits and a 3-GPU job never gets gpu0, under every policy. */
static void test_whole_never_on_shared(void **state)
{
    (void)state;
    pl_topology *t = minsky();
    pl_sched *s;
    assert_pl_ok(pl_sched_create(t, &s));
    pl_job *f = frac_job("f", 300), *four = mkjob("four", 4, 1, NULL, NULL), *three = mkjob("three", 3, 1, NULL, NULL);
    assert_pl_ok(pl_job_set_duration(four, 10));
    assert_pl_ok(pl_job_set_duration(three, 10));
    int32_t g0 = vx(t, "machine/package0/gpu0");
    assert_pl_ok(pl_sched_commit_gpus(s, "f", f, &g0, 1));
    for (int i = 0; i < pl_policy_count(); i++) {
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.policy = pl_policy_get(i)->name;
        pl_decision *d;
        assert_pl_ok(pl_sched_place(s, &o, &four, 1, &d));
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 0, &info));
        if (info.kind == PL_DECISION_PLACED)
            fail_msg("%s placed a 4-GPU job with gpu0 shared", o.policy);
        pl_decision_free(d);
        assert_pl_ok(pl_sched_place(s, &o, &three, 1, &d));
        assert_pl_ok(pl_decision_get(d, 0, &info));
        if (info.kind == PL_DECISION_PLACED) {
            for (int32_t k = 0; k < 3; k++)
                if (info.gpus[k] == g0)
                    fail_msg("%s gave the shared gpu0 to a whole-GPU task", o.policy);
            assert_pl_ok(pl_sched_commit(s, "three", three, d, 0));
            assert_pl_ok(pl_sched_release(s, "three"));
        }
        pl_decision_free(d);
    }
    /* Committing a whole task there is refused too. */
    pl_job *one = mkjob("one", 1, 0, NULL, NULL);
    assert_pl_status(pl_sched_commit_gpus(s, "one", one, &g0, 1), PL_EINVAL);
    pl_job_free(one);
    pl_job_free(f);
    pl_job_free(four);
    pl_job_free(three);
    pl_sched_free(s);
    pl_topology_free(t);
}

/* Every allocated amount of every vertex. */
static int64_t *amounts(const pl_topology *t)
{
    int32_t n = pl_topology_vertex_count(t);
    int64_t *a = malloc((size_t)n * PL_RES_COUNT * sizeof *a);
    assert_non_null(a);
    for (int32_t v = 0; v < n; v++)
        for (int r = 0; r < PL_RES_COUNT; r++)
            assert_pl_ok(pl_topology_amount(t, v, (pl_resource)r, NULL, &a[(int64_t)v * PL_RES_COUNT + r], NULL));
    return a;
}

static void assert_same_amounts(const pl_topology *t, const int64_t *want)
{
    int64_t *got = amounts(t);
    for (int64_t i = 0; i < (int64_t)pl_topology_vertex_count(t) * PL_RES_COUNT; i++)
        if (got[i] != want[i])
            fail_msg("vertex %d resource %d: %lld allocated, want %lld", (int)(i / PL_RES_COUNT),
                     (int)(i % PL_RES_COUNT), (long long)got[i], (long long)want[i]);
    free(got);
}

/* Task 0: a whole GPU and 2 cores; task 1: 250 milli, 1 core + 1500
 * millicores (3 cores); task 2: CPU-only, 3 cores and 1 GiB, talking to
 * task 0. Single-node on a Minsky: gpu0 whole, task 1 best fit on gpu1,
 * task 2 on package0 next to task 0. Release gives back every amount. */
static void test_commit_release_exact(void **state)
{
    (void)state;
    pl_topology *t = minsky();
    pl_sched *s;
    assert_pl_ok(pl_sched_create(t, &s));
    int64_t *idle = amounts(pl_sched_topology(s));
    pl_job *j;
    pl_task_demand d0 = {.gpus = 1, .cores = 2}, d1 = {.gpus = 1, .gpu_milli = 250, .cores = 1, .cpu_milli = 1500},
                   d2 = {.cores = 3, .memory = GIB};
    assert_pl_ok(pl_job_create("mixed", &j));
    assert_pl_ok(pl_job_add_task(j, &d0, NULL));
    assert_pl_ok(pl_job_add_task(j, &d1, NULL));
    assert_pl_ok(pl_job_add_task(j, &d2, NULL));
    assert_pl_ok(pl_job_add_edge(j, 0, 2, 5));
    pl_task_demand back;
    assert_pl_ok(pl_job_task(j, 1, &back));
    assert_int_equal(back.gpus, 0); /* a fractional task holds no whole GPU */
    assert_int_equal(pl_task_cores(&back), 3);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    pl_decision *d;
    assert_pl_ok(pl_sched_place(s, &o, &j, 1, &d));
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    const pl_topology *live = pl_sched_topology(s);
    assert_int_equal(info.gpus[0], vx(live, "machine/package0/gpu0"));
    assert_int_equal(info.gpus[1], vx(live, "machine/package0/gpu1"));
    assert_int_equal(info.gpus[2], -1);
    assert_int_equal(info.hosts[2], vx(live, "machine/package0"));
    assert_int_equal(info.machine, vx(live, "machine"));
    assert_pl_ok(pl_sched_commit(s, "mixed", j, d, 0));
    pl_decision_free(d);
    assert_int_equal(used(live, "machine/package0", PL_RES_CORES), 2 + 3 + 3);
    assert_int_equal(used(live, "machine/package0/numa0", PL_RES_MEMORY), GIB);
    assert_int_equal(used(live, "machine/package0/gpu0", PL_RES_UNITS), 1);
    assert_int_equal(used(live, "machine/package0/gpu0", PL_RES_GPU_MILLI), 1000);
    assert_int_equal(used(live, "machine/package0/gpu1", PL_RES_GPU_MILLI), 250);
    assert_int_equal(used(live, "machine/package0/gpu1", PL_RES_UNITS), 0);
    pl_sched_job_info ji;
    assert_pl_ok(pl_sched_job(s, "mixed", &ji));
    assert_int_equal(ji.gpus[2], -1);
    assert_int_equal(ji.hosts[2], vx(live, "machine/package0"));
    assert_pl_ok(pl_sched_release(s, "mixed"));
    assert_same_amounts(live, idle);
    /* The same on GPUs the caller chose: task 2 (-1) joins task 0's package. */
    int32_t gpus[3] = {vx(live, "machine/package1/gpu2"), vx(live, "machine/package1/gpu3"), -1};
    assert_pl_ok(pl_sched_commit_gpus(s, "mixed", j, gpus, 3));
    assert_pl_ok(pl_sched_job(s, "mixed", &ji));
    assert_int_equal(ji.hosts[2], vx(live, "machine/package1"));
    assert_int_equal(used(live, "machine/package1", PL_RES_CORES), 8);
    assert_pl_ok(pl_sched_release(s, "mixed"));
    assert_same_amounts(live, idle);
    /* A GPU for the CPU-only task, or a package for a GPU task: refused. */
    int32_t bad[3] = {gpus[0], gpus[1], gpus[0]};
    assert_pl_status(pl_sched_commit_gpus(s, "mixed", j, bad, 3), PL_EINVAL);
    int32_t hosts[3] = {vx(live, "machine/package1"), gpus[1], vx(live, "machine/package1")};
    assert_pl_status(pl_sched_commit_hosts(s, "mixed", j, hosts, 3), PL_EINVAL);
    assert_same_amounts(live, idle);
    free(idle);
    pl_job_free(j);
    pl_sched_free(s);
    pl_topology_free(t);
}

/* node0's GPUs are P100 (machine attribute gpu_model) except gpu0, a
 * V100M16 (its own model); node1's are V100M32. */
static void test_gpu_model(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    assert_pl_ok(pl_topology_set_attr(t, vx(t, "cluster/rack0/node0"), "gpu_model", "P100"));
    assert_pl_ok(pl_topology_set_attr(t, vx(t, "cluster/rack0/node1"), "gpu_model", "V100M32"));
    assert_pl_ok(pl_topology_set_attr(t, vx(t, "cluster/rack0/node0/package0/gpu0"), "model", "V100M16"));
    pl_job *v = mkjob("v", 1, 0, NULL, NULL), *two16 = mkjob("two16", 2, 1, NULL, NULL),
           *k80 = mkjob("k80", 1, 0, NULL, NULL), *p3 = mkjob("p3", 3, 1, NULL, NULL);
    assert_pl_ok(pl_job_set_gpu_model(v, "V100M16|V100M32"));
    assert_pl_ok(pl_job_set_gpu_model(two16, "V100M16"));
    assert_pl_ok(pl_job_set_gpu_model(k80, "K80"));
    assert_pl_ok(pl_job_set_gpu_model(p3, "P100"));
    assert_pl_status(pl_job_set_gpu_model(k80, "A||B"), PL_EINVAL);
    assert_string_equal(pl_job_gpu_model(k80), "K80");
    pl_job *all[4] = {v, two16, k80, p3};
    for (int a = 0; a < 4; a++)
        assert_pl_ok(pl_job_set_duration(all[a], 10));
    assert_true(pl_job_gpu_admits(v, t, vx(t, "cluster/rack0/node0/package0/gpu0")));
    assert_false(pl_job_gpu_admits(v, t, vx(t, "cluster/rack0/node0/package0/gpu1")));
    assert_true(pl_job_gpu_admits(v, t, vx(t, "cluster/rack0/node1/package1/gpu3")));
    for (int i = 0; i < pl_policy_count(); i++) {
        const char *name = pl_policy_get(i)->name;
        for (int a = 0; a < 4; a++) {
            pl_decision *d = policy_place(name, t, &all[a], 1);
            pl_decision_info info;
            assert_pl_ok(pl_decision_get(d, 0, &info));
            if (a == 1 || a == 2) {
                assert_rejected_clearly(name, &info);
                assert_non_null(strstr(info.reason, "model"));
            } else if (info.kind == PL_DECISION_PLACED) {
                for (int32_t k = 0; k < info.ngpus; k++)
                    if (!pl_job_gpu_admits(all[a], t, info.gpus[k]))
                        fail_msg("%s: job %s on a GPU of another model", name, pl_job_name(all[a]));
                if (a == 3)
                    assert_int_equal(machine_vertex(t, info.gpus[0]), vx(t, "cluster/rack0/node0"));
            } else {
                assert_rejected_clearly(name, &info);
            }
            if (!strcmp(name, "topo-aware") && a == 0)
                assert_int_equal(info.gpus[0], vx(t, "cluster/rack0/node0/package0/gpu0"));
            pl_decision_free(d);
        }
    }
    for (int a = 0; a < 4; a++)
        pl_job_free(all[a]);
    pl_topology_free(t);
}

/* The JSON fields, and their errors. */
static void test_json(void **state)
{
    (void)state;
    pl_jobset *set;
    const char *text = "{\"jobs\": [{\"name\": \"x\", \"gpu_model\": \"V100M16|V100M32\", \"tasks\": ["
                       "{\"gpu_milli\": 500, \"cpu_milli\": 250}, {\"gpus\": 0, \"cores\": 2}, {}]}]}";
    assert_pl_ok(pl_jobset_load_json_string(text, 0, &set));
    pl_job *j = pl_jobset_get(set, 0);
    pl_task_demand d;
    assert_pl_ok(pl_job_task(j, 0, &d));
    assert_int_equal(d.gpus, 0);
    assert_int_equal(d.gpu_milli, 500);
    assert_int_equal(d.cpu_milli, 250);
    assert_int_equal(pl_task_cores(&d), 1);
    assert_pl_ok(pl_job_task(j, 2, &d));
    assert_int_equal(d.gpus, 1);
    assert_string_equal(pl_job_gpu_model(j), "V100M16|V100M32");
    pl_job *c;
    assert_pl_ok(pl_job_copy(j, &c));
    assert_string_equal(pl_job_gpu_model(c), "V100M16|V100M32");
    pl_job_free(c);
    pl_jobset_free(set);
    assert_pl_status(pl_jobset_load_json_string("{\"jobs\": [{\"tasks\": [{\"gpu_milli\": 1000}]}]}", 0, &set),
                     PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "$.jobs[0].tasks[0].gpu_milli"));
    assert_pl_status(pl_jobset_load_json_string("{\"jobs\": [{\"gpus\": 1, \"gpu_model\": \"\"}]}", 0, &set),
                     PL_EPARSE);
    pl_task_demand bad = {.gpus = 2, .gpu_milli = 500};
    assert_pl_ok(pl_job_create("b", &j));
    assert_pl_status(pl_job_add_task(j, &bad, NULL), PL_EINVAL);
    pl_job_free(j);
}

/* `placement place` on four Minskys: the pipeline takes 2 GPUs and its CPU
 * task a package of node3 (anti-collocated with task 0 on node0). */
static void test_cli_pipeline(void **state)
{
    (void)state;
    static char out[1 << 16];
    char buf[PL_PATH_MAX], args[PL_PATH_MAX + 64];
    snprintf(args, sizeof args, "place -b minsky --machines 4 --jobs %s", pl_test_data(buf, "jobs/example.json"));
    assert_int_equal(pl_test_run_cli(NULL, args, 0, out, sizeof out), 0);
    const char *row = strstr(out, "\npipeline ");
    assert_non_null(row);
    assert_non_null(strstr(row, "cluster/rack0/node0/package1/gpu2,cluster/rack0/node0/package1/gpu3,"
                                "cpu:cluster/rack0/node3/package0 "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_every_policy),
        cmocka_unit_test(test_fractional_share),
        cmocka_unit_test(test_whole_never_on_shared),
        cmocka_unit_test(test_commit_release_exact),
        cmocka_unit_test(test_gpu_model),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_cli_pipeline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
