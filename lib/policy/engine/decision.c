/* Decision sets, resource plans and pl_decision_apply(). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"
#include "internal/topology_internal.h"
#include "internal/job_impl.h"

typedef struct entry {
    pl_decision_kind kind;
    int32_t ngpus;
    int32_t *gpus;
    int32_t *hosts;          /* where each task runs (policy.h), NULL: the same as gpus */
    int32_t machine;
    double utility;
    int64_t comm_cost;
    double slowdown;
    char *reason;
    pl_plan_item *plan;      /* the policy's own resource plan, or NULL: policy.h's rule */
    int32_t nplan;
    int32_t remote;          /* GPUs serving a task whose cores are on another machine */
    int32_t *storage;        /* [ngpus] storage vertex of each entry's task, -1; NULL: no storage demand */
} entry;

/* pl_decision_info.storage took one slot of the reserved tail: the size must
 * not change (checked where a pointer and a uint64_t have the same size). */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(pl_decision_info) == offsetof(pl_decision_info, hosts) + sizeof(int32_t *) +
                                               4 * sizeof(uint64_t),
               "pl_decision_info changed size");
#endif

struct pl_decision {
    int32_t n;
    entry *e;
};

static const char *const waiting_reason = "does not fit the free resources now";

pl_status pl_decision_create_internal(int32_t n, pl_decision **out)
{
    pl_decision *d = pl_alloc(1, sizeof *d);
    if (!d)
        return PL_ENOMEM;
    pl_status st = n > 0 && !(d->e = pl_alloc((size_t)n, sizeof *d->e)) ? PL_ENOMEM : PL_OK;
    if (!st)
        d->n = n;
    for (int32_t i = 0; i < d->n && !st; i++) {
        d->e[i].kind = PL_DECISION_WAITING;
        d->e[i].machine = -1;
        d->e[i].slowdown = 1.0;
        if (!(d->e[i].reason = pl_strdup(waiting_reason)))
            st = PL_ENOMEM;
    }
    return PL_HAND_OUT(st, d, pl_decision_free, out);
}

void pl_decision_free(pl_decision *d)
{
    if (!d)
        return;
    for (int32_t i = 0; i < d->n; i++) {
        free(d->e[i].gpus);
        free(d->e[i].hosts);
        free(d->e[i].reason);
        free(d->e[i].plan);
        free(d->e[i].storage);
    }
    free(d->e);
    free(d);
}

int32_t pl_decision_count(const pl_decision *d)
{
    return d ? d->n : 0;
}

pl_status pl_decision_get(const pl_decision *d, int32_t i, pl_decision_info *info)
{
    if (!d || !info || i < 0 || i >= d->n)
        return pl_err(PL_EINVAL, "pl_decision_get: bad decision set, index %d or info", (int)i);
    const entry *e = &d->e[i];
    info->kind = e->kind;
    info->ngpus = e->ngpus;
    info->gpus = e->gpus;
    info->machine = e->machine;
    info->utility = e->utility;
    info->comm_cost = e->comm_cost;
    info->slowdown = e->slowdown;
    info->reason = e->reason ? e->reason : "";
    info->hosts = e->hosts ? e->hosts : e->gpus;
    info->storage = e->storage;
    memset(info->reserved, 0, sizeof info->reserved);
    return PL_OK;
}

