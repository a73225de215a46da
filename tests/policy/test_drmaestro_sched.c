/* DRMaestro through pl_sched, round after round, as a live scheduler uses
 * it: a job's waiting counter W belongs to that job, not to its address
 * (the caller frees jobs and makes new ones, which malloc may put where an
 * old one was), and a committed job of a 4-GPU task is seen running as one
 * task of 4 local GPUs, kept in DRMaestro's networks while it runs. */
#include "policy_fixture.h"
#include "internal/policy_impl.h"
#include "internal/sched_impl.h"

static const char *const policies[] = {"drmaestro", "drmaestro-na", "drmaestro-local", "drmaestro-na-local"};

/* Runs of the tests on a freed job's twin, each policy in turn: whether
 * malloc gives the twin the freed job's address varies from one run to
 * the next (about half of them here, with glibc), so enough runs that a
 * policy keyed by addresses fails one of them. */
#define TWIN_RUNS 24

/* One round: whether each job of q was placed. */
static pl_decision *round_of(pl_sched *s, const char *policy, pl_job **q, int32_t n, int *placed)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    pl_decision *d = NULL;
    assert_pl_ok(pl_sched_place(s, &o, q, n, &d));
    for (int32_t i = 0; i < n; i++) {
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, i, &info));
        placed[i] = info.kind == PL_DECISION_PLACED;
    }
    return d;
}

/* One Minsky (4 GPUs) in a pl_sched whose GPUs foreign jobs f0..f3 hold,
 * one each, where q[0] = a waited three rounds (W = 3) and q[1] = c,
 * queued beside it in the last, one (W = 1). */
static pl_sched *waited(const char *policy, pl_job **q)
{
    pl_topology *m = minsky();
    pl_sched *s;
    assert_pl_ok(pl_sched_create(m, &s));
    pl_topology_free(m);
    int32_t g[4], n = 0;
    assert_pl_ok(pl_topology_descendants(pl_sched_topology(s), -1, PL_VK_GPU, g, 4, &n));
    assert_int_equal(n, 4);
    for (int32_t i = 0; i < 4; i++) {
        char id[8];
        snprintf(id, sizeof id, "f%d", (int)i);
        pl_job *f = gpu_task(id, 1);
        assert_pl_ok(pl_sched_commit_gpus(s, id, f, &g[i], 1));
        pl_job_free(f);
    }
    q[0] = gpu_task("a", 1);
    q[1] = gpu_task("c", 1);
    for (int r = 0; r < 3; r++) {
        int placed[2] = {0, 0};
        pl_decision_free(round_of(s, policy, q, r < 2 ? 1 : 2, placed));
        assert_false(placed[0] || placed[1]);
    }
    return s;
}

/* The round that tells: foreign job f gives its GPU back, q[0] and q[1]
 * are queued in that order, and only q[want] is placed. Frees q and s. */
static void last_round(pl_sched *s, const char *policy, const char *f, pl_job **q, int want)
{
    int placed[2];
    assert_pl_ok(pl_sched_release(s, f));
    pl_decision *d = round_of(s, policy, q, 2, placed);
    if (!placed[want] || placed[1 - want])
        fail_msg("%s: %s placed %d, %s placed %d; want only %s", policy, pl_job_name(q[0]), placed[0],
                 pl_job_name(q[1]), placed[1], pl_job_name(q[want]));
    pl_decision_free(d);
    for (int i = 0; i < 2; i++)
        pl_job_free(q[i]);
    pl_sched_free(s);
}

/* a (W = 3) is placed on f0's GPU before c (W = 2 then), committed and
 * freed, and a twin of a (same name and shape) made at once. With f1's
 * GPU free, the twin comes first in the queue: it is new (W = 0) and c
 * has waited, so DRMaestro places c (Eq. 8: W before the queue order). Had
 * the twin inherited a's W of 3, it would have been placed. */
