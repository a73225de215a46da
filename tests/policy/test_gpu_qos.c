/* "gpu-qos" (seed 003, Kim thesis ch. 5) as a policy: pairs as Min-Max
 * Pairing (and the exact pairing) choose on a hand-made matrix, only on GPUs
 * whose units capacity allows it and never beyond; on-line pairing both
 * ways (a running LS job takes a batch partner, a running batch job an LS
 * partner); the profile predictor, its share factor and the QoS threshold;
 * the usage-pattern model of the device side; errors. */
#include <math.h>
#include <unistd.h>
#include "kim_fixture.h"
#include <placement/gpuqos.h>

#define E NAN

/* Matrix of tests/gpuqos/test_pairing.c's "literal drop after pair": LS
 * L0-L2 (rows), batch B0-B3 (columns). MMP as printed: L0 alone, L1 + B3,
 * L2 + B1; the exact pairing adds L0 + B0. */
static const double drop_m[12] = {0.05, 0.30, E, 0.50,
                                  0.10, E, E, 0.20,
                                  E, 0.15, E, 0.40};

typedef struct matrix_ctx {
    const double *bs, *ls;   /* [3 * 4]; ls NULL: 0 */
    int calls;
} matrix_ctx;

/* Jobs are named L<i> / B<j>. */
static pl_status by_matrix(void *ctx, const pl_job *lj, const pl_job *bj, double *ls, double *bs)
{
    matrix_ctx *m = ctx;
    int i = pl_job_name(lj)[1] - '0', j = pl_job_name(bj)[1] - '0';
    m->calls++;
    *bs = m->bs[i * 4 + j];
    *ls = m->ls ? m->ls[i * 4 + j] : isnan(*bs) ? NAN : 0.0;
    return PL_OK;
}

/* gpu-qos asking m's matrix. */
static pl_gpu_qos_opts matrix_opts(matrix_ctx *m)
{
    pl_gpu_qos_opts go;
    pl_gpu_qos_opts_init(&go);
    go.predict = by_matrix;
    go.predict_ctx = m;
    return go;
}

/* A latency-sensitive job (SLO 100 s) of k tasks. */
static pl_job *ls_job(const char *name, int32_t k)
{
    pl_job *j = mkjob(name, k, 0, NULL, NULL);
    assert_pl_ok(pl_job_set_slo(j, 100));
    return j;
}

static void drop_queue(pl_job **q)
{
    static const char *const names[7] = {"L0", "L1", "L2", "B0", "B1", "B2", "B3"};
    for (int i = 0; i < 7; i++)
        q[i] = i < 3 ? ls_job(names[i], 1) : mkjob(names[i], 1, 0, NULL, NULL);
}

static pl_decision *place_gq(const pl_topology *t, const running_set *rs, pl_job *const *q, int32_t n,
                             const pl_profile_set *ps, const pl_gpu_qos_opts *go)
{
    pl_policy_opts o = kim_opts("gpu-qos", ps, go);
    return kim_place(&o, t, rs, q, n);
}

/* lat 10 s solo, 11 s next to bat; bat 20 s solo, 26 s next to lat; fast
 * (with_fast) 20 s solo, 20 s next to lat, lat 9 s next to it. */
static pl_profile_set *lat_bat_profiles(int with_fast)
{
    static const kim_solo solo[] = {{"lat", 1, PL_SPREAD_INTRA_SOCKET, 10}, {"bat", 1, PL_SPREAD_INTRA_SOCKET, 20},
                                    {"fast", 1, PL_SPREAD_INTRA_SOCKET, 20}};
    static const kim_coloc co[] = {{"lat", 1, "bat", 1, 11}, {"bat", 1, "lat", 1, 26},
                                   {"lat", 1, "fast", 1, 9}, {"fast", 1, "lat", 1, 20}};
    return kim_profiles(solo, with_fast ? 3 : 2, co, with_fast ? 4 : 2);
}

/* The GPU of a placed 1-task job. */
static int32_t gpu_of(const pl_decision *d, int32_t i)
{
    pl_decision_info info = dec(d, i, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 1);
    return info.gpus[0];
}

/* Per GPU of the topology: tasks placed by d (plus running jobs), how many
 * latency-sensitive, how many not; never two of a kind, never beyond the
 * units capacity. Returns the number of GPUs shared. */
