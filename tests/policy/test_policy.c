/* The policy registry, options checking, decision sets, apply (all or
 * nothing) and the outcomes every policy shares (rejection, max_placed, the
 * caller's topology left unchanged). */
#include "policy_fixture.h"

static void test_builtin_order(void **s)
{
    (void)s;
    static const char *const names[] = {"topo-aware", "topo-aware-p", "fcfs", "bf",
                                        "pack",       "spread",       "random"};
    assert_true(pl_policy_count() >= 7);
    for (int i = 0; i < 7; i++) {
        const pl_policy_ops *ops = pl_policy_get(i);
        assert_non_null(ops);
        assert_string_equal(ops->name, names[i]);
        assert_non_null(ops->description);
        const pl_policy_ops *found;
        assert_pl_ok(pl_policy_find(names[i], &found));
        assert_ptr_equal(found, ops);
    }
    assert_null(pl_policy_get(-1));
    assert_null(pl_policy_get(pl_policy_count()));
}

static void test_unknown_policy(void **s)
{
    (void)s;
    const pl_policy_ops *ops;
    assert_pl_status(pl_policy_find("nosuch", &ops), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "no policy named \"nosuch\""));
    assert_non_null(strstr(pl_last_error(), "topo-aware, topo-aware-p, fcfs, bf, pack, spread, random"));
    assert_pl_status(pl_policy_find(NULL, &ops), PL_EINVAL);
    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    pl_job *j = mkjob("j", 1, 0, NULL, NULL);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "nosuch";
    pl_decision *d = (pl_decision *)&o;
    assert_pl_status(pl_policy_place(&o, t, NULL, 0, &j, 1, &d), PL_ENOTFOUND);
    assert_null(d);
    pl_job_free(j);
    pl_topology_free(t);
}

static void test_bad_options(void **s)
{
    (void)s;
    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    pl_job *j = mkjob("j", 1, 0, NULL, NULL);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    assert_string_equal(o.policy, "topo-aware");
    assert_true(o.seed == 1);
    pl_decision *d;
    o.utility.alpha_cc = 0.5; /* 0.5 + 1/3 + 1/3 != 1 */
    assert_pl_status(pl_policy_place(&o, t, NULL, 0, &j, 1, &d), PL_EINVAL);
    pl_policy_opts_init(&o);
    pl_job *nulls[1] = {NULL};
    assert_pl_status(pl_policy_place(&o, t, NULL, 0, nulls, 1, &d), PL_EINVAL);
    assert_pl_status(pl_policy_place(&o, t, NULL, 1, &j, 1, &d), PL_EINVAL);
    assert_pl_status(pl_policy_place(&o, NULL, NULL, 0, &j, 1, &d), PL_EINVAL);
    /* A running job must hold GPU vertices. */
    int32_t machine = vx(t, "machine");
    pl_running_job r = {j, &machine, 1};
    assert_pl_status(pl_policy_place(&o, t, &r, 1, &j, 1, &d), PL_EINVAL);
    o.max_placed = -1;
    assert_pl_status(pl_policy_place(&o, t, NULL, 0, &j, 1, &d), PL_EINVAL);
    pl_job_free(j);
    pl_topology_free(t);
}

/* A user policy: every job waits with its own reason. */
static pl_status all_wait(const pl_policy_request *req, pl_decision *out)
{
    for (int32_t i = 0; i < req->nqueue; i++) {
        pl_decision_info info = {0};
        info.kind = PL_DECISION_WAITING;
        info.reason = "user policy says wait";
        pl_status st = pl_decision_set(out, i, &info);
        if (st)
            return st;
    }
    return PL_OK;
}

static const pl_policy_ops waiter = {
    .name = "all-wait",
    .description = "test policy",
    .place = all_wait,
};

