/* fgd-balance (lib/policy/policies/fgd_balance.c): two two-node cases,
 * computed by hand, where it chooses another node than fgd. */
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

static void scores(pl_fstate *s, const pl_fpolicy *pol, const pl_fpod *p, int64_t sc[2], int32_t *pick)
{
    int32_t g;
    for (int i = 0; i < 2; i++)
        pol->score(s, p, &s->node[i], &sc[i], &g);
    pl_fchoice c;
    assert_pl_ok(pl_fstate_choose(s, pol, p, &c));
    *pick = c.node;
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
    int64_t sc[2];
    int32_t pick;
    scores(&s, &pl_fpolicy_fgd, &p, sc, &pick);
    assert_int_equal(sc[0], 50);
    assert_int_equal(sc[1], 50);
    assert_int_equal(pick, 0);
    scores(&s, &pl_fpolicy_fgd_balance, &p, sc, &pick);
    assert_int_equal(sc[0], 11);
    assert_int_equal(sc[1], 50);
    assert_int_equal(pick, 1);
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
    int64_t sc[2];
    int32_t pick;
    scores(&s, &pl_fpolicy_fgd, &list[0], sc, &pick);
    assert_int_equal(sc[0], 50);
    assert_int_equal(sc[1], 50);
    assert_int_equal(pick, 0);
    scores(&s, &pl_fpolicy_fgd_balance, &list[0], sc, &pick);
    assert_int_equal(sc[0], 40);
    assert_int_equal(sc[1], 50);
    assert_int_equal(pick, 1);
    /* The T4 pod itself has one node: the T4 (the G2 does not fit it). */
    pl_fchoice c;
    assert_pl_ok(pl_fstate_choose(&s, &pl_fpolicy_fgd_balance, &list[19], &c));
    assert_int_equal(c.node, 0);
    pl_fstate_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu),
        cmocka_unit_test(test_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