static int check_sharing(const pl_topology *t, const running_set *rs, pl_job *const *q, int32_t n,
                         const pl_decision *d)
{
    int32_t nv = pl_topology_vertex_count(t);
    int *ls = calloc((size_t)nv, sizeof *ls), *bt = calloc((size_t)nv, sizeof *bt), shared = 0;
    for (int32_t r = 0; rs && r < rs->n; r++)
        for (int32_t g = 0; g < rs->r[r].ngpus; g++)
            (pl_job_slo(rs->r[r].job) > 0 ? ls : bt)[rs->r[r].gpus[g]]++;
    for (int32_t i = 0; i < n; i++) {
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, i, &info));
        for (int32_t g = 0; info.kind == PL_DECISION_PLACED && g < info.ngpus; g++)
            (pl_job_slo(q[i]) > 0 ? ls : bt)[info.gpus[g]]++;
    }
    for (int32_t v = 0; v < nv; v++) {
        if (!ls[v] && !bt[v])
            continue;
        int64_t cap = 0;
        assert_pl_ok(pl_topology_amount(t, v, PL_RES_UNITS, &cap, NULL, NULL));
        if (ls[v] > 1 || bt[v] > 1 || ls[v] + bt[v] > cap)
            fail_msg("GPU vertex %d (units %lld): %d latency-sensitive and %d batch tasks", (int)v,
                     (long long)cap, ls[v], bt[v]);
        shared += ls[v] + bt[v] > 1;
    }
    free(ls);
    free(bt);
    return shared;
}

static void test_pairs_as_mmp(void **state)
{
    (void)state;
    static const kim_group g[] = {{"node", 1, 2, 4, 2}};
    pl_topology *t = kim_cluster(g, 1);
    pl_job *q[7];
    drop_queue(q);
    matrix_ctx m = {drop_m, NULL, 0};
    pl_gpu_qos_opts go = matrix_opts(&m);
    /* what pl_gpu_mmp says on the same matrix (LS slowdowns 0) */
    double l[12];
    for (int e = 0; e < 12; e++)
        l[e] = isnan(drop_m[e]) ? NAN : 0;
    pl_gpu_pairing_problem p = {3, 4, drop_m, l};
    int32_t pair[3];
    assert_pl_ok(pl_gpu_mmp(&p, pair));
    assert_int_equal(pair[0], -1);
    assert_int_equal(pair[1], 3);
    assert_int_equal(pair[2], 1);
    pl_decision *d = place_gq(t, NULL, q, 7, NULL, &go);
    assert_int_equal(m.calls, 12);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            int together = gpu_of(d, i) == gpu_of(d, 3 + j);
            if (together != (pair[i] == j))
                fail_msg("L%d and B%d %s a GPU, MMP says %s", i, j, together ? "share" : "do not share",
                         pair[i] == j ? "pair" : "apart");
        }
    assert_int_equal(check_sharing(t, NULL, q, 7, d), 2);
    /* the predicted slowdowns: B3 next to L1 1.2, B1 next to L2 1.15, alone 1 */
    assert_true(fabs(dec(d, 6, PL_DECISION_PLACED).slowdown - 1.20) < 1e-12);
    assert_true(fabs(dec(d, 4, PL_DECISION_PLACED).slowdown - 1.15) < 1e-12);
    assert_true(dec(d, 0, PL_DECISION_PLACED).slowdown == 1.0);
    pl_decision_free(d);
    /* the exact pairing by min-cost flow also pairs L0 with B0 */
    go.pairing = PL_GPU_PAIRING_OPTIMAL;
    d = place_gq(t, NULL, q, 7, NULL, &go);
    assert_int_equal(gpu_of(d, 0), gpu_of(d, 3));
    assert_int_equal(gpu_of(d, 1), gpu_of(d, 6));
    assert_int_equal(gpu_of(d, 2), gpu_of(d, 4));
    assert_int_equal(check_sharing(t, NULL, q, 7, d), 3);
    pl_decision_free(d);
    kim_free_jobs(q, 7);
    pl_topology_free(t);
}

/* Units 1: no GPU is ever shared (7 jobs on 7 GPUs); two GPUs of units 2:
 * four tasks at most, as two pairs, the rest waiting. */
static void test_capacity(void **state)
{
    (void)state;
    pl_job *q[7];
    drop_queue(q);
    matrix_ctx m = {drop_m, NULL, 0};
    pl_gpu_qos_opts go = matrix_opts(&m);
    static const kim_group one[] = {{"node", 1, 2, 4, 1}};
    pl_topology *t = kim_cluster(one, 1);
    pl_decision *d = place_gq(t, NULL, q, 7, NULL, &go);
    for (int i = 0; i < 7; i++)
        gpu_of(d, i);
    assert_int_equal(check_sharing(t, NULL, q, 7, d), 0);
    pl_decision_free(d);
    pl_topology_free(t);
    static const kim_group two[] = {{"node", 1, 1, 2, 2}};
    t = kim_cluster(two, 1);
    d = place_gq(t, NULL, q, 7, NULL, &go);
    /* L0 alone takes a whole empty GPU (nothing unshareable is left); L1 +
     * B3 take the other; L2's pair and the rest find no empty GPU. */
    assert_int_equal(kim_check_decisions(t, q, 7, d, NULL), 3);
    assert_int_equal(gpu_of(d, 1), gpu_of(d, 6));
    dec(d, 2, PL_DECISION_WAITING);
    assert_int_equal(check_sharing(t, NULL, q, 7, d), 1);
    pl_decision_free(d);
    pl_topology_free(t);
    kim_free_jobs(q, 7);
}

