/* DRMaestro: cost model values (seed 004 Eq. 6-8), hand-computed optima on
 * a 2-machine rack with every solver, phases and gang rule, starvation
 * counter W, NA policy, incremental rounds, baselines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include <placement/drmaestro.h>

#define GIB (1LL << 30)

/* ---- fixtures ----------------------------------------------------------- */

typedef struct mach_spec {
    int64_t cores, cores_used;
    int gpus, gpus_used;
    int nvme;                 /* storage devices: 2 GB/s, 1 TB each */
} mach_spec;

typedef struct cl {
    pl_topology *t;
    int32_t machine[4], gpu[4][4], pkg[4], nvme[4][2], rack;
    int n;
} cl;

/* cluster / rack0 / node<i> / package0 (cores) + numa0 (16 GiB) + gpus + storage */
static void make_cluster(cl *c, const mach_spec *m, int n)
{
    memset(c, 0, sizeof *c);
    int32_t root;
    assert_pl_ok(pl_topology_create(&c->t));
    assert_pl_ok(pl_topology_add_vertex(c->t, PL_VK_CLUSTER, -1, "cluster", -1, &root));
    assert_pl_ok(pl_topology_add_vertex(c->t, PL_VK_RACK, root, "rack0", 0, &c->rack));
    assert_pl_ok(pl_topology_add_link(c->t, root, c->rack, PL_LK_NETWORK, 0, 0, 0, NULL));
    c->n = n;
    for (int i = 0; i < n; i++) {
        char name[16];
        int32_t numa;
        snprintf(name, sizeof name, "node%d", i);
        assert_pl_ok(pl_topology_add_vertex(c->t, PL_VK_MACHINE, c->rack, name, i, &c->machine[i]));
        assert_pl_ok(pl_topology_add_link(c->t, c->machine[i], c->rack, PL_LK_NETWORK, 0, 0, 0, NULL));
        assert_pl_ok(pl_topology_add_vertex(c->t, PL_VK_PACKAGE, c->machine[i], NULL, 0, &c->pkg[i]));
        assert_pl_ok(pl_topology_set_capacity(c->t, c->pkg[i], PL_RES_CORES, m[i].cores));
        if (m[i].cores_used)
            assert_pl_ok(pl_topology_alloc(c->t, c->pkg[i], PL_RES_CORES, m[i].cores_used));
        assert_pl_ok(pl_topology_add_vertex(c->t, PL_VK_NUMA, c->pkg[i], NULL, 0, &numa));
        assert_pl_ok(pl_topology_set_capacity(c->t, numa, PL_RES_MEMORY, 16 * GIB));
        for (int g = 0; g < m[i].gpus; g++) {
            assert_pl_ok(pl_topology_add_vertex(c->t, PL_VK_GPU, c->pkg[i], NULL, g, &c->gpu[i][g]));
            assert_pl_ok(pl_topology_set_capacity(c->t, c->gpu[i][g], PL_RES_UNITS, 1));
            if (g < m[i].gpus_used)
                assert_pl_ok(pl_topology_alloc(c->t, c->gpu[i][g], PL_RES_UNITS, 1));
        }
        for (int s = 0; s < m[i].nvme; s++) {
            assert_pl_ok(pl_topology_add_vertex(c->t, PL_VK_STORAGE, c->machine[i], NULL, s, &c->nvme[i][s]));
            assert_pl_ok(pl_topology_set_capacity(c->t, c->nvme[i][s], PL_RES_BANDWIDTH, 2000000000LL));
            assert_pl_ok(pl_topology_set_capacity(c->t, c->nvme[i][s], PL_RES_STORAGE, 1000000000000LL));
        }
    }
}

/* A job of one task with cores, 1 GiB and gpus. */
static pl_job *make_job(int64_t cores, int64_t gpus)
{
    pl_job *j;
    assert_pl_ok(pl_job_create(NULL, &j));
    pl_task_demand d = { .gpus = gpus, .cores = cores, .memory = GIB };
    assert_pl_ok(pl_job_add_task(j, &d, NULL));
    return j;
}

static pl_drm_job_request req(int64_t id, pl_job *j, double phi)
{
    pl_drm_job_request r;
    memset(&r, 0, sizeof r);
    r.id = id;
    r.job = j;
    r.phi = phi;
    return r;
}

static int64_t free_of(pl_topology *t, int32_t v, pl_resource res)
{
    int64_t f = -1;
    assert_pl_ok(pl_topology_amount(t, v, res, NULL, NULL, &f));
    return f;
}

/* ---- Eq. 6-8 ---------------------------------------------------------------- */

static void test_cost_model_worked_values(void **state)
{
    (void)state;
    struct { double phi, z, ut, cost; } v[] = {
        { 50, 1, 0.5, 0.5 }, { 0, 1, 1.0, 0.0 }, { 100, 1, 0.0, 1.0 },
        { 150, 1, -0.5, 1.5 }, { 150, 5.5, -0.25, 1.25 }, { 150, 10, 0.0, 1.0 },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        double ut = pl_drm_utility(v[i].phi, 100, v[i].z);
        assert_float_equal(ut, v[i].ut, 1e-12);
        assert_float_equal(pl_drm_cost(ut, 1.0, 0), v[i].cost, 1e-12);
    }
    /* Eq. 8: the unscheduled arc adds W. */
    assert_float_equal(pl_drm_cost(0.5, 1.0, 3), 3.5, 1e-12);
    assert_float_equal(pl_drm_cost(0.5, 1.5, 0), 0.75, 1e-12);
    /* NA: phi 70 * sf 1.63 = 114.1 -> Ut -0.141 at z 1: an SLO violation. */
    double load[] = { 0.0, 0.5, 1.0 }, sf[] = { 1.0, 1.63, 2.0 };
    pl_drm_sensitivity s = { 3, load, sf };
    assert_float_equal(pl_drm_slowdown(&s, 0.5), 1.63, 1e-12);
    assert_float_equal(pl_drm_slowdown(&s, 0.25), 1.315, 1e-12);
    assert_float_equal(pl_drm_slowdown(&s, 0.75), 1.815, 1e-12);
    assert_float_equal(pl_drm_slowdown(&s, 1.0), 2.0, 1e-12);
    assert_float_equal(pl_drm_slowdown(NULL, 0.7), 1.0, 1e-12);
    double phi = 70 * pl_drm_slowdown(&s, 0.5);
    assert_float_equal(phi, 114.1, 1e-9);
    assert_float_equal(pl_drm_utility(phi, 100, 1), -0.141, 1e-9);
    assert_true(isnan(pl_drm_utility(1, 0, 1)));
}

/* ---- the hand-computed 2-machine rack, every solver ------------------------------ */

