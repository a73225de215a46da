/* "drmaestro" and "drmaestro-na" (seed 004) behind the policy interface:
 * each call is one pl_drm_round() over the queue, read back as decisions.
 * An instance (pl_policy_create(), a pl_sched handle, a simulator run)
 * keeps one pl_drm for its life, so the waiting counters W, the kept flow
 * networks and NA's postponements carry over from round to round as in the
 * paper's loop; a one-shot pl_policy_place() starts from W = 0. A queued
 * job is known across rounds by its handle (the same pl_job pointer) while
 * it waits (waiter_of(): a job that leaves the queue and comes back, or a
 * new job at a freed one's address, starts afresh).
 * A task's cores and memory go to the machine phase 1 chose, its GPU
 * wherever phase 2 found it (a remote GPU: disaggregation); a task that
 * asks for no GPU gets none (-1 in the decision). Each job's expected time
 * phi is its profiled solo time (or duration), its goal tau its SLO or else
 * phi, its network sensitivity the table of pl_drm_network_factors(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/drmaestro.h>
#include "internal/policy_impl.h"
#include "internal/drm_impl.h"
#include "internal/job_impl.h"
#include "internal/interference_impl.h"

static const char *why(pl_drm_outcome o)
{
    switch (o) {
    case PL_DRM_NO_CPU: return "drmaestro: a task found no machine with the cores and memory (phase 1)";
    case PL_DRM_NO_GPU: return "drmaestro: not all GPUs could be placed (phase 2, gang rule)";
    case PL_DRM_NO_NVME: return "drmaestro: not all NVMe shares could be placed (phase 3, gang rule)";
    default: return "drmaestro: postponed, no placement meets the job's SLO at this network load";
    }
}

/* Decision for one placed job, one entry per task of the job the policy
 * was given (a slot of a task of several GPUs, first[]: regroup()): a
 * task's GPUs on its entries in turn (-1 for a task that asks for none;
 * its host is then the package where its cores start), the machine
 * holding every host (-1 when they span machines or a GPU is in a pool),
 * the GPUs serving a task whose cores are on another machine (remote),
 * Eq. (3) over the GPUs (-1 when two of them have no link path) and the
 * utility Ut of Eq. 6. */