pl_status pl_decision_set(pl_decision *d, int32_t i, const pl_decision_info *info)
{
    if (!d || !info || i < 0 || i >= d->n)
        return pl_err(PL_EINVAL, "pl_decision_set: bad decision set, index %d or info", (int)i);
    if (info->kind < PL_DECISION_PLACED || info->kind > PL_DECISION_REJECTED)
        return pl_err(PL_EINVAL, "pl_decision_set: unknown kind %d", (int)info->kind);
    int placed = info->kind == PL_DECISION_PLACED;
    if (placed && (info->ngpus < 0 || (info->ngpus > 0 && !info->gpus)))
        return pl_err(PL_EINVAL, "pl_decision_set: a placed job needs its GPU list");
    for (int32_t t = 0; placed && !info->hosts && t < info->ngpus; t++)
        if (info->gpus[t] < 0)
            return pl_err(PL_EINVAL, "pl_decision_set: task %d has no GPU and no host (a CPU-only task "
                          "needs its package in hosts)", (int)t);
    int32_t *gpus = NULL, *hosts = NULL;
    if (placed && info->ngpus > 0) {
        if (!(gpus = pl_alloc((size_t)info->ngpus, sizeof *gpus)) ||
            (info->hosts && !(hosts = pl_alloc((size_t)info->ngpus, sizeof *hosts)))) {
            free(gpus);
            return PL_ENOMEM;
        }
        memcpy(gpus, info->gpus, (size_t)info->ngpus * sizeof *gpus);
        if (hosts)
            memcpy(hosts, info->hosts, (size_t)info->ngpus * sizeof *hosts);
    }
    char *reason = pl_strdup(placed || !info->reason ? "" : info->reason);
    if (!reason) {
        free(gpus);
        free(hosts);
        return PL_ENOMEM;
    }
    entry *e = &d->e[i];
    free(e->gpus);
    free(e->hosts);
    e->hosts = hosts;
    /* info->storage is the engine's (pl_decision_set_storage), not the
     * policy's: a policy's struct may leave it as garbage, as it could the
     * reserved tail it came from. */
    free(e->storage);
    e->storage = NULL;
    free(e->reason);
    free(e->plan);
    e->plan = NULL;
    e->nplan = 0;
    e->remote = 0;
    e->kind = info->kind;
    e->ngpus = placed ? info->ngpus : 0;
    e->gpus = gpus;
    e->machine = info->machine;
    e->utility = info->utility;
    e->comm_cost = info->comm_cost;
    e->slowdown = info->slowdown < 1.0 ? 1.0 : info->slowdown;
    e->reason = reason;
    return PL_OK;
}

pl_status pl_decision_set_storage(pl_decision *d, int32_t i, const int32_t *storage)
{
    if (!d || i < 0 || i >= d->n || d->e[i].kind != PL_DECISION_PLACED || !storage)
        return pl_err(PL_EINTERNAL, "pl_decision_set_storage: not a placed decision, or no storage");
    entry *e = &d->e[i];
    int32_t *copy = pl_alloc((size_t)e->ngpus + 1, sizeof *copy);
    if (!copy)
        return PL_ENOMEM;
    memcpy(copy, storage, (size_t)e->ngpus * sizeof *copy);
    free(e->storage);
    e->storage = copy;
    return PL_OK;
}

pl_status pl_decision_set_remote(pl_decision *d, int32_t i, int32_t remote)
{
    if (!d || i < 0 || i >= d->n || d->e[i].kind != PL_DECISION_PLACED || remote < 0)
        return pl_err(PL_EINTERNAL, "pl_decision_set_remote: not a placed decision, or a negative count");
    d->e[i].remote = remote;
    return PL_OK;
}

int32_t pl_decision_remote(const pl_decision *d, int32_t i)
{
    return d && i >= 0 && i < d->n ? d->e[i].remote : 0;
}

pl_status pl_decision_set_plan(pl_decision *d, int32_t i, const pl_plan_item *items, int32_t n)
{
    if (!d || i < 0 || i >= d->n || d->e[i].kind != PL_DECISION_PLACED || n < 0 || (n > 0 && !items))
        return pl_err(PL_EINTERNAL, "pl_decision_set_plan: not a placed decision, or no items");
    pl_plan_item *copy = pl_alloc((size_t)n + 1, sizeof *copy);
    if (!copy)
        return PL_ENOMEM;
    memcpy(copy, items, (size_t)n * sizeof *items);
    free(d->e[i].plan);
    d->e[i].plan = copy;
    d->e[i].nplan = n;
    return PL_OK;
}

pl_status pl_decision_plan(const pl_decision *d, int32_t i, const pl_topology *t, const pl_job *job,
                           pl_plan_item **items, int32_t *n)
{
    const entry *e = &d->e[i];
    if (!e->plan)
        return pl_plan_build(t, job, e->hosts ? e->hosts : e->gpus, e->ngpus, items, n);
    if (!(*items = pl_alloc((size_t)e->nplan + 1, sizeof **items)))
        return PL_ENOMEM;
    memcpy(*items, e->plan, (size_t)e->nplan * sizeof **items);
    *n = e->nplan;
    return PL_OK;
}

