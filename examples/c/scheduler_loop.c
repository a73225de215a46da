/* A live scheduler on the allocation lifecycle (placement/sched.h), built
 * against the installed library only:
 *
 *   cc scheduler_loop.c $(pkg-config --cflags --libs placement) -o scheduler_loop
 *   ./scheduler_loop CLUSTER.json TRACE.csv [--policy NAME]
 *
 * CLUSTER.json is a cluster description (doc/topology-json.md), TRACE.csv a
 * workload in the simulator's trace format (doc/simulator.md, 6b). Jobs are
 * replayed as a live scheduler meets them: each is placed when it arrives or
 * when a release frees room (queue order, the policy deciding), committed,
 * and released at its finish time, which is its start plus its duration
 * column or, without one, its profiled solo time (built-in SC17 profiles).
 * Before each commit the loop checks on its own that every GPU the policy
 * chose still has a free unit and appears once; at the end it checks that
 * nothing is left allocated. The last line is
 *
 *   placed N released N double-booked 0 leaked 0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>

typedef struct run {
    char id[32];
    double finish;
} run;

typedef struct loop {
    pl_sched *sched;
    pl_policy_opts opts;
    const pl_profile_set *profiles;
    pl_job **queue;          /* waiting, in arrival order */
    int32_t nqueue;
    run *running;
    int32_t nrunning;
    long placed, released, double_booked, rejected;
} loop;

static int fail(const char *what)
{
    fprintf(stderr, "scheduler_loop: %s: %s\n", what, pl_last_error());
    return 1;
}

/* How long a job runs: its duration, else its solo time on its GPUs. */
static double run_time(const loop *L, const pl_job *job)
{
    double d = pl_job_duration(job), solo = 0;
    if (d > 0)
        return d;
    if (pl_job_workload_type(job) &&
        pl_profile_set_solo(L->profiles, pl_job_workload_type(job), pl_job_workload_size(job),
                            pl_job_task_count(job), PL_SPREAD_INTRA_SOCKET, &solo) == PL_OK)
        return solo;
    return 60; /* neither: a minute, so the replay goes on */
}

/* Whether every GPU of a placement has a unit free and appears once. */
static int gpus_free(const pl_topology *t, const pl_decision_info *info)
{
    for (int32_t g = 0; g < info->ngpus; g++) {
        int64_t left = 0;
        if (pl_topology_amount(t, info->gpus[g], PL_RES_UNITS, NULL, NULL, &left) || left < 1)
            return 0;
        for (int32_t h = 0; h < g; h++)
            if (info->gpus[h] == info->gpus[g])
                return 0;
    }
    return 1;
}

/* Place what of the queue fits now; committed jobs leave the queue. */
static pl_status schedule(loop *L, double now)
{
    if (L->nqueue == 0)
        return PL_OK;
    pl_decision *d = NULL;
    pl_status st = pl_sched_place(L->sched, &L->opts, L->queue, L->nqueue, &d);
    int32_t kept = 0;
    for (int32_t i = 0; i < L->nqueue && !st; i++) {
        pl_decision_info info;
        pl_job *job = L->queue[i];
        if ((st = pl_decision_get(d, i, &info)))
            break;
        if (info.kind == PL_DECISION_REJECTED) {
            L->rejected++;
            continue;
        }
        if (info.kind != PL_DECISION_PLACED) {
            L->queue[kept++] = job;
            continue;
        }
        if (!gpus_free(pl_sched_topology(L->sched), &info)) {
            L->double_booked++;
            L->queue[kept++] = job;
            continue;
        }
        run *r = &L->running[L->nrunning];
        /* Trace names need not be unique; ids must be. */
        snprintf(r->id, sizeof r->id, "%ld:%.20s", L->placed, pl_job_name(job));
        if ((st = pl_sched_commit(L->sched, r->id, job, d, i)))
            break;
        r->finish = now + run_time(L, job);
        L->nrunning++;
        L->placed++;
    }
    if (!st)
        L->nqueue = kept;
    pl_decision_free(d);
    return st;
}

/* The earliest finish, or -1. */
static int32_t next_finish(const loop *L)
{
    int32_t best = -1;
    for (int32_t k = 0; k < L->nrunning; k++)
        if (best < 0 || L->running[k].finish < L->running[best].finish)
            best = k;
    return best;
}

static int cmp_arrival(const void *a, const void *b)
{
    double x = pl_job_arrival(*(pl_job *const *)a), y = pl_job_arrival(*(pl_job *const *)b);
    return (x > y) - (x < y);
}

