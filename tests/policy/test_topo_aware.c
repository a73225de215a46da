/* topo-aware and topo-aware-p (seed 002, Algorithms 1-3) on the Minsky and
 * DGX-1 builtins and Minsky clusters. Minsky GPU distances: 1 within a
 * socket (gpu0-gpu1, gpu2-gpu3, NVLink), 22 across (GPU-socket 1 + X-Bus 20
 * + socket-GPU 1). */
#include <math.h>
#include "policy_fixture.h"
#include "internal/policy_impl.h"

#define G(t, p) vx(t, "machine/package" #p "/gpu")

static void gpus4(const pl_topology *t, int32_t g[4])
{
    g[0] = vx(t, "machine/package0/gpu0");
    g[1] = vx(t, "machine/package0/gpu1");
    g[2] = vx(t, "machine/package1/gpu2");
    g[3] = vx(t, "machine/package1/gpu3");
}

/* A 2-GPU job that talks a lot, on an empty Minsky: DRB splits {0,1} | {2,3};
 * task 0 ties (nothing placed yet) and goes to side 0, task 1 then costs
 * 4 x 0 there against 4 x 22 on side 1: the NVLink pair gpu0, gpu1.
 * Default (paper) utility: t = 1 of the machine's worst 22, no neighbours,
 * omega after = (0/2 + 2/2) / 2 = 0.5 of 1: U = 1 - (1/22 + 0 + 0.5) / 3
 * = 0.818182. */
static void test_comm_heavy_gets_nvlink_pair(void **s)
{
    (void)s;
    pl_topology *t = minsky();
    int32_t g[4];
    gpus4(t, g);
    pl_job *j = mkjob("talker", 2, 4, NULL, NULL);
    pl_decision *d = place("topo-aware", t, NULL, &j, 1);
    int32_t want[2] = {g[0], g[1]};
    assert_gpus(d, 0, want, 2);
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    assert_int_equal(info.comm_cost, 1);
    assert_true(fabs(info.utility - (1 - (1.0 / 22 + 0.5) / 3)) < 1e-9);
    assert_int_equal(info.machine, vx(t, "machine"));
    assert_true(info.slowdown == 1.0);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

/* Profiles: "caffe" b1 slows down 1.5x next to the bandwidth-heavy "stream". */
static pl_profile_set *stream_profiles(void)
{
    pl_profile_set *ps;
    assert_pl_ok(pl_profile_set_create(&ps));
    for (int32_t k = 1; k <= 2; k++) {
        assert_pl_ok(pl_profile_set_add_solo(ps, "caffe", "1", k, PL_SPREAD_INTRA_SOCKET, 100));
        assert_pl_ok(pl_profile_set_add_colocated(ps, "caffe", "1", k, "stream", "1", 1, 150));
    }
    return ps;
}

/* A job with no communication while "stream" runs on gpu0: socket 0 would
 * cost it a 1.5x slowdown, socket 1 none. DRB over the free {1, 2, 3} splits
 * {2, 3} | {1} (the larger socket group first); on side 0 the interference
 * is 1, on side 1 it is 1.5 (the worse), so both tasks go to side 0. The
 * 1-GPU variant takes gpu2 too, where first fit (fcfs) takes gpu1. */
static void test_no_comm_avoids_bandwidth_heavy_socket(void **s)
{
    (void)s;
    pl_topology *t = minsky();
    int32_t g[4];
    gpus4(t, g);
    pl_job *stream = mkjob("stream", 1, 0, "stream", "1");
    running_set rs = {0};
    run_on(&rs, t, stream, &g[0], 1);
    pl_profile_set *ps = stream_profiles();
    pl_job *q[2] = {mkjob("quiet2", 2, 0, "caffe", "1"), mkjob("quiet1", 1, 0, "caffe", "1")};
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.profiles = ps;
    for (int32_t i = 0; i < 2; i++) {
        pl_decision *d;
        assert_pl_ok(pl_policy_place(&o, t, rs.r, rs.n, &q[i], 1, &d));
        if (i == 0) {
            int32_t want[2] = {g[2], g[3]};
            assert_gpu_set(d, 0, want, 2);
        } else {
            assert_gpus(d, 0, &g[2], 1);
        }
        assert_true(dec(d, 0, PL_DECISION_PLACED).slowdown == 1.0);
        pl_decision_free(d);
    }
    /* Paper form: no traffic (no comm term), I = 1 on socket 1 (term 0 of
     * worst 1.5), omega after = (1/2 + 0/2) / 2 = 0.25 of 1:
     * U = 1 - 0.25 / 3 = 0.916667. */
    o.utility.form = PL_UTILITY_PAPER;
    pl_decision *d;
    assert_pl_ok(pl_policy_place(&o, t, rs.r, rs.n, &q[0], 1, &d));
    int32_t want2[2] = {g[2], g[3]};
    assert_gpu_set(d, 0, want2, 2);
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).utility - (1 - 0.25 / 3)) < 1e-9);
    pl_decision_free(d);
    o.utility.form = PL_UTILITY_ARTIFACT;
    o.policy = "fcfs";
    assert_pl_ok(pl_policy_place(&o, t, rs.r, rs.n, &q[1], 1, &d));
    assert_gpus(d, 0, &g[1], 1);
    /* fcfs's gpu1 shares socket 0 with stream: the predicted slowdown is 1.5. */
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).slowdown - 1.5) < 1e-12);
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_job_free(stream);
    pl_profile_set_free(ps);
    pl_topology_free(t);
}