static pl_status placed(const pl_policy_request *req, const pl_drm_job_request *q, const int32_t *first,
                        const pl_drm_placement *p, pl_drm_cons *cons, pl_decision *out, int32_t i, int *ok)
{
    *ok = 0;
    const int32_t nt = pl_job_task_count(q->job), k = first ? first[nt] : nt;
    int32_t *g = pl_alloc((size_t)k + 1, sizeof *g), *gl = pl_alloc((size_t)p->gpus + 1, sizeof *gl);
    int32_t *next = pl_alloc((size_t)nt + 1, sizeof *next), *task_of = pl_alloc((size_t)k + 1, sizeof *task_of);
    int64_t *dist = pl_alloc((size_t)p->gpus * (size_t)p->gpus + 1, sizeof *dist);
    pl_status st = !g || !gl || !dist || !next || !task_of ? PL_ENOMEM : PL_OK;
    for (int32_t t = 0; t < nt && !st; t++) {
        next[t] = first ? first[t] : t;
        for (int32_t e = next[t]; e < (first ? first[t + 1] : t + 1); e++)
            task_of[e] = t;
    }
    for (int32_t e = 0; e < k && !st; e++)
        g[e] = -1;
    int32_t machine = -2, remote = 0;
    for (int32_t x = 0; x < p->gpus && !st; x++) {
        int32_t tm = -1, gm = -1, task = p->gpu[x].task;
        g[next[task]++] = gl[x] = p->gpu[x].gpu;
        if ((st = pl_topology_ancestor(req->topo, gl[x], PL_VK_MACHINE, &gm)) == PL_ENOTFOUND)
            st = PL_OK; /* a pool's GPU */
        if (!st && p->machine[task] >= 0 &&
            (st = pl_topology_ancestor(req->topo, p->machine[task], PL_VK_MACHINE, &tm)) == PL_ENOTFOUND)
            st = PL_OK;
        remote += gm != tm || gm < 0;
    }
    /* A task without a GPU runs where its cores are: the first package of
     * its machine, where pl_plan_build_spread starts taking them. */
    int32_t *host = pl_alloc((size_t)k + 1, sizeof *host);
    if (!host && !st)
        st = PL_ENOMEM;
    for (int32_t e = 0; e < k && !st; e++) {
        int32_t c = 0, pkg = -1, t = task_of[e];
        host[e] = g[e];
        if (g[e] < 0 && (st = pl_topology_descendants(req->topo, p->machine[t], PL_VK_PACKAGE, &pkg, 1, &c)) ==
                            PL_ELIMIT)
            st = PL_OK;
        if (!st && g[e] < 0 && c == 0)
            st = pl_err(PL_EINTERNAL, "drmaestro: task %d of job %d is on a machine without a package", t, i);
        if (g[e] < 0)
            host[e] = pkg;
        int32_t m = -1;
        if (!st && pl_topology_ancestor(req->topo, host[e], PL_VK_MACHINE, &m))
            m = -1; /* a pool's GPU */
        machine = machine == -2 || machine == m ? m : -1;
    }
    pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = g, .machine = machine,
                             .slowdown = 1, .reason = "", .hosts = host};
    const char *broken = NULL;
    if (!st)
        st = pl_drm_cons_accept(cons, i, g, &broken);
    if (!st && broken) {
        pl_decision_info w = {.kind = PL_DECISION_WAITING, .machine = -1, .slowdown = 1, .reason = broken};
        st = pl_decision_set(out, i, &w);
    } else {
        if (!st)
            st = pl_topology_distance_matrix(req->topo, gl, p->gpus, dist);
        int connected = 1;
        for (int64_t x = 0; x < (int64_t)p->gpus * p->gpus && !st; x++)
            connected &= dist[x] >= 0;
        if (!st && connected)
            st = pl_comm_cost(dist, p->gpus, &info.comm_cost);
        else if (!st)
            info.comm_cost = -1;
        if (!st) {
            info.utility = q->tau > 0 ? pl_drm_utility(q->phi, q->tau, 1) : 1; /* no goal: met */
            st = pl_decision_set(out, i, &info);
        }
        if (!st)
            st = pl_decision_set_remote(out, i, remote);
        *ok = st == PL_OK;
    }
    free(host);
    free(g);
    free(gl);
    free(dist);
    free(next);
    free(task_of);
    return st;
}

/* A slot job (job_slots.c) regrouped as DRMaestro's own model has it: one
 * task T(k,m) per task of the user's job (pl_job::slot_of), with its k GPU
 * sub-tasks G(k,m,z), so phase 1 gives the task one machine and phase 2
 * its k GPUs, which the co-location filter holds on that machine
 * (drmaestro_coloc.c). A task is its first slot's demand (which carries
 * the task's cores, memory and bandwidth) with its k GPUs. *out gets the
 * regrouped job, *first_out [tasks + 1] the first slot of each task and
 * the slot count; both NULL for a job that is no slot job. */
static pl_status regroup(const pl_job *slot, pl_job **out, int32_t **first_out)
{
    *out = NULL;
    *first_out = NULL;
    if (!pl_job_is_slot_job(slot))
        return PL_OK;
    const pl_job *user = slot->slot_of;
    const int32_t nt = pl_job_task_count(user);
    int32_t *first = pl_alloc((size_t)nt + 1, sizeof *first), f = 0;
    pl_job *m = NULL;
    pl_status st = first ? pl_job_create(pl_job_name(slot), &m) : PL_ENOMEM;
    for (int32_t t = 0; t < nt && !st; t++) {
        pl_task_demand u, d;
        if (!(st = pl_job_task(user, t, &u)) && !(st = pl_job_task(slot, f, &d))) {
            d.gpus = u.gpus > 1 ? u.gpus : d.gpus;
            first[t] = f;
            f += u.gpus > 1 ? (int32_t)u.gpus : 1;
            st = pl_job_add_task(m, &d, NULL);
        }
    }
    if (!st && f != pl_job_task_count(slot))
        st = pl_err(PL_EINTERNAL, "drmaestro: job \"%s\" has %d slots, its tasks %d", pl_job_name(slot),
                    (int)pl_job_task_count(slot), (int)f);
    if (!st)
        st = pl_job_copy_goals(slot, m);
    if (st) {
        pl_job_free(m);
        free(first);
        return st;
    }
    first[nt] = f;
    *out = m;
    *first_out = first;
    return PL_OK;
}

