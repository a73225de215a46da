/* Tasks of k whole GPUs (policy.h: a decision has one entry per slot, the
 * slots of one task consecutive, on one machine, on distinct GPUs), under
 * every registered policy and through pl_sched; hand-computed expectations. */
#include <stdio.h>
#include <stdlib.h>
#include <placement/sched.h>
#include "policy_fixture.h"

/* A job of one task per entry of gpus[] (gpus[i] whole GPUs each), all
 * tasks joined by traffic 1, a run time (some policies need one). */
static pl_job *job_of(const char *name, const int64_t *gpus, int32_t n, int64_t cores)
{
    pl_job *j;
    assert_pl_ok(pl_job_create(name, &j));
    for (int32_t i = 0; i < n; i++) {
        pl_task_demand d = {.gpus = gpus[i], .cores = i == 0 ? cores : 0};
        assert_pl_ok(pl_job_add_task(j, &d, NULL));
    }
    if (n > 1)
        assert_pl_ok(pl_job_add_all_to_all(j, 1));
    assert_pl_ok(pl_job_set_duration(j, 10));
    return j;
}

/* The entries of task t of a job whose tasks ask gpus[] are one machine's
 * distinct GPUs; returns that machine. */
static int32_t task_machine(const pl_topology *t, const pl_decision_info *info, const int64_t *gpus, int32_t task)
{
    int32_t first = 0;
    for (int32_t i = 0; i < task; i++)
        first += (int32_t)gpus[i];
    int32_t m = machine_vertex(t, info->gpus[first]);
    for (int32_t a = first; a < first + gpus[task]; a++) {
        pl_vertex_info vi;
        assert_pl_ok(pl_topology_vertex(t, info->gpus[a], &vi));
        assert_int_equal(vi.kind, PL_VK_GPU);
        assert_int_equal(info->hosts[a], info->gpus[a]);
        assert_int_equal(machine_vertex(t, info->gpus[a]), m);
        for (int32_t b = a + 1; b < first + gpus[task]; b++)
            assert_int_not_equal(info->gpus[a], info->gpus[b]);
    }
    return m;
}

/* Each of gpus[n] has `want` free units. */
static void assert_units_free(const pl_topology *t, const int32_t *gpus, int32_t n, int64_t want)
{
    for (int32_t i = 0; i < n; i++) {
        int64_t fr = -1;
        assert_pl_ok(pl_topology_amount(t, gpus[i], PL_RES_UNITS, NULL, NULL, &fr));
        assert_int_equal(fr, want);
    }
}

/* Two Minsky machines of 4 GPUs; a task of 4 GPUs: one machine, its 4 GPUs. */
static void test_four_gpu_task_topo_aware(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    int64_t g[] = {4};
    pl_job *j = job_of("quad", g, 1, 0);
    pl_decision *d = policy_place("topo-aware", t, &j, 1);
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 4);
    int32_t m = task_machine(t, &info, g, 0);
    /* Node0 wins the tie (the first machine); all of its GPUs are taken. */
    assert_int_equal(m, vx(t, "cluster/rack0/node0"));
    assert_int_equal(info.machine, m);
    int32_t want[4] = {vx(t, "cluster/rack0/node0/package0/gpu0"), vx(t, "cluster/rack0/node0/package0/gpu1"),
                       vx(t, "cluster/rack0/node0/package1/gpu2"), vx(t, "cluster/rack0/node0/package1/gpu3")};
    int seen[4] = {0};
    for (int32_t i = 0; i < 4; i++)
        for (int32_t w = 0; w < 4; w++)
            seen[w] += info.gpus[i] == want[w];
    for (int32_t w = 0; w < 4; w++)
        assert_int_equal(seen[w], 1);
    /* Applying takes 4 units of node0, none of node1. */
    assert_pl_ok(pl_decision_apply(d, &j, 1, t));
    assert_units_free(t, want, 4, 0);
    int32_t other = vx(t, "cluster/rack0/node1/package0/gpu0");
    assert_units_free(t, &other, 1, 1);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

