/* The soak loop of bench/soak.h, on the public allocation lifecycle
 * (placement/sched.h). Invariants are checked against a shadow count of the
 * tasks on each GPU that the loop keeps itself, not against the library's
 * own bookkeeping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "soak.h"

typedef struct running {
    char id[24];
    int32_t k;
    int32_t gpus[4];
} running;

typedef struct soak {
    const pl_soak_opts *o;
    pl_soak_result *res;
    pl_topology *topo;       /* the cluster as built; the live one is pl_sched_topology(sched) */
    pl_sched *sched;
    int32_t n;               /* vertices */
    int32_t *units;          /* [n] GPU units capacity (0: not a GPU) */
    int32_t *holders;        /* [n] tasks on each GPU, by the shadow count */
    int64_t *free0;          /* [n * PL_RES_COUNT] free amounts at the start */
    int64_t total_units, held_units;
    running *run;
    int32_t nrun, caprun;
    pl_job *jobs[3];         /* 1, 2 and 4 GPUs */
    uint64_t rng;
} soak;

void pl_soak_opts_init(pl_soak_opts *o)
{
    memset(o, 0, sizeof *o);
    o->machines = 1000;
    o->cycles = 1000000;
    o->load = 0.8;
    o->seed = 1;
    o->policy = "bf";
    o->warmup = -1;
}

