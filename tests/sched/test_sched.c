/* The allocation lifecycle (placement/sched.h): place, commit, release and
 * the queries, checked against amounts worked out by hand on Minsky
 * machines (4 GPUs, 2 per package, 10 cores and 256 GiB per package). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

#define GIB ((int64_t)1 << 30)

static pl_topology *minsky_cluster(int32_t machines)
{
    pl_topology *m = NULL, *c = NULL;
    assert_pl_ok(pl_topology_builtin("minsky", &m));
    assert_pl_ok(pl_topology_cluster(m, machines, 4, 0, &c));
    pl_topology_free(m);
    return c;
}

static pl_job *job_of(const char *name, int32_t tasks, int64_t cores, int64_t memory)
{
    pl_job *j = NULL;
    assert_pl_ok(pl_job_create(name, &j));
    pl_task_demand d = {.gpus = 1, .cores = cores, .memory = memory};
    for (int32_t t = 0; t < tasks; t++)
        assert_pl_ok(pl_job_add_task(j, &d, NULL));
    if (tasks > 1)
        assert_pl_ok(pl_job_add_all_to_all(j, 1.0));
    return j;
}

/* Every allocated amount of every vertex, to compare states. */
static int64_t *amounts(const pl_topology *t)
{
    int32_t n = pl_topology_vertex_count(t);
    int64_t *a = malloc((size_t)n * PL_RES_COUNT * sizeof *a);
    assert_non_null(a);
    for (int32_t v = 0; v < n; v++)
        for (int r = 0; r < PL_RES_COUNT; r++)
            assert_pl_ok(pl_topology_amount(t, v, (pl_resource)r, NULL, &a[(int64_t)v * PL_RES_COUNT + r],
                                            NULL));
    return a;
}

static void assert_same_amounts(const pl_topology *t, const int64_t *want)
{
    int64_t *got = amounts(t);
    int32_t n = pl_topology_vertex_count(t);
    for (int64_t i = 0; i < (int64_t)n * PL_RES_COUNT; i++)
        if (got[i] != want[i])
            fail_msg("vertex %d resource %d: %lld allocated, want %lld", (int)(i / PL_RES_COUNT),
                     (int)(i % PL_RES_COUNT), (long long)got[i], (long long)want[i]);
    free(got);
}

static int64_t free_gpus(const pl_sched *s, const char *machine)
{
    int32_t m;
    int64_t cap = 0, fr = 0;
    assert_pl_ok(pl_topology_find(pl_sched_topology(s), machine, &m));
    assert_pl_ok(pl_topology_subtree_amount(pl_sched_topology(s), m, PL_VK_GPU, PL_RES_UNITS, &cap, &fr));
    return fr;
}

static pl_decision *place1(pl_sched *s, pl_job *job, const char *policy)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    pl_decision *d = NULL;
    assert_pl_ok(pl_sched_place(s, &o, &job, 1, &d));
    return d;
}

/* A 2-GPU job with 3 cores and 4 GiB per task: the what-if changes
 * nothing; the commit takes 2 GPU units, 6 cores and 8 GiB on one package
 * of one machine; the release gives back exactly that. */
