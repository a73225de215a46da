/* Successive shortest paths (SSP) with Dijkstra on reduced costs.
 *
 * Invariant: every residual arc r with residual capacity > 0 has reduced
 * cost cost(r) + pi[tail(r)] - pi[head(r)] >= 0, which is the library's
 * potential convention, so pi is handed back as the dual certificate as is.
 *
 * Warm start (p->warm): the previous flow and potentials are kept and the
 * invariant restored by saturating or emptying the arcs that violate it.
 *
 * Negative costs: saturating every negative-cost arc at the start leaves
 * only residual arcs of non-negative cost, so pi = 0 satisfies the invariant
 * from the outset; the excesses this creates are routed like supplies.
 *
 * Each round runs one multi-source Dijkstra from every node with excess,
 * stops at the first deficit node it settles and augments along that path.
 * Settled nodes move their potential by d[v] - d_stop and the others keep
 * theirs (the textbook rule pi += min(d, d_stop) shifted by the constant
 * -d_stop, which changes no reduced cost), so a round touches only the nodes
 * its search visited. Before the next search, further paths made only of
 * zero-reduced-cost arcs (also shortest) are drained by depth-first search.
 * The total shift over a solve is the length of one simple path, at most
 * (n-1) * max|cost| <= 2^62, so potentials and distances stay within
 * int64_t under the normalised problem's guarantees.
 */
#include <stdlib.h>
#include "internal/columns.h"
#include "internal/flownet_impl.h"

enum { UNSEEN = 0, LABELLED = 1, SETTLED = 2 };
enum { FRESH = 0, SEEN = 1, ON_PATH = 2, DEAD = 3 };

/* Arity of the heap: 4 keeps it shallow for Dijkstra's many decrease-keys. */
#define HEAP_D 4

typedef struct ssp_work {
    const pl_flow_problem *p;
    int64_t *flow;      /* out->flow */
    int64_t *pi;        /* out->potential */
    int64_t *excess;    /* [n] supply still to route (< 0: demand) */
    int64_t remaining;  /* sum of positive excesses */
    int64_t *dist;      /* [n] reduced-cost distance of touched nodes */
    int32_t *parent;    /* [n] residual arc that labelled a node, -1 at a source */
    uint8_t *state;     /* [n] UNSEEN / LABELLED / SETTLED */
    int32_t *heap;      /* [n] indexed d-ary heap on dist */
    int32_t *hpos;      /* [n] position of a LABELLED node in heap */
    int32_t hsize;
    int32_t *touched;   /* [n] nodes whose state to reset after a search */
    int32_t ntouched;
    int32_t *sources;   /* [n] nodes that may still hold excess */
    int32_t nsources;
    /* Depth-first search of the admissible (zero reduced cost) graph. */
    int32_t *cur;       /* [n] next out_arcs index to try from a node */
    uint8_t *mark;      /* [n] FRESH / SEEN / ON_PATH / DEAD in this phase */
    int32_t *seen;      /* [n] nodes whose mark to reset after a phase */
    int32_t nseen;
    int32_t *stack;     /* [n] the current search path */
    int64_t limit;      /* opts->max_iterations, 0 = none */
    int64_t *iterations;/* out->iterations: augmentations so far */
} ssp_work;

/* ---- indexed d-ary min-heap keyed by dist ------------------------------ */

static void heap_place(ssp_work *w, int64_t i, int32_t v)
{
    w->heap[i] = v;
    w->hpos[v] = (int32_t)i;
}

static void heap_sift_up(ssp_work *w, int64_t i)
{
    int32_t v = w->heap[i];
    int64_t d = w->dist[v];
    while (i > 0) {
        int64_t up = (i - 1) / HEAP_D;
        int32_t pv = w->heap[up];
        if (w->dist[pv] <= d)
            break;
        heap_place(w, i, pv);
        i = up;
    }
    heap_place(w, i, v);
}

static int64_t heap_min_child(const ssp_work *w, int64_t first)
{
    int64_t end = first + HEAP_D < w->hsize ? first + HEAP_D : w->hsize;
    int64_t best = first;
    for (int64_t j = first + 1; j < end; j++)
        if (w->dist[w->heap[j]] < w->dist[w->heap[best]])
            best = j;
    return best;
}