/* place() with the utility form chosen by name. */
static pl_decision *place_form(const char *policy, const pl_topology *t, const running_set *rs,
                               pl_job *const *q, int32_t n, pl_utility_form form, pl_profile_set *ps)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    o.utility.form = form;
    o.profiles = ps;
    pl_decision *d = NULL;
    assert_pl_ok(pl_policy_place(&o, t, rs ? rs->r : NULL, rs ? rs->n : 0, q, n, &d));
    assert_int_equal(pl_decision_count(d), n);
    return d;
}

/* A Minsky with gpu0 and gpu2 taken by two 1-GPU jobs of workload `run`
 * and a talking 2-GPU job of workload `job` (minimal utility 0.5) to place
 * on the one free GPU per socket. */
typedef struct crossing {
    pl_topology *t;
    int32_t g[4];
    pl_job *r0, *r2, *j;
    running_set rs;
} crossing;

static void crossing_init(crossing *c, const char *run, const char *job)
{
    memset(c, 0, sizeof *c);
    c->t = minsky();
    gpus4(c->t, c->g);
    c->r0 = mkjob("r0", 1, 0, run, run ? "1" : NULL);
    c->r2 = mkjob("r2", 1, 0, run, run ? "1" : NULL);
    run_on(&c->rs, c->t, c->r0, &c->g[0], 1);
    run_on(&c->rs, c->t, c->r2, &c->g[2], 1);
    c->j = mkjob("pair", 2, 4, job, job ? "1" : NULL);
    assert_pl_ok(pl_job_set_min_utility(c->j, 0.5));
}

static void crossing_done(crossing *c)
{
    pl_job_free(c->j);
    pl_job_free(c->r0);
    pl_job_free(c->r2);
    pl_topology_free(c->t);
}

/* One free GPU per socket (gpu1, gpu3): a talking 2-GPU job can only cross
 * the X-Bus. The artifact's form: t = 22, t_min = 1, norm = 2 x 22: c_comm = 21/44 = 0.47727;
 * U = [1 / (0.47727^0.5 + 0.01^0.5)] / 5 = 1 / (0.69085 + 0.1) / 5 =
 * 0.25289 (0.2534 in the artifact, whose distance is 20): below 0.5, so
 * topo-aware-p postpones it and topo-aware places it. When gpu2 frees up,
 * the pair gpu2-gpu3 gives U = 1 and topo-aware-p places it. */