/* A task of 2 GPUs and a task of 1: 3 entries, the first two one task's.
 * topo-aware keeps the pair on one socket (NVLink: the best connected). */
static void test_two_plus_one(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    int64_t g[] = {2, 1};
    pl_job *j = job_of("pair", g, 2, 0);
    pl_decision *d = policy_place("topo-aware", t, &j, 1);
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 3);
    int32_t m0 = task_machine(t, &info, g, 0), m1 = task_machine(t, &info, g, 1);
    assert_int_equal(m0, m1); /* a job is single-node by default */
    assert_int_not_equal(info.gpus[2], info.gpus[0]);
    assert_int_not_equal(info.gpus[2], info.gpus[1]);
    int32_t p0 = -1, p1 = -1;
    assert_pl_ok(pl_topology_ancestor(t, info.gpus[0], PL_VK_PACKAGE, &p0));
    assert_pl_ok(pl_topology_ancestor(t, info.gpus[1], PL_VK_PACKAGE, &p1));
    assert_int_equal(p0, p1);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

/* 5 GPUs in one task, machines of 4: never fits, rejected with a reason. */
static void test_five_gpu_task_rejected(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    int64_t g[] = {5};
    pl_job *j = job_of("five", g, 1, 0);
    for (int i = 0; i < pl_policy_count(); i++) {
        const char *name = pl_policy_get(i)->name;
        pl_decision *d = policy_place(name, t, &j, 1);
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 0, &info));
        if (info.kind == PL_DECISION_PLACED || !info.reason[0])
            fail_msg("%s: a 5-GPU task on 4-GPU machines: kind %d, reason \"%s\"", name, (int)info.kind,
                     info.reason);
        /* A policy of the engine says why in its own words. */
        if (!strcmp(name, "topo-aware")) {
            assert_int_equal(info.kind, PL_DECISION_REJECTED);
            assert_non_null(strstr(info.reason, "on one machine"));
        }
        pl_decision_free(d);
    }
    pl_job_free(j);
    pl_topology_free(t);
}

/* Every registered policy, a job of a 2-GPU and a 1-GPU task and a job of
 * one 4-GPU task, on two machines of 4: each task's entries on one machine,
 * on distinct GPUs; no GPU given twice in the call. */
static void test_every_policy(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    int64_t ga[] = {2, 1}, gb[] = {4};
    pl_job *q[2] = {job_of("pair", ga, 2, 1), job_of("quad", gb, 1, 1)};
    assert_pl_ok(pl_job_set_workload(q[0], "bvlc_alexnet", "1"));
    assert_pl_ok(pl_job_set_workload(q[1], "bvlc_alexnet", "1"));
    int placed = 0;
    for (int i = 0; i < pl_policy_count(); i++) {
        const char *name = pl_policy_get(i)->name;
        pl_decision *d = policy_place(name, t, q, 2);
        int used[64] = {0};
        for (int32_t k = 0; k < 2; k++) {
            pl_decision_info info;
            assert_pl_ok(pl_decision_get(d, k, &info));
            /* DRMaestro's too: its phase 1 counts the GPUs of a task of
             * several (the quad's machine is not offered to the pair). */
            if (info.kind != PL_DECISION_PLACED)
                fail_msg("%s: job %d not placed: %s", name, (int)k, info.reason);
            placed++;
            const int64_t *g = k == 0 ? ga : gb;
            assert_int_equal(info.ngpus, k == 0 ? 3 : 4);
            for (int32_t task = 0; task < (k == 0 ? 2 : 1); task++)
                task_machine(t, &info, g, task);
            for (int32_t e = 0; e < info.ngpus; e++) {
                assert_true(info.gpus[e] >= 0 && info.gpus[e] < 64);
                if (used[info.gpus[e]]++)
                    fail_msg("%s: GPU %d given twice", name, (int)info.gpus[e]);
            }
        }
        /* Everything placed fits: apply on a copy takes it all. */
        pl_topology *c;
        assert_pl_ok(pl_topology_copy(t, &c));
        assert_pl_ok(pl_decision_apply(d, q, 2, c));
        pl_topology_free(c);
        pl_decision_free(d);
    }
    /* Every policy places both (7 GPUs of 8) in this one call. */
    assert_int_equal(placed, 2 * pl_policy_count());
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_topology_free(t);
}