static void test_new_job_where_a_placed_one_was(void **st)
{
    (void)st;
    for (int run = 0; run < TWIN_RUNS; run++) {
        const char *policy = policies[run % 4];
        pl_job *q[2];
        int placed[2];
        pl_sched *s = waited(policy, q);
        assert_pl_ok(pl_sched_release(s, "f0"));
        pl_decision *d = round_of(s, policy, q, 2, placed);
        assert_true(placed[0] && !placed[1]);
        assert_pl_ok(pl_sched_commit(s, "a", q[0], d, 0));
        pl_decision_free(d);
        pl_job_free(q[0]); /* the scheduler keeps its own copy */
        q[0] = gpu_task("a", 1);
        last_round(s, policy, "f1", q, 1);
    }
}

/* a, waiting, is freed and a new job named `name` made at once (malloc
 * may put it at a's address); after a round with nothing queued when
 * empty_round (a and c withdrawn: no flow is solved, so nothing in
 * DRMaestro's own tables drops them, and c comes back first), else queued
 * first, beside c, in the next round. f0's GPU free, c alone is placed. */
static void replace_waiting(int empty_round, const char *name)
{
    for (int run = 0; run < TWIN_RUNS; run++) {
        const char *policy = policies[run % 4];
        pl_job *q[2];
        int placed[1];
        pl_sched *s = waited(policy, q);
        if (empty_round)
            pl_decision_free(round_of(s, policy, q, 0, placed));
        pl_job_free(q[0]);
        q[0] = gpu_task(name, 1);
        if (empty_round) {
            pl_job *c = q[1];
            q[1] = q[0];
            q[0] = c;
        }
        last_round(s, policy, "f0", q, !empty_round);
    }
}

/* Withdrawn for a round, a and c start afresh (W = 0, doc/drmaestro.md),
 * and the queue order places c. Had a's twin (same name and shape)
 * inherited a's W of 3 (against c's 1), it would have been placed. */
static void test_new_job_where_a_withdrawn_one_was(void **st)
{
    (void)st;
    replace_waiting(1, "a");
}

/* b, another job (its own name), is new (W = 0) and c has waited (W = 1),
 * so c is placed though b comes first. Had b been taken for a (its handle,
 * where malloc may have put it), b would have been placed. */
static void test_other_job_where_a_waiting_one_was(void **st)
{
    (void)st;
    replace_waiting(0, "b");
}

/* A committed job of one 4-GPU task, shown to the policy by pl_sched as
 * its slot job: DRMaestro recognises it as a slot job, regroups it into
 * one task of 4 local GPUs as it placed it, and keeps it in its networks
 * (Algorithm 5) in the next round, where b takes the other machine. */
static void test_running_quad_kept(void **st)
{
    (void)st;
    for (int v = 0; v < 4; v++) {
        pl_topology *c = minsky_cluster(2, 2);
        pl_sched *s;
        assert_pl_ok(pl_sched_create(c, &s));
        pl_topology_free(c);
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.policy = policies[v];
        pl_policy *p;
        assert_pl_ok(pl_policy_create(&o, &p));
        pl_sched_use_policy(s, p); /* the handle owns it; p stays readable while it does */
        pl_job *a = gpu_task("a", 4), *b = gpu_task("b", 4);
        int placed[1];
        pl_decision *d = round_of(s, policies[v], &a, 1, placed);
        assert_true(placed[0]);
        pl_decision_info ia = dec(d, 0, PL_DECISION_PLACED);
        assert_pl_ok(pl_sched_commit(s, "a", a, d, 0));
        pl_decision_free(d);
        pl_job_free(a); /* the record's copy is what runs */
        d = round_of(s, policies[v], &b, 1, placed);
        assert_int_equal(pl_drm_policy_kept(pl_policy_state(p)), 1);
        pl_decision_info ib = dec(d, 0, PL_DECISION_PLACED);
        assert_int_equal(ib.ngpus, 4);
        assert_int_not_equal(ib.machine, ia.machine);
        for (int32_t x = 0; x < 4; x++)
            assert_int_equal(machine_vertex(pl_sched_topology(s), ib.gpus[x]), ib.machine);
        pl_decision_free(d);
        pl_job_free(b);
        pl_sched_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_job_where_a_placed_one_was),
        cmocka_unit_test(test_new_job_where_a_withdrawn_one_was),
        cmocka_unit_test(test_other_job_where_a_waiting_one_was),
        cmocka_unit_test(test_running_quad_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
