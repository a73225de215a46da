/* Properties of the seed-003 policies over random clusters and queues:
 * whatever they decide respects the jobs' constraints (one machine, the
 * node filter, anti-collocation), never books a resource beyond its
 * capacity (the decisions apply), and gpu-qos puts at most one
 * latency-sensitive and one batch task on a GPU. */
#include "kim_fixture.h"

#define ROUNDS 150

static const char *const types[] = {"bvlc_alexnet", "bvlc_googlenet", ""};
static const char *const sizes[] = {"1", "4", "64", "128"};

typedef struct world {
    pl_topology *t;
    char names[16][16];
    int32_t nmach;
    pl_job *running[8];
    running_set rs;
    pl_job *q[10];
    int32_t nq;
} world;

static pl_job *random_job(pl_test_rng *r, const char *name, int32_t k)
{
    const char *ty = types[pl_test_range(r, 0, 2)];
    pl_job *j = mkjob(name, k, pl_test_range(r, 0, 1) ? 1 : 0, ty[0] ? ty : NULL, sizes[pl_test_range(r, 0, 3)]);
    if (pl_test_range(r, 0, 1))
        assert_pl_ok(pl_job_set_slo(j, 10));
    return j;
}

static void build(world *w, pl_test_rng *r)
{
    static const char *const gnames[] = {"alpha", "beta", "gamma"};
    kim_group g[3];
    int ng = (int)pl_test_range(r, 1, 3);
    w->nmach = 0;
    for (int i = 0; i < ng; i++) {
        g[i] = (kim_group){gnames[i], (int)pl_test_range(r, 1, 3), (int)pl_test_range(r, 1, 2),
                           (int)pl_test_range(r, 1, 4), (int)pl_test_range(r, 1, 2)};
        for (int m = 0; m < g[i].count; m++)
            snprintf(w->names[w->nmach++], sizeof w->names[0], "%s%d", gnames[i], m);
    }
    w->t = kim_cluster(g, ng);
    /* running jobs on random free GPUs, one task each */
    int32_t gpus[64], n = 0;
    assert_pl_ok(pl_topology_descendants(w->t, -1, PL_VK_GPU, gpus, 64, &n));
    memset(&w->rs, 0, sizeof w->rs);
    int nr = (int)pl_test_range(r, 0, 4);
    for (int i = 0; i < nr; i++) {
        int32_t gpu = gpus[pl_test_range(r, 0, n - 1)];
        int64_t cap = 0, free_units = 0;
        assert_pl_ok(pl_topology_amount(w->t, gpu, PL_RES_UNITS, &cap, NULL, &free_units));
        if (free_units < cap)   /* one running job per GPU */
            continue;
        pl_job *j = random_job(r, "run", 1);
        w->running[w->rs.n] = j;
        run_on(&w->rs, w->t, j, &gpu, 1);
    }
    w->nq = (int32_t)pl_test_range(r, 1, 10);
    for (int32_t i = 0; i < w->nq; i++) {
        char name[16];
        snprintf(name, sizeof name, "q%d", (int)i);
        int32_t k = (int32_t)pl_test_range(r, 1, 3);
        pl_job *j = w->q[i] = random_job(r, name, k);
        if (pl_test_range(r, 0, 2) == 0) {
            const char *filter[2] = {w->names[pl_test_range(r, 0, w->nmach - 1)],
                                     w->names[pl_test_range(r, 0, w->nmach - 1)]};
            assert_pl_ok(pl_job_set_node_filter(j, filter, (int32_t)pl_test_range(r, 1, 2)));
        }
        if (k > 1 && pl_test_range(r, 0, 4) == 0)
            assert_pl_ok(pl_job_add_anti_collocation(j, 0, 1));
        if (pl_test_range(r, 0, 1))
            assert_pl_ok(pl_job_set_single_node(j, 1));
    }
}

static void destroy(world *w)
{
    for (int32_t i = 0; i < w->rs.n; i++)
        pl_job_free(w->running[i]);
    kim_free_jobs(w->q, w->nq);
    pl_topology_free(w->t);
}

static void check_gpu_kinds(const world *w, const pl_decision *d)
{
    int32_t nv = pl_topology_vertex_count(w->t);
    int *ls = calloc((size_t)nv, sizeof *ls), *bt = calloc((size_t)nv, sizeof *bt);
    for (int32_t r = 0; r < w->rs.n; r++)
        (pl_job_slo(w->rs.r[r].job) > 0 ? ls : bt)[w->rs.r[r].gpus[0]]++;
    for (int32_t i = 0; i < w->nq; i++) {
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, i, &info));
        for (int32_t g = 0; info.kind == PL_DECISION_PLACED && g < info.ngpus; g++)
            (pl_job_slo(w->q[i]) > 0 ? ls : bt)[info.gpus[g]]++;
    }
    for (int32_t v = 0; v < nv; v++) {
        /* a GPU another job held before the call gets no second job of
         * that job's kind, and no GPU gets two of a kind */
        if (ls[v] > 1 || bt[v] > 1)
            fail_msg("GPU vertex %d: %d latency-sensitive, %d batch tasks", (int)v, ls[v], bt[v]);
    }
    free(ls);
    free(bt);
}

static void test_random_worlds(void **state)
{
    (void)state;
    pl_test_rng r = {2026};
    static const char *const policies[] = {"sa-placement", "sa-placement", "two-level", "gpu-qos"};
    int placed[4] = {0};
    for (int round = 0; round < ROUNDS; round++) {
        world w;
        build(&w, &r);
        for (int p = 0; p < 4; p++) {
            pl_sa_policy_opts so;
            pl_sa_policy_opts_init(&so);
            so.iterations = 200;
            so.mode = p == 1 ? PL_SA_ONLINE : PL_SA_BATCH;
            pl_policy_opts o;
            pl_policy_opts_init(&o);
            o.policy = policies[p];
            o.seed = (uint64_t)round + 1;
            o.policy_opts = p < 2 ? (const void *)&so : NULL;
            pl_decision *d = NULL;
            pl_status st = pl_policy_place(&o, w.t, w.rs.r, w.rs.n, w.q, w.nq, &d);
            if (st)
                fail_msg("round %d %s: %s: %s", round, policies[p], pl_status_name(st), pl_last_error());
            placed[p] += kim_check_decisions(w.t, w.q, w.nq, d, &o);
            if (p == 3)
                check_gpu_kinds(&w, d);
            pl_decision_free(d);
        }
        destroy(&w);
    }
    /* the worlds are not all full: every policy placed a good share */
    for (int p = 0; p < 4; p++) {
        print_message("%s%s: %d jobs placed over %d rounds\n", policies[p], p == 1 ? " (on-line)" : "", placed[p],
                      ROUNDS);
        assert_true(placed[p] > ROUNDS);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_worlds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