/* Free amounts of every vertex and resource, for comparing. */
static void free_amounts(const pl_topology *t, int64_t *out)
{
    int32_t n = pl_topology_vertex_count(t);
    for (int32_t v = 0; v < n; v++)
        for (int r = 0; r < PL_RES_COUNT; r++) {
            int64_t fr = 0;
            pl_topology_amount(t, v, (pl_resource)r, NULL, NULL, &fr);
            out[v * PL_RES_COUNT + r] = fr;
        }
}

/* Through pl_sched: a 4-GPU task with 8 cores commits 4 units on one
 * machine and its 8 cores on its first GPU's package; release restores
 * every free amount exactly. */
static void test_sched_commit_release(void **state)
{
    (void)state;
    pl_topology *base = minsky_cluster(2, 2);
    pl_sched *s;
    assert_pl_ok(pl_sched_create(base, &s));
    const pl_topology *t = pl_sched_topology(s);
    int32_t nv = pl_topology_vertex_count(t);
    int64_t *before = calloc((size_t)nv * PL_RES_COUNT, sizeof *before);
    int64_t *after = calloc((size_t)nv * PL_RES_COUNT, sizeof *after);
    assert_non_null(before);
    assert_non_null(after);
    free_amounts(t, before);
    int64_t g[] = {4};
    pl_job *j = job_of("quad", g, 1, 8);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    pl_decision *d;
    assert_pl_ok(pl_sched_place(s, &o, &j, 1, &d));
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 4);
    int32_t m = task_machine(t, &info, g, 0);
    assert_pl_ok(pl_sched_commit(s, "quad", j, d, 0));
    pl_sched_job_info ji;
    assert_pl_ok(pl_sched_job(s, "quad", &ji));
    assert_int_equal(ji.ngpus, 4);
    assert_int_equal(ji.machine, m);
    int32_t gpus[4], ng = 0;
    assert_pl_ok(pl_topology_descendants(t, m, PL_VK_GPU, gpus, 4, &ng));
    assert_int_equal(ng, 4);
    assert_units_free(t, gpus, 4, 0);
    /* The 8 cores on the first slot's package, none on the other. */
    int32_t p0 = -1;
    assert_pl_ok(pl_topology_ancestor(t, info.gpus[0], PL_VK_PACKAGE, &p0));
    int64_t cap = 0, used = 0;
    assert_pl_ok(pl_topology_amount(t, p0, PL_RES_CORES, &cap, &used, NULL));
    if (cap > 0)
        assert_int_equal(used, 8);
    /* A second 4-GPU job takes the other machine, then nothing is left. */
    pl_decision *d2;
    assert_pl_ok(pl_sched_place(s, &o, &j, 1, &d2));
    pl_decision_info i2 = dec(d2, 0, PL_DECISION_PLACED);
    assert_int_not_equal(task_machine(t, &i2, g, 0), m);
    assert_pl_ok(pl_sched_commit(s, "quad2", j, d2, 0));
    pl_decision *d3;
    assert_pl_ok(pl_sched_place(s, &o, &j, 1, &d3));
    dec(d3, 0, PL_DECISION_WAITING);
    assert_pl_ok(pl_sched_release(s, "quad2"));
    assert_pl_ok(pl_sched_release(s, "quad"));
    free_amounts(t, after);
    assert_memory_equal(before, after, (size_t)nv * PL_RES_COUNT * sizeof *before);
    /* Committing by GPUs: one per slot; 3 GPUs for a 4-GPU task is refused,
     * and so are 4 GPUs of two machines, or one GPU twice. */
    assert_int_equal(pl_sched_commit_gpus(s, "bygpu", j, gpus, 3), PL_EINVAL);
    int32_t mixed[4] = {gpus[0], gpus[1], gpus[2], vx(t, "cluster/rack0/node1/package0/gpu0")};
    if (m == vx(t, "cluster/rack0/node1"))
        mixed[3] = vx(t, "cluster/rack0/node0/package0/gpu0");
    assert_int_equal(pl_sched_commit_gpus(s, "mixed", j, mixed, 4), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "the 4 GPUs of task 0 are not on one machine"));
    int32_t twice[4] = {gpus[0], gpus[1], gpus[2], gpus[2]};
    assert_int_equal(pl_sched_commit_gpus(s, "twice", j, twice, 4), PL_EINVAL);
    free_amounts(t, after);
    assert_memory_equal(before, after, (size_t)nv * PL_RES_COUNT * sizeof *before);
    assert_pl_ok(pl_sched_commit_gpus(s, "bygpu", j, gpus, 4));
    assert_units_free(t, gpus, 4, 0);
    assert_pl_ok(pl_sched_job(s, "bygpu", &ji));
    assert_int_equal(ji.ngpus, 4);
    assert_int_equal(ji.machine, m);
    assert_pl_ok(pl_sched_release(s, "bygpu"));
    free_amounts(t, after);
    assert_memory_equal(before, after, (size_t)nv * PL_RES_COUNT * sizeof *before);
    pl_decision_free(d);
    pl_decision_free(d2);
    pl_decision_free(d3);
    free(before);
    free(after);
    pl_job_free(j);
    pl_sched_free(s);
    pl_topology_free(base);
}

