/* The discrete-event simulator (include/placement/sim.h, doc/simulator.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"

void pl_sim_opts_init(pl_sim_opts *opts)
{
    if (!opts)
        return;
    pl_policy_opts_init(&opts->policy);
    opts->interval = 1.0;
    opts->runtime = PL_SIM_RUNTIME_PROGRESS;
}

int pl_sim_job_cpu_only(const pl_job *job)
{
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) != PL_OK || d.gpus > 0)
            return 0;
    }
    return pl_job_task_count(job) > 0;
}

/* ---- creation: GPU -> socket / machine tables ------------------------------- */

static pl_status list_kind(const pl_topology *t, int kind, int32_t **out, int32_t *n)
{
    pl_status st = pl_topology_descendants(t, -1, kind, NULL, 0, n);
    if (st)
        return st;
    *out = pl_alloc((size_t)*n + 1, sizeof **out);
    if (!*out)
        return PL_ENOMEM;
    return pl_topology_descendants(t, -1, kind, *out, *n, n);
}

/* Machine ordinal of every vertex under a machine: machines in preorder,
 * each subtree's vertices listed once. */
static pl_status index_machines(pl_sim *s, const int32_t *machines, int32_t nm)
{
    if (!(s->vert_machine = pl_alloc((size_t)s->nvert + 1, sizeof *s->vert_machine)))
        return PL_ENOMEM;
    for (int32_t v = 0; v < s->nvert; v++)
        s->vert_machine[v] = -1;
    pl_status st = PL_OK;
    int32_t *sub = NULL, n = 0;
    for (int32_t i = 0; i < nm && !st; i++) {
        free(sub);
        sub = NULL;
        if (!(st = pl_topology_descendants(s->topo, machines[i], -1, NULL, 0, &n)) &&
            !(sub = pl_alloc((size_t)n + 1, sizeof *sub)))
            st = PL_ENOMEM;
        if (!st)
            st = pl_topology_descendants(s->topo, machines[i], -1, sub, n, &n);
        for (int32_t q = 0; q < n && !st; q++)
            if (s->vert_machine[sub[q]] < 0) /* a machine inside a machine keeps the outer one */
                s->vert_machine[sub[q]] = i;
    }
    free(sub);
    return st;
}

static pl_status index_gpus(pl_sim *s)
{
    int32_t *machines = NULL, nm = 0;
    pl_status st = list_kind(s->topo, PL_VK_GPU, &s->gpus, &s->ngpus);
    if (!st)
        st = list_kind(s->topo, PL_VK_MACHINE, &machines, &nm);
    if (!st)
        st = list_kind(s->topo, PL_VK_PACKAGE, &s->packages, &s->npackages);
    if (!st)
        st = list_kind(s->topo, PL_VK_STORAGE, &s->storage, &s->nstorage);
    if (!st)
        st = index_machines(s, machines, nm);
    if (!st && !(s->is_package = pl_alloc((size_t)s->nvert + 1, sizeof *s->is_package)))
        st = PL_ENOMEM;
    for (int32_t i = 0; !st && i < s->npackages; i++)
        s->is_package[s->packages[i]] = 1;
    const int32_t ng = s->ngpus, ns = s->npackages;
    int32_t *ord = NULL, *per_socket = NULL;
    if (!st && (!(ord = pl_alloc((size_t)s->nvert + 1, sizeof *ord)) ||
                !(s->gpu_socket = pl_alloc((size_t)s->nvert + 1, sizeof *s->gpu_socket)) ||
                !(s->gpu_machine = pl_alloc((size_t)s->nvert + 1, sizeof *s->gpu_machine)) ||
                !(s->machine_socket_max = pl_alloc((size_t)nm + 1, sizeof *s->machine_socket_max)) ||
                !(per_socket = pl_alloc((size_t)ns + (size_t)ng + 1, sizeof *per_socket))))
        st = PL_ENOMEM;
    if (st)
        goto done;
    for (int32_t v = 0; v < s->nvert; v++)
        ord[v] = s->gpu_socket[v] = s->gpu_machine[v] = -1;
    for (int32_t i = 0; i < nm; i++)
        ord[machines[i]] = i;
    for (int32_t i = 0; i < ns; i++)
        ord[s->packages[i]] = i;
    /* A GPU under no package is its own socket (numbered after the packages). */
    int32_t next_socket = ns;
    for (int32_t i = 0; i < ng && !st; i++) {
        int32_t g = s->gpus[i], pkg = -1, mach = -1;
        if (pl_topology_ancestor(s->topo, g, PL_VK_PACKAGE, &pkg) != PL_OK)
            pkg = -1;
        if (pl_topology_ancestor(s->topo, g, PL_VK_MACHINE, &mach) != PL_OK)
            mach = -1;
        s->gpu_socket[g] = pkg >= 0 ? ord[pkg] : next_socket++;
        s->gpu_machine[g] = mach >= 0 ? ord[mach] : -1;
        int32_t c = ++per_socket[s->gpu_socket[g]];
        if (mach >= 0 && c > s->machine_socket_max[ord[mach]])
            s->machine_socket_max[ord[mach]] = c;
    }
    s->nsockets = next_socket;
    s->nmachines = nm;
done:
    free(machines);
    free(ord);
    free(per_socket);
    return st;
}