/* The largest cores and memory of one machine, and the GPUs of the
 * cluster: a job beyond them can never be placed. */
typedef struct cluster_max {
    int64_t cores, memory, gpus;
} cluster_max;

static void measure(const pl_topology *t, cluster_max *m)
{
    *m = (cluster_max){0};
    for (int32_t v = 0; v < pl_topology_vertex_count(t); v++) {
        pl_vertex_info vi;
        if (pl_topology_vertex(t, v, &vi))
            continue;
        if (vi.kind == PL_VK_GPU)
            m->gpus++;
        else if (vi.kind == PL_VK_MACHINE) {
            int64_t c = 0, mem = 0;
            pl_topology_subtree_amount(t, v, -1, PL_RES_CORES, &c, NULL);
            pl_topology_subtree_amount(t, v, -1, PL_RES_MEMORY, &mem, NULL);
            m->cores = c > m->cores ? c : m->cores;
            m->memory = mem > m->memory ? mem : m->memory;
        }
    }
}

/* Why the policy refuses the job outright, or NULL. */
static const char *refusal(const pl_job *job, const cluster_max *m)
{
    if (pl_job_task_count(job) == 0)
        return "the job has no tasks";
    if (pl_job_gpu_model(job)[0])
        return "drmaestro does not choose GPUs by model (a GPU model is required)";
    int64_t gpus = 0;
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) != PL_OK)
            continue;
        if (d.gpu_milli > 0)
            return "drmaestro does not share GPUs (a task asks for a fraction of one)";
        if (d.cores > m->cores || d.memory > m->memory)
            return "a task asks for more cores or memory than any machine has";
        gpus += d.gpus;
    }
    return gpus > m->gpus ? "the job asks for more GPUs than the cluster has" : NULL;
}

/* Decision i takes what DRMaestro took for it: a task's cores and memory on
 * its machine (not its GPU's package, policy.h's rule), so the decision
 * carries that plan, and work takes it so the next decision sees it. */
static pl_status attach_plan(pl_topology *work, const pl_job *job, const pl_drm_placement *p,
                             pl_decision *out, int32_t i)
{
    int32_t *gpus = pl_alloc((size_t)p->gpus + 1, sizeof *gpus);
    int32_t *gpu_task = pl_alloc((size_t)p->gpus + 1, sizeof *gpu_task);
    pl_plan_item *items = NULL;
    int32_t n = 0, short_task = -1;
    pl_status st = gpus && gpu_task ? PL_OK : PL_ENOMEM;
    for (int32_t x = 0; x < p->gpus && !st; x++) {
        gpus[x] = p->gpu[x].gpu;
        gpu_task[x] = p->gpu[x].task;
    }
    if (!st)
        st = pl_plan_build_spread(work, job, p->machine, gpu_task, gpus, p->gpus, &items, &n, &short_task);
    if (!st && (short_task >= 0 || !pl_plan_fits(work, items, n, 0)))
        st = pl_err(PL_EINTERNAL, "drmaestro: job %d does not fit where the flow put it", (int)i);
    if (!st)
        st = pl_plan_alloc(work, items, n);
    if (!st)
        st = pl_decision_set_plan(out, i, items, n);
    free(items);
    free(gpus);
    free(gpu_task);
    return st;
}

/* ---- the instance ---------------------------------------------------------------- */

typedef struct drm_state {
    pl_drm *drm;
    int32_t max_postpone;
    pl_profile_set *owned_ps;   /* the built-in profiles when the options give none */
    /* The jobs waiting in the queue, by handle (waiter_of()): a copy of the
     * job as first queued, and its drm_waiter (aux). */
    pl_keep waiting;
    int64_t next_id;    /* the request id the next new waiting job gets */
    int network_aware;
    int local_only;     /* no disaggregation: a task's GPUs on its own machine */
    /* Per topology vertex: 1 + the id of the job this instance last placed
     * on that GPU, 0 none. The scheduler shows running jobs as copies of
     * the queued ones, so a running job is recognised by its GPUs. */
    int64_t *gpu_owner;
    int64_t nowner;
    int32_t kept;       /* running jobs the last round kept in the networks */
    /* Slot jobs regrouped (regroup()), by their serial: the engine shows a
     * waiting job the same slot job round after round (slot_cache.c). */
    pl_keep regrouped;
} drm_state;