static void heap_sift_down(ssp_work *w, int64_t i)
{
    int32_t v = w->heap[i];
    int64_t d = w->dist[v];
    for (;;) {
        int64_t first = i * HEAP_D + 1;
        if (first >= w->hsize)
            break;
        int64_t c = heap_min_child(w, first);
        if (w->dist[w->heap[c]] >= d)
            break;
        heap_place(w, i, w->heap[c]);
        i = c;
    }
    heap_place(w, i, v);
}

static void heap_push(ssp_work *w, int32_t v)
{
    heap_place(w, w->hsize, v);
    w->hsize++;
    heap_sift_up(w, w->hsize - 1);
}

static int32_t heap_pop(ssp_work *w)
{
    int32_t top = w->heap[0];
    w->hsize--;
    if (w->hsize > 0) {
        heap_place(w, 0, w->heap[w->hsize]);
        heap_sift_down(w, 0);
    }
    return top;
}

/* ---- workspace --------------------------------------------------------- */

/* Every array is per node. */
static const pl_column work_cols[] = {
    PL_COLUMN(ssp_work, excess),  PL_COLUMN(ssp_work, dist),    PL_COLUMN(ssp_work, parent),
    PL_COLUMN(ssp_work, state),   PL_COLUMN(ssp_work, heap),    PL_COLUMN(ssp_work, hpos),
    PL_COLUMN(ssp_work, touched), PL_COLUMN(ssp_work, sources), PL_COLUMN(ssp_work, cur),
    PL_COLUMN(ssp_work, mark),    PL_COLUMN(ssp_work, seen),    PL_COLUMN(ssp_work, stack),
};

static void work_free(ssp_work *w)
{
    pl_columns_free(w, work_cols, PL_NCOLUMNS(work_cols));
}

/* Allocate every array once per solve so the many rounds cost no malloc. */
static pl_status work_init(ssp_work *w, const pl_flow_problem *p, pl_flow_solution *out)
{
    *w = (ssp_work){ .p = p, .flow = out->flow, .pi = out->potential };
    return pl_columns_alloc(w, work_cols, PL_NCOLUMNS(work_cols), p->n);
}

/* Start from the flow that saturates every negative-cost arc, so no residual
 * arc has negative cost, and record the excesses that flow leaves. */
static void saturate_negative_arcs(ssp_work *w)
{
    const pl_flow_problem *p = w->p;
    for (int32_t v = 0; v < p->n; v++)
        w->excess[v] = p->supply[v];
    for (int32_t a = 0; a < p->m; a++) {
        if (p->cost[a] >= 0 || p->cap[a] == 0)
            continue;
        w->flow[a] = p->cap[a];
        w->excess[p->tail[a]] -= p->cap[a];
        w->excess[p->head[a]] += p->cap[a];
    }
}

static void collect_sources(ssp_work *w)
{
    w->remaining = 0;
    w->nsources = 0;
    for (int32_t v = 0; v < w->p->n; v++) {
        if (w->excess[v] > 0) {
            w->sources[w->nsources++] = v;
            w->remaining += w->excess[v];
        }
    }
}

/* ---- Dijkstra ----------------------------------------------------------- */

/* Both searches reset by zeroing the marks of the nodes they listed: time
 * proportional to what they touched, not to n. */
_Static_assert(UNSEEN == 0 && FRESH == 0, "a search's unvisited mark is 0");
static void clear_listed(uint8_t *mark, const int32_t *list, int32_t *count)
{
    for (int32_t i = 0; i < *count; i++)
        mark[list[i]] = 0;
    *count = 0;
}

static void touch(ssp_work *w, int32_t v, int64_t d, int32_t parent_arc)
{
    w->touched[w->ntouched++] = v;
    w->state[v] = LABELLED;
    w->dist[v] = d;
    w->parent[v] = parent_arc;
}

static void reset_search(ssp_work *w)
{
    clear_listed(w->state, w->touched, &w->ntouched);
    w->hsize = 0;
}

/* Label every node still holding excess at distance 0, dropping exhausted
 * sources from the list on the way. Equal keys already form a valid heap. */
static void seed_sources(ssp_work *w)
{
    int32_t kept = 0;
    for (int32_t i = 0; i < w->nsources; i++) {
        int32_t s = w->sources[i];
        if (w->excess[s] <= 0)
            continue;
        w->sources[kept++] = s;
        touch(w, s, 0, -1);
        heap_place(w, w->hsize++, s);
    }
    w->nsources = kept;
}

