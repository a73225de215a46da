/* fgd and its baselines (lib/policy/policies/frag.h): FGD's scores and choice on a
 * three-node example computed by hand from the paper's definition, and the
 * same through pl_policy_place() on a topology. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"
#include "internal/frag.h"
#include "internal/openb.h"

/* N0: GPUs {1000, 1000}; N1: {1000, 300}; N2: {700}; 16 cores each.
 * Request mix: one whole GPU (1 core) 1/2, a 300-milli share (1 core) 1/2.
 * Fragmentation before (milli): N0 0; N1 0.5 x 300 (the 300 GPU is too
 * small for the whole-GPU pod) = 150; N2 0.5 x 700 (no whole GPU) = 350.
 * A 700-milli pod: on N0 -> {300, 1000}: 150, decrease -150,
 * int(100 sigmoid(-0.15)) = 46; on N1's first GPU -> {300, 300}: the
 * whole-GPU pod no longer fits, 0.5 x 600 = 300, decrease -150, 46; on N2
 * -> {0}: 0, decrease +350, int(100 sigmoid(0.35)) = 58. FGD takes N2. */
static void setup(pl_fstate *s)
{
    memset(s, 0, sizeof *s);
    s->nnode = 3;
    s->node = calloc(3, sizeof *s->node);
    s->cand = calloc(3, sizeof *s->cand);
    s->score = calloc(3, sizeof *s->score);
    s->cgpu = calloc(3, sizeof *s->cgpu);
    const int32_t ng[3] = {2, 2, 1}, left[3][2] = {{1000, 1000}, {1000, 300}, {700, 0}};
    for (int i = 0; i < 3; i++) {
        pl_fnode *n = &s->node[i];
        n->cpu_left = n->cpu_cap = 16000;
        n->mem_left = n->mem_cap = 1 << 30;
        n->model = pl_fstate_model(s, "T4");
        n->ngpu = ng[i];
        memcpy(n->left, left[i], sizeof left[i]);
    }
    pl_fpod mix[2] = {{.cpu = 1000, .ngpu = 1, .milli = 1000, .any = 1}, {.cpu = 1000, .ngpu = 1, .milli = 300, .any = 1}};
    assert_pl_ok(pl_fstate_set_typical(s, mix, 2, 1.0));
}

static void test_fgd_by_hand(void **state)
{
    (void)state;
    pl_fstate s;
    setup(&s);
    assert_int_equal(s.ntyp, 2);
    assert_true(fabs(pl_frag_node(&s, &s.node[0]) - 0) < 1e-9);
    assert_true(fabs(pl_frag_node(&s, &s.node[1]) - 150) < 1e-9);
    assert_true(fabs(pl_frag_node(&s, &s.node[2]) - 350) < 1e-9);
    pl_fpod p = {.cpu = 1000, .ngpu = 1, .milli = 700, .any = 1};
    int64_t sc[3];
    int32_t g[3];
    for (int i = 0; i < 3; i++)
        pl_fpolicy_fgd.score(&s, &p, &s.node[i], &sc[i], &g[i]);
    assert_int_equal(sc[0], 46);
    assert_int_equal(sc[1], 46);
    assert_int_equal(sc[2], 58);
    assert_int_equal(g[1], 0);
    pl_fchoice c;
    assert_pl_ok(pl_fstate_choose(&s, &pl_fpolicy_fgd, &p, &c));
    assert_int_equal(c.node, 2);
    assert_int_equal(c.ngpu, 1);
    assert_int_equal(c.gpu[0], 0);
    pl_fstate_apply(&s, &p, &c);
    assert_int_equal(s.node[2].left[0], 0);
    assert_int_equal(s.node[2].cpu_left, 15000);
    /* gpu-packing puts it on the partly used GPU's node N1? No: a 700 pod
     * fits no partly used GPU (300), so idle GPUs of a used node (N1,
     * score 50 - 1 = 49) beat the idle node N0 (33 - 2 = 31). */
    pl_fpolicy_gpu_packing.score(&s, &p, &s.node[1], &sc[1], &g[1]);
    pl_fpolicy_gpu_packing.score(&s, &p, &s.node[0], &sc[0], &g[0]);
    assert_int_equal(sc[1], 49);
    assert_int_equal(sc[0], 31);
    pl_fstate_free(&s);
}

/* The same on a topology, through the library: the request mix of a call is
 * its queue (here the 700-milli pod alone): before N0 0, N1 300 (the 300
 * GPU cannot hold 700), N2 0; after: N0 {300, 1000} 300 -> 42, N1 {300, 300}
 * 600 -> 42, N2 {0} 0 -> 50. */
static void test_fgd_policy(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_openb_load_nodes_string("sn,cpu_milli,memory_mib,gpu,model\n"
                                            "n0,16000,1024,2,T4\nn1,16000,1024,2,T4\nn2,16000,1024,1,T4\n",
                                            "nodes.csv", &t));
    int32_t g11, g20, n2;
    assert_pl_ok(pl_topology_find(t, "openb/n1/package0/gpu1", &g11));
    assert_pl_ok(pl_topology_find(t, "openb/n2/package0/gpu0", &g20));
    assert_pl_ok(pl_topology_find(t, "openb/n2", &n2));
    assert_pl_ok(pl_topology_alloc(t, g11, PL_RES_GPU_MILLI, 700));
    assert_pl_ok(pl_topology_alloc(t, g20, PL_RES_GPU_MILLI, 300));
    pl_job *job;
    pl_task_demand d = {.gpu_milli = 700, .cores = 1};
    assert_pl_ok(pl_job_create("pod", &job));
    assert_pl_ok(pl_job_add_task(job, &d, NULL));
    const char *const names[] = {"fgd", "fgd-coarse", "bestfit", "fgd-price"};
    for (int k = 0; k < 4; k++) {
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.policy = names[k];
        pl_decision *dec;
        pl_decision_info info;
        assert_pl_ok(pl_policy_place(&o, t, NULL, 0, &job, 1, &dec));
        assert_pl_ok(pl_decision_get(dec, 0, &info));
        assert_int_equal(info.kind, PL_DECISION_PLACED);
        assert_int_equal(info.machine, n2);
        assert_int_equal(info.gpus[0], g20);
        pl_decision_free(dec);
    }
    /* A model no node has: the pod waits. */
    assert_pl_ok(pl_job_set_gpu_model(job, "A100"));
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "fgd";
    pl_decision *dec;
    pl_decision_info info;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, &job, 1, &dec));
    assert_pl_ok(pl_decision_get(dec, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_WAITING);
    pl_decision_free(dec);
    pl_job_free(job);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fgd_by_hand),
        cmocka_unit_test(test_fgd_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
