/* pl_flownet_solve: the driver every solver runs behind. It normalises the
 * network, settles unboundedness itself (so solvers only see problems with
 * an optimum or none), runs the solver, maps the answer back to the user's
 * bounds and optionally certifies it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"

void pl_solve_opts_init(pl_solve_opts *opts)
{
    if (opts)
        memset(opts, 0, sizeof *opts);
}

/* A negative cycle of infinite arcs makes the cost unbounded below if any
 * feasible flow exists. Look for one with Bellman-Ford restricted to those
 * arcs: give every infinite arc capacity 1 and the rest 0 at zero flow. */
static pl_status find_negative_inf_cycle(const pl_flow_problem *p, int *found)
{
    *found = 0;
    int any = 0;
    for (int32_t a = 0; a < p->m && !any; a++)
        any = p->is_inf[a] && p->cost[a] < 0;
    if (!any)
        return PL_OK;
    int64_t *cap = pl_alloc((size_t)p->m, sizeof *cap);
    int64_t *flow = pl_alloc((size_t)p->m, sizeof *flow);
    int64_t *pot = pl_alloc((size_t)p->n, sizeof *pot);
    pl_status st = (cap && flow && pot) ? PL_OK : PL_ENOMEM;
    if (st == PL_OK) {
        for (int32_t a = 0; a < p->m; a++)
            cap[a] = p->is_inf[a];
        pl_flow_problem q = *p;
        q.cap = cap;
        st = pl_residual_potentials(&q, flow, pot);
        if (st == PL_EVERIFY) {
            *found = 1;
            st = PL_OK;
        }
    }
    free(cap);
    free(flow);
    free(pot);
    return st;
}

static pl_status check_unbounded(const pl_flow_problem *p)
{
    int found;
    pl_status st = find_negative_inf_cycle(p, &found);
    if (st || !found)
        return st;
    /* Infeasibility takes precedence: report unbounded only if some flow exists. */
    int64_t *flow = pl_alloc((size_t)p->m, sizeof *flow);
    if (!flow)
        return PL_ENOMEM;
    int feasible = 0;
    st = pl_feasible_flow(p, flow, &feasible);
    free(flow);
    if (st)
        return st;
    if (!feasible)
        return pl_err(PL_EINFEASIBLE, "no flow satisfies the supplies and arc bounds");
    return pl_err(PL_EUNBOUNDED,
                  "a cycle of infinite-capacity arcs has negative total cost: "
                  "the cost decreases without bound");
}

/* A solver may leave an infinite arc at cap_inf, where its potentials only
 * certify the capped problem. The flow is optimal for the real one too, so
 * recompute potentials on the real residual graph (infinite arcs open). */
static pl_status repair_inf_potentials(const pl_flow_problem *p, const int64_t *flow, int64_t *pot)
{
    int saturated = 0;
    for (int32_t a = 0; a < p->m && !saturated; a++)
        saturated = p->is_inf[a] && flow[a] >= p->cap_inf;
    if (!saturated)
        return PL_OK;
    int64_t *cap = pl_alloc((size_t)p->m, sizeof *cap);
    if (!cap)
        return PL_ENOMEM;
    for (int32_t a = 0; a < p->m; a++)
        cap[a] = p->is_inf[a] ? flow[a] + 1 : p->cap[a];
    pl_flow_problem q = *p;
    q.cap = cap;
    pl_status st = pl_residual_potentials(&q, flow, pot);
    free(cap);
    return st;
}

static pl_status find_solver(const pl_solve_opts *opts, const pl_solver_ops **ops)
{
    if (opts->ops) {
        if (!opts->ops->solve || !opts->ops->name)
            return pl_err(PL_EINVAL, "pl_flownet_solve: opts->ops lacks a name or solve function");
        *ops = opts->ops;
        return PL_OK;
    }
    return pl_solver_find(opts->solver ? opts->solver : PL_DEFAULT_SOLVER, ops);
}

