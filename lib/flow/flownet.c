/* pl_flownet: building, querying and holding a solution. Normalisation and
 * solving live in normalise.c and solve.c. */
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"
#include "internal/columns.h"

pl_status pl_flownet_create(pl_flownet **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_flownet_create: out is NULL");
    pl_flownet *net = pl_alloc(1, sizeof *net);
    if (!net)
        return PL_ENOMEM;
    net->id_base = 1;
    *out = net;
    return PL_OK;
}

/* Grown with the node and arc counts (name only once a node is named). */
static const pl_column node_cols[] = {PL_COLUMN(pl_flownet, supply), PL_COLUMN(pl_flownet, node_dead)};
static const pl_column name_col[] = {PL_COLUMN(pl_flownet, name)};
static const pl_column arc_cols[] = {
    PL_COLUMN(pl_flownet, tail),  PL_COLUMN(pl_flownet, head), PL_COLUMN(pl_flownet, lower),
    PL_COLUMN(pl_flownet, upper), PL_COLUMN(pl_flownet, cost), PL_COLUMN(pl_flownet, arc_dead),
};
/* Sized by the solves, the reuse stacks and incremental.c rather than here. */
static const pl_column other_cols[] = {
    PL_COLUMN(pl_flownet, flow),        PL_COLUMN(pl_flownet, pot),
    PL_COLUMN(pl_flownet, free_nodes),  PL_COLUMN(pl_flownet, free_arcs),
    PL_COLUMN(pl_flownet, out_first),   PL_COLUMN(pl_flownet, out_end),
    PL_COLUMN(pl_flownet, out_arcs),    PL_COLUMN(pl_flownet, ncap),
    PL_COLUMN(pl_flownet, nsupply),     PL_COLUMN(pl_flownet, is_inf),
    PL_COLUMN(pl_flownet, inc.lim),     PL_COLUMN(pl_flownet, inc.pos),
    PL_COLUMN(pl_flownet, inc.imb),     PL_COLUMN(pl_flownet, inc.changed),
    PL_COLUMN(pl_flownet, inc.is_changed),
};

void pl_flownet_free(pl_flownet *net)
{
    if (!net)
        return;
    for (int32_t v = 0; net->name && v < net->n; v++)
        free(net->name[v]);
    pl_columns_free(net, name_col, 1);
    pl_columns_free(net, node_cols, PL_NCOLUMNS(node_cols));
    pl_columns_free(net, arc_cols, PL_NCOLUMNS(arc_cols));
    pl_columns_free(net, other_cols, PL_NCOLUMNS(other_cols));
    pl_flownet_drop_state(net);
    free(net);
}

void pl_flownet_drop_state(pl_flownet *net)
{
    if (net->solver_state && net->state_ops && net->state_ops->free_state)
        net->state_ops->free_state(net->solver_state);
    net->solver_state = NULL;
    net->state_ops = NULL;
}

void pl_flownet_invalidate(pl_flownet *net)
{
    net->has_solution = 0;
}

/* Grow node arrays to hold need nodes. A failed growth leaves every array
 * usable at its old length. */
static pl_status grow_nodes(pl_flownet *net, int64_t need)
{
    if (need <= net->node_cap)
        return PL_OK;
    int64_t cap = pl_next_cap(net->node_cap, need);
    pl_status st = pl_columns_grow(net, node_cols, PL_NCOLUMNS(node_cols), net->node_cap, cap);
    if (!st && net->name)
        st = pl_columns_grow(net, name_col, 1, net->node_cap, cap);
    if (!st)
        net->node_cap = cap;
    return st;
}

static pl_status grow_arcs(pl_flownet *net, int64_t need)
{
    if (need <= net->arc_cap)
        return PL_OK;
    int64_t cap = pl_next_cap(net->arc_cap, need);
    pl_status st = pl_columns_grow(net, arc_cols, PL_NCOLUMNS(arc_cols), net->arc_cap, cap);
    if (!st)
        net->arc_cap = cap;
    return st;
}

pl_status pl_flownet_reserve(pl_flownet *net, int32_t nodes, int32_t arcs)
{
    if (!net)
        return pl_err(PL_EINVAL, "pl_flownet_reserve: net is NULL");
    if (nodes < 0 || arcs < 0 || nodes > PL_FLOWNET_MAX_SIZE || arcs > PL_FLOWNET_MAX_SIZE)
        return pl_err(PL_EINVAL, "pl_flownet_reserve: sizes %d nodes, %d arcs outside 0..%d",
                      nodes, arcs, PL_FLOWNET_MAX_SIZE);
    pl_status st = grow_nodes(net, nodes);
    return st ? st : grow_arcs(net, arcs);
}

