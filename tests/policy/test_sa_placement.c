/* "sa-placement" (seed 003, Kim thesis ch. 2 sec. 3.2) as a policy: the
 * batch search reaches the optimum of an exhaustive search on two Minsky
 * machines for several seeds; the on-line mode's myopic choices worked by
 * hand; the thesis's T1/T2 preference (Table 2.4 runtimes, a user predictor)
 * needs the "adjust the affected application" move; determinism; node
 * filters; options and predictor errors. */
#include <math.h>
#include "kim_fixture.h"
#include "../coloc/kim_csv.h"

/* ---- instance A: 2 Minsky machines, 6 jobs filling their 8 GPUs ----------------
 * Profiles (s): hog, quiet: 1 GPU, solo 10; pair: 2 GPUs, solo 10 on one
 * socket, 13 across. Co-located: quiet next to hog 20 (x2), hog next to hog
 * 13 (x1.3), pair next to hog 15 (x1.5), pair next to pair 12 (x1.2), quiet
 * next to pair 11 (x1.1); other pairs unprofiled (x1).
 * The optimum (by hand): each pair packed alone on a socket, the hogs
 * together on one socket (1.3 each), the quiet ones together on the last:
 * sum of log run times 6 log 10 + 2 log 1.3 (every other grouping puts a
 * quiet job next to a hog, x2, or spreads a pair, x1.3 and co-runners). */

enum { H1, Q1, H2, Q2, P1, P2, NJOBS };
static const char *const job_type[NJOBS] = {"hog", "quiet", "hog", "quiet", "pair", "pair"};

static pl_profile_set *profiles_a(void)
{
    static const kim_solo solo[] = {{"hog", 1, PL_SPREAD_INTRA_SOCKET, 10},
                                    {"quiet", 1, PL_SPREAD_INTRA_SOCKET, 10},
                                    {"pair", 2, PL_SPREAD_INTRA_SOCKET, 10},
                                    {"pair", 2, PL_SPREAD_INTER_SOCKET, 13}};
    static const kim_coloc co[] = {{"quiet", 1, "hog", 1, 20}, {"hog", 1, "hog", 1, 13}, {"pair", 2, "hog", 1, 15},
                                   {"pair", 2, "pair", 2, 12}, {"quiet", 1, "pair", 2, 11}};
    return KIM_PROFILES(solo, co);
}

/* Instance A, set up afresh for each test that uses it. */
typedef struct instance_a {
    pl_topology *t;
    pl_profile_set *ps;
    pl_job *q[NJOBS];
} instance_a;

static int setup_a(void **state)
{
    static const char *const name[NJOBS] = {"H1", "Q1", "H2", "Q2", "P1", "P2"};
    instance_a *in = calloc(1, sizeof *in);
    assert_non_null(in);
    in->t = minsky_cluster(2, 2);
    in->ps = profiles_a();
    for (int i = 0; i < NJOBS; i++)
        in->q[i] = mkjob(name[i], job_type[i][0] == 'p' ? 2 : 1, 0, job_type[i], "1");
    *state = in;
    return 0;
}

static int teardown_a(void **state)
{
    instance_a *in = *state;
    kim_free_jobs(in->q, NJOBS);
    pl_profile_set_free(in->ps);
    pl_topology_free(in->t);
    free(in);
    return 0;
}

/* GPU vertex of index i: machine i / 4, package (i % 4) / 2, gpu i % 4. */
static int32_t gpu_at(const pl_topology *t, int i)
{
    char path[64];
    snprintf(path, sizeof path, "cluster/rack0/node%d/package%d/gpu%d", i / 4, i % 4 / 2, i % 4);
    return vx(t, path);
}

static double slow_of(int a, int b)
{
    const char *x = job_type[a], *y = job_type[b];
    if (!strcmp(x, "quiet") && !strcmp(y, "hog"))
        return 2.0;
    if (!strcmp(x, "hog") && !strcmp(y, "hog"))
        return 1.3;
    if (!strcmp(x, "pair") && !strcmp(y, "hog"))
        return 1.5;
    if (!strcmp(x, "pair") && !strcmp(y, "pair"))
        return 1.2;
    if (!strcmp(x, "quiet") && !strcmp(y, "pair"))
        return 1.1;
    return 1.0;
}