/* Every vertex's allocated amounts now differ from at the start: how many. */
static long leaked(const pl_topology *t, const int64_t *start)
{
    long n = 0;
    for (int32_t v = 0; v < pl_topology_vertex_count(t); v++)
        for (int r = 0; r < PL_RES_COUNT; r++) {
            int64_t used = 0;
            pl_topology_amount(t, v, (pl_resource)r, NULL, &used, NULL);
            n += used != start[(size_t)v * PL_RES_COUNT + r];
        }
    return n;
}

static int replay(loop *L, pl_job **arrivals, int32_t njobs)
{
    const pl_topology *t = pl_sched_topology(L->sched);
    int64_t *start = malloc(((size_t)pl_topology_vertex_count(t) + 1) * PL_RES_COUNT * sizeof *start);
    if (!start)
        return fail("memory");
    for (int32_t v = 0; v < pl_topology_vertex_count(t); v++)
        for (int r = 0; r < PL_RES_COUNT; r++)
            pl_topology_amount(t, v, (pl_resource)r, NULL, &start[(size_t)v * PL_RES_COUNT + r], NULL);
    int32_t next = 0;
    pl_status st = PL_OK;
    while (!st && (next < njobs || L->nrunning > 0)) {
        int32_t f = next_finish(L);
        double now = f >= 0 ? L->running[f].finish : pl_job_arrival(arrivals[next]);
        if (next < njobs && pl_job_arrival(arrivals[next]) < now)
            now = pl_job_arrival(arrivals[next]);
        /* Finishes first: a job arriving as another ends can have its room. */
        for (int32_t k = 0; k < L->nrunning && !st;) {
            if (L->running[k].finish > now) {
                k++;
                continue;
            }
            st = pl_sched_release(L->sched, L->running[k].id);
            L->running[k] = L->running[--L->nrunning];
            L->released++;
        }
        while (!st && next < njobs && pl_job_arrival(arrivals[next]) <= now)
            L->queue[L->nqueue++] = arrivals[next++];
        if (!st)
            st = schedule(L, now);
        if (!st && L->nrunning == 0 && next == njobs && L->nqueue > 0) {
            printf("%d jobs can never start here\n", (int)L->nqueue);
            break;
        }
    }
    long lost = st ? -1 : leaked(t, start);
    free(start);
    if (st)
        return fail("replay");
    printf("rejected %ld (can never fit)\n", L->rejected);
    printf("placed %ld released %ld double-booked %ld leaked %ld\n", L->placed, L->released,
           L->double_booked, lost);
    return L->double_booked || lost || L->placed != L->released;
}

int main(int argc, char **argv)
{
    const char *policy = NULL;
    if (argc == 5 && !strcmp(argv[3], "--policy"))
        policy = argv[4];
    else if (argc != 3) {
        fprintf(stderr, "usage: scheduler_loop CLUSTER.json TRACE.csv [--policy NAME]\n");
        return 2;
    }
    pl_topology *cluster = NULL;
    pl_sim_trace *trace = NULL;
    pl_profile_set *profiles = NULL;
    if (pl_topology_load_json(argv[1], &cluster))
        return fail(argv[1]);
    if (pl_sim_trace_load(argv[2], &trace)) {
        pl_topology_free(cluster);
        return fail(argv[2]);
    }
    loop L = {0};
    pl_policy_opts_init(&L.opts);
    if (policy)
        L.opts.policy = policy;
    const pl_jobset *jobs = pl_sim_trace_jobs(trace);
    int32_t n = pl_jobset_count(jobs);
    pl_job **arrivals = malloc(((size_t)n + 1) * sizeof *arrivals);
    L.queue = malloc(((size_t)n + 1) * sizeof *L.queue);
    L.running = malloc(((size_t)n + 1) * sizeof *L.running);
    int rc = 1;
    if (!arrivals || !L.queue || !L.running)
        fprintf(stderr, "scheduler_loop: out of memory\n");
    else if (pl_profile_set_builtin(&profiles) || pl_sched_create(cluster, &L.sched))
        rc = fail("set-up");
    else {
        for (int32_t i = 0; i < n; i++)
            arrivals[i] = (pl_job *)pl_jobset_get(jobs, i);
        qsort(arrivals, (size_t)n, sizeof *arrivals, cmp_arrival);
        L.profiles = profiles;
        printf("%d jobs, policy %s\n", (int)n, L.opts.policy ? L.opts.policy : "(default)");
        rc = replay(&L, arrivals, n);
    }
    pl_sched_free(L.sched);
    pl_profile_set_free(profiles);
    free(arrivals);
    free(L.queue);
    free(L.running);
    pl_sim_trace_free(trace);
    pl_topology_free(cluster);
    return rc;
}