static void test_postpone_until_pair_frees(void **s)
{
    (void)s;
    crossing c;
    crossing_init(&c, NULL, NULL);
    pl_decision *d = place_form("topo-aware-p", c.t, &c.rs, &c.j, 1, PL_UTILITY_ARTIFACT, NULL);
    pl_decision_info info = dec(d, 0, PL_DECISION_POSTPONED);
    assert_true(fabs(info.utility - 0.25289) < 1e-4);
    assert_non_null(strstr(info.reason, "below the job's minimal utility 0.5"));
    assert_int_equal(info.ngpus, 0);
    pl_decision_free(d);

    d = place("topo-aware", c.t, &c.rs, &c.j, 1);
    int32_t cross[2] = {c.g[1], c.g[3]};
    assert_gpu_set(d, 0, cross, 2);
    assert_int_equal(dec(d, 0, PL_DECISION_PLACED).comm_cost, 22);
    pl_decision_free(d);

    /* The default (paper) form: communication alone costs at most alpha_cc =
     * 1/3 (t = 22 of 22, no interference, omega after 0): U = 2/3 >= 0.5,
     * the crossing pair is placed (test_postpone_on_interference_paper_form
     * has the case that it postpones). */
    d = place("topo-aware-p", c.t, &c.rs, &c.j, 1);
    assert_gpu_set(d, 0, cross, 2);
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).utility - 2.0 / 3) < 1e-9);
    pl_decision_free(d);

    /* r2 ends: the caller releases its GPU. */
    assert_pl_ok(pl_topology_release(c.t, c.g[2], PL_RES_UNITS, 1));
    c.rs.n = 1;
    d = place_form("topo-aware-p", c.t, &c.rs, &c.j, 1, PL_UTILITY_ARTIFACT, NULL);
    int32_t pair[2] = {c.g[2], c.g[3]};
    assert_gpu_set(d, 0, pair, 2);
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).utility - 1.0) < 1e-9);
    pl_decision_free(d);
    crossing_done(&c);
}

/* The paper form postpones the crossing pair when it would also run next
 * to interfering neighbours (the SC17 prototype's Job 3): "stream" on gpu0
 * and gpu2 slows a 2-GPU "caffe" job 1.5x. On {gpu1, gpu3}: comm 22/22,
 * interference (1.5 - 1) / (1.5 - 1) = 1, omega after 0: U = 1 - 2/3 =
 * 1/3 < 0.5, postponed; topo-aware places it there. */
static void test_postpone_on_interference_paper_form(void **s)
{
    (void)s;
    crossing c;
    crossing_init(&c, "stream", "caffe");
    pl_profile_set *ps = stream_profiles();
    pl_decision *d = place_form("topo-aware-p", c.t, &c.rs, &c.j, 1, PL_UTILITY_PAPER, ps);
    pl_decision_info info = dec(d, 0, PL_DECISION_POSTPONED);
    assert_true(fabs(info.utility - 1.0 / 3) < 1e-9);
    pl_decision_free(d);
    d = place_form("topo-aware", c.t, &c.rs, &c.j, 1, PL_UTILITY_PAPER, ps);
    int32_t cross[2] = {c.g[1], c.g[3]};
    assert_gpu_set(d, 0, cross, 2);
    assert_true(fabs(dec(d, 0, PL_DECISION_PLACED).slowdown - 1.5) < 1e-12);
    pl_decision_free(d);
    pl_profile_set_free(ps);
    crossing_done(&c);
}

