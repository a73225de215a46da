/* Relaxation (dual ascent) in the manner of Bertsekas and Tseng's RELAX /
 * RELAX-IV, written from the published description of the method.
 *
 * State. A pseudo-flow f within 0..cap and prices pi satisfying
 * complementary slackness: every residual arc r with capacity left has
 * reduced cost rc(r) = cost(r) + pi[tail] - pi[head] >= 0 (the library's
 * certificate, so pi is handed back as it is). Supplies need not be met:
 * excess e(v) = supply(v) - (flow out of v) + (flow into v). A residual arc
 * with capacity left and rc = 0 is "balanced"; flow may move along it
 * without breaking slackness.
 *
 * Iteration, from a node s with e(s) > 0. First a depth-first search over
 * balanced arcs, cut after RX_DFS_BUDGET arc looks, looks for a deficit
 * node to augment to (balanced_dfs()). Failing that, a set S grows from s:
 * nodes are labelled along balanced arcs (pred[] keeps the tree) and join S
 * when scanned, breadth first, while e(S) (the excesses in S) and out0(S)
 * (the residual capacity of the balanced arcs leaving S) are kept. Lowering
 * the prices of S by t > 0 raises the dual function at slope e(S) - out0(S)
 * until t reaches the smallest reduced cost of the other residual arcs
 * leaving S. So:
 *  - a labelled node has a deficit: augment from s along the tree to it (as
 *    much as e(s), the deficit and the path's bottleneck allow); done;
 *  - e(S) > out0(S) after a scan: dual ascent. Saturate the balanced arcs
 *    leaving S (their reduced cost is about to turn negative) and lower
 *    every price in S by that smallest reduced cost. The arcs reaching it
 *    are the only balanced arcs now leaving S, so S is kept and grows on
 *    from them, unless s has no excess left or a member was left with a
 *    deficit (then the iteration ends). No residual arc leaving S at all
 *    means S holds more supply than can ever leave it: PL_EINFEASIBLE.
 * With S = {s} this is the single-node step that does most of the work on
 * a cold start; repeating it is the RELAX line search along pi[s].
 * Labelled nodes join S only when scanned, so the ascent test costs one
 * pass over each scanned node's arcs and nothing for the others.
 *
 * Termination. With integer data each ascent raises the dual by at least 1
 * and each augmentation lowers the total positive excess by at least 1 (an
 * ascent may raise it, but the dual is bounded by the optimal cost when a
 * feasible flow exists), so the method stops when the problem is feasible.
 * When it is not, the dual is unbounded: the closed-set test above usually
 * catches it, and otherwise prices keep falling. A price that falls further
 * than any feasible problem needs (below the starting range by (n + 1)
 * (max|cost| + 1)) triggers one max-flow feasibility test: infeasible gives
 * PL_EINFEASIBLE, feasible lets the solve go on down to the hard floor -2^61
 * (PL_EOVERFLOW below it; prices within +-2^61 keep every reduced cost
 * within int64 under the problem's guarantee n * max|cost| <= 2^60).
 *
 * Warm start (p->warm): the previous flow and potentials are kept and
 * slackness restored by saturating every arc of negative reduced cost and
 * emptying every arc of positive reduced cost. Before the iterations, the
 * deficits this leaves are gathered where a search finds them soon
 * (retract_deficits(), relocate_deficits(): along balanced arcs only, plus
 * a few ascents from the deficit side), because a deficit at a
 * node deep in a large balanced component is found only by an iteration
 * whose S covers that component first. On the incremental path
 * (p->delta set), only the changed arcs are checked for slackness and the
 * excesses come from the network, so the start costs no pass over every
 * arc (restore_changed()). Potentials outside +-2^60 are not
 * trusted: the solve starts cold instead. A cold start is the warm one from
 * zero prices and zero flow.
 *
 * Memory: only per-node arrays (excess, tree, set marks, members,
 * candidates, current arcs, queue: 33 bytes a node); the arcs are read from
 * the problem's own arrays (not counted).
 *
 * Iterations: out->iterations counts ascents plus augmentations from
 * iterate(); opts->max_iterations caps it (PL_ELIMIT). */
#include <stdlib.h>
#include <string.h>
#include "internal/columns.h"
#include "internal/flownet_impl.h"

