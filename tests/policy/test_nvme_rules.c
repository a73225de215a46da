/* The NVMe composition rules as policies (lib/policy/policies/nvme_rules.c),
 * the pieces the simulator's NVMe experiments run on (pl_sim's interval 0,
 * a machine without packages hosting CPU-only tasks, pl_policy_opts.now).
 *
 * The cluster, by hand: machines n0, n1 of 10 cores each (no package), a
 * pool of two devices d0, d1 of 2 GB/s and 600 GB. A SMUFIN-like task asks
 * 6 cores, 1.8 GB/s, 43 GB: first fit composes the fewest free devices that
 * hold it, one, on the first node with the cores. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include <placement/sched.h>
#include <placement/sim.h>
#include "internal/policy_impl.h"
#include "internal/nvme_rules.h"
#include "internal/sched_impl.h"

#define GB 1000000000LL

typedef struct {
    pl_topology *t;
    int32_t n[2], d[2];
} cl;

static cl make(void)
{
    cl c;
    int32_t root = -1, pool = -1;
    assert_pl_ok(pl_topology_create(&c.t));
    assert_pl_ok(pl_topology_add_vertex(c.t, PL_VK_CLUSTER, -1, "cluster", -1, &root));
    for (int i = 0; i < 2; i++) {
        char name[8];
        snprintf(name, sizeof name, "n%d", i);
        assert_pl_ok(pl_topology_add_vertex(c.t, PL_VK_MACHINE, root, name, i, &c.n[i]));
        assert_pl_ok(pl_topology_set_capacity(c.t, c.n[i], PL_RES_CORES, 10));
    }
    assert_pl_ok(pl_topology_add_vertex(c.t, PL_VK_POOL, root, "pool0", 0, &pool));
    for (int i = 0; i < 2; i++) {
        char name[8];
        snprintf(name, sizeof name, "d%d", i);
        assert_pl_ok(pl_topology_add_vertex(c.t, PL_VK_STORAGE, pool, name, i, &c.d[i]));
        assert_pl_ok(pl_topology_set_capacity(c.t, c.d[i], PL_RES_BANDWIDTH, 2 * GB));
        assert_pl_ok(pl_topology_set_capacity(c.t, c.d[i], PL_RES_STORAGE, 600 * GB));
    }
    return c;
}

static pl_job *smufin(const char *name, double arrival)
{
    pl_job *j = NULL;
    pl_task_demand d = {.cores = 6, .storage_bw = 1800000000LL, .storage_bytes = 43 * GB};
    assert_pl_ok(pl_job_create(name, &j));
    assert_pl_ok(pl_job_add_task(j, &d, NULL));
    assert_pl_ok(pl_job_set_workload(j, PL_NVME_TYPE_SMUFIN, "regular"));
    assert_pl_ok(pl_job_set_duration(j, 1600));
    assert_pl_ok(pl_job_set_arrival(j, arrival));
    return j;
}

static int64_t free_of(const pl_topology *t, int32_t v, pl_resource r)
{
    int64_t fr = -1;
    assert_pl_ok(pl_topology_amount(t, v, r, NULL, NULL, &fr));
    return fr;
}

/* A scheduler placing with rule p (no live fabric: the topology's free amounts). */
static pl_sched *sched_with(const pl_topology *t, pl_disagg_policy p, pl_policy_opts *o)
{
    pl_sched *s = NULL;
    pl_policy *inst = NULL;
    assert_pl_ok(pl_sched_create(t, &s));
    pl_policy_opts_init(o);
    o->policy = pl_nvme_rule_ops(p)->name;
    assert_pl_ok(pl_policy_create_ops(pl_nvme_rule_ops(p), o, &inst));
    pl_sched_use_policy(s, inst);
    return s;
}

/* First fit, two jobs in one call and in two calls: d0 then d1, cores on n0;
 * commit takes exactly the plan, release gives it back. */