static pl_status check_node(const pl_flownet *net, int32_t v, const char *fn)
{
    if (!net)
        return pl_err(PL_EINVAL, "%s: net is NULL", fn);
    if (v < 0 || v >= net->n)
        return pl_err(PL_EINVAL, "%s: node %d out of range 0..%d", fn, v, net->n - 1);
    if (net->node_dead[v] == PL_NODE_DEAD)
        return pl_err(PL_EINVAL, "%s: node %d was removed", fn, v);
    return PL_OK;
}

static pl_status check_arc(const pl_flownet *net, int32_t a, const char *fn)
{
    if (!net)
        return pl_err(PL_EINVAL, "%s: net is NULL", fn);
    if (a < 0 || a >= net->m)
        return pl_err(PL_EINVAL, "%s: arc %d out of range 0..%d", fn, a, net->m - 1);
    if (net->arc_dead[a])
        return pl_err(PL_EINVAL, "%s: arc %d was removed", fn, a);
    return PL_OK;
}

static pl_status check_bounds(int64_t lower, int64_t upper, const char *fn)
{
    if (lower == PL_CAP_INF)
        return pl_err(PL_EINVAL, "%s: lower bound cannot be infinite", fn);
    if (lower > upper)
        return pl_err(PL_EINVAL, "%s: lower bound %lld exceeds upper bound %lld", fn,
                      (long long)lower, (long long)upper);
    return PL_OK;
}

pl_status pl_flownet_add_nodes(pl_flownet *net, int32_t count, int32_t *first_id)
{
    if (!net)
        return pl_err(PL_EINVAL, "pl_flownet_add_nodes: net is NULL");
    if (count < 0 || (int64_t)net->n + count > PL_FLOWNET_MAX_SIZE)
        return pl_err(PL_EINVAL, "pl_flownet_add_nodes: %d nodes would exceed the limit of %d",
                      count, PL_FLOWNET_MAX_SIZE);
    pl_status st = grow_nodes(net, (int64_t)net->n + count);
    if (st)
        return st;
    if (count) /* supply may still be NULL */
        memset(net->supply + net->n, 0, (size_t)count * sizeof *net->supply);
    if (first_id)
        *first_id = net->n;
    net->n += count;
    for (int32_t v = net->n - count; v < net->n; v++)
        pl_inc_node_added(net, v);
    if (!net->inc.armed)
        net->csr_valid = 0;
    net->structure_version++;
    pl_flownet_invalidate(net);
    return PL_OK;
}

/* Take a free id off a reuse stack, or -1. */
static int32_t pop_free(int32_t *stack, int64_t *count)
{
    return *count > 0 ? stack[--*count] : -1;
}

static pl_status push_free(int32_t **stack, int64_t *count, int64_t *cap, int32_t id)
{
    pl_status st = pl_grow((void **)stack, cap, *count + 1, sizeof **stack);
    if (st)
        return st;
    (*stack)[(*count)++] = id;
    return PL_OK;
}

/* Bring a removed node back as a fresh one: no name, zero supply, and a
 * warm-start potential that the next solve derives from its arcs. */
static int32_t revive_node(pl_flownet *net)
{
    int32_t v = pop_free(net->free_nodes, &net->n_free_nodes);
    if (v < 0)
        return -1;
    net->node_dead[v] = PL_NODE_REVIVED;
    net->supply[v] = 0; /* its potential: fresh_potentials() in solve.c, or a cold start */
    pl_inc_node_added(net, v);
    if (!net->inc.armed)
        net->csr_valid = 0;
    net->structure_version++;
    pl_flownet_invalidate(net);
    return v;
}

pl_status pl_flownet_add_node(pl_flownet *net, const char *name, int64_t supply, int32_t *id)
{
    if (!net)
        return pl_err(PL_EINVAL, "pl_flownet_add_node: net is NULL");
    /* Everything that can fail happens before an id is taken. */
    char *copy = NULL;
    if (name) {
        if (!net->name && !(net->name = pl_alloc((size_t)net->node_cap, sizeof *net->name)))
            return PL_ENOMEM;
        if (!(copy = pl_strdup(name)))
            return PL_ENOMEM;
    }
    int32_t v = revive_node(net);
    pl_status st;
    if (v < 0 && (st = pl_flownet_add_nodes(net, 1, &v)) != PL_OK) {
        free(copy);
        return st;
    }
    pl_inc_supply(net, v, supply);
    net->supply[v] = supply;
    if (copy)
        net->name[v] = copy;
    if (id)
        *id = v;
    return PL_OK;
}