/* pl_sched_score of a 4-GPU task: each free Minsky machine scores as four
 * 1-GPU tasks all-to-all (its slot job) does; a full machine -1. */
static void test_sched_score(void **state)
{
    (void)state;
    pl_topology *base = minsky_cluster(2, 2);
    pl_sched *s;
    assert_pl_ok(pl_sched_create(base, &s));
    const pl_topology *t = pl_sched_topology(s);
    int32_t ms[2] = {vx(t, "cluster/rack0/node0"), vx(t, "cluster/rack0/node1")};
    int64_t g[] = {4};
    pl_job *j = job_of("quad", g, 1, 0);
    pl_job *four = mkjob("four", 4, 1, NULL, NULL);
    assert_pl_ok(pl_job_set_duration(four, 10));
    double got[2] = {0, 0}, want[2] = {0, 0};
    assert_pl_ok(pl_sched_score(s, NULL, j, ms, 2, got));
    assert_pl_ok(pl_sched_score(s, NULL, four, ms, 2, want));
    assert_true(want[0] > 0);
    assert_true(fabs((got[0]) - (want[0])) <= (1e-12));
    assert_true(fabs((got[1]) - (want[1])) <= (1e-12));
    /* node0 held whole: it scores -1 for the 4-GPU task. */
    int32_t gpus[4], ng = 0;
    assert_pl_ok(pl_topology_descendants(t, ms[0], PL_VK_GPU, gpus, 4, &ng));
    assert_pl_ok(pl_sched_commit_gpus(s, "busy", four, gpus, 4));
    assert_pl_ok(pl_sched_score(s, NULL, j, ms, 2, got));
    assert_true(fabs((got[0]) - (-1)) <= (0));
    assert_true(fabs((got[1]) - (want[1])) <= (1e-12));
    pl_job_free(j);
    pl_job_free(four);
    pl_sched_free(s);
    pl_topology_free(base);
}

/* A multi-node job of two 4-GPU tasks on two 4-GPU machines: each task on
 * a machine of its own (the slots of a task are collocated, the tasks not). */
static void test_multi_node_two_quads(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    int64_t g[] = {4, 4};
    pl_job *j = job_of("two", g, 2, 0);
    assert_pl_ok(pl_job_set_single_node(j, 0));
    pl_decision *d = policy_place("topo-aware", t, &j, 1);
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 8);
    int32_t m0 = task_machine(t, &info, g, 0), m1 = task_machine(t, &info, g, 1);
    assert_int_not_equal(m0, m1);
    assert_int_equal(info.machine, -1);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