static void test_first_fit_plan(void **state)
{
    (void)state;
    cl c = make();
    pl_policy_opts o;
    pl_sched *s = sched_with(c.t, PL_DISAGG_FIRST_FIT, &o);
    pl_job *q[2] = {smufin("a", 0), smufin("b", 0)};
    pl_decision *d = NULL;
    assert_pl_ok(pl_sched_place(s, &o, q, 2, &d));
    pl_decision_info info;
    /* a: n0 and d0; b sees a's cores and bandwidth taken: n1 and d1. */
    for (int i = 0; i < 2; i++) {
        assert_pl_ok(pl_decision_get(d, i, &info));
        assert_int_equal(info.kind, PL_DECISION_PLACED);
        assert_int_equal(info.machine, c.n[i]);
        assert_int_equal(info.gpus[0], -1);
        assert_int_equal(info.storage[0], c.d[i]);
    }
    assert_pl_ok(pl_sched_commit(s, "a", q[0], d, 0));
    assert_pl_ok(pl_sched_commit(s, "b", q[1], d, 1));
    const pl_topology *t = pl_sched_topology(s);
    assert_int_equal(free_of(t, c.n[0], PL_RES_CORES), 4);
    assert_int_equal(free_of(t, c.n[1], PL_RES_CORES), 4);
    assert_int_equal(free_of(t, c.d[0], PL_RES_BANDWIDTH), 200000000LL);
    assert_int_equal(free_of(t, c.d[1], PL_RES_BANDWIDTH), 200000000LL);
    assert_int_equal(free_of(t, c.d[0], PL_RES_STORAGE), 557 * GB);
    /* A third waits: no device has 1.8 GB/s free (free view). */
    pl_decision *d2 = NULL;
    pl_job *third = smufin("c", 0);
    assert_pl_ok(pl_sched_place(s, &o, &third, 1, &d2));
    assert_pl_ok(pl_decision_get(d2, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_WAITING);
    assert_non_null(strstr(info.reason, "composition of its NVMe bandwidth"));
    assert_pl_ok(pl_sched_release(s, "a"));
    assert_int_equal(free_of(t, c.d[0], PL_RES_BANDWIDTH), 2 * GB);
    assert_int_equal(free_of(t, c.d[0], PL_RES_STORAGE), 600 * GB);
    pl_decision_free(d);
    pl_decision_free(d2);
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_job_free(third);
    pl_sched_free(s);
    pl_topology_free(c.t);
}

/* What the rules cannot place is rejected with the reason; the live mode
 * fills the choices the fabric's owner applies. */
static void test_rejects_and_choices(void **state)
{
    (void)state;
    cl c = make();
    pl_job *gpu = NULL, *two = NULL, *ok = smufin("ok", 0);
    pl_task_demand g = {.gpus = 1, .cores = 1}, cpu = {.cores = 1};
    assert_pl_ok(pl_job_create("gpu", &gpu));
    assert_pl_ok(pl_job_add_task(gpu, &g, NULL));
    assert_pl_ok(pl_job_set_duration(gpu, 10));
    assert_pl_ok(pl_job_create("two", &two));
    assert_pl_ok(pl_job_add_task(two, &cpu, NULL));
    assert_pl_ok(pl_job_add_task(two, &cpu, NULL));
    pl_disagg_cluster *live = NULL;
    assert_pl_ok(pl_disagg_cluster_from_topology(c.t, &live));
    pl_nvme_choice ch[3];
    pl_nvme_rule_opts ro;
    pl_nvme_rule_opts_init(&ro);
    ro.live = live;
    ro.choices = ch;
    ro.cap = 3;
    pl_policy_opts o;
    pl_sched *s = sched_with(c.t, PL_DISAGG_MAX_COMPOSITION, &o);
    o.policy_opts = &ro;
    o.now = 100;
    pl_job *q[3] = {gpu, two, ok};
    pl_decision *d = NULL;
    assert_pl_ok(pl_sched_place(s, &o, q, 3, &d));
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_REJECTED);
    assert_non_null(strstr(info.reason, "not whole GPUs"));
    assert_pl_ok(pl_decision_get(d, 1, &info));
    assert_int_equal(info.kind, PL_DECISION_REJECTED);
    assert_non_null(strstr(info.reason, "one task"));
    assert_false(ch[0].placed || ch[1].placed);
    /* Max composition composes both free devices for the bandwidth-bound
     * job (the shortest predicted run); the plan splits it evenly. */
    assert_pl_ok(pl_decision_get(d, 2, &info));
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_true(ch[2].placed);
    assert_int_equal(ch[2].d.n_new_devices, 2);
    assert_true(ch[2].w.model == PL_DISAGG_MODEL_SMUFIN && ch[2].w.arrival_s == 0 && isinf(ch[2].w.deadline_s));
    assert_pl_ok(pl_sched_commit(s, "ok", ok, d, 2));
    const pl_topology *t = pl_sched_topology(s);
    assert_int_equal(free_of(t, c.d[0], PL_RES_BANDWIDTH), 1100000000LL);
    assert_int_equal(free_of(t, c.d[1], PL_RES_BANDWIDTH), 1100000000LL);
    /* The live fabric itself is the caller's: unchanged by the call. */
    int32_t id = -1;
    assert_int_equal(pl_disagg_placement(live, 0, NULL, NULL, NULL, NULL, NULL), PL_EINVAL);
    (void)id;
    /* The rules' storage bit is the library's: a registered policy may not set it. */
    pl_policy_ops mine = *pl_nvme_rule_ops(PL_DISAGG_FIRST_FIT);
    mine.name = "test-nvme-copy";
    assert_int_equal(pl_policy_register(&mine), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "PL_POLICY_CPU_JOBS"));
    mine.flags = PL_POLICY_CPU_JOBS;
    assert_pl_ok(pl_policy_register(&mine));
    assert_pl_ok(pl_policy_unregister("test-nvme-copy"));
    /* Too few choices for the queue, a foreign options struct, a bad clock. */
    ro.cap = 2;
    pl_decision *bad = NULL;
    assert_int_equal(pl_sched_place(s, &o, q, 3, &bad), PL_EINVAL);
    ro.cap = 3;
    o.now = NAN;
    assert_int_equal(pl_sched_place(s, &o, q, 3, &bad), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "now"));
    pl_decision_free(d);
    pl_disagg_cluster_free(live);
    pl_sched_free(s);
    pl_job_free(gpu);
    pl_job_free(two);
    pl_job_free(ok);
    pl_topology_free(c.t);
}