pl_status pl_decision_set_kind(pl_decision *out, int32_t i, pl_decision_kind kind, const char *reason)
{
    pl_decision_info info = {0};
    info.kind = kind;
    info.machine = -1;
    info.slowdown = 1.0;
    info.reason = reason;
    return pl_decision_set(out, i, &info);
}

/* ---- resource plans ---------------------------------------------------------- */

static pl_status plan_add(pl_plan_item **items, int32_t *n, int64_t *cap, int32_t v,
                          pl_resource res, int64_t amount)
{
    if (amount <= 0)
        return PL_OK;
    for (int32_t i = 0; i < *n; i++)
        if ((*items)[i].v == v && (*items)[i].res == res) {
            if (pl_add_ovf((*items)[i].amount, amount, &(*items)[i].amount))
                return pl_err(PL_EOVERFLOW, "resource plan: demand of %s on vertex %d overflows",
                              pl_resource_name(res), (int)v);
            return PL_OK;
        }
    pl_status st = pl_grow((void **)items, cap, *n + 1, sizeof **items);
    if (st)
        return st;
    (*items)[(*n)++] = (pl_plan_item){v, res, amount};
    return PL_OK;
}

/* A vertex whose capacity of res is 0 does not model it (file comment of policy.h). */
static int models(const pl_topology *t, int32_t v, pl_resource res)
{
    int64_t capacity = 0;
    return v >= 0 && pl_topology_amount(t, v, res, &capacity, NULL, NULL) == PL_OK && capacity > 0;
}

static int32_t first_numa(const pl_topology *t, int32_t pkg)
{
    int32_t numa = -1, count = 0;
    if (pkg < 0)
        return -1;
    pl_status st = pl_topology_descendants(t, pkg, PL_VK_NUMA, &numa, 1, &count);
    return (st == PL_OK || st == PL_ELIMIT) && count > 0 ? numa : -1;
}

int64_t pl_gpu_milli_share(const pl_topology *t, int32_t g)
{
    int64_t units = 0, milli = 0;
    if (pl_topology_amount(t, g, PL_RES_UNITS, &units, NULL, NULL) ||
        pl_topology_amount(t, g, PL_RES_GPU_MILLI, &milli, NULL, NULL) || units <= 0)
        return 0;
    return milli / units;
}

/* The GPU items of a task on g: a whole-GPU task's unit and its share of
 * the milli (so a GPU shared by fractional tasks is not given whole, and a
 * GPU given whole is not shared), a fractional task's milli only. */
static pl_status plan_gpu(const pl_topology *t, const pl_task_demand *dem, int32_t g, pl_plan_item **items,
                          int32_t *n, int64_t *cap)
{
    pl_status st;
    if (dem->gpu_milli > 0) {
        /* Always planned: a GPU of milli capacity 0 is one that is never shared. */
        st = plan_add(items, n, cap, g, PL_RES_GPU_MILLI, dem->gpu_milli);
    } else {
        /* The GPU itself is always checked: a task takes the whole device. */
        st = plan_add(items, n, cap, g, PL_RES_UNITS, 1);
        if (!st)
            st = plan_add(items, n, cap, g, PL_RES_GPU_MILLI, pl_gpu_milli_share(t, g));
    }
    if (!st && models(t, g, PL_RES_GPU_MEMORY))
        st = plan_add(items, n, cap, g, PL_RES_GPU_MEMORY, dem->gpu_memory);
    return st;
}

pl_status pl_plan_build_tasks(const pl_topology *t, const pl_job *job, const int32_t *tasks,
                              const int32_t *hosts, int32_t k, pl_plan_item **items, int64_t *cap,
                              int32_t *n)
{
    *n = 0;
    pl_status st = PL_OK;
    for (int32_t i = 0; i < k && !st; i++) {
        pl_task_demand dem;
        if ((st = pl_job_task(job, tasks ? tasks[i] : i, &dem)))
            break;
        int32_t g = hosts[i], pkg = -1;
        if (pl_topology_ancestor(t, g, PL_VK_PACKAGE, &pkg) != PL_OK)
            pkg = -1;
        /* A machine that models no package holds a CPU-only task itself. */
        int on_machine = pkg < 0 && pl_task_cpu_only(&dem) && pl_topo_hosts_cpu_tasks(t, g);
        if (on_machine)
            pkg = g;
        if (!pl_task_cpu_only(&dem))
            st = plan_gpu(t, &dem, g, items, n, cap);
        if (!st && models(t, pkg, PL_RES_CORES))
            st = plan_add(items, n, cap, pkg, PL_RES_CORES, pl_task_cores(&dem));
        if (!st && models(t, pkg, PL_RES_BANDWIDTH))
            st = plan_add(items, n, cap, pkg, PL_RES_BANDWIDTH, dem.bandwidth);
        int32_t numa = on_machine ? g : first_numa(t, pkg);
        if (!st && models(t, numa, PL_RES_MEMORY))
            st = plan_add(items, n, cap, numa, PL_RES_MEMORY, dem.memory);
    }
    if (st)
        *n = 0;
    return st;
}

