/* Feasible flow by Dinic's maximum flow.
 *
 * A virtual source S feeds every node with supply > 0 (capacity = supply)
 * and every node with supply < 0 drains into a virtual sink T (capacity =
 * -supply); all supplies are met exactly when the maximum S-T flow saturates
 * the source arcs. S and T are not materialised: the flow on the virtual arc
 * of node v is vflow[v], the BFS starts from every source node with spare
 * supply at level 0 (S itself would be level -1), and the sink arc of a
 * demand node is tried before its real arcs.
 *
 * The blocking-flow search is iterative with an explicit path stack, so a
 * path as long as the graph (e.g. a chain of a million nodes) cannot
 * overflow the C stack. */
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"

typedef struct dinic {
    const pl_flow_problem *p;
    int64_t *flow;    /* [m] flow on the real arcs (the caller's array) */
    int64_t *vflow;   /* [n] flow on the virtual arc of each node */
    int32_t *level;   /* [n] BFS level, -1 = unreachable or dead end */
    int32_t *cur;     /* [n] current arc; out_first[v]-1 stands for the sink arc */
    int32_t *queue;   /* [n] BFS queue */
    int32_t *path;    /* [n] residual arcs of the path being grown */
    int32_t sink_level; /* level the sink would have, INT32_MAX if unreached */
} dinic;

/* Units the virtual arc of v can still carry (S -> v for a supply node,
 * v -> T for a demand node). */
static int64_t virtual_spare(const dinic *d, int32_t v)
{
    int64_t b = d->p->supply[v];
    return (b < 0 ? -b : b) - d->vflow[v];
}

static int is_sink_node(const dinic *d, int32_t v)
{
    return d->p->supply[v] < 0;
}

/* Layer the residual graph from the source nodes with spare supply. Returns
 * non-zero if some demand node with spare demand is reachable. */
static int build_levels(dinic *d)
{
    const pl_flow_problem *p = d->p;
    int32_t qh = 0, qt = 0;

    for (int32_t v = 0; v < p->n; v++) {
        d->level[v] = -1;
        if (p->supply[v] > 0 && virtual_spare(d, v) > 0) {
            d->level[v] = 0;
            d->queue[qt++] = v;
        }
    }
    d->sink_level = INT32_MAX;
    while (qh < qt) {
        int32_t u = d->queue[qh++];
        /* Nodes at or beyond the sink's level cannot lie on a shortest path. */
        if (d->level[u] + 1 >= d->sink_level)
            continue;
        if (is_sink_node(d, u) && virtual_spare(d, u) > 0) {
            d->sink_level = d->level[u] + 1;
            continue;
        }
        for (int32_t i = p->out_first[u]; i < pl_out_end(p, u); i++) {
            int32_t r = p->out_arcs[i];
            int32_t v = pl_residual_head(p, r);
            if (d->level[v] < 0 && pl_residual_cap(p, d->flow, r) > 0) {
                d->level[v] = d->level[u] + 1;
                d->queue[qt++] = v;
            }
        }
    }
    return d->sink_level != INT32_MAX;
}

/* Advance cur[u] to the next admissible arc. Returns the residual arc id,
 * -2 for the sink arc, or -1 when u has no admissible arc left. */
static int32_t next_admissible(dinic *d, int32_t u)
{
    const pl_flow_problem *p = d->p;
    int32_t end = pl_out_end(p, u);

    if (d->cur[u] == p->out_first[u] - 1) {
        if (is_sink_node(d, u) && d->level[u] + 1 == d->sink_level &&
            virtual_spare(d, u) > 0)
            return -2;
        d->cur[u]++;
    }
    for (; d->cur[u] < end; d->cur[u]++) {
        int32_t r = p->out_arcs[d->cur[u]];
        int32_t v = pl_residual_head(p, r);
        if (d->level[v] == d->level[u] + 1 && pl_residual_cap(p, d->flow, r) > 0)
            return r;
    }
    return -1;
}

