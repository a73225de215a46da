/* Policies by name (the registry itself: lib/core/registry.c), and
 * pl_policy_place(). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"
#include "internal/registry.h"

static const pl_policy_ops *const builtin[] = {
    &pl_policy_topo_aware, &pl_policy_topo_aware_p, &pl_policy_fcfs, &pl_policy_bf,
    &pl_policy_pack,       &pl_policy_spread,       &pl_policy_random,
    &pl_policy_drmaestro,  &pl_policy_drmaestro_na, &pl_policy_firmament,
    &pl_policy_drmaestro_local, &pl_policy_drmaestro_na_local,
    &pl_policy_sa_placement, &pl_policy_two_level, &pl_policy_gpu_qos,
    &pl_policy_constraint_energy,
    &pl_policy_constraint_balance,
    &pl_policy_fgd, &pl_policy_random_fit, &pl_policy_dotprod, &pl_policy_gpu_clustering, &pl_policy_gpu_packing, &pl_policy_bestfit, &pl_policy_fgd_coarse,
    &pl_policy_fgd_balance, &pl_policy_fgd_price,
};
#define N_BUILTIN ((int)(sizeof builtin / sizeof builtin[0]))

static const char *name_of(const void *ops)
{
    return ((const pl_policy_ops *)ops)->name;
}

static pl_registry reg = PL_REGISTRY_INIT("policy", (const void *const *)builtin, N_BUILTIN, name_of);

void pl_policy_opts_init(pl_policy_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->policy = PL_DEFAULT_POLICY;
    pl_utility_opts_init(&opts->utility);
    opts->profiles = NULL;
    opts->seed = 1;
    opts->max_placed = 0;
}

pl_status pl_policy_register(const pl_policy_ops *ops)
{
    if (!ops || !ops->name || !ops->place || !ops->name[0])
        return pl_err(PL_EINVAL, "pl_policy_register: ops needs a non-empty name and a place function");
    /* The other bits are the library's (PL_POLICY_OWN_STORAGE: a policy
     * outside it cannot plan storage, so its jobs would get none). */
    if (ops->version >= 2 && (ops->flags & ~PL_POLICY_CPU_JOBS))
        return pl_err(PL_EINVAL, "pl_policy_register: policy \"%s\": flags 0x%x has bits other than "
                      "PL_POLICY_CPU_JOBS", ops->name, (unsigned)ops->flags);
    return pl_registry_add(&reg, ops, "pl_policy_register");
}

pl_status pl_policy_unregister(const char *name)
{
    return pl_registry_remove(&reg, name, "pl_policy_unregister");
}

pl_status pl_policy_find(const char *name, const pl_policy_ops **ops)
{
    const void *o = NULL;
    pl_status st = pl_registry_find(&reg, name, &o, "pl_policy_find");
    if (ops)
        *ops = o;
    return st;
}

int pl_policy_count(void)
{
    return pl_registry_count(&reg);
}

const pl_policy_ops *pl_policy_get(int i)
{
    return pl_registry_at(&reg, i);
}

static pl_status check_running(const pl_topology *topo, const pl_running_job *running, int32_t n)
{
    if (n < 0 || (n > 0 && !running))
        return pl_err(PL_EINVAL, "pl_policy_place: running is NULL with nrunning %d", (int)n);
    int32_t nv = pl_topology_vertex_count(topo);
    for (int32_t i = 0; i < n; i++) {
        if (!running[i].job || running[i].ngpus < 0 || (running[i].ngpus > 0 && !running[i].gpus))
            return pl_err(PL_EINVAL, "pl_policy_place: running job %d has no job or GPU list", (int)i);
        for (int32_t j = 0; j < running[i].ngpus; j++) {
            pl_vertex_info vi;
            int32_t g = running[i].gpus[j];
            if (g < 0 || g >= nv || pl_topology_vertex(topo, g, &vi) || vi.kind != PL_VK_GPU)
                return pl_err(PL_EINVAL, "pl_policy_place: running job %d: vertex %d is not a GPU",
                              (int)i, (int)g);
        }
    }
    return PL_OK;
}

struct pl_policy {
    const pl_policy_ops *ops;
    pl_policy_opts opts;
    void *state;
    pl_slot_cache slots;    /* the slot jobs of its queue, kept across calls (slot_cache.c) */
    int fresh_slots;        /* pl_policy_fresh_slots() */
};

static int v2(const pl_policy_ops *ops)
{
    return ops->version >= 2;
}

/* What every call checks of the options, whatever the policy. */
static pl_status check_opts(const pl_policy_opts *opts, const char *fn)
{
    if (opts->max_placed < 0)
        return pl_err(PL_EINVAL, "%s: max_placed %d < 0", fn, (int)opts->max_placed);
    if (!(opts->network_load >= 0 && opts->network_load <= 1))
        return pl_err(PL_EINVAL, "%s: network_load %g is not in [0, 1]", fn, opts->network_load);
    if (!isfinite(opts->now))
        return pl_err(PL_EINVAL, "%s: now %g is not finite", fn, opts->now);
    return pl_utility_opts_check(&opts->utility);
}