/* A running LS job alone on a GPU of units 2 is a row: its batch partner
 * joins it there. Over the QoS, the batch job runs on its own GPU. */
static void test_running_ls_row(void **state)
{
    (void)state;
    static const kim_group g[] = {{"node", 1, 1, 2, 2}};
    pl_topology *t = kim_cluster(g, 1);
    int32_t g0 = vx(t, "cluster/node0/package0/gpu0");
    pl_job *l = mkjob("L0", 1, 0, NULL, NULL), *b = mkjob("B0", 1, 0, NULL, NULL);
    assert_pl_ok(pl_job_set_slo(l, 10));
    running_set rs = {0};
    run_on(&rs, t, l, &g0, 1);
    static const double bs[12] = {0.3}, ls_ok[12] = {0.1}, ls_bad[12] = {0.25};
    matrix_ctx m = {bs, ls_ok, 0};
    pl_gpu_qos_opts go = matrix_opts(&m);
    go.share_factor = 5;   /* for the profile predictor only: a user predictor's values stand */
    pl_decision *d = place_gq(t, &rs, &b, 1, NULL, &go);
    assert_int_equal(gpu_of(d, 0), g0);
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).slowdown - 1.3) < 1e-12);
    assert_int_equal(check_sharing(t, &rs, &b, 1, d), 1);
    pl_decision_free(d);
    m.ls = ls_bad;   /* 0.25 >= QoS 0.2 */
    d = place_gq(t, &rs, &b, 1, NULL, &go);
    assert_int_not_equal(gpu_of(d, 0), g0);
    assert_int_equal(check_sharing(t, &rs, &b, 1, d), 0);
    pl_decision_free(d);
    pl_job_free(l);
    pl_job_free(b);
    pl_topology_free(t);
}

/* Symmetric on-line pairing: the columns also hold running batch jobs alone
 * on GPUs with a unit left. One machine, GPUs gpu0-gpu2 of 2 units; batch
 * B1 runs alone on gpu0; queue L0, L1 (LS), B0. Rows L0, L1; columns B0
 * (queued), B1 (running); batch slowdowns (LS ones in brackets)
 *        B0           B1
 *   L0   0.1 (0.05)   0.3 (0.15)
 *   L1   0.2 (0.1)    -
 * MMP: row L1 has one element: L1 + B0; then L0 has B1 alone: L0 + B1. So
 * L0 joins B1 on gpu0 (slowdown 1.15), L1 + B0 take the first empty
 * shareable GPU, gpu1 (1.1 and 1.2), gpu2 stays empty. Greedy takes the
 * lowest batch slowdown first, L0 + B0 (gpu1), and L1 runs alone (gpu2).
 * With columns of queued jobs only, MMP would have paired L0 + B0 too
 * (row L1's B0 is then its only element, but L0 comes first). */
static void test_ls_joins_running_batch(void **state)
{
    (void)state;
    static const kim_group g[] = {{"node", 1, 1, 3, 2}};
    pl_topology *t = kim_cluster(g, 1);
    int32_t gpu[3] = {vx(t, "cluster/node0/package0/gpu0"), vx(t, "cluster/node0/package0/gpu1"),
                      vx(t, "cluster/node0/package0/gpu2")};
    pl_job *b1 = mkjob("B1", 1, 0, NULL, NULL);
    running_set rs = {0};
    run_on(&rs, t, b1, &gpu[0], 1);
    pl_job *q[3] = {ls_job("L0", 1), ls_job("L1", 1), mkjob("B0", 1, 0, NULL, NULL)};
    static const double bs[12] = {0.1, 0.3, E, E, 0.2, E, E, E}, ls[12] = {0.05, 0.15, E, E, 0.1, E, E, E};
    matrix_ctx m = {bs, ls, 0};
    pl_gpu_qos_opts go = matrix_opts(&m);
    /* the library's MMP and Greedy on the extended matrix (rows L0 L1, columns B0 B1) */
    static const double pb[4] = {0.1, 0.3, 0.2, E}, pls[4] = {0.05, 0.15, 0.1, E};
    pl_gpu_pairing_problem p = {2, 2, pb, pls};
    int32_t pair[2];
    assert_pl_ok(pl_gpu_mmp(&p, pair));
    assert_true(pair[0] == 1 && pair[1] == 0);
    assert_pl_ok(pl_gpu_greedy(&p, pair));
    assert_true(pair[0] == 0 && pair[1] == -1);

    pl_decision *d = place_gq(t, &rs, q, 3, NULL, &go);
    assert_int_equal(m.calls, 4);
    assert_int_equal(gpu_of(d, 0), gpu[0]);
    assert_int_equal(gpu_of(d, 1), gpu[1]);
    assert_int_equal(gpu_of(d, 2), gpu[1]);
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).slowdown - 1.15) < 1e-12);
    assert_true(fabs(dec(d, 1, PL_DECISION_PLACED).slowdown - 1.1) < 1e-12);
    assert_true(fabs(dec(d, 2, PL_DECISION_PLACED).slowdown - 1.2) < 1e-12);
    assert_int_equal(check_sharing(t, &rs, q, 3, d), 2);
    pl_decision_free(d);

    go.pairing = PL_GPU_PAIRING_GREEDY;
    d = place_gq(t, &rs, q, 3, NULL, &go);
    assert_int_equal(gpu_of(d, 0), gpu[1]);
    assert_int_equal(gpu_of(d, 2), gpu[1]);
    assert_int_equal(gpu_of(d, 1), gpu[2]);
    assert_true(dec(d, 1, PL_DECISION_PLACED).slowdown == 1.0);
    assert_int_equal(check_sharing(t, &rs, q, 3, d), 1);
    pl_decision_free(d);
    kim_free_jobs(q, 3);
    pl_job_free(b1);
    pl_topology_free(t);
}

