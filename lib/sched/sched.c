/* The allocation lifecycle (placement/sched.h): a topology copy and the
 * records of the jobs committed on it, indexed by id. A record keeps the
 * resource plan its commit allocated, so a release gives back exactly that,
 * whatever the topology's capacities say by then. */
#include <stdlib.h>
#include <string.h>
#include <placement/sched.h>
#include "internal/columns.h"
#include "internal/policy_impl.h"
#include "internal/job_impl.h"
#include "internal/sched_impl.h"
#include "internal/topology_internal.h"

typedef struct rec {
    char *id;
    uint64_t hash;
    pl_job *job;
    pl_job *shown;           /* its slot job (job_slots.c) when it has a task of several GPUs, else NULL:
                                made from job, so its origin (pl_job_slot_origin) lives as long */
    int32_t *gpus;           /* [k] per task, -1 for a CPU-only task */
    int32_t *hosts;          /* [k] per task: its GPU, or a CPU-only task's package */
    int32_t *held;           /* [nheld] the GPUs, for the policies' running jobs */
    int32_t nheld;
    int32_t k;
    int32_t machine;
    pl_plan_item *plan;
    int32_t nplan;
} rec;

/* A GPU marked down: the units pl_sched_device_down() took. */
typedef struct down {
    int32_t v;
    int64_t units;
} down;

/* Per task (held has room for one GPU per task). */
static const pl_column task_cols[] = {PL_COLUMN(rec, gpus), PL_COLUMN(rec, hosts), PL_COLUMN(rec, held)};

struct pl_sched {
    pl_topology *topo;
    rec *r;                  /* [n] committed jobs */
    int32_t n;
    int64_t cap;
    int32_t *slot;           /* [nslots] open addressing: record index, -1 empty */
    int64_t nslots;          /* a power of two, or 0 */
    pl_policy *policy;       /* the instance of the policy last placed with, kept across rounds */
    down *down;              /* [ndown] GPUs marked down */
    int32_t ndown;
    int64_t capdown;
};

/* ---- the id index (linear probing, deletion by backward shift) ---------------- */

static uint64_t hash_id(const char *id)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 1099511628211ull;
    return h;
}

/* Slot of id, or of the empty slot where it would go. */
static int64_t find_slot(const pl_sched *s, const char *id, uint64_t h)
{
    int64_t mask = s->nslots - 1, i = (int64_t)(h & (uint64_t)mask);
    while (s->slot[i] >= 0 && (s->r[s->slot[i]].hash != h || strcmp(s->r[s->slot[i]].id, id) != 0))
        i = (i + 1) & mask;
    return i;
}

static pl_status grow_index(pl_sched *s)
{
    if (s->nslots > 0 && (int64_t)s->n * 2 < s->nslots)
        return PL_OK;
    int64_t nslots = s->nslots ? s->nslots * 2 : 64;
    int32_t *slot = malloc((size_t)nslots * sizeof *slot);
    if (!slot)
        return PL_ENOMEM;
    memset(slot, 0xff, (size_t)nslots * sizeof *slot);
    free(s->slot);
    s->slot = slot;
    s->nslots = nslots;
    for (int32_t k = 0; k < s->n; k++)
        s->slot[find_slot(s, s->r[k].id, s->r[k].hash)] = k;
    return PL_OK;
}

static void unindex(pl_sched *s, int64_t i)
{
    int64_t mask = s->nslots - 1;
    s->slot[i] = -1;
    for (int64_t j = (i + 1) & mask; s->slot[j] >= 0; j = (j + 1) & mask) {
        int64_t home = (int64_t)(s->r[s->slot[j]].hash & (uint64_t)mask);
        /* Move j back into the hole when its home is not in (i, j]. */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            s->slot[i] = s->slot[j];
            s->slot[j] = -1;
            i = j;
        }
    }
}

static int32_t lookup(const pl_sched *s, const char *id)
{
    if (s->nslots == 0)
        return -1;
    return s->slot[find_slot(s, id, hash_id(id))];
}

/* ---- life cycle -------------------------------------------------------------------- */