/*
 * node0: 8 cores, 4 used (load 0.5), 2 GPUs free, one NVMe.
 * node1: 8 cores free, 2 GPUs of which gpu0 used (load 0.5), no NVMe.
 * A (id 1): 4 cores, 2 GPUs, 1 NVMe share (1 GB/s, 100 GB), phi 50 (Ut 0.5).
 * B (id 2): 4 cores, 1 GPU, phi 80 (Ut 0.2). tau 100, scale 1000, queue A, B.
 * Phase 1: a slot is 4 cores: node0 1 slot (load cost 0.1 * 0.5 = 50),
 *   node1 2 slots (0). Both tasks on node1: cost 500 + 800 = 1300.
 * Phase 2: node1 has 1 free GPU (load cost 50), node0 2 (0). Local costs
 *   A 500, B 800; same rack (P 1.5): A 750, B 1200. Either A keeps node1's GPU
 *   (550 + 750 + B remote 1200 = 2500) or B does (850 + A 2 x 750 = 2350):
 *   B local, A's two GPUs on node0 remotely, cost 2350.
 * Phase 3: node1 has no NVMe, so A's share goes to node0 via the rack: 750.
 * Those are the slot form's costs (opts.slots). Eq. 10's normalised form
 * (the default) takes the same decisions at other costs: the largest
 * machine has 8 cores and 16 GiB, so a task of 4 cores and 1 GiB carries
 * b = 500 + 62.5 -> 563 units (node0 offers 500 + 1000, node1 2000): phase
 * 1 costs 563 x 500 + 563 x 800 = 731900. Phase 2 (one resource) is
 * unchanged: 2350. The NVMe share is 1 of 2 GB/s and 100 GB of 1 TB: 500 +
 * 100 = 600 units at 750: 450000.
 */
static void check_hand_case(const char *solver, int slots)
{
    mach_spec m[2] = { { 8, 4, 2, 0, 1 }, { 8, 0, 2, 1, 0 } };
    cl c;
    make_cluster(&c, m, 2);
    pl_job *ja = make_job(4, 2), *jb = make_job(4, 1);
    pl_drm_job_request r[2] = { req(1, ja, 50), req(2, jb, 80) };
    r[0].nvme_shares = 1;
    r[0].nvme_bw_bytes_per_s = 1000000000LL;
    r[0].nvme_bytes = 100000000000LL;
    pl_drm_opts o;
    pl_drm_opts_init(&o);
    o.solver = solver;
    o.slots = slots;
    pl_drm *d;
    assert_pl_ok(pl_drm_create(&o, &d));
    pl_drm_stats st;
    assert_pl_ok(pl_drm_round(d, c.t, r, 2, 0.0, 1, &st));
    assert_int_equal(st.cost[0], slots ? 1300 : 731900);
    assert_int_equal(st.cost[1], 2350);
    assert_int_equal(st.cost[2], slots ? 750 : 450000);
    assert_int_equal(pl_drm_result_count(d), 2);
    const pl_drm_placement *a = pl_drm_result(d, 0), *b = pl_drm_result(d, 1);
    assert_int_equal(a->outcome, PL_DRM_PLACED);
    assert_int_equal(b->outcome, PL_DRM_PLACED);
    assert_int_equal(a->machine[0], c.machine[1]);
    assert_int_equal(b->machine[0], c.machine[1]);
    assert_int_equal(a->gpus, 2);
    assert_int_equal(a->gpu[0].gpu, c.gpu[0][0]);
    assert_int_equal(a->gpu[1].gpu, c.gpu[0][1]);
    assert_int_equal(a->gpu[0].server, c.machine[0]);
    assert_false(a->gpu[0].local);
    assert_int_equal(b->gpus, 1);
    assert_int_equal(b->gpu[0].gpu, c.gpu[1][1]);
    assert_true(b->gpu[0].local);
    assert_int_equal(a->nvme, 1);
    assert_int_equal(a->share[0].device, c.nvme[0][0]);
    assert_int_equal(a->share[0].server, c.machine[0]);
    assert_false(a->share[0].local);
    assert_int_equal(b->nvme, 0);
    assert_int_equal(a->waited, 0);
    /* Applied: 8 cores of node1, every GPU, 1 GB/s of the NVMe. */
    assert_int_equal(free_of(c.t, c.pkg[1], PL_RES_CORES), 0);
    assert_int_equal(free_of(c.t, c.pkg[0], PL_RES_CORES), 4);
    for (int i = 0; i < 2; i++)
        for (int g = 0; g < 2; g++)
            assert_int_equal(free_of(c.t, c.gpu[i][g], PL_RES_UNITS), 0);
    assert_int_equal(free_of(c.t, c.nvme[0][0], PL_RES_BANDWIDTH), 1000000000LL);
    pl_drm_free(d);
    pl_job_free(ja);
    pl_job_free(jb);
    pl_topology_free(c.t);
}

static void test_hand_case_every_solver(void **state)
{
    (void)state;
    int n = pl_solver_count(), ran = 0;
    for (int i = 0; i < n; i++) {
        const pl_solver_ops *s = pl_solver_at(i);
        check_hand_case(s->name, 0);
        check_hand_case(s->name, 1);
        ran++;
    }
    assert_true(ran >= 5); /* ssp, network-simplex, cost-scaling, cycle-canceling, glpk */
}

/* ---- phases and the gang rule ------------------------------------------------------- */

static void run_one(pl_topology *t, pl_drm_job_request *r, int n, const pl_drm_opts *o,
                    double load, pl_drm **out)
{
    assert_pl_ok(pl_drm_create(o, out));
    assert_pl_ok(pl_drm_round(*out, t, r, n, load, 1, NULL));
}