/* L0 (LS) queued, B0 (batch) running alone on node0's 2-unit GPU; node1's
 * GPU is empty. L0 + B0 is a good pair (0.1, 0.3) and L0 joins B0, unless a
 * rule forbids the pair: then L0 runs alone on node1 and the predictor is
 * not asked when the rule is one of the machine (node filter,
 * anti-affinity) or the task count; it is asked, and refused, over the
 * QoS. A running batch job is no column when its GPU has 1 unit, or a
 * second unit taken by something else. A running LS row and a running batch
 * column are never paired with each other (the predictor is not asked). */
static void test_running_batch_column_rules(void **state)
{
    (void)state;
    static const kim_group two[] = {{"node", 2, 1, 1, 2}};
    pl_topology *t = kim_cluster(two, 1);
    int32_t n0 = vx(t, "cluster/node0/package0/gpu0"), n1 = vx(t, "cluster/node1/package0/gpu0");
    pl_job *b0 = mkjob("B0", 1, 0, NULL, NULL), *l0 = ls_job("L0", 1);
    assert_pl_ok(pl_job_add_label(b0, "db"));
    running_set rs = {0};
    run_on(&rs, t, b0, &n0, 1);
    static const double bs[12] = {0.3}, ls_ok[12] = {0.1}, ls_bad[12] = {0.2};
    matrix_ctx m = {bs, ls_ok, 0};
    pl_gpu_qos_opts go = matrix_opts(&m);
    pl_decision *d = place_gq(t, &rs, &l0, 1, NULL, &go);
    assert_int_equal(gpu_of(d, 0), n0);
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).slowdown - 1.1) < 1e-12);
    assert_int_equal(m.calls, 1);
    pl_decision_free(d);

    m.ls = ls_bad;   /* 0.2 is not strictly below the QoS 0.2 */
    d = place_gq(t, &rs, &l0, 1, NULL, &go);
    assert_int_equal(gpu_of(d, 0), n1);
    assert_int_equal(m.calls, 2);
    pl_decision_free(d);
    m.ls = ls_ok;

    const char *only_node1 = "node1";
    assert_pl_ok(pl_job_set_node_filter(l0, &only_node1, 1));
    d = place_gq(t, &rs, &l0, 1, NULL, &go);
    assert_int_equal(gpu_of(d, 0), n1);
    assert_int_equal(m.calls, 2);
    pl_decision_free(d);
    pl_job_free(l0);

    l0 = ls_job("L0", 1);
    assert_pl_ok(pl_job_add_anti_affinity(l0, "db"));
    d = place_gq(t, &rs, &l0, 1, NULL, &go);
    assert_int_equal(gpu_of(d, 0), n1);
    assert_int_equal(m.calls, 2);
    pl_decision_free(d);
    pl_job_free(l0);

    /* L0 with 2 tasks, B0 with 1: no element */
    static const kim_group wide[] = {{"node", 1, 1, 3, 2}};
    pl_topology *w = kim_cluster(wide, 1);
    int32_t w0 = vx(w, "cluster/node0/package0/gpu0");
    running_set rw = {0};
    run_on(&rw, w, b0, &w0, 1);
    l0 = ls_job("L0", 2);
    d = place_gq(w, &rw, &l0, 1, NULL, &go);
    assert_int_equal(m.calls, 2);
    assert_int_equal(check_sharing(w, &rw, &l0, 1, d), 0);
    pl_decision_free(d);
    pl_job_free(l0);
    l0 = ls_job("L0", 1);
    /* B0's GPU with its second unit taken: not alone on it, no column */
    assert_pl_ok(pl_topology_alloc(w, w0, PL_RES_UNITS, 1));
    d = place_gq(w, &rw, &l0, 1, NULL, &go);
    assert_int_equal(m.calls, 2);
    assert_int_not_equal(gpu_of(d, 0), w0);
    pl_decision_free(d);
    pl_topology_free(w);

    /* 1-unit GPUs: nothing to share, no column */
    static const kim_group one[] = {{"node", 1, 1, 2, 1}};
    w = kim_cluster(one, 1);
    w0 = vx(w, "cluster/node0/package0/gpu0");
    running_set r1 = {0};
    run_on(&r1, w, b0, &w0, 1);
    d = place_gq(w, &r1, &l0, 1, NULL, &go);
    assert_int_equal(m.calls, 2);
    assert_int_equal(gpu_of(d, 0), vx(w, "cluster/node0/package0/gpu1"));
    pl_decision_free(d);
    pl_topology_free(w);

    /* running L0 on node1 (a row) and running B0 (a column): queued B1 is
     * L0's only partner, the running pair is never asked */
    running_set both = rs;
    run_on(&both, t, l0, &n1, 1);
    pl_job *b1 = mkjob("B1", 1, 0, NULL, NULL);
    static const double bs2[12] = {0.3, 0.3}, ls2[12] = {0.1, 0.1};
    matrix_ctx m2 = {bs2, ls2, 0};
    go.predict_ctx = &m2;
    d = place_gq(t, &both, &b1, 1, NULL, &go);
    assert_int_equal(m2.calls, 1);
    assert_int_equal(gpu_of(d, 0), n1);
    assert_int_equal(check_sharing(t, &both, &b1, 1, d), 1);
    pl_decision_free(d);
    pl_job_free(b1);
    pl_job_free(l0);
    pl_job_free(b0);
    pl_topology_free(t);
}

