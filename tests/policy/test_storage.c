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
#include "internal/policy_impl.h"

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

/* pl_sched over t: `policy` (NULL: the default) places job, commit leaves
 * free_bw[i] and free_bytes[i] on dev[i] (n of them), release gives back
 * every amount of every vertex. */
static void commit_release(const pl_topology *t, const char *policy, pl_job *job, const int32_t *dev,
                           const int64_t *free_bw, const int64_t *free_bytes, int32_t n)
{
    pl_sched *s;
    assert_pl_ok(pl_sched_create(t, &s));
    int32_t n0, n1;
    int64_t *before = free_all(pl_sched_topology(s), &n0);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    pl_decision *d = NULL;
    assert_pl_ok(pl_sched_place(s, &o, &job, 1, &d));
    assert_int_equal(get(d, 0).kind, PL_DECISION_PLACED);
    assert_pl_ok(pl_sched_commit(s, "job-1", job, d, 0));
    for (int32_t i = 0; i < n; i++) {
        assert_int_equal(free_of(pl_sched_topology(s), dev[i], PL_RES_BANDWIDTH), free_bw[i]);
        assert_int_equal(free_of(pl_sched_topology(s), dev[i], PL_RES_STORAGE), free_bytes[i]);
    }
    assert_pl_ok(pl_sched_release(s, "job-1"));
    int64_t *after = free_all(pl_sched_topology(s), &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, (size_t)n0 * sizeof *before);
    free(before);
    free(after);
    pl_decision_free(d);
    pl_sched_free(s);
}

/* pl_sched: commit takes the storage, release gives back every amount. */
static void test_sched_commit_release(void **state)
{
    (void)state;
    cl c = make(1);
    int64_t bw[] = {1 * GB, 3 * GB / 2}, bytes[] = {100 * GB, 200 * GB};
    pl_job *j = sjob("io", bw, bytes, 2);
    int32_t dev[] = {c.att, c.pb};
    int64_t free_bw[] = {1 * GB, 3 * GB / 2}, free_bytes[] = {500 * GB, 800 * GB};
    commit_release(c.t, NULL, j, dev, free_bw, free_bytes, 2);
    pl_job_free(j);
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

/* ---- storage a policy plans itself -------------------------------------------- */

/* Decision i, placed, its first entry's storage device dev. */
static pl_decision_info placed_on(const pl_decision *d, int32_t i, int32_t dev)
{
    pl_decision_info info = get(d, i);
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_non_null(info.storage);
    assert_int_equal(info.storage[0], dev);
    return info;
}

/* A policy spreading storage over a composition, as the NVMe composition
 * rules do: job q on GPU q of the first machine; a job named "composed"
 * also plans each task's storage half on each of the topology's last two
 * storage devices (preorder: nvme-a, nvme-b of make()). */
static pl_status composer(const pl_policy_request *req, pl_decision *out)
{
    int32_t gpus[16], ng = 0, devs[16], nd = 0, m = -1;
    pl_status st = pl_topology_descendants(req->topo, -1, PL_VK_MACHINE, &m, 1, &ng);
    if (st == PL_ELIMIT)
        st = PL_OK;
    if (!st)
        st = pl_topology_descendants(req->topo, m, PL_VK_GPU, gpus, 16, &ng);
    if (!st)
        st = pl_topology_descendants(req->topo, -1, PL_VK_STORAGE, devs, 16, &nd);
    for (int32_t q = 0; q < req->nqueue && !st; q++) {
        const pl_job *job = req->queue[q];
        int32_t g[1] = {gpus[q % ng]};
        pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = 1, .gpus = g, .machine = -1, .slowdown = 1};
        if ((st = pl_decision_set(out, q, &info)) || strcmp(pl_job_name(job), "composed"))
            continue;
        pl_plan_item *items = NULL, *more;
        int32_t n = 0;
        pl_task_demand d;
        if (!(st = pl_plan_build(req->topo, job, g, 1, &items, &n)) && !(st = pl_job_task(job, 0, &d)) &&
            !(more = realloc(items, (size_t)(n + 4) * sizeof *items)))
            st = PL_ENOMEM;
        if (!st) {
            items = more;
            for (int32_t k = 0; k < 2; k++) {
                items[n++] = (pl_plan_item){devs[nd - 2 + k], PL_RES_BANDWIDTH, d.storage_bw / 2};
                items[n++] = (pl_plan_item){devs[nd - 2 + k], PL_RES_STORAGE, d.storage_bytes / 2};
            }
            st = pl_decision_set_plan(out, q, items, n);
        }
        free(items);
    }
    return st;
}

