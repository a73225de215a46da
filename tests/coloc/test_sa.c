/* sa-placement (seed 003, Kim thesis ch. 2 sec. 3.2): candidate-count
 * formula (6, 12, 14), Table 2.3's six configurations, a hand-computed
 * objective, the co-runner rule, SA reaching the exhaustive optimum in batch
 * and on-line modes, determinism, the model predictor adapter, errors. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "kim_csv.h"
#include <placement/coloc.h>

/* Table 2.1 cluster (tests/data/kim/table2_1.csv): 8 T1 nodes (2 VMs of 2
 * vCPU each), 4 T2 nodes (4 VMs). */
static int32_t t21_nodes[2], t21_slots[2];
static const pl_coloc_cluster t21 = { 2, t21_nodes, t21_slots };

static int load_table21(void **state)
{
    (void)state;
    kim_csv t;
    kim_csv_load(&t, "kim/table2_1.csv");
    const char *const type[2] = { "T1", "T2" };
    for (int i = 0; i < 2; i++) {
        t21_nodes[i] = (int32_t)kim_csv_lookup(&t, "type", type[i], NULL, NULL, "nodes");
        t21_slots[i] = (int32_t)kim_csv_lookup(&t, "type", type[i], NULL, NULL, "vm_slots_per_node");
    }
    kim_csv_free(&t);
    /* 64 cores of 2-vCPU VMs (sec. I): 32 VMs in all */
    assert_int_equal(t21_nodes[0] * t21_slots[0] + t21_nodes[1] * t21_slots[1], 32);
    return 0;
}

/* Generator order: T1 scaled-out/consolidated, T2 ditto, then (T1,T2): C1 C2 C5 C6 C3 C4. */
enum { C1, C2, C5, C6, C3, C4, NCFG };
#define ONLINE2 13   /* recorded from the search, like 84 below */

/* Made-up solo runtimes (s) per configuration above, and interference weights. */
static const double solo[5 * NCFG] = {
    100, 110, 150, 160, 120, 125,
    200, 150, 180, 120, 190, 160,
    80, 90, 70, 75, 72, 78,
    100, 110, 150, 160, 120, 125,
    200, 150, 180, 120, 190, 160,
};
static const double weight[5 * 5] = {
    0, 0.05, 0.02, 0.05, 0.02,
    0.10, 0, 0.01, 0.10, 0.01,
    0.03, 0.2, 0, 0.03, 0.2,
    0, 0.05, 0.02, 0, 0.02,
    0.10, 0, 0.01, 0.10, 0,
};

/* runtime = solo * (1 + mean over blocks of sum_corunners w[a][o] * (o's VMs per node)) */
static pl_status toy_predict(void *ctx, const pl_coloc_query *q, double *r)
{
    (void)ctx;
    double s = 0;
    for (int32_t b = 0; b < q->cfg->blocks; b++)
        for (int32_t i = 0; i < q->corunners[b]; i++)
            s += weight[q->app * 5 + q->corunner_app[b][i]] * q->corunner_vms[b][i];
    *r = q->solo_runtime_s * (1 + s / q->cfg->blocks);
    return PL_OK;
}

static pl_coloc_config cfgs[NCFG];

static const pl_coloc_cluster *cluster = &t21;

static pl_coloc_problem problem(int32_t apps)
{
    int32_t n;
    assert_pl_ok(pl_coloc_candidates(cluster, 1, 8, cfgs, NCFG, &n));
    assert_int_equal(n, NCFG);
    pl_coloc_problem p;
    memset(&p, 0, sizeof p);
    p.cluster = cluster;
    p.apps = apps;
    p.vms = 8;
    p.configs = NCFG;
    p.config = cfgs;
    p.solo_runtime_s = solo;
    p.predict = toy_predict;
    return p;
}

