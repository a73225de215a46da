/* fgd-balance (lib/policy/policies/fgd_balance.c): two two-node cases,
 * computed by hand, where it chooses another node than fgd; fgd-price
 * (fgd_price.c): the packing prices of two small request mixes
 * (frag_prices.c) and a case where it chooses another node than both. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"
#include "internal/frag.h"

/* Two one-model nodes of ngpu idle GPUs; ties go to node 0. */
static void two_nodes(pl_fstate *s, const char *m0, const char *m1, int32_t ngpu, const int64_t cpu[2])
{
    memset(s, 0, sizeof *s);
    s->nnode = 2;
    s->node = calloc(2, sizeof *s->node);
    s->cand = calloc(2, sizeof *s->cand);
    s->score = calloc(2, sizeof *s->score);
    s->cgpu = calloc(2, sizeof *s->cgpu);
    const char *model[2] = {m0, m1};
    for (int i = 0; i < 2; i++) {
        pl_fnode *n = &s->node[i];
        n->cpu_left = n->cpu_cap = cpu[i];
        n->mem_left = n->mem_cap = 1 << 30;
        n->model = pl_fstate_model(s, model[i]);
        n->ngpu = ngpu;
        for (int32_t g = 0; g < ngpu; g++) {
            n->gmodel[g] = n->model;
            n->left[g] = 1000;
        }
        s->total_milli += 1000 * ngpu;
    }
}

/* pol scores p on the two nodes sc0 and sc1 and places it on node pick. */
static void expect(pl_fstate *s, const pl_fpolicy *pol, const pl_fpod *p, int64_t sc0, int64_t sc1, int32_t pick)
{
    int64_t sc[2];
    int32_t g;
    for (int i = 0; i < 2; i++)
        pol->score(s, p, &s->node[i], &sc[i], &g);
    assert_int_equal(sc[0], sc0);
    assert_int_equal(sc[1], sc1);
    pl_fchoice c;
    assert_pl_ok(pl_fstate_choose(s, pol, p, &c));
    assert_int_equal(c.node, pick);
}

/* CPU. N0: 2 idle GPUs, 16 cores; N1: 2 idle GPUs, 64 cores. Request mix:
 * one whole GPU with 8 cores (CPU per GPU milli: 8). An 8-core CPU-only pod:
 * fgd: the GPU pod still fits either node after it (16 - 8 = 8 cores), so
 * the fragmentation stays 0 on both: decrease 0, score int(100 x 0.5) = 50
 * twice, and the tie goes to N0. fgd-balance: N0's 2000 idle milli need
 * 16000 millicores; after the pod 8000 feed only 1000 milli, 1000 stranded:
 * decrease -1000, int(100 sigmoid(-1000 / 500)) = int(100 / (1 + e^2)) =
 * int(11.92) = 11; N1 keeps 56 cores for its 2000 milli (16000 needed):
 * 0 stranded, 50. fgd-balance takes N1, leaving N0's CPU to its GPUs. */
static void test_cpu(void **state)
{
    (void)state;
    pl_fstate s;
    const int64_t cpu[2] = {16000, 64000};
    two_nodes(&s, "G2", "G2", 2, cpu);
    pl_fpod mix = {.cpu = 8000, .ngpu = 1, .milli = 1000, .any = 1};
    assert_pl_ok(pl_fstate_set_typical(&s, &mix, 1, 1.0));
    assert_true(fabs(s.cpu_per_milli - 8.0) < 1e-12);
    pl_fpod p = {.cpu = 8000, .any = 1};
    expect(&s, &pl_fpolicy_fgd, &p, 50, 50, 0);
    expect(&s, &pl_fpolicy_fgd_balance, &p, 11, 50, 1);
    pl_fstate_free(&s);
}

/* GPU models. N0: one T4, N1: one G2, 16 cores each. The list: 19 pods of
 * one GPU, any model, 1 core, and one that requires a T4. The typical pods
 * cover 95% of the list: the any-model kind alone (19 of 20), so fgd does
 * not see the T4 pod. Model pressure: the list asks 20000 milli of a
 * 2000-milli cluster, scaled by 2000 / 20000 the T4 pod needs 100 of the
 * T4's 1000: 0.1; G2 0. An any-model pod: fgd: both nodes go from 0 to 0
 * fragmentation (nothing else idle): 50 and 50, N0 (the T4) by order.
 * fgd-balance: on N0 the value goes from 0 + 0 - 2 x 0.1 x 1000 = -200 to 0:
 * decrease -200, int(100 / (1 + e^0.4)) = int(40.13) = 40; N1 50. It takes
 * the G2 and keeps the T4 for the pod that needs it. */
static void test_model(void **state)
{
    (void)state;
    pl_fstate s;
    const int64_t cpu[2] = {16000, 16000};
    two_nodes(&s, "T4", "G2", 1, cpu);
    pl_fpod list[20];
    for (int i = 0; i < 20; i++)
        list[i] = (pl_fpod){.cpu = 1000, .ngpu = 1, .milli = 1000, .any = 1};
    pl_fstate_pod_models(&s, "T4", &list[19]);
    assert_pl_ok(pl_fstate_set_typical(&s, list, 20, 0.95));
    assert_int_equal(s.ntyp, 1);
    assert_true(fabs(s.model_pressure[s.node[0].model] - 0.1) < 1e-12);
    assert_true(s.model_pressure[s.node[1].model] == 0);
    expect(&s, &pl_fpolicy_fgd, &list[0], 50, 50, 0);
    expect(&s, &pl_fpolicy_fgd_balance, &list[0], 40, 50, 1);
    /* The T4 pod itself has one node: the T4 (the G2 does not fit it). */
    pl_fchoice c;
    assert_pl_ok(pl_fstate_choose(&s, &pl_fpolicy_fgd_balance, &list[19], &c));
    assert_int_equal(c.node, 0);
    pl_fstate_free(&s);
}

