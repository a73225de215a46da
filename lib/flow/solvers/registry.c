/* Solvers by name (the registry itself: lib/core/registry.c). */
#include "internal/flownet_impl.h"
#include "internal/registry.h"

/* The default (PL_DEFAULT_SOLVER) comes first. */
static const pl_solver_ops *const builtin[] = {
    &pl_solver_network_simplex,
    &pl_solver_ssp,
    &pl_solver_cost_scaling,
    &pl_solver_cycle_canceling,
    &pl_solver_glpk,
    &pl_solver_relaxation,
    &pl_solver_race,
};
#define N_BUILTIN ((int)(sizeof builtin / sizeof builtin[0]))

static const char *name_of(const void *ops)
{
    return ((const pl_solver_ops *)ops)->name;
}

static pl_registry reg = PL_REGISTRY_INIT("solver", (const void *const *)builtin, N_BUILTIN, name_of);

pl_status pl_solver_register(const pl_solver_ops *ops)
{
    if (!ops || !ops->name || !ops->solve || !ops->name[0])
        return pl_err(PL_EINVAL, "pl_solver_register: ops needs a non-empty name and a solve function");
    return pl_registry_add(&reg, ops, "pl_solver_register");
}

pl_status pl_solver_unregister(const char *name)
{
    return pl_registry_remove(&reg, name, "pl_solver_unregister");
}

pl_status pl_solver_find(const char *name, const pl_solver_ops **ops)
{
    const void *o = NULL;
    pl_status st = pl_registry_find(&reg, name, &o, "pl_solver_find");
    if (ops)
        *ops = o;
    return st;
}

int pl_solver_count(void)
{
    return pl_registry_count(&reg);
}

const pl_solver_ops *pl_solver_at(int i)
{
    return pl_registry_at(&reg, i);
}
