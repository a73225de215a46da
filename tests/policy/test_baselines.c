/* The greedy baselines (fcfs, bf, pack, spread, random) on scripted
 * sequences worked by hand, and the SC17 artifact's defects that none of the
 * policies may have. Minsky: socket 0 holds gpu0, gpu1, socket 1 gpu2, gpu3;
 * distances 1 within a socket, 22 across. */
#include "policy_fixture.h"

static const char *const all_policies[] = {"topo-aware", "topo-aware-p", "fcfs", "bf",
                                           "pack",       "spread",       "random"};
#define N_POLICIES 7

typedef struct mk {
    pl_topology *t;
    int32_t g[4];
    pl_job *r;
    running_set rs;
} mk;

/* A Minsky whose gpu2 is busy (when busy2): socket 0 has 2 free, socket 1 one. */
static void mk_init(mk *m, int busy2)
{
    memset(m, 0, sizeof *m);
    assert_pl_ok(pl_topology_builtin("minsky", &m->t));
    m->g[0] = vx(m->t, "machine/package0/gpu0");
    m->g[1] = vx(m->t, "machine/package0/gpu1");
    m->g[2] = vx(m->t, "machine/package1/gpu2");
    m->g[3] = vx(m->t, "machine/package1/gpu3");
    m->r = mkjob("r", 1, 0, NULL, NULL);
    if (busy2)
        run_on(&m->rs, m->t, m->r, &m->g[2], 1);
}

static void mk_done(mk *m)
{
    pl_job_free(m->r);
    pl_topology_free(m->t);
}

static void free_jobs(pl_job **q, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        pl_job_free(q[i]);
}

/* Queue [A (1 GPU), E (2 GPUs, talking)] with gpu2 busy.
 *  fcfs: A: socket 0 is the first with room -> gpu0. E: socket 0 has 1
 *        free, socket 1 has 1: none holds 2, spill in index order -> gpu1, gpu3.
 *  bf:   A: the socket with the fewest free GPUs that holds it is socket 1
 *        (1 free) -> gpu3. E: socket 0 (2 free) holds it -> gpu0, gpu1.
 *  pack: A: every single GPU costs t = 0, the first free (gpu0). E: free
 *        {gpu1, gpu3}: the only pair, t = 22.
 *  spread: A: socket 0 first -> gpu0. E: one per socket -> gpu1, gpu3. */
static void test_sequence_small_first(void **s)
{
    (void)s;
    static const struct {
        const char *policy;
        int a, e0, e1;
    } want[] = {{"fcfs", 0, 1, 3}, {"bf", 3, 0, 1}, {"pack", 0, 1, 3}, {"spread", 0, 1, 3}};
    for (size_t p = 0; p < sizeof want / sizeof want[0]; p++) {
        mk m;
        mk_init(&m, 1);
        pl_job *q[2] = {mkjob("A", 1, 0, NULL, NULL), mkjob("E", 2, 1, NULL, NULL)};
        pl_decision *d = place(want[p].policy, m.t, &m.rs, q, 2);
        assert_gpus(d, 0, &m.g[want[p].a], 1);
        int32_t e[2] = {m.g[want[p].e0], m.g[want[p].e1]};
        assert_gpus(d, 1, e, 2);
        assert_int_equal(dec(d, 1, PL_DECISION_PLACED).comm_cost, want[p].e0 / 2 == want[p].e1 / 2 ? 1 : 22);
        pl_decision_free(d);
        free_jobs(q, 2);
        mk_done(&m);
    }
}

/* Queue [E (2 GPUs, talking), A (1 GPU)] with gpu2 busy.
 *  fcfs: E: socket 0 holds it -> gpu0, gpu1; A: gpu3.
 *  bf:   E: only socket 0 holds 2 -> gpu0, gpu1; A: gpu3.
 *  pack: E: pairs of {0, 1, 3}: (0,1) t = 1, the others 22 -> gpu0, gpu1; A: gpu3.
 *  spread: E: socket 0 then socket 1 -> gpu0, gpu3; A: gpu1. */