#define RX_PRICE_LIMIT ((int64_t)1 << 61)
#define RX_WARM_LIMIT ((int64_t)1 << 60)
#define RX_DFS_BUDGET 4096
#define RX_UNSTICK_TRIES 8
#define RX_UNSTICK_NODES 4096
#define RX_UNSTICK_LOOKS 262144

typedef struct rx_work {
    const pl_flow_problem *p;
    int64_t *flow;      /* out->flow */
    int64_t *pi;        /* out->potential */
    int64_t *excess;    /* [n] */
    int32_t *pred;      /* [n] residual arc that brought a node into S, -1 at s */
    uint32_t *mark;     /* [n] gen: labelled, gen + 1: in S (see in_set()) */
    uint32_t gen;
    int32_t *members;   /* [n] S in the order nodes joined */
    int32_t nmembers;
    int32_t *cand;      /* [n] balanced arcs leaving S after an ascent */
    int32_t *cur;       /* [n] next arc of a node in a depth-first search */
    int32_t ncand;
    int32_t *queue;     /* [n] ring of nodes with positive excess */
    uint8_t *queued;    /* [n] */
    int32_t qhead, qsize;
    int64_t floor;      /* lowest price allowed before the next check */
    int checked;        /* the feasibility test already said feasible */
    int64_t limit;
    const pl_solve_opts *opts; /* for pl_solve_cancelled() */
    int64_t *iterations;
} rx_work;

static const pl_column work_cols[] = {
    PL_COLUMN(rx_work, excess),  PL_COLUMN(rx_work, pred), PL_COLUMN(rx_work, mark),
    PL_COLUMN(rx_work, members), PL_COLUMN(rx_work, cand), PL_COLUMN(rx_work, cur),
    PL_COLUMN(rx_work, queue),   PL_COLUMN(rx_work, queued),
};

static void work_free(rx_work *w)
{
    pl_columns_free(w, work_cols, PL_NCOLUMNS(work_cols));
}

static pl_status work_init(rx_work *w, const pl_flow_problem *p, pl_flow_solution *out)
{
    int64_t n = (int64_t)p->n + 1;
    *w = (rx_work){.p = p, .flow = out->flow, .pi = out->potential, .iterations = &out->iterations};
    pl_status st = pl_columns_alloc(w, work_cols, PL_NCOLUMNS(work_cols), n);
    if (st == PL_OK)
        out->memory_bytes = n * (8 + 4 + 4 + 4 + 4 + 4 + 4 + 1);
    return st;
}

/* ---- residual arcs ------------------------------------------------------ */

static inline int64_t rcap(const rx_work *w, int32_t r)
{
    return pl_residual_cap(w->p, w->flow, r);
}

static inline int64_t rcost(const rx_work *w, int32_t r, int32_t tail, int32_t head)
{
    return pl_residual_cost(w->p, r) + w->pi[tail] - w->pi[head];
}

/* Move delta units along residual arc r from tail to head. */
static inline void push(rx_work *w, int32_t r, int32_t tail, int32_t head, int64_t delta)
{
    w->flow[r >> 1] += (r & 1) ? -delta : delta;
    w->excess[tail] -= delta;
    w->excess[head] += delta;
}

static void enqueue(rx_work *w, int32_t v)
{
    if (w->queued[v] || w->excess[v] <= 0)
        return;
    w->queued[v] = 1;
    int32_t n = w->p->n;
    int32_t at = w->qhead + w->qsize;
    w->queue[at >= n ? at - n : at] = v;
    w->qsize++;
}

static int32_t dequeue(rx_work *w)
{
    int32_t v = w->queue[w->qhead];
    w->qhead = w->qhead + 1 == w->p->n ? 0 : w->qhead + 1;
    w->qsize--;
    w->queued[v] = 0;
    return v;
}

/* Marks: mark[v] == gen: labelled (pred[v] leads to it from s), not in S
 * yet; mark[v] == gen + 1: in S (scanned). */
static inline int in_set(const rx_work *w, int32_t v)
{
    return w->mark[v] == w->gen + 1;
}

static inline int labelled(const rx_work *w, int32_t v)
{
    return w->mark[v] == w->gen;
}

