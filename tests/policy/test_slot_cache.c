/* Slot jobs kept across the calls of one policy instance
 * (lib/policy/engine/slot_cache.c, keep.c) and DRMaestro's regrouped jobs
 * kept with them: made once while a job waits unchanged, made again when
 * it changed, dropped when it left the queue, and the decisions the same
 * as with slot jobs made anew in every call. */
#include <stdio.h>
#include <stdlib.h>
#include <placement/sched.h>
#include "internal/policy_impl.h"
#include "internal/job_slots.h"
#include "internal/sched_impl.h"
#include "policy_fixture.h"

/* ---- pl_keep ------------------------------------------------------------------------------ */

static int freed[8];

static void count_free(void *aux)
{
    freed[(int *)aux - freed]++;
}

static pl_job *named(const char *name)
{
    pl_job *j;
    assert_pl_ok(pl_job_create(name, &j));
    return j;
}

/* An entry lives while each call finds it; what a call replaces lives to
 * the end of that call; an entry a call does not find goes at its end. */
static void test_keep(void **state)
{
    (void)state;
    memset(freed, 0, sizeof freed);
    pl_keep k = {.free_aux = count_free};
    pl_keep_entry *e;
    assert_pl_ok(pl_keep_find(&k, 10, &e));
    assert_null(e->job);
    assert_pl_ok(pl_keep_set(&k, e, named("a"), &freed[0]));
    assert_pl_ok(pl_keep_find(&k, 20, &e));
    assert_pl_ok(pl_keep_set(&k, e, named("b"), &freed[1]));
    pl_keep_end(&k);
    /* Call 2: 10 found and replaced, 20 not found. */
    assert_pl_ok(pl_keep_find(&k, 10, &e));
    assert_string_equal(pl_job_name(e->job), "a");
    assert_ptr_equal(e->aux, &freed[0]);
    pl_job *a = e->job;
    assert_pl_ok(pl_keep_set(&k, e, named("c"), &freed[2]));
    assert_int_equal(freed[0], 0);
    assert_string_equal(pl_job_name(a), "a"); /* still this call's */
    pl_keep_end(&k);
    assert_int_equal(freed[0], 1);
    assert_int_equal(freed[1], 1);
    assert_int_equal(freed[2], 0);
    /* Call 3: 10 is still there (the table compacted), 20 is new again. */
    assert_pl_ok(pl_keep_find(&k, 20, &e));
    assert_null(e->job);
    assert_pl_ok(pl_keep_find(&k, 10, &e));
    assert_string_equal(pl_job_name(e->job), "c");
    pl_keep_end(&k); /* 20 kept nothing */
    pl_keep_free(&k);
    assert_int_equal(freed[2], 1);
    assert_int_equal(freed[0] + freed[1] + freed[2], 3);
}

/* ---- pl_job_same_slots ------------------------------------------------------------------- */

static pl_job *rich_job(void)
{
    pl_job *j;
    assert_pl_ok(pl_job_create("rich", &j));
    pl_task_demand a = {.gpus = 2, .cores = 2}, b = {.gpus = 1, .cores = 1};
    assert_pl_ok(pl_job_add_task(j, &a, NULL));
    assert_pl_ok(pl_job_add_task(j, &b, NULL));
    assert_pl_ok(pl_job_add_task(j, &b, NULL));
    assert_pl_ok(pl_job_add_edge(j, 0, 1, 2));
    assert_pl_ok(pl_job_add_node_must(j, 0, "zone", "a"));
    assert_pl_ok(pl_job_add_anti_collocation(j, 1, 2));
    assert_pl_ok(pl_job_add_label(j, "web"));
    assert_pl_ok(pl_job_set_workload(j, "bvlc_alexnet", "1"));
    assert_pl_ok(pl_job_set_slo(j, 50));
    return j;
}

/* A copy is the same; a change to anything the slot job is made of is
 * seen, one field at a time. */