pl_status pl_sim_create(const pl_topology *topo, const pl_jobset *jobs, const pl_sim_opts *opts,
                        pl_sim **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_sim_create: NULL out");
    *out = NULL;
    if (!topo || !jobs)
        return pl_err(PL_EINVAL, "pl_sim_create: NULL topology or workload");
    pl_sim_opts o;
    if (opts)
        o = *opts;
    else
        pl_sim_opts_init(&o);
    if (!(o.interval > 0) || !isfinite(o.interval))
        return pl_err(PL_EINVAL, "pl_sim_create: interval must be > 0, got %g", o.interval);
    if (o.runtime != PL_SIM_RUNTIME_PROGRESS && o.runtime != PL_SIM_RUNTIME_ARTIFACT)
        return pl_err(PL_EINVAL, "pl_sim_create: unknown runtime model %d", (int)o.runtime);
    int32_t n = pl_jobset_count(jobs);
    for (int32_t i = 0; i < n; i++)
        if (pl_job_task_count(pl_jobset_get(jobs, i)) < 1)
            return pl_err(PL_EINVAL, "pl_sim_create: job %d (%s) has no tasks", (int)i,
                          pl_job_name(pl_jobset_get(jobs, i)));
    pl_sim *s = pl_alloc(1, sizeof *s);
    if (!s)
        return PL_ENOMEM;
    s->jobs = jobs;
    s->opts = o;
    s->njobs = n;
    pl_status st = pl_topology_copy(topo, &s->topo);
    if (!st) {
        s->nvert = pl_topology_vertex_count(s->topo);
        st = index_gpus(s);
    }
    if (!st)
        pl_sim_reference_job(s);
    if (!st) {
        if (o.policy.profiles)
            s->ps = o.policy.profiles;
        else if (!(st = pl_profile_set_builtin(&s->owned_ps)))
            s->ps = s->owned_ps;
        /* The policy would otherwise parse the built-in profiles at every call. */
        s->opts.policy.profiles = s->ps;
    }
    if (st) {
        pl_sim_free(s);
        return st;
    }
    *out = s;
    return PL_OK;
}

void pl_sim_free(pl_sim *s)
{
    if (!s)
        return;
    pl_topology_free(s->topo);
    pl_profile_set_free(s->owned_ps);
    free(s->gpu_socket);
    free(s->gpu_machine);
    free(s->machine_socket_max);
    free(s->vert_machine);
    free(s->gpus);
    free(s->packages);
    free(s->is_package);
    free(s->storage);
    free(s);
}

/* ---- one run ---------------------------------------------------------------- */

static pl_status sock_add(srun *r, int32_t s, int32_t job)
{
    if (r->sock_n[s] == r->sock_cap[s]) {
        int32_t c = r->sock_cap[s] ? 2 * r->sock_cap[s] : 4;
        int32_t *p = pl_realloc_array(r->sock_jobs[s], (size_t)c, sizeof *p);
        if (!p)
            return PL_ENOMEM;
        r->sock_jobs[s] = p;
        r->sock_cap[s] = c;
    }
    r->sock_jobs[s][r->sock_n[s]++] = job;
    return PL_OK;
}

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