/* A demand no single device holds waits for a composition of two (the
 * engine's storage pass, which would reject it, leaves the rules alone). */
static void test_composed_demand_waits(void **state)
{
    (void)state;
    cl c = make();
    pl_policy_opts o;
    pl_sched *s = sched_with(c.t, PL_DISAGG_FIRST_FIT, &o);
    pl_job *a = smufin("a", 0), *big = NULL;
    pl_task_demand d = {.cores = 2, .storage_bw = 3 * GB, .storage_bytes = 100 * GB};
    assert_pl_ok(pl_job_create("big", &big));
    assert_pl_ok(pl_job_add_task(big, &d, NULL));
    assert_pl_ok(pl_job_set_duration(big, 100));
    pl_decision *da = NULL, *db = NULL;
    assert_pl_ok(pl_sched_place(s, &o, &a, 1, &da));
    assert_pl_ok(pl_sched_commit(s, "a", a, da, 0));
    assert_pl_ok(pl_sched_place(s, &o, &big, 1, &db));
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(db, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_WAITING);
    pl_decision_free(db);
    /* Once a is gone, both devices compose: 1.5 GB/s and 50 GB on each. */
    assert_pl_ok(pl_sched_release(s, "a"));
    assert_pl_ok(pl_sched_place(s, &o, &big, 1, &db));
    assert_pl_ok(pl_decision_get(db, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_pl_ok(pl_sched_commit(s, "big", big, db, 0));
    for (int i = 0; i < 2; i++) {
        assert_int_equal(free_of(pl_sched_topology(s), c.d[i], PL_RES_BANDWIDTH), GB / 2);
        assert_int_equal(free_of(pl_sched_topology(s), c.d[i], PL_RES_STORAGE), 550 * GB);
    }
    pl_decision_free(da);
    pl_decision_free(db);
    pl_job_free(a);
    pl_job_free(big);
    pl_sched_free(s);
    pl_topology_free(c.t);
}

/* A copy is deep: what is applied to it leaves the original as it was. */
static void test_cluster_copy(void **state)
{
    (void)state;
    cl c = make();
    pl_disagg_cluster *a = NULL, *b = NULL;
    assert_pl_ok(pl_disagg_cluster_from_topology(c.t, &a));
    assert_pl_ok(pl_disagg_cluster_copy(a, &b));
    pl_disagg_workload w;
    pl_disagg_decision d;
    assert_pl_ok(pl_disagg_workload_preset(PL_DISAGG_BANDWIDTH_BOUND, 0, 0, &w));
    assert_pl_ok(pl_disagg_first_fit(b, &w, 0, &d));
    assert_true(d.placed);
    int32_t id = -1;
    assert_pl_ok(pl_disagg_apply(b, &w, &d, 0, &id));
    double bw = 0, cap = 0;
    pl_disagg_running_demand(b, &bw, &cap);
    assert_true(bw == 1.8e9);
    bw = 0;
    pl_disagg_running_demand(a, &bw, &cap);
    assert_true(bw == 0);
    pl_disagg_decision again;
    assert_pl_ok(pl_disagg_first_fit(a, &w, 0, &again));
    assert_memory_equal(&again.new_devices, &d.new_devices, sizeof d.new_devices);
    pl_disagg_cluster_free(a);
    pl_disagg_cluster_free(b);
    pl_topology_free(c.t);
}

/* A machine without packages hosts its CPU-only tasks; one with packages
 * does not (the task's host is its package). */
static void test_machine_host(void **state)
{
    (void)state;
    cl c = make();
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c.t, &s));
    pl_job *j = NULL;
    pl_task_demand cpu = {.cores = 2};
    assert_pl_ok(pl_job_create("j", &j));
    assert_pl_ok(pl_job_add_task(j, &cpu, NULL));
    int32_t host = c.n[1];
    assert_pl_ok(pl_sched_commit_hosts(s, "j", j, &host, 1));
    assert_int_equal(free_of(pl_sched_topology(s), c.n[1], PL_RES_CORES), 8);
    int32_t pkg = -1;
    pl_sched *s2 = NULL;
    assert_pl_ok(pl_topology_add_vertex(c.t, PL_VK_PACKAGE, c.n[0], "p0", 0, &pkg));
    assert_pl_ok(pl_sched_create(c.t, &s2));
    host = c.n[0];
    assert_int_equal(pl_sched_commit_hosts(s2, "j", j, &host, 1), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "not a package"));
    pl_sched_free(s);
    pl_sched_free(s2);
    pl_job_free(j);
    pl_topology_free(c.t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_fit_plan),
        cmocka_unit_test(test_rejects_and_choices),
        cmocka_unit_test(test_composed_demand_waits),
        cmocka_unit_test(test_cluster_copy),
        cmocka_unit_test(test_machine_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