static void test_candidate_count(void **state)
{
    (void)state;
    assert_int_equal(pl_coloc_candidate_count(2, 1), 6);
    assert_int_equal(pl_coloc_candidate_count(4, 1), 12);
    assert_int_equal(pl_coloc_candidate_count(4, 2), 14);
    assert_int_equal(pl_coloc_candidate_count(8, 1), 18);   /* k = 6, L = 3: 2 (6 + 3) */
    assert_int_equal(pl_coloc_candidate_count(1, 0), 2);
    assert_int_equal(pl_coloc_candidate_count(2, 2), -1);   /* 2^s > k */
    assert_int_equal(pl_coloc_candidate_count(0, 1), -1);
    /* the generator produces exactly the formula's count */
    int32_t nodes[8] = { 4, 4, 4, 4, 4, 4, 4, 4 }, slots[8] = { 2, 2, 4, 4, 2, 2, 4, 4 };
    pl_coloc_config out[64];
    const int32_t ts[][2] = { { 2, 1 }, { 4, 1 }, { 4, 2 }, { 8, 1 }, { 8, 2 }, { 3, 1 } };
    for (size_t i = 0; i < sizeof ts / sizeof *ts; i++) {
        pl_coloc_cluster c = { ts[i][0], nodes, slots };
        int32_t n;
        assert_pl_ok(pl_coloc_candidates(&c, ts[i][1], 8, out, 64, &n));
        assert_int_equal(n, pl_coloc_candidate_count(ts[i][0], ts[i][1]));
    }
}

static void expect_cfg(const pl_coloc_config *c, int32_t type0, int32_t type1, int32_t vpn, int cons)
{
    assert_int_equal(c->blocks, 2);
    assert_int_equal(c->block_type[0], type0);
    assert_int_equal(c->block_type[1], type1);
    assert_int_equal(c->vms_per_node, vpn);
    assert_int_equal(c->consolidated, cons);
    assert_int_equal(c->types, type0 == type1 ? 1 : 2);
}

/* Table 2.3 (tests/data/kim/table2_3.csv) against the generator: each row's
 * node types, VMs per node and variant (the consolidated one of two rows
 * with the same VMs per type has more VMs per node). */
static void test_table23_configs(void **state)
{
    (void)state;
    pl_coloc_config c[NCFG];
    int32_t n;
    assert_pl_ok(pl_coloc_candidates(&t21, 1, 8, c, NCFG, &n));
    static const char *const name[NCFG] = { "C1", "C2", "C5", "C6", "C3", "C4" };   /* generator order */
    kim_csv t;
    kim_csv_load(&t, "kim/table2_3.csv");
    assert_int_equal(t.nrows, NCFG);
    for (int r = 0; r < t.nrows; r++) {
        int i = 0;
        while (i < NCFG && strcmp(name[i], kim_csv_str(&t, r, "config")) != 0)
            i++;
        assert_true(i < NCFG);
        int v1 = (int)kim_csv_num(&t, r, "t1_vms"), v2 = (int)kim_csv_num(&t, r, "t2_vms");
        int p1 = (int)kim_csv_num(&t, r, "t1_vms_per_node"), p2 = (int)kim_csv_num(&t, r, "t2_vms_per_node");
        assert_int_equal(v1, (int)kim_csv_num(&t, r, "t1_nodes") * p1);
        assert_int_equal(v2, (int)kim_csv_num(&t, r, "t2_nodes") * p2);
        int vpn = p1 > p2 ? p1 : p2, cons = 0;
        for (int q = 0; q < t.nrows; q++)
            if (q != r && (int)kim_csv_num(&t, q, "t1_vms") == v1 && (int)kim_csv_num(&t, q, "t2_vms") == v2) {
                int other = (int)kim_csv_num(&t, q, "t1_vms_per_node") > (int)kim_csv_num(&t, q, "t2_vms_per_node")
                                ? (int)kim_csv_num(&t, q, "t1_vms_per_node") : (int)kim_csv_num(&t, q, "t2_vms_per_node");
                cons = vpn > other;
            }
        expect_cfg(&c[i], v1 > 0 ? 0 : 1, v2 > 0 ? 1 : 0, vpn, cons);
    }
    kim_csv_free(&t);
    /* (T=4, s=2): 8 homogeneous, pairs (0,1) (2,3), one 4-type tuple: 14 */
    int32_t nodes[4] = { 8, 8, 8, 8 }, slots[4] = { 2, 2, 2, 2 };
    pl_coloc_cluster c4 = { 4, nodes, slots };
    pl_coloc_config d[14];
    assert_pl_ok(pl_coloc_candidates(&c4, 2, 8, d, 14, &n));
    assert_int_equal(n, 14);
    assert_int_equal(d[8].types, 2);
    assert_int_equal(d[8].block_type[0], 0);
    assert_int_equal(d[8].block_type[2], 1);
    assert_int_equal(d[10].block_type[0], 2);
    assert_int_equal(d[10].block_type[3], 3);
    for (int b = 0; b < 4; b++)
        assert_int_equal(d[12].block_type[b], b);
    assert_pl_status(pl_coloc_candidates(&c4, 2, 8, d, 13, &n), PL_EINVAL);
    assert_pl_status(pl_coloc_candidates(&c4, 2, 6, d, 14, &n), PL_EINVAL);
    assert_pl_status(pl_coloc_candidates(&c4, 3, 8, d, 14, &n), PL_EINVAL);
}