static const pl_policy_ops composer_ops = {.name = "test-composer", .description = "test", .place = composer};

/* A task of 3 GB/s and 1500 GB, more than any one device has, planned by
 * the policy as 1.5 GB/s and 750 GB on nvme-a and on nvme-b: PLACED (not
 * rejected), storage names nvme-a (the plan's first device), the plan kept.
 * The later jobs see what is left: nvme-a 0.5 GB/s and 250 GB, nvme-b
 * 1.5 GB/s and 250 GB (the attached device is busy): 1 GB/s and 300 GB
 * waits (it would get nvme-b on an empty topology), 1 GB/s and 200 GB gets
 * nvme-b. pl_sched commits exactly the planned amounts and release gives
 * them back. */
static void test_policy_planned(void **state)
{
    (void)state;
    assert_pl_ok(pl_policy_register(&composer_ops));
    cl c = make(1);
    assert_pl_ok(pl_topology_alloc(c.t, c.att, PL_RES_BANDWIDTH, 2 * GB));
    int64_t cbw[] = {3 * GB}, cb[] = {1500 * GB}, wbw[] = {GB}, wb[] = {300 * GB}, pbw[] = {GB}, pb[] = {200 * GB},
            none[] = {0};
    pl_job *q[4] = {sjob("composed", cbw, cb, 1), sjob("waits", wbw, wb, 1), sjob("fits", pbw, pb, 1),
                    sjob("plain", none, none, 1)};
    pl_decision *d = policy_place("test-composer", c.t, q, 4);
    assert_int_equal(placed_on(d, 0, c.pa).ngpus, 1);
    pl_decision_info info = get(d, 1);
    assert_int_equal(info.kind, PL_DECISION_WAITING);
    assert_non_null(strstr(info.reason, "free now"));
    placed_on(d, 2, c.pb);
    assert_null(get(d, 3).storage);
    pl_decision_free(d);
    /* The attached device (its bandwidth taken above) is untouched. */
    int32_t dev[] = {c.pa, c.pb, c.att};
    int64_t free_bw[] = {GB / 2, 3 * GB / 2, 0}, free_bytes[] = {250 * GB, 250 * GB, 600 * GB};
    commit_release(c.t, "test-composer", q[0], dev, free_bw, free_bytes, 3);
    for (int i = 0; i < 4; i++)
        pl_job_free(q[i]);
    pl_topology_free(c.t);
    assert_pl_ok(pl_policy_unregister("test-composer"));
}

/* ---- a device only another machine has ----------------------------------------- */

/* By hand: cluster/node0 (8 cores, 4 GPUs, nvme0 of 1 GB/s), cluster/node1
 * (8 cores, 2 GPUs, nvme1 of 4 GB/s), cluster/pool (nvme-p of 2 GB/s); every
 * device 1000 GB. Only nvme1 holds 3 GB/s among the devices a task may use:
 * cluster/loose (9 GB/s) is in no pool and no machine, never given. */
static pl_topology *two_nodes(int32_t *node, int32_t *nvme1)
{
    static const int32_t ngpus[2] = {4, 2};
    static const int64_t bw[2] = {GB, 4 * GB};
    pl_topology *t;
    int32_t root = -1, pool = -1;
    assert_pl_ok(pl_topology_create(&t));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_CLUSTER, -1, "cluster", -1, &root));
    for (int32_t m = 0; m < 2; m++) {
        char name[8];
        int32_t p = -1, g = -1;
        snprintf(name, sizeof name, "node%d", (int)m);
        assert_pl_ok(pl_topology_add_vertex(t, PL_VK_MACHINE, root, name, -1, &node[m]));
        assert_pl_ok(pl_topology_add_link(t, root, node[m], PL_LK_NETWORK, 0, 0, 0, NULL));
        assert_pl_ok(pl_topology_add_vertex(t, PL_VK_PACKAGE, node[m], NULL, 0, &p));
        assert_pl_ok(pl_topology_set_capacity(t, p, PL_RES_CORES, 8));
        assert_pl_ok(pl_topology_add_link(t, node[m], p, PL_LK_BOARD, 0, 0, 0, NULL));
        for (int32_t i = 0; i < ngpus[m]; i++) {
            assert_pl_ok(pl_topology_add_vertex(t, PL_VK_GPU, p, NULL, i, &g));
            assert_pl_ok(pl_topology_set_capacity(t, g, PL_RES_UNITS, 1));
            assert_pl_ok(pl_topology_add_link(t, p, g, PL_LK_PCIE, 0, 0, 0, NULL));
        }
        snprintf(name, sizeof name, "nvme%d", (int)m);
        int32_t v = add_storage(t, node[m], name, bw[m], 1000 * GB);
        if (m == 1)
            *nvme1 = v;
    }
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_POOL, root, "pool", -1, &pool));
    assert_pl_ok(pl_topology_add_link(t, root, pool, PL_LK_NVMEOF, 0, 0, 0, NULL));
    add_storage(t, pool, "nvme-p", 2 * GB, 1000 * GB);
    add_storage(t, root, "loose", 9 * GB, 1000 * GB);
    return t;
}