int32_t pl_drm_policy_kept(const void *state)
{
    return state ? ((const drm_state *)state)->kept : 0;
}

static void drm_state_free(void *state)
{
    drm_state *s = state;
    if (!s)
        return;
    pl_drm_free(s->drm);
    pl_profile_set_free(s->owned_ps);
    pl_keep_free(&s->waiting);
    free(s->gpu_owner);
    pl_keep_free(&s->regrouped);
    free(s);
}

/* pl_policy_ops::data of the DRMaestro policies: these bits. */
enum { DRM_NA = 1, DRM_LOCAL = 2 };

static pl_status drm_state_make(const pl_policy_opts *opts, int flags, void **out)
{
    drm_state *s = pl_alloc(1, sizeof *s);
    if (!s)
        return PL_ENOMEM;
    pl_drm_opts o;
    pl_drm_opts_init(&o);
    o.network_aware = (flags & DRM_NA) != 0;
    s->max_postpone = o.max_postpone;
    s->network_aware = (flags & DRM_NA) != 0;
    s->local_only = (flags & DRM_LOCAL) != 0;
    pl_status st = pl_drm_create(&o, &s->drm);
    if (!st && !opts->profiles)
        st = pl_profile_set_builtin(&s->owned_ps);
    if (st) {
        drm_state_free(s);
        return st;
    }
    *out = s;
    return PL_OK;
}

/* data: the policy's DRM_NA and DRM_LOCAL bits. */
static pl_status create(const pl_policy_opts *opts, const void *data, void **state)
{
    return drm_state_make(opts, *(const int *)data, state);
}

static int32_t idle_rounds(const void *state)
{
    /* W grows and NA postpones a job at most max_postpone rounds: after
     * that many rounds with nothing changed, the decisions are final. */
    return ((const drm_state *)state)->max_postpone + 1;
}

/* Grow *a (*n entries) to at least want entries (doubling, 64 at first),
 * the new ones zero. */
static pl_status grow_zeroed(int64_t **a, int64_t *n, int64_t want)
{
    if (want <= *n)
        return PL_OK;
    int64_t m = *n ? 2 * *n : 64;
    m = m > want ? m : want;
    int64_t *g = realloc(*a, (size_t)m * sizeof *g);
    if (!g)
        return PL_ENOMEM;
    memset(g + *n, 0, (size_t)(m - *n) * sizeof *g);
    *a = g;
    *n = m;
    return PL_OK;
}

/* A waiting job's record: its request id (the key of its W and of its
 * nodes in pl_drm) and the rounds the co-location filter postponed it. */
typedef struct drm_waiter {
    int64_t id, age;
    const pl_job *key;  /* the handle it waits under */
} drm_waiter;

/* The record of queued job (a slot job's origin: the user's job), borrowed
 * until the end of the call: the one kept since the job was last queued
 * when it is still that job, else a new one under the next id. A handle
 * proves nothing (the caller may free a job and make another that malloc
 * puts at its address), so a record lives only while its job waits: it
 * goes at the end of a call that did not queue it (pl_keep) or that placed
 * it (forget_waiter()), and one is reused only for a job equal to the copy
 * taken when it was made (pl_job_same_slots, as slot_cache.c does). */
static pl_status waiter_of(drm_state *s, const pl_job *job, drm_waiter **out)
{
    pl_keep_entry *e;
    pl_status st = pl_keep_find(&s->waiting, (int64_t)(intptr_t)job, &e);
    if (!st && e->job && pl_job_same_slots(e->job, job)) {
        *out = e->aux;
        return PL_OK;
    }
    pl_job *seen = NULL;
    drm_waiter *w = NULL;
    if (!st)
        st = pl_job_copy(job, &seen);
    if (!st && !(w = pl_alloc(1, sizeof *w)))
        st = PL_ENOMEM;
    if (st) {
        pl_job_free(seen);
        return st;
    }
    *w = (drm_waiter){.id = s->next_id++, .key = job};
    if ((st = pl_keep_set(&s->waiting, e, seen, w))) /* w freed */
        return st;
    *out = w;
    return PL_OK;
}

/* A placed job leaves the queue: its record goes at the end of the call
 * (w stays valid until then), so the id it ran under is never a waiting
 * job's again, whatever the caller queues under its handle next. */