/* app0 in C1 on nodes 0-3 | 4-7; app1 in C3: T1 block joins nodes 0-3, T2 block on 8-11. */
static void hand_placement(pl_coloc_placement *pl)
{
    assert_pl_ok(pl_coloc_placement_alloc(pl, 2, 8));
    pl->config[0] = C1;
    pl->config[1] = C3;
    for (int v = 0; v < 8; v++) {
        pl->node[v] = v;
        pl->node[8 + v] = v < 4 ? v : 8 + (v - 4);
    }
}

static void test_hand_objective(void **state)
{
    (void)state;
    pl_coloc_problem p = problem(2);
    pl_coloc_placement pl;
    hand_placement(&pl);
    double obj;
    assert_pl_ok(pl_coloc_evaluate(&p, &pl, &obj));
    /* app0: 100 (1 + 0.05 / 2) = 102.5 against worst solo 160;
     * app1: 190 (1 + 0.10 / 2) = 199.5 against worst solo 200 */
    double want = sqrt(160 / 102.5 * (200 / 199.5));
    assert_true(fabs(obj - want) < 1e-12);
    /* the T1 block of app1 straddling two groups breaks the co-runner rule */
    pl.node[8 + 0] = 2, pl.node[8 + 1] = 3, pl.node[8 + 2] = 4, pl.node[8 + 3] = 5;
    assert_pl_status(pl_coloc_evaluate(&p, &pl, &obj), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "co-runner"));
    /* a T1 block on a T2 node */
    pl_coloc_placement_free(&pl);
    hand_placement(&pl);
    pl.node[8 + 0] = 9;
    assert_pl_status(pl_coloc_evaluate(&p, &pl, &obj), PL_EINVAL);
    pl_coloc_placement_free(&pl);
    pl_coloc_placement_free(&pl);   /* idempotent */
}

static void check_sa_reaches_best(int32_t apps, int32_t fixed, const pl_coloc_placement *fixed_pl, int64_t space)
{
    pl_coloc_problem p = problem(apps);
    p.fixed = fixed;
    p.fixed_placement = fixed_pl;
    pl_coloc_placement best, sa;
    assert_pl_ok(pl_coloc_placement_alloc(&best, apps, 8));
    assert_pl_ok(pl_coloc_placement_alloc(&sa, apps, 8));
    pl_coloc_result rb, rs;
    assert_pl_ok(pl_coloc_exhaustive_place(&p, 0, &best, &rb));
    printf("exhaustive: %lld placements\n", (long long)rb.evaluations);
    assert_int_equal(rb.evaluations, space);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pl_coloc_sa_opts o;
        pl_coloc_sa_opts_init(&o);
        o.seed = seed;
        o.iterations = 3000;
        assert_pl_ok(pl_coloc_sa_place(&p, &o, &sa, &rs));
        if (fabs(rs.objective - rb.objective) > 1e-12)
            fail_msg("seed %llu: SA %.12f, exhaustive %.12f", (unsigned long long)seed, rs.objective, rb.objective);
        double check;
        assert_pl_ok(pl_coloc_evaluate(&p, &sa, &check));
        assert_true(fabs(check - rs.objective) < 1e-12);
        assert_true(space == 1 ? rs.accepted == 0 : rs.accepted > 0);   /* a move must change the config */
        for (int32_t a = 0; a < fixed; a++) {
            assert_int_equal(sa.config[a], fixed_pl->config[a]);
            assert_memory_equal(sa.node + a * 8, fixed_pl->node + a * 8, 8 * sizeof *sa.node);
        }
    }
    pl_coloc_placement_free(&best);
    pl_coloc_placement_free(&sa);
}

