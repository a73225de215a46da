/* DRMaestro rounds on a Minsky cluster: the phase networks kept and edited
 * across rounds (incremental re-solve) against rebuilding them every round.
 * Usage: bench-drmaestro [machines=128] [queued=300] [rounds=10] [busy GPUs in eighths=4] [solver]
 * Each round the placed jobs leave the queue and new ones arrive (the
 * cluster's allocation is fixed, half of it pre-allocated, so every round
 * sees the same free resources and only the queue churns). */
#include <placement/placement.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <placement/drmaestro.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng_state = 7;
static int busy_eighths = 4;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int64_t range(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

#define CHECK(x) do { pl_status s_ = (x); if (s_ != PL_OK) { \
    fprintf(stderr, "%s: %s\n", #x, pl_last_error()); exit(1); } } while (0)

static pl_topology *make_cluster(int machines)
{
    pl_topology *m, *t;
    CHECK(pl_topology_builtin("minsky", &m));
    CHECK(pl_topology_cluster(m, machines, 16, 0, &t));
    pl_topology_free(m);
    /* One NVMe pool per rack (4 devices), and half the GPUs and cores taken. */
    int32_t n = 0;
    CHECK(pl_topology_descendants(t, -1, PL_VK_RACK, NULL, 0, &n));
    int32_t *racks = malloc(sizeof *racks * (size_t)n);
    CHECK(pl_topology_descendants(t, -1, PL_VK_RACK, racks, n, &n));
    for (int32_t r = 0; r < n; r++) {
        int32_t pool;
        CHECK(pl_topology_add_vertex(t, PL_VK_POOL, racks[r], NULL, r, &pool));
        CHECK(pl_topology_add_link(t, pool, racks[r], PL_LK_NVMEOF, 12500000000LL, 0, 0, NULL));
        for (int k = 0; k < 4; k++) {
            int32_t s;
            CHECK(pl_topology_add_vertex(t, PL_VK_STORAGE, pool, NULL, k, &s));
            CHECK(pl_topology_set_capacity(t, s, PL_RES_BANDWIDTH, 2000000000LL));
            CHECK(pl_topology_set_capacity(t, s, PL_RES_STORAGE, 1600000000000LL));
            CHECK(pl_topology_add_link(t, s, pool, PL_LK_PCIE, 3940000000LL, 0, 0, NULL));
        }
    }
    free(racks);
    int32_t nv = pl_topology_vertex_count(t);
    for (int32_t v = 0; v < nv; v++) {
        int64_t cap = 0;
        pl_vertex_info vi;
        CHECK(pl_topology_vertex(t, v, &vi));
        if (vi.kind == PL_VK_GPU && (int)(rnd() % 8) < busy_eighths)
            CHECK(pl_topology_alloc(t, v, PL_RES_UNITS, 1));
        CHECK(pl_topology_amount(t, v, PL_RES_CORES, &cap, NULL, NULL));
        int64_t take = cap > 1 ? range(0, cap - 1) : 0;
        if (take > 0)
            CHECK(pl_topology_alloc(t, v, PL_RES_CORES, take));
    }
    return t;
}

static pl_job *make_job(void)
{
    pl_job *j;
    CHECK(pl_job_create(NULL, &j));
    int tasks = (int)range(1, 2);
    for (int k = 0; k < tasks; k++) {
        pl_task_demand d = { .gpus = range(0, 2), .cores = range(1, 4), .memory = range(1, 8) << 30 };
        CHECK(pl_job_add_task(j, &d, NULL));
    }
    return j;
}

typedef struct run { double build, solve, total; int placed; } run;

static run simulate(int machines, int queued, int rounds, const char *solver, int cold)
{
    rng_state = 7;
    pl_topology *t = make_cluster(machines);
    pl_drm_opts o;
    pl_drm_opts_init(&o);
    o.solver = solver;
    o.cold_start = cold;
    pl_drm *d;
    CHECK(pl_drm_create(&o, &d));
    int cap = queued + rounds * queued;
    pl_job **jobs = calloc((size_t)cap, sizeof *jobs);
    pl_drm_job_request *q = calloc((size_t)cap, sizeof *q);
    int nq = 0, made = 0;
    run res = { 0, 0, 0, 0 };
    for (int r = 0; r < rounds; r++) {
        while (nq < queued) {
            jobs[made] = make_job();
            pl_drm_job_request *x = &q[nq++];
            memset(x, 0, sizeof *x);
            x->id = made;
            x->job = jobs[made];
            x->phi = (double)range(10, 120);
            if (rnd() % 4 == 0) {
                x->nvme_shares = (int32_t)range(1, 2);
                x->nvme_bw_bytes_per_s = 200000000LL;
                x->nvme_bytes = 100000000000LL;
            }
            made++;
        }
        pl_drm_stats st;
        double t0 = now();
        CHECK(pl_drm_round(d, t, q, nq, 0.2, 0, &st));
        double dt = now() - t0;
        if (r > 0) { /* the first round builds everything either way */
            res.build += st.build_seconds;
            res.solve += st.solve_seconds;
            res.total += dt;
        }
        int w = 0;
        for (int i = 0; i < nq; i++) {
            if (pl_drm_result(d, i)->outcome == PL_DRM_PLACED)
                res.placed++;
            else
                q[w++] = q[i];
        }
        nq = w;
    }
    pl_drm_free(d);
    for (int i = 0; i < made; i++)
        pl_job_free(jobs[i]);
    free(jobs);
    free(q);
    pl_topology_free(t);
    int n = rounds > 1 ? rounds - 1 : 1;
    res.build /= n;
    res.solve /= n;
    res.total /= n;
    return res;
}

int main(int argc, char **argv)
{
    int machines = argc > 1 ? atoi(argv[1]) : 128;
    int queued = argc > 2 ? atoi(argv[2]) : 300;
    int rounds = argc > 3 ? atoi(argv[3]) : 10;
    busy_eighths = argc > 4 ? atoi(argv[4]) : 4;
    const char *only = argc > 5 ? argv[5] : NULL;
    const char *solvers[] = { "network-simplex", "cost-scaling", "ssp" };
    printf("machines %d, queue %d jobs, %d rounds, %d/8 of the GPUs busy "
           "(times per round, first round excluded)\n", machines, queued, rounds, busy_eighths);
    printf("%-16s %-11s %10s %10s %10s %8s\n", "solver", "mode", "build ms", "solve ms",
           "round ms", "placed");
    for (size_t s = 0; s < sizeof solvers / sizeof solvers[0]; s++) {
        if (only && strcmp(only, solvers[s]))
            continue;
        for (int cold = 0; cold < 2; cold++) {
            run r = simulate(machines, queued, rounds, solvers[s], cold);
            printf("%-16s %-11s %10.2f %10.2f %10.2f %8d\n", solvers[s],
                   cold ? "rebuild" : "incremental", 1e3 * r.build, 1e3 * r.solve, 1e3 * r.total,
                   r.placed);
        }
    }
    return 0;
}