/* Profile solo time, with the missing spread estimated from the 2-GPU ratio. */
static pl_status solo_time(const pl_sim *s, const pl_job *job, int32_t k, pl_spread spread,
                           double *out)
{
    const char *type = pl_job_workload_type(job), *size = pl_job_workload_size(job);
    double t = 0, other = 0, in2 = 0, out2 = 0;
    if (*type && pl_profile_set_solo(s->ps, type, size, k, spread, &t) == PL_OK) {
        *out = t;
        return PL_OK;
    }
    pl_spread os = spread == PL_SPREAD_INTRA_SOCKET ? PL_SPREAD_INTER_SOCKET : PL_SPREAD_INTRA_SOCKET;
    if (*type && pl_profile_set_solo(s->ps, type, size, k, os, &other) == PL_OK) {
        double ratio = 1;
        if (pl_profile_set_solo(s->ps, type, size, 2, PL_SPREAD_INTRA_SOCKET, &in2) == PL_OK &&
            pl_profile_set_solo(s->ps, type, size, 2, PL_SPREAD_INTER_SOCKET, &out2) == PL_OK)
            ratio = spread == PL_SPREAD_INTER_SOCKET ? out2 / in2 : in2 / out2;
        *out = other * ratio;
        return PL_OK;
    }
    if (pl_job_duration(job) > 0) {
        *out = pl_job_duration(job);
        return PL_OK;
    }
    return pl_err(PL_EINVAL, "simulator: job %s (%s/%s, %d GPUs) has no profiled solo time and no "
                  "duration", pl_job_name(job), type, size, (int)k);
}

/* Largest slowdown of job i against a job on one of its sockets (>= 1). */
static pl_status interference(srun *r, int32_t i, double *slow)
{
    sjob *a = &r->j[i];
    double worst = 1;
    for (int32_t q = 0; q < a->nsock; q++) {
        int32_t sk = a->sockets[q];
        for (int32_t m = 0; m < r->sock_n[sk]; m++) {
            int32_t o = r->sock_jobs[sk][m];
            if (o == i)
                continue;
            const pl_job *b = r->j[o].job;
            double sd = 1;
            pl_status st = pl_profile_set_slowdown(r->s->ps, pl_job_workload_type(a->job),
                                                   pl_job_workload_size(a->job), a->k,
                                                   pl_job_workload_type(b), pl_job_workload_size(b),
                                                   r->j[o].k, &sd);
            if (st)
                return st;
            if (sd > worst)
                worst = sd;
        }
    }
    *slow = worst;
    return PL_OK;
}

/* Bring job i's progress up to time t at its old speed, take the new speed
 * and schedule its finish. */
static pl_status reschedule(srun *r, int32_t i, double t)
{
    sjob *a = &r->j[i];
    if (r->s->opts.runtime == PL_SIM_RUNTIME_ARTIFACT) {
        double sd;
        pl_status st = interference(r, i, &sd);
        if (st)
            return st;
        if (sd <= a->slow && a->version > 0)
            return PL_OK;
        if (sd > a->slow)
            a->slow = sd;
        double total = a->intra * a->slow > a->solo ? a->intra * a->slow : a->solo;
        a->version++;
        return pl_sim_heap_push(&r->heap, a->start + total, PL_SIM_EV_FINISH, i, a->version);
    }
    a->remaining -= (t - a->last) / (a->solo * a->slow);
    if (a->remaining < 0)
        a->remaining = 0;
    a->last = t;
    pl_status st = interference(r, i, &a->slow);
    if (st)
        return st;
    a->version++;
    return pl_sim_heap_push(&r->heap, t + a->remaining * a->solo * a->slow, PL_SIM_EV_FINISH, i,
                            a->version);
}

/* Reschedule every running job sharing a socket with job i (and i itself
 * when include_self). */