static void set_start(rx_work *w, int32_t s)
{
    w->gen += 2;
    if (w->gen < 2) { /* wrapped: clear stale marks */
        for (int32_t v = 0; v < w->p->n; v++)
            w->mark[v] = 0;
        w->gen = 2;
    }
    w->mark[s] = w->gen;
    w->pred[s] = -1;
    w->members[0] = s;
    w->nmembers = 1;
}

/* ---- start ---------------------------------------------------------------- */

/* Whether the warm potentials are usable: all within +-2^60. */
static int warm_prices_fit(const rx_work *w)
{
    for (int32_t v = 0; v < w->p->n; v++)
        if (w->pi[v] > RX_WARM_LIMIT || w->pi[v] < -RX_WARM_LIMIT)
            return 0;
    return 1;
}

/* Move each deficit downstream along the flow that already leaves it, over
 * balanced arcs only (so slackness holds and no price changes): the flow
 * into a deficit node is reduced at its far end instead. After a warm start
 * the deficits sit where removed supply used to enter the flow (a machine
 * that lost a task, say); pulled back along their old paths they gather
 * where those paths ended (the sink), where every search finds them soon,
 * as after a cold start. Flows only decrease, so an arc passed over (no
 * flow, or not balanced) stays useless: a current-arc pointer per node
 * keeps the pass linear, and the walk of one deficit is cut after n steps
 * (a cycle of balanced arcs carrying flow could hold it longer). */
static void retract_deficits(rx_work *w)
{
    const pl_flow_problem *p = w->p;
    int32_t *cur = w->cur;
    for (int32_t v = 0; v < p->n; v++)
        cur[v] = p->out_first[v];
    for (int32_t v = 0; v < p->n; v++) {
        int32_t u = v;
        for (int32_t steps = 0; w->excess[u] < 0 && steps < p->n; steps++) {
            int32_t r = -1, h = -1;
            for (int32_t end = pl_out_end(p, u); cur[u] < end; cur[u]++) {
                int32_t q = p->out_arcs[cur[u]];
                if ((q & 1) || w->flow[q >> 1] == 0)
                    continue;
                h = p->head[q >> 1];
                if (h != u && rcost(w, q, u, h) == 0) {
                    r = q;
                    break;
                }
            }
            if (r < 0)
                break;
            int64_t f = w->flow[r >> 1], d = -w->excess[u] < f ? -w->excess[u] : f;
            push(w, r ^ 1, h, u, d);
            u = h;
        }
    }
}

/* Depth-first search from start over balanced arcs, at most RX_DFS_BUDGET
 * arc looks. Forward (back = 0) it follows residual arcs out of each node
 * and stops at a node with a deficit; backwards (back = 1) it follows
 * residual arcs into each node and stops at a node with excess or at z.
 * Returns that node, pred[] holding the residual arcs of the path (oriented
 * from start forward, towards start backwards), or -1. Breadth-first growth
 * of S must scan every arc of a node before the next, which is costly at a
 * hub (the cluster aggregator of a scheduling graph has an arc per task)
 * when the node sought lies a few balanced arcs beyond it; the depth-first
 * search follows the first balanced arc out of the hub instead. */
static inline int32_t balanced_dfs(rx_work *w, int32_t start, int back, int32_t z)
{
    const pl_flow_problem *p = w->p;
    set_start(w, start);
    int32_t *stack = w->members, top = 0, budget = RX_DFS_BUDGET;
    w->cur[start] = p->out_first[start];
    while (top >= 0 && budget > 0) {
        int32_t u = stack[top], k = w->cur[u], end = pl_out_end(p, u);
        for (; k < end && budget > 0; k++, budget--) {
            int32_t r = p->out_arcs[k], h = pl_residual_head(p, r), used = back ? r ^ 1 : r;
            if (labelled(w, h) || rcap(w, used) == 0 || rcost(w, r, u, h) != 0)
                continue;
            w->mark[h] = w->gen;
            w->pred[h] = used;
            if (back ? h == z || w->excess[h] > 0 : w->excess[h] < 0)
                return h;
            w->cur[h] = p->out_first[h];
            stack[++top] = h;
            break;
        }
        if (k < end && budget > 0) {
            w->cur[u] = k + 1;
            continue;
        }
        w->cur[u] = k;
        if (k == end)
            top--;
    }
    return -1;
}