pl_status pl_plan_build(const pl_topology *t, const pl_job *job, const int32_t *gpus, int32_t k,
                        pl_plan_item **items, int32_t *n)
{
    *items = NULL;
    *n = 0;
    int64_t cap = 0;
    /* A decision's entries for a job of multi-GPU tasks are its slots. */
    pl_job *slots = NULL;
    pl_status st = k == pl_job_slot_count(job) ? pl_job_slots(job, &slots) : PL_OK;
    if (!st)
        st = pl_plan_build_tasks(t, slots ? slots : job, NULL, gpus, k, items, &cap, n);
    pl_job_free(slots);
    if (st) {
        free(*items);
        *items = NULL;
    }
    return st;
}

/* Take need of res from vs[nv] in order: what is free there minus what the
 * plan took already. Returns what is left; vertices that do not model res
 * are skipped. */
static pl_status spread_take(const pl_topology *t, const int32_t *vs, int32_t nv, pl_resource res,
                             int64_t *need, pl_plan_item **items, int32_t *n, int64_t *cap)
{
    pl_status st = PL_OK;
    for (int32_t q = 0; q < nv && *need > 0 && !st; q++) {
        int64_t capacity = 0, fr = 0;
        pl_topology_amount(t, vs[q], res, &capacity, NULL, &fr);
        for (int32_t i = 0; i < *n; i++)
            if ((*items)[i].v == vs[q] && (*items)[i].res == res)
                fr -= (*items)[i].amount;
        int64_t got = fr < *need ? fr : *need;
        if (capacity > 0 && got > 0) {
            st = plan_add(items, n, cap, vs[q], res, got);
            *need -= got;
        }
    }
    return st;
}

/* Whether any of vs[nv] models res. */
static int any_models(const pl_topology *t, const int32_t *vs, int32_t nv, pl_resource res)
{
    for (int32_t q = 0; q < nv; q++)
        if (models(t, vs[q], res))
            return 1;
    return 0;
}

/* Task m's cores and memory spread over its machine's packages and NUMA
 * nodes; *fits 0 when the machine lacks them where it models them. */
static pl_status spread_task(const pl_topology *t, int32_t machine, const pl_task_demand *d,
                             pl_plan_item **items, int32_t *n, int64_t *cap, int *fits)
{
    int32_t npk = 0, nnu = 0, *pk = NULL, *nu = NULL;
    pl_status st = pl_topology_descendants(t, machine, PL_VK_PACKAGE, NULL, 0, &npk);
    if (!st)
        st = pl_topology_descendants(t, machine, PL_VK_NUMA, NULL, 0, &nnu);
    if (!st && (!(pk = pl_alloc((size_t)npk + 1, sizeof *pk)) || !(nu = pl_alloc((size_t)nnu + 1, sizeof *nu))))
        st = PL_ENOMEM;
    if (!st)
        st = pl_topology_descendants(t, machine, PL_VK_PACKAGE, pk, npk, &npk);
    if (!st)
        st = pl_topology_descendants(t, machine, PL_VK_NUMA, nu, nnu, &nnu);
    int64_t left_c = pl_task_cores(d), left_m = d->memory;
    if (!st)
        st = spread_take(t, pk, npk, PL_RES_CORES, &left_c, items, n, cap);
    if (!st)
        st = spread_take(t, nu, nnu, PL_RES_MEMORY, &left_m, items, n, cap);
    if (!st && ((left_c > 0 && any_models(t, pk, npk, PL_RES_CORES)) ||
                (left_m > 0 && any_models(t, nu, nnu, PL_RES_MEMORY))))
        *fits = 0;
    free(pk);
    free(nu);
    return st;
}