/* Anti-affinity beats a good pair. Two machines of one 2-unit GPU: L0
 * (label db) and B0 (avoids db) would pair well, but may not share a
 * machine: L0 alone on node0, B0 alone on node1, the predictor never asked.
 * One machine of two 2-unit GPUs: L0 + B1 share gpu0; B0 waits although
 * gpu1 is empty, L0 being hidden under B1 on the GPU they share. */
static void test_anti_affine_pairs(void **state)
{
    (void)state;
    static const double bs[12] = {0.3, 0.3}, ls[12] = {0.1, 0.1};
    matrix_ctx m = {bs, ls, 0};
    pl_gpu_qos_opts go = matrix_opts(&m);
    pl_job *q[3] = {ls_job("L0", 1), mkjob("B0", 1, 0, NULL, NULL), mkjob("B1", 1, 0, NULL, NULL)};
    assert_pl_ok(pl_job_add_label(q[0], "db"));
    assert_pl_ok(pl_job_add_anti_affinity(q[1], "db"));
    static const kim_group two[] = {{"node", 2, 1, 1, 2}};
    pl_topology *t = kim_cluster(two, 1);
    pl_decision *d = place_gq(t, NULL, q, 2, NULL, &go);
    assert_int_equal(gpu_of(d, 0), vx(t, "cluster/node0/package0/gpu0"));
    assert_int_equal(gpu_of(d, 1), vx(t, "cluster/node1/package0/gpu0"));
    assert_int_equal(m.calls, 0);
    pl_decision_free(d);
    pl_topology_free(t);
    static const kim_group one[] = {{"node", 1, 1, 2, 2}};
    t = kim_cluster(one, 1);
    pl_job *lbb[3] = {q[0], q[2], q[1]};
    d = place_gq(t, NULL, lbb, 3, NULL, &go);
    assert_int_equal(m.calls, 1);
    assert_int_equal(gpu_of(d, 0), vx(t, "cluster/node0/package0/gpu0"));
    assert_int_equal(gpu_of(d, 1), vx(t, "cluster/node0/package0/gpu0"));
    dec(d, 2, PL_DECISION_WAITING);
    pl_decision_free(d);
    pl_topology_free(t);
    kim_free_jobs(q, 3);
}

/* The default predictor from profiles: lat 10 s solo, 11 s next to bat
 * (LS slowdown 0.1); bat 20 s solo, 26 s next to lat (0.3). QoS 0.2 pairs
 * them, QoS 0.1 does not (strictly below); an unprofiled pair never pairs,
 * nor do jobs of different task counts. */
static void test_profile_predictor_and_qos(void **state)
{
    (void)state;
    static const kim_group g[] = {{"node", 1, 1, 4, 2}};
    pl_topology *t = kim_cluster(g, 1);
    pl_profile_set *ps = lat_bat_profiles(0);
    pl_job *q[2] = {mkjob("l", 1, 0, "lat", "1"), mkjob("b", 1, 0, "bat", "1")};
    assert_pl_ok(pl_job_set_slo(q[0], 5));
    pl_gpu_qos_opts go;
    pl_gpu_qos_opts_init(&go);
    pl_decision *d = place_gq(t, NULL, q, 2, ps, &go);
    assert_int_equal(gpu_of(d, 0), gpu_of(d, 1));
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).slowdown - 1.1) < 1e-12);
    assert_true(fabs(dec(d, 1, PL_DECISION_PLACED).slowdown - 1.3) < 1e-12);
    pl_decision_free(d);
    go.qos = 0.1;
    d = place_gq(t, NULL, q, 2, ps, &go);
    assert_int_not_equal(gpu_of(d, 0), gpu_of(d, 1));
    pl_decision_free(d);
    go.qos = 0.2;
    pl_job *other = mkjob("o", 1, 0, "unknown", "1"), *two = mkjob("two", 2, 0, "bat", "1");
    pl_job *q2[3] = {q[0], other, two};
    d = place_gq(t, NULL, q2, 3, ps, &go);
    assert_int_equal(check_sharing(t, NULL, q2, 3, d), 0);
    pl_decision_free(d);
    /* max_placed 1: the pair cannot both run; the first job runs alone */
    pl_policy_opts o = kim_opts("gpu-qos", ps, NULL);
    o.max_placed = 1;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, 2, &d));
    dec(d, 0, PL_DECISION_PLACED);
    assert_non_null(strstr(dec(d, 1, PL_DECISION_WAITING).reason, "max_placed"));
    pl_decision_free(d);
    pl_job_free(other);
    pl_job_free(two);
    kim_free_jobs(q, 2);
    pl_profile_set_free(ps);
    pl_topology_free(t);
}