static pl_status update_neighbours(srun *r, int32_t i, double t, int include_self)
{
    r->mark_gen++;
    r->mark[i] = r->mark_gen;
    sjob *a = &r->j[i];
    for (int32_t q = 0; q < a->nsock; q++) {
        int32_t sk = a->sockets[q];
        for (int32_t m = 0; m < r->sock_n[sk]; m++) {
            int32_t o = r->sock_jobs[sk][m];
            if (r->mark[o] == r->mark_gen)
                continue;
            r->mark[o] = r->mark_gen;
            pl_status st = reschedule(r, o, t);
            if (st)
                return st;
        }
    }
    return include_self ? reschedule(r, i, t) : PL_OK;
}

static pl_status want_round(srun *r, double t)
{
    if (r->round_pending || r->nqueue == 0)
        return PL_OK;
    double tick = ceil(t / r->interval) * r->interval;
    if (tick < t)
        tick += r->interval;
    r->round_pending = 1;
    return pl_sim_heap_push(&r->heap, tick, PL_SIM_EV_ROUND, -1, 0);
}

static pl_status start_job(srun *r, int32_t i, const pl_decision_info *info, double t)
{
    sjob *a = &r->j[i];
    pl_sim_job_record *rec = &r->res->rec[i];
    const pl_sim *s = r->s;
    if (info->ngpus != a->k)
        return pl_err(PL_EINTERNAL, "simulator: job %s placed on %d GPUs, wants %d",
                      pl_job_name(a->job), (int)info->ngpus, (int)a->k);
    /* The allocation check: no GPU is ever held by two jobs. */
    for (int32_t g = 0; g < a->k; g++) {
        int32_t v = info->gpus[g];
        if (v < 0 || v >= s->nvert || s->gpu_socket[v] < 0)
            return pl_err(PL_EINTERNAL, "simulator: job %s placed on vertex %d, not a GPU",
                          pl_job_name(a->job), (int)v);
        if (r->owner[v] >= 0) {
            char path[256];
            if (pl_topology_path_name(r->topo, v, path, sizeof path))
                snprintf(path, sizeof path, "vertex %d", (int)v);
            return pl_err(PL_EINTERNAL, "simulator: GPU %s given to job %s is already held by job %s",
                          path, pl_job_name(a->job), pl_job_name(r->j[r->owner[v]].job));
        }
    }
    pl_status st = pl_plan_build(r->topo, a->job, info->gpus, a->k, &a->plan, &a->nplan);
    if (st)
        return st;
    if (!pl_plan_fits(r->topo, a->plan, a->nplan, 0))
        return pl_err(PL_EINTERNAL, "simulator: job %s was given resources that are not free",
                      pl_job_name(a->job));
    if ((st = pl_plan_alloc(r->topo, a->plan, a->nplan)))
        return st;
    pl_sim_metrics_plan(r, a->plan, a->nplan, +1);
    if (!(a->gpus = pl_alloc((size_t)a->k, sizeof *a->gpus)) ||
        !(a->sockets = pl_alloc((size_t)a->k, sizeof *a->sockets)))
        return PL_ENOMEM;
    int32_t machine = s->gpu_machine[info->gpus[0]];
    for (int32_t g = 0; g < a->k; g++) {
        int32_t v = info->gpus[g], sk = s->gpu_socket[v];
        a->gpus[g] = v;
        r->owner[v] = i;
        if (s->gpu_machine[v] != machine)
            machine = -1;
        int dup = 0;
        for (int32_t q = 0; q < a->nsock; q++)
            dup |= a->sockets[q] == sk;
        if (!dup)
            a->sockets[a->nsock++] = sk;
    }
    for (int32_t q = 0; q < a->nsock; q++)
        if ((st = sock_add(r, a->sockets[q], i)))
            return st;
    pl_spread spread = a->nsock == 1 ? PL_SPREAD_INTRA_SOCKET : PL_SPREAD_INTER_SOCKET;
    if ((st = solo_time(s, a->job, a->k, spread, &a->solo)))
        return st;
    /* Ideal: the best spread this machine allows (several machines: any). */
    int32_t per_socket = 0;
    for (int32_t m = 0; m < s->nmachines; m++)
        if ((machine < 0 || m == machine) && s->machine_socket_max[m] > per_socket)
            per_socket = s->machine_socket_max[m];
    pl_spread best = a->k <= per_socket ? PL_SPREAD_INTRA_SOCKET : PL_SPREAD_INTER_SOCKET;
    if ((st = solo_time(s, a->job, a->k, best, &rec->ideal_time)))
        return st;
    if (s->opts.runtime == PL_SIM_RUNTIME_ARTIFACT &&
        (st = solo_time(s, a->job, a->k, PL_SPREAD_INTRA_SOCKET, &a->intra)))
        return st;
    a->start = t;
    a->version = 0;
    a->running = 1;
    a->remaining = 1;
    a->last = t;
    a->slow = 1;
    r->running[r->nrunning++] = i;
    rec->start = t;
    rec->wait = t - rec->arrival;
    rec->utility = info->utility;
    rec->below_min_utility = info->utility < rec->min_utility;
    rec->cross_socket = a->nsock > 1;
    rec->machine = machine;
    return update_neighbours(r, i, t, 1);
}