static void test_place_commit_release(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(2);
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    int64_t *idle = amounts(pl_sched_topology(s));
    pl_job *job = job_of("a", 2, 3, 4 * GIB);
    pl_decision *d = place1(s, job, "topo-aware");
    assert_same_amounts(pl_sched_topology(s), idle); /* a what-if */
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, 0, &info));
    assert_int_equal(info.kind, PL_DECISION_PLACED);
    assert_pl_ok(pl_sched_commit(s, "job-1", job, d, 0));
    assert_int_equal(pl_sched_job_count(s), 1);

    pl_sched_job_info ji;
    assert_pl_ok(pl_sched_job(s, "job-1", &ji));
    assert_string_equal(ji.id, "job-1");
    assert_int_equal(ji.ngpus, 2);
    assert_int_equal(ji.gpus[0], info.gpus[0]);
    assert_int_equal(ji.gpus[1], info.gpus[1]);
    assert_int_equal(ji.machine, info.machine);
    assert_string_equal(pl_job_name(ji.job), "a");
    /* topo-aware packs the pair on one package (NVLink): 6 cores, 8 GiB there. */
    pl_vertex_info g0;
    assert_pl_ok(pl_topology_vertex(pl_sched_topology(s), ji.gpus[0], &g0));
    int64_t used = 0;
    assert_pl_ok(pl_topology_amount(pl_sched_topology(s), g0.parent, PL_RES_CORES, NULL, &used, NULL));
    assert_int_equal(used, 6);
    int64_t gpus_left = free_gpus(s, "cluster/rack0/node0") + free_gpus(s, "cluster/rack0/node1");
    assert_int_equal(gpus_left, 6);

    assert_pl_ok(pl_sched_release(s, "job-1"));
    assert_int_equal(pl_sched_job_count(s), 0);
    assert_same_amounts(pl_sched_topology(s), idle);
    pl_decision_free(d);
    pl_job_free(job);
    free(idle);
    pl_sched_free(s);
    pl_topology_free(c);
}

/* Committing an id twice, releasing one that is not there, committing a
 * decision that is not a placement: clear errors, nothing changed. */
static void test_lifecycle_errors(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(1);
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    pl_job *job = job_of("a", 1, 1, GIB), *big = job_of("big", 5, 1, GIB);
    pl_decision *d = place1(s, job, "bf");
    assert_pl_ok(pl_sched_commit(s, "x", job, d, 0));
    int64_t *one = amounts(pl_sched_topology(s));
    assert_pl_status(pl_sched_commit(s, "x", job, d, 0), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "job \"x\" is already committed"));
    assert_pl_status(pl_sched_release(s, "nope"), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "no job \"nope\""));
    assert_pl_status(pl_sched_commit(s, "y", job, d, 1), PL_EINVAL);   /* no decision 1 */
    assert_pl_status(pl_sched_commit(s, "", job, d, 0), PL_EINVAL);
    assert_pl_status(pl_sched_commit(s, NULL, job, d, 0), PL_EINVAL);
    assert_pl_status(pl_sched_commit(s, "y", job, NULL, 0), PL_EINVAL);
    /* 5 GPUs on a 4-GPU machine: rejected, so not a placement. */
    pl_decision *dr = place1(s, big, "bf");
    assert_pl_status(pl_sched_commit(s, "big", big, dr, 0), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "is not a placement"));
    /* A decision for another job: the task counts differ. */
    assert_pl_status(pl_sched_commit(s, "big", big, d, 0), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "has 5 tasks, 1 GPUs given"));
    assert_same_amounts(pl_sched_topology(s), one);
    assert_int_equal(pl_sched_job_count(s), 1);
    pl_sched_job_info ji;
    assert_pl_status(pl_sched_job(s, "y", &ji), PL_ENOTFOUND);
    assert_pl_status(pl_sched_job_at(s, 1, &ji), PL_EINVAL);
    assert_pl_ok(pl_sched_job_at(s, 0, &ji));
    assert_string_equal(ji.id, "x");
    assert_pl_ok(pl_sched_release(s, "x"));
    assert_pl_status(pl_sched_release(s, "x"), PL_ENOTFOUND); /* twice */
    pl_sched *none = (pl_sched *)&none;
    assert_pl_status(pl_sched_create(NULL, &none), PL_EINVAL);
    assert_null(none);
    pl_decision *nd = (pl_decision *)&nd;
    assert_pl_status(pl_sched_place(NULL, NULL, &job, 1, &nd), PL_EINVAL);
    assert_null(nd);
    assert_null(pl_sched_topology(NULL));
    assert_int_equal(pl_sched_job_count(NULL), 0);
    pl_sched_free(NULL);
    pl_decision_free(d);
    pl_decision_free(dr);
    pl_job_free(job);
    pl_job_free(big);
    free(one);
    pl_sched_free(s);
    pl_topology_free(c);
}