static void push_arc(dinic *d, int32_t r, int64_t delta)
{
    if (r & 1)
        d->flow[r >> 1] -= delta;
    else
        d->flow[r >> 1] += delta;
}

/* Push along path[0..len-1] from source s to demand node `last` and its
 * sink arc. Returns the index of the first arc left without residual
 * capacity (len if it is the sink arc, -1 if the source arc ran out first),
 * so the search can resume just before the bottleneck. */
static int32_t augment(dinic *d, int32_t s, int32_t len, int32_t last)
{
    const pl_flow_problem *p = d->p;
    int64_t delta = virtual_spare(d, s);
    int64_t sink_spare = virtual_spare(d, last);

    if (sink_spare < delta)
        delta = sink_spare;
    for (int32_t i = 0; i < len; i++) {
        int64_t c = pl_residual_cap(p, d->flow, d->path[i]);
        if (c < delta)
            delta = c;
    }
    d->vflow[s] += delta;
    d->vflow[last] += delta;
    for (int32_t i = 0; i < len; i++)
        push_arc(d, d->path[i], delta);

    if (virtual_spare(d, s) == 0)
        return -1;
    for (int32_t i = 0; i < len; i++)
        if (pl_residual_cap(p, d->flow, d->path[i]) == 0)
            return i;
    return len;
}

/* Route as much of source s's spare supply as the level graph allows. */
static void blocking_flow_from(dinic *d, int32_t s)
{
    const pl_flow_problem *p = d->p;
    int32_t len = 0, u = s;

    while (virtual_spare(d, s) > 0) {
        int32_t r = next_admissible(d, u);
        if (r >= 0) {
            d->path[len++] = r;
            u = pl_residual_head(p, r);
            continue;
        }
        if (r == -1) {
            /* Dead end: never enter u again in this phase, back up one arc. */
            d->level[u] = -1;
            if (len == 0)
                return;
            u = pl_residual_tail(p, d->path[--len]);
            d->cur[u]++;
            continue;
        }
        int32_t cut = augment(d, s, len, u);
        if (cut < 0)
            return;
        if (cut < len) {
            len = cut;
            u = pl_residual_tail(p, d->path[len]);
        }
        /* cut == len: the sink arc is full; next_admissible moves past it. */
    }
}

static void run_dinic(dinic *d)
{
    const pl_flow_problem *p = d->p;

    while (build_levels(d)) {
        for (int32_t v = 0; v < p->n; v++)
            d->cur[v] = p->out_first[v] - 1;
        for (int32_t s = 0; s < p->n; s++)
            if (d->level[s] == 0)
                blocking_flow_from(d, s);
    }
}

/* All supplies routed iff every virtual arc is saturated (checking the sink
 * side too keeps the answer right even for unbalanced supplies). */
static int all_routed(const dinic *d)
{
    for (int32_t v = 0; v < d->p->n; v++)
        if (virtual_spare(d, v) != 0)
            return 0;
    return 1;
}

pl_status pl_feasible_flow(const pl_flow_problem *p, int64_t *flow, int *feasible)
{
    size_t n = (size_t)p->n;
    dinic d = {.p = p, .flow = flow};

    memset(flow, 0, (size_t)p->m * sizeof *flow);
    *feasible = 0;
    d.vflow = pl_alloc(n, sizeof *d.vflow);
    d.level = pl_alloc(n, sizeof *d.level);
    d.cur = pl_alloc(n, sizeof *d.cur);
    d.queue = pl_alloc(n, sizeof *d.queue);
    d.path = pl_alloc(n, sizeof *d.path);
    pl_status st = PL_ENOMEM;
    if (d.vflow && d.level && d.cur && d.queue && d.path) {
        run_dinic(&d);
        *feasible = all_routed(&d);
        st = PL_OK;
    }
    free(d.vflow);
    free(d.level);
    free(d.cur);
    free(d.queue);
    free(d.path);
    return st;
}