/* The objective the policy minimises, computed independently: sum over
 * the jobs of log(solo of its spread x its largest slowdown against a job
 * on one of its sockets); GPUs as indices 0-7 (socket = index / 2). */
static double objective(const int gpus[NJOBS][2], const int *k)
{
    double sum = 0;
    for (int a = 0; a < NJOBS; a++) {
        double solo = k[a] == 2 && gpus[a][0] / 2 != gpus[a][1] / 2 ? 13 : 10, worst = 1;
        for (int b = 0; b < NJOBS; b++) {
            int share = 0;
            for (int x = 0; x < k[a]; x++)
                for (int y = 0; y < k[b]; y++)
                    share |= b != a && gpus[a][x] / 2 == gpus[b][y] / 2;
            if (share && slow_of(a, b) > worst)
                worst = slow_of(a, b);
        }
        sum += log(solo * worst);
    }
    return sum;
}

/* Exhaustive search over every assignment of GPU sets (a 2-GPU job on one
 * machine: any two of its GPUs), not only the policy's configurations. */
static void search(int a, int gpus[NJOBS][2], const int *k, int used, double *best)
{
    if (a == NJOBS) {
        double v = objective(gpus, k);
        if (v < *best)
            *best = v;
        return;
    }
    for (int x = 0; x < 8; x++) {
        if (used >> x & 1)
            continue;
        gpus[a][0] = x;
        if (k[a] == 1) {
            search(a + 1, gpus, k, used | 1 << x, best);
            continue;
        }
        for (int y = x + 1; y < 8; y++)
            if (!(used >> y & 1) && x / 4 == y / 4) {
                gpus[a][1] = y;
                search(a + 1, gpus, k, used | 1 << x | 1 << y, best);
            }
    }
}

static double policy_objective(const pl_topology *t, const pl_decision *d)
{
    int gpus[NJOBS][2], k[NJOBS];
    for (int a = 0; a < NJOBS; a++) {
        pl_decision_info info = dec(d, a, PL_DECISION_PLACED);
        k[a] = info.ngpus;
        for (int x = 0; x < info.ngpus; x++) {
            gpus[a][x] = -1;
            for (int i = 0; i < 8; i++)
                if (gpu_at(t, i) == info.gpus[x])
                    gpus[a][x] = i;
            assert_true(gpus[a][x] >= 0);
        }
    }
    return objective(gpus, k);
}

static pl_decision *place_sa(const pl_topology *t, pl_job *const *q, int n, const pl_profile_set *ps,
                             uint64_t seed, const pl_sa_policy_opts *so)
{
    pl_policy_opts o = kim_opts("sa-placement", ps, so);
    o.seed = seed;
    return kim_place(&o, t, NULL, q, n);
}

static void test_batch_reaches_exhaustive_optimum(void **state)
{
    instance_a *in = *state;
    int gpus[NJOBS][2], k[NJOBS] = {1, 1, 1, 1, 2, 2};
    double best = INFINITY;
    search(0, gpus, k, 0, &best);
    assert_true(fabs(best - (6 * log(10) + 2 * log(1.3))) < 1e-12);
    /* The first-fit start (H1 Q1 | H2 Q2 on node0, the pairs on node1) puts
     * both quiet jobs next to a hog: 6 log 10 + 2 log 2. */
    pl_sa_policy_opts so;
    pl_sa_policy_opts_init(&so);
    so.iterations = 0;
    pl_decision *d = place_sa(in->t, in->q, NJOBS, in->ps, 1, &so);
    assert_true(fabs(policy_objective(in->t, d) - (6 * log(10) + 2 * log(2))) < 1e-12);
    pl_decision_free(d);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        d = place_sa(in->t, in->q, NJOBS, in->ps, seed, NULL);
        double got = policy_objective(in->t, d);
        if (fabs(got - best) > 1e-12)
            fail_msg("seed %llu: objective %.6f, exhaustive optimum %.6f", (unsigned long long)seed, got, best);
        /* the reported slowdown is the model's: the hogs 1.3, the others 1 */
        assert_true(fabs(dec(d, H1, PL_DECISION_PLACED).slowdown - 1.3) < 1e-12);
        assert_true(fabs(dec(d, Q1, PL_DECISION_PLACED).slowdown - 1.0) < 1e-12);
        pl_decision_free(d);
    }
}