static pl_status finish_job(srun *r, int32_t i, double t)
{
    sjob *a = &r->j[i];
    pl_sim_job_record *rec = &r->res->rec[i];
    for (int32_t p = 0; p < a->nplan; p++) {
        pl_status st = pl_topology_release(r->topo, a->plan[p].v, a->plan[p].res, a->plan[p].amount);
        if (st)
            return st;
    }
    pl_sim_metrics_plan(r, a->plan, a->nplan, -1);
    for (int32_t g = 0; g < a->k; g++)
        r->owner[a->gpus[g]] = -1;
    for (int32_t q = 0; q < a->nsock; q++)
        remove_id(r->sock_jobs[a->sockets[q]], &r->sock_n[a->sockets[q]], i);
    remove_id(r->running, &r->nrunning, i);
    a->running = 0;
    rec->state = PL_SIM_DONE;
    rec->finish = t;
    rec->run_time = t - rec->start;
    rec->slowdown = rec->ideal_time > 0 ? rec->run_time / rec->ideal_time : 1;
    return update_neighbours(r, i, t, 0);
}

static pl_status record_time(pl_sim_result *res, double dt)
{
    pl_status st = pl_grow((void **)&res->dtimes, &res->capdtimes, res->ndtimes + 1,
                           sizeof *res->dtimes);
    if (!st)
        res->dtimes[res->ndtimes++] = dt;
    return st;
}

static pl_status do_round(srun *r, double t)
{
    r->round_pending = 0;
    if (r->nqueue == 0)
        return PL_OK;
    pl_status st = PL_OK;
    pl_job **queue = pl_alloc((size_t)r->nqueue, sizeof *queue);
    pl_running_job *run = pl_alloc((size_t)r->nrunning + 1, sizeof *run);
    pl_decision *d = NULL;
    if (!queue || !run) {
        st = PL_ENOMEM;
        goto done;
    }
    for (int32_t q = 0; q < r->nqueue; q++)
        queue[q] = (pl_job *)r->j[r->queue[q]].job;
    for (int32_t q = 0; q < r->nrunning; q++) {
        sjob *a = &r->j[r->running[q]];
        run[q] = (pl_running_job){a->job, a->gpus, a->k};
    }
    double t0 = pl_now();
    st = pl_policy_place(&r->s->opts.policy, r->topo, run, r->nrunning, queue, r->nqueue, &d);
    double dt = pl_now() - t0;
    if (st || (st = record_time(r->res, dt)))
        goto done;
    int32_t kept = 0, nq = r->nqueue;
    for (int32_t q = 0; q < nq && !st; q++) {
        int32_t i = r->queue[q];
        pl_decision_info info;
        if ((st = pl_decision_get(d, q, &info)))
            break;
        if (info.kind == PL_DECISION_PLACED)
            st = start_job(r, i, &info, t);
        else if (info.kind == PL_DECISION_REJECTED)
            r->res->rec[i].state = PL_SIM_REJECTED;
        else
            r->queue[kept++] = i;
    }
    if (!st)
        r->nqueue = kept;
done:
    pl_decision_free(d);
    free(queue);
    free(run);
    return st;
}