/* GPUs the caller chose: refused when not GPUs, named twice, or already
 * taken (all or nothing: nothing allocated on refusal). */
static void test_commit_gpus(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(1);
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    const pl_topology *t = pl_sched_topology(s);
    int32_t g[4], n = 0, pkg;
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_GPU, g, 4, &n));
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node0/package0", &pkg));
    pl_job *two = job_of("two", 2, 4, GIB);
    int64_t *idle = amounts(t);
    int32_t dup[2] = {g[0], g[0]}, notgpu[2] = {g[0], pkg};
    assert_pl_status(pl_sched_commit_gpus(s, "a", two, dup, 2), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "twice"));
    assert_pl_status(pl_sched_commit_gpus(s, "a", two, notgpu, 2), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "is not a GPU"));
    assert_pl_status(pl_sched_commit_gpus(s, "a", two, g, 1), PL_EINVAL);
    assert_same_amounts(t, idle);
    assert_pl_ok(pl_sched_commit_gpus(s, "a", two, g, 2));
    /* gpu1 is taken: a job wanting gpu1 and gpu2 gets neither. */
    int64_t *after_a = amounts(t);
    assert_pl_status(pl_sched_commit_gpus(s, "b", two, g + 1, 2), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "does not fit: it needs 1 units"));
    assert_same_amounts(t, after_a);
    /* 8 of package0's 10 cores for a: a 2-task job of 2 cores on gpu2, gpu3 (package1) fits. */
    assert_pl_ok(pl_sched_commit_gpus(s, "b", two, g + 2, 2));
    pl_sched_job_info ji;
    assert_pl_ok(pl_sched_job(s, "b", &ji));
    int32_t m;
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node0", &m));
    assert_int_equal(ji.machine, m);
    assert_pl_ok(pl_sched_release(s, "a"));
    assert_pl_ok(pl_sched_release(s, "b"));
    assert_same_amounts(t, idle);
    free(idle);
    free(after_a);
    pl_job_free(two);
    pl_sched_free(s);
    pl_topology_free(c);
}

/* The policies see what is committed: a full machine makes the next job
 * wait, and a release lets it in. */
static void test_place_sees_commits(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(1);
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    pl_job *four = job_of("four", 4, 1, GIB), *one = job_of("one", 1, 1, GIB);
    static const char *const policies[] = {"topo-aware", "fcfs", "bf", "pack", "spread", "drmaestro"};
    for (size_t p = 0; p < sizeof policies / sizeof *policies; p++) {
        pl_decision *d = place1(s, four, policies[p]);
        assert_pl_ok(pl_sched_commit(s, "four", four, d, 0));
        pl_decision_free(d);
        d = place1(s, one, policies[p]);
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 0, &info));
        if (info.kind == PL_DECISION_PLACED)
            fail_msg("%s placed a job on a full machine", policies[p]);
        pl_decision_free(d);
        assert_pl_ok(pl_sched_release(s, "four"));
        d = place1(s, one, policies[p]);
        assert_pl_ok(pl_decision_get(d, 0, &info));
        assert_int_equal(info.kind, PL_DECISION_PLACED);
        pl_decision_free(d);
    }
    pl_job_free(four);
    pl_job_free(one);
    pl_sched_free(s);
    pl_topology_free(c);
}

/* Allocations the topology had before the handle are background load: seen
 * by the policies, never released. */