static void test_same_slots(void **state)
{
    (void)state;
    pl_job *j = rich_job(), *c;
    const char *filter[] = {"node0"};
    for (int change = 0; change <= 13; change++) {
        assert_pl_ok(pl_job_copy(j, &c));
        assert_true(pl_job_same_slots(j, c));
        pl_task_demand d = {.gpus = 1, .cores = 1};
        switch (change) {
        case 0: assert_pl_ok(pl_job_add_task(c, &d, NULL)); break;
        case 1: assert_pl_ok(pl_job_add_edge(c, 0, 1, 1)); break; /* traffic 2 -> 3 */
        case 2: assert_pl_ok(pl_job_add_node_must(c, 1, "zone", "a")); break;
        case 3: assert_pl_ok(pl_job_add_anti_collocation(c, 0, 1)); break;
        case 4: assert_pl_ok(pl_job_add_collocation(c, 0, 2)); break;
        case 5: assert_pl_ok(pl_job_add_label(c, "db")); break;
        case 6: assert_pl_ok(pl_job_add_anti_affinity(c, "db")); break;
        case 7: assert_pl_ok(pl_job_set_node_filter(c, filter, 1)); break;
        case 8: assert_pl_ok(pl_job_set_workload(c, "bvlc_alexnet", "4")); break;
        case 9: assert_pl_ok(pl_job_set_gpu_model(c, "P100")); break;
        case 10: assert_pl_ok(pl_job_set_slo(c, 60)); break;
        case 11: assert_pl_ok(pl_job_set_min_utility(c, 0.5)); break;
        case 12: assert_pl_ok(pl_job_set_arrival(c, 7)); break;
        case 13: assert_pl_ok(pl_job_set_single_node(c, 0)); break;
        }
        if (pl_job_same_slots(j, c))
            fail_msg("change %d not seen", change);
        pl_job_free(c);
    }
    pl_job_free(j);
}

/* ---- the engine's cache, seen from a policy ------------------------------------------------ */

typedef struct seen {
    const pl_job *job[4];   /* valid after the call only while the engine keeps it */
    int64_t serial[4];
    int is_slot[4];
    int32_t n;
} seen;
static seen last;

static pl_status record(const pl_policy_request *req, pl_decision *out)
{
    (void)out;
    last.n = req->nqueue;
    for (int32_t i = 0; i < req->nqueue && i < 4; i++) {
        last.job[i] = req->queue[i];
        last.serial[i] = pl_job_slot_serial(req->queue[i]);
        last.is_slot[i] = pl_job_is_slot_job(req->queue[i]);
    }
    return PL_OK;
}

static const pl_policy_ops recorder = {.name = "test-record", .description = "test", .place = record};

static void decide(pl_policy *p, const pl_topology *t, pl_job *const *q, int32_t n)
{
    pl_decision *d = NULL;
    assert_pl_ok(pl_policy_decide(p, NULL, t, NULL, 0, q, n, &d));
    pl_decision_free(d);
}

/* An instance of policy, its slot jobs made anew in every call (fresh) or kept. */
static pl_policy *instance_of(const char *policy, int fresh)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    pl_policy *p;
    assert_pl_ok(pl_policy_create(&o, &p));
    pl_policy_fresh_slots(p, fresh);
    return p;
}

static pl_job *quad(const char *name)
{
    pl_job *j;
    assert_pl_ok(pl_job_create(name, &j));
    pl_task_demand d = {.gpus = 4, .cores = 2};
    assert_pl_ok(pl_job_add_task(j, &d, NULL));
    return j;
}

/* The policy sees one slot job while the job waits unchanged, a new one
 * (new serial, the change in it) after the job changed, a new one after
 * a call without the job; a job of one-GPU tasks as itself. */