/* Firmament's flow sends the slots of a multi-node job to the machines by
 * their free slots, not task by task (its decoder fills the machines in
 * order, slot by slot); split tasks are mended whole onto the machines the
 * flow used, the largest first, best fit. Two 4-GPU tasks on two Minskys
 * are not split: task 0 on node0, task 1 on node1. A 2- and a 4-GPU task
 * are: slots 0-3 on node0, 4-5 on node1, the 4-GPU task split 2 and 2
 * (which left the job waiting round after round before issue 19); mended,
 * the 4-GPU task takes node0 (both machines have 4 free GPUs: the first)
 * and the 2-GPU task node1 (node0 has none left for it). */
static void test_firmament_multi_node(void **state)
{
    (void)state;
    for (int small = 0; small < 2; small++) {
        pl_topology *t = minsky_cluster(2, 2);
        int64_t g[] = {small ? 2 : 4, 4};
        pl_job *j = job_of("two", g, 2, 0);
        assert_pl_ok(pl_job_set_single_node(j, 0));
        pl_decision *d = policy_place("firmament", t, &j, 1);
        pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
        assert_int_equal(info.ngpus, small ? 6 : 8);
        int32_t m0 = task_machine(t, &info, g, 0), m1 = task_machine(t, &info, g, 1);
        assert_int_equal(m0, vx(t, small ? "cluster/rack0/node1" : "cluster/rack0/node0"));
        assert_int_equal(m1, vx(t, small ? "cluster/rack0/node0" : "cluster/rack0/node1"));
        assert_int_equal(info.machine, -1);
        pl_topology *c;
        assert_pl_ok(pl_topology_copy(t, &c));
        assert_pl_ok(pl_decision_apply(d, &j, 1, c));
        assert_units_free(c, info.gpus, info.ngpus, 0);
        pl_topology_free(c);
        pl_decision_free(d);
        pl_job_free(j);
        pl_topology_free(t);
    }
}

/* Firmament's machine slots are tasks of the largest queued demand; the
 * first slot of a 4-GPU task of 8 cores counts a quarter of them (2), so
 * a Minsky of 20 cores has 4 slots, and the task its 4 GPUs. Counted
 * whole, 8 cores made 2 slots and the task waited for ever. */
static void test_firmament_cores_shared(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(1, 1);
    int64_t g[] = {4};
    pl_job *j = job_of("quad", g, 1, 8);
    pl_decision *d = policy_place("firmament", t, &j, 1);
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 4);
    assert_int_equal(task_machine(t, &info, g, 0), vx(t, "cluster/rack0/node0"));
    pl_topology *c;
    assert_pl_ok(pl_topology_copy(t, &c));
    assert_pl_ok(pl_decision_apply(d, &j, 1, c));
    assert_units_free(c, info.gpus, 4, 0);
    pl_topology_free(c);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

/* DRMaestro's variants hold a task of several GPUs on the machine of its
 * cores: a 4-GPU task of 2 cores on two Minskys, node0's gpu0 busy, can
 * only have node1's 4 GPUs (remote GPUs of node0 would split it; the
 * refusal before issue 19 rejected it). */
static void test_drmaestro_quad_local(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    assert_pl_ok(pl_topology_alloc(t, vx(t, "cluster/rack0/node0/package0/gpu0"), PL_RES_UNITS, 1));
    int64_t g[] = {4};
    pl_job *j = job_of("quad", g, 1, 2);
    const char *names[] = {"drmaestro", "drmaestro-na", "drmaestro-local", "drmaestro-na-local"};
    int32_t want[4] = {vx(t, "cluster/rack0/node1/package0/gpu0"), vx(t, "cluster/rack0/node1/package0/gpu1"),
                       vx(t, "cluster/rack0/node1/package1/gpu2"), vx(t, "cluster/rack0/node1/package1/gpu3")};
    for (int p = 0; p < 4; p++) {
        pl_decision *d = policy_place(names[p], t, &j, 1);
        pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
        assert_int_equal(info.ngpus, 4);
        assert_int_equal(task_machine(t, &info, g, 0), vx(t, "cluster/rack0/node1"));
        assert_int_equal(info.machine, vx(t, "cluster/rack0/node1"));
        for (int32_t w = 0; w < 4; w++) {
            int seen = 0;
            for (int32_t e = 0; e < 4; e++)
                seen += info.gpus[e] == want[w];
            assert_int_equal(seen, 1);
        }
        pl_decision_free(d);
    }
    pl_job_free(j);
    pl_topology_free(t);
}