static void test_sequence_large_first(void **s)
{
    (void)s;
    static const struct {
        const char *policy;
        int e0, e1, a;
    } want[] = {{"fcfs", 0, 1, 3}, {"bf", 0, 1, 3}, {"pack", 0, 1, 3}, {"spread", 0, 3, 1}};
    for (size_t p = 0; p < sizeof want / sizeof want[0]; p++) {
        mk m;
        mk_init(&m, 1);
        pl_job *q[2] = {mkjob("E", 2, 1, NULL, NULL), mkjob("A", 1, 0, NULL, NULL)};
        pl_decision *d = place(want[p].policy, m.t, &m.rs, q, 2);
        int32_t e[2] = {m.g[want[p].e0], m.g[want[p].e1]};
        assert_gpus(d, 0, e, 2);
        assert_gpus(d, 1, &m.g[want[p].a], 1);
        pl_decision_free(d);
        free_jobs(q, 2);
        mk_done(&m);
    }
}

/* Queue [A (1), B (4: never fits now, 3 free), C (1)] with gpu2 busy.
 *  fcfs: A -> gpu0; B waits; C waits behind B (the queue stops).
 *  bf:   A -> gpu3 (socket 1, 1 free); B waits, skipped; C -> socket 0 (2
 *        free, the only one left) -> gpu0. */
static void test_fcfs_blocks_bf_skips(void **s)
{
    (void)s;
    mk m;
    mk_init(&m, 1);
    pl_job *q[3] = {mkjob("A", 1, 0, NULL, NULL), mkjob("B", 4, 1, NULL, NULL),
                    mkjob("C", 1, 0, NULL, NULL)};
    pl_decision *d = place("fcfs", m.t, &m.rs, q, 3);
    assert_gpus(d, 0, &m.g[0], 1);
    dec(d, 1, PL_DECISION_WAITING);
    pl_decision_info info = dec(d, 2, PL_DECISION_WAITING);
    assert_non_null(strstr(info.reason, "behind job \"B\""));
    pl_decision_free(d);
    d = place("bf", m.t, &m.rs, q, 3);
    assert_gpus(d, 0, &m.g[3], 1);
    info = dec(d, 1, PL_DECISION_WAITING);
    assert_null(strstr(info.reason, "behind"));
    assert_gpus(d, 2, &m.g[0], 1);
    pl_decision_free(d);
    /* A job that can never fit is rejected and does not block fcfs. */
    pl_job *big[2] = {mkjob("huge", 5, 1, NULL, NULL), mkjob("A", 1, 0, NULL, NULL)};
    d = place("fcfs", m.t, &m.rs, big, 2);
    dec(d, 0, PL_DECISION_REJECTED);
    assert_gpus(d, 1, &m.g[0], 1);
    pl_decision_free(d);
    free_jobs(big, 2);
    free_jobs(q, 3);
    mk_done(&m);
}

/* random: the same seed gives the same GPUs; the GPUs are free and distinct. */
static void test_random_reproducible(void **s)
{
    (void)s;
    mk m;
    mk_init(&m, 1);
    pl_job *q[3] = {mkjob("A", 1, 0, NULL, NULL), mkjob("E", 2, 1, NULL, NULL),
                    mkjob("C", 1, 0, NULL, NULL)};
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "random";
    o.seed = 42;
    pl_decision *d1, *d2;
    assert_pl_ok(pl_policy_place(&o, m.t, m.rs.r, m.rs.n, q, 3, &d1));
    assert_pl_ok(pl_policy_place(&o, m.t, m.rs.r, m.rs.n, q, 3, &d2));
    int32_t seen[8], ns = 0;
    for (int32_t i = 0; i < 2; i++) {
        pl_decision_info a = dec(d1, i, PL_DECISION_PLACED), b = dec(d2, i, PL_DECISION_PLACED);
        assert_int_equal(a.ngpus, b.ngpus);
        for (int32_t g = 0; g < a.ngpus; g++) {
            assert_int_equal(a.gpus[g], b.gpus[g]);
            assert_true(a.gpus[g] != m.g[2]);
            for (int32_t h = 0; h < ns; h++)
                assert_true(seen[h] != a.gpus[g]);
            seen[ns++] = a.gpus[g];
        }
    }
    dec(d1, 2, PL_DECISION_WAITING);
    pl_decision_free(d1);
    pl_decision_free(d2);
    free_jobs(q, 3);
    mk_done(&m);
}

/* Artifact defect 1: four 1-GPU jobs on an empty machine got GPUs 0, 1, 3, 3.
 * Every policy must give four distinct GPUs, and the fifth job must wait. */