/* Move up to d units, at most the path's bottleneck, from node from to
 * node to along the residual arcs in pred[]: a path built forward from
 * from (back = 0: pred[u] enters u) or backwards from to (back = 1, as
 * balanced_dfs() leaves it: pred[u] leaves u towards to). */
static inline void send_on_path(rx_work *w, int32_t from, int32_t to, int64_t d, int back)
{
    const pl_flow_problem *p = w->p;
    int32_t end = back ? from : to, root = back ? to : from;
    for (int32_t u = end; u != root;) {
        int32_t q = w->pred[u];
        d = rcap(w, q) < d ? rcap(w, q) : d;
        u = back ? pl_residual_head(p, q) : pl_residual_tail(p, q);
    }
    for (int32_t u = end; u != root;) {
        int32_t q = w->pred[u];
        w->flow[q >> 1] += (q & 1) ? -d : d;
        u = back ? pl_residual_head(p, q) : pl_residual_tail(p, q);
    }
    w->excess[from] -= d;
    w->excess[to] += d;
}

/* Dual ascent from the deficit side (the mirror of the ascent from an
 * excess): S is v with every node that reaches it over balanced arcs with
 * capacity left (grown breadth first, at most RX_UNSTICK_NODES nodes and
 * RX_UNSTICK_LOOKS arc looks). No such arc enters S from outside, so
 * raising the prices of S by the smallest reduced cost of the other
 * residual arcs into S keeps every reduced cost >= 0 and turns those arcs
 * balanced: the next backward search from v gets further (typically the
 * arc back from the sink of a machine everyone wants, once its price has
 * risen by the little its last slot is worth). Returns 0 when no ascent was
 * made (S too large, an excess inside it, or no arc into it). */
static int raise_deficit(rx_work *w, int32_t v, int32_t z)
{
    const pl_flow_problem *p = w->p;
    set_start(w, v);
    w->mark[v] = w->gen + 1;
    int64_t looks = 0;
    for (int32_t i = 0; i < w->nmembers; i++) {
        int32_t u = w->members[i];
        for (int32_t k = p->out_first[u], end = pl_out_end(p, u); k < end; k++) {
            int32_t r = p->out_arcs[k], h = pl_residual_head(p, r);
            if (++looks > RX_UNSTICK_LOOKS)
                return 0;
            if (in_set(w, h) || rcap(w, r ^ 1) == 0 || rcost(w, r, u, h) != 0)
                continue;
            w->mark[h] = w->gen + 1;
            w->pred[h] = r ^ 1;
            if (h == z || w->excess[h] > 0) {
                /* A balanced path after all (beyond the depth-first search's
                 * budget): move the deficit to z or meet the excess. */
                int64_t d = -w->excess[v];
                if (h != z && w->excess[h] < d)
                    d = w->excess[h];
                send_on_path(w, h, v, d, 1);
                return 1;
            }
            if (w->nmembers >= RX_UNSTICK_NODES)
                return 0;
            w->members[w->nmembers++] = h;
        }
    }
    int64_t delta = INT64_MAX;
    for (int32_t i = 0; i < w->nmembers; i++) {
        int32_t u = w->members[i];
        for (int32_t k = p->out_first[u], end = pl_out_end(p, u); k < end; k++) {
            int32_t r = p->out_arcs[k], h = pl_residual_head(p, r);
            if (in_set(w, h) || rcap(w, r ^ 1) == 0)
                continue;
            int64_t rc = -rcost(w, r, u, h); /* of r ^ 1, from h into u: > 0 here */
            delta = rc < delta ? rc : delta;
        }
    }
    if (delta == INT64_MAX)
        return 0;
    for (int32_t i = 0; i < w->nmembers; i++)
        if (w->pi[w->members[i]] > RX_PRICE_LIMIT - delta)
            return 0;
    for (int32_t i = 0; i < w->nmembers; i++)
        w->pi[w->members[i]] += delta;
    return 1;
}