static pl_status forget_waiter(drm_state *s, const drm_waiter *w)
{
    pl_keep_entry *e;
    pl_status st = pl_keep_find(&s->waiting, (int64_t)(intptr_t)w->key, &e);
    return st ? st : pl_keep_set(&s->waiting, e, NULL, NULL);
}

/* The id of a running job this instance placed: the owner of all its GPUs
 * (one GPU per task, none shared); 0 if it has none or they disagree. */
static int running_id(const drm_state *s, const pl_running_job *rj, int64_t *id)
{
    int64_t o = 0;
    for (int32_t g = 0; g < rj->ngpus; g++) {
        int32_t v = rj->gpus[g];
        int64_t w = v >= 0 && v < s->nowner ? s->gpu_owner[v] : 0;
        if (!w || (o && w != o))
            return 0;
        o = w;
    }
    *id = o - 1;
    return o > 0;
}

/* Record a placed decision's GPUs as the job's. */
static pl_status own_gpus(drm_state *s, const pl_topology *topo, int64_t id, const pl_drm_placement *p)
{
    int32_t nv = pl_topology_vertex_count(topo);
    if (grow_zeroed(&s->gpu_owner, &s->nowner, nv))
        return PL_ENOMEM;
    for (int32_t x = 0; x < p->gpus; x++)
        if (p->gpu[x].gpu >= 0 && p->gpu[x].gpu < nv)
            s->gpu_owner[p->gpu[x].gpu] = id + 1;
    return PL_OK;
}

/* regroup(), once per slot job the engine keeps (its serial names it in
 * this instance, unchanged: pl_job_slot_serial), borrowed until the end of
 * the round; a slot job made for this call only (serial 0) is regrouped
 * anew, *owned = 1: the caller frees *out and *first_out. */
static pl_status regroup_kept(drm_state *s, const pl_job *slot, pl_job **out, int32_t **first_out, int *owned)
{
    int64_t serial = pl_job_slot_serial(slot);
    *owned = serial == 0;
    if (*owned)
        return regroup(slot, out, first_out);
    *out = NULL;
    *first_out = NULL;
    pl_keep_entry *e;
    pl_status st = pl_keep_find(&s->regrouped, serial, &e); /* aux: first[], free()d */
    if (!st && !e->job) {
        pl_job *m = NULL;
        int32_t *first = NULL;
        if (!(st = regroup(slot, &m, &first)))
            st = pl_keep_set(&s->regrouped, e, m, first);
    }
    if (!st) {
        *out = e->job;
        *first_out = e->aux;
    }
    return st;
}

/* Algorithm 5 keeps a running job's tasks in the networks until it
 * completes: the running jobs this instance placed go to the round after
 * the queued ones (pl_drm_job_request.running), from reqs[nreq] on. The
 * scheduler shows the policies only jobs holding a GPU, so a CPU-only job
 * (the scenario's warm-up) leaves the networks when placed; that changes
 * no decision (doc/drmaestro.md). */
static pl_status add_running(const pl_policy_request *req, drm_state *s, pl_drm_job_request *reqs,
                             int32_t nreq, pl_job **regrouped, uint8_t *owned, int32_t *count)
{
    int32_t n = nreq;
    pl_status st = PL_OK;
    for (int32_t i = 0; i < req->nrunning && !st; i++) {
        int64_t id;
        const pl_job *job = req->running[i].job;
        int32_t *first = NULL;
        int dup = 0, own = 0;
        if (!job || !running_id(s, &req->running[i], &id) ||
            (st = regroup_kept(s, job, &regrouped[i], &first, &own)))
            continue;
        owned[i] = (uint8_t)own;
        if (own)
            free(first);
        job = regrouped[i] ? regrouped[i] : job;
        if (!drm_kept(s->drm, id, job))
            continue;
        for (int32_t k = 0; k < n && !dup; k++)
            dup = reqs[k].id == id; /* queued again, or a GPU reused: not ours */
        if (!dup)
            reqs[n++] = (pl_drm_job_request){.id = id, .job = job, .running = 1};
    }
    s->kept = n - nreq;
    *count = n;
    return st;
}

/* Job j's request: phi its solo time on its GPUs packed on one socket, tau
 * its SLO or else phi (the thesis: "the SLO is defined as the task's
 * expected completion time"), its sensitivity to remote GPUs. A job with
 * no profile and no duration has no phi: it is scheduled without a goal
 * (phi 0, tau its SLO or 0), as DRMaestro treats a request without one. */