static uint64_t next(soak *s)
{
    /* splitmix64: fast, and the same seed gives the same run. */
    uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int64_t rss_kb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return -1;
    int ok = fscanf(f, "%ld %ld", &pages, &resident) == 2;
    fclose(f);
    return ok ? resident * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

/* The machine ancestor of v (-1 if none). */
static int32_t machine_of(const pl_topology *t, int32_t v)
{
    pl_vertex_info info;
    while (v >= 0 && pl_topology_vertex(t, v, &info) == PL_OK && info.kind != PL_VK_MACHINE)
        v = info.parent;
    return v;
}

/* Minsky machines; the GPUs of every other machine get 2 units (shared). */
static pl_status build_cluster(soak *s)
{
    pl_topology *minsky = NULL;
    pl_status st = pl_topology_builtin("minsky", &minsky);
    if (!st)
        st = pl_topology_cluster(minsky, s->o->machines, 32, 0, &s->topo);
    pl_topology_free(minsky);
    if (st)
        return st;
    s->n = pl_topology_vertex_count(s->topo);
    s->units = calloc((size_t)s->n, sizeof *s->units);
    s->holders = calloc((size_t)s->n, sizeof *s->holders);
    s->free0 = calloc((size_t)s->n * PL_RES_COUNT, sizeof *s->free0);
    int32_t *ordinal = calloc((size_t)s->n, sizeof *ordinal);
    if (!s->units || !s->holders || !s->free0 || !ordinal) {
        free(ordinal);
        return PL_ENOMEM;
    }
    int32_t machines = 0;
    for (int32_t v = 0; v < s->n && !st; v++) {
        pl_vertex_info info;
        st = pl_topology_vertex(s->topo, v, &info);
        if (!st && info.kind == PL_VK_MACHINE)
            ordinal[v] = machines++;
        if (st || info.kind != PL_VK_GPU)
            continue;
        int32_t m = machine_of(s->topo, v);
        s->units[v] = m >= 0 && ordinal[m] % 2 ? 2 : 1;
        if (s->units[v] == 2)
            st = pl_topology_set_capacity(s->topo, v, PL_RES_UNITS, 2);
        s->total_units += s->units[v];
    }
    free(ordinal);
    for (int32_t v = 0; v < s->n && !st; v++)
        for (int r = 0; r < PL_RES_COUNT && !st; r++)
            st = pl_topology_amount(s->topo, v, (pl_resource)r, NULL, NULL,
                                    &s->free0[(int64_t)v * PL_RES_COUNT + r]);
    return st;
}

static pl_status build_jobs(soak *s)
{
    static const int32_t sizes[3] = {1, 2, 4};
    pl_task_demand d = {.gpus = 1, .cores = 1, .memory = (int64_t)1 << 30};
    pl_status st = PL_OK;
    for (int i = 0; i < 3 && !st; i++) {
        char name[16];
        snprintf(name, sizeof name, "soak-%dgpu", (int)sizes[i]);
        st = pl_job_create(name, &s->jobs[i]);
        for (int32_t t = 0; t < sizes[i] && !st; t++)
            st = pl_job_add_task(s->jobs[i], &d, NULL);
        if (!st && sizes[i] > 1)
            st = pl_job_add_all_to_all(s->jobs[i], 1.0);
    }
    return st;
}

static pl_status release_one(soak *s, int32_t r)
{
    running *a = &s->run[r];
    pl_status st = pl_sched_release(s->sched, a->id);
    if (st)
        return st;
    for (int32_t g = 0; g < a->k; g++)
        s->holders[a->gpus[g]]--;
    s->held_units -= a->k;
    s->run[r] = s->run[--s->nrun];
    s->res->released++;
    return PL_OK;
}

/* Commit a placed decision, checking it against the shadow count first. */
static pl_status commit(soak *s, const pl_job *job, const pl_decision *d, const pl_decision_info *info)
{
    int bad = info->ngpus != pl_job_task_count(job) || info->ngpus > 4;
    for (int32_t g = 0; g < info->ngpus && !bad; g++) {
        int32_t v = info->gpus[g];
        bad |= v < 0 || v >= s->n || s->units[v] == 0 || s->holders[v] >= s->units[v];
        for (int32_t h = 0; h < g; h++)
            bad |= info->gpus[h] == v;
    }
    if (bad) {
        s->res->double_booked++;
        return PL_OK;
    }
    running a = {.k = info->ngpus};
    snprintf(a.id, sizeof a.id, "job-%lld", (long long)s->res->placed);
    pl_status st = pl_sched_commit(s->sched, a.id, job, d, 0);
    if (st == PL_EINVAL) {
        /* The handle refused what the shadow count allowed: count it, it
         * must never happen. */
        s->res->double_booked++;
        return PL_OK;
    }
    if (st)
        return st;
    for (int32_t g = 0; g < a.k; g++) {
        a.gpus[g] = info->gpus[g];
        s->res->shared_tasks += s->holders[a.gpus[g]] > 0;
        s->holders[a.gpus[g]]++;
    }
    s->held_units += a.k;
    if (s->nrun == s->caprun) {
        int32_t cap = s->caprun ? s->caprun * 2 : 1024;
        running *grown = realloc(s->run, (size_t)cap * sizeof *grown);
        if (!grown)
            return PL_ENOMEM;
        s->run = grown;
        s->caprun = cap;
    }
    s->run[s->nrun++] = a;
    s->res->placed++;
    return PL_OK;
}

static pl_status cycle(soak *s, const pl_policy_opts *po)
{
    uint64_t pick = next(s) % 10;
    pl_job *job = s->jobs[pick < 5 ? 0 : pick < 8 ? 1 : 2];
    pl_decision *d = NULL;
    pl_status st = pl_sched_place(s->sched, po, &job, 1, &d);
    pl_decision_info info;
    if (!st)
        st = pl_decision_get(d, 0, &info);
    int placed = !st && info.kind == PL_DECISION_PLACED;
    if (placed)
        st = commit(s, job, d, &info);
    else if (!st)
        s->res->not_placed++;
    pl_decision_free(d);
    /* Release down to the target load; a job that found no room frees one. */
    while (!st && s->nrun > 0 &&
           (s->held_units > s->o->load * (double)s->total_units || !placed)) {
        st = release_one(s, (int32_t)(next(s) % (uint64_t)s->nrun));
        placed = 1;
    }
    return st;
}

static pl_status finish(soak *s)
{
    pl_status st = PL_OK;
    while (!st && s->nrun > 0)
        st = release_one(s, s->nrun - 1);
    const pl_topology *live = pl_sched_topology(s->sched);
    for (int32_t v = 0; v < s->n && !st; v++)
        for (int r = 0; r < PL_RES_COUNT && !st; r++) {
            int64_t f = 0;
            st = pl_topology_amount(live, v, (pl_resource)r, NULL, NULL, &f);
            s->res->leaked += !st && f != s->free0[(int64_t)v * PL_RES_COUNT + r];
        }
    return st;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

pl_status pl_soak_run(const pl_soak_opts *o, pl_soak_result *res)
{
    memset(res, 0, sizeof *res);
    if (!o || o->machines < 1 || o->cycles < 1 || !(o->load > 0 && o->load < 1) || !o->policy)
        return pl_solver_error(PL_EINVAL, "soak: machines >= 1, cycles >= 1, 0 < load < 1 and a policy");
    soak s = {.o = o, .res = res, .rng = o->seed};
    pl_policy_opts po;
    pl_policy_opts_init(&po);
    po.policy = o->policy;
    po.seed = o->seed;
    int64_t warmup = o->warmup >= 0 && o->warmup < o->cycles ? o->warmup : o->cycles / 10;
    pl_status st = build_cluster(&s);
    if (!st)
        st = pl_sched_create(s.topo, &s.sched);
    if (!st)
        st = build_jobs(&s);
    double t0 = now();
    for (int64_t c = 0; c < o->cycles && !st; c++) {
        if (c == warmup)
            res->rss_start_kb = res->rss_max_kb = rss_kb();
        st = cycle(&s, &po);
        res->cycles = c + 1;
        if (c > warmup && o->rss_every > 0 && c % o->rss_every == 0) {
            int64_t kb = rss_kb();
            res->rss_max_kb = kb > res->rss_max_kb ? kb : res->rss_max_kb;
        }
    }
    res->seconds = now() - t0;
    if (!st)
        st = finish(&s);
    res->rss_end_kb = rss_kb();
    if (res->rss_end_kb > res->rss_max_kb)
        res->rss_max_kb = res->rss_end_kb;
    free(s.run);
    pl_sched_free(s.sched);
    for (int i = 0; i < 3; i++)
        pl_job_free(s.jobs[i]);
    free(s.units);
    free(s.holders);
    free(s.free0);
    pl_topology_free(s.topo);
    return st;
}