static void test_sa_batch_reaches_exhaustive(void **state)
{
    (void)state;
    /* 84: the distinct placements of 3 apps x 6 configurations under the
     * co-runner rule, empty nodes taken lowest first (recorded from the
     * search; a change means the search space changed) */
    check_sa_reaches_best(3, 0, NULL, 84);
    /* 4 apps fill all 32 slots of the cluster */
    check_sa_reaches_best(4, 0, NULL, 96);
}

static void test_sa_larger_cluster(void **state)
{
    (void)state;
    /* twice the Table 2.1 cluster, 5 apps: a space SA samples sparsely */
    static const int32_t nodes[2] = { 16, 8 }, slots[2] = { 2, 4 };
    static const pl_coloc_cluster big = { 2, nodes, slots };
    cluster = &big;
    check_sa_reaches_best(5, 0, NULL, 47285);
    cluster = &t21;
}

static void test_sa_online_reaches_exhaustive(void **state)
{
    (void)state;
    pl_coloc_placement pl;
    hand_placement(&pl);
    pl_coloc_placement all;
    assert_pl_ok(pl_coloc_placement_alloc(&all, 3, 8));
    memcpy(all.config, pl.config, 2 * sizeof *all.config);
    memcpy(all.node, pl.node, 16 * sizeof *all.node);
    /* apps 0 and 1 running: T1 nodes 0-3 are full, 4-7 have one slot, T2
     * nodes 8-11 three. Only C3 fits app 2 (T1 block on 4-7, T2 block
     * joining 8-11): one placement. */
    check_sa_reaches_best(3, 2, &all, 1);
    /* only app 0 running: apps 1 and 2 arrive together */
    check_sa_reaches_best(3, 1, &all, ONLINE2);
    pl_coloc_placement_free(&pl);
    pl_coloc_placement_free(&all);
}

static void test_sa_deterministic(void **state)
{
    (void)state;
    pl_coloc_problem p = problem(4);
    pl_coloc_placement a, b;
    assert_pl_ok(pl_coloc_placement_alloc(&a, 4, 8));
    assert_pl_ok(pl_coloc_placement_alloc(&b, 4, 8));
    pl_coloc_sa_opts o;
    pl_coloc_sa_opts_init(&o);
    o.seed = 12345;
    o.iterations = 500;
    pl_coloc_result ra, rb;
    assert_pl_ok(pl_coloc_sa_place(&p, &o, &a, &ra));
    assert_pl_ok(pl_coloc_sa_place(&p, &o, &b, &rb));
    assert_true(ra.objective == rb.objective);
    assert_int_equal(ra.evaluations, rb.evaluations);
    assert_memory_equal(a.config, b.config, 4 * sizeof *a.config);
    assert_memory_equal(a.node, b.node, 32 * sizeof *a.node);
    /* zero iterations: the random start, still a valid placement */
    o.iterations = 0;
    assert_pl_ok(pl_coloc_sa_place(&p, &o, &a, &ra));
    assert_int_equal(ra.evaluations, 1);
    double check;
    assert_pl_ok(pl_coloc_evaluate(&p, &a, &check));
    assert_true(fabs(check - ra.objective) < 1e-12);
    pl_coloc_placement_free(&a);
    pl_coloc_placement_free(&b);
}