/* tests/data/jobs/multi-gpu.json (`placement place -b minsky --machines 2
 * --jobs ... -p drmaestro`) under DRMaestro's four variants: trainer (one
 * task of 4 GPUs), ps-worker (tasks of 2 and 1 GPUs, one machine: a job is
 * single-node by default), too-big (5 GPUs) on two Minskys of 4 GPUs.
 * Phase 1 homes the trainer on node1 (as it did before phase 1 counted
 * GPUs); node1's 4 GPUs are then promised to it, so ps-worker is refused
 * node1 and both are placed in this one call: ps-worker on node0, its
 * 2-GPU task on the first two free GPUs in preorder (package0's NVLink
 * pair), its 1-GPU task on the next, package1's gpu2. */
static void test_drmaestro_multi_json(void **state)
{
    (void)state;
    char buf[PL_PATH_MAX];
    pl_jobset *set;
    assert_pl_ok(pl_jobset_load_json(pl_test_data(buf, "jobs/multi-gpu.json"), &set));
    assert_int_equal(pl_jobset_count(set), 3);
    pl_job *q[3] = {pl_jobset_get(set, 0), pl_jobset_get(set, 1), pl_jobset_get(set, 2)};
    assert_string_equal(pl_job_name(q[1]), "ps-worker");
    pl_topology *t = minsky_cluster(2, 2);
    const char *names[] = {"drmaestro", "drmaestro-na", "drmaestro-local", "drmaestro-na-local"};
    int32_t trainer[4] = {vx(t, "cluster/rack0/node1/package0/gpu0"), vx(t, "cluster/rack0/node1/package0/gpu1"),
                          vx(t, "cluster/rack0/node1/package1/gpu2"), vx(t, "cluster/rack0/node1/package1/gpu3")};
    int32_t ps[3] = {vx(t, "cluster/rack0/node0/package0/gpu0"), vx(t, "cluster/rack0/node0/package0/gpu1"),
                     vx(t, "cluster/rack0/node0/package1/gpu2")};
    for (int p = 0; p < 4; p++) {
        pl_decision *d = policy_place(names[p], t, q, 3);
        assert_gpus(d, 0, trainer, 4);
        assert_gpus(d, 1, ps, 3);
        assert_int_equal(dec(d, 0, PL_DECISION_PLACED).machine, vx(t, "cluster/rack0/node1"));
        assert_int_equal(dec(d, 1, PL_DECISION_PLACED).machine, vx(t, "cluster/rack0/node0"));
        dec(d, 2, PL_DECISION_REJECTED);
        pl_decision_free(d);
    }
    pl_topology_free(t);
    pl_jobset_free(set);
}

/* A job of one 4-GPU task and two of one 1-GPU task (run time 10 s, no
 * SLO), in one call, on two Minskys of 4 GPUs: phase 1 homes the quad on
 * node0. Without disaggregation, or under NA (a remote GPU would make the
 * ones miss their goal tau = phi: their remote options are withheld), a
 * one-GPU task's GPU is local too, so the machine whose GPUs the quad was
 * promised is refused to the ones, which go to node1's first two GPUs in
 * preorder (package0's); before, NA postponed them and the local variants
 * held them back. Plain DRMaestro gives them the same GPUs. */
