/* The ch. 2 sec. 4.2 baselines (Greedy, HA, Random, IA) on a hand-checked
 * three-application instance, and their errors. */
#include <math.h>
#include <string.h>
#include "../common/testutil.h"
#include <placement/coloc.h>

/* Type 0: 2 nodes (0, 1) of 2 slots; type 1: 1 node (2) of 2 slots; 3 apps of 2 VMs fill it. */
static const int32_t nodes[2] = {2, 1}, slots[2] = {2, 2};
static const pl_coloc_cluster cluster = {2, nodes, slots};
enum { OUT0, CONS0, CONS1, NCFG }; /* type 0 scaled out (1 VM per node), type 0 / type 1 consolidated */
static const pl_coloc_config cfgs[NCFG] = {
    {.blocks = 1, .block_type = {0}, .vms_per_node = 1, .types = 1, .consolidated = 0},
    {.blocks = 1, .block_type = {0}, .vms_per_node = 2, .types = 1, .consolidated = 1},
    {.blocks = 1, .block_type = {1}, .vms_per_node = 2, .types = 1, .consolidated = 1},
};
enum { A, B, C };
/* Greedy's ratio (CONS0, CONS1): A 30/20 = 1.5, B 40/10 = 4, C 60/12 = 5 -> order C, B, A.
 * HA's ratio (all): A 3, B 5, C 6 -> the same order. */
static const double solo[3 * NCFG] = {
    10, 30, 20, /* A */
    50, 40, 10, /* B */
    10, 12, 60, /* C */
};

static pl_status never(void *ctx, const pl_coloc_query *q, double *r)
{
    (void)ctx, (void)q, (void)r;
    return PL_EINTERNAL; /* the baselines must not call the user's predictor */
}

static pl_status solo_only(void *ctx, const pl_coloc_query *q, double *r)
{
    (void)ctx;
    *r = q->solo_runtime_s;
    return PL_OK;
}

static pl_coloc_problem problem(void)
{
    pl_coloc_problem p = {.cluster = &cluster, .apps = 3, .vms = 2, .configs = NCFG, .config = cfgs,
                          .solo_runtime_s = solo, .predict = never};
    return p;
}

/* Greedy (consolidated_only) or HA on problem(); A's, B's and C's configurations must be as given. */
static pl_coloc_placement solo_greedy(int consolidated_only, int32_t a, int32_t b, int32_t c)
{
    pl_coloc_problem p = problem();
    pl_coloc_placement pl = {0};
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 3, 2));
    assert_pl_ok(pl_coloc_solo_greedy_place(&p, consolidated_only, &pl));
    const int32_t want[3] = {a, b, c};
    assert_memory_equal(pl.config, want, sizeof want);
    return pl;
}

static void test_greedy(void **s)
{
    (void)s;
    /* C takes CONS0 (12 s) on node 0, B CONS1 (10 s) on node 2, A's best
     * allowed CONS1 is taken, so it gets CONS0 on node 1 (30 s). */
    pl_coloc_placement pl = solo_greedy(1, CONS0, CONS1, CONS0);
    pl_coloc_problem p = problem();
    assert_int_equal(pl.node[C * 2], 0);
    assert_int_equal(pl.node[B * 2], 2);
    assert_int_equal(pl.node[A * 2], 1);
    assert_int_equal(pl.node[A * 2 + 1], 1);
    p.predict = solo_only;
    double obj;
    assert_pl_ok(pl_coloc_evaluate(&p, &pl, &obj));
    /* worst solo: A 30, B 50, C 60 -> speed-ups 1, 5, 5 */
    assert_true(fabs(obj - cbrt(25.0)) < 1e-12);
    pl_coloc_placement_free(&pl);
}

static void test_ha(void **s)
{
    (void)s;
    /* C takes OUT0 (10 s) on nodes 0 and 1, B CONS1 on node 2, A OUT0 joining
     * C on nodes 0 and 1 (interference ignored). */
    pl_coloc_placement pl = solo_greedy(0, OUT0, CONS1, OUT0);
    assert_int_equal(pl.node[A * 2], pl.node[C * 2]);
    assert_int_equal(pl.node[A * 2 + 1], pl.node[C * 2 + 1]);
    assert_int_not_equal(pl.node[A * 2], pl.node[A * 2 + 1]);
    pl_coloc_placement_free(&pl);
}