static void test_background_load(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(1);
    int32_t g[4], n = 0;
    assert_pl_ok(pl_topology_descendants(c, -1, PL_VK_GPU, g, 4, &n));
    assert_pl_ok(pl_topology_alloc(c, g[0], PL_RES_UNITS, 1));
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    assert_int_equal(free_gpus(s, "cluster/rack0/node0"), 3);
    pl_job *four = job_of("four", 4, 1, GIB);
    pl_decision *d = place1(s, four, "bf");
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, 0, &info));
    assert_int_not_equal(info.kind, PL_DECISION_PLACED);
    pl_decision_free(d);
    pl_job_free(four);
    /* The handle has its own copy: the caller's topology is not touched. */
    assert_pl_ok(pl_topology_release(c, g[0], PL_RES_UNITS, 1));
    assert_int_equal(free_gpus(s, "cluster/rack0/node0"), 3);
    pl_sched_free(s);
    pl_topology_free(c);
}

/* 3,000 ids committed and released in a scrambled order on 1,000 machines:
 * the index finds every one (collisions, deletions in the middle of a
 * probe run), and the end state is the start state. */
static void test_many_ids(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(1000);
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    const pl_topology *t = pl_sched_topology(s);
    int64_t *idle = amounts(t);
    int32_t *g = malloc(4000 * sizeof *g), n = 0;
    assert_non_null(g);
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_GPU, g, 4000, &n));
    assert_int_equal(n, 4000);
    pl_job *one = job_of("one", 1, 1, GIB);
    char id[32];
    for (int32_t i = 0; i < 3000; i++) {
        snprintf(id, sizeof id, "pod-%d", (int)i);
        assert_pl_ok(pl_sched_commit_gpus(s, id, one, &g[i], 1));
    }
    assert_int_equal(pl_sched_job_count(s), 3000);
    pl_test_rng r = {7};
    int32_t order[3000];
    for (int32_t i = 0; i < 3000; i++)
        order[i] = i;
    for (int32_t i = 2999; i > 0; i--) {
        int32_t j = (int32_t)pl_test_range(&r, 0, i), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    for (int32_t k = 0; k < 3000; k++) {
        /* Every id still committed is found with its own GPU. */
        if (k % 500 == 0)
            for (int32_t q = k; q < 3000; q++) {
                pl_sched_job_info ji;
                snprintf(id, sizeof id, "pod-%d", (int)order[q]);
                assert_pl_ok(pl_sched_job(s, id, &ji));
                assert_int_equal(ji.gpus[0], g[order[q]]);
            }
        snprintf(id, sizeof id, "pod-%d", (int)order[k]);
        assert_pl_ok(pl_sched_release(s, id));
    }
    assert_int_equal(pl_sched_job_count(s), 0);
    assert_same_amounts(t, idle);
    /* No trace of a released id is left in the index. */
    for (int32_t i = 0; i < 3000; i++) {
        pl_sched_job_info ji;
        snprintf(id, sizeof id, "pod-%d", (int)i);
        assert_pl_status(pl_sched_job(s, id, &ji), PL_ENOTFOUND);
    }
    /* Interleaved: commit 2,000, release the odd ones, commit 1,000 more;
     * exactly the live ones are found. */
    for (int32_t i = 0; i < 2000; i++) {
        snprintf(id, sizeof id, "a%d", (int)i);
        assert_pl_ok(pl_sched_commit_gpus(s, id, one, &g[i], 1));
    }
    for (int32_t i = 1; i < 2000; i += 2) {
        snprintf(id, sizeof id, "a%d", (int)i);
        assert_pl_ok(pl_sched_release(s, id));
    }
    for (int32_t i = 0; i < 1000; i++) {
        snprintf(id, sizeof id, "b%d", (int)i);
        assert_pl_ok(pl_sched_commit_gpus(s, id, one, &g[2 * i + 1], 1));
    }
    for (int32_t i = 0; i < 2000; i++) {
        pl_sched_job_info ji;
        snprintf(id, sizeof id, "a%d", (int)i);
        pl_status st = pl_sched_job(s, id, &ji);
        assert_int_equal(st, i % 2 ? PL_ENOTFOUND : PL_OK);
        if (i % 2 == 0)
            assert_int_equal(ji.gpus[0], g[i]);
    }
    for (int32_t i = 0; i < 1000; i++) {
        pl_sched_job_info ji;
        snprintf(id, sizeof id, "b%d", (int)i);
        assert_pl_ok(pl_sched_job(s, id, &ji));
        assert_int_equal(ji.gpus[0], g[2 * i + 1]);
    }
    assert_int_equal(pl_sched_job_count(s), 2000);
    free(idle);
    free(g);
    pl_job_free(one);
    pl_sched_free(s);
    pl_topology_free(c);
}