static pl_status run_events(srun *r)
{
    pl_sim_event e;
    double t0;
    pl_status st = pl_sim_heap_peek(&r->heap, &t0) ? pl_sim_metrics_sample(r, t0) : PL_OK;
    while (!st && pl_sim_heap_pop(&r->heap, &e)) {
        switch (e.kind) {
        case PL_SIM_EV_ARRIVAL:
            r->queue[r->nqueue++] = e.job;
            st = want_round(r, e.time);
            break;
        case PL_SIM_EV_FINISH:
            if (!r->j[e.job].running || r->j[e.job].version != e.version)
                break;
            if (!(st = finish_job(r, e.job, e.time)))
                st = want_round(r, e.time);
            break;
        default:
            st = do_round(r, e.time);
            break;
        }
        if (!st)
            st = pl_sim_metrics_sample(r, e.time);
    }
    return st;
}

static void run_free(srun *r)
{
    if (r->j)
        for (int32_t i = 0; i < r->s->njobs; i++) {
            free(r->j[i].gpus);
            free(r->j[i].sockets);
            free(r->j[i].plan);
        }
    free(r->j);
    if (r->sock_jobs)
        for (int32_t q = 0; q < r->s->nsockets; q++)
            free(r->sock_jobs[q]);
    free(r->sock_jobs);
    free(r->sock_n);
    free(r->sock_cap);
    free(r->owner);
    free(r->queue);
    free(r->running);
    free(r->mark);
    pl_sim_heap_free(&r->heap);
    pl_sim_metrics_free(r);
    pl_topology_free(r->topo);
}

static pl_status run_init(pl_sim *s, srun *r)
{
    size_t nj = (size_t)s->njobs + 1, ns = (size_t)s->nsockets + 1;
    r->s = s;
    r->interval = s->opts.interval;
    pl_status st = pl_topology_copy(s->topo, &r->topo);
    if (st)
        return st;
    if (!(r->j = pl_alloc(nj, sizeof *r->j)) || !(r->owner = pl_alloc((size_t)s->nvert + 1, sizeof *r->owner)) ||
        !(r->sock_jobs = pl_alloc(ns, sizeof *r->sock_jobs)) || !(r->sock_n = pl_alloc(ns, sizeof *r->sock_n)) ||
        !(r->sock_cap = pl_alloc(ns, sizeof *r->sock_cap)) || !(r->queue = pl_alloc(nj, sizeof *r->queue)) ||
        !(r->running = pl_alloc(nj, sizeof *r->running)) || !(r->mark = pl_alloc(nj, sizeof *r->mark)))
        return PL_ENOMEM;
    for (int32_t v = 0; v < s->nvert; v++)
        r->owner[v] = -1;
    if ((st = pl_sim_metrics_init(r)))
        return st;
    for (int32_t i = 0; i < s->njobs; i++) {
        const pl_job *job = pl_jobset_get(s->jobs, i);
        r->j[i].job = job;
        r->j[i].k = pl_job_task_count(job);
        pl_sim_job_record *rec = &r->res->rec[i];
        rec->job = i;
        rec->name = pl_job_name(job);
        rec->state = PL_SIM_UNFINISHED;
        rec->ngpus = r->j[i].k;
        rec->arrival = pl_job_arrival(job);
        rec->start = rec->finish = -1;
        rec->min_utility = pl_job_min_utility(job);
        rec->machine = -1;
        if ((st = pl_sim_heap_push(&r->heap, rec->arrival, PL_SIM_EV_ARRIVAL, i, 0)))
            return st;
    }
    return PL_OK;
}

pl_status pl_sim_run(pl_sim *s, pl_sim_result **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_sim_run: NULL out");
    *out = NULL;
    if (!s)
        return pl_err(PL_EINVAL, "pl_sim_run: NULL simulator");
    const pl_policy_ops *ops;
    pl_status st = pl_policy_find(s->opts.policy.policy ? s->opts.policy.policy : "topo-aware", &ops);
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
    run_free(&r);
    if (!st)
        st = pl_sim_summarise(s, res);
    if (st) {
        pl_sim_result_free(res);
        return st;
    }
    res->sum.wall_time = pl_now() - t0;
    *out = res;
    return PL_OK;
}