/* States that admit no move (doc/coloc.md sec. 2, "Stalls"): 3 nodes of 3
 * slots, 3 apps of 3 VMs (the cluster exactly full), two configurations:
 * CONS (one node, 3 VMs) and SPREAD (three nodes, 1 VM each). Only two
 * placements fit: all-CONS (one app a node) and all-SPREAD (one group on
 * the three nodes); a CONS app fills a node, which leaves no three nodes
 * for a SPREAD one. From all-CONS, app a to SPREAD needs three empty nodes
 * and lifting a second app empties only two, so every move is skipped (and
 * likewise from all-SPREAD, where no node is ever empty). Solo 10 s on
 * CONS, 5 s on SPREAD, no interference: all-SPREAD is the optimum
 * (speed-up 2 each, objective 2), all-CONS gives 1. A start is all-CONS
 * when the first app draws CONS: 1 in 2. */
enum { CONS, SPREAD };
static const double stall_solo[3 * 2] = { 10, 5, 10, 5, 10, 5 };

static pl_status solo_predict(void *ctx, const pl_coloc_query *q, double *r)
{
    (void)ctx;
    *r = q->solo_runtime_s;
    return PL_OK;
}

static void test_sa_restarts_from_a_stalled_start(void **state)
{
    (void)state;
    static const int32_t nodes[1] = { 3 }, slots[1] = { 3 };
    static const pl_coloc_cluster three = { 1, nodes, slots };
    static const pl_coloc_config two[2] = {
        [CONS] = { .blocks = 1, .block_type = { 0 }, .vms_per_node = 3, .types = 1, .consolidated = 1 },
        [SPREAD] = { .blocks = 1, .block_type = { 0 }, .vms_per_node = 1, .types = 1, .consolidated = 0 },
    };
    pl_coloc_problem p;
    memset(&p, 0, sizeof p);
    p.cluster = &three;
    p.apps = 3;
    p.vms = 3;
    p.configs = 2;
    p.config = two;
    p.solo_runtime_s = stall_solo;
    p.predict = solo_predict;
    const double opt = 2;
    pl_coloc_placement pl;
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 3, 3));
    pl_coloc_result r;
    assert_pl_ok(pl_coloc_exhaustive_place(&p, 0, &pl, &r));
    assert_true(fabs(r.objective - opt) < 1e-12);
    pl_coloc_sa_opts o;
    pl_coloc_sa_opts_init(&o);
    int stalled = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        o.seed = seed;
        o.iterations = 0; /* the start alone */
        assert_pl_ok(pl_coloc_sa_place(&p, &o, &pl, &r));
        int all_cons = pl.config[0] == CONS && pl.config[1] == CONS && pl.config[2] == CONS;
        assert_true(fabs(r.objective - (all_cons ? 1.0 : opt)) < 1e-12);
        if (all_cons) {
            stalled++;
            /* 99 moves: all skipped, nothing but the start evaluated */
            o.iterations = 99;
            assert_pl_ok(pl_coloc_sa_place(&p, &o, &pl, &r));
            assert_true(r.objective == 1.0);
            assert_int_equal(r.evaluations, 1);
            assert_int_equal(r.accepted, 0);
        }
        /* with the default 2000 moves every seed reaches the optimum */
        o.iterations = 2000;
        assert_pl_ok(pl_coloc_sa_place(&p, &o, &pl, &r));
        assert_true(fabs(r.objective - opt) < 1e-12);
        for (int a = 0; a < 3; a++)
            assert_int_equal(pl.config[a], SPREAD);
        double check;
        assert_pl_ok(pl_coloc_evaluate(&p, &pl, &check));
        assert_true(fabs(check - opt) < 1e-12);
    }
    /* the stalled starts exist (seeds 1, 3, 5, 7, 12, 13 and 15 of these) */
    assert_true(stalled >= 1);
    pl_coloc_placement_free(&pl);
}