/* Out of order: the postponed job does not hold up the next one. */
static void test_postponed_job_does_not_block(void **s)
{
    (void)s;
    pl_topology *t = minsky();
    int32_t g[4];
    gpus4(t, g);
    pl_job *r0 = mkjob("r0", 1, 0, NULL, NULL), *r2 = mkjob("r2", 1, 0, NULL, NULL);
    running_set rs = {0};
    run_on(&rs, t, r0, &g[0], 1);
    run_on(&rs, t, r2, &g[2], 1);
    pl_job *q[2] = {mkjob("pair", 2, 4, NULL, NULL), mkjob("single", 1, 0, NULL, NULL)};
    assert_pl_ok(pl_job_set_min_utility(q[0], 0.5));
    pl_decision *d = place_form("topo-aware-p", t, &rs, q, 2, PL_UTILITY_ARTIFACT, NULL);
    dec(d, 0, PL_DECISION_POSTPONED);
    pl_decision_info info = dec(d, 1, PL_DECISION_PLACED);
    assert_true(info.gpus[0] == g[1] || info.gpus[0] == g[3]);
    pl_decision_free(d);
    pl_job_free(q[0]);
    pl_job_free(q[1]);
    pl_job_free(r0);
    pl_job_free(r2);
    pl_topology_free(t);
}

/* DGX-1: GPUs 0-3 (socket 0) are NVLink-connected to each other, so a
 * talking 4-GPU job stays on one socket: t = 6 single-hop pairs. */
static void test_dgx1_four_gpus_one_socket(void **s)
{
    (void)s;
    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("dgx1", &t));
    pl_job *j = mkjob("four", 4, 2, NULL, NULL);
    pl_decision *d = place("topo-aware", t, NULL, &j, 1);
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    int32_t pkg = -1, p;
    for (int32_t i = 0; i < 4; i++) {
        assert_pl_ok(pl_topology_ancestor(t, info.gpus[i], PL_VK_PACKAGE, &p));
        if (i == 0)
            pkg = p;
        assert_int_equal(p, pkg);
    }
    assert_int_equal(info.comm_cost, 6);
    assert_int_equal(info.machine, vx(t, "machine"));
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

static int32_t machine_of(const pl_topology *t, int32_t g)
{
    int32_t m;
    assert_pl_ok(pl_topology_ancestor(t, g, PL_VK_MACHINE, &m));
    return m;
}

/* 4 Minsky machines, 2 per rack; jobs allowed on several machines
 * (single_node 0) still land on one machine when one can hold them. node0
 * has 2 GPUs busy, so the 4-GPU job goes to a whole machine; the 2-GPU job
 * then fits node0's free socket. */
static void test_cluster_never_splits_when_one_machine_fits(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(4, 2);
    int32_t busy[2] = {vx(t, "cluster/rack0/node0/package0/gpu0"),
                       vx(t, "cluster/rack0/node0/package0/gpu1")};
    pl_job *r = mkjob("r", 2, 0, NULL, NULL);
    running_set rs = {0};
    run_on(&rs, t, r, busy, 2);
    pl_job *q[3] = {mkjob("four", 4, 1, NULL, NULL), mkjob("two", 2, 1, NULL, NULL),
                    mkjob("four-quiet", 4, 0, NULL, NULL)};
    for (int32_t i = 0; i < 3; i++)
        assert_pl_ok(pl_job_set_single_node(q[i], 0));
    pl_decision *d = place("topo-aware", t, &rs, q, 3);
    for (int32_t i = 0; i < 3; i++) {
        pl_decision_info info = dec(d, i, PL_DECISION_PLACED);
        assert_true(info.machine >= 0);
        for (int32_t g = 0; g < info.ngpus; g++)
            assert_int_equal(machine_of(t, info.gpus[g]), info.machine);
    }
    assert_int_equal(dec(d, 0, PL_DECISION_PLACED).machine, vx(t, "cluster/rack0/node1"));
    /* node0's socket 1 is the only place left with an NVLink pair and fewer
     * GPUs spent; the pair gives utility 1 on node0, node2 and node3 alike:
     * the first machine wins the tie. */
    int32_t two[2] = {vx(t, "cluster/rack0/node0/package1/gpu2"), vx(t, "cluster/rack0/node0/package1/gpu3")};
    assert_gpu_set(d, 1, two, 2);
    assert_int_equal(dec(d, 2, PL_DECISION_PLACED).machine, vx(t, "cluster/rack1/node2"));
    pl_decision_free(d);
    for (int32_t i = 0; i < 3; i++)
        pl_job_free(q[i]);
    pl_job_free(r);
    pl_topology_free(t);
}

