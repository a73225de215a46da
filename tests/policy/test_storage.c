/* NVMe storage demands (pl_task_demand's storage_bw, storage_bytes), placed
 * by the engine once for every policy (lib/policy/engine/storage.c).
 *
 * The cluster: two Minsky machines m0, m1 (4 GPUs each) and, added by hand,
 *   nvme0   in m0          2 GB/s, 600 GB   (attached)
 *   pool0   under the root
 *     nvme-a               2 GB/s, 1000 GB
 *     nvme-b               3 GB/s, 1000 GB
 * Expected devices worked out by hand: attached first, then the pool device
 * with the most free bandwidth (nvme-b before nvme-a), the lowest id on a tie. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "policy_fixture.h"
#include <placement/sched.h>

#define GB 1000000000LL

typedef struct {
    pl_topology *t;
    int32_t m[2], att, pa, pb;
} cl;

static int32_t add_storage(pl_topology *t, int32_t parent, const char *name, int64_t bw, int64_t bytes)
{
    int32_t v = -1;
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_STORAGE, parent, name, -1, &v));
    assert_pl_ok(pl_topology_set_capacity(t, v, PL_RES_UNITS, 1));
    assert_pl_ok(pl_topology_set_capacity(t, v, PL_RES_BANDWIDTH, bw));
    assert_pl_ok(pl_topology_set_capacity(t, v, PL_RES_STORAGE, bytes));
    return v;
}

/* m1_full: every GPU of m1 taken, so every policy must use m0. */
static cl make(int m1_full)
{
    cl c;
    c.t = minsky_cluster(2, 2);
    int32_t n = 0, root = -1;
    assert_pl_ok(pl_topology_descendants(c.t, -1, PL_VK_MACHINE, c.m, 2, &n));
    assert_int_equal(n, 2);
    assert_pl_ok(pl_topology_ancestor(c.t, c.m[0], PL_VK_CLUSTER, &root));
    c.att = add_storage(c.t, c.m[0], "nvme0", 2 * GB, 600 * GB);
    int32_t pool = -1;
    assert_pl_ok(pl_topology_add_vertex(c.t, PL_VK_POOL, root, "pool0", -1, &pool));
    c.pa = add_storage(c.t, pool, "nvme-a", 2 * GB, 1000 * GB);
    c.pb = add_storage(c.t, pool, "nvme-b", 3 * GB, 1000 * GB);
    if (m1_full) {
        int32_t g[8], ng = 0;
        assert_pl_ok(pl_topology_descendants(c.t, c.m[1], PL_VK_GPU, g, 8, &ng));
        assert_int_equal(ng, 4);
        for (int32_t i = 0; i < ng; i++)
            assert_pl_ok(pl_topology_alloc(c.t, g[i], PL_RES_UNITS, 1));
    }
    return c;
}

/* A job of one-GPU tasks, task i asking bw[i] B/s and bytes[i] bytes. */
static pl_job *sjob(const char *name, const int64_t *bw, const int64_t *bytes, int32_t k)
{
    pl_job *j;
    assert_pl_ok(pl_job_create(name, &j));
    for (int32_t i = 0; i < k; i++) {
        pl_task_demand d = {.gpus = 1, .cores = 1, .storage_bw = bw[i], .storage_bytes = bytes[i]};
        assert_pl_ok(pl_job_add_task(j, &d, NULL));
    }
    for (int32_t i = 1; i < k; i++)
        assert_pl_ok(pl_job_add_edge(j, 0, i, 1.0));
    assert_pl_ok(pl_job_set_workload(j, "bvlc_alexnet", "1"));
    return j;
}

static int64_t free_of(const pl_topology *t, int32_t v, pl_resource r)
{
    int64_t f = -1;
    assert_pl_ok(pl_topology_amount(t, v, r, NULL, NULL, &f));
    return f;
}

static pl_decision_info get(const pl_decision *d, int32_t i)
{
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, i, &info));
    return info;
}

/* 1 GB/s on the attached device; 1.5 GB/s no longer fits there (1 left):
 * nvme-b, the pool device with the most free bandwidth. Apply takes them. */
