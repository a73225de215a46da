/* topo-aware's shortcuts on clusters (lib/policy/engine/machine_class.c,
 * doc/policies.md "Machine classes"): a machine in the same state as an
 * earlier one of its class is skipped (topo-aware) or gets that machine's
 * candidate renamed (fcfs, bf, pack, spread: lib/policy/policies/baseline.c), machines of one shape share their
 * distances, and the call's topology is cloned by arrays. The decisions
 * must be those of the full computation: a cluster whose machines each get
 * one extra, never-shortest link out of the machine has no classes (every
 * machine is evaluated, with its own Dijkstra) and must get the same
 * decisions, field by field. */
#include <stdio.h>
#include <stdlib.h>
#include "policy_fixture.h"
#include "policy/policies/baseline.h"
#include "internal/policy_impl.h"
#include "internal/topology_internal.h"

static uint64_t rng_state;

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int32_t below(int32_t n)
{
    return (int32_t)(next_u64() % (uint64_t)n);
}

static pl_topology *cluster(const char *machine, int32_t n)
{
    pl_topology *m, *t;
    assert_pl_ok(pl_topology_builtin(machine, &m));
    assert_pl_ok(pl_topology_cluster(m, n, 4, 0, &t));
    pl_topology_free(m);
    return t;
}

/* A copy of t whose machines have no class: each machine's first package
 * gets a link to the cluster's root, so a link leaves the machine below its
 * root. Its weight puts it on no shortest path: the distances stay. */
static pl_topology *declassed(const pl_topology *t)
{
    pl_topology *c;
    assert_pl_ok(pl_topology_copy(t, &c));
    int32_t mach[64], n, pkg[4], np, root = -1;
    assert_pl_ok(pl_topology_descendants(c, -1, PL_VK_MACHINE, mach, 64, &n));
    assert_pl_ok(pl_topology_ancestor(c, mach[0], PL_VK_CLUSTER, &root));
    for (int32_t i = 0; i < n; i++) {
        assert_pl_ok(pl_topology_descendants(c, mach[i], PL_VK_PACKAGE, pkg, 4, &np));
        assert_pl_ok(pl_topology_add_link(c, pkg[0], root, PL_LK_NETWORK, 0, 0, 1000000000, NULL));
    }
    return c;
}

static pl_job *random_job(int32_t id, int32_t maxk)
{
    static const char *const types[] = {"bvlc_alexnet", "bvlc_googlenet", ""};
    static const char *const sizes[] = {"1", "4", "64", "128"};
    char name[32];
    snprintf(name, sizeof name, "j%d", (int)id);
    pl_job *j;
    assert_pl_ok(pl_job_create(name, &j));
    int32_t k = 1 + below(maxk);
    for (int32_t i = 0; i < k; i++) {
        pl_task_demand d = {.gpus = 1, .cores = below(4), .memory = (int64_t)below(120) << 30,
                             .gpu_memory = (int64_t)below(12) << 30};
        assert_pl_ok(pl_job_add_task(j, &d, NULL));
    }
    if (k > 1 && below(2))
        assert_pl_ok(pl_job_add_all_to_all(j, 1 + below(6)));
    else if (k > 2)
        assert_pl_ok(pl_job_add_edge(j, 0, k - 1, 3));
    assert_pl_ok(pl_job_set_workload(j, types[below(3)], sizes[below(4)]));
    assert_pl_ok(pl_job_set_min_utility(j, 0.2 + 0.1 * below(7)));
    assert_pl_ok(pl_job_set_single_node(j, below(4) != 0));
    return j;
}

/* Machines of t with a class (-1: all of them have one, else the count). */
static int32_t classed_machines(const pl_topology *t)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    pl_policy_request req = {.opts = &o, .topo = t};
    pl_pctx *c;
    assert_pl_ok(pl_pctx_create(&req, &c));
    assert_pl_ok(pl_pctx_classes(c));
    int32_t n = 0;
    for (int32_t m = 0; m < c->nmach; m++)
        n += c->mach[m].cls >= 0;
    n = n == c->nmach ? -1 : n;
    pl_pctx_free(c);
    return n;
}

typedef struct occupancy {
    pl_running_job run[64];
    int32_t gpus[64][8];
    pl_job *jobs[64];
    int32_t n;
} occupancy;

