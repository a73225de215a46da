/* Small builders shared by the simulator suites: Minsky clusters, jobs of
 * one-GPU tasks, a run under one policy, a record, CSV text. */
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

/* A job of k tasks of one GPU and `cores` cores each, no profile, running
 * for `duration` seconds. */
static inline pl_job *sim_job(const char *name, int k, int64_t cores, double arrival, double duration)
{
    pl_job *j = NULL;
    pl_task_demand d = {.gpus = 1, .cores = cores};
    assert_pl_ok(pl_job_create(name, &j));
    for (int i = 0; i < k; i++)
        assert_pl_ok(pl_job_add_task(j, &d, NULL));
    if (k > 1)
        assert_pl_ok(pl_job_add_all_to_all(j, 1));
    assert_pl_ok(pl_job_set_arrival(j, arrival));
    assert_pl_ok(pl_job_set_duration(j, duration));
    return j;
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
    pl_sim_opts o;
    pl_sim_opts_init(&o);
    o.policy.policy = policy;
    return sim_run_opts(t, js, &o);
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

#endif