/* On-line: one job at a time, each on its best configuration against the
 * jobs before it (by hand, configurations in machine then socket order, a
 * later one kept only when strictly better):
 *   H1: all equal, node0 gpu0.  Q1: node0 gpu1 would sit next to H1 (x2):
 *   node0 gpu2.  H2: next to H1 costs 2 log 1.3, next to Q1 log 2, node1
 *   alone 0: node1 gpu0.  Q2: next to Q1 (x1), node0 gpu3.  P1: node1's
 *   socket 1 (gpu2, gpu3) alone, against gpu1 + gpu2 across sockets next to
 *   H2 (13 x 1.5).  P2: no machine has 2 free GPUs left: it waits, where
 *   the batch search (above) places all six. */
static void test_online_by_hand(void **state)
{
    instance_a *in = *state;
    pl_sa_policy_opts so;
    pl_sa_policy_opts_init(&so);
    so.mode = PL_SA_ONLINE;
    pl_decision *d = place_sa(in->t, in->q, NJOBS, in->ps, 1, &so);
    int32_t want_h1 = gpu_at(in->t, 0), want_q1 = gpu_at(in->t, 2), want_h2 = gpu_at(in->t, 4), want_q2 = gpu_at(in->t, 3);
    int32_t want_p1[2] = {gpu_at(in->t, 6), gpu_at(in->t, 7)};
    assert_gpus(d, H1, &want_h1, 1);
    assert_gpus(d, Q1, &want_q1, 1);
    assert_gpus(d, H2, &want_h2, 1);
    assert_gpus(d, Q2, &want_q2, 1);
    assert_gpus(d, P1, want_p1, 2);
    dec(d, P2, PL_DECISION_WAITING);
    pl_decision_free(d);
    /* With one iteration per job the on-line search cannot try all
     * configurations: it anneals, from first fit, and stays valid. */
    so.iterations = 1;
    d = place_sa(in->t, in->q, NJOBS, in->ps, 1, &so);
    pl_decision_free(d);
}

static void test_deterministic(void **state)
{
    instance_a *in = *state;
    pl_sa_policy_opts so;
    pl_sa_policy_opts_init(&so);
    so.iterations = 40;   /* short: the result still depends on the draws */
    for (uint64_t seed = 1; seed <= 5; seed++) {
        pl_decision *a = place_sa(in->t, in->q, NJOBS, in->ps, seed, &so), *b = place_sa(in->t, in->q, NJOBS, in->ps, seed, &so);
        for (int i = 0; i < NJOBS; i++) {
            pl_decision_info x, y;
            assert_pl_ok(pl_decision_get(a, i, &x));
            assert_pl_ok(pl_decision_get(b, i, &y));
            assert_int_equal(x.kind, y.kind);
            assert_int_equal(x.ngpus, y.ngpus);
            assert_memory_equal(x.gpus, y.gpus, sizeof x.gpus[0] * (size_t)x.ngpus);
        }
        pl_decision_free(a);
        pl_decision_free(b);
    }
}

/* ---- instance B: the thesis's node types with a user predictor ---------------- */

typedef struct t24 {
    kim_csv csv;
    int calls;
    pl_status fail;       /* returned when set */
    double fixed;         /* > 0 or < 0: returned as the run time instead */
} t24;

/* Table 2.4: a job's run time is its solo time in C2 on a T1 node and C5 on
 * a T2 node (machine names t1node<i> / t2node<i>), x 1.5 per co-runner. */
static pl_status t24_predict(void *ctx, const pl_sa_query *q, double *r)
{
    t24 *x = ctx;
    x->calls++;
    if (x->fail)
        return x->fail;
    if (x->fixed != 0) {
        *r = x->fixed;
        return PL_OK;
    }
    assert_true(q->machine >= 0);
    const char *m = kim_name(q->topo, q->machine);
    *r = kim_csv_lookup(&x->csv, "app", pl_job_name(q->job), "config", strncmp(m, "t1", 2) == 0 ? "C2" : "C5",
                        "time_s") * (1 + 0.5 * q->ncorunners);
    return PL_OK;
}

/* GS prefers T1 (134.82 s against 159.14 s), CG prefers T2 (263.52 s
 * against 380.85 s). Queue [CG, GS]: first fit puts CG on the T1 node and GS
 * on the T2 node (product 60608); the optimum swaps them (35528), which no
 * single move of one job reaches (each node holds one job): it takes the
 * move that lifts the job on the target node and re-places it. */