static void test_ia(void **s)
{
    (void)s;
    pl_coloc_problem p = problem();
    pl_coloc_placement pl = {0};
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 3, 2));
    /* A and C compete (class 0), B differs: B is paired with A or C on the
     * only scaled-out configuration, sharing its two nodes; the third app
     * finds no scaled-out room and takes the type-1 node. */
    const int32_t dominant[3] = {0, 1, 0};
    int paired_with_a = 0, paired_with_c = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        assert_pl_ok(pl_coloc_ia_place(&p, dominant, seed, &pl));
        assert_int_equal(pl.config[B], OUT0);
        int32_t mate = pl.config[A] == OUT0 ? A : C, other = mate == A ? C : A;
        assert_int_equal(pl.config[mate], OUT0);
        assert_int_equal(pl.node[mate * 2], pl.node[B * 2]);
        assert_int_equal(pl.node[mate * 2 + 1], pl.node[B * 2 + 1]);
        assert_int_equal(pl.config[other], CONS1);
        paired_with_a += mate == A;
        paired_with_c += mate == C;
    }
    assert_true(paired_with_a > 0 && paired_with_c > 0); /* the pairing is random */
    pl_coloc_placement_free(&pl);
}

/* Four applications, two per dominant resource, on 4 nodes of 4 slots: each
 * pair mixes the classes and keeps its two nodes to itself, though all four
 * would fit on two nodes. */
static void test_ia_pairs_apart(void **s)
{
    (void)s;
    static const int32_t n4[1] = {4}, s4[1] = {4};
    static const pl_coloc_cluster c4 = {1, n4, s4};
    static const double solo4[4] = {10, 20, 30, 40};
    pl_coloc_problem p = {.cluster = &c4, .apps = 4, .vms = 2, .configs = 1, .config = cfgs,
                          .solo_runtime_s = solo4, .predict = never};
    const int32_t dominant[4] = {0, 1, 0, 1};
    pl_coloc_placement pl = {0};
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 4, 2));
    for (uint64_t seed = 1; seed <= 8; seed++) {
        assert_pl_ok(pl_coloc_ia_place(&p, dominant, seed, &pl));
        for (int a = 0; a < 4; a++) {
            int mates = 0;
            for (int b = 0; b < 4; b++)
                if (b != a && pl.node[b * 2] == pl.node[a * 2]) {
                    assert_int_not_equal(dominant[b], dominant[a]);
                    assert_int_equal(pl.node[b * 2 + 1], pl.node[a * 2 + 1]);
                    mates++;
                }
            assert_int_equal(mates, 1);
        }
    }
    pl_coloc_placement_free(&pl);
}

/* The dead end of a one-application-at-a-time baseline on a full cluster:
 * 3 nodes of 4 slots, 3 applications of 4 VMs (12 slots), one configuration
 * of two blocks each filling half a node (2 VMs on 1 node). Two blocks of an
 * application never share a node (the co-runner rule), so each node must
 * take blocks of two different applications. Without looking ahead, A takes
 * nodes 0 and 1, B joins both (joined groups first), and C's two blocks are
 * left one node: no placement. Looking ahead, B keeps node 0 but opens node
 * 2 for its second block, and C gets nodes 1 and 2. */
static const int32_t ring_nodes[1] = {3}, ring_slots[1] = {4};
static const pl_coloc_cluster ring = {1, ring_nodes, ring_slots};
static const double ring_solo[3] = {10, 20, 30};

static pl_coloc_problem ring_problem(const pl_coloc_config *cf)
{
    return (pl_coloc_problem){.cluster = &ring, .apps = 3, .vms = 4, .configs = 1, .config = cf,
                              .solo_runtime_s = ring_solo, .predict = never};
}

