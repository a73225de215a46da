/* Helpers of the seed-003 policy suites (sa-placement, two-level, gpu-qos):
 * clusters of platform groups built from JSON, profile sets from tables,
 * checks every placement of these policies must pass, one-call placement
 * with those checks, and option errors. */
#ifndef PL_PICK_FIXTURE_H
#define PL_PICK_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include "policy_fixture.h"

/* A group of identical machines: name prefix (the platform), how many,
 * sockets, GPUs per socket, units capacity of each GPU. */
typedef struct kim_group {
    const char *name;
    int count, sockets, gpus_per_socket, units;
} kim_group;

/* The machines of the groups under one cluster root, named <name><i>; each
 * GPU linked to its package (PCIe), each package to its machine. */
static inline pl_topology *kim_cluster(const kim_group *g, int n)
{
    size_t cap = 1 << 16, len = 0;
    char *js = malloc(cap);
    assert_non_null(js);
#define KIM_PUT(...) do { len += (size_t)snprintf(js + len, cap - len, __VA_ARGS__); assert_true(len < cap); } while (0)
    KIM_PUT("{\"name\": \"cluster\", \"templates\": {");
    for (int i = 0; i < n; i++) {
        KIM_PUT("%s\"%s\": {\"tree\": {\"kind\": \"machine\", \"name\": \"m\", \"children\": [", i ? ", " : "",
                g[i].name);
        for (int s = 0; s < g[i].sockets; s++) {
            KIM_PUT("%s{\"kind\": \"package\", \"os_index\": %d, \"children\": [", s ? ", " : "", s);
            for (int k = 0; k < g[i].gpus_per_socket; k++)
                KIM_PUT("%s{\"kind\": \"gpu\", \"os_index\": %d, \"capacity\": {\"units\": %d}}", k ? ", " : "",
                        s * g[i].gpus_per_socket + k, g[i].units);
            KIM_PUT("]}");
        }
        KIM_PUT("], \"links\": [");
        for (int s = 0; s < g[i].sockets; s++) {
            for (int k = 0; k < g[i].gpus_per_socket; k++)
                KIM_PUT("{\"a\": \"package%d/gpu%d\", \"b\": \"package%d\", \"kind\": \"pcie\"}, ", s,
                        s * g[i].gpus_per_socket + k, s);
            KIM_PUT("{\"a\": \"package%d\", \"b\": \".\", \"kind\": \"board\"}%s", s, s + 1 < g[i].sockets ? ", " : "");
        }
        KIM_PUT("]}}");
    }
    KIM_PUT("}, \"machines\": [");
    for (int i = 0; i < n; i++)
        KIM_PUT("%s{\"template\": \"%s\", \"count\": %d, \"name\": \"%s\"}", i ? ", " : "", g[i].name, g[i].count,
                g[i].name);
    KIM_PUT("]}");
#undef KIM_PUT
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(js, len, &t));
    free(js);
    return t;
}

/* The machine vertex holding GPU vertex g. */
static inline int32_t kim_machine_of(const pl_topology *t, int32_t g)
{
    int32_t m = -1;
    assert_pl_ok(pl_topology_ancestor(t, g, PL_VK_MACHINE, &m));
    return m;
}

static inline const char *kim_name(const pl_topology *t, int32_t v)
{
    pl_vertex_info vi;
    assert_pl_ok(pl_topology_vertex(t, v, &vi));
    return vi.name;
}

/* Decision i into *info; whether it is PLACED. */
static inline int kim_placed(const pl_decision *d, int32_t i, pl_decision_info *info)
{
    assert_pl_ok(pl_decision_get(d, i, info));
    return info->kind == PL_DECISION_PLACED;
}

/* What every placement of these policies must satisfy: one GPU per task,
 * distinct GPUs, all on one machine that the job's node filter admits, no
 * two anti-collocated tasks there; and the decisions apply to the topology
 * (no resource beyond its capacity). Returns the number placed. */