static void test_user_predictor_table24(void **state)
{
    (void)state;
    static const kim_group groups[] = {{"t1node", 1, 1, 1, 1}, {"t2node", 1, 1, 1, 1}};
    pl_topology *t = kim_cluster(groups, 2);
    int32_t g1 = vx(t, "cluster/t1node0/package0/gpu0"), g2 = vx(t, "cluster/t2node0/package0/gpu0");
    pl_job *q[2] = {mkjob("CG", 1, 0, NULL, NULL), mkjob("GS", 1, 0, NULL, NULL)};
    t24 x = {0};
    kim_csv_load(&x.csv, "kim/table2_4.csv");
    assert_true(kim_csv_lookup(&x.csv, "app", "GS", "config", "C2", "time_s") == 134.82);
    pl_sa_policy_opts so;
    pl_sa_policy_opts_init(&so);
    so.predict = t24_predict;
    so.predict_ctx = &x;
    so.iterations = 0;
    pl_decision *d = place_sa(t, q, 2, NULL, 1, &so);
    assert_gpus(d, 0, &g1, 1);
    assert_gpus(d, 1, &g2, 1);
    pl_decision_free(d);
    so.iterations = 50;
    d = place_sa(t, q, 2, NULL, 1, &so);
    assert_gpus(d, 0, &g2, 1);
    assert_gpus(d, 1, &g1, 1);
    assert_true(dec(d, 0, PL_DECISION_PLACED).slowdown == 1.0);
    assert_true(x.calls > 0);
    pl_decision_free(d);
    /* the predictor's errors end the call with its status */
    x.fail = PL_EIO;
    pl_policy_opts o = kim_opts("sa-placement", NULL, &so);
    assert_pl_status(pl_policy_place(&o, t, NULL, 0, q, 2, &d), PL_EIO);
    x.fail = PL_OK;
    x.fixed = -1;
    assert_pl_status(pl_policy_place(&o, t, NULL, 0, q, 2, &d), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "predictor gave run time"));
    kim_csv_free(&x.csv);
    kim_free_jobs(q, 2);
    pl_topology_free(t);
}

/* A node filter is a constraint, not a preference; max_placed is honoured. */
static void test_constraints_and_limits(void **state)
{
    instance_a *in = *state;
    const char *only1[] = {"node1"};
    assert_pl_ok(pl_job_set_node_filter(in->q[H1], only1, 1));
    assert_pl_ok(pl_job_set_node_filter(in->q[H2], only1, 1));
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pl_decision *d = place_sa(in->t, in->q, NJOBS, in->ps, seed, NULL);
        assert_string_equal(kim_name(in->t, dec(d, H1, PL_DECISION_PLACED).machine), "node1");
        assert_string_equal(kim_name(in->t, dec(d, H2, PL_DECISION_PLACED).machine), "node1");
        pl_decision_free(d);
    }
    pl_policy_opts o = kim_opts("sa-placement", in->ps, NULL);
    o.max_placed = 2;
    pl_decision *d;
    assert_pl_ok(pl_policy_place(&o, in->t, NULL, 0, in->q, NJOBS, &d));
    assert_int_equal(kim_check_decisions(in->t, in->q, NJOBS, d, &o), 2);
    assert_non_null(strstr(dec(d, H2, PL_DECISION_WAITING).reason, "max_placed"));
    pl_decision_free(d);
    /* a job larger than every machine is rejected, one no filter admits too */
    pl_job *big = mkjob("big", 5, 0, NULL, NULL), *nowhere = mkjob("nowhere", 1, 0, NULL, NULL);
    const char *none[] = {"node7"};
    assert_pl_ok(pl_job_set_node_filter(nowhere, none, 1));
    pl_job *q2[2] = {big, nowhere};
    d = place_sa(in->t, q2, 2, in->ps, 1, NULL);
    dec(d, 0, PL_DECISION_REJECTED);
    dec(d, 1, PL_DECISION_REJECTED);
    pl_decision_free(d);
    pl_job_free(big);
    pl_job_free(nowhere);
}

/* Anti-affinity between queued jobs holds in the search, not only at the
 * commit: H1 (label db) and H2 (avoids db) end on different machines. With
 * no iterations the start state decides: first fit would put H2 on node0
 * (socket 1), H1's machine; it takes node1's gpu0. Then the searches of
 * three seeds, whose optimum without the constraint has the hogs together. */