static void test_drmaestro_quad_and_ones(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    int64_t g4[] = {4}, g1[] = {1};
    pl_job *q[3] = {job_of("quad", g4, 1, 2), job_of("one", g1, 1, 2), job_of("one2", g1, 1, 2)};
    const char *names[] = {"drmaestro", "drmaestro-na", "drmaestro-local", "drmaestro-na-local"};
    int32_t quad[4] = {vx(t, "cluster/rack0/node0/package0/gpu0"), vx(t, "cluster/rack0/node0/package0/gpu1"),
                       vx(t, "cluster/rack0/node0/package1/gpu2"), vx(t, "cluster/rack0/node0/package1/gpu3")};
    int32_t one[2] = {vx(t, "cluster/rack0/node1/package0/gpu0"), vx(t, "cluster/rack0/node1/package0/gpu1")};
    for (int p = 0; p < 4; p++) {
        pl_decision *d = policy_place(names[p], t, q, 3);
        assert_gpus(d, 0, quad, 4);
        assert_gpus(d, 1, &one[0], 1);
        assert_gpus(d, 2, &one[1], 1);
        pl_decision_free(d);
    }
    for (int i = 0; i < 3; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
}

/* A multi-node job of a 5-GPU and a 1-GPU task: the 5 slots must share a
 * 4-GPU machine, a conflict; the reason, in slot ids, says which are which. */
static void test_reason_names_slots(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    int64_t g[] = {5, 1};
    pl_job *j = job_of("mn", g, 2, 0);
    assert_pl_ok(pl_job_set_single_node(j, 0));
    pl_decision *d = policy_place("topo-aware", t, &j, 1);
    pl_decision_info info = dec(d, 0, PL_DECISION_REJECTED);
    assert_string_equal(info.reason, "constraint conflict TOO_BIG: task 0, task 1, task 2, task 3, task 4 (which "
                                     "must share a machine) need 5 GPUs on one machine, but the largest machine "
                                     "their node constraints allow has 4 (task ids here count a task of k GPUs "
                                     "as k: task 0 is 0-4, task 1 is 5)");
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

/* With the other demands of policy.h: a 2-GPU task of 2.5 cores (3 whole),
 * a CPU-only task, a half GPU. Entries: 2 GPUs of one machine, the CPU-only
 * task's package (gpus -1), a GPU neither whole slot has. Every policy but
 * DRMaestro's (it refuses the fraction) places it. */
static void test_with_other_demands(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *j;
    assert_pl_ok(pl_job_create("mixed", &j));
    pl_task_demand a = {.gpus = 2, .cores = 2, .cpu_milli = 500}, b = {.cores = 1}, c = {.gpu_milli = 500};
    assert_pl_ok(pl_job_add_task(j, &a, NULL));
    assert_pl_ok(pl_job_add_task(j, &b, NULL));
    assert_pl_ok(pl_job_add_task(j, &c, NULL));
    assert_pl_ok(pl_job_add_all_to_all(j, 1));
    assert_pl_ok(pl_job_set_duration(j, 10));
    int64_t g[] = {2, 1, 1};
    for (int i = 0; i < pl_policy_count(); i++) {
        const char *name = pl_policy_get(i)->name;
        pl_decision *d = policy_place(name, t, &j, 1);
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 0, &info));
        if (!strncmp(name, "drmaestro", 9)) {
            assert_int_equal(info.kind, PL_DECISION_REJECTED);
            pl_decision_free(d);
            continue;
        }
        if (info.kind != PL_DECISION_PLACED)
            fail_msg("%s: not placed: %s", name, info.reason);
        assert_int_equal(info.ngpus, 4);
        task_machine(t, &info, g, 0);
        assert_int_equal(info.gpus[2], -1);
        pl_vertex_info vi;
        assert_pl_ok(pl_topology_vertex(t, info.hosts[2], &vi));
        assert_int_equal(vi.kind, PL_VK_PACKAGE);
        assert_true(info.gpus[3] >= 0 && info.gpus[3] != info.gpus[0] && info.gpus[3] != info.gpus[1]);
        /* Applying takes 3 cores for the 2-GPU task (2500 millicores) and
         * 1 for the CPU-only one: 4 of the cluster's cores. */
        pl_topology *cp;
        assert_pl_ok(pl_topology_copy(t, &cp));
        assert_pl_ok(pl_decision_apply(d, &j, 1, cp));
        int32_t pk[16], np = 0;
        int64_t used = 0;
        assert_pl_ok(pl_topology_descendants(cp, -1, PL_VK_PACKAGE, pk, 16, &np));
        for (int32_t p = 0; p < np; p++) {
            int64_t u = 0;
            assert_pl_ok(pl_topology_amount(cp, pk[p], PL_RES_CORES, NULL, &u, NULL));
            used += u;
        }
        assert_int_equal(used, 4);
        pl_topology_free(cp);
        pl_decision_free(d);
    }
    pl_job_free(j);
    pl_topology_free(t);
}