pl_status pl_plan_build_spread(const pl_topology *t, const pl_job *job, const int32_t *machine,
                               const int32_t *gpu_task, const int32_t *gpus, int32_t ngpus,
                               pl_plan_item **items, int32_t *n, int32_t *short_task)
{
    *items = NULL;
    *n = 0;
    *short_task = -1;
    int64_t cap = 0;
    pl_status st = PL_OK;
    for (int32_t m = 0; m < pl_job_task_count(job) && !st; m++) {
        pl_task_demand d;
        int fits = 1;
        if (!(st = pl_job_task(job, m, &d)))
            st = spread_task(t, machine[m], &d, items, n, &cap, &fits);
        if (!st && !fits && *short_task < 0)
            *short_task = m;
    }
    for (int32_t x = 0; x < ngpus && !st; x++) {
        pl_task_demand d;
        if ((st = pl_job_task(job, gpu_task[x], &d)))
            break;
        st = plan_gpu(t, &d, gpus[x], items, n, &cap);
    }
    if (st) {
        free(*items);
        *items = NULL;
        *n = 0;
    }
    return st;
}

int pl_plan_fits(const pl_topology *t, const pl_plan_item *items, int32_t n, int use_capacity)
{
    for (int32_t i = 0; i < n; i++) {
        int64_t capacity = 0, free_amount = 0;
        if (pl_topology_amount(t, items[i].v, items[i].res, &capacity, NULL, &free_amount))
            return 0;
        if (items[i].amount > (use_capacity ? capacity : free_amount))
            return 0;
    }
    return 1;
}

pl_status pl_plan_alloc(pl_topology *t, const pl_plan_item *items, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        pl_status st = pl_topology_alloc(t, items[i].v, items[i].res, items[i].amount);
        if (st)
            return st;
    }
    return PL_OK;
}

/* ---- apply ----------------------------------------------------------------------- */

static pl_status apply_one(const pl_decision *d, int32_t i, pl_job *const *queue, int32_t nqueue,
                           pl_topology *topo)
{
    const entry *e = &d->e[i];
    if (i >= nqueue || !queue[i])
        return pl_err(PL_EINVAL, "pl_decision_apply: decision %d has no queued job", (int)i);
    const pl_job *job = queue[i];
    if (e->ngpus != pl_job_slot_count(job))
        return pl_err(PL_EINVAL, "pl_decision_apply: decision %d has %d entries, job \"%s\" needs %lld "
                      "(a task, or a GPU of a task of several)",
                      (int)i, (int)e->ngpus, pl_job_name(job), (long long)pl_job_slot_count(job));
    pl_plan_item *items;
    int32_t n;
    pl_status st = pl_decision_plan(d, i, topo, job, &items, &n);
    if (st)
        return st;
    if (!pl_plan_fits(topo, items, n, 0))
        st = pl_err(PL_EINVAL, "pl_decision_apply: job \"%s\" (decision %d) no longer fits: "
                               "a resource it needs is taken",
                    pl_job_name(job), (int)i);
    else
        st = pl_plan_alloc(topo, items, n);
    free(items);
    return st;
}

pl_status pl_decision_apply(const pl_decision *d, pl_job *const *queue, int32_t nqueue, pl_topology *topo)
{
    if (!d || !topo || nqueue < 0 || (nqueue > 0 && !queue))
        return pl_err(PL_EINVAL, "pl_decision_apply: NULL argument");
    pl_topology_snapshot *snap;
    pl_status st = pl_topology_snapshot_take(topo, &snap);
    if (st)
        return st;
    for (int32_t i = 0; i < d->n && !st; i++)
        if (d->e[i].kind == PL_DECISION_PLACED)
            st = apply_one(d, i, queue, nqueue, topo);
    if (st) {
        /* All or nothing: put back what the earlier jobs took. The message of
         * the failure is the one to keep, so restore's own status is moot. */
        (void)pl_topology_snapshot_restore(topo, snap);
        if (st == PL_EOVERFLOW || st == PL_ENOMEM)
            st = pl_err(st, "pl_decision_apply: nothing allocated (%s)", pl_last_error());
        else
            st = PL_EINVAL;
    }
    pl_topology_snapshot_free(snap);
    return st;
}