pl_status pl_policy_create(const pl_policy_opts *opts, pl_policy **out)
{
    if (out)
        *out = NULL;
    if (!opts || !out)
        return pl_err(PL_EINVAL, "pl_policy_create: NULL options or output");
    pl_status st = check_opts(opts, "pl_policy_create");
    const pl_policy_ops *ops = NULL;
    if (!st)
        st = pl_policy_find(opts->policy ? opts->policy : PL_DEFAULT_POLICY, &ops);
    return st ? st : pl_policy_create_ops(ops, opts, out);
}

pl_status pl_policy_create_ops(const pl_policy_ops *ops, const pl_policy_opts *opts, pl_policy **out)
{
    pl_status st = check_opts(opts, "pl_policy_create");
    if (st)
        return st;
    pl_policy *p = pl_alloc(1, sizeof *p);
    if (!p)
        return PL_ENOMEM;
    p->ops = ops;
    p->opts = *opts;
    p->opts.policy = ops->name; /* the registry's string outlives the caller's */
    if (v2(ops) && ops->create)
        st = ops->create(&p->opts, ops->data, &p->state);
    /* Not pl_policy_free: no state to destroy when create failed. */
    return PL_HAND_OUT(st, p, free, out);
}

void pl_policy_free(pl_policy *p)
{
    if (!p)
        return;
    if (v2(p->ops) && p->ops->destroy)
        p->ops->destroy(p->state);
    pl_slot_cache_free(&p->slots);
    free(p);
}

void pl_policy_fresh_slots(pl_policy *p, int fresh)
{
    if (p)
        p->fresh_slots = fresh != 0;
}

const char *pl_policy_name(const pl_policy *p)
{
    return p ? p->ops->name : "";
}

int32_t pl_policy_idle_rounds(const pl_policy *p)
{
    return p && v2(p->ops) && p->ops->idle_rounds ? p->ops->idle_rounds(p->state) : 0;
}

void *pl_policy_state(const pl_policy *p)
{
    return p ? p->state : NULL;
}

uint32_t pl_policy_flags(const pl_policy *p)
{
    return p && v2(p->ops) ? p->ops->flags : 0;
}

pl_status pl_policy_decide(pl_policy *p, const pl_policy_opts *opts, const pl_topology *topo,
                           const pl_running_job *running, int32_t nrunning, pl_job *const *queue,
                           int32_t nqueue, pl_decision **out)
{
    if (out)
        *out = NULL;
    if (!p || !topo || !out)
        return pl_err(PL_EINVAL, "pl_policy_decide: NULL instance, topology or output");
    if (!opts)
        opts = &p->opts;
    else if (strcmp(opts->policy ? opts->policy : PL_DEFAULT_POLICY, p->ops->name))
        return pl_err(PL_EINVAL, "pl_policy_decide: options for policy \"%s\" given to an instance of \"%s\"",
                      opts->policy ? opts->policy : PL_DEFAULT_POLICY, p->ops->name);
    if (nqueue < 0 || (nqueue > 0 && !queue))
        return pl_err(PL_EINVAL, "pl_policy_decide: queue is NULL with nqueue %d", (int)nqueue);
    for (int32_t i = 0; i < nqueue; i++)
        if (!queue[i])
            return pl_err(PL_EINVAL, "pl_policy_decide: queued job %d is NULL", (int)i);
    pl_status st = check_opts(opts, "pl_policy_decide");
    if (!st)
        st = check_running(topo, running, nrunning);
    if (st)
        return st;
    pl_decision *d;
    if ((st = pl_decision_create_internal(nqueue, &d)))
        return st;
    pl_policy_request req = {opts, topo, running, nrunning, queue, nqueue, p->state, v2(p->ops) ? p->ops->data : NULL};
    /* A policy that places CPU-only tasks itself (and refuses what else it
     * cannot honour) sees the jobs as they are; the others through the
     * demand layer (demands.c, which shows neither a GPU partly shared);
     * every policy sees a task of k GPUs as k tasks of one (slots.c; the
     * instance keeps them while a job waits unchanged: slot_cache.c); no
     * policy sees NVMe storage, placed after its decision (storage.c),
     * except the library's own that compose it (PL_POLICY_OWN_STORAGE). */
    st = pl_slots_place(p->ops, &req, p->fresh_slots ? NULL : &p->slots, d);
    if (!st && !(pl_policy_flags(p) & PL_POLICY_OWN_STORAGE))
        st = pl_storage_place(topo, queue, nqueue, d);
    return PL_HAND_OUT(st, d, pl_decision_free, out);
}

pl_status pl_policy_place(const pl_policy_opts *opts, const pl_topology *topo,
                          const pl_running_job *running, int32_t nrunning, pl_job *const *queue,
                          int32_t nqueue, pl_decision **out)
{
    if (out)
        *out = NULL;
    if (!opts || !topo || !out)
        return pl_err(PL_EINVAL, "pl_policy_place: NULL options, topology or output");
    pl_policy *p;
    pl_status st = pl_policy_create(opts, &p);
    if (!st) {
        p->fresh_slots = 1; /* one call: no slot job to keep for a next one */
        st = pl_policy_decide(p, opts, topo, running, nrunning, queue, nqueue, out);
    }
    pl_policy_free(p);
    return st;
}