/* Fill t with a queue of random jobs placed by "random" and applied. */
static void occupy(pl_topology *t, occupancy *oc, int32_t njobs)
{
    pl_job *q[64];
    for (int32_t i = 0; i < njobs; i++)
        q[i] = random_job(100 + i, 4);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "random";
    o.seed = next_u64();
    pl_decision *d;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, njobs, &d));
    assert_pl_ok(pl_decision_apply(d, q, njobs, t));
    oc->n = 0;
    for (int32_t i = 0; i < njobs; i++) {
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, i, &info));
        if (info.kind != PL_DECISION_PLACED) {
            pl_job_free(q[i]);
            continue;
        }
        int32_t r = oc->n++;
        memcpy(oc->gpus[r], info.gpus, (size_t)info.ngpus * sizeof *info.gpus);
        oc->jobs[r] = q[i];
        oc->run[r] = (pl_running_job){q[i], oc->gpus[r], info.ngpus};
    }
    pl_decision_free(d);
}

/* A scenario's queue, occupying jobs, classless copy and cluster. */
static void free_scenario(pl_job **q, int32_t nq, occupancy *oc, pl_topology *plain, pl_topology *t)
{
    for (int32_t i = 0; i < nq; i++)
        pl_job_free(q[i]);
    for (int32_t i = 0; i < oc->n; i++)
        pl_job_free(oc->jobs[i]);
    pl_topology_free(plain);
    pl_topology_free(t);
}

static void assert_same_decisions(const pl_decision *a, const pl_decision *b, const char *what)
{
    assert_int_equal(pl_decision_count(a), pl_decision_count(b));
    for (int32_t i = 0; i < pl_decision_count(a); i++) {
        pl_decision_info x, y;
        assert_pl_ok(pl_decision_get(a, i, &x));
        assert_pl_ok(pl_decision_get(b, i, &y));
        if (x.kind != y.kind || x.machine != y.machine || x.ngpus != y.ngpus || x.utility != y.utility ||
            x.comm_cost != y.comm_cost || x.slowdown != y.slowdown || strcmp(x.reason, y.reason))
            fail_msg("%s, decision %d: kind %d/%d machine %d/%d utility %.17g/%.17g slowdown %g/%g (%s | %s)",
                     what, (int)i, (int)x.kind, (int)y.kind, (int)x.machine, (int)y.machine, x.utility,
                     y.utility, x.slowdown, y.slowdown, x.reason, y.reason);
        for (int32_t g = 0; g < x.ngpus; g++)
            assert_int_equal(x.gpus[g], y.gpus[g]);
    }
}

/* Random occupancies and queues on Minsky and DGX-1 clusters: every
 * policy call gives the same decisions with and without machine classes,
 * under topo-aware and the baselines that evaluate every machine. */
static void test_classes_keep_decisions(void **s)
{
    static const char *const policies[] = {"topo-aware", "topo-aware-p", "fcfs", "bf", "pack", "spread"};
    (void)s;
    int32_t placed[sizeof policies / sizeof *policies] = {0};
    for (int32_t scenario = 0; scenario < 24; scenario++) {
        rng_state = 0x5eed0000ULL + (uint64_t)scenario;
        int dgx = scenario % 4 == 3;
        pl_topology *t = cluster(dgx ? "dgx1" : "minsky", dgx ? 3 + below(3) : 6 + below(20));
        /* Some machines with fewer cores on a package: same shape, other class. */
        int32_t mach[32], nm, pkg[4], np;
        assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_MACHINE, mach, 32, &nm));
        for (int32_t i = 0; i < nm; i++)
            if (below(4) == 0) {
                assert_pl_ok(pl_topology_descendants(t, mach[i], PL_VK_PACKAGE, pkg, 4, &np));
                assert_pl_ok(pl_topology_set_capacity(t, pkg[below(np)], PL_RES_CORES, 1 + below(4)));
            }
        occupancy oc;
        occupy(t, &oc, below(dgx ? 12 : 40));
        pl_topology *plain = declassed(t);
        /* The comparison is between the two paths. */
        assert_int_equal(classed_machines(t), -1);
        assert_int_equal(classed_machines(plain), 0);
        pl_job *q[8];
        int32_t nq = 1 + below(8);
        for (int32_t i = 0; i < nq; i++)
            q[i] = random_job(i, dgx ? 8 : 5);
        for (size_t p = 0; p < sizeof policies / sizeof *policies; p++)
            for (int form = 0; form < 2; form++) {
                pl_policy_opts o;
                pl_policy_opts_init(&o);
                o.policy = policies[p];
                o.utility.form = form ? PL_UTILITY_PAPER : PL_UTILITY_ARTIFACT;
                pl_decision *a, *b;
                assert_pl_ok(pl_policy_place(&o, t, oc.run, oc.n, q, nq, &a));
                assert_pl_ok(pl_policy_place(&o, plain, oc.run, oc.n, q, nq, &b));
                char what[64];
                snprintf(what, sizeof what, "scenario %d, %s, form %d", (int)scenario, o.policy, form);
                assert_same_decisions(a, b, what);
                for (int32_t i = 0; i < nq; i++) {
                    pl_decision_info info;
                    assert_pl_ok(pl_decision_get(a, i, &info));
                    placed[p] += info.kind == PL_DECISION_PLACED;
                }
                pl_decision_free(a);
                pl_decision_free(b);
            }
        free_scenario(q, nq, &oc, plain, t);
    }
    /* The scenarios place jobs under every policy (not a comparison of
     * empty decision sets). */
    for (size_t p = 0; p < sizeof policies / sizeof *policies; p++) {
        assert_true(placed[p] > 50);
    }
}