static void test_greedy_looks_ahead(void **s)
{
    (void)s;
    static const pl_coloc_config halves = {.blocks = 2, .block_type = {0, 0}, .vms_per_node = 2, .types = 1,
                                           .consolidated = 1};
    /* the VMs' nodes: A 0 0 1 1, B 0 0 2 2, C 1 1 2 2 (order by r_worst / r_best: all 1, so A, B, C) */
    static const int32_t want[3 * 4] = {0, 0, 1, 1, 0, 0, 2, 2, 1, 1, 2, 2};
    pl_coloc_problem p = ring_problem(&halves);
    pl_coloc_placement pl = {0};
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 3, 4));
    for (int consolidated_only = 0; consolidated_only < 2; consolidated_only++) { /* HA, then Greedy */
        memset(pl.node, 0xff, sizeof want);
        assert_pl_ok(pl_coloc_solo_greedy_place(&p, consolidated_only, &pl));
        assert_memory_equal(pl.node, want, sizeof want);
    }
    p.predict = solo_only;
    double obj;
    assert_pl_ok(pl_coloc_evaluate(&p, &pl, &obj)); /* it keeps the co-runner rule */
    /* with one node fewer nothing fits: the error names the baseline */
    static const int32_t two[1] = {2};
    const pl_coloc_cluster small = {1, two, ring_slots};
    p.cluster = &small;
    assert_pl_status(pl_coloc_solo_greedy_place(&p, 1, &pl), PL_EINFEASIBLE);
    assert_non_null(strstr(pl_last_error(), "pl_coloc_solo_greedy_place: no placement of the 3 applications"));
    pl_coloc_placement_free(&pl);
}

/* IA on the same ring (the configuration labelled scaled-out): the pair
 * cannot share both its nodes, since that strands the third application, so
 * it shares one; every node then holds two blocks of different applications. */
static void test_ia_looks_ahead(void **s)
{
    (void)s;
    static const pl_coloc_config halves = {.blocks = 2, .block_type = {0, 0}, .vms_per_node = 2, .types = 1,
                                           .consolidated = 0};
    pl_coloc_problem p = ring_problem(&halves);
    const int32_t dominant[3] = {0, 1, 0};
    pl_coloc_placement pl = {0};
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 3, 4));
    for (uint64_t seed = 1; seed <= 8; seed++) {
        assert_pl_ok(pl_coloc_ia_place(&p, dominant, seed, &pl));
        int per_node[3] = {0};
        for (int a = 0; a < 3; a++) {
            assert_int_not_equal(pl.node[a * 4], pl.node[a * 4 + 2]);
            per_node[pl.node[a * 4]]++;
            per_node[pl.node[a * 4 + 2]]++;
        }
        for (int g = 0; g < 3; g++)
            assert_int_equal(per_node[g], 2);
    }
    pl_coloc_placement_free(&pl);
}

static void test_random(void **s)
{
    (void)s;
    pl_coloc_problem p = problem();
    p.predict = solo_only; /* to check each placement with pl_coloc_evaluate() */
    pl_coloc_placement pl = {0};
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 3, 2));
    int seen[NCFG] = {0};
    for (uint64_t seed = 1; seed <= 20; seed++) {
        assert_pl_ok(pl_coloc_random_place(&p, seed, &pl));
        double obj;
        assert_pl_ok(pl_coloc_evaluate(&p, &pl, &obj)); /* a valid placement */
        seen[pl.config[A]]++;
    }
    assert_true(seen[OUT0] > 0 && seen[CONS0] > 0 && seen[CONS1] > 0);
    pl_coloc_placement_free(&pl);
}

static void test_errors(void **s)
{
    (void)s;
    pl_coloc_problem p = problem();
    pl_coloc_placement pl = {0};
    assert_pl_status(pl_coloc_solo_greedy_place(&p, 1, &pl), PL_EINVAL); /* not allocated */
    assert_pl_ok(pl_coloc_placement_alloc(&pl, 3, 2));
    assert_pl_status(pl_coloc_ia_place(&p, NULL, 1, &pl), PL_EINVAL);
    p.fixed = 1;
    p.fixed_placement = &pl;
    assert_pl_status(pl_coloc_solo_greedy_place(&p, 0, &pl), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "batch"));
    p = problem();
    pl_coloc_config only_out[1] = {cfgs[OUT0]};
    p.config = only_out;
    p.configs = 1;
    assert_pl_status(pl_coloc_solo_greedy_place(&p, 1, &pl), PL_EINVAL); /* no consolidated config */
    pl_coloc_placement_free(&pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy), cmocka_unit_test(test_ha), cmocka_unit_test(test_ia), cmocka_unit_test(test_ia_pairs_apart),
        cmocka_unit_test(test_greedy_looks_ahead), cmocka_unit_test(test_ia_looks_ahead),
        cmocka_unit_test(test_random), cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