/* A 6-GPU multi-node job cannot fit one Minsky: DRB spreads it over two
 * machines (4 + 2), not three; a single-node one is rejected. Two
 * anti-collocated tasks land on different machines. */
static void test_cluster_multi_node_and_anti_collocation(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(4, 2);
    pl_job *q[3] = {mkjob("six", 6, 1, NULL, NULL), mkjob("six-single", 6, 1, NULL, NULL),
                    mkjob("apart", 2, 1, NULL, NULL)};
    assert_pl_ok(pl_job_set_single_node(q[0], 0));
    assert_pl_ok(pl_job_set_single_node(q[2], 0));
    assert_pl_ok(pl_job_add_anti_collocation(q[2], 0, 1));
    pl_decision *d = place("topo-aware", t, NULL, q, 3);
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    assert_int_equal(info.machine, -1);
    int32_t per[4] = {0};
    for (int32_t g = 0; g < 6; g++) {
        int32_t m = machine_of(t, info.gpus[g]);
        for (int32_t n = 0; n < 4; n++) {
            char path[64];
            snprintf(path, sizeof path, "cluster/rack%d/node%d", n / 2, n);
            per[n] += m == vx(t, path);
        }
    }
    int32_t used = 0, full = 0;
    for (int32_t n = 0; n < 4; n++) {
        used += per[n] > 0;
        full += per[n] == 4;
    }
    assert_int_equal(used, 2);
    assert_int_equal(full, 1);
    info = dec(d, 1, PL_DECISION_REJECTED);
    assert_non_null(strstr(info.reason, "more GPUs on one machine"));
    info = dec(d, 2, PL_DECISION_PLACED);
    assert_int_equal(info.machine, -1);
    assert_true(machine_of(t, info.gpus[0]) != machine_of(t, info.gpus[1]));
    pl_decision_free(d);
    for (int32_t i = 0; i < 3; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
}

/* The Fiduccia-Mattheyses pass repairs a split that cuts both NVLink pairs:
 * with D = 22 the pairs (0,1) and (2,3) weigh 22, the cross pairs 1; the
 * cut {0,2} | {1,3} weighs 22 + 22 + 1 + 1 = 46, {0,1} | {2,3} 4. */
/* Uneven traffic on an empty Minsky (bench-scotch's "random" k = 4 case):
 * traffic 0-1: 1, 0-2: 3, 1-2: 3, task 3 talks to nobody. Algorithm 3 takes
 * the tasks in order: task 0 ties and goes to socket 0, task 1 follows it
 * (1 x 1 against 1 x 22), task 2 must take socket 1 (socket 0 is full):
 * traffic-weighted cost 1 x 1 + 3 x 22 + 3 x 22 = 133. Swapping tasks 1 and
 * 3 puts 0 and 3 on socket 0, 1 and 2 on socket 1: 1 x 22 + 3 x 22 + 3 x 1 =
 * 91, the optimum (Scotch's mapping onto the same GPUs also gives 91). */
static void test_swap_refinement(void **s)
{
    (void)s;
    pl_topology *t = minsky();
    pl_job *j;
    assert_pl_ok(pl_job_create("uneven", &j));
    for (int i = 0; i < 4; i++)
        assert_pl_ok(pl_job_add_task(j, NULL, NULL));
    const double w[4][4] = {{0, 1, 3, 0}, {1, 0, 3, 0}, {3, 3, 0, 0}, {0, 0, 0, 0}};
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            if (w[a][b] > 0)
                assert_pl_ok(pl_job_add_edge(j, a, b, w[a][b]));
    /* Communication only, as bench-scotch runs it. */
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "topo-aware";
    o.utility.form = PL_UTILITY_PAPER;
    o.utility.alpha_cc = 1;
    o.utility.alpha_b = 0;
    o.utility.alpha_d = 0;
    pl_decision *d = NULL;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, &j, 1, &d));
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    int64_t m[16];
    assert_pl_ok(pl_topology_distance_matrix(t, info.gpus, 4, m));
    double weighted = 0;
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            weighted += w[a][b] * (double)m[a * 4 + b];
    assert_true(fabs(weighted - 91) < 1e-9);
    assert_int_equal(m[1 * 4 + 2], 1); /* the 1-2 pair shares a socket */
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

