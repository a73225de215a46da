/* "drmaestro" and "drmaestro-na" through the policy interface: one round of
 * lib/drmaestro over the queue, read back as decisions. */
#include "policy_fixture.h"
#include "internal/policy_impl.h"

static pl_decision *place_with(const char *policy, const pl_topology *t, pl_job *const *q, int32_t n,
                               double load)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    o.network_load = load;
    pl_decision *d = NULL;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, n, &d));
    assert_int_equal(pl_decision_count(d), n);
    return d;
}

static void test_registered(void **s)
{
    (void)s;
    const pl_policy_ops *ops;
    assert_pl_ok(pl_policy_find("drmaestro", &ops));
    assert_string_equal(ops->name, "drmaestro");
    assert_pl_ok(pl_policy_find("drmaestro-na", &ops));
    assert_string_equal(ops->name, "drmaestro-na");
}

/* 8 GPUs for jobs of 2, 4 and 4 one-GPU tasks: the first two fit (6 GPUs),
 * the third needs 4 of the 2 left and, by the gang rule, gets none. The
 * queue order breaks the tie between the two 4-task jobs (doc/drmaestro.md:
 * earlier requests are cheaper to schedule). */
static void test_gang_and_order(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *q[3] = {mkjob("a", 2, 0, NULL, NULL), mkjob("b", 4, 0, NULL, NULL), mkjob("c", 4, 0, NULL, NULL)};
    for (int p = 0; p < 2; p++) {
        pl_decision *d = place_with(p ? "drmaestro-na" : "drmaestro", t, q, 3, 0.5);
        int32_t seen[8], nseen = 0;
        for (int32_t i = 0; i < 2; i++) {
            pl_decision_info info;
            assert_pl_ok(pl_decision_get(d, i, &info));
            assert_int_equal(info.kind, PL_DECISION_PLACED);
            assert_int_equal(info.ngpus, pl_job_task_count(q[i]));
            for (int32_t g = 0; g < info.ngpus; g++) {
                pl_vertex_info vi;
                assert_pl_ok(pl_topology_vertex(t, info.gpus[g], &vi));
                assert_int_equal(vi.kind, PL_VK_GPU);
                for (int32_t h = 0; h < nseen; h++)
                    assert_int_not_equal(seen[h], info.gpus[g]); /* no GPU given twice */
                seen[nseen++] = info.gpus[g];
            }
        }
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 2, &info));
        assert_int_equal(info.kind, PL_DECISION_WAITING);
        assert_non_null(strstr(info.reason, "gang"));
        /* The decisions apply: 6 GPUs taken, 2 free. */
        pl_topology *copy;
        assert_pl_ok(pl_topology_copy(t, &copy));
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.policy = "drmaestro";
        assert_pl_ok(pl_decision_apply(d, q, 3, copy));
        int64_t cap, fr;
        int32_t root = vx(copy, "cluster");
        assert_pl_ok(pl_topology_subtree_amount(copy, root, PL_VK_GPU, PL_RES_UNITS, &cap, &fr));
        assert_int_equal(cap, 8);
        assert_int_equal(fr, 2);
        pl_topology_free(copy);
        pl_decision_free(d);
    }
    for (int i = 0; i < 3; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
}