static void make_request(const pl_profile_set *ps, const pl_job *job, int64_t id, double *table,
                         pl_drm_job_request *q)
{
    static const double loads[2] = {0, 1};
    double phi = 0, slo = pl_job_slo(job);
    int known = pl_profile_solo_time(ps, job, pl_job_task_count(job), PL_SPREAD_INTRA_SOCKET, &phi) == PL_OK;
    pl_drm_network_factors(pl_job_workload_type(job), &table[0], &table[1]);
    *q = (pl_drm_job_request){.id = id, .job = job, .phi = known ? phi : 0,
                              .tau = slo > 0 ? slo : known ? phi : 0, .sensitivity = {2, loads, table}};
}

/* The GPU phase's filter: the job's constraints (when a queued job has
 * some; they are on the slots, first[req] maps a regrouped task to its
 * first slot) and the co-location filter. */
typedef struct admit_both {
    pl_drm_cons *cons;
    pl_drm_coloc *coloc;
    int32_t **first;
    int32_t nfirst;
} admit_both;

static int admit(void *ctx, int32_t req, int32_t task, int32_t provider)
{
    const admit_both *a = ctx;
    int32_t slot = req >= 0 && req < a->nfirst && a->first[req] ? a->first[req][task] : task;
    return (!a->cons || pl_drm_cons_admit(a->cons, req, slot, provider)) &&
           pl_drm_coloc_admit(a->coloc, req, task, provider);
}

/* Request r's GPUs after the co-location choice (*gpu, owned by the caller)
 * in a copy of its placement; *ok 0: it would still miss its goal. */
static pl_status coloc_gpus(const pl_topology *topo, pl_drm *drm, pl_drm_coloc *k, int32_t r, int32_t nreq,
                            pl_drm_placement *p, pl_drm_gpu **gpu, int *ok)
{
    int32_t nother = 0;
    for (int32_t q = r + 1; q < nreq; q++) {
        const pl_drm_placement *o = pl_drm_result(drm, q);
        nother += o && o->outcome == PL_DRM_PLACED ? o->gpus : 0;
    }
    int32_t *g = pl_alloc((size_t)p->gpus + 1, sizeof *g), *other = pl_alloc((size_t)nother + 1, sizeof *other);
    int32_t *home = pl_alloc((size_t)p->gpus + 1, sizeof *home);
    *gpu = pl_alloc((size_t)p->gpus + 1, sizeof **gpu);
    if (!g || !other || !home || !*gpu) {
        free(g);
        free(other);
        free(home);
        return PL_ENOMEM;
    }
    nother = 0;
    for (int32_t q = r + 1; q < nreq; q++) {
        const pl_drm_placement *o = pl_drm_result(drm, q);
        for (int32_t x = 0; o && o->outcome == PL_DRM_PLACED && x < o->gpus; x++)
            other[nother++] = o->gpu[x].gpu;
    }
    for (int32_t x = 0; x < p->gpus; x++) {
        g[x] = p->gpu[x].gpu;
        if (pl_topology_ancestor(topo, p->machine[p->gpu[x].task], PL_VK_MACHINE, &home[x]) != PL_OK)
            home[x] = -1;
    }
    *ok = pl_drm_coloc_choose(k, r, g, home, p->gpus, other, nother) == 0;
    for (int32_t x = 0; x < p->gpus; x++)
        (*gpu)[x] = (pl_drm_gpu){.task = p->gpu[x].task, .gpu = g[x]};
    p->gpu = *gpu;
    free(g);
    free(other);
    free(home);
    return PL_OK;
}

static pl_status set_kind(pl_decision *out, int32_t i, pl_decision_kind kind, const char *reason)
{
    pl_decision_info info = {.kind = kind, .machine = -1, .slowdown = 1, .reason = reason};
    return pl_decision_set(out, i, &info);
}