static void test_fm_refinement(void **s)
{
    (void)s;
    pl_topology *t = minsky();
    int32_t g[4];
    gpus4(t, g);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    pl_policy_request req = {.opts = &o, .topo = t};
    pl_pctx *c;
    assert_pl_ok(pl_pctx_create(&req, &c));
    uint8_t side[4] = {0, 1, 0, 1};
    int64_t before, after;
    assert_pl_ok(pl_drb_refine(c, g, 4, side, &before, &after));
    assert_int_equal(before, 46);
    assert_int_equal(after, 4);
    assert_int_equal(side[0], side[1]);
    assert_int_equal(side[2], side[3]);
    assert_true(side[0] != side[2]);
    /* An already good split is left alone. */
    uint8_t good[4] = {0, 0, 1, 1};
    assert_pl_ok(pl_drb_refine(c, g, 4, good, &before, &after));
    assert_int_equal(before, 4);
    assert_int_equal(after, 4);
    assert_int_equal(good[0] + good[1] + good[2] * 10 + good[3] * 10, 20);
    pl_pctx_free(c);
    pl_topology_free(t);
}

/* Issue 25: traffic 1e307 made both sides' communication infinite; inf/inf
 * gave a NaN utility term, INT64_MIN, and the whole call failed, the other
 * jobs of the file unplaced. Every job is decided now (the huge one too). */
static void test_huge_traffic(void **s)
{
    (void)s;
    char path[PL_PATH_MAX];
    pl_jobset *js = NULL;
    assert_pl_ok(pl_jobset_load_json(pl_test_data(path, "bad-input/traffic-1e307.json"), &js));
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *q[3];
    for (int32_t i = 0; i < 3; i++)
        q[i] = (pl_job *)pl_jobset_get(js, i);
    static const char *const policies[] = {"topo-aware", "topo-aware-p"};
    for (int p = 0; p < 2; p++) {
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.policy = policies[p];
        pl_decision *d = NULL;
        if (pl_policy_place(&o, t, NULL, 0, q, 3, &d) != PL_OK)
            fail_msg("%s: %s", policies[p], pl_last_error());
        for (int32_t i = 0; i < 3; i++) {
            pl_decision_info info;
            assert_pl_ok(pl_decision_get(d, i, &info));
            if (info.kind != PL_DECISION_PLACED)
                fail_msg("%s: job %d: %s", policies[p], (int)i, info.reason);
            assert_true(isfinite(info.utility));
        }
        pl_decision_free(d);
    }
    pl_topology_free(t);
    pl_jobset_free(js);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comm_heavy_gets_nvlink_pair),
        cmocka_unit_test(test_no_comm_avoids_bandwidth_heavy_socket),
        cmocka_unit_test(test_postpone_until_pair_frees),
        cmocka_unit_test(test_postpone_on_interference_paper_form),
        cmocka_unit_test(test_postponed_job_does_not_block),
        cmocka_unit_test(test_dgx1_four_gpus_one_socket),
        cmocka_unit_test(test_cluster_never_splits_when_one_machine_fits),
        cmocka_unit_test(test_cluster_multi_node_and_anti_collocation),
        cmocka_unit_test(test_fm_refinement),
        cmocka_unit_test(test_swap_refinement),
        cmocka_unit_test(test_huge_traffic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
