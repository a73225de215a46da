/* A minimal scheduler loop on libplacement, built against the installed
 * library:
 *
 *   cc minimal_scheduler.c $(pkg-config --cflags --libs placement) -o minimal_scheduler
 *   ./minimal_scheduler JOBS.json [POLICY [MACHINES]]
 *
 * JOBS.json is a job file (doc/jobs.md) or an SC17 artifact workload
 * (workloads-*.json). The cluster is MACHINES (default 2) builtin Minsky
 * machines; POLICY defaults to topo-aware (`placement place --help` lists
 * them).
 *
 * The loop works in time slots: each round the policy places as much of the
 * queue as fits, the placements are applied, the jobs run for the slot, and
 * the slot's end frees the whole cluster for the next round. A scheduler
 * with jobs of different lengths releases each job's resources when it ends
 * instead (the simulator, placement/sim.h, does). */
#include <stdio.h>
#include <stdlib.h>
#include <placement/placement.h>

static int fail(const char *what)
{
    fprintf(stderr, "minimal_scheduler: %s: %s\n", what, pl_last_error());
    return 1;
}

/* Either input format: the job schema first, then the SC17 one. */
static pl_status load_jobs(const char *path, pl_jobset **out)
{
    if (pl_jobset_load_json(path, out) == PL_OK)
        return PL_OK;
    return pl_jobset_load_sc17(path, out);
}

static pl_status make_cluster(int32_t machines, pl_topology **out)
{
    pl_topology *minsky = NULL;
    pl_status st = pl_topology_builtin("minsky", &minsky);
    if (st == PL_OK)
        st = pl_topology_cluster(minsky, machines, 32, 0, out);
    pl_topology_free(minsky);
    return st;
}

static void print_placed(const pl_topology *cluster, const pl_job *job, const pl_decision_info *info)
{
    char where[256] = "several machines";
    if (info->machine >= 0)
        pl_topology_path_name(cluster, info->machine, where, sizeof where);
    printf("  %-8s -> %s GPUs", pl_job_name(job), where);
    for (int32_t g = 0; g < info->ngpus; g++) {
        pl_vertex_info v;
        pl_topology_vertex(cluster, info->gpus[g], &v);
        printf(" %s", v.name);
    }
    printf(" utility %.3f\n", info->utility);
}

/* One round: place the queue, apply, print; the queue keeps the jobs that
 * must wait (in order) and *nqueue shrinks accordingly. Returns the number
 * placed, or -1 on error. */
static int round_of(const pl_policy_opts *opts, pl_topology *cluster, pl_job **queue, int32_t *nqueue)
{
    pl_decision *d = NULL;
    if (pl_policy_place(opts, cluster, NULL, 0, queue, *nqueue, &d) != PL_OK)
        return -1;
    if (pl_decision_apply(d, queue, *nqueue, cluster) != PL_OK) {
        pl_decision_free(d);
        return -1;
    }
    int placed = 0;
    int32_t kept = 0;
    for (int32_t i = 0; i < *nqueue; i++) {
        pl_decision_info info;
        pl_decision_get(d, i, &info);
        if (info.kind == PL_DECISION_PLACED) {
            print_placed(cluster, queue[i], &info);
            placed++;
        } else if (info.kind == PL_DECISION_REJECTED) {
            printf("  %-8s rejected: %s\n", pl_job_name(queue[i]), info.reason);
        } else {
            queue[kept++] = queue[i];
        }
    }
    *nqueue = kept;
    pl_decision_free(d);
    return placed;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s JOBS.json [POLICY [MACHINES]]\n", argv[0]);
        return 2;
    }
    pl_policy_opts opts;
    pl_policy_opts_init(&opts);
    if (argc > 2)
        opts.policy = argv[2];
    int32_t machines = argc > 3 ? (int32_t)atoi(argv[3]) : 2;

    pl_jobset *jobs = NULL;
    pl_topology *cluster = NULL;
    if (load_jobs(argv[1], &jobs) != PL_OK)
        return fail(argv[1]);
    if (make_cluster(machines, &cluster) != PL_OK) {
        pl_jobset_free(jobs);
        return fail("cluster");
    }
    int32_t nqueue = pl_jobset_count(jobs);
    pl_job **queue = malloc(((size_t)nqueue + 1) * sizeof *queue);
    for (int32_t i = 0; i < nqueue; i++)
        queue[i] = pl_jobset_get(jobs, i);

    int status = 0, total = 0;
    for (int r = 1; nqueue > 0; r++) {
        printf("round %d: %d queued\n", r, (int)nqueue);
        int placed = round_of(&opts, cluster, queue, &nqueue);
        if (placed < 0) {
            status = fail("round");
            break;
        }
        if (placed == 0 && nqueue > 0) {
            /* The cluster was idle and still nothing fits: it never will. */
            printf("  %d job(s) can never be placed\n", (int)nqueue);
            break;
        }
        total += placed;
        pl_topology_release_all(cluster); /* the slot ends */
    }
    printf("placed %d of %d jobs with %s\n", total, (int)pl_jobset_count(jobs), opts.policy);
    free(queue);
    pl_topology_free(cluster);
    pl_jobset_free(jobs);
    return status;
}