static inline int kim_check_decisions(const pl_topology *t, pl_job *const *q, int32_t n, const pl_decision *d,
                                      const pl_policy_opts *o)
{
    int placed = 0;
    for (int32_t i = 0; i < n; i++) {
        pl_decision_info info;
        if (!kim_placed(d, i, &info))
            continue;
        placed++;
        assert_int_equal(info.ngpus, pl_job_task_count(q[i]));
        int32_t m = kim_machine_of(t, info.gpus[0]);
        assert_int_equal(info.machine, m);
        if (!pl_job_admits_node(q[i], kim_name(t, m)))
            fail_msg("%s: job %s placed on %s, which its node filter refuses", o ? o->policy : "?",
                     pl_job_name(q[i]), kim_name(t, m));
        for (int32_t a = 0; a < info.ngpus; a++) {
            assert_int_equal(kim_machine_of(t, info.gpus[a]), m);
            for (int32_t b = a + 1; b < info.ngpus; b++) {
                assert_int_not_equal(info.gpus[a], info.gpus[b]);
                assert_false(pl_job_anti_collocated(q[i], a, b));
            }
        }
    }
    pl_topology *copy;
    assert_pl_ok(pl_topology_copy(t, &copy));
    assert_pl_ok(pl_decision_apply(d, q, n, copy));
    pl_topology_free(copy);
    return placed;
}

static inline void kim_free_jobs(pl_job **q, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        pl_job_free(q[i]);
}

/* Profiles of size "1": solo times, and times next to another job. */
typedef struct kim_solo {
    const char *type;
    int32_t gpus;
    pl_spread spread;
    double seconds;
} kim_solo;

typedef struct kim_coloc {
    const char *type;
    int32_t gpus;
    const char *other;
    int32_t other_gpus;
    double seconds;
} kim_coloc;

static inline pl_profile_set *kim_profiles(const kim_solo *solo, size_t nsolo, const kim_coloc *co, size_t nco)
{
    pl_profile_set *ps;
    assert_pl_ok(pl_profile_set_create(&ps));
    for (size_t i = 0; i < nsolo; i++)
        assert_pl_ok(pl_profile_set_add_solo(ps, solo[i].type, "1", solo[i].gpus, solo[i].spread, solo[i].seconds));
    for (size_t i = 0; i < nco; i++)
        assert_pl_ok(pl_profile_set_add_colocated(ps, co[i].type, "1", co[i].gpus, co[i].other, "1", co[i].other_gpus,
                                                  co[i].seconds));
    return ps;
}
#define KIM_PROFILES(solo, co) kim_profiles(solo, sizeof solo / sizeof *solo, co, sizeof co / sizeof *co)

/* Options of policy with profiles ps and its own options ext (both may be NULL). */
static inline pl_policy_opts kim_opts(const char *policy, const pl_profile_set *ps, const void *ext)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    o.profiles = ps;
    o.policy_opts = ext;
    return o;
}

/* One call of the policy, a decision per job, every placement checked. */
static inline pl_decision *kim_place(const pl_policy_opts *o, const pl_topology *t, const running_set *rs,
                                     pl_job *const *q, int32_t n)
{
    pl_decision *d = NULL;
    assert_pl_ok(pl_policy_place(o, t, rs ? rs->r : NULL, rs ? rs->n : 0, q, n, &d));
    assert_int_equal(pl_decision_count(d), n);
    kim_check_decisions(t, q, n, d, o);
    return d;
}

/* The policy refuses its options ext for job q[0]: PL_EINVAL, no decisions,
 * a message that mentions msg. */
static inline void kim_expect_einval(const char *policy, const pl_topology *t, pl_job *const *q, const void *ext,
                                     const char *msg)
{
    pl_policy_opts o = kim_opts(policy, NULL, ext);
    pl_decision *d = (pl_decision *)&o;
    assert_pl_status(pl_policy_place(&o, t, NULL, 0, q, 1, &d), PL_EINVAL);
    assert_null(d);
    if (!strstr(pl_last_error(), msg))
        fail_msg("message \"%s\" does not mention \"%s\"", pl_last_error(), msg);
}

#endif