static void test_attached_then_pool(void **state)
{
    (void)state;
    cl c = make(1);
    int64_t bw[] = {1 * GB, 3 * GB / 2}, bytes[] = {100 * GB, 200 * GB};
    pl_job *q[1] = {sjob("io", bw, bytes, 2)};
    pl_decision *d = policy_place("topo-aware", c.t, q, 1);
    pl_decision_info info = get(d, 0);
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 2);
    assert_non_null(info.storage);
    assert_int_equal(info.storage[0], c.att);
    assert_int_equal(info.storage[1], c.pb);
    pl_topology *a;
    assert_pl_ok(pl_topology_copy(c.t, &a));
    assert_pl_ok(pl_decision_apply(d, q, 1, a));
    assert_int_equal(free_of(a, c.att, PL_RES_BANDWIDTH), 1 * GB);
    assert_int_equal(free_of(a, c.att, PL_RES_STORAGE), 500 * GB);
    assert_int_equal(free_of(a, c.pb, PL_RES_BANDWIDTH), 3 * GB / 2);
    assert_int_equal(free_of(a, c.pb, PL_RES_STORAGE), 800 * GB);
    assert_int_equal(free_of(a, c.pa, PL_RES_BANDWIDTH), 2 * GB);
    pl_topology_free(a);
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_topology_free(c.t);
}

/* Jobs of one call see each other's devices: 1.2 GB/s three times gives
 * nvme0 (attached), nvme-b (3 free), then nvme-a (2 free against 1.8). A
 * job without storage has storage NULL. */
static void test_queue_counts_earlier_jobs(void **state)
{
    (void)state;
    cl c = make(1);
    int64_t bw[] = {6 * GB / 5}, bytes[] = {GB}, none[] = {0};
    pl_job *q[4] = {sjob("a", bw, bytes, 1), sjob("b", bw, bytes, 1), sjob("plain", none, none, 1),
                    sjob("c", bw, bytes, 1)};
    pl_decision *d = policy_place("topo-aware", c.t, q, 4);
    int32_t want[] = {c.att, c.pb, -1, c.pa};
    for (int32_t i = 0; i < 4; i++) {
        pl_decision_info info = get(d, i);
        assert_int_equal(info.kind, PL_DECISION_PLACED);
        if (want[i] < 0)
            assert_null(info.storage);
        else
            assert_int_equal(info.storage[0], want[i]);
    }
    pl_decision_free(d);
    for (int i = 0; i < 4; i++)
        pl_job_free(q[i]);
    pl_topology_free(c.t);
}

/* 2.5 GB/s fits nvme-b's capacity, but 1 GB/s of it is taken: WAITING,
 * naming the task and the demand. 4 GB/s fits no device: REJECTED. Bytes
 * count too: 1100 GB exceeds every device. */
static void test_waiting_and_rejected(void **state)
{
    (void)state;
    cl c = make(1);
    assert_pl_ok(pl_topology_alloc(c.t, c.pb, PL_RES_BANDWIDTH, 1 * GB));
    int64_t wbw[] = {0, 5 * GB / 2}, wb[] = {0, GB}, rbw[] = {4 * GB}, rb[] = {GB}, bbw[] = {GB},
            bb[] = {1100 * GB};
    pl_job *q[3] = {sjob("wait", wbw, wb, 2), sjob("huge", rbw, rb, 1), sjob("big", bbw, bb, 1)};
    pl_decision *d = policy_place("topo-aware", c.t, q, 3);
    pl_decision_info info = get(d, 0);
    assert_int_equal(info.kind, PL_DECISION_WAITING);
    assert_non_null(strstr(info.reason, "task 1"));
    assert_non_null(strstr(info.reason, "2500000000 B/s"));
    info = get(d, 1);
    assert_int_equal(info.kind, PL_DECISION_REJECTED);
    assert_non_null(strstr(info.reason, "task 0"));
    assert_non_null(strstr(info.reason, "4000000000 B/s"));
    assert_int_equal(get(d, 2).kind, PL_DECISION_REJECTED);
    pl_decision_free(d);
    for (int i = 0; i < 3; i++)
        pl_job_free(q[i]);
    pl_topology_free(c.t);
}

/* Every free amount of every vertex and resource, in a flat array. */
static int64_t *free_all(const pl_topology *t, int32_t *n)
{
    int32_t nv = pl_topology_vertex_count(t);
    int64_t *f = calloc((size_t)nv * 8 + 1, sizeof *f);
    assert_non_null(f);
    for (int32_t v = 0; v < nv; v++)
        for (int r = 0; r < 8; r++)
            if (pl_topology_amount(t, v, (pl_resource)r, NULL, NULL, &f[v * 8 + r]) != PL_OK)
                f[v * 8 + r] = -7;
    *n = nv * 8;
    return f;
}