static void test_locality_local_remote_gang(void **state)
{
    (void)state;
    /* node1 has no free core, so the CPU task lands on node0. */
    mach_spec m[2] = { { 8, 0, 2, 0, 0 }, { 8, 8, 2, 0, 0 } };
    cl c;
    pl_drm *d;
    make_cluster(&c, m, 2);
    pl_job *j = make_job(2, 2);
    pl_drm_job_request r = req(7, j, 50);
    run_one(c.t, &r, 1, NULL, 0, &d);
    const pl_drm_placement *p = pl_drm_result(d, 0);
    assert_int_equal(p->outcome, PL_DRM_PLACED);
    assert_int_equal(p->machine[0], c.machine[0]);
    assert_int_equal(p->gpus, 2);
    for (int g = 0; g < 2; g++) {
        assert_true(p->gpu[g].local);
        assert_int_equal(p->gpu[g].gpu, c.gpu[0][g]);
    }
    pl_drm_free(d);
    pl_topology_free(c.t);

    /* node0's GPUs taken: both come from node1, remotely. */
    m[0].gpus_used = 2;
    make_cluster(&c, m, 2);
    run_one(c.t, &r, 1, NULL, 0, &d);
    p = pl_drm_result(d, 0);
    assert_int_equal(p->outcome, PL_DRM_PLACED);
    assert_int_equal(p->machine[0], c.machine[0]);
    for (int g = 0; g < 2; g++) {
        assert_false(p->gpu[g].local);
        assert_int_equal(p->gpu[g].server, c.machine[1]);
        assert_int_equal(p->gpu[g].gpu, c.gpu[1][g]);
    }
    pl_drm_free(d);
    pl_topology_free(c.t);

    /* One GPU free on node0 and one on node1: one local, one remote. */
    m[0].gpus_used = 1;
    m[1].gpus_used = 1;
    make_cluster(&c, m, 2);
    run_one(c.t, &r, 1, NULL, 0, &d);
    p = pl_drm_result(d, 0);
    assert_int_equal(p->outcome, PL_DRM_PLACED);
    assert_int_equal(p->gpu[0].local + p->gpu[1].local, 1);
    pl_drm_free(d);
    pl_topology_free(c.t);

    /* Three GPUs asked, two free: gang rule, nothing placed, nothing allocated, W = 1. */
    pl_job *big = make_job(2, 3);
    pl_drm_job_request rb = req(8, big, 50);
    make_cluster(&c, m, 2);
    run_one(c.t, &rb, 1, NULL, 0, &d);
    p = pl_drm_result(d, 0);
    assert_int_equal(p->outcome, PL_DRM_NO_GPU);
    assert_int_equal(p->waited, 1);
    assert_int_equal(pl_drm_waited(d, 8), 1);
    assert_int_equal(free_of(c.t, c.pkg[0], PL_RES_CORES), 8);
    assert_int_equal(free_of(c.t, c.gpu[0][1], PL_RES_UNITS), 1);
    assert_int_equal(free_of(c.t, c.gpu[1][1], PL_RES_UNITS), 1);
    /* Second round, same state: W = 2. */
    assert_pl_ok(pl_drm_round(d, c.t, &rb, 1, 0, 1, NULL));
    assert_int_equal(pl_drm_result(d, 0)->waited, 2);
    pl_drm_free(d);
    pl_topology_free(c.t);
    pl_job_free(big);
    pl_job_free(j);
}

static void test_no_cpu_and_no_nvme(void **state)
{
    (void)state;
    mach_spec m[2] = { { 4, 0, 1, 0, 0 }, { 4, 0, 1, 0, 0 } };
    cl c;
    pl_drm *d;
    make_cluster(&c, m, 2);
    pl_job *fat = make_job(6, 0), *j = make_job(1, 0);
    pl_drm_job_request r[2] = { req(1, fat, 10), req(2, j, 10) };
    r[1].nvme_shares = 1;
    r[1].nvme_bw_bytes_per_s = 1;
    r[1].nvme_bytes = 1;
    run_one(c.t, r, 2, NULL, 0, &d);
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_NO_CPU);
    assert_int_equal(pl_drm_result(d, 1)->outcome, PL_DRM_NO_NVME);
    assert_int_equal(free_of(c.t, c.pkg[0], PL_RES_CORES), 4);
    assert_int_equal(free_of(c.t, c.pkg[1], PL_RES_CORES), 4);
    pl_drm_free(d);
    pl_topology_free(c.t);
    pl_job_free(fat);
    pl_job_free(j);
}

/* ---- starvation counter W ---------------------------------------------------------- */