/* A machine's GPUs taken: a 2-task job still gets the other machine's. */
static void test_uses_free_machine(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(2, 2);
    const char *busy[4] = {"cluster/rack0/node0/package0/gpu0", "cluster/rack0/node0/package0/gpu1",
                           "cluster/rack0/node0/package1/gpu2", "cluster/rack0/node0/package1/gpu3"};
    for (int i = 0; i < 4; i++)
        assert_pl_ok(pl_topology_alloc(t, vx(t, busy[i]), PL_RES_UNITS, 1));
    pl_job *j = mkjob("j", 2, 1, NULL, NULL);
    pl_decision *d = place_with("drmaestro", t, &j, 1, 0);
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    int32_t node1 = vx(t, "cluster/rack0/node1");
    for (int32_t g = 0; g < 2; g++) {
        int32_t m;
        assert_pl_ok(pl_topology_ancestor(t, info.gpus[g], PL_VK_MACHINE, &m));
        assert_int_equal(m, node1);
    }
    assert_int_equal(info.machine, node1);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

/* Refused like under the other policies: no tasks; a task asking 2 GPUs
 * is placed (since issue 19), its 2 entries two GPUs of one machine; the
 * other jobs of the queue are placed too. */
static void test_refusals(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *q[3];
    assert_pl_ok(pl_job_create("empty", &q[0]));
    assert_pl_ok(pl_job_create("fat", &q[1]));
    pl_task_demand two = {.gpus = 2};
    assert_pl_ok(pl_job_add_task(q[1], &two, NULL));
    q[2] = mkjob("ok", 1, 0, NULL, NULL);
    pl_decision *d = place_with("drmaestro", t, q, 3, 0);
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_REJECTED);
    assert_pl_ok(pl_decision_get(d, 1, &info));
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, 2);
    assert_int_not_equal(info.gpus[0], info.gpus[1]);
    int32_t m0, m1;
    assert_pl_ok(pl_topology_ancestor(t, info.gpus[0], PL_VK_MACHINE, &m0));
    assert_pl_ok(pl_topology_ancestor(t, info.gpus[1], PL_VK_MACHINE, &m1));
    assert_int_equal(m0, m1);
    assert_int_equal(info.machine, m0);
    assert_pl_ok(pl_decision_get(d, 2, &info));
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    pl_decision_free(d);
    for (int i = 0; i < 3; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
}

/* A rack with one Minsky whose GPUs are all taken and a pool of 2 GPUs: a
 * 2-task job gets the pool's GPUs (remote, seed 004's disaggregation); no
 * single machine holds them, so machine is -1, and the decision applies. */
static void test_pool_gpus(void **s)
{
    (void)s;
    const char *json =
        "{\"templates\": {\"m\": {\"builtin\": \"minsky\"}},"
        " \"racks\": [{\"name\": \"rack0\", \"machines\": [{\"template\": \"m\", \"count\": 1}]}],"
        " \"pools\": [{\"name\": \"gpus\", \"attach\": \"rack0\","
        "   \"devices\": [{\"kind\": \"gpu\", \"count\": 2, \"capacity\": {\"units\": 1}}]}]}";
    pl_topology *t;
    assert_pl_ok(pl_topology_load_json_string(json, 0, &t));
    int32_t gpus[8], n;
    int32_t node0 = vx(t, "cluster/rack0/node0");
    assert_pl_ok(pl_topology_descendants(t, node0, PL_VK_GPU, gpus, 8, &n));
    assert_int_equal(n, 4);
    for (int32_t i = 0; i < n; i++)
        assert_pl_ok(pl_topology_alloc(t, gpus[i], PL_RES_UNITS, 1));
    pl_job *j = mkjob("remote", 2, 1, NULL, NULL);
    pl_decision *d = place_with("drmaestro", t, &j, 1, 0);
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_int_equal(info.machine, -1);
    int32_t pool = vx(t, "cluster/rack0/gpus");
    for (int32_t g = 0; g < 2; g++) {
        pl_vertex_info vi;
        assert_pl_ok(pl_topology_vertex(t, info.gpus[g], &vi));
        assert_int_equal(vi.parent, pool);
    }
    assert_int_not_equal(info.gpus[0], info.gpus[1]);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "drmaestro";
    assert_pl_ok(pl_decision_apply(d, &j, 1, t));
    int64_t used;
    assert_pl_ok(pl_topology_amount(t, info.gpus[0], PL_RES_UNITS, NULL, &used, NULL));
    assert_int_equal(used, 1);
    pl_decision_free(d);
    pl_job_free(j);
    pl_topology_free(t);
}

static void test_bad_network_load(void **s)
{
    (void)s;
    pl_topology *t = minsky_cluster(2, 2);
    pl_job *j = mkjob("j", 1, 0, NULL, NULL);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "drmaestro-na";
    o.network_load = 1.5;
    pl_decision *d = NULL;
    assert_pl_status(pl_policy_place(&o, t, NULL, 0, &j, 1, &d), PL_EINVAL);
    assert_null(d);
    pl_job_free(j);
    pl_topology_free(t);
}