static void test_anti_affinity_in_search(void **state)
{
    instance_a *in = *state;
    assert_pl_ok(pl_job_add_label(in->q[H1], "db"));
    assert_pl_ok(pl_job_add_anti_affinity(in->q[H2], "db"));
    pl_sa_policy_opts so;
    pl_sa_policy_opts_init(&so);
    so.iterations = 0;
    pl_decision *d = place_sa(in->t, in->q, NJOBS, in->ps, 1, &so);
    assert_gpus(d, H1, (int32_t[]){gpu_at(in->t, 0)}, 1);
    assert_gpus(d, H2, (int32_t[]){gpu_at(in->t, 4)}, 1);
    pl_decision_free(d);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        d = place_sa(in->t, in->q, NJOBS, in->ps, seed, NULL);
        assert_int_not_equal(dec(d, H1, PL_DECISION_PLACED).machine, dec(d, H2, PL_DECISION_PLACED).machine);
        pl_decision_free(d);
    }
}

/* A running job counts: its run time is in the objective, so a new job
 * keeps off its socket when it would slow it (hog next to hog x1.3). */
static void test_running_jobs_in_scope(void **state)
{
    (void)state;
    pl_topology *t = minsky();
    pl_profile_set *ps = profiles_a();
    pl_job *r = mkjob("r", 1, 0, "hog", "1"), *h = mkjob("h", 1, 0, "hog", "1");
    running_set rs = {0};
    int32_t g0 = vx(t, "machine/package0/gpu0"), g2 = vx(t, "machine/package1/gpu2");
    run_on(&rs, t, r, &g0, 1);
    pl_policy_opts o = kim_opts("sa-placement", ps, NULL);
    pl_decision *d = kim_place(&o, t, &rs, &h, 1);
    assert_gpus(d, 0, &g2, 1);
    pl_decision_free(d);
    pl_job_free(r);
    pl_job_free(h);
    pl_profile_set_free(ps);
    pl_topology_free(t);
}

static void test_option_errors(void **state)
{
    (void)state;
    pl_topology *t = minsky();
    pl_job *q[1] = {mkjob("j", 1, 0, NULL, NULL)};
    pl_sa_policy_opts so;
    pl_sa_policy_opts_init(&so);
    so.iterations = -1;
    kim_expect_einval("sa-placement", t, q, &so, "iterations");
    pl_sa_policy_opts_init(&so);
    so.cooling = 0;
    kim_expect_einval("sa-placement", t, q, &so, "cooling");
    so.cooling = 1.5;
    kim_expect_einval("sa-placement", t, q, &so, "cooling");
    pl_sa_policy_opts_init(&so);
    so.initial_temperature = -0.1;
    kim_expect_einval("sa-placement", t, q, &so, "initial_temperature");
    so.initial_temperature = INFINITY;
    kim_expect_einval("sa-placement", t, q, &so, "initial_temperature");
    pl_sa_policy_opts_init(&so);
    so.mode = (pl_sa_mode)7;
    kim_expect_einval("sa-placement", t, q, &so, "mode");
    pl_gpu_qos_opts other;
    pl_gpu_qos_opts_init(&other);
    kim_expect_einval("sa-placement", t, q, &other, "not this policy's options");
    /* the defaults: T0 0.05, cooling 0.995, 2000 iterations, batch */
    pl_sa_policy_opts_init(&so);
    assert_int_equal(so.kind, PL_POLICY_EXT_SA);
    assert_int_equal(so.iterations, 2000);
    assert_true(so.initial_temperature == 0.05 && so.cooling == 0.995 && so.mode == PL_SA_BATCH);
    assert_null(so.predict);
    kim_free_jobs(q, 1);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_batch_reaches_exhaustive_optimum, setup_a, teardown_a),
        cmocka_unit_test_setup_teardown(test_online_by_hand, setup_a, teardown_a),
        cmocka_unit_test_setup_teardown(test_deterministic, setup_a, teardown_a),
        cmocka_unit_test(test_user_predictor_table24),
        cmocka_unit_test_setup_teardown(test_constraints_and_limits, setup_a, teardown_a),
        cmocka_unit_test_setup_teardown(test_anti_affinity_in_search, setup_a, teardown_a),
        cmocka_unit_test(test_running_jobs_in_scope),
        cmocka_unit_test(test_option_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
