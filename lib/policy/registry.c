/* Policies by name (the registry itself: lib/core/registry.c), and
 * pl_policy_place(). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "policy_impl.h"
#include "kim.h"
#include "../core/registry.h"

static const pl_policy_ops *const builtin[] = {
    &pl_policy_topo_aware, &pl_policy_topo_aware_p, &pl_policy_fcfs, &pl_policy_bf,
    &pl_policy_pack,       &pl_policy_spread,       &pl_policy_random,
    &pl_policy_drmaestro,  &pl_policy_drmaestro_na,
    &pl_policy_sa_placement, &pl_policy_two_level, &pl_policy_gpu_qos,
    &pl_policy_constraint_energy,
    &pl_policy_constraint_balance,
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
    opts->policy = "topo-aware";
    pl_utility_opts_init(&opts->utility);
    opts->profiles = NULL;
    opts->seed = 1;
    opts->max_placed = 0;
}

pl_status pl_policy_register(const pl_policy_ops *ops)
{
    if (!ops || !ops->name || !ops->place || !ops->name[0])
        return pl_err(PL_EINVAL, "pl_policy_register: ops needs a non-empty name and a place function");
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

pl_status pl_policy_place(const pl_policy_opts *opts, const pl_topology *topo,
                          const pl_running_job *running, int32_t nrunning, pl_job *const *queue,
                          int32_t nqueue, pl_decision **out)
{
    if (out)
        *out = NULL;
    if (!opts || !topo || !out)
        return pl_err(PL_EINVAL, "pl_policy_place: NULL options, topology or output");
    if (nqueue < 0 || (nqueue > 0 && !queue))
        return pl_err(PL_EINVAL, "pl_policy_place: queue is NULL with nqueue %d", (int)nqueue);
    for (int32_t i = 0; i < nqueue; i++)
        if (!queue[i])
            return pl_err(PL_EINVAL, "pl_policy_place: queued job %d is NULL", (int)i);
    if (opts->max_placed < 0)
        return pl_err(PL_EINVAL, "pl_policy_place: max_placed %d < 0", (int)opts->max_placed);
    if (!(opts->network_load >= 0 && opts->network_load <= 1))
        return pl_err(PL_EINVAL, "pl_policy_place: network_load %g is not in [0, 1]", opts->network_load);
    pl_status st = pl_utility_opts_check(&opts->utility);
    if (st)
        return st;
    if ((st = check_running(topo, running, nrunning)))
        return st;
    const pl_policy_ops *ops;
    if ((st = pl_policy_find(opts->policy ? opts->policy : "topo-aware", &ops)))
        return st;
    pl_decision *d;
    if ((st = pl_decision_create_internal(nqueue, &d)))
        return st;
    pl_policy_request req = {opts, topo, running, nrunning, queue, nqueue};
    if ((st = ops->place(&req, d))) {
        pl_decision_free(d);
        return st;
    }
    *out = d;
    return PL_OK;
}