/* Committed jobs are listed in commit order, and a release keeps the order
 * of the others (the policies see them in it). */
static void test_commit_order(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(1);
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    int32_t g[4], n = 0;
    assert_pl_ok(pl_topology_descendants(pl_sched_topology(s), -1, PL_VK_GPU, g, 4, &n));
    pl_job *one = job_of("one", 1, 1, GIB);
    const char *ids[] = {"a", "b", "c", "d"};
    for (int32_t i = 0; i < 4; i++)
        assert_pl_ok(pl_sched_commit_gpus(s, ids[i], one, &g[i], 1));
    assert_pl_ok(pl_sched_release(s, "b")); /* a swap with the last would give a d c e */
    assert_pl_ok(pl_sched_commit_gpus(s, "e", one, &g[1], 1));
    const char *want[] = {"a", "c", "d", "e"};
    assert_int_equal(pl_sched_job_count(s), 4);
    for (int32_t k = 0; k < 4; k++) {
        pl_sched_job_info ji;
        assert_pl_ok(pl_sched_job_at(s, k, &ji));
        assert_string_equal(ji.id, want[k]);
        assert_pl_ok(pl_sched_job(s, want[k], &ji)); /* the index follows the shift */
        assert_string_equal(ji.id, want[k]);
    }
    pl_job_free(one);
    pl_sched_free(s);
    pl_topology_free(c);
}

/* A GPU marked down is taken by the handle: no policy places on it, its
 * free units (not the background load's) come back when it is marked up;
 * it cannot go down while a job holds it, nor twice. */
static void test_device_down(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(1);
    int32_t g[4], n = 0, pkg = -1;
    assert_pl_ok(pl_topology_descendants(c, -1, PL_VK_GPU, g, 4, &n));
    assert_pl_ok(pl_topology_ancestor(c, g[0], PL_VK_PACKAGE, &pkg));
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    const pl_topology *t = pl_sched_topology(s);
    int64_t *idle = amounts(t);
    pl_job *one = job_of("one", 1, 1, GIB);
    assert_pl_ok(pl_sched_commit_gpus(s, "j", one, &g[1], 1));
    assert_pl_status(pl_sched_device_down(s, g[1], 1), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "\"j\""));
    assert_pl_ok(pl_sched_release(s, "j"));
    assert_pl_ok(pl_sched_device_down(s, g[1], 1));
    assert_int_equal(free_gpus(s, "cluster/rack0/node0"), 3);
    assert_pl_status(pl_sched_device_down(s, g[1], 1), PL_EINVAL); /* already down */
    assert_pl_status(pl_sched_device_down(s, pkg, 1), PL_EINVAL);  /* not a GPU */
    assert_pl_status(pl_sched_device_down(NULL, g[1], 1), PL_EINVAL);
    /* Four 1-GPU jobs: three placed, none on the down GPU. */
    for (int32_t i = 0; i < 4; i++) {
        pl_decision *d = place1(s, one, "topo-aware");
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, 0, &info));
        if (i < 3) {
            char id[8];
            snprintf(id, sizeof id, "p%d", (int)i);
            assert_int_equal(info.kind, PL_DECISION_PLACED);
            assert_int_not_equal(info.gpus[0], g[1]);
            assert_pl_ok(pl_sched_commit(s, id, one, d, 0));
        } else {
            assert_int_not_equal(info.kind, PL_DECISION_PLACED);
        }
        pl_decision_free(d);
    }
    for (int32_t i = 0; i < 3; i++) {
        char id[8];
        snprintf(id, sizeof id, "p%d", (int)i);
        assert_pl_ok(pl_sched_release(s, id));
    }
    assert_pl_ok(pl_sched_device_down(s, g[1], 0));
    assert_pl_status(pl_sched_device_down(s, g[1], 0), PL_EINVAL); /* already up */
    assert_same_amounts(t, idle);
    pl_sched_free(s);

    /* Background load stays: a GPU with 2 units, 1 taken before the handle. */
    pl_topology *c2 = NULL;
    assert_pl_ok(pl_topology_copy(c, &c2));
    assert_pl_ok(pl_topology_set_capacity(c2, g[2], PL_RES_UNITS, 2));
    assert_pl_ok(pl_topology_alloc(c2, g[2], PL_RES_UNITS, 1));
    assert_pl_ok(pl_sched_create(c2, &s));
    int64_t alloc = 0;
    assert_pl_ok(pl_sched_device_down(s, g[2], 1));
    assert_pl_ok(pl_topology_amount(pl_sched_topology(s), g[2], PL_RES_UNITS, NULL, &alloc, NULL));
    assert_int_equal(alloc, 2);
    assert_pl_ok(pl_sched_device_down(s, g[2], 0));
    assert_pl_ok(pl_topology_amount(pl_sched_topology(s), g[2], PL_RES_UNITS, NULL, &alloc, NULL));
    assert_int_equal(alloc, 1);
    pl_sched_free(s);
    pl_topology_free(c2);
    pl_job_free(one);
    free(idle);
    pl_topology_free(c);
}