static pl_status relax_arcs(ssp_work *w, int32_t u)
{
    const pl_flow_problem *p = w->p;
    int64_t du = w->dist[u];
    int64_t pu = w->pi[u];
    for (int32_t k = p->out_first[u]; k < p->out_first[u + 1]; k++) {
        int32_t r = p->out_arcs[k];
        if (pl_residual_cap(p, w->flow, r) <= 0)
            continue;
        int32_t v = pl_residual_head(p, r);
        if (w->state[v] == SETTLED)
            continue;
        int64_t nd;
        /* Cannot overflow under the problem's limits (see the file comment);
         * checked anyway so a broken guarantee is reported, not miscomputed. */
        if (pl_add_ovf(du, pl_residual_cost(p, r), &nd) || pl_add_ovf(nd, pu, &nd) ||
            pl_sub_ovf(nd, w->pi[v], &nd))
            return pl_err(PL_EOVERFLOW, "ssp: shortest-path distance to node %d overflows int64", v);
        if (w->state[v] == UNSEEN) {
            touch(w, v, nd, r);
            heap_push(w, v);
        } else if (nd < w->dist[v]) {
            w->dist[v] = nd;
            w->parent[v] = r;
            heap_sift_up(w, w->hpos[v]);
        }
    }
    return PL_OK;
}

/* Shortest path in reduced costs from the set of excess nodes to the nearest
 * deficit node; *found is that node, or -1 when no deficit is reachable. */
static pl_status dijkstra(ssp_work *w, int32_t *found)
{
    reset_search(w);
    seed_sources(w);
    while (w->hsize > 0) {
        int32_t u = heap_pop(w);
        w->state[u] = SETTLED;
        if (w->excess[u] < 0) {
            *found = u;
            return PL_OK;
        }
        pl_status st = relax_arcs(w, u);
        if (st != PL_OK)
            return st;
    }
    *found = -1;
    return PL_OK;
}

/* Keep reduced costs non-negative and make the path just found tight. */
static void update_potentials(ssp_work *w, int32_t t)
{
    int64_t d_stop = w->dist[t];
    for (int32_t i = 0; i < w->ntouched; i++) {
        int32_t v = w->touched[i];
        if (w->state[v] == SETTLED)
            w->pi[v] += w->dist[v] - d_stop;
    }
}

/* Push as much as the path's source, its deficit node and its bottleneck
 * allow along the parent[] path ending at t; return the path's source. */
static int32_t augment(ssp_work *w, int32_t t)
{
    const pl_flow_problem *p = w->p;
    int64_t delta = -w->excess[t];
    int32_t s = t;
    for (int32_t r = w->parent[s]; r >= 0; r = w->parent[s]) {
        int64_t c = pl_residual_cap(p, w->flow, r);
        if (c < delta)
            delta = c;
        s = pl_residual_tail(p, r);
    }
    if (w->excess[s] < delta)
        delta = w->excess[s];
    for (int32_t v = t, r = w->parent[v]; r >= 0; v = pl_residual_tail(p, r), r = w->parent[v])
        w->flow[r >> 1] += (r & 1) ? -delta : delta;
    w->excess[s] -= delta;
    w->excess[t] += delta;
    w->remaining -= delta;
    (*w->iterations)++;
    return s;
}

static pl_status check_limit(const ssp_work *w)
{
    if (w->limit > 0 && *w->iterations >= w->limit)
        return pl_err(PL_ELIMIT,
                      "ssp: iteration limit %lld reached with %lld units of supply still to route",
                      (long long)w->limit, (long long)w->remaining);
    return PL_OK;
}

/* ---- extra augmentations on the admissible graph --------------------------
 *
 * Once potentials are updated, every residual path whose arcs all have
 * reduced cost 0 is a shortest path, so augmenting along it keeps the
 * invariant (its reverse arcs get reduced cost 0 too). Draining such paths
 * by depth-first search before the next Dijkstra saves one search per path,
 * which matters when many unit-capacity paths tie (assignment-like problems).
 * The search is only an accelerator: a path it misses (an arc into the
 * current path is skipped, a node is wrongly left DEAD after an augmentation
 * opened new arcs) is found by the next Dijkstra instead. */

static void dfs_visit(ssp_work *w, int32_t v, int32_t parent_arc)
{
    if (w->mark[v] == FRESH) {
        w->seen[w->nseen++] = v;
        w->cur[v] = w->p->out_first[v];
    }
    w->mark[v] = ON_PATH;
    w->parent[v] = parent_arc;
}

static void dfs_reset(ssp_work *w)
{
    clear_listed(w->mark, w->seen, &w->nseen);
}