pl_status pl_sched_create(const pl_topology *topo, pl_sched **out)
{
    if (out)
        *out = NULL;
    if (!topo || !out)
        return pl_err(PL_EINVAL, "pl_sched_create: NULL argument");
    pl_sched *s = pl_alloc(1, sizeof *s);
    if (!s)
        return PL_ENOMEM;
    pl_status st = pl_topology_copy(topo, &s->topo);
    return PL_HAND_OUT(st, s, pl_sched_free, out);
}

static void rec_free(rec *r)
{
    free(r->id);
    pl_job_free(r->job);
    pl_job_free(r->shown);
    pl_columns_free(r, task_cols, PL_NCOLUMNS(task_cols));
    free(r->plan);
}

void pl_sched_free(pl_sched *s)
{
    if (!s)
        return;
    for (int32_t k = 0; k < s->n; k++)
        rec_free(&s->r[k]);
    free(s->r);
    free(s->slot);
    free(s->down);
    pl_policy_free(s->policy);
    pl_topology_free(s->topo);
    free(s);
}

const pl_topology *pl_sched_topology(const pl_sched *s)
{
    return s ? s->topo : NULL;
}

int32_t pl_sched_job_count(const pl_sched *s)
{
    return s ? s->n : 0;
}

/* ---- place -------------------------------------------------------------------------- */

/* The committed jobs holding a GPU as the running jobs a policy sees
 * (borrowed from the records, in commit order; jobs without a GPU have
 * nothing for the policies to see; a job with a task of several GPUs as the
 * slot job its commit kept, so that no round builds it again); NULL out of
 * memory. */
static pl_running_job *running_jobs(const pl_sched *s, int32_t *n)
{
    pl_running_job *run = pl_alloc((size_t)s->n + 1, sizeof *run);
    *n = 0;
    for (int32_t k = 0; run && k < s->n; k++)
        if (s->r[k].nheld > 0)
            run[(*n)++] = (pl_running_job){s->r[k].shown ? s->r[k].shown : s->r[k].job, s->r[k].held,
                                           s->r[k].nheld};
    return run;
}

void pl_sched_use_policy(pl_sched *s, pl_policy *p)
{
    pl_policy_free(s->policy);
    s->policy = p;
}

pl_status pl_sched_place(pl_sched *s, const pl_policy_opts *opts, pl_job *const *queue, int32_t nqueue,
                         pl_decision **out)
{
    if (out)
        *out = NULL;
    if (!s || !opts || !out)
        return pl_err(PL_EINVAL, "pl_sched_place: NULL argument");
    const char *name = opts->policy ? opts->policy : PL_DEFAULT_POLICY;
    pl_status st = PL_OK;
    if (!s->policy || strcmp(pl_policy_name(s->policy), name)) {
        pl_policy *p;
        if ((st = pl_policy_create(opts, &p)))
            return st;
        pl_policy_free(s->policy);
        s->policy = p;
    }
    int32_t nrun;
    pl_running_job *run = running_jobs(s, &nrun);
    if (!run)
        return PL_ENOMEM;
    st = pl_policy_decide(s->policy, opts, s->topo, run, nrun, queue, nqueue, out);
    free(run);
    return st;
}

int32_t pl_sched_idle_rounds(const pl_sched *s)
{
    return s ? pl_policy_idle_rounds(s->policy) : 0;
}

/* What the demand layer changes (CPU-only or fractional tasks, GPU models,
 * GPUs partly shared) is not in topo-aware's own scores: such a job gets the
 * utility of the decision pl_sched_place() would take for it held to each
 * machine in turn by a node filter (-1 where it waits), as a Kubernetes
 * extender asks node by node. */