/* Check the solver kept its flows within the normalised bounds, so that a
 * faulty (user) solver cannot hand back something we then report as optimal. */
static pl_status check_solver_flow(const pl_flow_problem *p, const int64_t *flow, const char *name)
{
    for (int32_t a = 0; a < p->m; a++)
        if (flow[a] < 0 || flow[a] > p->cap[a])
            return pl_err(PL_EVERIFY, "solver %s returned flow %lld on arc %d outside 0..%lld",
                          name, (long long)flow[a], a, (long long)p->cap[a]);
    return PL_OK;
}

/* Potentials for the nodes added (or revived) since the warm solution.
 * Zero would be arbitrary: next to potentials in the thousands it makes every
 * arc of a new task look profitable, and a warm solver would then push flow
 * down all of them (measured with bench-incremental, 1% task churn: SSP's
 * warm re-solve went from 2.7x slower than its cold solve to 11x faster on a
 * 100k-arc scheduling graph, from 3.8x slower to 5x faster at 1M arcs). A new
 * node gets the smallest potential under which none of its residual arcs to
 * old nodes has a negative reduced cost, pi(v) = max (pi(h) - cost), kept
 * within the old potentials' range so no solver sees larger values than
 * before. Residual arcs into v may still violate; the solver repairs those
 * as after any change. */
static void fresh_potentials(pl_flownet *net, const pl_flow_problem *p)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int32_t v = 0; v < net->warm_n; v++) /* warm_n <= n: ids are never dropped */
        if (net->node_dead[v] == PL_NODE_LIVE) {
            lo = net->pot[v] < lo ? net->pot[v] : lo;
            hi = net->pot[v] > hi ? net->pot[v] : hi;
        }
    for (int32_t v = 0; v < net->n; v++) {
        int fresh = v >= net->warm_n || net->node_dead[v] == PL_NODE_REVIVED;
        if (!fresh)
            continue;
        if (net->node_dead[v] == PL_NODE_REVIVED)
            net->node_dead[v] = PL_NODE_LIVE;
        int64_t best = INT64_MIN;
        for (int32_t i = p->out_first[v]; i < pl_out_end(p, v); i++) {
            int32_t r = p->out_arcs[i], h = pl_residual_head(p, r);
            int old = h < net->warm_n && net->node_dead[h] == PL_NODE_LIVE;
            if (old && pl_residual_cap(p, net->flow, r) > 0) {
                int64_t want = net->pot[h] - pl_residual_cost(p, r); /* |pot| <= 2^61, |cost| <= 2^60 */
                best = want > best ? want : best;
            }
        }
        net->pot[v] = best == INT64_MIN || lo > hi ? 0 : best < lo ? lo : best > hi ? hi : best;
    }
}

/* Fill the solution arrays with the solver's starting point: the previous
 * solution mapped onto the current bounds (warm), or zeros (cold). Arcs added
 * since that solution start at zero flow, nodes with fresh_potentials(). */
static int prepare_start(pl_flownet *net, const pl_flow_problem *p, const pl_solver_ops *ops,
                         const pl_solve_opts *opts)
{
    int warm = net->warm_valid && !opts->cold_start && (ops->flags & PL_SOLVER_WARM_START);
    net->warm_valid = 0; /* the arrays are about to be overwritten */
    if (!warm) {
        for (int32_t v = 0; v < net->n; v++) /* the cold solution gives them potentials */
            if (net->node_dead[v] == PL_NODE_REVIVED)
                net->node_dead[v] = PL_NODE_LIVE;
        memset(net->flow, 0, (size_t)net->m * sizeof *net->flow);
        memset(net->pot, 0, (size_t)net->n * sizeof *net->pot);
        return 0;
    }
    for (int32_t a = 0; a < net->m; a++) {
        int64_t f = a < net->warm_m ? net->flow[a] : 0, x;
        /* Clip the previous flow into the current [lower, upper], shifted to [0, cap]. */
        if (pl_sub_ovf(f, net->lower[a], &x) || x < 0)
            x = 0;
        net->flow[a] = x > p->cap[a] ? p->cap[a] : x;
    }
    fresh_potentials(net, p);
    return 1;
}