static void test_waiting_counter_priority(void **state)
{
    (void)state;
    /* One machine, 2 GPUs, 1 already used: A (2 GPUs) cannot run. */
    mach_spec m[1] = { { 16, 0, 2, 1, 0 } };
    cl c;
    make_cluster(&c, m, 1);
    pl_job *ja = make_job(1, 2), *jb = make_job(1, 1);
    pl_drm_job_request ra = req(1, ja, 50), rb = req(2, jb, 50);
    pl_drm *d;
    assert_pl_ok(pl_drm_create(NULL, &d));
    assert_pl_ok(pl_drm_round(d, c.t, &ra, 1, 0, 1, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_NO_GPU);
    assert_pl_ok(pl_drm_round(d, c.t, &ra, 1, 0, 1, NULL));
    assert_int_equal(pl_drm_waited(d, 1), 2);
    /* The GPU frees up and B arrives, ahead of A in the queue. Without W
     * (a fresh handle) the queue order wins: B runs, A's gang fails. */
    assert_pl_ok(pl_topology_release(c.t, c.gpu[0][0], PL_RES_UNITS, 1));
    pl_drm_job_request q[2] = { rb, ra };
    pl_drm *fresh;
    assert_pl_ok(pl_drm_create(NULL, &fresh));
    assert_pl_ok(pl_drm_round(fresh, c.t, q, 2, 0, 0, NULL));
    assert_int_equal(pl_drm_result(fresh, 0)->outcome, PL_DRM_PLACED);
    assert_int_equal(pl_drm_result(fresh, 1)->outcome, PL_DRM_NO_GPU);
    /* With W = 2, A goes first and B waits. */
    assert_pl_ok(pl_drm_round(d, c.t, q, 2, 0, 1, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_NO_GPU);
    assert_int_equal(pl_drm_result(d, 1)->outcome, PL_DRM_PLACED);
    assert_int_equal(pl_drm_result(d, 1)->waited, 2);
    assert_int_equal(pl_drm_result(d, 0)->waited, 1);
    assert_int_equal(pl_drm_result(d, 1)->gpus, 2);
    pl_drm_free(fresh);
    pl_drm_free(d);
    pl_job_free(ja);
    pl_job_free(jb);
    pl_topology_free(c.t);
}

/* ---- network-aware policy ------------------------------------------------------------ */

static void test_network_aware(void **state)
{
    (void)state;
    /* CPU only fits node0, whose GPUs are taken: the GPU must be remote. */
    mach_spec m[2] = { { 8, 0, 1, 1, 0 }, { 8, 8, 1, 0, 0 } };
    cl c;
    make_cluster(&c, m, 2);
    pl_job *j = make_job(2, 1);
    double load[] = { 0.0, 0.5 }, sf[] = { 1.0, 1.63 };
    pl_drm_job_request r = req(3, j, 70);
    r.sensitivity = (pl_drm_sensitivity){ 2, load, sf };
    pl_drm_opts o;
    pl_drm_opts_init(&o);
    o.network_aware = 1;
    o.max_postpone = 2;
    pl_drm *d;
    assert_pl_ok(pl_drm_create(&o, &d));
    /* Idle network: remote Ut 0.3, placed remotely. */
    assert_pl_ok(pl_drm_round(d, c.t, &r, 1, 0.0, 0, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_PLACED);
    assert_false(pl_drm_result(d, 0)->gpu[0].local);
    /* Load 0.5: phi 114.1 > tau, Ut -0.141: postponed twice, then placed anyway. */
    assert_pl_ok(pl_drm_round(d, c.t, &r, 1, 0.5, 0, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_POSTPONED);
    assert_pl_ok(pl_drm_round(d, c.t, &r, 1, 0.5, 0, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_POSTPONED);
    assert_int_equal(pl_drm_result(d, 0)->waited, 2);
    assert_pl_ok(pl_drm_round(d, c.t, &r, 1, 0.5, 0, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_PLACED);
    pl_drm_free(d);
    /* Without NA the load is ignored. */
    o.network_aware = 0;
    assert_pl_ok(pl_drm_create(&o, &d));
    assert_pl_ok(pl_drm_round(d, c.t, &r, 1, 0.5, 0, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_PLACED);
    pl_drm_free(d);
    pl_topology_free(c.t);

    /* Remote-first with a free local GPU: idle network -> remote (rack P 1,
     * 0.5 * 1 = 500 on node1, 550 with node0's load, < local 0.5 * 2 = 1000);
     * load 1 with sf 2.5 -> remote
     * Ut -0.25 violates the SLO, so NA takes the local GPU instead. */
    mach_spec m2[2] = { { 8, 0, 2, 1, 0 }, { 8, 8, 1, 0, 0 } };
    make_cluster(&c, m2, 2);
    double load2[] = { 0.0, 1.0 }, sf2[] = { 1.0, 2.5 };
    r = req(4, j, 50);
    r.sensitivity = (pl_drm_sensitivity){ 2, load2, sf2 };
    pl_drm_opts_init(&o);
    o.locality = PL_DRM_REMOTE_FIRST;
    o.network_aware = 1;
    assert_pl_ok(pl_drm_create(&o, &d));
    assert_pl_ok(pl_drm_round(d, c.t, &r, 1, 0.0, 0, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_PLACED);
    assert_false(pl_drm_result(d, 0)->gpu[0].local);
    assert_int_equal(pl_drm_result(d, 0)->gpu[0].gpu, c.gpu[1][0]);
    assert_pl_ok(pl_drm_round(d, c.t, &r, 1, 1.0, 0, NULL));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_PLACED);
    assert_true(pl_drm_result(d, 0)->gpu[0].local);
    assert_int_equal(pl_drm_result(d, 0)->gpu[0].gpu, c.gpu[0][1]);
    pl_drm_free(d);
    pl_topology_free(c.t);
    pl_job_free(j);
}

/* ---- incremental rounds ------------------------------------------------------------------ */

static void same_decisions(const pl_drm *a, const pl_drm *b)
{
    assert_int_equal(pl_drm_result_count(a), pl_drm_result_count(b));
    for (int32_t i = 0; i < pl_drm_result_count(a); i++) {
        const pl_drm_placement *x = pl_drm_result(a, i), *y = pl_drm_result(b, i);
        assert_int_equal(x->outcome, y->outcome);
        if (x->outcome != PL_DRM_PLACED)
            continue;
        for (int32_t k = 0; k < x->tasks; k++)
            assert_int_equal(x->machine[k], y->machine[k]);
        assert_int_equal(x->gpus, y->gpus);
        for (int32_t g = 0; g < x->gpus; g++) {
            assert_int_equal(x->gpu[g].gpu, y->gpu[g].gpu);
            assert_int_equal(x->gpu[g].server, y->gpu[g].server);
        }
    }
}

static void test_incremental_matches_fresh(void **state)
{
    (void)state;
    /* Distinct loads make each optimum unique. */
    mach_spec m[4] = { { 16, 2, 4, 0, 0 }, { 16, 6, 4, 1, 0 }, { 16, 10, 4, 2, 0 }, { 16, 0, 4, 3, 0 } };
    cl c;
    make_cluster(&c, m, 4);
    pl_job *j[6];
    pl_drm_job_request r[6];
    for (int i = 0; i < 6; i++) {
        j[i] = make_job(2, 1 + i % 3);
        r[i] = req(100 + i, j[i], 20 + 10 * i);
    }
    pl_drm *kept;
    assert_pl_ok(pl_drm_create(NULL, &kept));
    pl_drm_stats st;
    assert_pl_ok(pl_drm_round(kept, c.t, r, 3, 0, 1, &st));
    for (int i = 0; i < 3; i++)
        assert_int_equal(pl_drm_result(kept, i)->outcome, PL_DRM_PLACED);
    /* Change: jobs 0-2 run (applied), a GPU of node3 frees, jobs 3-5 arrive. */
    assert_pl_ok(pl_topology_release(c.t, c.gpu[3][0], PL_RES_UNITS, 1));
    assert_pl_ok(pl_drm_round(kept, c.t, r + 3, 3, 0, 0, &st));
    assert_true(st.warm[0]);
    assert_true(st.warm[1]);
    pl_drm *fresh;
    pl_drm_stats sf;
    assert_pl_ok(pl_drm_create(NULL, &fresh));
    assert_pl_ok(pl_drm_round(fresh, c.t, r + 3, 3, 0, 0, &sf));
    assert_false(sf.warm[0]);
    same_decisions(kept, fresh);
    for (int p = 0; p < 3; p++)
        assert_int_equal(st.cost[p], sf.cost[p]);
    pl_drm_free(fresh);
    pl_drm_free(kept);
    for (int i = 0; i < 6; i++)
        pl_job_free(j[i]);
    pl_topology_free(c.t);
}

/* Random batches over several rounds: the kept networks give the same
 * optimal phase-1 costs as rebuilding every round. */
static void test_incremental_random_rounds(void **state)
{
    (void)state;
    mach_spec m[4] = { { 64, 0, 4, 0, 1 }, { 64, 3, 4, 1, 1 }, { 64, 7, 4, 0, 0 }, { 64, 1, 4, 2, 0 } };
    cl a;
    make_cluster(&a, m, 4);
    pl_test_rng rng = { 42 };
    pl_drm_opts o;
    pl_drm_opts_init(&o);
    pl_drm *kept, *cold;
    assert_pl_ok(pl_drm_create(&o, &kept));
    o.cold_start = 1;
    assert_pl_ok(pl_drm_create(&o, &cold));
    pl_job *jobs[64];
    pl_drm_job_request q[64];
    int nq = 0, next = 0, made = 0;
    for (int round = 0; round < 6; round++) {
        int arrive = (int)pl_test_range(&rng, 1, 5);
        for (int k = 0; k < arrive && nq < 64 && made < 64; k++) {
            jobs[made] = make_job(pl_test_range(&rng, 1, 8), pl_test_range(&rng, 0, 3));
            q[nq++] = req(next++, jobs[made], (double)pl_test_range(&rng, 10, 150));
            made++;
        }
        pl_drm_stats sk, sc;
        /* Both see the same cluster state; only the kept handle applies. */
        assert_pl_ok(pl_drm_round(cold, a.t, q, nq, 0, 0, &sc));
        assert_pl_ok(pl_drm_round(kept, a.t, q, nq, 0, 1, &sk));
        assert_int_equal(sk.cost[0], sc.cost[0]);
        assert_false(sc.warm[0]);
        /* Keep the unplaced jobs queued. */
        int w = 0;
        for (int i = 0; i < nq; i++)
            if (pl_drm_result(kept, i)->outcome != PL_DRM_PLACED)
                q[w++] = q[i];
        nq = w;
    }
    pl_drm_free(kept);
    pl_drm_free(cold);
    for (int i = 0; i < made; i++)
        pl_job_free(jobs[i]);
    pl_topology_free(a.t);
}


/* ---- Eq. 5/10: normalised supplies b_i ------------------------------------------------ */

static int count_outcome(const pl_drm *d, int n, pl_drm_outcome o)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += pl_drm_result(d, i)->outcome == o;
    return k;
}

/*
 * One machine of 8 cores and 16 GiB; tasks of 4, 2 and 2 cores (1 GiB
 * each). The slot form counts slots of the largest task (4 cores): 2 slots,
 * so the third task waits. Eq. 10 counts 4/8 + 1/16 -> 563 and 2/8 + 1/16 ->
 * 313 units against the machine's 1000 + 1000: all three fit (8 cores).
 */
static void test_normalised_supplies(void **state)
{
    (void)state;
    for (int slots = 0; slots <= 1; slots++) {
        mach_spec m[1] = { { 8, 0, 0, 0, 0 } };
        cl c;
        make_cluster(&c, m, 1);
        pl_job *j[3] = { make_job(4, 0), make_job(2, 0), make_job(2, 0) };
        pl_drm_job_request r[3] = { req(1, j[0], 50), req(2, j[1], 50), req(3, j[2], 50) };
        pl_drm_opts o;
        pl_drm_opts_init(&o);
        o.slots = slots;
        pl_drm *d;
        pl_drm_stats st;
        assert_pl_ok(pl_drm_create(&o, &d));
        assert_pl_ok(pl_drm_round(d, c.t, r, 3, 0, 1, &st));
        assert_int_equal(count_outcome(d, 3, PL_DRM_PLACED), slots ? 2 : 3);
        /* Placement costs Eq. 7 (0.5) per unit: 563 + 313 + 313 units; in the
         * slot form 2 units, and the third task's unit unscheduled at
         * Eq. 8 (0.5 + W 0) + base 1 + queue tie 1: 2 x 500 + 1501. */
        assert_int_equal(st.cost[0], slots ? 2501 : 1189 * 500);
        assert_int_equal(free_of(c.t, c.pkg[0], PL_RES_CORES), slots ? 2 : 0);
        pl_drm_free(d);
        for (int i = 0; i < 3; i++)
            pl_job_free(j[i]);
        pl_topology_free(c.t);
    }
}

/*
 * The sum of normalised amounts does not make each resource fit: node0 has
 * no free core but all its 16 GiB (1000 units at load cost 100 per unit),
 * node1 8 free cores and 16 GiB (2000 units, load 0). Five tasks of 2 cores
 * (313 units each, 1565 in all) fit node1's flow capacity, but only four
 * fit its cores: the decoder places four there and leaves the fifth (the
 * last in the queue) unscheduled rather than over-commit node1 or send it
 * to node0, which has no core.
 */
static void test_normalised_decoder_fits(void **state)
{
    (void)state;
    mach_spec m[2] = { { 8, 8, 0, 0, 0 }, { 8, 0, 0, 0, 0 } };
    cl c;
    make_cluster(&c, m, 2);
    pl_job *j[5];
    pl_drm_job_request r[5];
    for (int i = 0; i < 5; i++) {
        j[i] = make_job(2, 0);
        r[i] = req(i + 1, j[i], 50);
    }
    pl_drm *d;
    assert_pl_ok(pl_drm_create(NULL, &d));
    assert_pl_ok(pl_drm_round(d, c.t, r, 5, 0, 1, NULL));
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pl_drm_result(d, i)->outcome, PL_DRM_PLACED);
        assert_int_equal(pl_drm_result(d, i)->machine[0], c.machine[1]);
    }
    assert_int_equal(pl_drm_result(d, 4)->outcome, PL_DRM_NO_CPU);
    assert_int_equal(pl_drm_waited(d, 5), 1);
    assert_int_equal(free_of(c.t, c.pkg[1], PL_RES_CORES), 0);
    pl_drm_free(d);
    pl_topology_free(c.t);
    /* The repair: node0 8 free cores (2000 units, load 0), node1 4 of 8
     * (1500 units, load 50 per unit). Six tasks of 313 units all go to
     * node0 in the flow (1878 <= 2000, cheaper); four fit there, and the
     * other two, which the flow scheduled, fit node1, which got no flow:
     * they are placed there rather than wait. */
    mach_spec m2[2] = { { 8, 0, 0, 0, 0 }, { 8, 4, 0, 0, 0 } };
    make_cluster(&c, m2, 2);
    pl_job *j6 = make_job(2, 0);
    pl_drm_job_request r6[6];
    for (int i = 0; i < 6; i++)
        r6[i] = req(i + 1, i < 5 ? j[i] : j6, 50);
    pl_drm_stats st;
    assert_pl_ok(pl_drm_create(NULL, &d));
    assert_pl_ok(pl_drm_round(d, c.t, r6, 6, 0, 1, &st));
    assert_int_equal(st.cost[0], 6 * 313 * 500);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(pl_drm_result(d, i)->outcome, PL_DRM_PLACED);
        assert_int_equal(pl_drm_result(d, i)->machine[0], c.machine[i < 4 ? 0 : 1]);
    }
    assert_int_equal(free_of(c.t, c.pkg[0], PL_RES_CORES), 0);
    assert_int_equal(free_of(c.t, c.pkg[1], PL_RES_CORES), 0);
    pl_drm_free(d);
    for (int i = 0; i < 5; i++)
        pl_job_free(j[i]);
    pl_job_free(j6);
    pl_topology_free(c.t);
}

/* ---- Algorithm 5: running tasks kept until they complete -------------------------------- */

/*
 * node0: 8 cores, 16 GiB, 2 GPUs. Round 1 places A (2 cores, 1 GPU). Round
 * 2: B (the same) queued, A running. Kept (the default), A's task carries
 * its 250 + 63 = 313 units pinned to node0, whose arc to the sink carries
 * the free 750 + 938 units plus A's; node0's load cost is 0.1 x 2/8 -> 25
 * per unit. Phase 1: B 313 x (500 + 25) + A 313 x 25 = 172150 (dropped:
 * 164325). Phase 2: node0's GPU arc carries its free GPU plus A's, at
 * 0.1 x 1/2 -> 50: B 500 + 50, A 50 = 600 (dropped: 550). B's decision is
 * the same either way: node0, the free GPU.
 */
static void test_running_kept(void **state)
{
    (void)state;
    for (int drop = 0; drop <= 1; drop++) {
        mach_spec m[1] = { { 8, 0, 2, 0, 0 } };
        cl c;
        make_cluster(&c, m, 1);
        pl_job *ja = make_job(2, 1), *jb = make_job(2, 1);
        pl_drm_job_request r[2] = { req(1, ja, 50), req(2, jb, 50) };
        pl_drm_opts o;
        pl_drm_opts_init(&o);
        o.drop_running = drop;
        pl_drm *d;
        pl_drm_stats st;
        assert_pl_ok(pl_drm_create(&o, &d));
        assert_pl_ok(pl_drm_round(d, c.t, r, 1, 0, 1, &st));
        assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_PLACED);
        pl_drm_job_request r2[2] = { r[1], r[0] };
        r2[1].running = 1;
        assert_pl_ok(pl_drm_round(d, c.t, r2, 2, 0, 1, &st));
        assert_int_equal(st.cost[0], drop ? 164325 : 172150);
        assert_int_equal(st.cost[1], drop ? 550 : 600);
        const pl_drm_placement *b = pl_drm_result(d, 0);
        assert_int_equal(b->outcome, PL_DRM_PLACED);
        assert_int_equal(b->machine[0], c.machine[0]);
        assert_int_equal(b->gpu[0].gpu, c.gpu[0][1]);
        assert_int_equal(pl_drm_result(d, 1)->outcome, PL_DRM_RUNNING);
        assert_int_equal(pl_drm_waited(d, 1), 0);
        /* A completes (absent): its nodes leave; B runs on. */
        pl_drm_job_request r3[1] = { r[1] };
        r3[0].running = 1;
        assert_pl_ok(pl_drm_round(d, c.t, r3, 1, 0, 0, &st));
        assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_RUNNING);
        /* A job this handle never placed cannot be running. */
        pl_drm_job_request r4[1] = { req(9, ja, 50) };
        r4[0].running = 1;
        assert_pl_status(pl_drm_round(d, c.t, r4, 1, 0, 0, NULL), drop ? PL_OK : PL_EINVAL);
        pl_drm_free(d);
        pl_job_free(ja);
        pl_job_free(jb);
        pl_topology_free(c.t);
    }
}

/* What a placed one-task job holds, to release when it completes. */
typedef struct held_job {
    int32_t machine, gpu[2], ngpus;
} held_job;

/* Release it (the fixture: cores on the package, memory on its NUMA node,
 * one unit per GPU). */
static void release_job(cl *c, const held_job *h, const pl_job *j)
{
    pl_task_demand dm;
    int32_t numa, cnt = 0;
    assert_pl_ok(pl_job_task(j, 0, &dm));
    int mi = 0;
    while (c->machine[mi] != h->machine)
        mi++;
    assert_pl_ok(pl_topology_release(c->t, c->pkg[mi], PL_RES_CORES, dm.cores));
    assert_pl_ok(pl_topology_descendants(c->t, c->machine[mi], PL_VK_NUMA, &numa, 1, &cnt));
    assert_pl_ok(pl_topology_release(c->t, numa, PL_RES_MEMORY, dm.memory));
    for (int32_t g = 0; g < h->ngpus; g++)
        assert_pl_ok(pl_topology_release(c->t, h->gpu[g], PL_RES_UNITS, 1));
}

/* Whether two handles' last rounds put every placed job on the same
 * machines and GPUs. */
static int same_places(const pl_drm *a, const pl_drm *b, int n)
{
    for (int i = 0; i < n; i++) {
        const pl_drm_placement *x = pl_drm_result(a, i), *y = pl_drm_result(b, i);
        if (x->outcome != PL_DRM_PLACED)
            continue;
        if (x->machine[0] != y->machine[0] || x->gpus != y->gpus)
            return 0;
        for (int32_t g = 0; g < x->gpus; g++)
            if (x->gpu[g].gpu != y->gpu[g].gpu)
                return 0;
    }
    return 1;
}

/* Load cost per unit of a provider (doc/drmaestro.md): 0.1 x its used
 * fraction of res, in cost units (scale 1000). */
static int64_t load_cost_of(pl_topology *t, int32_t v, int kind, pl_resource res)
{
    int64_t cap = 0, fr = 0;
    assert_pl_ok(pl_topology_subtree_amount(t, v, kind, res, &cap, &fr));
    double used = cap > 0 ? (double)(cap - fr) / (double)cap : 0.0;
    return llround(0.1 * used * 1000.0);
}

/*
 * With preemption off, keeping the running tasks changes no optimum: their
 * flow is pinned and the providers' capacities grow by exactly their units,
 * so the queued tasks face the same feasible flows at costs shifted by a
 * constant: the pinned units' load cost, computed here independently (a
 * running task's b_i, 1 in the slot form, times its machine's load cost
 * per unit; one unit per running GPU at its machine's GPU load cost).
 * Checked over random rounds (arrivals, completions, both forms) on one
 * cluster driven by the kept handle: the dropping handle finds the same
 * optima, shifted by exactly that constant, in phases 1 and 2. With the
 * default load costs (loads differ by machine) the decisions are identical
 * too. Without load costs (tied: equal-cost machines) which machine a task
 * gets depends on the solver's pivot order, which the extra nodes change,
 * so there only the phase-1 optimum and who is scheduled are compared.
 */
static void test_running_kept_same_decisions(void **state)
{
    (void)state;
    for (int v = 0; v < 4; v++) {
        int slots = v & 1, no_load = v >> 1;
        mach_spec m[4] = { { 16, 3, 4, 1, 0 }, { 16, 0, 4, 0, 0 }, { 16, 9, 4, 2, 0 }, { 16, 5, 4, 3, 0 } };
        cl ck;
        make_cluster(&ck, m, 4);
        pl_test_rng rng = { 7 + (uint64_t)slots };
        pl_drm_opts o;
        pl_drm_opts_init(&o);
        o.slots = slots;
        if (no_load)
            o.load_cost = 0;
        pl_drm *kept, *drop;
        assert_pl_ok(pl_drm_create(&o, &kept));
        o.drop_running = 1;
        assert_pl_ok(pl_drm_create(&o, &drop));
        enum { MAXJ = 96 };
        pl_job *jobs[MAXJ];
        int left[MAXJ]; /* rounds to run; -1 queued, 0 done */
        held_job held[MAXJ];
        pl_drm_job_request all[MAXJ], q[MAXJ];
        int made = 0, placed_total = 0, kept_rounds = 0, same_machines = 0, compared = 0;
        for (int round = 0; round < 30; round++) {
            int arrive = (int)pl_test_range(&rng, 0, 4);
            for (int k = 0; k < arrive && made < MAXJ; k++, made++) {
                jobs[made] = make_job(pl_test_range(&rng, 1, 6), pl_test_range(&rng, 0, 2));
                all[made] = req(made, jobs[made], (double)pl_test_range(&rng, 10, 150));
                left[made] = -1;
            }
            int n = 0, nrun = 0;
            for (int i = 0; i < made; i++)
                if (left[i] < 0)
                    q[n++] = all[i];
            for (int i = 0; i < made; i++)
                if (left[i] > 0) {
                    q[n] = all[i];
                    q[n++].running = 1;
                    nrun++;
                }
            kept_rounds += nrun > 0;
            int64_t pinned[2] = { 0, 0 };
            for (int i = 0; i < made && !no_load; i++) {
                if (left[i] <= 0)
                    continue;
                pl_task_demand dm;
                assert_pl_ok(pl_job_task(jobs[i], 0, &dm));
                int64_t b = slots ? 1 : llround(1000.0 * (double)dm.cores / 16) + llround(1000.0 * 1 / 16);
                pinned[0] += b * load_cost_of(ck.t, held[i].machine, -1, PL_RES_CORES);
                for (int32_t g = 0; g < held[i].ngpus; g++) {
                    int32_t mach = -1;
                    assert_pl_ok(pl_topology_ancestor(ck.t, held[i].gpu[g], PL_VK_MACHINE, &mach));
                    pinned[1] += load_cost_of(ck.t, mach, PL_VK_GPU, PL_RES_UNITS);
                }
            }
            pl_drm_stats sk, sd;
            assert_pl_ok(pl_drm_round(drop, ck.t, q, n, 0, 0, &sd));
            assert_pl_ok(pl_drm_round(kept, ck.t, q, n, 0, 1, &sk));
            /* A phase with nothing queued is not solved: cost 0 in both. */
            for (int p = 0; p < 2; p++)
                if (sk.cost[p] == 0 && sd.cost[p] == 0)
                    pinned[p] = 0;
            assert_int_equal(sk.cost[0] - pinned[0], sd.cost[0]);
            for (int i = 0; i < n; i++)
                assert_int_equal(pl_drm_result(kept, i)->outcome == PL_DRM_NO_CPU,
                                 pl_drm_result(drop, i)->outcome == PL_DRM_NO_CPU);
            if (!no_load) {
                assert_int_equal(sk.cost[1] - pinned[1], sd.cost[1]);
                for (int i = 0; i < n; i++)
                    assert_int_equal(pl_drm_result(kept, i)->outcome, pl_drm_result(drop, i)->outcome);
                same_machines += same_places(kept, drop, n);
                compared++;
            }
            for (int i = 0; i < n; i++) {
                const pl_drm_placement *p = pl_drm_result(kept, i);
                if (p->outcome == PL_DRM_PLACED) {
                    held_job *h = &held[p->id];
                    h->machine = p->machine[0];
                    h->ngpus = p->gpus;
                    for (int32_t g = 0; g < p->gpus; g++)
                        h->gpu[g] = p->gpu[g].gpu;
                    left[p->id] = (int)pl_test_range(&rng, 1, 4);
                    placed_total++;
                }
            }
            /* Completions: released in both copies of the cluster. */
            for (int i = 0; i < made; i++)
                if (left[i] > 0 && --left[i] == 0)
                    release_job(&ck, &held[i], jobs[i]);
        }
        assert_true(placed_total > 20);
        assert_true(kept_rounds > 10);
        if (compared)
            printf("kept vs dropped, variant %d: same machines and GPUs in %d of %d rounds\n", v, same_machines,
                   compared);
        pl_drm_free(kept);
        pl_drm_free(drop);
        for (int i = 0; i < made; i++)
            pl_job_free(jobs[i]);
        pl_topology_free(ck.t);
    }
}

/* ---- hardware disaggregation: pools, racks ------------------------------------------ */

static int32_t add_gpus(pl_topology *t, int32_t parent, int n, int used)
{
    int32_t first = -1;
    for (int g = 0; g < n; g++) {
        int32_t v;
        assert_pl_ok(pl_topology_add_vertex(t, PL_VK_GPU, parent, NULL, g, &v));
        assert_pl_ok(pl_topology_set_capacity(t, v, PL_RES_UNITS, 1));
        if (g < used)
            assert_pl_ok(pl_topology_alloc(t, v, PL_RES_UNITS, 1));
        if (g == 0)
            first = v;
    }
    return first;
}

/*
 * cluster: rack0 {node0: 8 cores, no GPU; pool0: 1 GPU}, rack1 {node1: no
 * free core, 3 GPUs, 1 used}, pool1 (under the root, no rack): 1 GPU.
 * A (1 GPU, phi 50) lands on node0; its GPU costs 750 in rack0's pool
 * (P 1.5) against 1000 elsewhere (P 2): pool0. Then B (2 GPUs): node1 costs
 * 1000 + 33 (load 1/3) per GPU, pool1 1000: one from each, 2033.
 */
static void test_pools_and_racks(void **state)
{
    (void)state;
    pl_topology *t;
    int32_t root, r0, r1, n0, n1, p0, p1, pk;
    assert_pl_ok(pl_topology_create(&t));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_CLUSTER, -1, "cluster", -1, &root));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_RACK, root, "rack0", 0, &r0));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_RACK, root, "rack1", 1, &r1));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_MACHINE, r0, "node0", 0, &n0));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_PACKAGE, n0, NULL, 0, &pk));
    assert_pl_ok(pl_topology_set_capacity(t, pk, PL_RES_CORES, 8));
    assert_pl_ok(pl_topology_set_capacity(t, pk, PL_RES_MEMORY, 8 * GIB));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_POOL, r0, "pool0", 0, &p0));
    int32_t g_p0 = add_gpus(t, p0, 1, 0);
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_MACHINE, r1, "node1", 1, &n1));
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_PACKAGE, n1, NULL, 0, &pk));
    assert_pl_ok(pl_topology_set_capacity(t, pk, PL_RES_CORES, 8));
    assert_pl_ok(pl_topology_alloc(t, pk, PL_RES_CORES, 8));
    int32_t g_n1 = add_gpus(t, pk, 3, 1);
    assert_pl_ok(pl_topology_add_vertex(t, PL_VK_POOL, root, "pool1", 1, &p1));
    int32_t g_p1 = add_gpus(t, p1, 1, 0);

    pl_job *ja = make_job(2, 1), *jb = make_job(2, 2);
    pl_drm_job_request ra = req(1, ja, 50), rb = req(2, jb, 50);
    pl_drm *d;
    pl_drm_stats st;
    assert_pl_ok(pl_drm_create(NULL, &d));
    assert_pl_ok(pl_drm_round(d, t, &ra, 1, 0, 1, &st));
    const pl_drm_placement *p = pl_drm_result(d, 0);
    assert_int_equal(p->outcome, PL_DRM_PLACED);
    assert_int_equal(p->machine[0], n0);
    assert_int_equal(p->gpu[0].gpu, g_p0);
    assert_int_equal(p->gpu[0].server, p0);
    assert_false(p->gpu[0].local);
    assert_int_equal(st.cost[1], 750);
    assert_pl_ok(pl_drm_round(d, t, &rb, 1, 0, 1, &st));
    p = pl_drm_result(d, 0);
    assert_int_equal(p->outcome, PL_DRM_PLACED);
    assert_int_equal(st.cost[1], 2033);
    int from_n1 = 0, from_p1 = 0;
    for (int g = 0; g < 2; g++) {
        from_n1 += p->gpu[g].server == n1 && p->gpu[g].gpu == g_n1 + 1;
        from_p1 += p->gpu[g].server == p1 && p->gpu[g].gpu == g_p1;
    }
    assert_int_equal(from_n1, 1);
    assert_int_equal(from_p1, 1);
    pl_drm_free(d);
    pl_job_free(ja);
    pl_job_free(jb);
    pl_topology_free(t);
}