static void test_engine_keeps(void **state)
{
    (void)state;
    assert_pl_ok(pl_policy_register(&recorder));
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *q[2] = {quad("a"), mkjob("b", 2, 1, NULL, NULL)};
    pl_policy *p = instance_of("test-record", 0);
    decide(p, t, q, 2);
    const pl_job *first = last.job[0];
    int64_t serial = last.serial[0];
    assert_true(pl_job_is_slot_job(first));
    assert_ptr_equal(pl_job_slot_origin(first), q[0]);
    assert_true(serial > 0);
    assert_ptr_equal(last.job[1], q[1]);
    assert_int_equal(last.serial[1], 0);
    decide(p, t, q, 2);
    decide(p, t, q, 2);
    assert_ptr_equal(last.job[0], first);
    assert_int_equal(last.serial[0], serial);
    /* Changed: a new slot job with the change. */
    assert_pl_ok(pl_job_set_slo(q[0], 42));
    decide(p, t, q, 2);
    assert_true(last.serial[0] > serial);
    assert_true(pl_job_slo(last.job[0]) == 42);
    serial = last.serial[0];
    /* A call without it drops it: the next one makes it again. */
    decide(p, t, q + 1, 1);
    decide(p, t, q, 2);
    assert_true(last.serial[0] > serial);
    /* A job freed and another made (maybe at its address): never the old slot job. */
    serial = last.serial[0];
    pl_job_free(q[0]);
    q[0] = quad("c");
    decide(p, t, q, 2);
    assert_true(last.serial[0] > serial);
    assert_string_equal(pl_job_name(last.job[0]), "c");
    /* Fresh: a slot job for one call, serial 0. */
    pl_policy_fresh_slots(p, 1);
    decide(p, t, q, 2);
    assert_true(last.is_slot[0]); /* freed by now */
    assert_int_equal(last.serial[0], 0);
    pl_policy_free(p);
    assert_pl_ok(pl_policy_unregister("test-record"));
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_topology_free(t);
}

/* ---- kept and fresh decide alike ------------------------------------------------------------ */

/* Jobs of several shapes (a stale slot or regrouped job of another shape
 * would change the decisions), `rounds` rounds of a pl_sched: placed jobs
 * committed and held two rounds, the queue refilled. Returns a checksum of
 * every decision (kind, GPUs). */
static uint64_t rounds_of(const char *policy, int fresh, int rounds)
{
    static const int64_t shapes[][3] = {{4, 0, 0}, {2, 1, 0}, {3, 0, 0}, {1, 1, 2}, {2, 2, 0}};
    pl_topology *t = minsky_cluster(3, 3);
    pl_sched *s;
    assert_pl_ok(pl_sched_create(t, &s));
    pl_sched_use_policy(s, instance_of(policy, fresh));
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    enum { QUEUED = 12, MAXJOBS = 12 + 12 * 10 };
    pl_job *q[QUEUED], *all[MAXJOBS];
    int until[MAXJOBS], nq = 0, made = 0;
    uint64_t sum = 1469598103934665603ull;
    assert_true(rounds <= 10);
    for (int r = 0; r < rounds; r++) {
        while (nq < QUEUED) {
            char name[16];
            snprintf(name, sizeof name, "j%d", made);
            const int64_t *g = shapes[made % 5];
            pl_job *j;
            assert_pl_ok(pl_job_create(name, &j));
            for (int k = 0; k < 3 && g[k]; k++) {
                pl_task_demand d = {.gpus = g[k], .cores = 2, .memory = 1LL << 30};
                assert_pl_ok(pl_job_add_task(j, &d, NULL));
            }
            if (g[1])
                assert_pl_ok(pl_job_add_all_to_all(j, 1));
            assert_pl_ok(pl_job_set_workload(j, made % 2 ? "bvlc_alexnet" : "bvlc_googlenet", "1"));
            assert_pl_ok(pl_job_set_duration(j, 30));
            until[made] = -1;
            all[made++] = j;
            q[nq++] = j;
        }
        pl_decision *d;
        assert_pl_ok(pl_sched_place(s, &o, q, nq, &d));
        int kept = 0;
        for (int i = 0; i < nq; i++) {
            pl_decision_info info;
            assert_pl_ok(pl_decision_get(d, i, &info));
            sum = (sum ^ (uint64_t)(info.kind + 8 * i)) * 1099511628211ull;
            for (int32_t g = 0; g < info.ngpus; g++)
                sum = (sum ^ (uint64_t)info.gpus[g]) * 1099511628211ull;
            if (info.kind != PL_DECISION_PLACED) {
                q[kept++] = q[i];
                continue;
            }
            assert_pl_ok(pl_sched_commit(s, pl_job_name(q[i]), q[i], d, i));
            for (int k = 0; k < made; k++)
                if (all[k] == q[i])
                    until[k] = r + 2;
        }
        nq = kept;
        pl_decision_free(d);
        for (int k = 0; k < made; k++)
            if (until[k] == r)
                assert_pl_ok(pl_sched_release(s, pl_job_name(all[k])));
    }
    /* Jobs are freed only now: drmaestro numbers jobs by address. */
    for (int k = 0; k < made; k++)
        pl_job_free(all[k]);
    pl_sched_free(s);
    pl_topology_free(t);
    return sum;
}