/* pl_sched: commit takes the storage, release gives back every amount. */
static void test_sched_commit_release(void **state)
{
    (void)state;
    cl c = make(1);
    pl_sched *s;
    assert_pl_ok(pl_sched_create(c.t, &s));
    int32_t n0, n1;
    int64_t *before = free_all(pl_sched_topology(s), &n0);
    int64_t bw[] = {1 * GB, 3 * GB / 2}, bytes[] = {100 * GB, 200 * GB};
    pl_job *q[1] = {sjob("io", bw, bytes, 2)};
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    pl_decision *d = NULL;
    assert_pl_ok(pl_sched_place(s, &o, q, 1, &d));
    assert_int_equal(get(d, 0).kind, PL_DECISION_PLACED);
    assert_pl_ok(pl_sched_commit(s, "io-1", q[0], d, 0));
    const pl_topology *st = pl_sched_topology(s);
    assert_int_equal(free_of(st, c.att, PL_RES_BANDWIDTH), 1 * GB);
    assert_int_equal(free_of(st, c.att, PL_RES_STORAGE), 500 * GB);
    assert_int_equal(free_of(st, c.pb, PL_RES_BANDWIDTH), 3 * GB / 2);
    assert_int_equal(free_of(st, c.pb, PL_RES_STORAGE), 800 * GB);
    assert_pl_ok(pl_sched_release(s, "io-1"));
    int64_t *after = free_all(pl_sched_topology(s), &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, (size_t)n0 * sizeof *before);
    free(before);
    free(after);
    pl_decision_free(d);
    pl_sched_free(s);
    pl_job_free(q[0]);
    pl_topology_free(c.t);
}

/* Every registered policy places a storage job; its device is the attached
 * one when the task is on m0, else a pool device; apply takes it. */
static void test_every_policy(void **state)
{
    (void)state;
    cl c = make(0);
    int64_t bw[] = {1 * GB}, bytes[] = {100 * GB};
    pl_job *q[1] = {sjob("io", bw, bytes, 1)};
    for (int i = 0; i < pl_policy_count(); i++) {
        const char *name = pl_policy_get(i)->name;
        pl_decision *d = policy_place(name, c.t, q, 1);
        pl_decision_info info = get(d, 0);
        if (info.kind != PL_DECISION_PLACED)
            fail_msg("%s: not placed: %s", name, info.reason);
        if (!info.storage)
            fail_msg("%s: no storage device", name);
        int32_t m = machine_vertex(c.t, info.hosts[0]);
        if (m == c.m[0] ? info.storage[0] != c.att : info.storage[0] != c.pb)
            fail_msg("%s: task on machine %d got device %d", name, (int)m, (int)info.storage[0]);
        pl_topology *a;
        assert_pl_ok(pl_topology_copy(c.t, &a));
        assert_pl_ok(pl_decision_apply(d, q, 1, a));
        assert_int_equal(free_of(a, info.storage[0], PL_RES_BANDWIDTH),
                         free_of(c.t, info.storage[0], PL_RES_BANDWIDTH) - 1 * GB);
        pl_topology_free(a);
        pl_decision_free(d);
    }
    pl_job_free(q[0]);
    pl_topology_free(c.t);
}

/* Pools by link distance from the task's machine: "near" (NVMe-oF link of
 * weight 10 to the cluster root) beats "far" (weight 1000) though far's
 * device has more free bandwidth; m0's attached device is too small. */
static void test_nearest_pool(void **state)
{
    (void)state;
    cl c = make(1);
    int32_t root = -1, near = -1, far = -1;
    assert_pl_ok(pl_topology_ancestor(c.t, c.m[0], PL_VK_CLUSTER, &root));
    assert_pl_ok(pl_topology_add_vertex(c.t, PL_VK_POOL, root, "far", -1, &far));
    assert_pl_ok(pl_topology_add_vertex(c.t, PL_VK_POOL, root, "near", -1, &near));
    assert_pl_ok(pl_topology_add_link(c.t, far, root, PL_LK_NVMEOF, 10 * GB, 0, 1000, NULL));
    assert_pl_ok(pl_topology_add_link(c.t, near, root, PL_LK_NVMEOF, 10 * GB, 0, 10, NULL));
    int32_t f = add_storage(c.t, far, "nvme-f", 9 * GB, 1000 * GB);
    int32_t n = add_storage(c.t, near, "nvme-n", 4 * GB, 1000 * GB);
    int64_t bw[] = {7 * GB / 2}, bytes[] = {GB};
    pl_job *q[1] = {sjob("io", bw, bytes, 1)};
    pl_decision *d = policy_place("topo-aware", c.t, q, 1);
    pl_decision_info info = get(d, 0);
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_int_equal(info.storage[0], n);
    assert_int_not_equal(info.storage[0], f);
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_topology_free(c.t);
}

