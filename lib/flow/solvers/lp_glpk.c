/* The "glpk" solver: the normalised problem as a linear program solved with
 * GLPK's primal simplex. The constraint matrix is a network matrix, totally
 * unimodular, so the optimal basic solution GLPK returns is integral and so
 * are its row duals (for integral costs); both are rounded back to int64_t
 * after checking they really are integers. */
#include "internal/flownet_impl.h"
#include "internal/glpk_util.h"

typedef struct glpk_job {
    const pl_flow_problem *p;
    const pl_solve_opts *opts;
    pl_flow_solution *out;
} glpk_job;

static pl_glpk_net as_glpk_net(const pl_flow_problem *p)
{
    /* Infinite arcs stay unbounded in the LP rather than capped at cap_inf:
     * a basic optimum never needs more than the finite capacities plus the
     * supplies (< cap_inf), and cap_inf itself may exceed GLPK's 2^53. */
    return (pl_glpk_net){.n = p->n, .m = p->m, .tail = p->tail, .head = p->head,
                         .lower = NULL, .upper = p->cap, .is_inf = p->is_inf,
                         .cost = p->cost, .supply = p->supply};
}

static pl_status read_flows(glp_prob *lp, const pl_flow_problem *p, int64_t *flow)
{
    for (int32_t a = 0; a < p->m; a++) {
        double x = glp_get_col_prim(lp, a + 1);
        if (pl_glpk_round(x, &flow[a]))
            return pl_err(PL_EINTERNAL, "glpk: flow %.17g on arc %d is not an integer", x, a);
        if (flow[a] < 0 || flow[a] > p->cap[a])
            return pl_err(PL_EINTERNAL, "glpk: flow %lld on arc %d outside 0..%lld",
                          (long long)flow[a], a, (long long)p->cap[a]);
    }
    return PL_OK;
}

/* GLPK's reduced cost of arc (u,v) is c - y_u + y_v for row duals y; the
 * library's is c + pot[u] - pot[v], hence pot = -y. */
static pl_status read_potentials(glp_prob *lp, const pl_flow_problem *p, int64_t *pot)
{
    for (int32_t v = 0; v < p->n; v++) {
        double y = glp_get_row_dual(lp, v + 1);
        int64_t k;
        if (pl_glpk_round(y, &k))
            return pl_err(PL_EINTERNAL, "glpk: dual %.17g of node %d is not an integer", y, v);
        pot[v] = -k;
    }
    return PL_OK;
}

static pl_status solve_body(glp_prob *lp, void *arg)
{
    glpk_job *job = arg;
    pl_glpk_net net = as_glpk_net(job->p);
    pl_glpk_build(lp, &net);
    pl_status st = pl_glpk_simplex(lp, job->opts->max_iterations);
    job->out->iterations = glp_get_it_cnt(lp);
    if (st)
        return st;
    if ((st = read_flows(lp, job->p, job->out->flow)))
        return st;
    return read_potentials(lp, job->p, job->out->potential);
}

static pl_status solve(const pl_flow_problem *p, const pl_solve_opts *opts,
                       pl_flow_solution *out)
{
    pl_glpk_net net = as_glpk_net(p);
    pl_status st = pl_glpk_check_range(&net);
    if (st)
        return st;
    glpk_job job = {.p = p, .opts = opts, .out = out};
    return pl_glpk_run(solve_body, &job);
}

const pl_solver_ops pl_solver_glpk = {
    .name = "glpk",
    .description = "GLPK primal simplex on the LP relaxation (exact: network matrices are totally unimodular)",
    .solve = solve,
};