/* The incremental path applies to an armed network (incremental.c), a
 * solver flagged for it and a warm start from a solution the network still
 * holds in its arrays. */
static int take_incremental(pl_flownet *net, const pl_solver_ops *ops, const pl_solve_opts *opts,
                            pl_flow_problem *p, pl_flow_delta *delta)
{
    unsigned need = PL_SOLVER_WARM_START | PL_SOLVER_INCREMENTAL;
    return (ops->flags & need) == need && !opts->cold_start && net->warm_valid &&
           (!net->state_ops || net->state_ops == ops) && pl_inc_problem(net, p, delta);
}

static pl_status full_setup(pl_flownet *net, const pl_solver_ops *ops, const pl_solve_opts *opts,
                            pl_flow_problem *p, pl_solve_stats *stats)
{
    pl_status st;
    pl_inc_disarm(net);
    if ((st = pl_flownet_normalise(net, p)) || (st = check_unbounded(p)) ||
        (st = pl_flownet_alloc_solution(net)))
        return st;
    if (net->state_ops != ops || (opts->cold_start && !(ops->flags & PL_SOLVER_COLD_KEEPS_STATE)))
        pl_flownet_drop_state(net);
    p->warm = stats->warm = prepare_start(net, p, ops, opts);
    p->structure_version = net->structure_version;
    return PL_OK;
}

/* One message for an infeasible network, whatever solver found it: a
 * maximum flow routes what it can, and the message names the first node
 * (by its DIMACS id and name) left holding supply. Solvers named their own
 * 0-based internal nodes, and two solvers named different ones. */
static pl_status explain_infeasible(pl_flownet *net, const char *solver)
{
    pl_flow_problem p;
    pl_status st = pl_flownet_normalise(net, &p);
    if (st)
        return st; /* normalising found it itself (supplies that do not balance) */
    int64_t *flow = pl_alloc((size_t)p.m + 1, sizeof *flow);
    int64_t *left = pl_alloc((size_t)p.n + 1, sizeof *left);
    int feasible = 1;
    if (!flow || !left || pl_feasible_flow(&p, flow, &feasible) || feasible) {
        free(flow);
        free(left);
        return pl_err(PL_EINFEASIBLE, "%s: no flow satisfies the supplies and arc bounds", solver);
    }
    for (int32_t v = 0; v < p.n; v++)
        left[v] = p.supply[v];
    for (int32_t a = 0; a < p.m; a++) {
        left[p.tail[a]] -= flow[a];
        left[p.head[a]] += flow[a];
    }
    int64_t total = 0, supplied = 0;
    int32_t at = -1;
    for (int32_t v = 0; v < p.n; v++) {
        supplied += p.supply[v] > 0 ? p.supply[v] : 0;
        if (left[v] > 0) {
            total += left[v];
            at = at < 0 ? v : at;
        }
    }
    const char *name = at >= 0 ? pl_flownet_node_name(net, at) : NULL;
    st = pl_err(PL_EINFEASIBLE, "%s: no flow satisfies the supplies and arc bounds: %lld of the "
                "%lld units of supply cannot reach any demand (%lld of them at node %lld%s%s%s)",
                solver, (long long)total, (long long)supplied, (long long)(at >= 0 ? left[at] : 0),
                (long long)at + net->id_base, name ? " \"" : "", name ? name : "", name ? "\"" : "");
    free(flow);
    free(left);
    return st;
}