static pl_status score_by_decision(const pl_sched *s, const pl_policy_opts *o, const pl_job *job,
                                   const pl_running_job *run, int32_t nrun, const int32_t *machines, int32_t n,
                                   double *scores)
{
    pl_policy_opts po = *o;
    po.policy = "topo-aware";
    pl_policy *p = NULL;
    pl_job *held = NULL;
    pl_status st = pl_policy_create(&po, &p);
    if (!st)
        st = pl_job_copy(job, &held);
    for (int32_t i = 0; i < n && !st; i++) {
        pl_vertex_info vi;
        pl_decision *d = NULL;
        pl_decision_info info;
        scores[i] = -1;
        if ((st = pl_topology_vertex(s->topo, machines[i], &vi)) || !pl_job_admits_node(job, vi.name) ||
            (st = pl_job_set_node_filter(held, &vi.name, 1)) ||
            (st = pl_policy_decide(p, &po, s->topo, run, nrun, &held, 1, &d)))
            continue;
        if (!(st = pl_decision_get(d, 0, &info)) && info.kind == PL_DECISION_PLACED)
            scores[i] = info.utility;
        pl_decision_free(d);
    }
    pl_job_free(held);
    pl_policy_free(p);
    return st;
}

pl_status pl_sched_score(const pl_sched *s, const pl_policy_opts *opts, const pl_job *job,
                         const int32_t *machines, int32_t n, double *scores)
{
    if (!s || !job || n < 0 || (n > 0 && (!machines || !scores)))
        return pl_err(PL_EINVAL, "pl_sched_score: NULL argument or n %d < 0", (int)n);
    for (int32_t i = 0; i < n; i++) {
        pl_vertex_info info;
        if (pl_topology_vertex(s->topo, machines[i], &info) != PL_OK || info.kind != PL_VK_MACHINE)
            return pl_err(PL_EINVAL, "pl_sched_score: vertex %d is not a machine", (int)machines[i]);
    }
    pl_policy_opts o;
    PL_OPTS_OR_DEFAULTS(o, opts, pl_policy_opts_init);
    pl_status st = pl_utility_opts_check(&o.utility);
    int32_t nrun = 0;
    pl_running_job *run = st ? NULL : running_jobs(s, &nrun);
    if (!st && !run)
        st = PL_ENOMEM;
    /* A job of multi-GPU tasks is scored as its slot job (policy.h). */
    pl_job *slots = NULL;
    if (!st)
        st = pl_job_slots(job, &slots);
    pl_job *q = slots ? slots : (pl_job *)job; /* read only, as every policy treats its queue */
    pl_policy_request req = {.opts = &o, .topo = s->topo, .running = run, .nrunning = nrun, .queue = &q,
                             .nqueue = 1};
    int plain = 0;
    if (!st)
        st = pl_demand_plain(s->topo, &q, 1, &plain);
    if (!st)
        st = plain ? pl_topo_aware_scores(&req, q, machines, n, scores)
                   : score_by_decision(s, &o, q, run, nrun, machines, n, scores);
    pl_job_free(slots);
    free(run);
    return st;
}

/* ---- commit --------------------------------------------------------------------------- */


/* Task t's host is of the kind its demand needs: a GPU for a GPU or
 * fractional task, a package for a CPU-only one; a GPU is held by one task
 * of the job unless fractional tasks share it. */
static pl_status check_hosts(const pl_sched *s, const char *id, const pl_job *job, const int32_t *hosts,
                             int32_t k)
{
    if (k != pl_job_task_count(job))
        return pl_err(PL_EINVAL, "pl_sched_commit: job \"%s\" has %d tasks, %d GPUs given (one host per task; "
                      "a task of several GPUs counts as that many)", id, (int)pl_job_task_count(job), (int)k);
    for (int32_t g = 0; g < k; g++) {
        pl_vertex_info info;
        pl_task_demand d;
        pl_status st = pl_job_task(job, g, &d);
        if (st)
            return st;
        pl_vertex_kind want = pl_task_cpu_only(&d) ? PL_VK_PACKAGE : PL_VK_GPU;
        int ok = want == PL_VK_PACKAGE ? pl_topo_hosts_cpu_tasks(s->topo, hosts[g])
                                       : pl_topo_is(s->topo, hosts[g], PL_VK_GPU);
        if (!ok || pl_topology_vertex(s->topo, hosts[g], &info) != PL_OK)
            return pl_err(PL_EINVAL, "pl_sched_commit: job \"%s\": vertex %d of task %d is not a %s", id,
                          (int)hosts[g], (int)g, want == PL_VK_GPU ? "GPU" : "package (the task needs no GPU)");
        for (int32_t h = 0; h < g && want == PL_VK_GPU; h++) {
            pl_task_demand e;
            if (hosts[h] == hosts[g] && (pl_job_task(job, h, &e) || !d.gpu_milli || !e.gpu_milli))
                return pl_err(PL_EINVAL, "pl_sched_commit: job \"%s\" given GPU %s twice", id, info.name);
        }
    }
    return PL_OK;
}

