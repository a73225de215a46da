/* One run of the simulator (doc/simulator.md sec. 1): the event loop, the
 * scheduling rounds, and placing, starting, finishing and killing jobs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "internal/columns.h"

/* Order is kept so that neighbour scans, and therefore the float sums of a
 * run, do not depend on removal history beyond the events themselves. */
static void remove_id(int32_t *arr, int32_t *n, int32_t id)
{
    for (int32_t i = 0; i < *n; i++)
        if (arr[i] == id) {
            memmove(arr + i, arr + i + 1, (size_t)(*n - i - 1) * sizeof *arr);
            (*n)--;
            return;
        }
}

/* Queue order: higher priority first, then earlier arrival, then workload
 * index. With equal priorities this is the arrival order the events give. */
static int queued_before(const srun *r, int32_t a, int32_t b)
{
    if (r->j[a].prio != r->j[b].prio)
        return r->j[a].prio > r->j[b].prio;
    double ta = r->res->rec[a].arrival, tb = r->res->rec[b].arrival;
    if (ta != tb)
        return ta < tb;
    return a < b;
}

void pl_sim_enqueue(srun *r, int32_t i)
{
    int32_t lo = 0, hi = r->nqueue;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (queued_before(r, r->queue[mid], i))
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(r->queue + lo + 1, r->queue + lo, (size_t)(r->nqueue - lo) * sizeof *r->queue);
    r->queue[lo] = i;
    r->nqueue++;
}

pl_status pl_sim_want_round(srun *r, double t)
{
    if (r->round_pending || r->nqueue == 0)
        return PL_OK;
    /* Interval 0: a round at the time of the events that ask for it. */
    double tick = r->interval > 0 ? ceil(t / r->interval) * r->interval : t;
    if (tick < t)
        tick += r->interval;
    r->round_pending = 1;
    return pl_sim_heap_push(&r->heap, tick, PL_SIM_EV_ROUND, -1, 0);
}

static pl_status gpu_error(const srun *r, int32_t v, const char *job, const char *what, const char *other)
{
    char path[256];
    if (pl_topology_path_name(r->topo, v, path, sizeof path))
        snprintf(path, sizeof path, "vertex %d", (int)v);
    return pl_err(PL_EINTERNAL, "simulator: GPU %s given to job %s %s%s", path, job, what, other);
}