/* Deficits that retract_deficits() could not move (the flow out of them is
 * on arcs of negative reduced cost: a machine everyone wants lost a task)
 * are moved, over a balanced path found backwards, to the node z holding
 * the largest deficit, or met by an excess on the way; where no such path
 * exists, a few ascents on the deficit's backward balanced set make one.
 * Left alone, a deficit like that is found only by an iteration from some
 * excess whose set S covers most of the graph first (measured at 80% load,
 * 12,500 machines: about 15 ascents over ~107,000 nodes and two searches
 * of ~100,000 per round, 1.0-2.7 s; with the set ascents all deficits reach
 * the sink before the iterations start and a round takes 16-20 ms). A
 * single-node ascent is not enough: the machine's arc from its rack is
 * usually balanced already, so the price must rise on the rack side too. */
static void relocate_deficits(rx_work *w)
{
    const pl_flow_problem *p = w->p;
    int32_t z = -1;
    for (int32_t v = 0; v < p->n; v++)
        if (w->excess[v] < 0 && (z < 0 || w->excess[v] < w->excess[z]))
            z = v;
    for (int32_t v = 0; v < p->n; v++) {
        if (w->excess[v] < 0 && pl_solve_cancelled(w->opts))
            return; /* run() reports it */
        for (int tries = 0; v != z && w->excess[v] < 0 && tries < RX_UNSTICK_TRIES; tries++) {
            int32_t t = balanced_dfs(w, v, 1, z);
            if (t < 0) {
                if (!raise_deficit(w, v, z))
                    break;
                continue;
            }
            int64_t d = -w->excess[v];
            if (t != z && w->excess[t] < d)
                d = w->excess[t];
            send_on_path(w, t, v, d, 1);
        }
    }
}

/* Incremental warm start: only the changed arcs can break slackness (the
 * others kept their flow, capacity, cost and end prices since the last
 * optimum), and the network hands over the excesses, so no pass over every
 * arc is needed. */
static void restore_changed(rx_work *w)
{
    const pl_flow_problem *p = w->p;
    const pl_flow_delta *d = p->delta;
    memcpy(w->excess, d->excess, (size_t)p->n * sizeof *w->excess);
    for (int32_t i = 0; i < d->n_changed_arcs; i++) {
        int32_t a = d->changed_arcs[i], t = p->tail[a], h = p->head[a];
        int64_t rc = p->cost[a] + w->pi[t] - w->pi[h], f = w->flow[a];
        int64_t want = rc < 0 ? p->cap[a] : rc > 0 ? 0 : f;
        w->flow[a] = want;
        w->excess[t] -= want - f;
        w->excess[h] += want - f;
    }
}

/* The lowest price a feasible problem should ever need: (n + 1) *
 * (max|cost| + 1) below the lowest starting price, but not below the
 * hard floor. */
static void set_floor(rx_work *w)
{
    const pl_flow_problem *p = w->p;
    int64_t lo = 0, cmax = 0;
    for (int32_t v = 0; v < p->n; v++)
        lo = w->pi[v] < lo ? w->pi[v] : lo;
    if (p->delta) {
        cmax = p->delta->cost_bound;
    } else {
        for (int32_t a = 0; a < p->m; a++) {
            int64_t c = p->cost[a] < 0 ? -p->cost[a] : p->cost[a];
            cmax = c > cmax ? c : cmax;
        }
    }
    /* (n + 1) * (cmax + 1) <= 2^60 + n + cmax + 1 by the problem's limits. */
    int64_t span = ((int64_t)p->n + 1) * (cmax + 1);
    w->floor = lo - span < -RX_PRICE_LIMIT ? -RX_PRICE_LIMIT : lo - span;
}

/* ---- errors --------------------------------------------------------------- */

static pl_status closed_set(const rx_work *w, int64_t trapped)
{
    return pl_err(PL_EINFEASIBLE,
                  "relaxation: %lld units of supply are held by a set of %d nodes (node %d among "
                  "them) that no residual arc leaves: no flow satisfies the supplies and arc bounds",
                  (long long)trapped, w->nmembers, w->members[0]);
}

/* A price fell below the floor: the supplies cannot be routed, or (with a
 * feasible problem) the prices are still bounded and the floor is lowered
 * to the hard limit once. */
static pl_status price_floor(rx_work *w)
{
    if (w->checked)
        return pl_err(PL_EOVERFLOW, "relaxation: node prices fell below -2^61");
    int64_t *tmp = pl_alloc((size_t)w->p->m + 1, sizeof *tmp);
    if (!tmp)
        return PL_ENOMEM;
    int feasible = 0;
    pl_status st = pl_feasible_flow(w->p, tmp, &feasible);
    free(tmp);
    if (st != PL_OK)
        return st;
    if (!feasible)
        return pl_err(PL_EINFEASIBLE, "relaxation: no flow satisfies the supplies and arc bounds");
    w->checked = 1;
    w->floor = -RX_PRICE_LIMIT;
    return PL_OK;
}

