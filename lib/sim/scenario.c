/* Built-in scenarios of seed 002 and its workload generator (sec. 5.3). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"

static const char *const scenario_names[] = {"sc17-proto", "sc17-s1", "sc17-s2", "drmaestro", NULL};

const char *const *pl_sim_scenario_names(void)
{
    return scenario_names;
}

void pl_sim_gen_opts_init(pl_sim_gen_opts *opts)
{
    if (!opts)
        return;
    opts->jobs = 10000;
    opts->mean_interarrival = 10.0;
    opts->seed = 1;
}

void pl_sim_scenario_opts_init(pl_sim_scenario_opts *opts)
{
    if (!opts)
        return;
    opts->machines = 0;
    opts->jobs = 0;
    opts->seed = 1;
}

/* splitmix64: small, seedable, the same stream on every platform. */
uint64_t pl_sim_rng_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
double pl_sim_rng_unit(uint64_t *s)
{
    return (double)(pl_sim_rng_u64(s) >> 11) * (1.0 / 9007199254740992.0);
}

#define next_unit pl_sim_rng_unit

static int binomial(uint64_t *s, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += next_unit(s) < 0.5;
    return k;
}

pl_status pl_sim_generate_sc17(const pl_sim_gen_opts *opts, pl_jobset **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_sim_generate_sc17: NULL out");
    *out = NULL;
    pl_sim_gen_opts o;
    PL_OPTS_OR_DEFAULTS(o, opts, pl_sim_gen_opts_init);
    if (o.jobs < 1 || !(o.mean_interarrival > 0) || !isfinite(o.mean_interarrival))
        return pl_err(PL_EINVAL, "pl_sim_generate_sc17: need jobs >= 1 and mean_interarrival > 0");
    if (o.jobs > PL_SIM_MAX_GENERATED_JOBS)
        return pl_err(PL_EINVAL, "pl_sim_generate_sc17: %d jobs is more than the %d it generates "
                      "(about 3 KB each); build a larger workload job by job or read a trace",
                      (int)o.jobs, PL_SIM_MAX_GENERATED_JOBS);
    /* CaffeRef (BVLC reference CaffeNet) is an AlexNet variant and has no
     * profile of its own: it runs as AlexNet. */
    static const char *const types[] = {"bvlc_alexnet", "bvlc_alexnet", "bvlc_googlenet"};
    static const char *const sizes[] = {"1", "4", "64", "128"};
    size_t cap = (size_t)o.jobs * 160 + 16, len = 0;
    char *text = pl_alloc(cap, 1);
    if (!text)
        return PL_ENOMEM;
    uint64_t rng = o.seed;
    double t = 0;
    len += (size_t)snprintf(text + len, cap - len, "{");
    for (int32_t i = 0; i < o.jobs; i++) {
        t += -o.mean_interarrival * log(1.0 - next_unit(&rng));
        int size = binomial(&rng, 3), type = binomial(&rng, 2);
        double u = next_unit(&rng);
        int gpus = u < 0.41 ? 1 : u < 0.93 ? 2 : 3;
        double min_u = 0.30 + 0.22 * next_unit(&rng);
        len += (size_t)snprintf(text + len, cap - len,
                                "%s\"%d\":{\"arrival\":%.6f,\"gpus\":%d,\"mem\":1,"
                                "\"minimal_utility\":%.6f,\"size\":\"%s\",\"tasks\":1,\"type\":\"%s\"}",
                                i ? "," : "", (int)i, t, gpus, min_u, sizes[size], types[type]);
    }
    len += (size_t)snprintf(text + len, cap - len, "}");
    pl_status st = pl_jobset_load_sc17_string(text, len, out);
    free(text);
    return st;
}

static pl_status minsky_cluster(int32_t machines, pl_topology **out)
{
    pl_topology *m = NULL;
    pl_status st = pl_topology_builtin("minsky", &m);
    if (!st)
        st = pl_topology_cluster(m, machines, 32, 0, out);
    pl_topology_free(m);
    return st;
}

pl_status pl_sim_scenario(const char *name, const pl_sim_scenario_opts *opts, pl_topology **topo,
                          pl_jobset **jobs)
{
    if (!topo || !jobs)
        return pl_err(PL_EINVAL, "pl_sim_scenario: NULL out");
    *topo = NULL;
    *jobs = NULL;
    if (!name)
        return pl_err(PL_EINVAL, "pl_sim_scenario: NULL name");
    pl_sim_scenario_opts o;
    PL_OPTS_OR_DEFAULTS(o, opts, pl_sim_scenario_opts_init);
    if (o.machines < 0 || o.jobs < 0)
        return pl_err(PL_EINVAL, "pl_sim_scenario: negative size");
    if (o.jobs > PL_SIM_MAX_GENERATED_JOBS)
        return pl_err(PL_EINVAL, "pl_sim_scenario: %d jobs is more than the %d a scenario "
                      "generates", (int)o.jobs, PL_SIM_MAX_GENERATED_JOBS);
    pl_status st;
    int32_t machines;
    if (!strcmp(name, "sc17-proto")) {
        machines = 1;
        st = pl_jobset_load_sc17_string(pl_sim_workloads5_json, pl_sim_workloads5_json_len, jobs);
    } else if (!strcmp(name, "sc17-s1")) {
        machines = 5;
        st = pl_jobset_load_sc17_string(pl_sim_workloads100_json, pl_sim_workloads100_json_len, jobs);
    } else if (!strcmp(name, "sc17-s2")) {
        machines = 1000;
        pl_sim_gen_opts g;
        pl_sim_gen_opts_init(&g);
        if (o.jobs)
            g.jobs = o.jobs;
        g.seed = o.seed;
        st = pl_sim_generate_sc17(&g, jobs);
    } else if (!strcmp(name, "drmaestro")) {
        return pl_sim_scenario_drmaestro(&o, topo, jobs);
    } else {
        return pl_err(PL_ENOTFOUND, "no scenario '%s' (known: sc17-proto, sc17-s1, sc17-s2, drmaestro)", name);
    }
    if (o.machines)
        machines = o.machines;
    if (!st)
        st = minsky_cluster(machines, topo);
    if (st) {
        pl_jobset_free(*jobs);
        *jobs = NULL;
    }
    return st;
}