pl_status pl_flownet_add_arc(pl_flownet *net, int32_t tail, int32_t head,
                             int64_t lower, int64_t upper, int64_t cost, int32_t *id)
{
    static const char fn[] = "pl_flownet_add_arc";
    pl_status st;
    if ((st = check_node(net, tail, fn)) || (st = check_node(net, head, fn)) ||
        (st = check_bounds(lower, upper, fn)))
        return st;
    int32_t a = pop_free(net->free_arcs, &net->n_free_arcs);
    if (a >= 0) {
        net->arc_dead[a] = 0;
        if (a < net->warm_m)
            net->flow[a] = 0; /* the reused id starts empty */
    } else {
        if (net->m >= PL_FLOWNET_MAX_SIZE)
            return pl_err(PL_EINVAL, "%s: network already has the maximum of %d arcs", fn,
                          PL_FLOWNET_MAX_SIZE);
        if ((st = grow_arcs(net, (int64_t)net->m + 1)))
            return st;
        a = net->m++;
    }
    net->tail[a] = tail;
    net->head[a] = head;
    net->lower[a] = lower;
    net->upper[a] = upper;
    net->cost[a] = cost;
    pl_inc_arc_added(net, a);
    if (!net->inc.armed)
        net->csr_valid = 0;
    net->structure_version++;
    pl_flownet_invalidate(net);
    if (id)
        *id = a;
    return PL_OK;
}

/* A removed arc stays in the arrays (and the CSR) as an inert [0, 0] arc
 * until its id is reused, so removal needs no rebuild. */
static pl_status kill_arc(pl_flownet *net, int32_t a)
{
    pl_status st = push_free(&net->free_arcs, &net->n_free_arcs, &net->free_arcs_cap, a);
    if (st)
        return st;
    pl_inc_arc_killed(net, a);
    net->arc_dead[a] = 1;
    net->lower[a] = net->upper[a] = net->cost[a] = 0;
    if (a < net->warm_m)
        net->flow[a] = 0;
    net->structure_version++;
    pl_flownet_invalidate(net);
    return PL_OK;
}

pl_status pl_flownet_remove_arc(pl_flownet *net, int32_t arc)
{
    pl_status st = check_arc(net, arc, "pl_flownet_remove_arc");
    return st ? st : kill_arc(net, arc);
}

pl_status pl_flownet_remove_node(pl_flownet *net, int32_t node)
{
    pl_status st;
    if ((st = check_node(net, node, "pl_flownet_remove_node")) || (st = pl_flownet_build_csr(net)))
        return st;
    /* Reserve the free-list slots first so that nothing fails half-way. */
    int64_t degree = net->out_end[node] - net->out_first[node];
    if ((st = pl_grow((void **)&net->free_arcs, &net->free_arcs_cap, net->n_free_arcs + degree,
                      sizeof *net->free_arcs)) ||
        (st = pl_grow((void **)&net->free_nodes, &net->free_nodes_cap, net->n_free_nodes + 1,
                      sizeof *net->free_nodes)))
        return st;
    /* Kill the arcs in increasing id order, as the compact lists hold them,
     * so that ids are reused in the same order whichever lists the network
     * has (gapped lists also lose each entry as its arc dies: copy first). */
    int32_t *arcs = pl_alloc((size_t)(degree ? degree : 1), sizeof *arcs);
    if (!arcs)
        return PL_ENOMEM;
    for (int64_t i = 0; i < degree; i++)
        arcs[i] = net->out_arcs[net->out_first[node] + i] >> 1;
    if (net->inc.armed)
        qsort(arcs, (size_t)degree, sizeof *arcs, pl_cmp_i32);
    for (int64_t i = 0; i < degree; i++)
        if (!net->arc_dead[arcs[i]])
            kill_arc(net, arcs[i]);
    free(arcs);
    free(net->name ? net->name[node] : NULL);
    if (net->name)
        net->name[node] = NULL;
    pl_inc_supply(net, node, 0);
    net->supply[node] = 0;
    net->node_dead[node] = PL_NODE_DEAD;
    if (node < net->warm_n)
        net->pot[node] = 0;
    push_free(&net->free_nodes, &net->n_free_nodes, &net->free_nodes_cap, node);
    net->structure_version++;
    pl_flownet_invalidate(net);
    return PL_OK;
}

int pl_flownet_node_removed(const pl_flownet *net, int32_t node)
{
    return net && node >= 0 && node < net->n && net->node_dead[node] == PL_NODE_DEAD;
}

int pl_flownet_arc_removed(const pl_flownet *net, int32_t arc)
{
    return net && arc >= 0 && arc < net->m && net->arc_dead[arc];
}

