/* pl_flow_lp_check: a second opinion on a held solution's optimality from
 * GLPK, solving the user's network as built (lower bounds and infinite
 * capacities as they are), so nothing of the normalisation or of our own
 * solvers is trusted. */
#include "internal/flownet_impl.h"
#include "internal/glpk_util.h"

/* GLPK finding no optimum while a solution is held means the two disagree. */
static pl_status no_optimum(pl_status st, int64_t held)
{
    if (st == PL_EINFEASIBLE)
        return pl_err(PL_EVERIFY, "GLPK finds the problem infeasible, yet a solution of cost "
                      "%lld is held", (long long)held);
    return pl_err(PL_EVERIFY, "GLPK finds the problem unbounded, so the held solution of "
                  "cost %lld cannot be optimal", (long long)held);
}

pl_status pl_flow_lp_check(const pl_flownet *net, int64_t *lp_cost)
{
    if (!net)
        return pl_err(PL_EINVAL, "pl_flow_lp_check: net is NULL");
    if (!net->has_solution)
        return pl_err(PL_ESTATE, "pl_flow_lp_check: the network holds no solution "
                      "(solve it or install one with pl_flownet_set_solution)");
    int64_t opt, held;
    pl_status st = pl_flownet_held_cost(net, &held);
    if (st)
        return st;
    st = pl_glpk_min_cost(net->n, net->m, net->tail, net->head, net->lower,
                                    net->upper, net->cost, net->supply, &opt);
    if (st == PL_EINFEASIBLE || st == PL_EUNBOUNDED)
        return no_optimum(st, held);
    if (st)
        return st;
    if (lp_cost)
        *lp_cost = opt;
    if (opt != held)
        return pl_err(PL_EVERIFY, "LP optimum %lld differs from the solution's cost %lld",
                      (long long)opt, (long long)held);
    return PL_OK;
}