/* The package of a CPU-only task committed without one (gpus[t] == -1):
 * the package holding the job's GPU tasks it exchanges the most traffic
 * with (the first on a tie), else the first package of the topology, that
 * still has room for it and the tasks placed before it. */
static pl_status pick_packages(const pl_sched *s, const pl_job *job, const int32_t *gpus, int32_t k,
                               int32_t *hosts)
{
    int32_t np = 0, *pk = NULL;
    pl_status st = pl_topology_descendants(s->topo, -1, PL_VK_PACKAGE, NULL, 0, &np);
    if (!st && !(pk = pl_alloc((size_t)np + 1, sizeof *pk)))
        st = PL_ENOMEM;
    if (!st)
        st = pl_topology_descendants(s->topo, -1, PL_VK_PACKAGE, pk, np, &np);
    pl_topology_snapshot *snap = NULL;
    if (!st)
        st = pl_topology_snapshot_take(s->topo, &snap);
    for (int32_t t = 0; t < k && !st; t++) {
        hosts[t] = gpus[t];
        pl_task_demand d;
        if ((st = pl_job_task(job, t, &d)) || gpus[t] >= 0 || !pl_task_cpu_only(&d))
            continue;
        int32_t best = -1;
        double best_tr = -1;
        for (int32_t p = 0; p < np && !st; p++) {
            double tr = 0;
            int used = 0;
            for (int32_t u = 0; u < k; u++) {
                int32_t up = -1;
                double x = 0;
                if (gpus[u] < 0 || pl_topology_ancestor(s->topo, gpus[u], PL_VK_PACKAGE, &up) || up != pk[p])
                    continue;
                used = 1;
                if (pl_job_traffic(job, t, u, &x) == PL_OK)
                    tr += x;
            }
            pl_plan_item *items = NULL;
            int32_t n = 0;
            if ((used || best < 0) && !(st = pl_plan_build_tasks(s->topo, job, &t, &pk[p], 1, &items, &(int64_t){0}, &n)) &&
                pl_plan_fits(s->topo, items, n, 0) && (used ? tr : -0.5) > best_tr) {
                best = p;
                best_tr = used ? tr : -0.5;
            }
            free(items);
        }
        if (!st && best >= 0) {
            pl_plan_item *items = NULL;
            int32_t n = 0;
            hosts[t] = pk[best];
            if (!(st = pl_plan_build_tasks(s->topo, job, &t, &pk[best], 1, &items, &(int64_t){0}, &n)))
                st = pl_plan_alloc(s->topo, items, n);
            free(items);
        }
    }
    if (snap && pl_topology_snapshot_restore(s->topo, snap) && !st)
        st = PL_EINTERNAL;
    pl_topology_snapshot_free(snap);
    free(pk);
    return st;
}

static void release_plan(pl_topology *t, const pl_plan_item *plan, int32_t n)
{
    /* Cannot fail: each item was allocated by the commit and the capacities
     * of the handle's own topology are never lowered. */
    for (int32_t p = 0; p < n; p++)
        (void)pl_topology_release(t, plan[p].v, plan[p].res, plan[p].amount);
}

/* All items or none. */
static pl_status alloc_plan(pl_topology *t, const pl_plan_item *plan, int32_t n)
{
    for (int32_t p = 0; p < n; p++) {
        pl_status st = pl_topology_alloc(t, plan[p].v, plan[p].res, plan[p].amount);
        if (st) {
            release_plan(t, plan, p);
            return st;
        }
    }
    return PL_OK;
}

