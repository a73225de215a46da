/* Cycle-canceling minimum-cost flow (Klein's algorithm).
 *
 * Start from any feasible flow (Dinic, pl_feasible_flow) and cancel
 * negative-cost residual cycles until none is left; a flow whose residual
 * graph has no negative cycle is optimal.
 *
 * Negative cycles are found by a queue-based Bellman-Ford (SPFA) from a
 * virtual source at distance 0 to every node. Any cycle formed by the parent
 * pointers of such a search has negative cost (each parent arc u->v keeps
 * dist[v] >= dist[u] + cost and the last one set is strict), so the parent
 * graph is scanned every n relaxations and every cycle it holds is cancelled
 * on the spot; this usually finds cycles long before the n passes plain
 * Bellman-Ford needs.
 *
 * The search is not restarted after a cancellation: distances stay valid
 * upper bounds, the saturated arcs leave the graph, and the reverse arcs the
 * cancellation opens already satisfy dist[head] <= dist[tail] + cost, so the
 * SPFA invariant "every violated arc has its tail queued" still holds. When
 * the queue empties, dist is a feasible potential of the residual graph and
 * the flow is optimal.
 *
 * Overflow: the problem guarantees n * max|cost| <= 2^62. Right after a
 * (re)start every root of the parent forest is at 0, so a tentative distance
 * below -2^62 proves the parent chain closes a cycle. Roots created by
 * cancellations may sit lower, so if such a chain does end at a root the
 * search restarts from zero. Stored distances thus stay in [-2^62, 0] and
 * a tentative one, dist + cost, in [-2^63, 2^62]. */
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"

#define CC_DEEP_LIMIT (-PL_FLOW_LIMIT)

typedef struct cc_state {
    const pl_flow_problem *p;
    int64_t *flow;      /* [m] the solution being improved */
    int64_t *dist;      /* [n] tentative distances */
    int32_t *parent;    /* [n] residual arc that last lowered dist, -1 = root */
    int32_t *queue;     /* [n] circular FIFO of nodes to scan */
    uint8_t *queued;    /* [n] membership of queue */
    int32_t *mark;      /* [n] walk tags of the parent-graph scan */
    int32_t qhead, qlen;
    int64_t cancelled;  /* cycles cancelled so far */
    int64_t limit;      /* max cycles, 0 = unlimited */
} cc_state;

static void enqueue(cc_state *s, int32_t v)
{
    if (s->queued[v])
        return;
    int32_t slot = s->qhead + s->qlen;
    if (slot >= s->p->n)
        slot -= s->p->n;
    s->queue[slot] = v;
    s->queued[v] = 1;
    s->qlen++;
}

static int32_t dequeue(cc_state *s)
{
    int32_t v = s->queue[s->qhead];
    if (++s->qhead == s->p->n)
        s->qhead = 0;
    s->qlen--;
    s->queued[v] = 0;
    return v;
}

/* Distances 0 from the virtual source, empty parent forest, every node queued. */
static void cold_start(cc_state *s)
{
    s->qhead = s->qlen = 0;
    memset(s->queued, 0, (size_t)s->p->n);
    for (int32_t v = 0; v < s->p->n; v++) {
        s->dist[v] = 0;
        s->parent[v] = -1;
        enqueue(s, v);
    }
}

static int32_t parent_node(const cc_state *s, int32_t v)
{
    return pl_residual_tail(s->p, s->parent[v]);
}

/* A node on a cycle of the parent graph, or -1 if it is a forest. Each walk
 * stops at a root, at a node tagged by an earlier walk, or at a node tagged
 * by itself (the cycle). */
static int32_t find_parent_cycle(cc_state *s)
{
    const int32_t n = s->p->n;

    memset(s->mark, 0, (size_t)n * sizeof *s->mark);
    for (int32_t start = 0; start < n; start++) {
        int32_t tag = start + 1, x = start;
        while (s->mark[x] == 0) {
            s->mark[x] = tag;
            if (s->parent[x] < 0)
                break;
            x = parent_node(s, x);
        }
        /* Only a walk that revisits one of its own nodes ends on a tagged non-root. */
        if (s->mark[x] == tag && s->parent[x] >= 0)
            return x;
    }
    return -1;
}

/* Follow parents from v for n steps: if no root was met, the node reached
 * lies on a cycle. Returns it, or -1 if the chain ends at a root. */
static int32_t walk_to_cycle(const cc_state *s, int32_t v)
{
    for (int32_t i = 0; i < s->p->n; i++) {
        if (s->parent[v] < 0)
            return -1;
        v = parent_node(s, v);
    }
    return v;
}

static void push_residual(cc_state *s, int32_t r, int64_t delta)
{
    if (r & 1)
        s->flow[r >> 1] -= delta;
    else
        s->flow[r >> 1] += delta;
}

/* Push the bottleneck capacity around the parent cycle through x, then drop
 * the parent links whose arcs it saturated (the forest must only use arcs
 * with residual capacity). */
static pl_status cancel_cycle(cc_state *s, int32_t x)
{
    const pl_flow_problem *p = s->p;

    if (s->limit > 0 && s->cancelled >= s->limit)
        return pl_err(PL_ELIMIT, "cycle-canceling: max_iterations (%lld) reached with "
                      "negative-cost cycles left", (long long)s->limit);

    int64_t delta = INT64_MAX;
    int32_t y = x;
    do {
        int64_t c = pl_residual_cap(p, s->flow, s->parent[y]);
        if (c < delta)
            delta = c;
        y = parent_node(s, y);
    } while (y != x);

    y = x;
    do {
        int32_t r = s->parent[y];
        int32_t next = pl_residual_tail(p, r);
        push_residual(s, r, delta);
        if (pl_residual_cap(p, s->flow, r) == 0)
            s->parent[y] = -1;
        y = next;
    } while (y != x);
    s->cancelled++;
    return PL_OK;
}