static void test_no_gpu_given_twice(void **s)
{
    (void)s;
    for (int p = 0; p < N_POLICIES; p++) {
        mk m;
        mk_init(&m, 0);
        pl_job *q[5];
        for (int i = 0; i < 5; i++)
            q[i] = mkjob("one", 1, 0, NULL, NULL);
        pl_decision *d = place(all_policies[p], m.t, NULL, q, 5);
        int32_t used[4];
        for (int i = 0; i < 4; i++) {
            used[i] = dec(d, i, PL_DECISION_PLACED).gpus[0];
            for (int j = 0; j < i; j++)
                if (used[j] == used[i])
                    fail_msg("%s gave GPU %d to jobs %d and %d", all_policies[p], (int)used[i], j, i);
        }
        dec(d, 4, PL_DECISION_WAITING);
        pl_decision_free(d);
        free_jobs(q, 5);
        mk_done(&m);
    }
}

/* Artifact defect 2: fcfs and bf only looked at machine 0. With node0 full,
 * every policy places a job on node1. */
static void test_all_machines_considered(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(2, 2);
    int32_t full[4];
    for (int i = 0; i < 4; i++) {
        char path[64];
        snprintf(path, sizeof path, "cluster/rack0/node0/package%d/gpu%d", i / 2, i);
        full[i] = vx(t, path);
    }
    pl_job *r = mkjob("r", 4, 0, NULL, NULL);
    running_set rs = {0};
    run_on(&rs, t, r, full, 4);
    pl_job *q = mkjob("one", 1, 0, NULL, NULL);
    for (int p = 0; p < N_POLICIES; p++) {
        pl_decision *d = place(all_policies[p], t, &rs, &q, 1);
        assert_int_equal(dec(d, 0, PL_DECISION_PLACED).machine, vx(t, "cluster/rack0/node1"));
        pl_decision_free(d);
    }
    pl_job_free(q);
    pl_job_free(r);
    pl_topology_free(t);
}

/* Issue 23: the baselines choose the machine by free GPUs, as seed 002
 * describes them, not by TOPO-AWARE's utility. Three Minsky machines:
 * node0 empty (4 free); node1 with 1 free, gpu1, next to "stream" on gpu0
 * (which slows "caffe" 1.5x; gpu2, gpu3 busy); node2 with 2 free, gpu2 and
 * gpu3 (gpu0, gpu1 busy). A 1-GPU caffe job: fcfs takes the first machine
 * with room, node0; bf the fewest free GPUs that hold it, node1 (slowdown
 * 1.5); topo-aware node2 (paper utility 1 - 0.25/3 against 0.75 on node0
 * and 2/3 on node1). A 2-GPU job: fcfs node0, bf and topo-aware node2.
 * Ranking by utility, as before, sent fcfs and bf to node2 in both cases. */
static void test_baselines_choose_machine_by_free_gpus(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(3, 3);
    pl_profile_set *ps;
    assert_pl_ok(pl_profile_set_create(&ps));
    for (int32_t k = 1; k <= 2; k++) {
        assert_pl_ok(pl_profile_set_add_solo(ps, "caffe", "1", k, PL_SPREAD_INTRA_SOCKET, 100));
        assert_pl_ok(pl_profile_set_add_colocated(ps, "caffe", "1", k, "stream", "1", 1, 150));
    }
    running_set rs = {0};
    pl_job *stream = mkjob("stream", 1, 0, "stream", "1");
    pl_job *b1 = mkjob("b1", 2, 0, NULL, NULL), *b2 = mkjob("b2", 2, 0, NULL, NULL);
    int32_t g = vx(t, "cluster/rack0/node1/package0/gpu0");
    run_on(&rs, t, stream, &g, 1);
    int32_t n1[2] = {vx(t, "cluster/rack0/node1/package1/gpu2"), vx(t, "cluster/rack0/node1/package1/gpu3")};
    int32_t n2[2] = {vx(t, "cluster/rack0/node2/package0/gpu0"), vx(t, "cluster/rack0/node2/package0/gpu1")};
    run_on(&rs, t, b1, n1, 2);
    run_on(&rs, t, b2, n2, 2);
    pl_job *one = mkjob("one", 1, 0, "caffe", "1"), *two = mkjob("two", 2, 0, "caffe", "1");
    const struct {
        const char *policy;
        pl_job *job;
        const char *machine;
        double slowdown;
    } want[] = {{"fcfs", one, "node0", 1},       {"bf", one, "node1", 1.5}, {"topo-aware", one, "node2", 1},
                {"fcfs", two, "node0", 1},       {"bf", two, "node2", 1},   {"topo-aware", two, "node2", 1}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.policy = want[i].policy;
        o.profiles = ps;
        pl_decision *d = NULL;
        pl_job *job = want[i].job;
        assert_pl_ok(pl_policy_place(&o, t, rs.r, rs.n, &job, 1, &d));
        char path[64];
        snprintf(path, sizeof path, "cluster/rack0/%s", want[i].machine);
        pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
        if (info.machine != vx(t, path) || info.slowdown != want[i].slowdown)
            fail_msg("%s, %d GPU(s): machine %d slowdown %g, want %s and %g", want[i].policy,
                     (int)pl_job_task_count(job), (int)info.machine, info.slowdown, want[i].machine,
                     want[i].slowdown);
        pl_decision_free(d);
    }
    pl_job_free(one);
    pl_job_free(two);
    pl_job_free(b1);
    pl_job_free(b2);
    pl_job_free(stream);
    pl_profile_set_free(ps);
    pl_topology_free(t);
}