static pl_status place_round(const pl_policy_request *req, drm_state *s, pl_decision *out)
{
    const int32_t n = req->nqueue;
    const pl_profile_set *ps = req->opts->profiles ? req->opts->profiles : s->owned_ps;
    pl_drm_cons *cons = NULL;
    pl_drm_coloc *coloc = NULL;
    pl_topology *work = NULL;
    drm_waiter **wait = pl_alloc((size_t)n + 1, sizeof *wait); /* request -> its record */
    pl_drm_job_request *reqs = pl_alloc((size_t)n + (size_t)req->nrunning + 1, sizeof *reqs);
    double *tables = pl_alloc(2 * (size_t)n + 1, sizeof *tables);
    int32_t *queue_index = pl_alloc((size_t)n + 1, sizeof *queue_index); /* request -> queue */
    /* request -> its slot job regrouped and the first slot of each task
     * (regroup_kept()), NULL; 1 where they are this round's to free */
    pl_job **regrouped = pl_alloc((size_t)n + (size_t)req->nrunning + 1, sizeof *regrouped);
    int32_t **first = pl_alloc((size_t)n + 1, sizeof *first);
    uint8_t *owned = pl_alloc((size_t)n + (size_t)req->nrunning + 1, sizeof *owned);
    pl_status st = !reqs || !tables || !queue_index || !wait || !regrouped || !first || !owned ? PL_ENOMEM : PL_OK;
    int32_t nreq = 0, nall = 0;
    cluster_max cm;
    s->kept = 0;
    measure(req->topo, &cm);
    if (!st)
        st = pl_topology_copy(req->topo, &work); /* pl_drm_round takes a mutable topology */
    if (!st)
        st = pl_drm_cons_create(req, &cons);
    if (!st)
        st = pl_drm_coloc_create(req, s->drm, n, &coloc);
    /* The constraints filter only when a queued job has constraints:
     * otherwise every provider admits every task. */
    admit_both both = {.cons = NULL, .coloc = coloc, .first = first, .nfirst = n};
    for (int32_t i = 0; i < n && !st; i++)
        if (pl_job_has_constraints(req->queue[i])) {
            both.cons = cons;
            break;
        }
    drm_set_admit(s->drm, admit, &both);
    for (int32_t i = 0; i < n && !st; i++) {
        const char *no = refusal(req->queue[i], &cm);
        if (!no)
            st = pl_drm_cons_refusal(cons, req->queue[i], &no);
        int own = 0;
        const pl_job *key = pl_job_is_slot_job(req->queue[i]) ? req->queue[i]->slot_of : req->queue[i];
        if (!st && !no && !(st = waiter_of(s, key, &wait[nreq])) &&
            !(st = regroup_kept(s, req->queue[i], &regrouped[nreq], &first[nreq], &own))) {
            owned[nreq] = (uint8_t)own;
            make_request(ps, req->queue[i], wait[nreq]->id, &tables[2 * nreq], &reqs[nreq]);
            reqs[nreq].job = regrouped[nreq] ? regrouped[nreq] : req->queue[i];
        }
        if (st)
            break;
        if (no)
            st = set_kind(out, i, PL_DECISION_REJECTED, no);
        else {
            pl_drm_cons_bind(cons, nreq, i);
            /* Plain DRMaestro expects a remote GPU's isolated slowdown (a
             * property of the resource), NA the one at the current load. */
            double sf = s->network_aware ? pl_drm_slowdown(&reqs[nreq].sensitivity, req->opts->network_load)
                                         : tables[2 * nreq];
            int level = (int)(wait[nreq]->age / (s->max_postpone > 0 ? s->max_postpone : 1));
            pl_drm_coloc_bind(coloc, nreq, reqs[nreq].job, s->max_postpone > 0 ? level : 2, sf, s->local_only);
            queue_index[nreq++] = i;
        }
    }
    if (!st && nreq > 0)
        st = add_running(req, s, reqs, nreq, regrouped + n, owned + n, &nall);
    /* Phase 1 counts GPUs (pl_drm_coloc_revise) only for a round with a
     * queued task of several GPUs: other rounds are decided as before. */
    for (int32_t r = 0; r < nreq && !st; r++)
        if (pl_job_has_multi_gpu(reqs[r].job)) {
            drm_set_revise(s->drm, pl_drm_coloc_revise, coloc);
            break;
        }
    if (!st && nreq > 0)
        st = pl_drm_round(s->drm, work, reqs, nall, req->opts->network_load, 0, NULL);
    int32_t nplaced = 0;
    for (int32_t r = 0; r < nreq && !st; r++) {
        const int32_t i = queue_index[r];
        const pl_drm_placement *p = pl_drm_result(s->drm, r);
        int over = req->opts->max_placed > 0 && nplaced >= req->opts->max_placed;
        if (!p)
            st = pl_err(PL_EINTERNAL, "drmaestro: no result for job %d", i);
        else if (p->outcome == PL_DRM_PLACED && over)
            st = set_kind(out, i, PL_DECISION_WAITING, "max_placed reached");
        else if (p->outcome == PL_DRM_PLACED) {
            int ok = 0;
            pl_drm_placement lp = *p;
            pl_drm_gpu *gpu = NULL;
            st = coloc_gpus(req->topo, s->drm, coloc, r, nreq, &lp, &gpu, &ok);
            if (!st && !ok)
                st = set_kind(out, i, PL_DECISION_POSTPONED,
                              "drmaestro: every free GPU's socket neighbours would make it miss its QoS goal");
            else if (!st && !(st = placed(req, &reqs[r], first[r], &lp, cons, out, i, &ok)) && ok)
                st = attach_plan(work, reqs[r].job, &lp, out, i);
            if (!st && ok)
                st = own_gpus(s, req->topo, wait[r]->id, &lp);
            if (!st && ok)
                st = forget_waiter(s, wait[r]);
            free(gpu);
            nplaced += !st && ok;
            wait[r]->age += !ok;
        } else {
            st = set_kind(out, i, p->outcome == PL_DRM_POSTPONED ? PL_DECISION_POSTPONED : PL_DECISION_WAITING,
                          why(p->outcome));
        }
    }
    /* The head of the queue (its first unplaced job), kept from a free GPU
     * by the filter while a later job was placed, was postponed: counting
     * only the head's, each round postpones one job at most, as the NA
     * policy's threshold assumes, and the head still moves on after
     * max_postpone such rounds. */
    for (int32_t r = 0; r < nreq && nplaced > 0 && !st; r++) {
        const pl_drm_placement *p = pl_drm_result(s->drm, r);
        if (p && p->outcome == PL_DRM_PLACED)
            continue;
        wait[r]->age += pl_drm_coloc_refused(coloc, r);
        break;
    }
    drm_set_admit(s->drm, NULL, NULL); /* cons and coloc die with this call */
    drm_set_revise(s->drm, NULL, NULL);
    pl_drm_coloc_free(coloc);
    for (int32_t r = 0; regrouped && owned && r < n + req->nrunning; r++)
        if (owned[r])
            pl_job_free(regrouped[r]);
    for (int32_t r = 0; first && owned && r < n; r++)
        if (owned[r])
            free(first[r]);
    pl_keep_end(&s->regrouped); /* the kept ones this round did not use go */
    pl_keep_end(&s->waiting);   /* and the jobs it did not queue, or placed */
    free(regrouped);
    free(first);
    free(owned);
    free(wait);
    free(reqs);
    free(tables);
    free(queue_index);
    pl_drm_cons_free(cons);
    pl_topology_free(work);
    return st;
}