pl_status pl_flownet_set_supply(pl_flownet *net, int32_t node, int64_t supply)
{
    pl_status st = check_node(net, node, "pl_flownet_set_supply");
    if (st)
        return st;
    pl_inc_supply(net, node, supply);
    net->supply[node] = supply;
    pl_flownet_invalidate(net);
    return PL_OK;
}

pl_status pl_flownet_set_node_name(pl_flownet *net, int32_t node, const char *name)
{
    pl_status st = check_node(net, node, "pl_flownet_set_node_name");
    if (st)
        return st;
    if (!net->name) {
        if (!name)
            return PL_OK;
        net->name = pl_alloc((size_t)net->node_cap, sizeof *net->name);
        if (!net->name)
            return PL_ENOMEM;
    }
    char *copy = NULL;
    if (name && !(copy = pl_strdup(name)))
        return PL_ENOMEM;
    free(net->name[node]);
    net->name[node] = copy;
    return PL_OK;
}

pl_status pl_flownet_set_arc_cost(pl_flownet *net, int32_t arc, int64_t cost)
{
    pl_status st = check_arc(net, arc, "pl_flownet_set_arc_cost");
    if (st)
        return st;
    pl_inc_arc_cost(net, arc, cost);
    net->cost[arc] = cost;
    pl_flownet_invalidate(net);
    return PL_OK;
}

pl_status pl_flownet_set_arc_bounds(pl_flownet *net, int32_t arc, int64_t lower, int64_t upper)
{
    static const char fn[] = "pl_flownet_set_arc_bounds";
    pl_status st;
    if ((st = check_arc(net, arc, fn)) || (st = check_bounds(lower, upper, fn)))
        return st;
    pl_inc_arc_bounds(net, arc, lower, upper);
    net->lower[arc] = lower;
    net->upper[arc] = upper;
    pl_flownet_invalidate(net);
    return PL_OK;
}

int32_t pl_flownet_node_count(const pl_flownet *net)
{
    return net ? net->n : 0;
}

int32_t pl_flownet_arc_count(const pl_flownet *net)
{
    return net ? net->m : 0;
}

pl_status pl_flownet_get_arc(const pl_flownet *net, int32_t arc, pl_arc_info *info)
{
    pl_status st = check_arc(net, arc, "pl_flownet_get_arc");
    if (st)
        return st;
    if (!info)
        return pl_err(PL_EINVAL, "pl_flownet_get_arc: info is NULL");
    *info = (pl_arc_info){.tail = net->tail[arc], .head = net->head[arc], .lower = net->lower[arc],
                          .upper = net->upper[arc], .cost = net->cost[arc]};
    return PL_OK;
}

pl_status pl_flownet_get_supply(const pl_flownet *net, int32_t node, int64_t *supply)
{
    pl_status st = check_node(net, node, "pl_flownet_get_supply");
    if (st)
        return st;
    if (!supply)
        return pl_err(PL_EINVAL, "pl_flownet_get_supply: supply is NULL");
    *supply = net->supply[node];
    return PL_OK;
}

const char *pl_flownet_node_name(const pl_flownet *net, int32_t node)
{
    if (!net || !net->name || node < 0 || node >= net->n)
        return NULL;
    return net->name[node];
}

pl_status pl_flownet_find_node(const pl_flownet *net, const char *name, int32_t *node)
{
    if (!net || !name || !node)
        return pl_err(PL_EINVAL, "pl_flownet_find_node: NULL argument");
    for (int32_t v = 0; net->name && v < net->n; v++) {
        if (net->name[v] && strcmp(net->name[v], name) == 0) {
            *node = v;
            return PL_OK;
        }
    }
    return pl_err(PL_ENOTFOUND, "pl_flownet_find_node: no node is named \"%s\"", name);
}

int pl_flownet_id_base(const pl_flownet *net)
{
    return net ? net->id_base : 1;
}

pl_status pl_flownet_set_id_base(pl_flownet *net, int base)
{
    if (!net || (base != 0 && base != 1))
        return pl_err(PL_EINVAL, "pl_flownet_set_id_base: base must be 0 or 1 (got %d)", base);
    net->id_base = base;
    return PL_OK;
}

/* ---- held solution ------------------------------------------------------- */

static pl_status need_solution(const pl_flownet *net, const char *fn)
{
    if (!net)
        return pl_err(PL_EINVAL, "%s: net is NULL", fn);
    if (!net->has_solution)
        return pl_err(PL_ESTATE, "%s: the network holds no solution (solve it first)", fn);
    return PL_OK;
}

int pl_flownet_has_solution(const pl_flownet *net)
{
    return net && net->has_solution;
}