/* GPUs of 2 units (shared): the flow counts units, but a job never gets one
 * GPU twice (issue 25: a 3-GPU job was given gpu0, gpu0, gpu1). */
static void test_shared_gpus_distinct(void **s)
{
    (void)s;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    int32_t gpus[8], ng = 0;
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_GPU, gpus, 8, &ng));
    assert_int_equal(ng, 4);
    for (int32_t g = 0; g < ng; g++)
        assert_pl_ok(pl_topology_set_capacity(t, gpus[g], PL_RES_UNITS, 2));
    for (int p = 0; p < 2; p++) {
        pl_job *q[3] = {mkjob("a", 3, 0, NULL, NULL), mkjob("b", 3, 0, NULL, NULL),
                        mkjob("c", 5, 0, NULL, NULL)};
        pl_decision *d = place_with(p ? "drmaestro-na" : "drmaestro", t, q, 3, 0.0);
        for (int32_t i = 0; i < 2; i++) {
            pl_decision_info info;
            assert_pl_ok(pl_decision_get(d, i, &info));
            assert_int_equal(info.kind, PL_DECISION_PLACED);
            assert_int_equal(info.ngpus, 3);
            for (int32_t g = 0; g < 3; g++)
                for (int32_t h = 0; h < g; h++)
                    assert_int_not_equal(info.gpus[g], info.gpus[h]);
        }
        /* 5 tasks on 4 GPUs (8 units): it would need a GPU twice, which it
         * never gets, so it is rejected. */
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 2, &info));
        assert_int_equal(info.kind, PL_DECISION_REJECTED);
        assert_non_null(strstr(info.reason, "more GPUs than the cluster has"));
        pl_decision_free(d);
        for (int i = 0; i < 3; i++)
            pl_job_free(q[i]);
    }
    pl_topology_free(t);
}

/* Algorithm 5 through an instance: a running job it placed, shown as
 * pl_sched shows it (a copy holding its GPUs), stays in its networks while
 * it runs; a running job it did not place is not its to keep. */
static void test_running_kept(void **s)
{
    (void)s;
    for (int na = 0; na < 2; na++) {
        pl_topology *t = minsky_cluster(2, 2);
        pl_job *a = mkjob("a", 2, 0, NULL, NULL), *b = mkjob("b", 1, 0, NULL, NULL);
        pl_job *f = mkjob("foreign", 1, 0, NULL, NULL);
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.policy = na ? "drmaestro-na" : "drmaestro";
        pl_policy *p;
        assert_pl_ok(pl_policy_create(&o, &p));
        pl_decision *d;
        assert_pl_ok(pl_policy_decide(p, &o, t, NULL, 0, &a, 1, &d));
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 0, &info));
        assert_int_equal(info.kind, PL_DECISION_PLACED);
        assert_pl_ok(pl_decision_apply(d, &a, 1, t));
        running_set rs = {0};
        pl_job *copy;
        assert_pl_ok(pl_job_copy(a, &copy));
        rs.r[rs.n++] = (pl_running_job){copy, info.gpus, info.ngpus};
        /* A foreign job on a GPU the instance never gave. */
        int32_t fg = -1;
        for (int32_t v = 0; v < pl_topology_vertex_count(t) && fg < 0; v++) {
            pl_vertex_info vi;
            int64_t fr = 0;
            assert_pl_ok(pl_topology_vertex(t, v, &vi));
            if (vi.kind == PL_VK_GPU && pl_topology_amount(t, v, PL_RES_UNITS, NULL, NULL, &fr) == PL_OK && fr > 0)
                fg = v;
        }
        run_on(&rs, t, f, &fg, 1);
        pl_decision *d2;
        assert_pl_ok(pl_policy_decide(p, &o, t, rs.r, rs.n, &b, 1, &d2));
        assert_int_equal(pl_drm_policy_kept(pl_policy_state(p)), 1);
        pl_decision_info ib;
        assert_pl_ok(pl_decision_get(d2, 0, &ib));
        assert_int_equal(ib.kind, PL_DECISION_PLACED);
        for (int32_t g = 0; g < info.ngpus; g++)
            assert_int_not_equal(ib.gpus[0], info.gpus[g]);
        assert_int_not_equal(ib.gpus[0], fg);
        /* a completed: no running job left to keep. */
        pl_decision *d3;
        pl_job *c = mkjob("c", 1, 0, NULL, NULL);
        assert_pl_ok(pl_policy_decide(p, &o, t, NULL, 0, &c, 1, &d3));
        assert_int_equal(pl_drm_policy_kept(pl_policy_state(p)), 0);
        pl_decision_free(d);
        pl_decision_free(d2);
        pl_decision_free(d3);
        pl_policy_free(p);
        pl_job_free(a);
        pl_job_free(b);
        pl_job_free(c);
        pl_job_free(f);
        pl_job_free(copy);
        pl_topology_free(t);
    }
}