/* The share factor F of the profile predictor: each side's slowdown is
 * max(1, co-located / solo) x F - 1. lat/bat as above (ratios 1.1, 1.3):
 * F 1.05: LS 1.155 - 1 = 0.155 < 0.2, a pair, reported 1.155 and 1.365;
 * F 1.1: LS 0.21, no pair. fast runs 20 s solo, 20 s next to lat, and lat
 * 9 s next to it (ratio 0.9, clamped to 1): F 1.15 gives both 0.15, a pair
 * reported 1.15 each (without the clamp lat would be 0.9 x 1.15 = 1.035). */
static void test_share_factor(void **state)
{
    (void)state;
    static const kim_group g[] = {{"node", 1, 1, 4, 2}};
    pl_topology *t = kim_cluster(g, 1);
    pl_profile_set *ps = lat_bat_profiles(1);
    pl_job *q[3] = {mkjob("l", 1, 0, "lat", "1"), mkjob("b", 1, 0, "bat", "1"), mkjob("f", 1, 0, "fast", "1")};
    assert_pl_ok(pl_job_set_slo(q[0], 5));
    pl_gpu_qos_opts go;
    pl_gpu_qos_opts_init(&go);
    go.share_factor = 1.05;
    pl_decision *d = place_gq(t, NULL, q, 2, ps, &go);
    assert_int_equal(gpu_of(d, 0), gpu_of(d, 1));
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).slowdown - 1.155) < 1e-12);
    assert_true(fabs(dec(d, 1, PL_DECISION_PLACED).slowdown - 1.365) < 1e-12);
    pl_decision_free(d);
    go.share_factor = 1.1;
    d = place_gq(t, NULL, q, 2, ps, &go);
    assert_int_not_equal(gpu_of(d, 0), gpu_of(d, 1));
    assert_int_equal(check_sharing(t, NULL, q, 2, d), 0);
    pl_decision_free(d);
    go.share_factor = 1.15;
    pl_job *lf[2] = {q[0], q[2]};
    d = place_gq(t, NULL, lf, 2, ps, &go);
    assert_int_equal(gpu_of(d, 0), gpu_of(d, 1));
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).slowdown - 1.15) < 1e-12);
    assert_true(fabs(dec(d, 1, PL_DECISION_PLACED).slowdown - 1.15) < 1e-12);
    pl_decision_free(d);
    kim_free_jobs(q, 3);
    pl_profile_set_free(ps);
    pl_topology_free(t);
}

/* ---- the usage-pattern model (PL_GPU_QOS_MODEL_USAGE) ---------------------- */

/* tests/sim/test_sim_usage.c's hand-computed patterns (1 s iterations):
 * first-half a 0.5 s kernel then 0.5 s of CPU, second-half the reverse,
 * busy one 1 s kernel. Replayed together: first-half next to second-half
 * 1 and second-half next to first-half 1 (they alternate); first-half next
 * to busy 1000/667 and busy next to first-half 1.5 (the kernels queue). */
static const char usage_csv[] = "workload,kind,gap_s,duration_s\n"
                                "first-half,kernel,0,0.5\n"
                                "first-half,tail,0.5,\n"
                                "second-half,kernel,0.5,0.5\n"
                                "busy,kernel,0,1\n";

