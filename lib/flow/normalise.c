/* Turn the user's network into the problem every solver sees: lower bounds
 * folded into supplies, infinite capacities made finite, and the numeric
 * limits of pl_flow_problem checked once here so no solver has to. */
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"

#define PL_COST_LIMIT ((int64_t)1 << 60)

pl_status pl_flownet_build_csr(pl_flownet *net)
{
    if (net->csr_valid)
        return PL_OK;
    int32_t n = net->n, m = net->m;
    int32_t *first = pl_realloc_array(net->out_first, (size_t)n + 1, sizeof *first);
    if (!first)
        return PL_ENOMEM;
    net->out_first = first;
    int32_t *arcs = pl_realloc_array(net->out_arcs, 2 * (size_t)m + 1, sizeof *arcs);
    if (!arcs)
        return PL_ENOMEM;
    net->out_arcs = arcs;
    int32_t *end = pl_realloc_array(net->out_end, (size_t)n + 1, sizeof *end);
    if (!end)
        return PL_ENOMEM;
    net->out_end = end;

    pl_csr_fill(n, m, net->tail, net->head, first, arcs);
    memcpy(end, first + 1, (size_t)n * sizeof *end);
    net->csr_valid = 1;
    return PL_OK;
}

void pl_csr_fill(int32_t n, int32_t m, const int32_t *tail, const int32_t *head, int32_t *first,
                 int32_t *arcs)
{
    memset(first, 0, ((size_t)n + 1) * sizeof *first);
    for (int32_t a = 0; a < m; a++) {
        first[tail[a] + 1]++;
        first[head[a] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        first[v + 1] += first[v];
    /* Fill with a moving cursor per node, then shift the cursors back. */
    for (int32_t a = 0; a < m; a++) {
        arcs[first[tail[a]]++] = 2 * a;
        arcs[first[head[a]]++] = 2 * a + 1;
    }
    for (int32_t v = n; v > 0; v--)
        first[v] = first[v - 1];
    first[0] = 0;
}

static pl_status alloc_values(pl_flownet *net)
{
    size_t m = net->m ? (size_t)net->m : 1, n = net->n ? (size_t)net->n : 1;
    int64_t *c = pl_realloc_array(net->ncap, m, sizeof *c);
    if (!c)
        return PL_ENOMEM;
    net->ncap = c;
    uint8_t *inf = pl_realloc_array(net->is_inf, m, 1);
    if (!inf)
        return PL_ENOMEM;
    net->is_inf = inf;
    int64_t *b = pl_realloc_array(net->nsupply, n, sizeof *b);
    if (!b)
        return PL_ENOMEM;
    net->nsupply = b;
    return PL_OK;
}

static pl_status overflow(const char *what, int32_t id)
{
    return pl_err(PL_EOVERFLOW,
                  "%s %d: values exceed the solver limits (sum of capacities and supplies "
                  "<= 2^62, nodes x max |cost| <= 2^60); use PL_CAP_INF for unbounded arcs",
                  what, id);
}

/* Fold lower bounds into supplies and find the finite capacities' total.
 * *cost_ok tells whether every |cost| is within check_costs' limit, found
 * in the same pass (one pass over the arcs fewer per solve). */
static pl_status shift_lower_bounds(pl_flownet *net, int64_t *finite_total, int32_t *n_inf,
                                   int *cost_ok)
{
    int64_t total = 0, limit = net->n ? PL_COST_LIMIT / net->n : PL_COST_LIMIT;
    int32_t k = 0;
    int ok = 1;
    if (net->n) /* supply is NULL for an empty network */
        memcpy(net->nsupply, net->supply, (size_t)net->n * sizeof *net->supply);
    for (int32_t a = 0; a < net->m; a++) {
        int64_t lo = net->lower[a], c = net->cost[a];
        ok &= c <= limit && c >= -limit;
        int64_t *bt = &net->nsupply[net->tail[a]], *bh = &net->nsupply[net->head[a]];
        if (pl_sub_ovf(*bt, lo, bt) || pl_add_ovf(*bh, lo, bh))
            return overflow("arc", a);
        net->is_inf[a] = net->upper[a] == PL_CAP_INF;
        if (net->is_inf[a]) {
            k++;
            net->ncap[a] = 0;
            continue;
        }
        if (pl_sub_ovf(net->upper[a], lo, &net->ncap[a]) || pl_add_ovf(total, net->ncap[a], &total) ||
            total > PL_FLOW_LIMIT)
            return overflow("arc", a);
    }
    *finite_total = total;
    *n_inf = k;
    *cost_ok = ok;
    return PL_OK;
}

static pl_status check_balance(const pl_flownet *net, int64_t *total)
{
    int64_t sum = 0, pos = 0;
    for (int32_t v = 0; v < net->n; v++) {
        int64_t b = net->nsupply[v];
        if (pl_add_ovf(sum, b, &sum))
            return overflow("node", v);
        if (b > 0 && (pl_add_ovf(pos, b, &pos) || pos > PL_FLOW_LIMIT))
            return overflow("node", v);
    }
    if (sum != 0)
        return pl_err(PL_EINFEASIBLE,
                      "supplies sum to %lld, not 0: every unit supplied must be consumed "
                      "(add a sink node or an arc to an existing one)", (long long)sum);
    *total = pos;
    return PL_OK;
}

static pl_status check_costs(const pl_flownet *net)
{
    int64_t limit = net->n ? PL_COST_LIMIT / net->n : PL_COST_LIMIT;
    for (int32_t a = 0; a < net->m; a++) {
        int64_t c = net->cost[a];
        if (c > limit || c < -limit)
            return pl_err(PL_EOVERFLOW,
                          "arc %d: cost %lld too large for %d nodes (|cost| x nodes must be <= 2^60)",
                          a, (long long)c, net->n);
    }
    return PL_OK;
}

pl_status pl_flownet_normalise(pl_flownet *net, pl_flow_problem *p)
{
    pl_status st;
    if ((st = pl_flownet_build_csr(net)))
        return st;
    if ((st = alloc_values(net)))
        return st;
    int64_t finite = 0, positive = 0;
    int32_t n_inf = 0;
    int cost_ok = 1;
    if ((st = shift_lower_bounds(net, &finite, &n_inf, &cost_ok)) ||
        (st = check_balance(net, &positive)) || (!cost_ok && (st = check_costs(net))))
        return st;

    /* An optimal flow never needs more than all finite capacity plus all
     * supply on one arc (see doc/flow.md), so that plus one is "infinite". */
    int64_t cap_inf, all;
    if (pl_add_ovf(finite, positive, &cap_inf) || pl_add_ovf(cap_inf, 1, &cap_inf) ||
        pl_mul_ovf(cap_inf, (int64_t)n_inf + 1, &all) || all > PL_FLOW_LIMIT)
        return pl_err(PL_EOVERFLOW,
                      "%d infinite-capacity arcs with finite capacities totalling %lld and "
                      "supplies totalling %lld exceed the 2^62 flow limit", n_inf,
                      (long long)finite, (long long)positive);
    for (int32_t a = 0; a < net->m && n_inf > 0; a++)
        if (net->is_inf[a])
            net->ncap[a] = cap_inf;

    *p = (pl_flow_problem){
        .n = net->n, .m = net->m, .tail = net->tail, .head = net->head,
        .cap = net->ncap, .cost = net->cost, .supply = net->nsupply,
        .out_first = net->out_first, .out_arcs = net->out_arcs,
        .is_inf = net->is_inf, .cap_inf = cap_inf,
    };
    return PL_OK;
}