static void test_kept_and_fresh_decide_alike(void **state)
{
    (void)state;
    const char *names[] = {"topo-aware", "fcfs", "drmaestro", "drmaestro-na-local", "gpu-qos"};
    for (int i = 0; i < 5; i++) {
        uint64_t kept = rounds_of(names[i], 0, 8), fresh = rounds_of(names[i], 1, 8);
        if (kept != fresh)
            fail_msg("%s: kept and fresh slot jobs decide differently", names[i]);
    }
}

/* ---- reasons ------------------------------------------------------------------------------- */

/* A reason naming no task gets no key, even for a slot job: 4 GPUs of one
 * machine wanted, two machines with 3 free GPUs each (one of each taken),
 * so it waits; "needs more GPUs on one machine" for 5. */
static void test_reason_without_task_ids(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    assert_pl_ok(pl_topology_alloc(t, vx(t, "cluster/rack0/node0/package0/gpu0"), PL_RES_UNITS, 1));
    assert_pl_ok(pl_topology_alloc(t, vx(t, "cluster/rack0/node1/package0/gpu0"), PL_RES_UNITS, 1));
    pl_job *q[2] = {quad("four"), NULL};
    assert_pl_ok(pl_job_create("five", &q[1]));
    pl_task_demand five = {.gpus = 5};
    assert_pl_ok(pl_job_add_task(q[1], &five, NULL));
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    pl_decision *d;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, 2, &d));
    pl_decision_info info = dec(d, 0, PL_DECISION_WAITING);
    assert_null(strstr(info.reason, "task ids"));
    info = dec(d, 1, PL_DECISION_REJECTED);
    assert_string_equal(info.reason, "needs more GPUs on one machine than any admissible machine has");
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_topology_free(t);
}

/* DRMaestro writes its own constraint refusals: a multi-node job of a
 * 5-GPU and a 1-GPU task, whose 5 slots must share a machine of 4, gets
 * the key there too. */
static void test_drmaestro_reason_names_slots(void **state)
{
    (void)state;
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *j;
    assert_pl_ok(pl_job_create("mn", &j));
    pl_task_demand a = {.gpus = 5, .cores = 1}, b = {.gpus = 1, .cores = 1};
    assert_pl_ok(pl_job_add_task(j, &a, NULL));
    assert_pl_ok(pl_job_add_task(j, &b, NULL));
    assert_pl_ok(pl_job_set_single_node(j, 0));
    assert_pl_ok(pl_job_set_duration(j, 10));
    pl_decision *d = policy_place("drmaestro", t, &j, 1);
    pl_decision_info info = dec(d, 0, PL_DECISION_REJECTED);
    const char *key = "(task ids here count a task of k GPUs as k: task 0 is 0-4, task 1 is 5)";
    assert_non_null(strstr(info.reason, "TOO_BIG"));
    assert_string_equal(info.reason + strlen(info.reason) - strlen(key), key);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keep),
        cmocka_unit_test(test_same_slots),
        cmocka_unit_test(test_engine_keeps),
        cmocka_unit_test(test_kept_and_fresh_decide_alike),
        cmocka_unit_test(test_reason_without_task_ids),
        cmocka_unit_test(test_drmaestro_reason_names_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