static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    return place_round(req, req->state, out);
}

static const int locality_first = 0, network_aware = DRM_NA, local_only = DRM_LOCAL,
                 local_network_aware = DRM_NA | DRM_LOCAL;

/* The two policies differ in their name and the flag their state is made with. */
#define DRM_POLICY(sym, pname, pdescription, flag)                                                        \
    const pl_policy_ops sym = {.name = (pname), .description = (pdescription), .place = place,           \
                               .version = PL_POLICY_OPS_VERSION, .create = create,                       \
                               .destroy = drm_state_free, .idle_rounds = idle_rounds,                    \
                               .flags = PL_POLICY_CPU_JOBS, .data = &(flag)}

DRM_POLICY(pl_policy_drmaestro, "drmaestro",
           "DRMaestro (seed 004): multi-phase min-cost-flow placement, locality first; remote GPUs allowed",
           locality_first);

DRM_POLICY(pl_policy_drmaestro_na, "drmaestro-na",
           "DRMaestro network-aware: as drmaestro, remote placements costed at opts.network_load",
           network_aware);

DRM_POLICY(pl_policy_drmaestro_local, "drmaestro-local",
           "drmaestro without disaggregation: a task's GPUs on the machine of its cores (thesis Tables 9-10)",
           local_only);

DRM_POLICY(pl_policy_drmaestro_na_local, "drmaestro-na-local",
           "drmaestro-na without disaggregation: a task's GPUs on the machine of its cores", local_network_aware);