static void test_register(void **s)
{
    (void)s;
    int n = pl_policy_count();
    assert_pl_ok(pl_policy_register(&waiter));
    assert_int_equal(pl_policy_count(), n + 1);
    assert_ptr_equal(pl_policy_get(n), &waiter);
    assert_pl_status(pl_policy_register(&waiter), PL_EINVAL);
    static const pl_policy_ops clash = {
    .name = "fcfs",
    .description = "x",
    .place = all_wait,
};
    assert_pl_status(pl_policy_register(&clash), PL_EINVAL);
    static const pl_policy_ops nofn = {
    .name = "nofn",
    .description = "x",
    .place = NULL,
};
    assert_pl_status(pl_policy_register(&nofn), PL_EINVAL);

    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    pl_job *j = mkjob("j", 1, 0, NULL, NULL);
    pl_decision *d = place("all-wait", t, NULL, &j, 1);
    assert_string_equal(dec(d, 0, PL_DECISION_WAITING).reason, "user policy says wait");
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);

    assert_pl_status(pl_policy_unregister("fcfs"), PL_EINVAL);
    assert_pl_ok(pl_policy_unregister("all-wait"));
    assert_pl_status(pl_policy_unregister("all-wait"), PL_ENOTFOUND);
    assert_int_equal(pl_policy_count(), n);
}

static void test_decision_set_get(void **s)
{
    (void)s;
    assert_int_equal(pl_decision_count(NULL), 0);
    pl_decision_free(NULL);
    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    pl_job *q[2] = {mkjob("a", 1, 0, NULL, NULL), mkjob("b", 1, 0, NULL, NULL)};
    pl_decision *d = place("fcfs", t, NULL, q, 2);
    pl_decision_info info;
    assert_pl_status(pl_decision_get(d, 2, &info), PL_EINVAL);
    assert_pl_status(pl_decision_get(d, -1, &info), PL_EINVAL);
    int32_t g = vx(t, "machine/package1/gpu3");
    info = (pl_decision_info){0};
    info.kind = PL_DECISION_PLACED;
    info.ngpus = 1;
    info.gpus = &g;
    info.reason = "ignored when placed";
    assert_pl_ok(pl_decision_set(d, 1, &info));
    g = -7; /* copied, not borrowed */
    pl_decision_info back = dec(d, 1, PL_DECISION_PLACED);
    assert_int_equal(back.gpus[0], vx(t, "machine/package1/gpu3"));
    assert_string_equal(back.reason, "");
    assert_true(back.slowdown == 1.0);
    info.ngpus = 2;
    info.gpus = NULL;
    assert_pl_status(pl_decision_set(d, 0, &info), PL_EINVAL);
    info.kind = (pl_decision_kind)9;
    assert_pl_status(pl_decision_set(d, 0, &info), PL_EINVAL);
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_topology_free(t);
}

static int64_t free_gpus(const pl_topology *t)
{
    int64_t cap, fr;
    assert_pl_ok(pl_topology_subtree_amount(t, vx(t, "machine"), PL_VK_GPU, PL_RES_UNITS, &cap, &fr));
    return fr;
}

/* Place two jobs (the topology stays untouched), apply them (GPUs, cores
 * and memory taken), apply again: the second job's GPUs are taken, so
 * nothing of it nor of the first is allocated twice. */
