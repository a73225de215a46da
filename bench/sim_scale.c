/* Simulator scale benchmark (issue 8): replay a generated SC17 workload
 * (default 10,000 jobs, one every 10 s on average: sc17-s2's load before
 * issue 23, so that doc/bench.md's records stay comparable; the scenario
 * itself now arrives 100x faster) on a cluster of Minsky machines (default
 * 1,000) with one policy (default topo-aware-p); print the wall time, the
 * peak resident memory and the policy's per-call decision time percentiles.
 * usage: bench-sim-scale [JOBS [MACHINES [POLICY [MEAN_GAP_S]]]] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <placement/placement.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    pl_sim_gen_opts g;
    pl_sim_gen_opts_init(&g);
    g.jobs = argc > 1 ? atoi(argv[1]) : 10000;
    int32_t machines = argc > 2 ? atoi(argv[2]) : 1000;
    const char *policy = argc > 3 ? argv[3] : "topo-aware-p";
    g.mean_interarrival = argc > 4 ? atof(argv[4]) : 10.0;
    if (g.jobs < 1 || machines < 1 || !(g.mean_interarrival > 0)) {
        fprintf(stderr, "usage: bench-sim-scale [JOBS [MACHINES [POLICY [MEAN_GAP_S]]]]\n");
        return 2;
    }
    double t0 = now();
    pl_topology *topo = NULL;
    pl_jobset *jobs = NULL;
    pl_sim *sim = NULL;
    pl_sim_result *res = NULL;
    pl_sim_opts o;
    pl_sim_opts_init(&o);
    o.policy.policy = policy;
    pl_topology *minsky = NULL;
    pl_status st = pl_sim_generate_sc17(&g, &jobs);
    if (!st)
        st = pl_topology_builtin("minsky", &minsky);
    if (!st)
        st = pl_topology_cluster(minsky, machines, 32, 0, &topo);
    pl_topology_free(minsky);
    if (!st)
        st = pl_sim_create(topo, jobs, &o, &sim);
    double t1 = now();
    if (!st)
        st = pl_sim_run(sim, &res);
    double t2 = now();
    if (st) {
        fprintf(stderr, "bench-sim-scale: %s\n", pl_last_error());
        return 1;
    }
    pl_sim_summary s;
    pl_sim_result_summary(res, &s);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("sc17-s2 replay: %d jobs (mean gap %g s) on %d Minsky machines, policy %s\n", (int)g.jobs,
           g.mean_interarrival, (int)machines, policy);
    printf("setup %.2f s, simulation %.2f s (wall), peak RSS %.1f MB\n", t1 - t0, t2 - t1,
           ru.ru_maxrss / 1024.0);
    printf("jobs done %d, rejected %d, unfinished %d; makespan %.1f s, mean wait %.2f s, "
           "mean slowdown %.4f, below minimal utility %d\n", (int)s.done, (int)s.rejected,
           (int)s.unfinished, s.makespan, s.mean_wait, s.mean_slowdown, (int)s.below_min_utility);
    printf("policy calls %lld; decision time per call: mean %.3f ms, p50 %.3f ms, p90 %.3f ms, "
           "p99 %.3f ms, max %.3f ms\n", (long long)s.rounds, s.decision_mean * 1e3,
           s.decision_p50 * 1e3, s.decision_p90 * 1e3, s.decision_p99 * 1e3, s.decision_max * 1e3);
    /* The simulator's own cost, apart from the policy's: on a shared machine
     * the policy's time varies with the load, this part shows the events,
     * run-time model and metrics. */
    int64_t nd = 0;
    const double *dt = pl_sim_result_decision_times(res, &nd);
    double in_policy = 0;
    for (int64_t i = 0; i < nd; i++)
        in_policy += dt[i];
    printf("in the policy %.2f s, the simulator's own work %.2f s; utilisation time series %lld points, "
           "mean GPU utilisation %.4f, mean fragmentation %.4f\n", in_policy, (t2 - t1) - in_policy,
           (long long)pl_sim_result_timeline_count(res), s.mean_gpu_util, s.mean_fragmentation);
    pl_sim_result_free(res);
    pl_sim_free(sim);
    pl_jobset_free(jobs);
    pl_topology_free(topo);
    return 0;
}