/* The refusal of a plan that does not fit, naming the first item short. */
static pl_status not_free(const pl_sched *s, const char *id, const pl_plan_item *plan, int32_t n)
{
    for (int32_t p = 0; p < n; p++) {
        int64_t fr = 0;
        pl_vertex_info info;
        pl_topology_amount(s->topo, plan[p].v, plan[p].res, NULL, NULL, &fr);
        if (fr < plan[p].amount && pl_topology_vertex(s->topo, plan[p].v, &info) == PL_OK)
            return pl_err(PL_EINVAL, "pl_sched_commit: job \"%s\" does not fit: it needs %lld %s "
                          "on %s, %lld free (nothing allocated)", id, (long long)plan[p].amount,
                          pl_resource_name(plan[p].res), info.name, (long long)fr);
    }
    return pl_err(PL_EINVAL, "pl_sched_commit: job \"%s\" does not fit (nothing allocated)", id);
}

static pl_status add_record(pl_sched *s, rec *r)
{
    pl_status st = pl_grow((void **)&s->r, &s->cap, (int64_t)s->n + 1, sizeof *s->r);
    if (!st)
        st = grow_index(s);
    if (st)
        return st;
    s->r[s->n] = *r;
    s->slot[find_slot(s, r->id, r->hash)] = s->n;
    s->n++;
    return PL_OK;
}

/* Commit job on hosts (policy.h: a GPU per GPU task or per GPU of a task of
 * several, a package per CPU-only task) with the plan a decision gave (d
 * NULL: policy.h's rule); slots is its slot job (pl_job_slots(), or job
 * itself): the hosts are its tasks'. The record keeps the job as given,
 * and its own slot job of that copy (not a copy of slots: pl_job_copy()
 * keeps no slot-job mark, and slots' origin is the caller's job), which
 * the policies then see running as the slot job it is (DRMaestro regroups
 * its slots into the user's tasks). */
static pl_status commit_slots(pl_sched *s, const char *id, const pl_job *job, const pl_job *slots,
                              const int32_t *hosts, int32_t ngpus, const pl_decision *d, int32_t i)
{
    if (lookup(s, id) >= 0)
        return pl_err(PL_EINVAL, "pl_sched_commit: job \"%s\" is already committed", id);
    pl_status st = check_hosts(s, id, slots, hosts, ngpus);
    if (st)
        return st;
    rec r = {.hash = hash_id(id), .k = ngpus, .machine = pl_topo_common_machine(s->topo, hosts, ngpus)};
    if ((st = d ? pl_decision_plan(d, i, s->topo, slots, &r.plan, &r.nplan)
                : pl_plan_build(s->topo, slots, hosts, ngpus, &r.plan, &r.nplan)))
        return st;
    if (!pl_plan_fits(s->topo, r.plan, r.nplan, 0)) {
        st = not_free(s, id, r.plan, r.nplan);
        free(r.plan);
        return st;
    }
    if (!(r.id = pl_strdup(id)) ||
        (st = pl_columns_alloc(&r, task_cols, PL_NCOLUMNS(task_cols), (int64_t)ngpus + 1)) ||
        (st = pl_job_copy(job, &r.job)) != PL_OK || (slots != job && (st = pl_job_slots(r.job, &r.shown)))) {
        rec_free(&r);
        return st ? st : PL_ENOMEM;
    }
    memcpy(r.hosts, hosts, (size_t)ngpus * sizeof *hosts);
    for (int32_t t = 0; t < ngpus; t++) {
        pl_task_demand dem;
        pl_job_task(slots, t, &dem);
        r.gpus[t] = pl_task_cpu_only(&dem) ? -1 : hosts[t];
        if (r.gpus[t] >= 0)
            r.held[r.nheld++] = hosts[t];
    }
    if ((st = alloc_plan(s->topo, r.plan, r.nplan))) {
        rec_free(&r);
        return st;
    }
    if ((st = add_record(s, &r))) {
        release_plan(s->topo, r.plan, r.nplan);
        rec_free(&r);
    }
    return st;
}