/* A policy outside the library that ignores the slots' collocation: entry
 * e of each job on GPU `stride` * e of the preorder (stride 4: one GPU of
 * each Minsky; stride 0: the first GPU every time). */
static pl_status splitter(const pl_policy_request *req, pl_decision *out, int32_t stride)
{
    int32_t all[64], n = 0;
    pl_status st = pl_topology_descendants(req->topo, -1, PL_VK_GPU, all, 64, &n);
    for (int32_t q = 0; q < req->nqueue && !st; q++) {
        int32_t k = pl_job_task_count(req->queue[q]), g[8];
        for (int32_t e = 0; e < k && e < 8; e++)
            g[e] = all[(stride * e) % n];
        pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = g, .machine = -1, .slowdown = 1};
        st = pl_decision_set(out, q, &info);
    }
    return st;
}
static pl_status split_machines(const pl_policy_request *req, pl_decision *out)
{
    return splitter(req, out, 4);
}
static pl_status same_gpu(const pl_policy_request *req, pl_decision *out)
{
    return splitter(req, out, 0);
}

/* Such a policy's placement of a 2-GPU task is refused with the reason;
 * its placement of two 1-GPU tasks apart is its own business. */
static void test_split_refused(void **state)
{
    (void)state;
    static const pl_policy_ops a = {.name = "test-split", .description = "test", .place = split_machines};
    static const pl_policy_ops b = {.name = "test-same-gpu", .description = "test", .place = same_gpu};
    assert_pl_ok(pl_policy_register(&a));
    assert_pl_ok(pl_policy_register(&b));
    pl_topology *t = minsky_cluster(2, 2);
    int64_t two[] = {2}, ones[] = {1, 1};
    pl_job *q[2] = {job_of("two", two, 1, 0), job_of("ones", ones, 2, 0)};
    assert_pl_ok(pl_job_set_single_node(q[1], 0));
    pl_decision *d = policy_place("test-split", t, q, 2);
    pl_decision_info info = dec(d, 0, PL_DECISION_REJECTED);
    assert_string_equal(info.reason, "policy \"test-split\" cannot place task 0 of 2 GPUs: it splits it over "
                                     "machines (a task's GPUs must be distinct and on one machine)");
    info = dec(d, 1, PL_DECISION_PLACED);
    assert_int_not_equal(machine_vertex(t, info.gpus[0]), machine_vertex(t, info.gpus[1]));
    pl_decision_free(d);
    d = policy_place("test-same-gpu", t, q, 1);
    info = dec(d, 0, PL_DECISION_REJECTED);
    assert_non_null(strstr(info.reason, "gives two of its GPUs one device"));
    pl_decision_free(d);
    assert_pl_ok(pl_policy_unregister("test-split"));
    assert_pl_ok(pl_policy_unregister("test-same-gpu"));
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_gpu_task_topo_aware),
        cmocka_unit_test(test_two_plus_one),
        cmocka_unit_test(test_five_gpu_task_rejected),
        cmocka_unit_test(test_every_policy),
        cmocka_unit_test(test_sched_commit_release),
        cmocka_unit_test(test_sched_score),
        cmocka_unit_test(test_multi_node_two_quads),
        cmocka_unit_test(test_firmament_multi_node),
        cmocka_unit_test(test_firmament_cores_shared),
        cmocka_unit_test(test_drmaestro_quad_local),
        cmocka_unit_test(test_drmaestro_multi_json),
        cmocka_unit_test(test_drmaestro_quad_and_ones),
        cmocka_unit_test(test_split_refused),
        cmocka_unit_test(test_with_other_demands),
        cmocka_unit_test(test_reason_names_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