static pl_job *quad(const char *name)
{
    return gpu_task(name, 4);
}

/* An instance of drmaestro (local: drmaestro-local) on two Minskys whose 8
 * GPUs (all[], preorder: node0's, then node1's) a foreign job holds, as
 * two running entries of rs of 4 GPUs each. */
static pl_policy *full_cluster(pl_topology *t, int local, pl_policy_opts *o, running_set *rs, const pl_job *fg,
                               int32_t *all)
{
    pl_policy_opts_init(o);
    o->policy = local ? "drmaestro-local" : "drmaestro";
    pl_policy *p;
    assert_pl_ok(pl_policy_create(o, &p));
    int32_t n = 0;
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_GPU, all, 8, &n));
    assert_int_equal(n, 8);
    *rs = (running_set){0};
    run_on(rs, t, fg, all, 4);
    run_on(rs, t, fg, all + 4, 4);
    return p;
}

/* Tasks of 4 GPUs through one instance, round after round, on two
 * Minskys: the first takes one machine's 4 GPUs; the second, with the
 * first running (shown as a copy, regrouped and kept in the networks),
 * the other machine's 4; a third waits while both run. */
static void test_quad_rounds(void **s)
{
    (void)s;
    const char *names[] = {"drmaestro", "drmaestro-na", "drmaestro-local", "drmaestro-na-local"};
    for (int v = 0; v < 4; v++) {
        pl_topology *t = minsky_cluster(2, 2);
        pl_job *a = quad("a"), *b = quad("b"), *c = quad("c"), *ca, *cb;
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.policy = names[v];
        pl_policy *p;
        assert_pl_ok(pl_policy_create(&o, &p));
        pl_decision *d[4];
        pl_decision_info ia, ib, ic;
        assert_pl_ok(pl_policy_decide(p, &o, t, NULL, 0, &a, 1, &d[0]));
        assert_pl_ok(pl_decision_get(d[0], 0, &ia));
        assert_int_equal(ia.kind, PL_DECISION_PLACED);
        assert_int_equal(ia.ngpus, 4);
        assert_pl_ok(pl_decision_apply(d[0], &a, 1, t));
        running_set rs = {0};
        assert_pl_ok(pl_job_copy(a, &ca));
        rs.r[rs.n++] = (pl_running_job){ca, ia.gpus, ia.ngpus};
        assert_pl_ok(pl_policy_decide(p, &o, t, rs.r, rs.n, &b, 1, &d[1]));
        assert_int_equal(pl_drm_policy_kept(pl_policy_state(p)), 1);
        assert_pl_ok(pl_decision_get(d[1], 0, &ib));
        assert_int_equal(ib.kind, PL_DECISION_PLACED);
        assert_int_equal(ib.ngpus, 4);
        assert_int_not_equal(ib.machine, ia.machine);
        for (int32_t g = 0; g < 4; g++) {
            assert_int_equal(machine_vertex(t, ia.gpus[g]), ia.machine);
            assert_int_equal(machine_vertex(t, ib.gpus[g]), ib.machine);
            for (int32_t h = g + 1; h < 4; h++) {
                assert_int_not_equal(ia.gpus[g], ia.gpus[h]);
                assert_int_not_equal(ib.gpus[g], ib.gpus[h]);
            }
        }
        assert_pl_ok(pl_decision_apply(d[1], &b, 1, t));
        assert_pl_ok(pl_job_copy(b, &cb));
        rs.r[rs.n++] = (pl_running_job){cb, ib.gpus, ib.ngpus};
        for (int r = 2; r < 4; r++) {
            assert_pl_ok(pl_policy_decide(p, &o, t, rs.r, rs.n, &c, 1, &d[r]));
            assert_int_equal(pl_drm_policy_kept(pl_policy_state(p)), 2);
            assert_pl_ok(pl_decision_get(d[r], 0, &ic));
            assert_int_not_equal(ic.kind, PL_DECISION_PLACED);
        }
        for (int r = 0; r < 4; r++)
            pl_decision_free(d[r]);
        pl_policy_free(p);
        pl_job_free(a);
        pl_job_free(b);
        pl_job_free(c);
        pl_job_free(ca);
        pl_job_free(cb);
        pl_topology_free(t);
    }
}