static pl_status cancelled(void)
{
    return pl_err(PL_ELIMIT, "relaxation: cancelled");
}

static pl_status count_iteration(rx_work *w)
{
    if (w->limit > 0 && *w->iterations >= w->limit)
        return pl_err(PL_ELIMIT, "relaxation: iteration limit %lld reached", (long long)w->limit);
    if (pl_solve_cancelled(w->opts))
        return cancelled();
    (*w->iterations)++;
    return PL_OK;
}

/* ---- the iteration ---------------------------------------------------------- */

/* Label h through residual arc r; returns 1 when h has a deficit. */
static inline int label(rx_work *w, int32_t r, int32_t h)
{
    w->mark[h] = w->gen;
    w->pred[h] = r;
    w->members[w->nmembers++] = h;
    return w->excess[h] < 0;
}

/* Scan u into S: label the heads of its balanced arcs, update out0(S) (its
 * balanced arcs to nodes outside S now leave S, those from S into u no
 * longer do) and e(S). Returns 1 when a deficit node was labelled (it is
 * the last member). */
static int scan_node(rx_work *w, int32_t u, int64_t *es, int64_t *out0)
{
    const pl_flow_problem *p = w->p;
    w->mark[u] = w->gen + 1;
    *es += w->excess[u];
    for (int32_t k = p->out_first[u], end = pl_out_end(p, u); k < end; k++) {
        int32_t r = p->out_arcs[k], h = pl_residual_head(p, r);
        if (h == u || rcost(w, r, u, h) != 0)
            continue;
        if (in_set(w, h)) {
            *out0 -= rcap(w, r ^ 1);
            continue;
        }
        int64_t c = rcap(w, r);
        if (c == 0)
            continue;
        *out0 += c;
        if (!labelled(w, h) && label(w, r, h))
            return 1;
    }
    return 0;
}

/* Augment from s along the tree to the deficit node t. */
static void augment(rx_work *w, int32_t s, int32_t t)
{
    send_on_path(w, s, t, w->excess[s] < -w->excess[t] ? w->excess[s] : -w->excess[t], 0);
}

/* Dual ascent on S (members[0 .. nmembers-1]): saturate its balanced
 * leaving arcs and lower its prices to the next breakpoint. The arcs
 * reaching it (the new balanced arcs leaving S) are kept in cand[] unless
 * there are more than n of them (ncand = -1). Sets *negative when a member
 * was left with a deficit. */
static pl_status ascend(rx_work *w, int64_t trapped, int *negative)
{
    const pl_flow_problem *p = w->p;
    int64_t delta = INT64_MAX;
    int32_t ncand = 0;
    *negative = 0;
    for (int32_t i = 0; i < w->nmembers; i++) {
        int32_t u = w->members[i];
        for (int32_t k = p->out_first[u], end = pl_out_end(p, u); k < end; k++) {
            int32_t r = p->out_arcs[k], h = pl_residual_head(p, r);
            if (in_set(w, h))
                continue;
            int64_t c = rcap(w, r);
            if (c == 0)
                continue;
            int64_t rc = rcost(w, r, u, h);
            if (rc == 0) {
                push(w, r, u, h, c);
                enqueue(w, h);
                *negative |= w->excess[u] < 0;
                continue;
            }
            if (rc < delta) {
                delta = rc;
                ncand = 0;
            }
            if (rc == delta && ncand >= 0) {
                if (ncand < p->n)
                    w->cand[ncand++] = r;
                else
                    ncand = -1;
            }
        }
    }
    if (delta == INT64_MAX)
        return closed_set(w, trapped);
    for (int32_t i = 0; i < w->nmembers; i++) {
        int32_t u = w->members[i];
        while (w->pi[u] - delta < w->floor) {
            pl_status st = price_floor(w);
            if (st != PL_OK)
                return st;
        }
        w->pi[u] -= delta;
    }
    w->ncand = ncand;
    return PL_OK;
}