/* A task of 2 GPUs holds one device, named by both its entries, taken once. */
static void test_multi_gpu_task(void **state)
{
    (void)state;
    cl c = make(1);
    pl_job *j;
    assert_pl_ok(pl_job_create("pair", &j));
    pl_task_demand dem = {.gpus = 2, .cores = 1, .storage_bw = 1 * GB, .storage_bytes = 10 * GB};
    assert_pl_ok(pl_job_add_task(j, &dem, NULL));
    pl_job *q[1] = {j};
    pl_decision *d = policy_place("topo-aware", c.t, q, 1);
    pl_decision_info info = get(d, 0);
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 2);
    assert_int_equal(info.storage[0], c.att);
    assert_int_equal(info.storage[1], c.att);
    pl_topology *a;
    assert_pl_ok(pl_topology_copy(c.t, &a));
    assert_pl_ok(pl_decision_apply(d, q, 1, a));
    assert_int_equal(free_of(a, c.att, PL_RES_BANDWIDTH), 1 * GB);
    assert_int_equal(free_of(a, c.att, PL_RES_STORAGE), 590 * GB);
    pl_topology_free(a);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(c.t);
}

/* A policy's pl_decision_info may leave storage unset, as it could the
 * reserved tail the member took a slot of: pl_decision_set() ignores it
 * (a wild pointer here is never read) and the entry has none until the
 * engine's storage pass gives it one. */
static void test_set_ignores_storage(void **state)
{
    (void)state;
    cl c = make(0);
    int64_t bw[] = {1 * GB}, bytes[] = {1 * GB};
    pl_job *q[1] = {sjob("io", bw, bytes, 1)};
    pl_decision *d = policy_place("topo-aware", c.t, q, 1);
    assert_non_null(get(d, 0).storage);
    int32_t gpus[1] = {3};
    pl_decision_info info;
    memset(&info, 0xa5, sizeof info);
    info.kind = PL_DECISION_PLACED;
    info.ngpus = 1;
    info.gpus = gpus;
    info.hosts = NULL;
    info.reason = NULL;
    info.slowdown = 1;
    assert_pl_ok(pl_decision_set(d, 0, &info));
    pl_decision_info got = get(d, 0);
    assert_int_equal(got.gpus[0], 3);
    assert_null(got.storage);
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_topology_free(c.t);
}

/* The JSON keys, and their errors. */
static void test_json(void **state)
{
    (void)state;
    pl_jobset *set;
    const char *text = "{\"jobs\": [{\"name\": \"x\", \"tasks\": ["
                       "{\"storage_bw\": 1000000000, \"storage_bytes\": 600000000000}, {}]}]}";
    assert_pl_ok(pl_jobset_load_json_string(text, 0, &set));
    pl_task_demand d;
    assert_pl_ok(pl_job_task(pl_jobset_get(set, 0), 0, &d));
    assert_int_equal(d.storage_bw, 1000000000LL);
    assert_int_equal(d.storage_bytes, 600000000000LL);
    assert_pl_ok(pl_job_task(pl_jobset_get(set, 0), 1, &d));
    assert_int_equal(d.storage_bw, 0);
    assert_int_equal(d.storage_bytes, 0);
    pl_jobset_free(set);
    assert_pl_status(pl_jobset_load_json_string("{\"jobs\": [{\"tasks\": [{\"storage_bw\": -1}]}]}", 0, &set),
                     PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "$.jobs[0].tasks[0].storage_bw"));
    assert_pl_status(pl_jobset_load_json_string("{\"jobs\": [{\"tasks\": [{\"storage_bytes\": 1.5}]}]}", 0, &set),
                     PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "$.jobs[0].tasks[0].storage_bytes"));
    pl_job *j;
    assert_pl_ok(pl_job_create("neg", &j));
    pl_task_demand bad = {.gpus = 1, .storage_bytes = -1};
    assert_pl_status(pl_job_add_task(j, &bad, NULL), PL_EINVAL);
    pl_job_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attached_then_pool),
        cmocka_unit_test(test_queue_counts_earlier_jobs),
        cmocka_unit_test(test_waiting_and_rejected),
        cmocka_unit_test(test_sched_commit_release),
        cmocka_unit_test(test_every_policy),
        cmocka_unit_test(test_nearest_pool),
        cmocka_unit_test(test_multi_gpu_task),
        cmocka_unit_test(test_set_ignores_storage),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