/* Two jobs of one 4-GPU task each, in one call, on two Minskys of 4 GPUs:
 * phase 1 counts the GPUs they take, so the second is refused the first's
 * machine and both are placed, one per machine, each on all 4 GPUs of its
 * machine (before, phase 1 could home both on one machine and one waited). */
static void test_two_quads_one_call(void **s)
{
    (void)s;
    const char *names[] = {"drmaestro", "drmaestro-na", "drmaestro-local", "drmaestro-na-local"};
    for (int v = 0; v < 4; v++) {
        pl_topology *t = minsky_cluster(2, 2);
        pl_job *q[2] = {quad("a"), quad("b")};
        pl_decision *d = policy_place(names[v], t, q, 2);
        pl_decision_info ia = dec(d, 0, PL_DECISION_PLACED), ib = dec(d, 1, PL_DECISION_PLACED);
        assert_int_not_equal(ia.machine, ib.machine);
        assert_int_equal(ia.ngpus, 4);
        assert_int_equal(ib.ngpus, 4);
        int used[64] = {0};
        for (int32_t g = 0; g < 4; g++) {
            assert_int_equal(machine_vertex(t, ia.gpus[g]), ia.machine);
            assert_int_equal(machine_vertex(t, ib.gpus[g]), ib.machine);
            assert_true(ia.gpus[g] < 64 && ib.gpus[g] < 64);
            assert_int_equal(used[ia.gpus[g]]++, 0);
            assert_int_equal(used[ib.gpus[g]]++, 0);
        }
        /* All 8 GPUs taken once: applying leaves none free. */
        assert_pl_ok(pl_decision_apply(d, q, 2, t));
        int64_t fr = -1;
        assert_pl_ok(pl_topology_subtree_amount(t, vx(t, "cluster"), PL_VK_GPU, PL_RES_UNITS, NULL, &fr));
        assert_int_equal(fr, 0);
        pl_decision_free(d);
        pl_job_free(q[0]);
        pl_job_free(q[1]);
        pl_topology_free(t);
    }
}

/* Which task phase 1 promises a machine's GPUs to is DRMaestro's own
 * priority (W, then the queue), not the job table's order: a (one task of
 * 2 GPUs) and b (of 4) wait a round on a full cluster (W = 1 each; a first
 * in the table), then node1's 4 GPUs and 2 of node0's free up and the
 * queue is b, a. Equal W, b first in the queue: b is promised node1, a is
 * refused it and goes to node0's 2 free GPUs: both placed. (Promising in
 * table order would give node1 to a, refuse it to b, which no other machine
 * admits; phase 2 then gives node1 to b and a waits.) */