/* The baselines' own keys never let a machine in the same state as an
 * earlier one win (it ties with it), so their decisions cannot show a
 * wrongly renamed reused candidate. This key always prefers the later
 * machine, so the last admissible machine wins, usually with a candidate
 * renamed from an earlier machine's; the pick is spread-like from the last
 * socket. Both must equal the full computation on the classless copy. */
static int pick_from_last_socket(pl_pctx *c, int32_t m, int32_t k, int32_t *gpus)
{
    int32_t order[8], ns = c->mach[m].nsockets;
    for (int32_t s = 0; s < ns; s++)
        order[s] = ns - 1 - s;
    return pl_take_in_socket_order(c, m, order, k, gpus);
}

static double later_wins(pl_pctx *c, const pl_cand *a, const pl_cand *b)
{
    (void)c;
    return a->machine > b->machine ? -1 : 1;
}

static void test_reused_candidates_are_renamed(void **s)
{
    (void)s;
    int32_t compared = 0;
    for (int32_t scenario = 0; scenario < 16; scenario++) {
        rng_state = 0x7a5e0000ULL + (uint64_t)scenario;
        pl_topology *t = cluster("minsky", 4 + below(12));
        occupancy oc;
        occupy(t, &oc, below(20));
        pl_topology *plain = declassed(t);
        pl_job *q[8];
        int32_t nq = 1 + below(8);
        for (int32_t i = 0; i < nq; i++)
            q[i] = random_job(i, 4);
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        pl_policy_request ra = {.opts = &o, .topo = t, .running = oc.run, .nrunning = oc.n, .queue = q, .nqueue = nq},
                          rb = {.opts = &o, .topo = plain, .running = oc.run, .nrunning = oc.n, .queue = q, .nqueue = nq};
        pl_pctx *ca, *cb;
        assert_pl_ok(pl_pctx_create(&ra, &ca));
        assert_pl_ok(pl_pctx_create(&rb, &cb));
        for (int32_t i = 0; i < nq; i++) {
            int32_t k, ga[8], gb[8];
            const char *why;
            assert_pl_ok(pl_pctx_job_check(ca, q[i], &k, 1, &why));
            if (why)
                continue;
            pl_cand a = {k, ga, -1, 0, 0, 0}, b = {k, gb, -1, 0, 0, 0};
            pl_choose_result rsa, rsb;
            const pl_engine_rules rules = {.pick = pick_from_last_socket, .rank = later_wins};
            assert_pl_ok(pl_baseline_choose(ca, q[i], k, &rules, &a, &rsa));
            assert_pl_ok(pl_baseline_choose(cb, q[i], k, &rules, &b, &rsb));
            assert_int_equal(rsa, rsb);
            if (rsa != PL_CHOSEN)
                continue;
            assert_int_equal(a.machine, b.machine);
            assert_memory_equal(ga, gb, (size_t)k * sizeof *ga);
            assert_true(a.utility == b.utility && a.comm == b.comm && a.slowdown == b.slowdown);
            assert_pl_ok(pl_pctx_commit(ca, q[i], &a));
            assert_pl_ok(pl_pctx_commit(cb, q[i], &b));
            compared++;
        }
        pl_pctx_free(ca);
        pl_pctx_free(cb);
        free_scenario(q, nq, &oc, plain, t);
    }
    assert_true(compared > 30);
}

