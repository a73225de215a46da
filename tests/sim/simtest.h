/* Small builders shared by the simulator suites: Minsky clusters, jobs of
 * one-GPU tasks and jobsets, options, a run under one policy (or one that
 * must fail), a record, a sample, CSV text. */
#ifndef PL_SIMTEST_H
#define PL_SIMTEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"

#define SIM_EPS 1e-6

static inline pl_topology *sim_minsky(int32_t machines)
{
    pl_topology *m = NULL, *c = NULL;
    assert_pl_ok(pl_topology_builtin("minsky", &m));
    assert_pl_ok(pl_topology_cluster(m, machines, 32, 0, &c));
    pl_topology_free(m);
    return c;
}

/* A job of k tasks of one GPU and `cores` cores each (all to all when k > 1)
 * arriving at `arrival`, with neither a duration nor a profile yet. */
static inline pl_job *sim_job_tasks(const char *name, int k, int64_t cores, double arrival)
{
    pl_job *j = NULL;
    pl_task_demand d = {.gpus = 1, .cores = cores};
    assert_pl_ok(pl_job_create(name, &j));
    for (int i = 0; i < k; i++)
        assert_pl_ok(pl_job_add_task(j, &d, NULL));
    if (k > 1)
        assert_pl_ok(pl_job_add_all_to_all(j, 1));
    assert_pl_ok(pl_job_set_arrival(j, arrival));
    return j;
}

/* A job of k tasks of one GPU and `cores` cores each, no profile, running
 * for `duration` seconds. */
static inline pl_job *sim_job(const char *name, int k, int64_t cores, double arrival, double duration)
{
    pl_job *j = sim_job_tasks(name, k, cores, arrival);
    assert_pl_ok(pl_job_set_duration(j, duration));
    return j;
}

/* A job of k one-GPU tasks timed by the profile of workload type/size. */
static inline pl_job *sim_profiled_job(const char *name, int k, double arrival, const char *type, const char *size)
{
    pl_job *j = sim_job_tasks(name, k, 0, arrival);
    assert_pl_ok(pl_job_set_workload(j, type, size));
    return j;
}

/* A jobset owning the n jobs given; SIM_JOBS(a, b, ...) counts them. */
static inline pl_jobset *sim_jobset(pl_job *const *jobs, size_t n)
{
    pl_jobset *js = NULL;
    assert_pl_ok(pl_jobset_create(&js));
    for (size_t i = 0; i < n; i++)
        assert_pl_ok(pl_jobset_add(js, jobs[i], NULL));
    return js;
}
#define SIM_JOBS(...) sim_jobset((pl_job *[]){__VA_ARGS__}, sizeof((pl_job *[]){__VA_ARGS__}) / sizeof(pl_job *))

static inline pl_sim_opts sim_opts(const char *policy)
{
    pl_sim_opts o;
    pl_sim_opts_init(&o);
    o.policy.policy = policy;
    return o;
}

static inline pl_sim_result *sim_run_opts(const pl_topology *t, const pl_jobset *js, const pl_sim_opts *o)
{
    pl_sim *sim = NULL;
    pl_sim_result *res = NULL;
    assert_pl_ok(pl_sim_create(t, js, o, &sim));
    assert_pl_ok(pl_sim_run(sim, &res));
    pl_sim_free(sim);
    return res;
}

static inline pl_sim_result *sim_run(const pl_topology *t, const pl_jobset *js, const char *policy)
{
    pl_sim_opts o = sim_opts(policy);
    return sim_run_opts(t, js, &o);
}

/* A run the allocation check (or the timing) stops: pl_sim_run() fails
 * with `status`, gives no result, and the message holds `msg`. */
static inline void sim_run_fails(const pl_topology *t, const pl_jobset *js, const pl_sim_opts *o, pl_status status,
                                 const char *msg)
{
    pl_sim *sim = NULL;
    pl_sim_result *res = NULL;
    assert_pl_ok(pl_sim_create(t, js, o, &sim));
    assert_pl_status(pl_sim_run(sim, &res), status);
    assert_null(res);
    if (!strstr(pl_last_error(), msg))
        fail_msg("message '%s' lacks '%s'", pl_last_error(), msg);
    pl_sim_free(sim);
}

static inline pl_sim_job_record sim_rec(const pl_sim_result *r, int i)
{
    pl_sim_job_record x;
    assert_pl_ok(pl_sim_result_job(r, i, &x));
    return x;
}

static inline pl_sim_summary sim_sum(const pl_sim_result *r)
{
    pl_sim_summary m;
    assert_pl_ok(pl_sim_result_summary(r, &m));
    return m;
}

static inline pl_sim_sample sim_sample(const pl_sim_result *r, int64_t i)
{
    pl_sim_sample p;
    assert_pl_ok(pl_sim_result_timeline(r, i, &p));
    return p;
}

/* Vertex of a path, failing the test if it is missing. */
static inline int32_t sim_vertex(const pl_topology *t, const char *path)
{
    int32_t v = -1;
    assert_pl_ok(pl_topology_find(t, path, &v));
    return v;
}

static inline void sim_free(pl_sim_result *r, pl_jobset *js, pl_topology *t)
{
    pl_sim_result_free(r);
    pl_jobset_free(js);
    pl_topology_free(t);
}

/* The output of a CSV writer as a malloc'ed string. */
typedef pl_status (*sim_csv_writer)(const pl_sim_result *res, FILE *f);
static inline char *sim_csv(sim_csv_writer w, const pl_sim_result *r, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    assert_pl_ok(w(r, f));
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

/* Scenario sc17-s2 at a small size (jobs on machines Minsky machines,
 * seed) run twice under policy: the CSV of writer w must be the same bytes.
 * check (may be NULL) sees each run. Returns the first CSV (len: its size). */
static inline char *sim_csv_twice(int32_t jobs, int32_t machines, uint64_t seed, const char *policy, sim_csv_writer w,
                                  void (*check)(const pl_sim_result *), size_t *len)
{
    pl_sim_scenario_opts so;
    pl_sim_scenario_opts_init(&so);
    so.jobs = jobs;
    so.machines = machines;
    so.seed = seed;
    char *csv[2];
    size_t n[2];
    for (int k = 0; k < 2; k++) {
        pl_topology *t = NULL;
        pl_jobset *js = NULL;
        assert_pl_ok(pl_sim_scenario("sc17-s2", &so, &t, &js));
        pl_sim_result *r = sim_run(t, js, policy);
        csv[k] = sim_csv(w, r, &n[k]);
        if (check)
            check(r);
        sim_free(r, js, t);
    }
    assert_int_equal(n[0], n[1]);
    assert_memory_equal(csv[0], csv[1], n[0]);
    free(csv[1]);
    *len = n[0];
    return csv[0];
}

#endif