static void test_apply_all_or_nothing(void **s)
{
    (void)s;
    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    pl_job *q[2] = {mkjob("a", 2, 1, NULL, NULL), mkjob("b", 1, 0, NULL, NULL)};
    pl_task_demand dem = {.gpus = 1, .cores = 3, .memory = 1 << 20, .gpu_memory = 1 << 30};
    assert_pl_ok(pl_job_add_task(q[1], &dem, NULL)); /* b: 2 tasks, the second with cores and memory */
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "fcfs";
    pl_decision *d;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, 2, &d));
    assert_int_equal(free_gpus(t), 4);
    /* fcfs: a -> socket 0 (gpu0, gpu1); b -> socket 1 (gpu2, gpu3). */
    int32_t a[2] = {vx(t, "machine/package0/gpu0"), vx(t, "machine/package0/gpu1")};
    int32_t b[2] = {vx(t, "machine/package1/gpu2"), vx(t, "machine/package1/gpu3")};
    assert_gpus(d, 0, a, 2);
    assert_gpus(d, 1, b, 2);
    assert_pl_ok(pl_decision_apply(d, q, 2, t));
    assert_int_equal(free_gpus(t), 0);
    int64_t alloc;
    assert_pl_ok(pl_topology_amount(t, vx(t, "machine/package1"), PL_RES_CORES, NULL, &alloc, NULL));
    assert_int_equal(alloc, 3);
    assert_pl_ok(pl_topology_amount(t, vx(t, "machine/package1/numa1"), PL_RES_MEMORY, NULL, &alloc, NULL));
    assert_int_equal(alloc, 1 << 20);
    assert_pl_ok(pl_topology_amount(t, b[1], PL_RES_GPU_MEMORY, NULL, &alloc, NULL));
    assert_int_equal(alloc, 1 << 30);
    /* Free a's GPUs only: a would fit again, b not: nothing is allocated. */
    assert_pl_ok(pl_topology_release(t, a[0], PL_RES_UNITS, 1));
    assert_pl_ok(pl_topology_release(t, a[1], PL_RES_UNITS, 1));
    assert_pl_status(pl_decision_apply(d, q, 2, t), PL_EINVAL);
    assert_int_equal(free_gpus(t), 2);
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_topology_free(t);
}

/* Rejections, for every policy: more GPUs than the machine has, a node
 * filter nothing passes, anti-collocation on one machine, no tasks. */
static void test_rejected(void **s)
{
    (void)s;
    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    pl_job *q[4] = {mkjob("five", 5, 1, NULL, NULL), mkjob("filtered", 1, 0, NULL, NULL),
                    mkjob("apart", 2, 1, NULL, NULL), mkjob("empty", 0, 0, NULL, NULL)};
    const char *only[] = {"node7"};
    assert_pl_ok(pl_job_set_node_filter(q[1], only, 1));
    assert_pl_ok(pl_job_add_anti_collocation(q[2], 0, 1));
    for (int p = 0; p < 7; p++) {
        pl_decision *d = place(pl_policy_get(p)->name, t, NULL, q, 4);
        assert_non_null(strstr(dec(d, 0, PL_DECISION_REJECTED).reason, "more GPUs on one machine"));
        assert_non_null(strstr(dec(d, 1, PL_DECISION_REJECTED).reason, "node filter"));
        assert_non_null(strstr(dec(d, 2, PL_DECISION_REJECTED).reason, "SELF_ANTI"));
        assert_non_null(strstr(dec(d, 3, PL_DECISION_REJECTED).reason, "no tasks"));
        pl_decision_free(d);
    }
    /* The filter admits the machine by name: "machine". */
    const char *me[] = {"machine"};
    assert_pl_ok(pl_job_set_node_filter(q[1], me, 1));
    pl_decision *d = place("topo-aware", t, NULL, &q[1], 1);
    dec(d, 0, PL_DECISION_PLACED);
    pl_decision_free(d);
    for (int i = 0; i < 4; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
}

static void test_max_placed(void **s)
{
    (void)s;
    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    pl_job *q[3] = {mkjob("a", 1, 0, NULL, NULL), mkjob("b", 1, 0, NULL, NULL),
                    mkjob("c", 1, 0, NULL, NULL)};
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.max_placed = 2;
    pl_decision *d;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, 3, &d));
    dec(d, 0, PL_DECISION_PLACED);
    dec(d, 1, PL_DECISION_PLACED);
    assert_non_null(strstr(dec(d, 2, PL_DECISION_WAITING).reason, "max_placed"));
    pl_decision_free(d);
    for (int i = 0; i < 3; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_order),
        cmocka_unit_test(test_unknown_policy),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_register),
        cmocka_unit_test(test_decision_set_get),
        cmocka_unit_test(test_apply_all_or_nothing),
        cmocka_unit_test(test_rejected),
        cmocka_unit_test(test_max_placed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