/* Two Minsky machines with gpu0 taken, node0 by "stream" (which slows
 * "caffe" 1.5x), node1 by "quiet" (no profile: no interference). Their GPUs
 * and allocations are alike, their neighbours are not: a 3-GPU caffe job
 * (all the free GPUs, gpu1 next to the occupant) suffers 1.5 on node0 and
 * 1 on node1, so node1 wins under topo-aware, though node0 comes first.
 * fcfs and bf choose machines by free GPUs as seed 002's baselines do (first
 * fit; best fit, a tie here), not by utility: node0, like pack and spread. */
static void test_neighbour_workload_tells_machines_apart(void **s)
{
    (void)s;
    pl_topology *t = cluster("minsky", 2);
    pl_profile_set *ps;
    assert_pl_ok(pl_profile_set_create(&ps));
    assert_pl_ok(pl_profile_set_add_solo(ps, "caffe", "1", 3, PL_SPREAD_INTRA_SOCKET, 100));
    assert_pl_ok(pl_profile_set_add_colocated(ps, "caffe", "1", 3, "stream", "1", 1, 150));
    pl_job *stream = mkjob("stream", 1, 0, "stream", "1"), *quiet = mkjob("quiet", 1, 0, "quiet", "1");
    running_set rs = {0};
    int32_t g0 = vx(t, "cluster/rack0/node0/package0/gpu0"), g1 = vx(t, "cluster/rack0/node1/package0/gpu0");
    run_on(&rs, t, stream, &g0, 1);
    run_on(&rs, t, quiet, &g1, 1);
    pl_job *job = mkjob("caffe3", 3, 0, "caffe", "1");
    static const char *const policies[] = {"topo-aware", "fcfs", "bf"};
    for (size_t p = 0; p < sizeof policies / sizeof *policies; p++) {
        int topo = p == 0;
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.profiles = ps;
        o.policy = policies[p];
        pl_decision *d;
        assert_pl_ok(pl_job_set_node_filter(job, NULL, 0));
        assert_pl_ok(pl_policy_place(&o, t, rs.r, rs.n, &job, 1, &d));
        pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
        if (info.machine != vx(t, topo ? "cluster/rack0/node1" : "cluster/rack0/node0") ||
            info.slowdown != (topo ? 1.0 : 1.5))
            fail_msg("%s: machine %d slowdown %g, want node%d and %g", policies[p], (int)info.machine,
                     info.slowdown, topo, topo ? 1.0 : 1.5);
        pl_decision_free(d);
        /* node0 alone: the same GPUs suffer 1.5. */
        const char *only0[] = {"node0"};
        assert_pl_ok(pl_job_set_node_filter(job, only0, 1));
        assert_pl_ok(pl_policy_place(&o, t, rs.r, rs.n, &job, 1, &d));
        info = dec(d, 0, PL_DECISION_PLACED);
        assert_true(fabs(info.slowdown - 1.5) < 1e-12);
        pl_decision_free(d);
    }
    pl_job_free(job);
    pl_job_free(stream);
    pl_job_free(quiet);
    pl_profile_set_free(ps);
    pl_topology_free(t);
}

/* Two empty Minsky machines, but 9 of node0's 10 cores on package0 are
 * taken. A talking pair of 1-core tasks gets the NVLink pair gpu0, gpu1 on
 * node1 (utility 1 - (1/22 + 0.5) / 3: t = 1 of the worst 22, half the
 * machine's GPUs free after); on node0 socket 0 has one core for two tasks, so DRB
 * sends the second task across (t = 22). Same free GPUs, other
 * allocations: node1 is not node0's twin. fcfs, bf and pack pick gpu0,
 * gpu1 on both machines, which do not fit node0's cores: node1 too. */
static void test_allocations_tell_machines_apart(void **s)
{
    (void)s;
    pl_topology *t = cluster("minsky", 2);
    assert_pl_ok(pl_topology_alloc(t, vx(t, "cluster/rack0/node0/package0"), PL_RES_CORES, 9));
    pl_job *job;
    assert_pl_ok(pl_job_create("pair", &job));
    pl_task_demand dem = {.gpus = 1, .cores = 1};
    assert_pl_ok(pl_job_add_task(job, &dem, NULL));
    assert_pl_ok(pl_job_add_task(job, &dem, NULL));
    assert_pl_ok(pl_job_add_all_to_all(job, 4));
    int32_t want[2] = {vx(t, "cluster/rack0/node1/package0/gpu0"), vx(t, "cluster/rack0/node1/package0/gpu1")};
    static const char *const policies[] = {"topo-aware", "fcfs", "bf", "pack"};
    for (size_t p = 0; p < sizeof policies / sizeof *policies; p++) {
        pl_decision *d = place(policies[p], t, NULL, &job, 1);
        pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
        assert_gpus(d, 0, want, 2);
        assert_int_equal(info.comm_cost, 1);
        assert_true(fabs(info.utility - (1 - (1.0 / 22 + 0.5) / 3)) < 1e-9);
        pl_decision_free(d);
    }
    const char *only0[] = {"node0"};
    assert_pl_ok(pl_job_set_node_filter(job, only0, 1));
    pl_decision *d = place("topo-aware", t, NULL, &job, 1);
    pl_decision_info info = dec(d, 0, PL_DECISION_PLACED);
    assert_int_equal(info.comm_cost, 22);
    pl_decision_free(d);
    pl_job_free(job);
    pl_topology_free(t);
}