/* The entries of each task of several GPUs on one machine (the caller's
 * GPUs of pl_sched_commit_gpus() included); distinct GPUs are check_hosts'. */
static pl_status check_tasks_whole(const pl_sched *s, const char *id, const pl_job *job, const int32_t *hosts,
                                   int32_t k)
{
    int32_t first = 0;
    for (int32_t t = 0; t < pl_job_task_count(job) && first < k; t++) {
        pl_task_demand d;
        pl_status st = pl_job_task(job, t, &d);
        if (st)
            return st;
        int32_t n = d.gpus > 1 ? (int32_t)d.gpus : 1;
        if (n > 1 && first + n <= k && pl_topo_common_machine(s->topo, hosts + first, n) < 0)
            return pl_err(PL_EINVAL, "pl_sched_commit: job \"%s\": the %d GPUs of task %d are not on one machine",
                          id, (int)n, (int)t);
        first += n;
    }
    return PL_OK;
}

static pl_status commit(pl_sched *s, const char *id, const pl_job *job, const int32_t *hosts,
                        int32_t ngpus, const pl_decision *d, int32_t i)
{
    if (!s || !id || !*id || !job || (ngpus > 0 && !hosts))
        return pl_err(PL_EINVAL, "pl_sched_commit: NULL or empty argument");
    pl_job *slots = NULL;
    pl_status st = pl_job_slots(job, &slots);
    if (!st && slots && ngpus == pl_job_task_count(slots))
        st = check_tasks_whole(s, id, job, hosts, ngpus);
    if (!st)
        st = commit_slots(s, id, job, slots ? slots : job, hosts, ngpus, d, i);
    pl_job_free(slots);
    return st;
}

pl_status pl_sched_commit_hosts(pl_sched *s, const char *id, const pl_job *job, const int32_t *hosts,
                                int32_t n)
{
    return commit(s, id, job, hosts, n, NULL, 0);
}

pl_status pl_sched_commit_gpus(pl_sched *s, const char *id, const pl_job *job, const int32_t *gpus,
                               int32_t ngpus)
{
    if (!s || !job || ngpus != pl_job_slot_count(job) || (ngpus > 0 && !gpus))
        return commit(s, id, job, gpus, ngpus, NULL, 0);
    int32_t *hosts = pl_alloc((size_t)ngpus + 1, sizeof *hosts);
    pl_job *slots = NULL;
    pl_status st = hosts ? pl_job_slots(job, &slots) : PL_ENOMEM;
    if (!st)
        st = pick_packages(s, slots ? slots : job, gpus, ngpus, hosts);
    if (!st)
        st = commit(s, id, job, hosts, ngpus, NULL, 0);
    pl_job_free(slots);
    free(hosts);
    return st;
}

pl_status pl_sched_commit(pl_sched *s, const char *id, const pl_job *job, const pl_decision *d,
                          int32_t i)
{
    pl_decision_info info;
    if (!d)
        return pl_err(PL_EINVAL, "pl_sched_commit: NULL decision");
    pl_status st = pl_decision_get(d, i, &info);
    if (st)
        return st;
    if (info.kind != PL_DECISION_PLACED)
        return pl_err(PL_EINVAL, "pl_sched_commit: decision %d is not a placement (%s)", (int)i,
                      info.reason && *info.reason ? info.reason : "not placed");
    return commit(s, id, job, info.hosts, info.ngpus, d, i);
}

/* ---- release and queries ---------------------------------------------------------------- */

