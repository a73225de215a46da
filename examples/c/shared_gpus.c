/* The shared-GPU experiment of doc/results.md (seed 003, Kim ch. 5): a
 * trace of latency-sensitive (LS: jobs with a deadline) and batch jobs on a
 * cluster whose GPUs have 2 units and on its 1-unit twin, under gpu-qos and
 * the baselines, for several GPU share factors (doc/simulator.md sec. 3c),
 * gpu-qos with each pairing algorithm, and gpu-qos whose predictor is told
 * the simulator's share factor (pl_gpu_qos_opts.share_factor = F) at the
 * thesis's QoS 20 % and 30 %.
 *
 *   cc shared_gpus.c $(pkg-config --cflags --libs placement) -o shared_gpus
 *   ./shared_gpus ../sim/shared-gpus-trace.csv ../sim/cluster-with-shared-gpus.json \
 *                 ../sim/cluster-exclusive-gpus.json
 *
 * `placement simulate` prints the common columns; this adds what the table
 * of the CLI does not have: SLO misses, jobs that shared a GPU, and the LS
 * and batch jobs' turnarounds apart. */
#include <stdio.h>
#include <stdlib.h>
#include <placement/placement.h>

static int fail(const char *what)
{
    fprintf(stderr, "shared_gpus: %s: %s\n", what, pl_last_error());
    return 1;
}

static int run(const pl_topology *t, const pl_jobset *js, const char *label, const char *policy, double factor,
               const pl_gpu_qos_opts *go)
{
    pl_sim_opts o;
    pl_sim_opts_init(&o);
    o.policy.policy = policy;
    o.policy.policy_opts = go;
    o.gpu_share_factor = factor;
    pl_sim *sim;
    pl_sim_result *r;
    if (pl_sim_create(t, js, &o, &sim) != PL_OK)
        return fail("pl_sim_create");
    if (pl_sim_run(sim, &r) != PL_OK) {
        pl_sim_free(sim);
        return fail(policy);
    }
    pl_sim_summary m;
    pl_sim_result_summary(r, &m);
    double ls_turn = 0, ls_slow = 0, b_turn = 0, thr = 0;
    int nls = 0, nb = 0;
    for (int32_t i = 0; i < pl_sim_result_count(r); i++) {
        pl_sim_job_record x;
        pl_sim_result_job(r, i, &x);
        thr += x.state == PL_SIM_DONE ? 1 / x.slowdown : 0;
        if (pl_job_slo(pl_jobset_get(js, i)) > 0) {
            ls_turn += x.finish - x.arrival;
            ls_slow += x.slowdown;
            nls++;
        } else {
            b_turn += x.finish - x.arrival;
            nb++;
        }
    }
    printf("%-9s %-12s %5.3f %9.1f %8.1f %8.1f %6.3f %4d/%-3d %9.1f %6d %6.3f %6.4f\n", label, policy, factor,
           m.makespan, m.mean_turnaround, nls ? ls_turn / nls : 0, nls ? ls_slow / nls : 0, m.slo_violations, nls,
           nb ? b_turn / nb : 0, m.shared_jobs, m.mean_gpu_util, thr / pl_sim_result_count(r));
    pl_sim_result_free(r);
    pl_sim_free(sim);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: shared_gpus TRACE SHARED_CLUSTER.json EXCLUSIVE_CLUSTER.json\n");
        return 2;
    }
    pl_sim_trace *tr;
    pl_topology *shared, *excl;
    if (pl_sim_trace_load(argv[1], &tr) != PL_OK)
        return fail(argv[1]);
    if (pl_topology_load_json(argv[2], &shared) != PL_OK || pl_topology_load_json(argv[3], &excl) != PL_OK)
        return fail("cluster");
    const pl_jobset *js = pl_sim_trace_jobs(tr);
    static const char *const policies[] = {"gpu-qos", "fcfs", "bf", "topo-aware"};
    static const double factors[] = {1.0, PL_SIM_GPU_SHARE_FACTOR, 1.5, 2.0};
    int rc = 0;
    printf("cluster   policy       F     makespan turnarnd  ls_turn ls_slo  ls_miss  b_turn shared gpu_ut norm_thr\n");
    for (size_t p = 0; p < 4 && !rc; p++)
        rc = run(excl, js, "exclusive", policies[p], PL_SIM_GPU_SHARE_FACTOR, NULL);
    for (size_t f = 0; f < 4 && !rc; f++)
        for (size_t p = 0; p < 4 && !rc; p++)
            rc = run(shared, js, "shared", policies[p], factors[f], NULL);
    printf("\ngpu-qos by pairing algorithm (shared cluster):\n");
    static const char *const algos[] = {"mmp", "mmp-stuck", "greedy", "optimal"};
    for (size_t f = 0; f < 4 && !rc; f++)
        for (int a = PL_GPU_PAIRING_MMP; a <= PL_GPU_PAIRING_OPTIMAL && !rc; a++) {
            pl_gpu_qos_opts go;
            pl_gpu_qos_opts_init(&go);
            go.pairing = (pl_gpu_pairing_algo)a;
            rc = run(shared, js, algos[a - PL_GPU_PAIRING_MMP], "gpu-qos", factors[f], &go);
        }
    printf("\ngpu-qos with share_factor = F, by QoS (shared cluster):\n");
    static const double qos[] = {0.2, 0.3};
    static const char *const qlabels[] = {"sf q0.2", "sf q0.3"};
    for (size_t f = 0; f < 4 && !rc; f++)
        for (size_t q = 0; q < 2 && !rc; q++) {
            pl_gpu_qos_opts go;
            pl_gpu_qos_opts_init(&go);
            go.qos = qos[q];
            go.share_factor = factors[f];
            rc = run(shared, js, qlabels[q], "gpu-qos", factors[f], &go);
        }
    pl_topology_free(shared);
    pl_topology_free(excl);
    pl_sim_trace_free(tr);
    return rc;
}