/* ---- baselines and errors ------------------------------------------------------------------ */

static void test_baselines(void **state)
{
    (void)state;
    mach_spec m[3] = { { 8, 0, 2, 0, 0 }, { 8, 0, 2, 0, 0 }, { 8, 0, 2, 0, 0 } };
    cl c;
    make_cluster(&c, m, 3);
    pl_job *j = make_job(2, 3);
    pl_drm_job_request r = req(1, j, 50);
    pl_drm *d;
    assert_pl_ok(pl_drm_create(NULL, &d));
    assert_pl_ok(pl_drm_baseline(d, c.t, &r, 1, PL_DRM_GREEDY_LOCAL, 0, 0));
    const pl_drm_placement *p = pl_drm_result(d, 0);
    assert_int_equal(p->outcome, PL_DRM_PLACED);
    assert_int_equal(p->machine[0], c.machine[0]);
    assert_int_equal(p->gpu[0].gpu, c.gpu[0][0]);
    assert_int_equal(p->gpu[1].gpu, c.gpu[0][1]);
    assert_int_equal(p->gpu[2].gpu, c.gpu[1][0]);
    assert_false(p->gpu[2].local);
    assert_int_equal(p->gpu[2].server, c.machine[1]);

    int32_t first[3];
    assert_pl_ok(pl_drm_baseline(d, c.t, &r, 1, PL_DRM_RANDOM_REMOTE, 12345, 0));
    p = pl_drm_result(d, 0);
    assert_int_equal(p->gpus, 3);
    for (int g = 0; g < 3; g++)
        first[g] = p->gpu[g].gpu;
    assert_true(first[0] != first[1] && first[0] != first[2] && first[1] != first[2]);
    assert_pl_ok(pl_drm_baseline(d, c.t, &r, 1, PL_DRM_RANDOM_REMOTE, 12345, 1));
    p = pl_drm_result(d, 0);
    for (int g = 0; g < 3; g++) {
        assert_int_equal(p->gpu[g].gpu, first[g]);
        assert_int_equal(free_of(c.t, first[g], PL_RES_UNITS), 0);
    }
    /* 3 GPUs left: a 4-GPU job is refused whole. */
    pl_job *big = make_job(1, 4);
    pl_drm_job_request rb = req(2, big, 50);
    assert_pl_ok(pl_drm_baseline(d, c.t, &rb, 1, PL_DRM_RANDOM_REMOTE, 1, 1));
    assert_int_equal(pl_drm_result(d, 0)->outcome, PL_DRM_NO_GPU);
    assert_int_equal(pl_drm_result(d, 0)->waited, 1);
    int64_t freeg = 0;
    assert_pl_ok(pl_topology_subtree_amount(c.t, c.rack, PL_VK_GPU, PL_RES_UNITS, NULL, &freeg));
    assert_int_equal(freeg, 3);
    pl_drm_free(d);
    pl_job_free(j);
    pl_job_free(big);
    pl_topology_free(c.t);
}

