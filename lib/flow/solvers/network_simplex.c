/* Placeholder until the real solver lands. */
#include "../flownet_impl.h"

static pl_status solve(const pl_flow_problem *p, const pl_solve_opts *o, pl_flow_solution *out)
{
    (void)p; (void)o; (void)out;
    return pl_err(PL_EINTERNAL, "network-simplex: not implemented yet");
}

const pl_solver_ops pl_solver_network_simplex = {.name = "network-simplex", .description = "placeholder", .solve = solve};