static void test_quad_queue_order(void **s)
{
    (void)s;
    for (int v = 0; v < 2; v++) {
        pl_topology *t = minsky_cluster(2, 2);
        pl_job *a = gpu_task("a", 2), *b = quad("b"), *fg = mkjob("foreign", 4, 0, NULL, NULL);
        pl_policy_opts o;
        running_set rs;
        int32_t all[8];
        pl_policy *p = full_cluster(t, v, &o, &rs, fg, all);
        pl_decision *d;
        pl_job *q[2] = {a, b};
        assert_pl_ok(pl_policy_decide(p, &o, t, rs.r, rs.n, q, 2, &d));
        for (int32_t i = 0; i < 2; i++) {
            pl_decision_info info;
            assert_pl_ok(pl_decision_get(d, i, &info));
            assert_int_not_equal(info.kind, PL_DECISION_PLACED);
        }
        pl_decision_free(d);
        for (int32_t g = 2; g < 8; g++)
            assert_pl_ok(pl_topology_release(t, all[g], PL_RES_UNITS, 1));
        rs.n = 1;
        rs.r[0].ngpus = 2; /* foreign keeps node0's gpu0 and gpu1 */
        q[0] = b;
        q[1] = a;
        assert_pl_ok(pl_policy_decide(p, &o, t, rs.r, rs.n, q, 2, &d));
        assert_gpu_set(d, 0, all + 4, 4);
        assert_gpu_set(d, 1, all + 2, 2);
        pl_decision_free(d);
        pl_policy_free(p);
        pl_job_free(a);
        pl_job_free(b);
        pl_job_free(fg);
        pl_topology_free(t);
    }
}

/* The waiting counter W of a task of several GPUs survives the rounds
 * (the slot job made anew in each call is keyed by its user job): x waits
 * three rounds on a full cluster, then y, new, comes before it in the
 * queue when node1's 4 GPUs free up. Phase 1 and 2 would take the queue
 * order between equal W (doc/drmaestro.md); x's W of 3 wins: x placed on
 * node1, y waits. */
static void test_quad_waited(void **s)
{
    (void)s;
    for (int v = 0; v < 2; v++) {
        pl_topology *t = minsky_cluster(2, 2);
        pl_job *x = quad("x"), *y = quad("y"), *fg = mkjob("foreign", 4, 0, NULL, NULL);
        pl_policy_opts o;
        running_set rs;
        int32_t all[8];
        pl_policy *p = full_cluster(t, v, &o, &rs, fg, all);
        pl_decision *d;
        pl_decision_info info;
        for (int r = 0; r < 3; r++) {
            assert_pl_ok(pl_policy_decide(p, &o, t, rs.r, rs.n, &x, 1, &d));
            assert_pl_ok(pl_decision_get(d, 0, &info));
            assert_int_not_equal(info.kind, PL_DECISION_PLACED);
            pl_decision_free(d);
        }
        for (int32_t g = 4; g < 8; g++)
            assert_pl_ok(pl_topology_release(t, all[g], PL_RES_UNITS, 1));
        rs.n = 1;
        pl_job *q[2] = {y, x};
        assert_pl_ok(pl_policy_decide(p, &o, t, rs.r, rs.n, q, 2, &d));
        assert_pl_ok(pl_decision_get(d, 1, &info));
        assert_int_equal(info.kind, PL_DECISION_PLACED);
        assert_int_equal(info.machine, machine_vertex(t, all[4]));
        assert_pl_ok(pl_decision_get(d, 0, &info));
        assert_int_not_equal(info.kind, PL_DECISION_PLACED);
        pl_decision_free(d);
        pl_policy_free(p);
        pl_job_free(x);
        pl_job_free(y);
        pl_job_free(fg);
        pl_topology_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),
        cmocka_unit_test(test_gang_and_order),
        cmocka_unit_test(test_uses_free_machine),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_pool_gpus),
        cmocka_unit_test(test_bad_network_load),
        cmocka_unit_test(test_shared_gpus_distinct),
        cmocka_unit_test(test_running_kept),
        cmocka_unit_test(test_quad_rounds),
        cmocka_unit_test(test_quad_waited),
        cmocka_unit_test(test_two_quads_one_call),
        cmocka_unit_test(test_quad_queue_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