static void test_features_and_model_predictor(void **state)
{
    (void)state;
    pl_coloc_metrics m[2 * NCFG];
    memset(m, 0, sizeof m);
    m[0 * NCFG + C1] = (pl_coloc_metrics){ 10, 80, 5, 6, 1, 2 };
    m[1 * NCFG + C3] = (pl_coloc_metrics){ 20, 70, 30, 40, 3, 4 };
    const int32_t co_app[1] = { 0 }, co_cfg[1] = { C1 }, co_vms[1] = { 1 };
    pl_coloc_query q;
    memset(&q, 0, sizeof q);
    int32_t n;
    assert_pl_ok(pl_coloc_candidates(&t21, 1, 8, cfgs, NCFG, &n));
    q.app = 1;
    q.config = C3;
    q.cfg = &cfgs[C3];
    q.solo_runtime_s = 190;
    q.corunners[0] = 1;
    q.corunner_app[0] = co_app;
    q.corunner_config[0] = co_cfg;
    q.corunner_vms[0] = co_vms;
    double x[PL_COLOC_BASE_FEATURES + 2 * PL_COLOC_BLOCK_FEATURES];
    assert_int_equal(pl_coloc_features(&q, m, NCFG, x), 22);
    const double want[22] = { C3, 190, 20, 70, 30, 40, 3, 4, 1, 10, 80, 5, 6, 1, 2, 0, 0, 0, 0, 0, 0, 0 };
    assert_memory_equal(x, want, sizeof want);
    /* a model trained on such vectors answers through the adapter */
    double xs[3 * 22], ys[3] = { 150, 200, 250 };
    for (int i = 0; i < 3; i++)
        for (int f = 0; f < 22; f++)
            xs[i * 22 + f] = want[f] + i;
    pl_coloc_model_opts o;
    pl_coloc_model_opts_init(&o);
    o.trees = 5;
    o.min_leaf = 1;
    pl_coloc_model *model;
    assert_pl_ok(pl_coloc_model_train(xs, ys, 3, 22, NULL, &o, &model));
    pl_coloc_model_ctx mc = { model, m, NCFG };
    double r, direct;
    assert_pl_ok(pl_coloc_model_predictor(&mc, &q, &r));
    assert_pl_ok(pl_coloc_model_predict(model, x, &direct));
    assert_true(r == direct);
    q.cfg = &cfgs[C1];   /* still 2 blocks: same length; now a 3-feature model mismatches */
    pl_coloc_model *small;
    assert_pl_ok(pl_coloc_model_train(xs, ys, 3, 3, NULL, &o, &small));
    mc.model = small;
    assert_pl_status(pl_coloc_model_predictor(&mc, &q, &r), PL_EINVAL);
    pl_coloc_model_free(model);
    pl_coloc_model_free(small);
}

static double unit(pl_test_rng *r)
{
    return (double)(pl_test_rand(r) >> 11) / 9007199254740992.0;
}

/* End to end: a model learned from samples of a synthetic interference law
 * drives the search; SA still reaches the exhaustive optimum under it. */
