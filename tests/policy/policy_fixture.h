/* Helpers shared by the policy suites: Minsky clusters, jobs, and one-call
 * placement with its decisions. */
#ifndef PL_POLICY_FIXTURE_H
#define PL_POLICY_FIXTURE_H

#include <math.h>
#include <string.h>
#include "../common/testutil.h"

/* Vertex of a path, failing the test if it is missing. */
static inline int32_t vx(const pl_topology *t, const char *path)
{
    int32_t v = -1;
    assert_pl_ok(pl_topology_find(t, path, &v));
    return v;
}

/* One call of the named policy with its default options on an idle queue. */
static inline pl_decision *policy_place(const char *policy, const pl_topology *t, pl_job *const *q, int32_t n)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    pl_decision *d = NULL;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, n, &d));
    return d;
}

/* The machine vertex above vertex v. */
static inline int32_t machine_vertex(const pl_topology *t, int32_t v)
{
    int32_t m = -1;
    assert_pl_ok(pl_topology_ancestor(t, v, PL_VK_MACHINE, &m));
    return m;
}

/* One Minsky machine: machine/package<s>/gpu<g>. */
static inline pl_topology *minsky(void)
{
    pl_topology *t;
    assert_pl_ok(pl_topology_builtin("minsky", &t));
    return t;
}

/* `machines` Minsky machines, `per_rack` to a rack: cluster/rack<r>/node<i>. */
static inline pl_topology *minsky_cluster(int32_t machines, int32_t per_rack)
{
    pl_topology *m = minsky(), *c;
    assert_pl_ok(pl_topology_cluster(m, machines, per_rack, 0, &c));
    pl_topology_free(m);
    return c;
}

/* A job of k one-GPU tasks, all-to-all traffic (0: no edges), optional workload. */
static inline pl_job *mkjob(const char *name, int32_t k, double traffic, const char *type,
                            const char *size)
{
    pl_job *j;
    assert_pl_ok(pl_job_create(name, &j));
    for (int32_t i = 0; i < k; i++)
        assert_pl_ok(pl_job_add_task(j, NULL, NULL));
    if (traffic > 0)
        assert_pl_ok(pl_job_add_all_to_all(j, traffic));
    if (type)
        assert_pl_ok(pl_job_set_workload(j, type, size));
    return j;
}

/* A job of one task of `gpus` GPUs and 2 cores, 10 s (so DRMaestro has a phi). */
static inline pl_job *gpu_task(const char *name, int64_t gpus)
{
    pl_job *j;
    pl_task_demand d = {.gpus = gpus, .cores = 2};
    assert_pl_ok(pl_job_create(name, &j));
    assert_pl_ok(pl_job_add_task(j, &d, NULL));
    assert_pl_ok(pl_job_set_duration(j, 10));
    return j;
}

/* Up to 8 running jobs, each on the GPUs given; their GPUs are allocated. */
typedef struct running_set {
    pl_running_job r[8];
    int32_t gpus[8][8];
    int32_t n;
} running_set;

static inline void run_on(running_set *rs, pl_topology *t, const pl_job *job, const int32_t *gpus,
                          int32_t k)
{
    int32_t i = rs->n++;
    memcpy(rs->gpus[i], gpus, (size_t)k * sizeof gpus[0]);
    rs->r[i] = (pl_running_job){job, rs->gpus[i], k};
    for (int32_t g = 0; g < k; g++)
        assert_pl_ok(pl_topology_alloc(t, gpus[g], PL_RES_UNITS, 1));
}

/* Decision i, checking it is of kind want. */
static inline pl_decision_info dec(const pl_decision *d, int32_t i, pl_decision_kind want)
{
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, i, &info));
    if (info.kind != want)
        fail_msg("decision %d: kind %d, want %d (reason: %s)", (int)i, (int)info.kind, (int)want,
                 info.reason);
    return info;
}

/* Placed on exactly these GPU vertices, task by task. */
static inline void assert_gpus(const pl_decision *d, int32_t i, const int32_t *want, int32_t k)
{
    pl_decision_info info = dec(d, i, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, k);
    for (int32_t g = 0; g < k; g++)
        if (info.gpus[g] != want[g])
            fail_msg("decision %d task %d: GPU vertex %d, want %d", (int)i, (int)g,
                     (int)info.gpus[g], (int)want[g]);
}

/* Placed on this set of GPU vertices, in any task order. */
static inline void assert_gpu_set(const pl_decision *d, int32_t i, const int32_t *want, int32_t k)
{
    pl_decision_info info = dec(d, i, PL_DECISION_PLACED);
    assert_int_equal(info.ngpus, k);
    for (int32_t g = 0; g < k; g++) {
        int found = 0;
        for (int32_t h = 0; h < k; h++)
            found |= info.gpus[h] == want[g];
        if (!found)
            fail_msg("decision %d: GPU vertex %d not in the placement", (int)i, (int)want[g]);
    }
}

static inline pl_decision *place(const char *policy, const pl_topology *t, const running_set *rs,
                                 pl_job *const *q, int32_t n)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    pl_decision *d = NULL;
    assert_pl_ok(pl_policy_place(&o, t, rs ? rs->r : NULL, rs ? rs->n : 0, q, n, &d));
    assert_int_equal(pl_decision_count(d), n);
    return d;
}

#endif