static pl_status cancel_parent_cycles(cc_state *s)
{
    int32_t x;
    while ((x = find_parent_cycle(s)) >= 0) {
        pl_status st = cancel_cycle(s, x);
        if (st != PL_OK)
            return st;
    }
    return PL_OK;
}

/* A relaxation u -(r)-> v would go below CC_DEEP_LIMIT: link v to u without
 * lowering dist[v] (dist[v] > dist[u] + cost keeps any cycle strictly
 * negative) and cancel the cycle the chain must reach, or restart if the
 * chain ends at a root left low by an earlier cancellation. */
static pl_status handle_deep(cc_state *s, int32_t u, int32_t v, int32_t r)
{
    s->parent[v] = r;
    int32_t x = walk_to_cycle(s, v);
    if (x < 0) {
        cold_start(s);
        return PL_OK;
    }
    pl_status st = cancel_cycle(s, x);
    /* u->v may still be violated: rescan u later. */
    enqueue(s, u);
    return st;
}

/* Relax every residual arc out of u; *since_scan counts relaxations since the
 * last parent-graph scan. */
static pl_status relax_node(cc_state *s, int32_t u, int32_t *since_scan)
{
    const pl_flow_problem *p = s->p;

    for (int32_t i = p->out_first[u]; i < p->out_first[u + 1]; i++) {
        int32_t r = p->out_arcs[i];
        if (pl_residual_cap(p, s->flow, r) <= 0)
            continue;
        int32_t v = pl_residual_head(p, r);
        /* No overflow: dist >= CC_DEEP_LIMIT = -2^62 and |cost| <= 2^62. */
        int64_t nd = s->dist[u] + pl_residual_cost(p, r);
        if (nd >= s->dist[v])
            continue;
        pl_status st;
        if (nd < CC_DEEP_LIMIT) {
            st = handle_deep(s, u, v, r);
        } else {
            s->dist[v] = nd;
            s->parent[v] = r;
            enqueue(s, v);
            st = PL_OK;
            if (++*since_scan >= p->n) {
                *since_scan = 0;
                st = cancel_parent_cycles(s);
            }
        }
        if (st != PL_OK)
            return st;
    }
    return PL_OK;
}

static pl_status cancel_all_cycles(cc_state *s)
{
    int32_t since_scan = 0;

    cold_start(s);
    while (s->qlen > 0) {
        pl_status st = relax_node(s, dequeue(s), &since_scan);
        if (st != PL_OK)
            return st;
    }
    return PL_OK;
}

/* Supply the feasible-flow phase did route: the net flow leaving the set of
 * supply nodes (no node's own balance array needed). */
static int64_t routed_supply(const pl_flow_problem *p, const int64_t *flow)
{
    int64_t routed = 0;
    for (int32_t a = 0; a < p->m; a++) {
        int from_src = p->supply[p->tail[a]] > 0, to_src = p->supply[p->head[a]] > 0;
        routed += (int64_t)(from_src - to_src) * flow[a];
    }
    return routed;
}

static pl_status infeasible(const pl_flow_problem *p, const int64_t *flow)
{
    int64_t total = 0;
    for (int32_t v = 0; v < p->n; v++)
        if (p->supply[v] > 0)
            total += p->supply[v];
    int64_t routed = routed_supply(p, flow);
    return pl_err(PL_EINFEASIBLE, "cycle-canceling: infeasible: %lld of %lld units of supply "
                  "cannot reach the demands (the arc capacities allow only %lld)",
                  (long long)(total - routed), (long long)total, (long long)routed);
}

static pl_status optimise(const pl_flow_problem *p, const pl_solve_opts *opts,
                          pl_flow_solution *out)
{
    size_t n = (size_t)p->n;
    cc_state s = {.p = p, .flow = out->flow, .limit = opts ? opts->max_iterations : 0};
    pl_status st = PL_ENOMEM;

    s.dist = pl_alloc(n, sizeof *s.dist);
    s.parent = pl_alloc(n, sizeof *s.parent);
    s.queue = pl_alloc(n, sizeof *s.queue);
    s.queued = pl_alloc(n, sizeof *s.queued);
    s.mark = pl_alloc(n, sizeof *s.mark);
    if (s.dist && s.parent && s.queue && s.queued && s.mark)
        st = cancel_all_cycles(&s);
    out->iterations = s.cancelled;
    free(s.dist);
    free(s.parent);
    free(s.queue);
    free(s.queued);
    free(s.mark);
    return st;
}

static pl_status solve(const pl_flow_problem *p, const pl_solve_opts *opts,
                       pl_flow_solution *out)
{
    int feasible;
    pl_status st = pl_feasible_flow(p, out->flow, &feasible);
    if (st != PL_OK)
        return st;
    if (!feasible)
        return infeasible(p, out->flow);
    st = optimise(p, opts, out);
    if (st != PL_OK)
        return st;
    return pl_residual_potentials(p, out->flow, out->potential);
}

const pl_solver_ops pl_solver_cycle_canceling = {
    .name = "cycle-canceling",
    .description = "cycle canceling: Dinic feasible flow, then cancel negative residual cycles (SPFA)",
    .solve = solve,
};