/* Scores per machine: topo-aware's utility on that machine alone, the same
 * number its decision gives when that machine is the only choice; -1 where
 * the job does not fit. */
static void test_scores(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(2);
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    const pl_topology *t = pl_sched_topology(s);
    int32_t m[2];
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node0", &m[0]));
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node1", &m[1]));
    pl_job *two = job_of("two", 2, 1, GIB), *five = job_of("five", 5, 1, GIB);
    double sc[2];
    assert_pl_ok(pl_sched_score(s, NULL, two, m, 2, sc));
    assert_true(sc[0] > 0 && sc[0] <= 1);
    assert_true(sc[0] == sc[1]); /* two idle machines alike */
    /* The idle machine's score is the utility of topo-aware's decision. */
    pl_decision *d = place1(s, two, "topo-aware");
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, 0, &info));
    assert_true(info.utility == sc[0]);
    pl_decision_free(d);
    /* gpu0 and gpu2 of node0 taken: its two free GPUs are on different
     * sockets (distance 22), node1 still has an NVLink pair: node1 wins. */
    int32_t g0, g2;
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node0/package0/gpu0", &g0));
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node0/package1/gpu2", &g2));
    pl_job *one = job_of("one", 1, 1, GIB);
    assert_pl_ok(pl_sched_commit_gpus(s, "x", one, &g0, 1));
    assert_pl_ok(pl_sched_commit_gpus(s, "y", one, &g2, 1));
    assert_pl_ok(pl_sched_score(s, NULL, two, m, 2, sc));
    assert_true(sc[0] >= 0 && sc[0] < sc[1]);
    /* Five GPUs fit no Minsky; a package is not a machine. */
    assert_pl_ok(pl_sched_score(s, NULL, five, m, 2, sc));
    assert_true(sc[0] == -1 && sc[1] == -1);
    int32_t pkg;
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node0/package0", &pkg));
    assert_pl_status(pl_sched_score(s, NULL, two, &pkg, 1, sc), PL_EINVAL);
    assert_pl_status(pl_sched_score(s, NULL, NULL, m, 2, sc), PL_EINVAL);
    assert_pl_ok(pl_sched_score(s, NULL, two, m, 0, NULL));
    pl_job_free(two);
    pl_job_free(five);
    pl_job_free(one);
    pl_sched_free(s);
    pl_topology_free(c);
}