static void test_sa_with_learned_model(void **state)
{
    (void)state;
    enum { D = PL_COLOC_BASE_FEATURES + 2 * PL_COLOC_BLOCK_FEATURES, NS = 1500 };
    static double xs[NS * D], ys[NS];
    pl_test_rng r = { 21 };
    for (int i = 0; i < NS; i++) {
        double *x = xs + i * D;
        x[0] = (double)(pl_test_rand(&r) % NCFG);
        x[1] = 50 + 200 * unit(&r);
        for (int f = 2; f < 8; f++)
            x[f] = 100 * unit(&r);
        double slow = 0;
        for (int b = 0; b < 2; b++) {
            double *bx = x + 8 + 7 * b;
            bx[0] = (double)(pl_test_rand(&r) % 4);
            for (int f = 1; f < 7; f++)
                bx[f] = bx[0] > 0 ? 100 * unit(&r) : 0;
            slow += bx[0] * bx[3] / 1000;   /* co-runner VMs x their network send */
        }
        ys[i] = x[1] * (1 + slow / 2);
    }
    pl_coloc_model_opts mo;
    pl_coloc_model_opts_init(&mo);
    mo.trees = 20;
    pl_coloc_model *model;
    assert_pl_ok(pl_coloc_model_train(xs, ys, NS, D, NULL, &mo, &model));
    pl_coloc_metrics metrics[3 * NCFG];
    for (int i = 0; i < 3 * NCFG; i++)
        metrics[i] = (pl_coloc_metrics){ 100 * unit(&r), 100 * unit(&r), 100 * unit(&r),
                                         100 * unit(&r), 100 * unit(&r), 100 * unit(&r) };
    pl_coloc_model_ctx mc = { model, metrics, NCFG };
    pl_coloc_problem p = problem(3);
    p.predict = pl_coloc_model_predictor;
    p.predict_ctx = &mc;
    pl_coloc_placement best, sa;
    assert_pl_ok(pl_coloc_placement_alloc(&best, 3, 8));
    assert_pl_ok(pl_coloc_placement_alloc(&sa, 3, 8));
    pl_coloc_result rb, rs;
    assert_pl_ok(pl_coloc_exhaustive_place(&p, 0, &best, &rb));
    pl_coloc_sa_opts o;
    pl_coloc_sa_opts_init(&o);
    o.iterations = 1000;
    assert_pl_ok(pl_coloc_sa_place(&p, &o, &sa, &rs));
    assert_true(fabs(rs.objective - rb.objective) < 1e-12);
    assert_true(rb.objective > 1);   /* some placement beats every worst solo run */
    pl_coloc_placement_free(&best);
    pl_coloc_placement_free(&sa);
    pl_coloc_model_free(model);
}

static void test_errors(void **state)
{
    (void)state;
    pl_coloc_problem p = problem(5);   /* 40 VMs on 32 slots */
    pl_coloc_placement pl;
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 5, 8));
    pl_coloc_result r;
    assert_pl_status(pl_coloc_sa_place(&p, NULL, &pl, &r), PL_EINFEASIBLE);
    assert_pl_status(pl_coloc_exhaustive_place(&p, 0, &pl, &r), PL_EINFEASIBLE);
    p = problem(3);
    assert_pl_status(pl_coloc_exhaustive_place(&p, 5, &pl, &r), PL_ELIMIT);
    pl_coloc_sa_opts o;
    pl_coloc_sa_opts_init(&o);
    o.cooling = 1.5;
    assert_pl_status(pl_coloc_sa_place(&p, &o, &pl, &r), PL_EINVAL);
    p.predict = NULL;
    assert_pl_status(pl_coloc_sa_place(&p, NULL, &pl, &r), PL_EINVAL);
    p = problem(3);
    p.fixed = 1;   /* no fixed placement given */
    assert_pl_status(pl_coloc_sa_place(&p, NULL, &pl, &r), PL_EINVAL);
    p = problem(3);
    pl_coloc_config bad[NCFG];
    memcpy(bad, cfgs, sizeof bad);
    bad[C1].vms_per_node = 4;   /* T1 nodes hold 2 VMs */
    p.config = bad;
    assert_pl_status(pl_coloc_sa_place(&p, NULL, &pl, &r), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "slots"));
    p = problem(3);
    p.vms = 6;     /* 6 VMs do not fill 2 blocks of 4-VM nodes */
    assert_pl_status(pl_coloc_sa_place(&p, NULL, &pl, &r), PL_EINVAL);
    pl_coloc_placement_free(&pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_candidate_count),
        cmocka_unit_test(test_table23_configs),
        cmocka_unit_test(test_hand_objective),
        cmocka_unit_test(test_sa_batch_reaches_exhaustive),
        cmocka_unit_test(test_sa_larger_cluster),
        cmocka_unit_test(test_sa_online_reaches_exhaustive),
        cmocka_unit_test(test_sa_deterministic),
        cmocka_unit_test(test_sa_restarts_from_a_stalled_start),
        cmocka_unit_test(test_features_and_model_predictor),
        cmocka_unit_test(test_sa_with_learned_model),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, load_table21, NULL);
}