/* One iteration from s (e(s) > 0). S grows one scanned node at a time
 * (breadth first over the labelled ones) until a labelled node has a deficit
 * (augment) or e(S) > out0(S) (ascend). Labelled nodes not yet scanned are
 * outside S, so the ascent test costs one pass over each scanned node's
 * arcs and nothing for the others. After an ascent S is kept and grows on
 * from the arcs the ascent balanced, as long as s still has excess and no
 * member was left with a deficit; otherwise the iteration ends and the
 * caller starts afresh. */
static pl_status iterate(rx_work *w, int32_t s)
{
    const pl_flow_problem *p = w->p;
    int32_t t = balanced_dfs(w, s, 0, -1);
    if (t >= 0) {
        augment(w, s, t);
        return count_iteration(w);
    }
    set_start(w, s);
    int64_t es = 0, out0 = 0;
    int32_t scan = 0;
    for (;;) {
        /* While e(S) <= out0(S), a balanced arc leaves S into a labelled,
         * unscanned node, so scan < nmembers. */
        if (es <= out0 && scan < w->nmembers) {
            /* A set may grow over most of the graph: look every 256 scans. */
            if ((scan & 255) == 255 && pl_solve_cancelled(w->opts))
                return cancelled();
            if (scan_node(w, w->members[scan++], &es, &out0))
                break;
            continue;
        }
        pl_status st = count_iteration(w);
        if (st != PL_OK)
            return st;
        for (int32_t i = scan; i < w->nmembers; i++)
            w->mark[w->members[i]] = 0;
        w->nmembers = scan;
        int negative;
        if ((st = ascend(w, es - out0, &negative)) != PL_OK)
            return st;
        if (negative || w->excess[s] <= 0 || w->ncand < 0) {
            for (int32_t i = 0; i < w->nmembers; i++)
                enqueue(w, w->members[i]);
            return PL_OK;
        }
        /* Every balanced arc leaving S is now a candidate. */
        es -= out0;
        out0 = 0;
        int found = 0;
        for (int32_t i = 0; i < w->ncand && !found; i++) {
            int32_t r = w->cand[i], h = pl_residual_head(p, r);
            out0 += rcap(w, r);
            found = !labelled(w, h) && label(w, r, h);
        }
        if (found)
            break;
    }
    augment(w, s, w->members[w->nmembers - 1]);
    return count_iteration(w);
}

/* ---- driver --------------------------------------------------------------- */

static pl_status run(rx_work *w)
{
    const pl_flow_problem *p = w->p;
    int warm = p->warm && warm_prices_fit(w);
    if (!warm) {
        for (int32_t v = 0; v < p->n; v++)
            w->pi[v] = 0;
        for (int32_t a = 0; a < p->m; a++)
            w->flow[a] = 0;
    }
    if (warm && p->delta)
        restore_changed(w);
    else
        pl_restore_slackness(p, w->pi, w->flow, w->excess);
    /* A cold start's deficits are the demands themselves: nothing to gain.
     * A second pass handles the deficits the first one's ascents created. */
    for (int pass = 0; warm && pass < 2; pass++) {
        retract_deficits(w);
        relocate_deficits(w);
    }
    if (pl_solve_cancelled(w->opts))
        return cancelled();
    set_floor(w);
    for (int32_t v = 0; v < p->n; v++)
        enqueue(w, v);
    while (w->qsize > 0) {
        int32_t s = dequeue(w);
        while (w->excess[s] > 0) {
            pl_status st = iterate(w, s);
            if (st != PL_OK)
                return st;
        }
    }
    pl_shift_potentials(p->n, w->pi);
    return PL_OK;
}

static pl_status solve(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    rx_work w;
    out->iterations = 0;
    pl_status st = work_init(&w, p, out);
    if (st != PL_OK)
        return st;
    w.limit = opts ? opts->max_iterations : 0;
    w.opts = opts;
    st = run(&w);
    work_free(&w);
    return st;
}

const pl_solver_ops pl_solver_relaxation = {
    .name = "relaxation",
    .description = "relaxation (Bertsekas-Tseng RELAX-style dual ascent): single- and multi-node price "
                   "rises on balanced arcs, augmenting to deficits",
    .solve = solve,
    .flags = PL_SOLVER_WARM_START | PL_SOLVER_INCREMENTAL,
};