/* "job A", or "2 jobs (A, B), as many as its units capacity" for a shared GPU. */
static void holders_text(const srun *r, int32_t v, char *buf, size_t cap)
{
    int32_t n = r->hold_n[v];
    if (n == 1) {
        snprintf(buf, cap, "job %s", pl_job_name(r->j[r->hold[v][0]].job));
        return;
    }
    size_t len = (size_t)snprintf(buf, cap, "%d jobs (", (int)n);
    for (int32_t q = 0; q < n && len < cap; q++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", q ? ", " : "", pl_job_name(r->j[r->hold[v][q]].job));
    if (len < cap)
        snprintf(buf + len, cap - len, "), as many as its units capacity");
}

/* The allocation check: every GPU exists, is up, is named once and is held
 * by fewer jobs than its units capacity (no job, for a 1-unit GPU). */
static pl_status check_gpus(const srun *r, const sjob *a, const int32_t *gpus, int32_t ngpus)
{
    const pl_sim *s = r->s;
    for (int32_t g = 0; g < ngpus; g++) {
        int32_t v = gpus[g];
        if (v < 0 || v >= s->nvert || s->gpu_socket[v] < 0)
            return pl_err(PL_EINTERNAL, "simulator: job %s placed on vertex %d, not a GPU",
                          pl_job_name(a->job), (int)v);
        for (int32_t h = 0; h < g; h++)
            if (gpus[h] == v)
                return gpu_error(r, v, pl_job_name(a->job), "twice (one GPU per task)", "");
        if (r->hold_n[v] >= s->gpu_units[v]) {
            char who[512];
            holders_text(r, v, who, sizeof who);
            return gpu_error(r, v, pl_job_name(a->job), "is already held by ", who);
        }
        if (r->m.failed[v])
            return gpu_error(r, v, pl_job_name(a->job), "is down (device failure)", "");
    }
    return PL_OK;
}

/* The job's tasks begin: it joins its sockets' neighbour lists and starts
 * progressing (at its placement, or after its startup delay). */
static pl_status begin_tasks(srun *r, int32_t i, double t)
{
    sjob *a = &r->j[i];
    pl_sim_job_record *rec = &r->res->rec[i];
    const pl_sim *s = r->s;
    pl_status st = PL_OK;
    for (int32_t q = 0; q < a->nsock && !st; q++) {
        int32_t so = a->sockets[q];
        st = pl_push_i32(&r->sock_jobs[so], &r->sock_n[so], &r->sock_cap[so], 4, i);
    }
    pl_spread spread = a->nsock == 1 ? PL_SPREAD_INTRA_SOCKET : PL_SPREAD_INTER_SOCKET;
    if (!st)
        st = pl_profile_solo_time(s->ps, a->job, a->k, spread, &a->solo);
    /* Ideal: the best spread this machine allows (several machines: any). */
    int32_t per_socket = 0;
    for (int32_t m = 0; m < s->nmachines && !st; m++)
        if ((rec->machine < 0 || m == rec->machine) && s->machine_socket_max[m] > per_socket)
            per_socket = s->machine_socket_max[m];
    pl_spread best = a->k <= per_socket ? PL_SPREAD_INTRA_SOCKET : PL_SPREAD_INTER_SOCKET;
    if (!st)
        st = pl_profile_solo_time(s->ps, a->job, a->k, best, &rec->ideal_time);
    if (!st && s->opts.runtime == PL_SIM_RUNTIME_ARTIFACT)
        st = pl_profile_solo_time(s->ps, a->job, a->k, PL_SPREAD_INTRA_SOCKET, &a->intra);
    if (st)
        return st;
    a->start = t;
    a->scheduled = 0;
    a->running = 1;
    a->remaining = 1;
    a->last = t;
    a->slow = 1;
    a->net = 1;
    rec->start = t;
    rec->wait = t - rec->arrival;
    if (a->remote > 0) {
        /* More load on the network: every remote job slows (this one too,
         * rescheduled by its neighbour update below). */
        r->remote_gpus += a->remote;
        r->remote_traffic += a->remote * (1 - 1 / a->sf0);
        if ((st = pl_sim_update_remote(r, t)))
            return st;
        r->remote_jobs[r->nremote_jobs++] = i;
    }
    return pl_sim_update_neighbours(r, i, t, 1);
}

/* The fabric moved job i's end. */
static pl_status push_finish(void *ctx, int32_t i, double end)
{
    srun *r = ctx;
    sjob *a = &r->j[i];
    a->version++;
    return pl_sim_heap_push(&r->heap, end, PL_SIM_EV_FINISH, i, a->version);
}

/* A job of the NVMe experiments starts at once as its choice says; the
 * fabric gives its end (its ideal time is its base time). */
static pl_status start_on_fabric(srun *r, int32_t i, int32_t q, double t)
{
    const pl_nvme_choice *c = &r->s->choices[q];
    if (!c->placed)
        return pl_err(PL_EINTERNAL, "simulator: job %s placed without the NVMe rules' choice",
                      pl_job_name(r->j[i].job));
    sjob *a = &r->j[i];
    pl_sim_job_record *rec = &r->res->rec[i];
    a->start = t;
    a->running = 1;
    rec->start = t;
    rec->wait = t - rec->arrival;
    rec->ideal_time = c->w.base_time_s;
    return pl_sim_fabric_start(r->s->fabric, i, &c->d, t, push_finish, r);
}

const char *pl_sim_job_id(int32_t i, char *buf)
{
    snprintf(buf, 16, "%d", (int)i);
    return buf;
}

pl_status pl_sim_commit(srun *r, int32_t i, const pl_decision *d, int32_t q, const int32_t *gpus,
                        int32_t ngpus, int32_t machine, double utility, double t)
{
    sjob *a = &r->j[i];
    pl_sim_job_record *rec = &r->res->rec[i];
    const pl_sim *s = r->s;
    char id[16];
    pl_status st = check_gpus(r, a, gpus, ngpus);
    if (st || (st = pl_sched_commit(r->sched, pl_sim_job_id(i, id), a->job, d, q)))
        return st;
    if (!a->gpus && (!(a->gpus = pl_alloc((size_t)a->k + 1, sizeof *a->gpus)) ||
                     !(a->sockets = pl_alloc((size_t)a->k + 1, sizeof *a->sockets))))
        return PL_ENOMEM;
    a->ngpus = ngpus;
    a->nsock = 0;
    for (int32_t g = 0; g < ngpus; g++) {
        int32_t v = gpus[g], sk = s->gpu_socket[v];
        a->gpus[g] = v;
        /* Holding a GPU together with another job, both shared it. */
        for (int32_t q = 0; q < r->hold_n[v]; q++) {
            rec->shared_gpu = 1;
            r->res->rec[r->hold[v][q]].shared_gpu = 1;
        }
        if ((st = pl_sim_hold(r, v, i)))
            return st;
        int dup = 0;
        for (int32_t q = 0; q < a->nsock; q++)
            dup |= a->sockets[q] == sk;
        if (!dup)
            a->sockets[a->nsock++] = sk;
    }
    const pl_plan_item *plan;
    int32_t nplan;
    if ((st = pl_sched_job_plan(r->sched, id, &plan, &nplan)))
        return st;
    pl_sim_metrics_plan(r, plan, nplan, +1);
    a->held = 1;
    r->running[r->nrunning++] = i;
    rec->placed = t;
    rec->utility = utility;
    rec->below_min_utility = utility < rec->min_utility;
    rec->cross_socket = a->nsock > 1;
    rec->machine = machine;
    if (s->fabric)
        return start_on_fabric(r, i, q, t);
    double delay = s->opts.job_startup_delay ? s->opts.job_startup_delay[i] : s->opts.startup_delay;
    if (delay > 0) {
        a->version++;
        return pl_sim_heap_push(&r->heap, t + delay, PL_SIM_EV_TASK_START, i, a->version);
    }
    return begin_tasks(r, i, t);
}

/* Give job i what decision q of d takes: the policy's own plan (DRMaestro:
 * a task's cores on its machine) or placement/policy.h's rule on its GPUs;
 * a task without a GPU (-1) holds none. */
static pl_status place_job(srun *r, int32_t i, const pl_decision *d, int32_t q,
                           const pl_decision_info *info, double t)
{
    sjob *a = &r->j[i];
    const pl_sim *s = r->s;
    if (info->ngpus != a->k)
        return pl_err(PL_EINTERNAL, "simulator: job %s placed on %d GPUs, wants %d",
                      pl_job_name(a->job), (int)info->ngpus, (int)a->k);
    int32_t *gpus = pl_alloc((size_t)a->k + 1, sizeof *gpus), ngpus = 0;
    if (!gpus)
        return PL_ENOMEM;
    for (int32_t g = 0; g < a->k; g++)
        if (info->gpus[g] >= 0)
            gpus[ngpus++] = info->gpus[g];
    a->remote = pl_decision_remote(d, q);
    r->res->rec[i].remote_gpus = a->remote;
    /* A job with a remote GPU spans two machines. */
    int32_t machine = info->machine >= 0 && a->remote == 0 ? s->vert_machine[info->machine] : -1;
    pl_status st = pl_sim_commit(r, i, d, q, gpus, ngpus, machine, info->utility, t);
    free(gpus);
    return st;
}

/* Give back everything job i holds; its neighbours speed up. */
static pl_status release_job(srun *r, int32_t i, double t)
{
    sjob *a = &r->j[i];
    char id[16];
    const pl_plan_item *plan;
    int32_t nplan;
    pl_status st = pl_sched_job_plan(r->sched, pl_sim_job_id(i, id), &plan, &nplan);
    if (st)
        return st;
    /* Its cores now, its GPUs' states once they are free again. */
    pl_sim_metrics_plan(r, plan, nplan, -1);
    if ((st = pl_sched_release(r->sched, id)))
        return st;
    for (int32_t g = 0; g < a->ngpus; g++) {
        pl_sim_unhold(r, a->gpus[g], i);
        pl_sim_metrics_gpu(r, a->gpus[g]);
    }
    int was_running = a->running;
    if (was_running)
        for (int32_t q = 0; q < a->nsock; q++)
            remove_id(r->sock_jobs[a->sockets[q]], &r->sock_n[a->sockets[q]], i);
    remove_id(r->running, &r->nrunning, i);
    a->running = 0;
    a->held = 0;
    st = was_running ? pl_sim_update_neighbours(r, i, t, 0) : PL_OK;
    if (!st && was_running && a->remote > 0) {
        remove_id(r->remote_jobs, &r->nremote_jobs, i);
        r->remote_gpus -= a->remote;
        r->remote_traffic -= a->remote * (1 - 1 / a->sf0);
        if (r->nremote_jobs == 0)
            r->remote_traffic = 0; /* no drift from the subtractions */
        st = pl_sim_update_remote(r, t);
    }
    a->remote = 0;
    return st;
}

void pl_sim_reject(srun *r, int32_t i)
{
    r->res->rec[i].state = PL_SIM_REJECTED;
    r->settled++;
}

static void report(srun *r, double t, int last)
{
    const pl_sim_opts *o = &r->s->opts;
    int32_t total = r->s->njobs;
    int64_t step = total > 0 ? (int64_t)r->settled * 1000 / total : 1000;
    if (!o->progress || (!last && step == r->progress_step))
        return;
    r->progress_step = step;
    o->progress(o->progress_data, r->settled, total, t);
}

static pl_status finish_job(srun *r, int32_t i, double t)
{
    pl_sim_job_record *rec = &r->res->rec[i];
    pl_status st = r->s->fabric ? pl_sim_fabric_finish(r->s->fabric, i, t, push_finish, r) : PL_OK;
    if (st)
        return st;
    r->settled++;
    rec->state = PL_SIM_DONE;
    rec->finish = t;
    rec->run_time = t - rec->start;
    rec->slowdown = rec->ideal_time > 0 ? rec->run_time / rec->ideal_time : 1;
    return release_job(r, i, t);
}

pl_status pl_sim_kill_job(srun *r, int32_t i, double t)
{
    sjob *a = &r->j[i];
    pl_sim_job_record *rec = &r->res->rec[i];
    r->killed++;
    r->lost_gpu_seconds += (t - rec->placed) * a->k;
    pl_status st = release_job(r, i, t);
    if (st)
        return st;
    a->version++; /* its pending finish or task start is stale */
    rec->restarts++;
    rec->placed = rec->start = rec->finish = -1;
    rec->wait = rec->run_time = rec->ideal_time = rec->slowdown = rec->utility = 0;
    rec->below_min_utility = rec->cross_socket = 0;
    rec->remote_gpus = 0;
    rec->shared_gpu = 0;
    rec->machine = -1;
    pl_sim_enqueue(r, i);
    return pl_sim_want_round(r, t);
}

pl_status pl_sim_record_time(pl_sim_result *res, double dt)
{
    pl_status st = pl_grow((void **)&res->dtimes, &res->capdtimes, res->ndtimes + 1,
                           sizeof *res->dtimes);
    if (!st)
        res->dtimes[res->ndtimes++] = dt;
    return st;
}

/* A policy with idle rounds is asked again every interval while jobs wait;
 * when nothing can change any more (no event left, nothing running, and
 * its idle rounds have run their course) the jobs left stay unfinished. */
static pl_status next_round(srun *r, double t, int placed)
{
    int32_t limit = pl_sched_idle_rounds(r->sched);
    /* Interval 0 has no next tick: an idle round would repeat at once. */
    if (limit <= 0 || r->nqueue == 0 || r->interval <= 0)
        return PL_OK;
    r->idle_rounds = placed ? 0 : r->idle_rounds + 1;
    if (r->heap.n == 0 && r->nrunning == 0 && r->idle_rounds > limit)
        return PL_OK;
    r->round_pending = 1;
    return pl_sim_heap_push(&r->heap, t + r->interval, PL_SIM_EV_ROUND, -1, 0);
}

static pl_status do_round(srun *r, double t)
{
    r->round_pending = 0;
    pl_status st = r->cpu_jobs_by_policy ? PL_OK : pl_sim_place_cpu_jobs(r, t);
    if (st || r->nqueue == 0)
        return st;
    pl_job **queue = pl_alloc((size_t)r->nqueue, sizeof *queue);
    pl_decision *d = NULL;
    int32_t placed = 0;
    if (!queue) {
        st = PL_ENOMEM;
        goto done;
    }
    for (int32_t q = 0; q < r->nqueue; q++)
        queue[q] = (pl_job *)r->j[r->queue[q]].job;
    pl_policy_opts o = r->s->opts.policy;
    o.network_load = pl_sim_network_load(r);
    o.now = t;
    double t0 = pl_now();
    st = pl_sched_place(r->sched, &o, queue, r->nqueue, &d);
    double dt = pl_now() - t0;
    if (st || (st = pl_sim_record_time(r->res, dt)))
        goto done;
    int32_t kept = 0, nq = r->nqueue;
    for (int32_t q = 0; q < nq && !st; q++) {
        int32_t i = r->queue[q];
        pl_decision_info info;
        if ((st = pl_decision_get(d, q, &info)))
            break;
        if (info.kind == PL_DECISION_PLACED) {
            st = place_job(r, i, d, q, &info, t);
            placed++;
        } else if (info.kind == PL_DECISION_REJECTED)
            pl_sim_reject(r, i);
        else
            r->queue[kept++] = i;
    }
    if (!st) {
        r->nqueue = kept;
        st = next_round(r, t, placed);
    }
done:
    pl_decision_free(d);
    free(queue);
    return st;
}

static pl_status run_events(srun *r)
{
    pl_sim_event e;
    double t0 = 0;
    pl_status st = pl_sim_heap_peek(&r->heap, &t0) ? pl_sim_metrics_sample(r, t0) : PL_OK;
    while (!st && pl_sim_heap_pop(&r->heap, &e)) {
        if (r->s->fabric)
            pl_sim_fabric_advance(r->s->fabric, e.time);
        sjob *a = e.job >= 0 && e.kind != PL_SIM_EV_FAILURE && e.kind != PL_SIM_EV_REPAIR ? &r->j[e.job] : NULL;
        switch (e.kind) {
        case PL_SIM_EV_ARRIVAL:
            pl_sim_enqueue(r, e.job);
            st = pl_sim_want_round(r, e.time);
            break;
        case PL_SIM_EV_FINISH:
            if (!a->running || a->version != e.version)
                break;
            if (!(st = finish_job(r, e.job, e.time)))
                st = pl_sim_want_round(r, e.time);
            break;
        case PL_SIM_EV_TASK_START:
            if (a->held && !a->running && a->version == e.version)
                st = begin_tasks(r, e.job, e.time);
            break;
        case PL_SIM_EV_FAILURE:
            st = pl_sim_fail_gpu(r, e.job, e.time);
            break;
        case PL_SIM_EV_REPAIR:
            st = pl_sim_repair_gpu(r, e.job, e.time);
            break;
        default:
            st = do_round(r, e.time);
            break;
        }
        if (!st)
            st = pl_sim_metrics_sample(r, e.time);
        if (!st)
            report(r, e.time, 0);
        t0 = e.time;
    }
    if (!st)
        report(r, t0, 1);
    return st;
}

static const pl_column job_cols[] = {PL_COLUMN(srun, j), PL_COLUMN(srun, queue), PL_COLUMN(srun, running),
                                     PL_COLUMN(srun, mark), PL_COLUMN(srun, remote_jobs)};
static const pl_column socket_cols[] = {PL_COLUMN(srun, sock_jobs), PL_COLUMN(srun, sock_n),
                                        PL_COLUMN(srun, sock_cap)};

static void run_free(srun *r)
{
    if (r->j)
        for (int32_t i = 0; i < r->s->njobs; i++) {
            free(r->j[i].gpus);
            free(r->j[i].sockets);
        }
    pl_free_lists_i32(r->sock_jobs, r->s->nsockets);
    pl_columns_free(r, job_cols, PL_NCOLUMNS(job_cols));
    pl_columns_free(r, socket_cols, PL_NCOLUMNS(socket_cols));
    pl_sim_holders_free(r);
    pl_sim_heap_free(&r->heap);
    pl_sim_metrics_free(r);
    pl_sched_free(r->sched);
    free(r->usage_factor);
}

static pl_status run_init(pl_sim *s, srun *r)
{
    r->s = s;
    r->interval = s->opts.interval;
    pl_status st = pl_sched_create(s->topo, &r->sched);
    if (st)
        return st;
    r->topo = pl_sched_topology(r->sched);
    if ((st = pl_sim_holders_init(r)) ||
        (st = pl_columns_alloc(r, job_cols, PL_NCOLUMNS(job_cols), (int64_t)s->njobs + 1)) ||
        (st = pl_columns_alloc(r, socket_cols, PL_NCOLUMNS(socket_cols), (int64_t)s->nsockets + 1)))
        return st;
    const pl_policy_ops *ops = s->policy_ops;
    if (!ops && (st = pl_policy_find(s->opts.policy.policy ? s->opts.policy.policy : PL_DEFAULT_POLICY, &ops)))
        return st;
    if (s->policy_ops) {
        pl_policy *p = NULL;
        if ((st = pl_policy_create_ops(ops, &s->opts.policy, &p)))
            return st;
        pl_sched_use_policy(r->sched, p);
    }
    r->cpu_jobs_by_policy = ops->version >= 2 && (ops->flags & PL_POLICY_CPU_JOBS) != 0;
    if ((st = pl_sim_metrics_init(r)))
        return st;
    for (int32_t i = 0; i < s->njobs; i++) {
        const pl_job *job = pl_jobset_get(s->jobs, i);
        r->j[i].job = job;
        r->j[i].k = pl_job_task_count(job);
        r->j[i].prio = s->opts.job_priority ? s->opts.job_priority[i] : 0;
        r->j[i].cpu_only = pl_sim_job_cpu_only(job);
        r->j[i].uclass = pl_gpu_usage_find(s->usage, pl_job_workload_type(job));
        pl_drm_network_factors(pl_job_workload_type(job), &r->j[i].sf0, &r->j[i].sf1);
        pl_sim_job_record *rec = &r->res->rec[i];
        rec->job = i;
        rec->name = pl_job_name(job);
        rec->state = PL_SIM_UNFINISHED;
        rec->ngpus = r->j[i].k;
        rec->arrival = pl_job_arrival(job);
        rec->placed = rec->start = rec->finish = -1;
        rec->min_utility = pl_job_min_utility(job);
        rec->machine = -1;
        rec->priority = r->j[i].prio;
        if ((st = pl_sim_heap_push(&r->heap, rec->arrival, PL_SIM_EV_ARRIVAL, i, 0)))
            return st;
    }
    for (int32_t f = 0; f < s->opts.nfailures; f++)
        if ((st = pl_sim_heap_push(&r->heap, s->opts.failures[f].time, PL_SIM_EV_FAILURE, f, 0)))
            return st;
    return PL_OK;
}

pl_status pl_sim_run(pl_sim *s, pl_sim_result **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_sim_run: NULL out");
    *out = NULL;
    if (!s)
        return pl_err(PL_EINVAL, "pl_sim_run: NULL simulator");
    const pl_policy_ops *ops = s->policy_ops;
    pl_status st = ops ? PL_OK : pl_policy_find(s->opts.policy.policy ? s->opts.policy.policy : PL_DEFAULT_POLICY, &ops);
    if (st)
        return st;
    double t0 = pl_now();
    pl_sim_result *res = pl_alloc(1, sizeof *res);
    if (!res)
        return PL_ENOMEM;
    res->n = s->njobs;
    if (!(res->rec = pl_alloc((size_t)s->njobs + 1, sizeof *res->rec))) {
        free(res);
        return PL_ENOMEM;
    }
    srun r;
    memset(&r, 0, sizeof r);
    r.res = res;
    st = run_init(s, &r);
    if (!st)
        st = run_events(&r);
    int64_t killed = r.killed, failures = r.failures;
    double lost = r.lost_gpu_seconds;
    run_free(&r);
    if (!st)
        st = pl_sim_summarise(s, res);
    if (st) {
        pl_sim_result_free(res);
        return st;
    }
    res->sum.failures = (int32_t)failures;
    res->sum.jobs_killed = (int32_t)killed;
    res->sum.lost_gpu_seconds = lost;
    res->sum.wall_time = pl_now() - t0;
    *out = res;
    return PL_OK;
}