static void write_usage_csv(char *path)
{
    strcpy(path, "/tmp/pl_gq_usage_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, usage_csv, sizeof usage_csv - 1), (ssize_t)(sizeof usage_csv - 1));
    close(fd);
}

/* L (first-half, LS) 10 s solo, 10.5 s next to busy, 11 s next to
 * second-half or bat; busy 20 s solo, 21 s next to L; second-half and bat
 * 20 s solo, 22 s next to L. bat has no usage pattern. */
static pl_profile_set *usage_profiles(void)
{
    static const kim_solo solo[] = {{"first-half", 1, PL_SPREAD_INTRA_SOCKET, 10},
                                    {"busy", 1, PL_SPREAD_INTRA_SOCKET, 20},
                                    {"second-half", 1, PL_SPREAD_INTRA_SOCKET, 20},
                                    {"bat", 1, PL_SPREAD_INTRA_SOCKET, 20}};
    static const kim_coloc co[] = {{"first-half", 1, "busy", 1, 10.5},   {"busy", 1, "first-half", 1, 21},
                                   {"first-half", 1, "second-half", 1, 11}, {"second-half", 1, "first-half", 1, 22},
                                   {"first-half", 1, "bat", 1, 11},        {"bat", 1, "first-half", 1, 22}};
    return KIM_PROFILES(solo, co);
}

/* The usage cases: the CSV written, one node of four 2-unit GPUs, the
 * profiles above, queue L (LS), B1 (busy), B2 (second-half), B3 (bat). */
typedef struct usage_case {
    char path[64];
    pl_topology *t;
    pl_profile_set *ps;
    pl_job *q[4];
} usage_case;

static void usage_case_init(usage_case *c)
{
    write_usage_csv(c->path);
    static const kim_group g[] = {{"node", 1, 1, 4, 2}};
    c->t = kim_cluster(g, 1);
    c->ps = usage_profiles();
    static const char *const names[4] = {"L", "B1", "B2", "B3"}, *const types[4] = {"first-half", "busy",
                                                                                   "second-half", "bat"};
    for (int i = 0; i < 4; i++)
        c->q[i] = mkjob(names[i], 1, 0, types[i], "1");
    assert_pl_ok(pl_job_set_slo(c->q[0], 25));
}

static void usage_case_free(usage_case *c)
{
    unlink(c->path);
    kim_free_jobs(c->q, 4);
    pl_profile_set_free(c->ps);
    pl_topology_free(c->t);
}

/* Jobs ls and batch of d share a GPU, with these reported slowdowns. */
static void expect_pair(const pl_decision *d, int32_t ls, int32_t batch, double ls_slow, double batch_slow)
{
    assert_int_equal(gpu_of(d, ls), gpu_of(d, batch));
    double got_l = dec(d, ls, PL_DECISION_PLACED).slowdown, got_b = dec(d, batch, PL_DECISION_PLACED).slowdown;
    if (fabs(got_l - ls_slow) > 1e-9 || fabs(got_b - batch_slow) > 1e-9)
        fail_msg("pair slowdowns %.12f, %.12f; want %.12f, %.12f", got_l, got_b, ls_slow, batch_slow);
}

/* Queue L, B1 (busy), B2 (second-half) on one node of four 2-unit GPUs.
 * The profiles alone (share factor 1): LS slowdowns 0.05 next to B1, 0.1
 * next to B2, batch 0.05 and 0.1: MMP takes the lower batch slowdown, L +
 * B1 (reported 1.05, 1.05), B2 alone. The usage model sees that busy's
 * kernels block L's: 1.05 x 1000/667 - 1 = 0.574 >= QoS 0.2, no pair; next
 * to B2 the patterns interleave (factor 1): L + B2 (1.1, 1.1), B1 alone.
 * With share factor 1.2737 the profiles pair nothing (1.05 x 1.2737 - 1 =
 * 0.337, 1.1 x 1.2737 - 1 = 0.401), the usage model still L + B2: the factor
 * only prices pairs without patterns (bat: L + bat at 1.05 is 1.1 x 1.05 =
 * 1.155 each, a pair; at 1.1, 0.21: none). At QoS 0.6, L + B1 alone pair
 * under the usage model, each side with its own factor: L 1.05 x 1000/667,
 * B1 1.05 x 1.5. */
static void test_usage_model_pairs(void **state)
{
    (void)state;
    usage_case c;
    usage_case_init(&c);
    pl_gpu_qos_opts go;
    pl_gpu_qos_opts_init(&go);
    pl_decision *d = place_gq(c.t, NULL, c.q, 3, c.ps, &go);
    expect_pair(d, 0, 1, 1.05, 1.05);
    assert_int_equal(check_sharing(c.t, NULL, c.q, 3, d), 1);
    pl_decision_free(d);
    go.model = PL_GPU_QOS_MODEL_USAGE;
    go.usage_traces = c.path;
    d = place_gq(c.t, NULL, c.q, 3, c.ps, &go);
    expect_pair(d, 0, 2, 1.1, 1.1);
    assert_int_equal(check_sharing(c.t, NULL, c.q, 3, d), 1);
    pl_decision_free(d);
    go.share_factor = 1.2737;
    d = place_gq(c.t, NULL, c.q, 3, c.ps, &go);
    expect_pair(d, 0, 2, 1.1, 1.1);
    pl_decision_free(d);
    go.model = PL_GPU_QOS_MODEL_PROFILES;
    d = place_gq(c.t, NULL, c.q, 3, c.ps, &go);
    assert_int_equal(check_sharing(c.t, NULL, c.q, 3, d), 0);
    pl_decision_free(d);
    /* no pattern: the share factor */
    pl_job *lb[2] = {c.q[0], c.q[3]};
    go.model = PL_GPU_QOS_MODEL_USAGE;
    go.share_factor = 1.05;
    d = place_gq(c.t, NULL, lb, 2, c.ps, &go);
    expect_pair(d, 0, 1, 1.155, 1.155);
    pl_decision_free(d);
    go.share_factor = 1.1;
    d = place_gq(c.t, NULL, lb, 2, c.ps, &go);
    assert_int_equal(check_sharing(c.t, NULL, lb, 2, d), 0);
    pl_decision_free(d);
    go.share_factor = 1;
    go.qos = 0.6;
    d = place_gq(c.t, NULL, c.q, 2, c.ps, &go);
    expect_pair(d, 0, 1, 1.05 * 1000 / 667, 1.05 * 1.5);
    pl_decision_free(d);
    usage_case_free(&c);
}

/* The table is read once per instance: with the CSV gone, an instance made
 * before still pairs by it, round after round; a one-shot call, a new
 * instance, or a round naming another file reads it and fails (PL_EIO). */
static void test_usage_table_per_instance(void **state)
{
    (void)state;
    usage_case c;
    usage_case_init(&c);
    pl_gpu_qos_opts go;
    pl_gpu_qos_opts_init(&go);
    go.model = PL_GPU_QOS_MODEL_USAGE;
    go.usage_traces = c.path;
    pl_policy_opts o = kim_opts("gpu-qos", c.ps, &go);
    pl_policy *p = NULL;
    assert_pl_ok(pl_policy_create(&o, &p));
    unlink(c.path);
    for (int round = 0; round < 2; round++) {
        pl_decision *d = NULL;
        assert_pl_ok(pl_policy_decide(p, NULL, c.t, NULL, 0, c.q, 3, &d));
        expect_pair(d, 0, 2, 1.1, 1.1);
        pl_decision_free(d);
    }
    pl_decision *d = (pl_decision *)&o;
    assert_pl_status(pl_policy_place(&o, c.t, NULL, 0, c.q, 3, &d), PL_EIO);
    assert_null(d);
    pl_policy *p2 = (pl_policy *)&o;
    assert_pl_status(pl_policy_create(&o, &p2), PL_EIO);
    assert_null(p2);
    pl_gpu_qos_opts other = go;
    other.usage_traces = "/nonexistent/usage.csv";
    pl_policy_opts o2 = kim_opts("gpu-qos", c.ps, &other);
    d = (pl_decision *)&o;
    assert_pl_status(pl_policy_decide(p, &o2, c.t, NULL, 0, c.q, 3, &d), PL_EIO);
    assert_non_null(strstr(pl_last_error(), "/nonexistent/usage.csv"));
    assert_null(d);
    pl_policy_free(p);
    usage_case_free(&c);
}

static void test_option_errors(void **state)
{
    (void)state;
    pl_topology *t = minsky();
    pl_job *j = mkjob("j", 1, 0, NULL, NULL);
    pl_gpu_qos_opts go;
    pl_gpu_qos_opts_init(&go);
    assert_true(go.qos == 0.2 && go.pairing == PL_GPU_PAIRING_MMP && !go.predict && go.share_factor == 1.0);
    assert_true(go.model == PL_GPU_QOS_MODEL_PROFILES && !go.usage_traces);
    for (int i = 0; i < 4; i++)
        assert_true(go.reserved[i] == 0);
    go.qos = 0;
    kim_expect_einval("gpu-qos", t, &j, &go, "qos");
    go.qos = NAN;
    kim_expect_einval("gpu-qos", t, &j, &go, "qos");
    pl_gpu_qos_opts_init(&go);
    go.pairing = (pl_gpu_pairing_algo)9;
    kim_expect_einval("gpu-qos", t, &j, &go, "pairing");
    static const double bad_factor[] = {0.99, 0, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_factor / sizeof *bad_factor; i++) {
        pl_gpu_qos_opts_init(&go);
        go.share_factor = bad_factor[i];
        kim_expect_einval("gpu-qos", t, &j, &go, "share_factor");
    }
    pl_gpu_qos_opts_init(&go);
    go.model = (pl_gpu_qos_model)7;
    kim_expect_einval("gpu-qos", t, &j, &go, "unknown model 7");
    matrix_ctx m = {drop_m, NULL, 0};
    go = matrix_opts(&m);
    go.model = PL_GPU_QOS_MODEL_USAGE;
    kim_expect_einval("gpu-qos", t, &j, &go, "user predictor");
    assert_int_equal(m.calls, 0);
    pl_two_level_opts other;
    pl_two_level_opts_init(&other);
    kim_expect_einval("gpu-qos", t, &j, &other, "not this policy's options");
    pl_job_free(j);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_as_mmp),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_running_ls_row),
        cmocka_unit_test(test_ls_joins_running_batch),
        cmocka_unit_test(test_running_batch_column_rules),
        cmocka_unit_test(test_anti_affine_pairs),
        cmocka_unit_test(test_profile_predictor_and_qos),
        cmocka_unit_test(test_share_factor),
        cmocka_unit_test(test_usage_model_pairs),
        cmocka_unit_test(test_usage_table_per_instance),
        cmocka_unit_test(test_option_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