/* pl_topo_clone gives what pl_topology_copy gives: vertices, links,
 * names, amounts, attributes (also after one was removed), and both
 * grow alike afterwards. */
static void test_clone_equals_copy(void **s)
{
    (void)s;
    pl_topology *t = cluster("dgx1", 3), *a, *b;
    int32_t n0 = vx(t, "cluster/rack0/node0"), gpus[8], ng, g;
    assert_pl_ok(pl_topology_descendants(t, vx(t, "cluster/rack0/node2"), PL_VK_GPU, gpus, 8, &ng));
    g = gpus[5];
    assert_pl_ok(pl_topology_set_attr(t, n0, "zone", "a"));
    assert_pl_ok(pl_topology_set_attr(t, n0, "arch", "x86"));
    assert_pl_ok(pl_topology_set_attr(t, g, "model", "v100"));
    assert_pl_ok(pl_topology_set_attr(t, n0, "zone", NULL));
    assert_pl_ok(pl_topology_alloc(t, g, PL_RES_UNITS, 1));
    assert_pl_ok(pl_topology_copy(t, &a));
    assert_pl_ok(pl_topo_clone(t, &b));
    for (int round = 0; round < 2; round++) {
        assert_int_equal(pl_topology_vertex_count(a), pl_topology_vertex_count(b));
        assert_int_equal(pl_topology_link_count(a), pl_topology_link_count(b));
        char *ta = pl_test_topology_output(pl_topology_write_text, a),
             *tb = pl_test_topology_output(pl_topology_write_text, b);
        assert_string_equal(ta, tb);
        free(ta);
        free(tb);
        for (int32_t v = 0; v < pl_topology_vertex_count(a); v++) {
            assert_int_equal(pl_topology_attr_count(a, v), pl_topology_attr_count(b, v));
            for (int32_t i = 0; i < pl_topology_attr_count(a, v); i++) {
                const char *ka, *va, *kb, *vb;
                assert_pl_ok(pl_topology_attr_at(a, v, i, &ka, &va));
                assert_pl_ok(pl_topology_attr_at(b, v, i, &kb, &vb));
                assert_string_equal(ka, kb);
                assert_string_equal(va, vb);
            }
        }
        int64_t fa, fb;
        assert_pl_ok(pl_topology_amount(a, g, PL_RES_UNITS, NULL, NULL, &fa));
        assert_pl_ok(pl_topology_amount(b, g, PL_RES_UNITS, NULL, NULL, &fb));
        assert_int_equal(fa, 0);
        assert_int_equal(fb, 0);
        /* Grow both past the clone's exact capacities. */
        for (int i = 0; i < 40 && round == 0; i++) {
            int32_t va, vb;
            assert_pl_ok(pl_topology_add_vertex(a, PL_VK_GPU, n0, "extra", i, &va));
            assert_pl_ok(pl_topology_add_vertex(b, PL_VK_GPU, n0, "extra", i, &vb));
            assert_int_equal(va, vb);
            assert_pl_ok(pl_topology_add_link(a, va, n0, PL_LK_PCIE, 0, 0, 3, NULL));
            assert_pl_ok(pl_topology_add_link(b, vb, n0, PL_LK_PCIE, 0, 0, 3, NULL));
            assert_pl_ok(pl_topology_set_attr(a, va, "k", "v"));
            assert_pl_ok(pl_topology_set_attr(b, vb, "k", "v"));
        }
    }
    pl_topology_free(a);
    pl_topology_free(b);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_keep_decisions),
        cmocka_unit_test(test_reused_candidates_are_renamed),
        cmocka_unit_test(test_neighbour_workload_tells_machines_apart),
        cmocka_unit_test(test_allocations_tell_machines_apart),
        cmocka_unit_test(test_clone_equals_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