/* One task of `gpus` GPUs and `cores` cores asking 3 GB/s and 10 GB. */
static pl_job *fast_job(int64_t gpus, int64_t cores)
{
    pl_job *j;
    assert_pl_ok(pl_job_create("fast", &j));
    pl_task_demand d = {.gpus = gpus, .cores = cores, .storage_bw = 3 * GB, .storage_bytes = 10 * GB};
    assert_pl_ok(pl_job_add_task(j, &d, NULL));
    return j;
}

/* node1's GPUs are busy, so the policy puts the task on node0, whose
 * devices and the pool's never hold 3 GB/s: WAITING for a placement on
 * node1, named. With the node filter the reason suggests, it gets nvme1. */
static void test_other_machine_waits(void **state)
{
    (void)state;
    int32_t node[2], nvme1 = -1, g[2], ng = 0;
    pl_topology *t = two_nodes(node, &nvme1);
    assert_pl_ok(pl_topology_descendants(t, node[1], PL_VK_GPU, g, 2, &ng));
    for (int32_t i = 0; i < ng; i++)
        assert_pl_ok(pl_topology_alloc(t, g[i], PL_RES_UNITS, 1));
    pl_job *q[1] = {fast_job(1, 2)};
    pl_decision *d = policy_place("topo-aware", t, q, 1);
    pl_decision_info info = get(d, 0);
    assert_int_equal(info.kind, PL_DECISION_WAITING);
    assert_string_equal(info.reason, "task 0 needs a storage device of 3000000000 B/s and 10000000000 bytes; "
                                     "only devices attached to node1 have that: it waits for a placement there "
                                     "(the policy does not see storage; a node filter naming such a machine "
                                     "sends it there)");
    pl_decision_free(d);
    for (int32_t i = 0; i < ng; i++)
        assert_pl_ok(pl_topology_release(t, g[i], PL_RES_UNITS, 1));
    const char *only[] = {"node1"};
    assert_pl_ok(pl_job_set_node_filter(q[0], only, 1));
    d = policy_place("topo-aware", t, q, 1);
    placed_on(d, 0, nvme1);
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_topology_free(t);
}

/* No machine with such a device could ever hold the task: 4 GPUs (node1
 * has 2), 16 cores (node1 has 8), or a node filter without node1 (while
 * the policy could place it on node0): REJECTED naming node1, under every
 * policy. */
static void test_other_machine_rejected(void **state)
{
    (void)state;
    int32_t node[2], nvme1 = -1;
    pl_topology *t = two_nodes(node, &nvme1);
    const char *only[] = {"node0"};
    pl_job *q[3] = {fast_job(4, 1), fast_job(1, 16), fast_job(1, 2)};
    assert_pl_ok(pl_job_set_node_filter(q[2], only, 1));
    for (int p = 0; p < pl_policy_count(); p++) {
        const char *name = pl_policy_get(p)->name;
        for (int32_t i = 0; i < 3; i++) {
            pl_decision *d = policy_place(name, t, &q[i], 1);
            pl_decision_info info = get(d, 0);
            if (info.kind != PL_DECISION_REJECTED || !strstr(info.reason, "only devices attached to node1 have "
                                                                          "that much, and no such machine could "
                                                                          "ever hold the task"))
                fail_msg("%s, job %d: %d %s", name, (int)i, (int)info.kind, info.reason ? info.reason : "");
            pl_decision_free(d);
        }
    }
    for (int32_t i = 0; i < 3; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
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
        cmocka_unit_test(test_policy_planned),
        cmocka_unit_test(test_other_machine_waits),
        cmocka_unit_test(test_other_machine_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