/* Prices. Mix: one 700-milli share, two of 300. Column generation starts
 * from [700] and [300 300 300] (LP 1 + 2/3 GPUs, prices 1 and 1/3), whose
 * prices make [700 300] worth 4/3 > 1; with it the LP needs 4/3 GPUs
 * ([700 300] once, [300 300 300] a third), both patterns basic and
 * positive: prices 700: 2/3, 300: 1/3, unique. K(g), the best a gap of g
 * can hold at these prices: 0 below 300, 1/3 to 599, 2/3 to 899, 1 from
 * 900 (three 300s); waste(g) = g - 1000 K(g): 299, 300 - 333.3, 650 -
 * 666.7, 700 - 666.7, 900 - 1000, 0 at 1000. */
static void test_prices(void **state)
{
    (void)state;
    pl_fstate s = {0};
    pl_fpod mix[3] = {{.ngpu = 1, .milli = 700, .any = 1}, {.ngpu = 1, .milli = 300, .any = 1},
                      {.ngpu = 1, .milli = 300, .any = 1}};
    assert_pl_ok(pl_fstate_set_prices(&s, mix, 3));
    assert_non_null(s.gap_waste);
    const int32_t g[] = {0, 299, 300, 650, 700, 900, 1000};
    const double w[] = {0, 299, 300 - 1000.0 / 3, 650 - 2000.0 / 3, 700 - 2000.0 / 3, -100, 0};
    for (int i = 0; i < 7; i++)
        assert_true(fabs(s.gap_waste[g[i]] - w[i]) < 1e-6);
    /* A node's waste sums its GPUs'. */
    pl_fnode n = {.ngpu = 2, .left = {300, 1000}};
    assert_true(fabs(pl_fnode_gap_waste(&s, &n) - w[2]) < 1e-6);
    /* No GPU request: no gap is worse than another. */
    pl_fpod cpu_only = {.cpu = 1000, .any = 1};
    assert_pl_ok(pl_fstate_set_prices(&s, &cpu_only, 1));
    assert_true(s.gap_waste[530] == 0);
    pl_fstate_free(&s);
}

/* Packing. N0: one GPU with 530 milli left (a 470 share on it), N1: one
 * idle GPU, 1000 cores each (CPU never short). The list: 4 whole GPUs, two
 * 470 shares, one 650, two 320, 1 core each. Its LP: [1000] 4 times,
 * [470 470] once, [650 320] once, [320 320 320] a third, all basic and
 * positive: prices 1000: 1, 470: 1/2, 650: 2/3, 320: 1/3, unique. Waste:
 * 530 (a 470 fits): 30; 210 (nothing fits): 210; 680 (a 650 or two 320s):
 * 680 - 666.7 = 13.3; 1000: 0. A 320 share:
 * fgd and fgd-balance: N0's 530 is fragment for the whole GPUs (4/9) and
 * the 650 (1/9): 294.4, after it 210 (nothing fits): decrease 84.4, fgd
 * int(100 sigmoid(84.4 / 1000)) = 52, fgd-balance (/ 500) 54; N1's 680 is
 * fragment for the whole GPUs: 0 to 302.2, fgd 42, fgd-balance 35. Both
 * take N0, leaving 210 that nothing fills.
 * fgd-price: N0 from 294.4 + 8 x 30 to 210 + 8 x 210: decrease -1355.6,
 * N1 from 0 to 302.2 + 8 x 13.3: -408.9; both scored less 8 x waste(320)
 * = 8 x (320 - 333.3): -1248.9 and -302.2, int(100 sigmoid(-2.498)) = 7
 * and int(100 sigmoid(-0.604)) = 35. It takes N1 (the 320 waits there for
 * a 650) and keeps N0's 530 for the next 470. */
static void test_price_decision(void **state)
{
    (void)state;
    pl_fstate s;
    const int64_t cpu[2] = {1000000, 1000000};
    two_nodes(&s, "T4", "T4", 1, cpu);
    s.node[0].left[0] = 530;
    pl_fpod list[9];
    const int32_t milli[9] = {1000, 1000, 1000, 1000, 470, 470, 650, 320, 320};
    for (int i = 0; i < 9; i++)
        list[i] = (pl_fpod){.cpu = 1000, .ngpu = 1, .milli = milli[i], .any = 1};
    assert_pl_ok(pl_fstate_set_typical(&s, list, 9, 1.0));
    assert_pl_ok(pl_fstate_set_prices(&s, list, 9));
    assert_true(fabs(s.gap_waste[530] - 30) < 1e-6);
    assert_true(fabs(s.gap_waste[210] - 210) < 1e-6);
    assert_true(fabs(s.gap_waste[680] - (680 - 2000.0 / 3)) < 1e-6);
    expect(&s, &pl_fpolicy_fgd, &list[7], 52, 42, 0);
    expect(&s, &pl_fpolicy_fgd_balance, &list[7], 54, 35, 0);
    expect(&s, &pl_fpolicy_fgd_price, &list[7], 7, 35, 1);
    pl_fstate_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu),
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_prices),
        cmocka_unit_test(test_price_decision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