static pl_status run(pl_flownet *net, const pl_solver_ops *ops, const pl_solve_opts *opts,
                     pl_solve_stats *stats)
{
    double t0 = pl_now();
    pl_flow_problem p;
    pl_flow_delta delta;
    pl_status st;
    int inc = take_incremental(net, ops, opts, &p, &delta);
    if (inc) {
        /* Flows, imbalances and lists are current; only new nodes need a price. */
        fresh_potentials(net, &p);
        net->warm_valid = 0;
        stats->warm = 1;
    } else if ((st = full_setup(net, ops, opts, &p, stats))) {
        return st;
    }
    stats->incremental = inc;
    pl_flow_solution sol = {.flow = net->flow, .potential = net->pot,
                            .state = ops->free_state ? &net->solver_state : NULL};

    double t1 = pl_now();
    st = ops->solve(&p, opts, &sol);
    double t2 = pl_now();
    stats->iterations = sol.iterations;
    stats->memory_bytes = sol.memory_bytes;
    stats->setup_seconds = t1 - t0;
    stats->solve_seconds = t2 - t1;
    if (net->solver_state)
        net->state_ops = ops;
    if (st) {
        /* A failed solve may leave its state half-updated: start afresh next time. */
        pl_flownet_drop_state(net);
        pl_inc_disarm(net);
        return st == PL_EINFEASIBLE ? explain_infeasible(net, ops->name) : st;
    }
    /* An incremental solver's flows are trusted (opts->verify checks them). */
    if ((!inc && (st = check_solver_flow(&p, net->flow, ops->name))) ||
        (st = repair_inf_potentials(&p, net->flow, net->pot))) {
        pl_inc_disarm(net);
        return st;
    }
    if (inc) {
        pl_inc_solved(net);
        pl_flownet_commit_lazy(net);
        return PL_OK;
    }
    for (int32_t a = 0; a < net->m; a++)
        if (pl_add_ovf(net->flow[a], net->lower[a], &net->flow[a]))
            return pl_err(PL_EOVERFLOW, "arc %d: flow plus lower bound overflows", a);
    if ((st = pl_flownet_commit_solution(net)))
        return st;
    if (ops->flags & PL_SOLVER_INCREMENTAL)
        pl_inc_arm(net, p.cap_inf);
    return PL_OK;
}

pl_status pl_flownet_solve(pl_flownet *net, const pl_solve_opts *opts, pl_solve_stats *stats)
{
    if (!net)
        return pl_err(PL_EINVAL, "pl_flownet_solve: net is NULL");
    pl_solve_opts defaults;
    if (!opts) {
        pl_solve_opts_init(&defaults);
        opts = &defaults;
    }
    if (opts->max_iterations < 0)
        return pl_err(PL_EINVAL, "pl_flownet_solve: max_iterations is negative");
    /* The solvers read reserved[0] as the race's stop flag (race.c sets it
     * on its entrants' copies): a caller's must be zero. */
    for (size_t i = 0; i < sizeof opts->reserved / sizeof *opts->reserved; i++)
        if (opts->reserved[i])
            return pl_err(PL_EINVAL, "pl_flownet_solve: reserved[%d] is not zero (initialise the options "
                          "with pl_solve_opts_init())", (int)i);
    const pl_solver_ops *ops;
    pl_status st = find_solver(opts, &ops);
    if (st)
        return st;

    pl_solve_stats local;
    if (!stats)
        stats = &local;
    *stats = (pl_solve_stats){.solver = ops->name, .nodes = net->n, .arcs = net->m};
    pl_flownet_invalidate(net);
    st = run(net, ops, opts, stats);
    if (st == PL_OK && opts->verify && (st = pl_flow_verify(net)) != PL_OK) {
        /* The message buffer is the one being rewritten: copy it first. */
        char why[512];
        snprintf(why, sizeof why, "%s", pl_last_error());
        pl_flownet_invalidate(net);
        return pl_err(st, "solver %s: %s", ops->name, why);
    }
    if (st)
        pl_flownet_invalidate(net);
    return st;
}