pl_status pl_flownet_solution_cost(const pl_flownet *net, int64_t *cost)
{
    pl_status st = need_solution(net, "pl_flownet_solution_cost");
    if (st)
        return st;
    if (!cost)
        return pl_err(PL_EINVAL, "pl_flownet_solution_cost: cost is NULL");
    return pl_flownet_held_cost(net, cost);
}

pl_status pl_flownet_get_flow(const pl_flownet *net, int32_t arc, int64_t *flow)
{
    pl_status st;
    if ((st = need_solution(net, "pl_flownet_get_flow")) ||
        (st = check_arc(net, arc, "pl_flownet_get_flow")))
        return st;
    if (!flow)
        return pl_err(PL_EINVAL, "pl_flownet_get_flow: flow is NULL");
    *flow = net->flow[arc];
    return PL_OK;
}

pl_status pl_flownet_get_potential(const pl_flownet *net, int32_t node, int64_t *potential)
{
    pl_status st;
    if ((st = need_solution(net, "pl_flownet_get_potential")) ||
        (st = check_node(net, node, "pl_flownet_get_potential")))
        return st;
    if (!potential)
        return pl_err(PL_EINVAL, "pl_flownet_get_potential: potential is NULL");
    *potential = net->pot[node];
    return PL_OK;
}

const int64_t *pl_flownet_flows(const pl_flownet *net)
{
    return net && net->has_solution ? net->flow : NULL;
}

const int64_t *pl_flownet_potentials(const pl_flownet *net)
{
    return net && net->has_solution ? net->pot : NULL;
}

/* Exact total cost of net->flow, or PL_EOVERFLOW. Summed in 128 bits, so
 * that the answer does not depend on the arcs' order: +2^62, +2^62, -2^63
 * is 0 whichever comes first (int64 partial sums overflowed on the first
 * two). Only the total must fit in int64. */
static pl_status total_cost(const pl_flownet *net, const int64_t *flow, int64_t *out)
{
    __int128 sum = 0;
    for (int32_t a = 0; a < net->m; a++) {
        __int128 term = (__int128)flow[a] * net->cost[a];
        if (__builtin_add_overflow(sum, term, &sum))
            return pl_err(PL_EOVERFLOW, "total cost overflows 128 bits at arc %d", a);
    }
    if (sum > INT64_MAX || sum < INT64_MIN)
        return pl_err(PL_EOVERFLOW, "the total cost (%s%.4g) does not fit in int64",
                      sum < 0 ? "" : "+", (double)sum);
    *out = (int64_t)sum;
    return PL_OK;
}

pl_status pl_flownet_alloc_solution(pl_flownet *net)
{
    int64_t *f = pl_realloc_array(net->flow, (size_t)(net->m ? net->m : 1), sizeof *f);
    if (!f)
        return PL_ENOMEM;
    net->flow = f;
    int64_t *p = pl_realloc_array(net->pot, (size_t)(net->n ? net->n : 1), sizeof *p);
    if (!p)
        return PL_ENOMEM;
    net->pot = p;
    return PL_OK;
}

pl_status pl_flownet_commit_solution(pl_flownet *net)
{
    pl_status st = total_cost(net, net->flow, &net->total_cost);
    net->cost_stale = 0;
    net->has_solution = net->warm_valid = (st == PL_OK);
    net->warm_n = net->n;
    net->warm_m = net->m;
    return st;
}

void pl_flownet_commit_lazy(pl_flownet *net)
{
    net->cost_stale = 1;
    net->has_solution = net->warm_valid = 1;
    net->warm_n = net->n;
    net->warm_m = net->m;
}

pl_status pl_flownet_held_cost(const pl_flownet *net, int64_t *cost)
{
    if (!net->cost_stale) {
        *cost = net->total_cost;
        return PL_OK;
    }
    return total_cost(net, net->flow, cost);
}

pl_status pl_flownet_set_solution(pl_flownet *net, const int64_t *flow, const int64_t *potential)
{
    if (!net || !flow)
        return pl_err(PL_EINVAL, "pl_flownet_set_solution: NULL %s", net ? "flow" : "net");
    pl_flownet_invalidate(net);
    pl_inc_disarm(net);
    net->warm_valid = 0;
    pl_status st = pl_flownet_alloc_solution(net);
    if (st)
        return st;
    memcpy(net->flow, flow, (size_t)net->m * sizeof *flow);
    if (potential)
        memcpy(net->pot, potential, (size_t)net->n * sizeof *potential);
    else
        memset(net->pot, 0, (size_t)net->n * sizeof *net->pot);
    return pl_flownet_commit_solution(net);
}