/* Artifact defect 3: fcfs and bf split a 2-GPU job 1 + 1 across sockets when
 * one socket had 2 free, and the last feasible machine always won. With gpu0
 * busy, socket 1 holds the pair: gpu2, gpu3. On two empty machines, the
 * first machine wins the tie. */
static void test_pair_not_split_first_machine_wins(void **s)
{
    (void)s;
    mk m;
    mk_init(&m, 0);
    run_on(&m.rs, m.t, m.r, &m.g[0], 1);
    pl_job *q = mkjob("pair", 2, 1, NULL, NULL);
    for (int p = 0; p < N_POLICIES; p++) {
        if (!strcmp(all_policies[p], "spread") || !strcmp(all_policies[p], "random"))
            continue; /* spreading is their point */
        pl_decision *d = place(all_policies[p], m.t, &m.rs, &q, 1);
        int32_t want[2] = {m.g[2], m.g[3]};
        assert_gpu_set(d, 0, want, 2);
        pl_decision_free(d);
    }
    mk_done(&m);
    pl_topology *t = minsky_cluster(2, 2);
    const char *first_wins[] = {"topo-aware", "fcfs", "bf", "pack", "spread"};
    for (int p = 0; p < 5; p++) {
        pl_decision *d = place(first_wins[p], t, NULL, &q, 1);
        assert_int_equal(dec(d, 0, PL_DECISION_PLACED).machine, vx(t, "cluster/rack0/node0"));
        pl_decision_free(d);
    }
    pl_topology_free(t);
    pl_job_free(q);
}

/* Artifact defect 4: bf marked GPUs taken on every machine it evaluated, so
 * later jobs of the call found no room. Four 2-GPU jobs on two empty
 * machines: all placed, on four different sockets. bf's order: job 1 on
 * node0 socket 0 (both sockets tie at 2 free: the first); job 2: node0's
 * socket 1 and node1's socket 0 give the same utility, node0 has fewer free
 * GPUs (2 against 4): node0 socket 1; jobs 3 and 4 fill node1. */
static void test_bf_evaluation_takes_nothing(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *q[4];
    for (int i = 0; i < 4; i++)
        q[i] = mkjob("pair", 2, 1, NULL, NULL);
    pl_decision *d = place("bf", t, NULL, q, 4);
    const char *want[4][2] = {
        {"cluster/rack0/node0/package0/gpu0", "cluster/rack0/node0/package0/gpu1"},
        {"cluster/rack0/node0/package1/gpu2", "cluster/rack0/node0/package1/gpu3"},
        {"cluster/rack0/node1/package0/gpu0", "cluster/rack0/node1/package0/gpu1"},
        {"cluster/rack0/node1/package1/gpu2", "cluster/rack0/node1/package1/gpu3"},
    };
    for (int i = 0; i < 4; i++) {
        int32_t w[2] = {vx(t, want[i][0]), vx(t, want[i][1])};
        assert_gpus(d, i, w, 2);
    }
    pl_decision_free(d);
    free_jobs(q, 4);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequence_small_first),
        cmocka_unit_test(test_sequence_large_first),
        cmocka_unit_test(test_fcfs_blocks_bf_skips),
        cmocka_unit_test(test_random_reproducible),
        cmocka_unit_test(test_no_gpu_given_twice),
        cmocka_unit_test(test_all_machines_considered),
        cmocka_unit_test(test_pair_not_split_first_machine_wins),
        cmocka_unit_test(test_baselines_choose_machine_by_free_gpus),
        cmocka_unit_test(test_bf_evaluation_takes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