/* Scores honour what placement honours: a CPU-only task needs no GPU, a
 * fractional task fits beside another on a shared GPU, and a whole-GPU task
 * never gets a GPU partly shared. node0 has gpu3 only (gpu0-2 taken). */
static void test_scores_demands(void **state)
{
    (void)state;
    pl_topology *c = minsky_cluster(2);
    pl_sched *s = NULL;
    assert_pl_ok(pl_sched_create(c, &s));
    const pl_topology *t = pl_sched_topology(s);
    int32_t m[2], g[4];
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node0", &m[0]));
    assert_pl_ok(pl_topology_find(t, "cluster/rack0/node1", &m[1]));
    pl_job *one = job_of("one", 1, 1, GIB);
    for (int32_t i = 0; i < 4; i++) {
        char path[64], id[8];
        snprintf(path, sizeof path, "cluster/rack0/node0/package%d/gpu%d", (int)(i / 2), (int)i);
        assert_pl_ok(pl_topology_find(t, path, &g[i]));
        snprintf(id, sizeof id, "x%d", (int)i);
        if (i < 3)
            assert_pl_ok(pl_sched_commit_gpus(s, id, one, &g[i], 1));
    }
    /* A GPU task and a CPU-only one: node0's last GPU is enough. */
    pl_job *mixed = NULL;
    assert_pl_ok(pl_job_create("mixed", &mixed));
    pl_task_demand gt = {.gpus = 1, .cores = 1, .memory = GIB}, ct = {.cores = 4, .memory = GIB};
    assert_pl_ok(pl_job_add_task(mixed, &gt, NULL));
    assert_pl_ok(pl_job_add_task(mixed, &ct, NULL));
    assert_pl_ok(pl_job_add_edge(mixed, 0, 1, 1.0));
    double sc[2];
    assert_pl_ok(pl_sched_score(s, NULL, mixed, m, 2, sc));
    assert_true(sc[0] >= 0 && sc[1] >= 0);
    /* Half of gpu3 taken by a fractional task: another half fits there... */
    pl_job *half = NULL;
    assert_pl_ok(pl_job_create("half", &half));
    pl_task_demand ht = {.gpu_milli = 500, .cores = 1, .memory = GIB};
    assert_pl_ok(pl_job_add_task(half, &ht, NULL));
    assert_pl_ok(pl_sched_commit_gpus(s, "h", half, &g[3], 1));
    assert_pl_ok(pl_sched_score(s, NULL, half, m, 2, sc));
    assert_true(sc[0] >= 0 && sc[1] >= 0);
    /* ...but a whole GPU does not (its unit is free, its milli are not). */
    assert_pl_ok(pl_sched_score(s, NULL, one, m, 2, sc));
    assert_true(sc[0] == -1 && sc[1] >= 0);
    /* A node filter of the job's own still holds. */
    const char *only1 = "node1";
    assert_pl_ok(pl_job_set_node_filter(mixed, &only1, 1));
    assert_pl_ok(pl_sched_score(s, NULL, mixed, m, 2, sc));
    assert_true(sc[0] == -1 && sc[1] >= 0);
    pl_job_free(mixed);
    pl_job_free(half);
    pl_job_free(one);
    pl_sched_free(s);
    pl_topology_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_place_commit_release),
        cmocka_unit_test(test_lifecycle_errors),
        cmocka_unit_test(test_commit_gpus),
        cmocka_unit_test(test_place_sees_commits),
        cmocka_unit_test(test_background_load),
        cmocka_unit_test(test_many_ids),
        cmocka_unit_test(test_scores),
        cmocka_unit_test(test_scores_demands),
        cmocka_unit_test(test_commit_order),
        cmocka_unit_test(test_device_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