/* Next admissible arc out of u leading off the current path, or -1. The
 * current-arc pointer only moves past arcs that are useless for the rest of
 * the phase (or, for ON_PATH heads, possibly useful: a tolerated miss). */
static int32_t dfs_next_arc(ssp_work *w, int32_t u)
{
    const pl_flow_problem *p = w->p;
    int64_t pu = w->pi[u];
    for (; w->cur[u] < p->out_first[u + 1]; w->cur[u]++) {
        int32_t r = p->out_arcs[w->cur[u]];
        int32_t v = pl_residual_head(p, r);
        if (w->mark[v] >= ON_PATH || pl_residual_cap(p, w->flow, r) <= 0)
            continue;
        if (pl_residual_cost(p, r) + pu - w->pi[v] == 0)
            return r;
    }
    return -1;
}

/* Depth-first search from source s for a deficit node along admissible arcs;
 * returns it with the path in parent[], or -1 (s is then DEAD). */
static int32_t dfs_find(ssp_work *w, int32_t s)
{
    int32_t top = 0;
    w->stack[0] = s;
    dfs_visit(w, s, -1);
    while (top >= 0) {
        int32_t u = w->stack[top];
        if (w->excess[u] < 0)
            return u;
        int32_t r = dfs_next_arc(w, u);
        if (r < 0) {
            w->mark[u] = DEAD;
            top--;
            continue;
        }
        int32_t v = pl_residual_head(w->p, r);
        dfs_visit(w, v, r);
        w->stack[++top] = v;
    }
    return -1;
}

/* Release the nodes of the path ending at t so later searches may use them. */
static void dfs_unmark_path(ssp_work *w, int32_t t)
{
    for (int32_t v = t, r = w->parent[v];; v = pl_residual_tail(w->p, r), r = w->parent[v]) {
        w->mark[v] = SEEN;
        if (r < 0)
            break;
    }
}

static pl_status drain_admissible(ssp_work *w)
{
    pl_status st = PL_OK;
    for (int32_t i = 0; i < w->nsources && w->remaining > 0 && st == PL_OK; i++) {
        int32_t s = w->sources[i];
        while (w->excess[s] > 0 && w->mark[s] != DEAD) {
            int32_t t = dfs_find(w, s);
            if (t < 0)
                break;
            if ((st = check_limit(w)) != PL_OK)
                break;
            augment(w, t);
            dfs_unmark_path(w, t);
        }
    }
    dfs_reset(w);
    return st;
}

/* ---- driver ----------------------------------------------------------- */

static pl_status report_infeasible(const ssp_work *w)
{
    int32_t example = -1;
    for (int32_t v = 0; v < w->p->n && example < 0; v++)
        if (w->excess[v] > 0)
            example = v;
    return pl_err(PL_EINFEASIBLE,
                  "ssp: %lld units of supply cannot reach any demand "
                  "(node %d alone holds %lld of them)",
                  (long long)w->remaining, example,
                  (long long)(example >= 0 ? w->excess[example] : 0));
}

static pl_status run(ssp_work *w)
{
    /* Warm start: keep the previous flow and potentials and restore the
     * invariant; the excesses this leaves (plus those of changed supplies)
     * are routed like supplies. After a small change only a few units move,
     * hence few Dijkstra rounds. */
    if (w->p->warm)
        pl_restore_slackness(w->p, w->pi, w->flow, w->excess);
    else
        saturate_negative_arcs(w);
    collect_sources(w);
    while (w->remaining > 0) {
        pl_status st;
        int32_t t;
        if ((st = check_limit(w)) != PL_OK || (st = dijkstra(w, &t)) != PL_OK)
            return st;
        if (t < 0)
            return report_infeasible(w);
        update_potentials(w, t);
        /* The path Dijkstra found guarantees progress; the drain is a bonus. */
        augment(w, t);
        if ((st = drain_admissible(w)) != PL_OK)
            return st;
    }
    pl_shift_potentials(w->p->n, w->pi);
    return PL_OK;
}

static pl_status solve(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    ssp_work w;
    pl_status st = work_init(&w, p, out);
    if (st != PL_OK)
        return st;
    out->iterations = 0;
    w.iterations = &out->iterations;
    w.limit = opts ? opts->max_iterations : 0;
    st = run(&w);
    work_free(&w);
    return st;
}

const pl_solver_ops pl_solver_ssp = {
    .name = "ssp",
    .description = "successive shortest paths: multi-source Dijkstra on reduced costs with node potentials",
    .solve = solve,
    .flags = PL_SOLVER_WARM_START,
};