static void test_errors(void **state)
{
    (void)state;
    pl_drm *d = NULL;
    pl_drm_opts o;
    pl_drm_opts_init(&o);
    assert_string_equal(o.solver, "network-simplex");
    assert_int_equal(o.cost_scale, 1000);
    o.z = 11;
    assert_pl_status(pl_drm_create(&o, &d), PL_EINVAL);
    pl_drm_opts_init(&o);
    o.solver = "no-such-solver";
    assert_pl_status(pl_drm_create(&o, &d), PL_ENOTFOUND);
    assert_pl_status(pl_drm_create(NULL, NULL), PL_EINVAL);
    assert_pl_ok(pl_drm_create(NULL, &d));
    mach_spec m[1] = { { 8, 0, 1, 0, 0 } };
    cl c;
    make_cluster(&c, m, 1);
    pl_job *j = make_job(1, 0);
    pl_drm_job_request r[2] = { req(5, j, 10), req(5, j, 10) };
    assert_pl_status(pl_drm_round(d, c.t, r, 2, 0, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_drm_round(d, c.t, r, 1, 1.5, 0, NULL), PL_EINVAL);
    assert_pl_ok(pl_drm_round(d, c.t, NULL, 0, 0, 0, NULL));
    assert_int_equal(pl_drm_result_count(d), 0);
    assert_pl_ok(pl_drm_round(d, c.t, r, 1, 0, 0, NULL));
    assert_int_equal(pl_drm_result_count(d), 1);
    /* Another topology shape is refused. */
    cl c2;
    mach_spec m2[2] = { { 8, 0, 1, 0, 0 }, { 8, 0, 1, 0, 0 } };
    make_cluster(&c2, m2, 2);
    assert_pl_status(pl_drm_round(d, c2.t, r, 1, 0, 0, NULL), PL_EINVAL);
    assert_null(pl_drm_result(d, 5));
    pl_drm_free(d);
    pl_drm_free(NULL);
    pl_job_free(j);
    pl_topology_free(c.t);
    pl_topology_free(c2.t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cost_model_worked_values),
        cmocka_unit_test(test_hand_case_every_solver),
        cmocka_unit_test(test_locality_local_remote_gang),
        cmocka_unit_test(test_no_cpu_and_no_nvme),
        cmocka_unit_test(test_waiting_counter_priority),
        cmocka_unit_test(test_network_aware),
        cmocka_unit_test(test_incremental_matches_fresh),
        cmocka_unit_test(test_incremental_random_rounds),
        cmocka_unit_test(test_normalised_supplies),
        cmocka_unit_test(test_normalised_decoder_fits),
        cmocka_unit_test(test_running_kept),
        cmocka_unit_test(test_running_kept_same_decisions),
        cmocka_unit_test(test_pools_and_racks),
        cmocka_unit_test(test_baselines),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