pl_status pl_sched_release(pl_sched *s, const char *id)
{
    if (!s || !id)
        return pl_err(PL_EINVAL, "pl_sched_release: NULL argument");
    int32_t k = lookup(s, id);
    if (k < 0)
        return pl_err(PL_ENOTFOUND, "pl_sched_release: no job \"%s\" is committed", id);
    rec *r = &s->r[k];
    release_plan(s->topo, r->plan, r->nplan);
    unindex(s, find_slot(s, id, r->hash));
    rec_free(r);
    /* Commit order is kept: the policies see the running jobs in it, so a
     * decision (and its float sums) does not depend on which jobs left. */
    int64_t mask = s->nslots - 1;
    for (int32_t q = k + 1; q < s->n; q++) {
        int64_t i = (int64_t)(s->r[q].hash & (uint64_t)mask);
        while (s->slot[i] != q)
            i = (i + 1) & mask;
        s->slot[i] = q - 1;
    }
    memmove(s->r + k, s->r + k + 1, (size_t)(s->n - k - 1) * sizeof *s->r);
    s->n--;
    return PL_OK;
}

pl_status pl_sched_device_down(pl_sched *s, int32_t gpu, int is_down)
{
    pl_vertex_info info;
    if (!s || pl_topology_vertex(s->topo, gpu, &info) != PL_OK || info.kind != PL_VK_GPU)
        return pl_err(PL_EINVAL, "pl_sched_device_down: %s", s ? "the vertex is not a GPU" : "NULL handle");
    int32_t k = 0;
    while (k < s->ndown && s->down[k].v != gpu)
        k++;
    if ((k < s->ndown) == (is_down != 0))
        return pl_err(PL_EINVAL, "pl_sched_device_down: GPU %s is already %s", info.name, is_down ? "down" : "up");
    if (!is_down) {
        pl_status st = s->down[k].units ? pl_topology_release(s->topo, gpu, PL_RES_UNITS, s->down[k].units) : PL_OK;
        if (!st)
            s->down[k] = s->down[--s->ndown];
        return st;
    }
    for (int32_t j = 0; j < s->n; j++)
        for (int32_t h = 0; h < s->r[j].nheld; h++)
            if (s->r[j].held[h] == gpu)
                return pl_err(PL_EINVAL, "pl_sched_device_down: GPU %s is held by job \"%s\": release the "
                              "jobs on it first", info.name, s->r[j].id);
    int64_t fr = 0;
    pl_topology_amount(s->topo, gpu, PL_RES_UNITS, NULL, NULL, &fr);
    pl_status st = pl_grow((void **)&s->down, &s->capdown, (int64_t)s->ndown + 1, sizeof *s->down);
    if (!st && fr > 0)
        st = pl_topology_alloc(s->topo, gpu, PL_RES_UNITS, fr);
    if (!st)
        s->down[s->ndown++] = (down){gpu, fr > 0 ? fr : 0};
    return st;
}

pl_status pl_sched_job_plan(const pl_sched *s, const char *id, const pl_plan_item **plan, int32_t *n)
{
    int32_t k = s && id ? lookup(s, id) : -1;
    if (k < 0)
        return pl_err(PL_ENOTFOUND, "pl_sched_job_plan: no job \"%s\" is committed", id ? id : "(null)");
    *plan = s->r[k].plan;
    *n = s->r[k].nplan;
    return PL_OK;
}

static void describe(const rec *r, pl_sched_job_info *info)
{
    *info = (pl_sched_job_info){.id = r->id, .job = r->job, .ngpus = r->k, .gpus = r->gpus, .machine = r->machine,
                                .hosts = r->hosts};
}

pl_status pl_sched_job(const pl_sched *s, const char *id, pl_sched_job_info *info)
{
    if (!s || !id || !info)
        return pl_err(PL_EINVAL, "pl_sched_job: NULL argument");
    int32_t k = lookup(s, id);
    if (k < 0)
        return pl_err(PL_ENOTFOUND, "pl_sched_job: no job \"%s\" is committed", id);
    describe(&s->r[k], info);
    return PL_OK;
}

pl_status pl_sched_job_at(const pl_sched *s, int32_t k, pl_sched_job_info *info)
{
    if (!s || !info || k < 0 || k >= s->n)
        return pl_err(PL_EINVAL, "pl_sched_job_at: NULL argument or index %d not in 0..%d", (int)k,
                      s ? (int)s->n - 1 : -1);
    describe(&s->r[k], info);
    return PL_OK;
}
