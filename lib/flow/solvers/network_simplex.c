/* Primal network simplex on a strongly feasible spanning-tree basis.
 *
 * Basis. An artificial root r = n is joined to every node v by an artificial
 * arc m + v of unlimited capacity, oriented v -> r ("up", cost 0) or r -> v
 * ("down", cost M). The first basis is the tree of these arcs carrying the
 * supplies (up for supply >= 0, down for demand), every real arc at its
 * lower bound (negative-cost loops at their upper bound). With
 * M = n * C + 1, C = max|cost|, the big-M problem is exact: if an optimal
 * basis had artificial arcs carrying flow while some feasible flow y exists,
 * the difference to y would hold a residual cycle entering the root against
 * a down arc (-M), leaving it against an up arc (0) and closed by a simple
 * path of real arcs (at most (n - 1) C): negative, impossible at an optimum.
 * Artificial arcs that leave the tree are never priced again (that argument
 * only uses the reverses of arcs that carry flow, which are tree arcs).
 * Potentials satisfy cost + pi[tail] - pi[head] = 0 on tree arcs; an arc at
 * its lower bound is eligible when that reduced cost is < 0, at its upper
 * bound when it is > 0. At the end every residual arc has a non-negative
 * reduced cost, the library's certificate; the real nodes' potentials are
 * returned shifted to minimum 0.
 *
 * Pivots. Block search (as in LEMON and Grigoriadis' code): scan the real
 * arcs cyclically in blocks of opts->pivot_block (default sqrt(m), at least
 * 10) and take the most violating arc of the first block that has one. The
 * arcs are stored in a mixed order (arc a = 0, 1, 2, ... in slots 0, s, 2s,
 * ..., then 1, 1 + s, ..., with stride s = max(m / n, 3), LEMON's "arc
 * mixing"), so that a block samples the whole network: Firmament graphs list
 * their arcs task by task, and without mixing block search pivots about five
 * times slower on them. The cycle the entering arc closes is found by
 * climbing from both of its ends to the join node, always from the end with
 * the smaller subtree (it cannot be an ancestor of the other). The same walk
 * finds the leaving arc: the last blocking arc met when the cycle is walked
 * in the direction of the flow change starting at the join (Cunningham's
 * rule), which keeps the tree strongly feasible - every node can push a
 * positive amount of flow to the root along its tree path - so degenerate
 * pivots cannot cycle.
 *
 * Tree representation (the technique of LEMON's NetworkSimplex, written
 * from its description): per node its parent, subtree size, the arc to its
 * parent (pred) and that arc's direction, the preorder "thread" through all
 * nodes and its reverse, and the last node of the subtree in thread order.
 * The tree arc's residual capacities towards and from the parent are kept
 * with the node, next to its parent and size, so the cycle walks read one
 * 24-byte record per node and no arc data; a non-tree arc's flow is implied
 * by its state (0 or cap). A pivot cuts the subtree T under the leaving arc,
 * re-roots it at the entering arc's end inside T by reversing the "stem"
 * path between the two (T's new preorder is the old subtrees of the stem
 * nodes, each without the one below it, concatenated), and hangs it under
 * the entering arc's other end. The potentials of one side of the cut change
 * by the same amount: those of T, or those of the rest when that is smaller
 * (the root's potential then moves; it is kept within +-2^60, falling back to
 * T if needed). A pivot costs the cycle, the stem and the smaller side.
 *
 * Warm start (p->warm and a basis kept by the previous solve). The solve's
 * arrays are kept with the basis in out->state, so a re-solve of the same
 * structure allocates nothing. Costs, capacities and supplies may have
 * changed. Non-tree arcs stay at the same bound (lower: flow 0, upper: flow
 * = the new capacity); tree flows are recomputed bottom-up (reverse thread
 * order) from the supplies. A tree arc whose flow leaves [0, cap], or sits at
 * a bound in the direction that breaks strong feasibility (an up arc at its
 * capacity, a down arc at 0), becomes non-tree at that bound, and its
 * subtree is hung from the root by the subtree root's artificial arc,
 * oriented so that its flow is >= 0 (up when 0). The repaired tree is
 * strongly feasible again; thread, sizes and potentials are rebuilt from the
 * parent array in O(n), and pivoting goes on. When no capacity and no
 * supply changed, all of that is skipped (the flows and the tree still
 * hold) and only the potentials are redone if a tree arc's cost changed:
 * a re-solve after a few cost changes then costs about three passes over
 * the arcs (copy in, one round of pricing, flows out). As a guard against
 * any remaining possibility of cycling, a warm solve that runs past
 * 20 (n + m) + 1000 pivots restarts cold.
 *
 * Structural changes. Arc and node ids are stable (a removed arc stays as an
 * inert [0, 0] arc, a removed node as a node without arcs, and ids are only
 * appended or reused), so a basis kept for another structure_version of the
 * same network still mostly applies: every arc id that joins the same two
 * nodes as before keeps its state, new and changed arcs start at their lower
 * bound, and nodes whose tree arc changed (and new nodes) hang from the
 * root; then the same repair follows (the tree arcs of removed arcs, now of
 * capacity 0, are cut by it). A scheduler's re-solve after tasks come and go
 * thus starts from the previous optimum. Only a network with fewer nodes or
 * arcs than the kept basis (impossible through pl_flownet) starts cold.
 * Artificial arcs keep their exact costs (0 or M) in a warm start: giving a
 * re-hung subtree an artificial cost that preserves its old potentials was
 * tried and made re-solves slower, as nothing then pushes its excess away.
 *
 * Initial pivots (cold start only, as LEMON does): with one source and one
 * sink, the arcs of a reverse search from the sink over arcs able to carry
 * the whole supply; otherwise the cheapest arc into each demand node (found
 * while the arcs are copied in). Each such arc enters the basis if it is
 * eligible.
 *
 * Cold starts on a kept work (issue 26). The driver keeps this solver's
 * state across cold starts (PL_SOLVER_COLD_KEEPS_STATE): a cold solve of a
 * network of the same size reuses the arrays instead of allocating and
 * faulting in 25 MB afresh at 1M arcs (8-10% of a cold solve of
 * assignment-1M), and, when the structure is the one the work was last
 * solved for, also the tails and heads already in slot order; the basis
 * is ignored (p->warm is 0).
 *
 * Memory. Per arc (the m real and n artificial ones): tail and head
 * (int32), capacity (int64) and state (int8); per real arc also its cost,
 * in 32 bits while every |cost| fits (else 64): 21 (25) bytes per real arc,
 * 17 per artificial one, whose cost follows from its direction (0 up, M
 * down) and is not stored. 32-bit costs make pricing, the memory-bound
 * half of a solve, read 13 bytes per arc instead of 17. Per node: the
 * 24-byte record, pred, thread, reverse thread, last successor (int32),
 * direction (int8), potential and the kept supply (int64), 57 bytes.
 * out->memory_bytes reports these (plus the scratch of the initial pivots).
 *
 * Overflow. Potentials relative to the root are tree path lengths, within
 * [-(n-1)C, M + (n-1)C], so reduced costs and potential shifts are below
 * B = M + 2nC, which the problem's guarantee n * C <= 2^60 keeps under
 * 2^60 + 2^61 + 1 (checked: B > 2^62 gives PL_EOVERFLOW). With the root's own
 * potential within +-2^60, no potential exceeds 2^60 + B and no sum
 * cost + pi overflows. Flows are bounded by the sum of capacities and
 * supplies (<= 2^62); an artificial arc's two residual capacities sum to
 * INT64_MAX.
 *
 * out->iterations counts pivots (including those where the entering arc just
 * moves to its other bound); opts->max_iterations caps it (PL_ELIMIT). */
#include <stdlib.h>
#include <string.h>
#include "internal/columns.h"
#include "internal/flownet_impl.h"

#define NS_LOWER 1    /* non-tree arc at flow 0 */
#define NS_TREE 0
#define NS_UPPER (-1) /* non-tree arc at flow cap */
#define NS_UP 1       /* tree arc directed from the node to its parent */
#define NS_DOWN (-1)  /* tree arc directed from the parent to the node */
#define NS_INF INT64_MAX
#define NS_MIN_BLOCK 10
#define NS_ROOT_DRIFT ((int64_t)1 << 60)

/* What a cycle walk needs of a node, in one record. */
typedef struct ns_node {
    int32_t parent;  /* -1 at the root */
    int32_t size;    /* nodes in the subtree */
    int64_t up;      /* residual capacity of the tree arc towards the parent */
    int64_t down;    /* residual capacity of the tree arc from the parent */
} ns_node;

typedef struct ns_work {
    /* What the kept basis belongs to. */
    uint64_t version;
    int32_t n, m;
    int has_basis;
    int64_t bytes;

    /* Arcs: slots 0 .. m-1 hold the problem's arcs in mixed order
     * (arc_slot), m + v node v's artificial arc. */
    int32_t skip;        /* stride of the mixed order */
    int32_t *tail;       /* [m + n] */
    int32_t *head;       /* [m + n] */
    int32_t *cost32;     /* [m] real arcs' costs when every |cost| fits 32 bits, else NULL */
    int64_t *cost;       /* [m] the same in 64 bits otherwise (NULL when cost32 is used) */
    int64_t *cap;        /* [m + n] */
    int8_t *state;       /* [m + n] NS_LOWER / NS_TREE / NS_UPPER */

    /* Spanning tree on nodes 0 .. n, root n. */
    ns_node *node;       /* [n + 1] */
    int32_t *pred;       /* [n + 1] arc between a node and its parent */
    int8_t *dir;         /* [n + 1] NS_UP / NS_DOWN: direction of pred */
    int32_t *thread;     /* [n + 1] preorder successor (cyclic through the root) */
    int32_t *rev_thread; /* [n + 1] preorder predecessor */
    int32_t *last_succ;  /* [n + 1] last node of the subtree in preorder */
    int64_t *pi;         /* [n + 1] potentials */
    int64_t *supply;     /* [n] supplies the kept basis was solved for */

    /* Per solve. */
    int32_t root;
    int64_t art_cost;    /* M */
    int64_t iters, limit, scratch_bytes;
    int32_t block, next_arc;
    /* The current pivot. */
    int32_t in_arc, join, u_in, v_in, u_out;
    int64_t delta;
} ns_work;

/* ---- allocation ------------------------------------------------------------ */

/* Zero-filled array of count elements (at least one), counted in w->bytes. */
static void *ns_alloc(void *work, size_t count, size_t size)
{
    ns_work *w = work;
    void *ptr = pl_alloc(count ? count : 1, size);
    if (ptr)
        w->bytes += (int64_t)((count ? count : 1) * size);
    return ptr;
}

/* The work's arrays by length: arc slots (m + n), tree nodes (n + 1), real
 * nodes; the real arcs' costs are one array or the other (set_cost_width). */
static const pl_column slot_cols[] = {
    PL_COLUMN(ns_work, tail), PL_COLUMN(ns_work, head), PL_COLUMN(ns_work, cap), PL_COLUMN(ns_work, state),
};
static const pl_column tree_cols[] = {
    PL_COLUMN(ns_work, node),       PL_COLUMN(ns_work, pred),      PL_COLUMN(ns_work, dir),
    PL_COLUMN(ns_work, thread),     PL_COLUMN(ns_work, rev_thread), PL_COLUMN(ns_work, last_succ),
    PL_COLUMN(ns_work, pi),
};
static const pl_column supply_col[] = {PL_COLUMN(ns_work, supply)};
static const pl_column cost32_col[] = {PL_COLUMN(ns_work, cost32)};
static const pl_column cost_col[] = {PL_COLUMN(ns_work, cost)};

static void work_free(ns_work *w)
{
    if (!w)
        return;
    pl_columns_free(w, slot_cols, PL_NCOLUMNS(slot_cols));
    pl_columns_free(w, tree_cols, PL_NCOLUMNS(tree_cols));
    pl_columns_free(w, supply_col, 1);
    pl_columns_free(w, cost32_col, 1);
    pl_columns_free(w, cost_col, 1);
    free(w);
}

static void free_state(void *state)
{
    work_free(state);
}

/* narrow: the real arcs' costs in 32 bits (arc_cost). */
static ns_work *work_new(int32_t n, int32_t m, int narrow)
{
    ns_work *w = pl_alloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->n = n;
    w->m = m;
    w->skip = n > 1 && m / n > 3 ? m / n : 3;
    w->bytes = (int64_t)sizeof *w;
    if (pl_columns_alloc_with(w, slot_cols, PL_NCOLUMNS(slot_cols), (int64_t)m + n, ns_alloc, w) ||
        pl_columns_alloc_with(w, tree_cols, PL_NCOLUMNS(tree_cols), (int64_t)n + 1, ns_alloc, w) ||
        pl_columns_alloc_with(w, supply_col, 1, n, ns_alloc, w) ||
        pl_columns_alloc_with(w, narrow ? cost32_col : cost_col, 1, m, ns_alloc, w)) {
        work_free(w);
        return NULL;
    }
    return w;
}

/* Switch the real arcs' costs to 32 bits (narrow) or 64, converting the
 * values held: exactly when widening; narrowing is only done before all
 * costs are reloaded (a cold start). 0 on ENOMEM (the work is unchanged). */
static int set_cost_width(ns_work *w, int narrow)
{
    if (narrow == (w->cost32 != NULL))
        return 1;
    size_t m = w->m ? (size_t)w->m : 1;
    if (narrow) {
        int32_t *c = pl_alloc(m, sizeof *c);
        if (!c)
            return 0;
        free(w->cost);
        w->cost = NULL;
        w->cost32 = c;
        w->bytes -= (int64_t)(m * (sizeof *w->cost - sizeof *c));
        return 1;
    }
    int64_t *c = pl_alloc(m, sizeof *c);
    if (!c)
        return 0;
    for (int32_t a = 0; a < w->m; a++)
        c[a] = w->cost32[a];
    free(w->cost32);
    w->cost32 = NULL;
    w->cost = c;
    w->bytes += (int64_t)(m * (sizeof *c - sizeof *w->cost32));
    return 1;
}

/* Cost of slot e: a real arc's, or an artificial arc's (0 up, M down). The
 * artificial costs follow from the arcs' direction and are not stored. */
static inline int64_t arc_cost(const ns_work *w, int32_t e)
{
    if (e >= w->m)
        return w->tail[e] == w->root ? w->art_cost : 0;
    return w->cost32 ? w->cost32[e] : w->cost[e];
}

/* ---- arcs in mixed order ------------------------------------------------------- */

/* Slot of arc a among m arcs mixed with stride skip. Residues r < m % skip
 * hold m / skip + 1 slots, the others m / skip; arc a is the q-th of residue
 * r's slots. */
static int32_t slot_of(int32_t a, int32_t m, int32_t skip)
{
    int32_t q = m / skip, big = m % skip, in_big = big * (q + 1);
    if (a < in_big)
        return (a % (q + 1)) * skip + a / (q + 1);
    a -= in_big;
    return (a % q) * skip + big + a / q;
}

/* The arc in slot i (the inverse of slot_of). */
static int32_t arc_of(int32_t i, int32_t m, int32_t skip)
{
    int32_t q = m / skip, big = m % skip, r = i % skip;
    return r * q + (r < big ? r : big) + i / skip;
}

static int32_t arc_slot(const ns_work *w, int32_t a)
{
    return slot_of(a, w->m, w->skip);
}

static int32_t slot_arc(const ns_work *w, int32_t i)
{
    return arc_of(i, w->m, w->skip);
}

/* The mixed order is a transpose: residue r's arcs prefix(r) + q, q = 0,
 * 1, ..., sit in slots q * skip + r. Copies between the two orders go by
 * NS_TILE x NS_TILE tiles of (residue, q) so that both sides use whole
 * cache lines (a plain strided loop misses on nearly every element once the
 * arrays outgrow the cache: the tiles measured 1.6x faster at 2M arcs, on
 * par at 500k). */
#define NS_TILE 32

#define FOR_EACH_ARC_SLOT(w, a, i, ...)                                               \
    do {                                                                               \
        const int32_t m_ = (w)->m, skip_ = (w)->skip, q_ = m_ / skip_, big_ = m_ % skip_; \
        for (int32_t r0_ = 0; r0_ < skip_; r0_ += NS_TILE)                              \
            for (int32_t k0_ = 0; k0_ <= q_; k0_ += NS_TILE)                            \
                for (int32_t r_ = r0_; r_ < r0_ + NS_TILE && r_ < skip_; r_++) {        \
                    int32_t len_ = q_ + (r_ < big_), first_ = r_ * q_ + (r_ < big_ ? r_ : big_); \
                    for (int32_t k_ = k0_; k_ < k0_ + NS_TILE && k_ < len_; k_++) {     \
                        int32_t a = first_ + k_, i = k_ * skip_ + r_;                    \
                        __VA_ARGS__                                                    \
                    }                                                                  \
                }                                                                      \
    } while (0)

#define NS_CAP_CHANGED 1       /* some capacity differs from the kept one */
#define NS_TREE_COST_CHANGED 2 /* some tree arc's cost differs */

/* best[v] = a if arc a enters demand node v and is its cheapest arc so far
 * (the smallest id of equally cheap ones, whatever the visiting order). */
static inline void cheapest_in(const pl_flow_problem *p, int32_t a, int32_t *best)
{
    int32_t v = p->head[a], b = best[v];
    if (p->supply[v] < 0 && p->tail[a] != v && p->cap[a] > 0 &&
        (b < 0 || p->cost[a] < p->cost[b] || (p->cost[a] == p->cost[b] && a < b)))
        best[v] = a;
}

/* Cold start: copy costs and capacities (and, unless the work already
 * holds this structure's, tails and heads) into slot order, every arc at
 * its lower bound; then negative-cost loops at their upper bound. With
 * best (n entries, -1), also find the cheapest arc into each demand node
 * for the initial pivots. One pass over the arcs where there were four
 * (copy, states, loops, cheapest arcs): the copy is a memory-bound
 * transpose, a tenth of a cold solve on assignment-1M. */
static void load_arcs_cold(ns_work *w, const pl_flow_problem *p, int with_ends, int32_t *best)
{
    int32_t *cost32 = w->cost32, *tail = w->tail, *head = w->head;
    int64_t *cost = w->cost, *cap = w->cap;
    const int64_t *pc = p->cost, *pk = p->cap;
    const int32_t *pt = p->tail, *ph = p->head;
    int64_t neg = 0;
#define NS_LOAD_COLD(set_cost, set_ends)                                                       \
    FOR_EACH_ARC_SLOT(w, a, i, {                                                               \
        set_cost;                                                                              \
        cap[i] = pk[a];                                                                        \
        set_ends;                                                                              \
        neg |= pc[a];                                                                          \
        if (best)                                                                              \
            cheapest_in(p, a, best);                                                           \
    })
    if (cost32 && with_ends)
        NS_LOAD_COLD(cost32[i] = (int32_t)pc[a], tail[i] = pt[a]; head[i] = ph[a]);
    else if (cost32)
        NS_LOAD_COLD(cost32[i] = (int32_t)pc[a], (void)0);
    else if (with_ends)
        NS_LOAD_COLD(cost[i] = pc[a], tail[i] = pt[a]; head[i] = ph[a]);
    else
        NS_LOAD_COLD(cost[i] = pc[a], (void)0);
#undef NS_LOAD_COLD
    memset(w->state, NS_LOWER, (size_t)w->m);
    if (neg < 0) /* some cost is negative (its sign bit is in neg) */
        for (int32_t a = 0; a < w->m; a++)
            if (tail[a] == head[a] && arc_cost(w, a) < 0)
                w->state[a] = NS_UPPER;
}

/* Warm start: copy costs and capacities into slot order and tell what
 * differs from the values being replaced (NS_CAP_CHANGED,
 * NS_TREE_COST_CHANGED). */
static int load_arcs(ns_work *w, const pl_flow_problem *p)
{
    int32_t *cost32 = w->cost32;
    int64_t *cost = w->cost, *cap = w->cap;
    const int64_t *pc = p->cost, *pk = p->cap;
    const int8_t *state = w->state;
    int changed = 0;
    if (cost32) { /* run() widened the costs if a new one needs 64 bits */
        FOR_EACH_ARC_SLOT(w, a, i, {
            int64_t c = pc[a], k = pk[a];
            changed |= (k != cap[i]) | ((c != cost32[i]) & (state[i] == NS_TREE)) << 1;
            cost32[i] = (int32_t)c;
            cap[i] = k;
        });
        return changed;
    }
    FOR_EACH_ARC_SLOT(w, a, i, {
        int64_t c = pc[a], k = pk[a];
        changed |= (k != cap[i]) | ((c != cost[i]) & (state[i] == NS_TREE)) << 1;
        cost[i] = c;
        cap[i] = k;
    });
    return changed;
}

/* Flow on the tree arc between v and its parent. */
static inline int64_t tree_flow(const ns_work *w, int32_t v)
{
    return w->dir[v] == NS_UP ? w->node[v].down : w->node[v].up;
}

/* Set the residual capacities of v's tree arc (pred, dir set) for flow f. */
static inline void set_tree_flow(ns_work *w, int32_t v, int64_t f)
{
    int64_t rest = w->cap[w->pred[v]] - f;
    w->node[v].up = w->dir[v] == NS_UP ? rest : f;
    w->node[v].down = w->dir[v] == NS_UP ? f : rest;
}

/* Write every arc's flow in the problem's order. */
static void store_flows(const ns_work *w, int64_t *flow)
{
    const int8_t *state = w->state;
    const int64_t *cap = w->cap;
    FOR_EACH_ARC_SLOT(w, a, i, { flow[a] = state[i] == NS_UPPER ? cap[i] : 0; });
    for (int32_t v = 0; v < w->n; v++)
        if (w->pred[v] < w->m)
            flow[slot_arc(w, w->pred[v])] = tree_flow(w, v);
}

/* ---- initial bases ------------------------------------------------------------ */

/* Make v's artificial arc m + v its tree arc to the root, carrying r units
 * from v (up, cost 0, when r >= 0) or -r units to v (down, cost M). */
static void hang_from_root(ns_work *w, int32_t v, int64_t r)
{
    int32_t e = w->m + v;
    w->node[v].parent = w->root;
    w->pred[v] = e;
    w->state[e] = NS_TREE;
    w->cap[e] = NS_INF;
    if (r >= 0) {
        w->dir[v] = NS_UP;
        w->tail[e] = v;
        w->head[e] = w->root;
        w->node[v].up = NS_INF - r;
        w->node[v].down = r;
    } else {
        w->dir[v] = NS_DOWN;
        w->tail[e] = w->root;
        w->head[e] = v;
        w->node[v].up = -r;
        w->node[v].down = NS_INF + r;
    }
}

/* The tree of artificial arcs: every node a child of the root. with_ends:
 * the real arcs' tails and heads in slot order are to be loaded too (else
 * they are those of this structure already). best: see load_arcs_cold. */
static void cold_basis(ns_work *w, const pl_flow_problem *p, int with_ends, int32_t *best)
{
    const int32_t n = w->n, root = w->root;
    load_arcs_cold(w, p, with_ends, best);
    for (int32_t v = 0; v < n; v++) {
        hang_from_root(w, v, p->supply[v]);
        w->node[v].size = 1;
        w->thread[v] = v + 1;
        w->rev_thread[v + 1] = v;
        w->last_succ[v] = v;
        w->pi[v] = w->dir[v] == NS_UP ? 0 : w->art_cost;
    }
    w->node[root] = (ns_node){.parent = -1, .size = n + 1};
    w->pred[root] = -1;
    w->dir[root] = 0;
    w->thread[root] = 0;
    w->rev_thread[0] = root;
    w->last_succ[root] = n - 1;
    w->pi[root] = 0;
}

/* Thread, reverse thread, subtree sizes and last successors of the tree
 * given by the parents, in O(n). */
static void rebuild_thread(ns_work *w)
{
    const int32_t n = w->n, root = w->root;
    ns_node *nd = w->node;
    int32_t *first = w->last_succ; /* child lists, in borrowed arrays */
    int64_t *next = w->pi;
    for (int32_t v = 0; v <= n; v++)
        first[v] = -1;
    for (int32_t v = n - 1; v >= 0; v--) {
        int32_t u = nd[v].parent;
        next[v] = first[u];
        first[u] = v;
    }
    /* Preorder without a stack: down to the first child, else to the next
     * sibling of the nearest ancestor (or self) that has one. */
    int32_t prev = root, x = root;
    for (;;) {
        if (first[x] >= 0) {
            x = first[x];
        } else {
            while (x != root && next[x] < 0)
                x = nd[x].parent;
            if (x == root)
                break;
            x = (int32_t)next[x];
        }
        w->thread[prev] = x;
        w->rev_thread[x] = prev;
        prev = x;
    }
    w->thread[prev] = root;
    w->rev_thread[root] = prev;
    for (int32_t v = 0; v <= n; v++) {
        nd[v].size = 1;
        w->last_succ[v] = v;
    }
    /* Reverse preorder: a subtree is complete before its root is reached,
     * and a node's last child in preorder is the first one seen. */
    for (int32_t v = w->rev_thread[root]; v != root; v = w->rev_thread[v]) {
        int32_t u = nd[v].parent;
        nd[u].size += nd[v].size;
        if (w->last_succ[u] == u)
            w->last_succ[u] = w->last_succ[v];
    }
}

/* Potentials from the tree arcs' costs, the root at 0, in thread order. */
static void set_potentials(ns_work *w)
{
    const int32_t root = w->root;
    w->pi[root] = 0;
    for (int32_t v = w->thread[root]; v != root; v = w->thread[v]) {
        int64_t c = arc_cost(w, w->pred[v]);
        w->pi[v] = w->pi[w->node[v].parent] + (w->dir[v] == NS_UP ? -c : c);
    }
}

/* The kept basis w belongs to another structure of the same network: arcs
 * or nodes were added, removed or had their ids reused since (see the file
 * comment). Keep the state of every arc whose id still joins the same two
 * nodes, start new and changed arcs at their lower bound, and hang from the
 * root every node whose tree arc changed; warm_basis then repairs the rest.
 * Returns the work holding the carried basis: w itself when n and m are
 * unchanged, else a new one (w is freed either way); NULL on ENOMEM. */
static ns_work *carry_basis(ns_work *w, const pl_flow_problem *p)
{
    const int32_t n = p->n, m = p->m, n0 = w->n, m0 = w->m, skip0 = w->skip;
    ns_work *x = w;
    if (n != n0 || m != m0) {
        x = work_new(n, m, w->cost32 != NULL); /* run() widens if needed */
        if (!x) {
            work_free(w);
            return NULL;
        }
    }
    x->root = n;
    for (int32_t a = 0, i = 0, r = 0; a < m; a++) {
        int8_t st = NS_LOWER;
        if (a < m0) {
            int32_t j = x == w ? i : slot_of(a, m0, skip0);
            if (w->tail[j] == p->tail[a] && w->head[j] == p->head[a])
                st = w->state[j];
        }
        x->tail[i] = p->tail[a];
        x->head[i] = p->head[a];
        x->state[i] = st;
        if ((i += x->skip) >= m)
            i = ++r;
    }
    for (int32_t v = 0; v < n; v++) {
        int32_t e = -1, u = n;
        int8_t d = NS_UP;
        if (v < n0 && w->pred[v] < m0) {
            e = x == w ? w->pred[v] : slot_of(arc_of(w->pred[v], m0, skip0), m, x->skip);
            u = w->node[v].parent == n0 ? n : w->node[v].parent;
            d = w->dir[v];
            int same = d == NS_UP ? x->tail[e] == v && x->head[e] == u
                                  : x->head[e] == v && x->tail[e] == u;
            if (x->state[e] != NS_TREE || !same)
                e = -1;
        }
        if (e < 0) { /* artificial; hang_from_root orients it later */
            e = m + v;
            u = n;
        }
        x->node[v].parent = u;
        x->pred[v] = e;
        x->dir[v] = d;
        x->state[m + v] = e >= m ? NS_TREE : NS_LOWER;
    }
    x->node[n].parent = -1;
    x->pred[n] = -1;
    if (x != w)
        work_free(w);
    rebuild_thread(x);
    return x;
}

/* Reuse the saved basis for new costs, capacities and supplies (see the file
 * comment): recompute the tree flows bottom-up, cut the tree arcs that are
 * out of bounds or break strong feasibility, and rebuild the tree. When
 * neither a capacity nor a supply changed (and the structure is the kept
 * one), the flows and the tree are still valid: only the potentials are
 * redone, and only if a tree arc's cost changed. M plays no part there: a
 * kept (optimal, feasible) basis has no flow on artificial arcs, so by
 * strong feasibility they are all up arcs, of cost 0. */
static void warm_basis(ns_work *w, const pl_flow_problem *p, int carried)
{
    const int32_t n = w->n, m = w->m, root = w->root;
    int64_t *ex = w->pi; /* net supply of each subtree, then overwritten */
    int changed = load_arcs(w, p);
    if (!carried && !(changed & NS_CAP_CHANGED) &&
        memcmp(w->supply, p->supply, (size_t)n * sizeof *p->supply) == 0) {
        if (changed & NS_TREE_COST_CHANGED)
            set_potentials(w);
        return;
    }
    for (int32_t v = 0; v < n; v++)
        ex[v] = p->supply[v];
    ex[root] = 0;
    for (int32_t a = 0; a < m; a++) {
        if (w->state[a] == NS_TREE)
            continue;
        int64_t f = w->state[a] == NS_UPPER ? w->cap[a] : 0;
        ex[w->tail[a]] -= f;
        ex[w->head[a]] += f;
    }
    for (int32_t x = w->rev_thread[root]; x != root; x = w->rev_thread[x]) {
        int32_t e = w->pred[x], u = w->node[x].parent;
        int64_t r = ex[x];
        if (e < m) {
            int64_t f = w->dir[x] == NS_UP ? r : -r, c = w->cap[e];
            int ok = w->dir[x] == NS_UP ? (f >= 0 && f < c) : (f > 0 && f <= c);
            if (ok) {
                set_tree_flow(w, x, f);
                ex[u] += r;
                continue;
            }
            int64_t fb = f <= 0 ? 0 : c;
            int64_t moved = w->dir[x] == NS_UP ? fb : -fb; /* from x to u */
            w->state[e] = fb == 0 ? NS_LOWER : NS_UPPER;
            ex[u] += moved;
            r -= moved;
        }
        hang_from_root(w, x, r);
    }
    rebuild_thread(w);
    set_potentials(w);
}

/* Flow left on some artificial arc: node v's, or -1 if none. */
static int32_t artificial_flow(const ns_work *w)
{
    for (int32_t v = 0; v < w->n; v++)
        if (w->pred[v] >= w->m && tree_flow(w, v) != 0)
            return v;
    return -1;
}

/* ---- pivots ---------------------------------------------------------------------- */

/* Block search for an eligible arc; sets w->in_arc. Of equally violating
 * arcs the first in scan order is taken. The scan keeps two running minima
 * (even and odd positions) so consecutive arcs do not wait on each other's
 * compare: 5-10% faster pricing on the 500k-arc benchmarks. One copy per
 * cost width (exactly one of cost32 and cost is non-NULL): pricing is
 * memory-bound, and 32-bit costs make it read 13 bytes per arc instead of
 * 17 (15% off a cold solve of assignment-1M). */
#define NS_PRICE_COST(e) (cost32 ? (int64_t)cost32[e] : cost[e])
static inline __attribute__((always_inline)) int find_entering_in(ns_work *w, const int32_t *cost32,
                                                                  const int64_t *cost)
{
    const int32_t m = w->m, block = w->block;
    const int32_t *tail = w->tail, *head = w->head;
    const int64_t *pi = w->pi;
    const int8_t *state = w->state;
    int64_t best = 0;
    int32_t in = -1, e = w->next_arc, left = m;
    while (left > 0) {
        int32_t len = block < left ? block : left;
        left -= len;
        while (len > 0) {
            int32_t stop = e + len <= m ? e + len : m;
            len -= stop - e;
            int64_t b0 = 0, b1 = 0;
            int32_t i0 = -1, i1 = -1;
            for (; e + 1 < stop; e += 2) {
                int64_t c0 = state[e] * (NS_PRICE_COST(e) + pi[tail[e]] - pi[head[e]]);
                int64_t c1 = state[e + 1] * (NS_PRICE_COST(e + 1) + pi[tail[e + 1]] - pi[head[e + 1]]);
                if (c0 < b0) {
                    b0 = c0;
                    i0 = e;
                }
                if (c1 < b1) {
                    b1 = c1;
                    i1 = e + 1;
                }
            }
            if (e < stop) {
                int64_t c0 = state[e] * (NS_PRICE_COST(e) + pi[tail[e]] - pi[head[e]]);
                if (c0 < b0) {
                    b0 = c0;
                    i0 = e;
                }
                e++;
            }
            if (b1 < b0 || (b1 == b0 && i1 >= 0 && i1 < i0)) {
                b0 = b1;
                i0 = i1;
            }
            if (b0 < best) { /* an earlier segment wins ties */
                best = b0;
                in = i0;
            }
            if (e == m)
                e = 0;
        }
        if (in >= 0) {
            w->next_arc = e;
            w->in_arc = in;
            return 1;
        }
    }
    return 0;
}

static int find_entering(ns_work *w)
{
    return w->cost32 ? find_entering_in(w, w->cost32, NULL) : find_entering_in(w, NULL, w->cost);
}
#undef NS_PRICE_COST

/* Walk from both ends of the entering arc to the join node, finding on the
 * way the leaving arc by Cunningham's rule: the cycle is oriented along the
 * entering arc's flow change, from "first" through the arc to "second".
 * On first's side flow moves from parent to child (residual "down"); of
 * equal blocking arcs there the one nearest first comes last, so strict <.
 * On second's side it moves up (residual "up") and ties go to the arc
 * nearest the join, met last, so <=; that side also wins ties against the
 * entering arc and first's side, which precede it. Returns 0 when the
 * entering arc itself blocks (it just moves to its other bound). */
static int find_cycle(ns_work *w)
{
    const ns_node *nd = w->node;
    const int32_t e = w->in_arc;
    int32_t first = w->tail[e], second = w->head[e];
    if (w->state[e] == NS_UPPER) {
        first = w->head[e];
        second = w->tail[e];
    }
    int64_t d1 = NS_INF, d2 = NS_INF;
    int32_t out1 = -1, out2 = -1, u = first, v = second;
    while (u != v) {
        if (nd[u].size < nd[v].size) {
            if (nd[u].down < d1) {
                d1 = nd[u].down;
                out1 = u;
            }
            u = nd[u].parent;
        } else {
            if (nd[v].up <= d2) {
                d2 = nd[v].up;
                out2 = v;
            }
            v = nd[v].parent;
        }
    }
    w->join = u;
    int64_t delta = w->cap[e];
    if (d2 <= delta && d2 <= d1) {
        w->delta = d2;
        w->u_out = out2;
        w->u_in = second;
        w->v_in = first;
        return 1;
    }
    if (d1 < delta) {
        w->delta = d1;
        w->u_out = out1;
        w->u_in = first;
        w->v_in = second;
        return 1;
    }
    w->delta = delta;
    return 0;
}

/* Push delta around the cycle: on the tail's side of the entering arc the
 * flow change runs from the join down, on the head's side up to it. When
 * the tree changes (change), the same walk does the subtree sizes outside
 * T: T (size T_size) moves from under v_out to under v_in, so the nodes from
 * v_in up to the join gain T_size and those from v_out up to it lose it. */
static void change_flow(ns_work *w, int change)
{
    ns_node *nd = w->node;
    const int32_t e = w->in_arc, join = w->join, tail = w->tail[e], head = w->head[e];
    const int64_t val = w->state[e] == NS_LOWER ? w->delta : -w->delta;
    int32_t size = 0, gain = 0, lose_after = -1;
    if (change) {
        size = nd[w->u_out].size;
        gain = w->v_in == tail ? size : 0;  /* on the tail's side */
        lose_after = w->u_out;              /* on u_in's side, above u_out */
    }
    int32_t add = gain;
    for (int32_t u = tail; u != join; u = nd[u].parent) {
        nd[u].down -= val;
        nd[u].up += val;
        nd[u].size += add;
        if (u == lose_after)
            add = -size;
    }
    add = change && w->v_in == head ? size : 0;
    for (int32_t u = head; u != join; u = nd[u].parent) {
        nd[u].up -= val;
        nd[u].down += val;
        nd[u].size += add;
        if (u == lose_after)
            add = -size;
    }
}

/* Move the subtree T of u_out (cut from its parent v_out by the leaving arc)
 * under v_in, re-rooted at u_in, and fix every tree array (file comment).
 * f_in is the entering arc's new flow. The sizes outside T are already
 * done (change_flow). */
static void update_tree(ns_work *w, int64_t f_in)
{
    ns_node *nd = w->node;
    int32_t *pred = w->pred, *thread = w->thread, *rev = w->rev_thread, *last = w->last_succ;
    int8_t *dir = w->dir;
    const int32_t u_in = w->u_in, v_in = w->v_in, u_out = w->u_out;
    const int32_t v_out = nd[u_out].parent;
    const int32_t before_t = rev[u_out], last_t = last[u_out], size = nd[u_out].size;

    /* Take T out of the thread. */
    int32_t after_t = thread[last_t];
    thread[before_t] = after_t;
    rev[after_t] = before_t;

    /* Re-thread T from u_in up the stem to u_out: the new preorder is the
     * old subtree of u_in, then for each stem node s above child c: s and the
     * part of its old subtree before c's, then the part after c's. Values of
     * the node c below are kept in c_* before being overwritten; each stem
     * arc moves to the node above it, its residuals swapped. */
    int32_t c = u_in, c_par = nd[c].parent, c_pred = pred[c], c_size = nd[c].size;
    int8_t c_dir = dir[c];
    int64_t c_up = nd[c].up, c_down = nd[c].down;
    int32_t c_rev = rev[c], c_last = last[c];
    int32_t end = c_last, next = thread[c_last];
    pred[u_in] = w->in_arc;
    dir[u_in] = w->tail[w->in_arc] == u_in ? NS_UP : NS_DOWN;
    nd[u_in].parent = v_in;
    nd[u_in].size = size;
    set_tree_flow(w, u_in, f_in);
    while (c != u_out) {
        int32_t s = c_par;
        ns_node sn = nd[s];
        int32_t s_pred = pred[s], s_rev = rev[s], s_last = last[s];
        int8_t s_dir = dir[s];
        nd[s] = (ns_node){.parent = c, .size = size - c_size, .up = c_down, .down = c_up};
        pred[s] = c_pred;
        dir[s] = (int8_t)-c_dir;
        thread[end] = s;
        rev[s] = end;
        end = c_rev;
        if (s_last != c_last) {
            thread[end] = next;
            rev[next] = end;
            end = s_last;
            next = thread[s_last];
        }
        c = s;
        c_par = sn.parent;
        c_size = sn.size;
        c_up = sn.up;
        c_down = sn.down;
        c_pred = s_pred;
        c_dir = s_dir;
        c_rev = s_rev;
        c_last = s_last;
    }
    /* Every stem node's subtree now ends where T's does. */
    for (int32_t s = u_out; s != v_in; s = nd[s].parent)
        last[s] = end;

    /* Insert T right after v_in. */
    int32_t after_v = thread[v_in];
    thread[v_in] = u_in;
    rev[u_in] = v_in;
    thread[end] = after_v;
    rev[after_v] = end;

    /* Subtrees that ended with T now end just before its old place; then
     * those that ended at v_in end with T. */
    for (int32_t x = v_out; x >= 0 && last[x] == last_t; x = nd[x].parent)
        last[x] = before_t;
    for (int32_t x = v_in; x >= 0 && last[x] == v_in; x = nd[x].parent)
        last[x] = end;
}

/* Give the entering arc reduced cost 0: shift T's potentials, or the rest's
 * the other way when that side is smaller and the root stays in range. */
static void update_potentials(ns_work *w)
{
    const int32_t u_in = w->u_in, root = w->root;
    const int64_t c = arc_cost(w, w->in_arc);
    const int32_t *thread = w->thread;
    int64_t *pi = w->pi;
    int64_t sigma = pi[w->v_in] + (w->dir[u_in] == NS_UP ? -c : c) - pi[u_in];
    int32_t size = w->node[u_in].size, rest = w->n + 1 - size;
    int32_t x = u_in, k = size;
    if (rest < size) {
        int64_t moved = pi[root] - sigma;
        if (moved <= NS_ROOT_DRIFT && moved >= -NS_ROOT_DRIFT) {
            x = thread[w->last_succ[u_in]];
            k = rest;
            sigma = -sigma;
        }
    }
    for (; k > 0; k--) {
        pi[x] += sigma;
        x = thread[x];
    }
}

static void pivot(ns_work *w)
{
    int change = find_cycle(w);
    const int32_t e = w->in_arc;
    if (w->delta > 0 || change)
        change_flow(w, change);
    if (!change) {
        w->state[e] = (int8_t)-w->state[e];
        return;
    }
    int64_t f_in = w->state[e] == NS_LOWER ? w->delta : w->cap[e] - w->delta;
    int32_t out = w->pred[w->u_out];
    w->state[out] = tree_flow(w, w->u_out) == 0 ? NS_LOWER : NS_UPPER;
    w->state[e] = NS_TREE;
    update_tree(w, f_in);
    update_potentials(w);
}

#ifdef NS_DEBUG
/* Every invariant of the tree, checked after each pivot when NS_DEBUG is
 * defined (slow: the test suite compiles a checked copy of this file). */
#ifndef NS_ASSERT
#include <assert.h>
#define NS_ASSERT(x) assert(x)
#endif
static void check_tree(const ns_work *w)
{
    const int32_t n = w->n, root = w->root;
    const ns_node *nd = w->node;
    int32_t count = 0;
    for (int32_t x = root;;) {
        NS_ASSERT(w->rev_thread[w->thread[x]] == x);
        x = w->thread[x];
        count++;
        if (x == root)
            break;
        NS_ASSERT(count <= n);
    }
    NS_ASSERT(count == n + 1);
    for (int32_t v = 0; v <= n; v++) {
        int32_t k = nd[v].size, x = v, l = v;
        for (int32_t i = 0; i < k; i++) {
            l = x;
            NS_ASSERT(i == 0 || nd[x].parent >= 0);
            x = w->thread[x];
        }
        NS_ASSERT(l == w->last_succ[v]);
        if (v == root)
            continue;
        int32_t e = w->pred[v], u = nd[v].parent;
        NS_ASSERT(w->state[e] == NS_TREE);
        int64_t c = arc_cost(w, e);
        NS_ASSERT(w->pi[v] == w->pi[u] + (w->dir[v] == NS_UP ? -c : c));
        NS_ASSERT(w->dir[v] == NS_UP ? w->tail[e] == v && w->head[e] == u
                                 : w->head[e] == v && w->tail[e] == u);
        if (e >= w->m)
            NS_ASSERT(e == w->m + v && u == root);
        NS_ASSERT(nd[v].up >= 0 && nd[v].down >= 0 && nd[v].up + nd[v].down == w->cap[e]);
        NS_ASSERT(nd[v].up > 0); /* strongly feasible */
    }
}
#define CHECK_TREE(w) check_tree(w)
#else
#define CHECK_TREE(w) ((void)0)
#endif

/* ---- initial pivots ------------------------------------------------------------ */

static pl_status limit_reached(const ns_work *w)
{
    return pl_err(PL_ELIMIT, "network-simplex: iteration limit %lld reached (pivots)",
                  (long long)w->limit);
}

/* Pivot on slot e if it is eligible. */
static pl_status try_pivot(ns_work *w, int32_t e)
{
    int64_t rc = arc_cost(w, e) + w->pi[w->tail[e]] - w->pi[w->head[e]];
    if (w->state[e] * rc >= 0)
        return PL_OK;
    if (w->limit > 0 && w->iters >= w->limit)
        return limit_reached(w);
    w->iters++;
    w->in_arc = e;
    pivot(w);
    CHECK_TREE(w);
    return PL_OK;
}

/* Whether the initial pivots are the cheapest arcs into the demand nodes
 * (some supply, and more than one source or sink). */
static int wants_cheapest_in(const pl_flow_problem *p)
{
    int32_t sources = 0, sinks = 0;
    for (int32_t v = 0; v < p->n; v++) {
        sources += p->supply[v] > 0;
        sinks += p->supply[v] < 0;
    }
    return sources > 0 && (sources > 1 || sinks > 1);
}

/* LEMON-style crash pivots for a cold start (see the file comment): the
 * arcs best[v] >= 0 found by cold_basis when best is given (the cheapest
 * arc into each demand node), else the single source and sink's search,
 * which uses the problem's CSR residual view for the arcs entering a node. */
static pl_status initial_pivots(ns_work *w, const pl_flow_problem *p, const int32_t *best)
{
    const int32_t n = w->n;
    pl_status st = PL_OK;
    if (best) {
        for (int32_t v = 0; v < n && st == PL_OK; v++)
            if (best[v] >= 0)
                st = try_pivot(w, arc_slot(w, best[v]));
        return st;
    }
    int32_t sources = 0, sinks = 0, s = -1, t = -1;
    int64_t total = 0;
    for (int32_t v = 0; v < n; v++) {
        if (p->supply[v] > 0) {
            sources++;
            s = v;
            total += p->supply[v];
        } else if (p->supply[v] < 0) {
            sinks++;
            t = v;
        }
    }
    if (total == 0 || sources != 1 || sinks != 1)
        return PL_OK; /* the other case is handled above */
    /* Reverse search from the sink over arcs that can carry everything;
     * pivot in discovery order. */
    uint8_t *seen = pl_alloc((size_t)n, 1);
    int32_t *stack = pl_alloc((size_t)n, sizeof *stack);
    int32_t *arcs = pl_alloc((size_t)n, sizeof *arcs);
    if (!seen || !stack || !arcs) {
        free(seen);
        free(stack);
        free(arcs);
        return PL_ENOMEM;
    }
    w->scratch_bytes = (int64_t)n * (1 + 2 * sizeof(int32_t));
    int32_t top = 0, narcs = 0;
    seen[t] = 1;
    stack[top++] = t;
    while (top > 0) {
        int32_t v = stack[--top];
        if (v == s)
            break;
        for (int32_t i = p->out_first[v]; i < p->out_first[v + 1]; i++) {
            int32_t r = p->out_arcs[i];
            if (!(r & 1))
                continue; /* a forward residual arc leaves v: we want arcs into v */
            int32_t a = r >> 1, u = p->tail[a];
            if (seen[u] || p->cap[a] < total)
                continue;
            seen[u] = 1;
            arcs[narcs++] = a;
            stack[top++] = u;
        }
    }
    for (int32_t i = 0; i < narcs && st == PL_OK; i++)
        st = try_pivot(w, arc_slot(w, arcs[i]));
    free(seen);
    free(stack);
    free(arcs);
    return st;
}

/* ---- driver ------------------------------------------------------------------------ */

/* Pivot until no arc is eligible, or (guard > 0) until guard pivots have
 * been made in all: then *gave_up is set. */
static pl_status simplex(ns_work *w, int64_t guard, int *gave_up)
{
    while (find_entering(w)) {
        if (w->limit > 0 && w->iters >= w->limit)
            return limit_reached(w);
        if (guard > 0 && w->iters >= guard) {
            *gave_up = 1;
            return PL_OK;
        }
        w->iters++;
        pivot(w);
        CHECK_TREE(w);
    }
    return PL_OK;
}

/* The largest |cost|, checked against the bound on potentials and reduced
 * costs (file comment); M is n times it plus one. */
static pl_status max_cost(const pl_flow_problem *p, int64_t *out)
{
    int64_t cmax = 0, mm, bound, t;
    for (int32_t a = 0; a < p->m; a++) {
        int64_t c = p->cost[a];
        if (c == INT64_MIN)
            return pl_err(PL_EOVERFLOW, "network-simplex: cost of arc %d is out of range", a);
        c = c < 0 ? -c : c;
        cmax = c > cmax ? c : cmax;
    }
    if (pl_mul_ovf(cmax, p->n, &mm) || pl_add_ovf(mm, 1, &mm) || pl_mul_ovf(cmax, 2 * (int64_t)p->n, &t) ||
        pl_add_ovf(mm, t, &bound) || bound > ((int64_t)1 << 62))
        return pl_err(PL_EOVERFLOW, "network-simplex: max |cost| %lld with %d nodes makes potentials "
                      "exceed the int64 range (n x max |cost| must stay within 2^60)",
                      (long long)cmax, p->n);
    *out = cmax;
    return PL_OK;
}

static int32_t isqrt32(int32_t x)
{
    int32_t r = 0;
    while ((int64_t)(r + 1) * (r + 1) <= x)
        r++;
    return r;
}

/* warm: 0 cold, 1 the kept basis, 2 a carried one. ends: the work's real
 * tails and heads in slot order are this structure's already. cmax: the
 * largest |cost| (max_cost). */
static pl_status run(ns_work *w, const pl_flow_problem *p, const pl_solve_opts *opts,
                     pl_flow_solution *out, int warm, int ends, int64_t cmax)
{
    pl_status st;
    w->root = p->n;
    w->iters = 0;
    w->scratch_bytes = 0;
    w->limit = opts ? opts->max_iterations : 0;
    w->next_arc = 0;
    int32_t block = opts && opts->pivot_block > 0 ? opts->pivot_block : 0;
    if (block == 0) {
        block = isqrt32(p->m);
        block = block < NS_MIN_BLOCK ? NS_MIN_BLOCK : block;
    }
    w->block = block;
    w->art_cost = cmax * p->n + 1;
    /* Costs held in 32 bits that no longer fit are widened, values kept. */
    if (cmax > INT32_MAX && !set_cost_width(w, 0))
        return PL_ENOMEM;

    int gave_up = 0;
    if (warm) {
        warm_basis(w, p, warm == 2);
        CHECK_TREE(w);
        if ((st = simplex(w, 20 * ((int64_t)p->m + p->n) + 1000, &gave_up)) != PL_OK)
            return st;
    }
    if (!warm || gave_up) {
        int32_t *best = NULL;
        if (wants_cheapest_in(p)) {
            if (!(best = pl_alloc((size_t)p->n, sizeof *best)))
                return PL_ENOMEM;
            w->scratch_bytes = (int64_t)p->n * (int64_t)sizeof *best;
            for (int32_t v = 0; v < p->n; v++)
                best[v] = -1;
        }
        if (cmax <= INT32_MAX && !set_cost_width(w, 1)) {
            free(best);
            return PL_ENOMEM;
        }
        cold_basis(w, p, !(warm || ends), best);
        st = initial_pivots(w, p, best);
        free(best);
        if (st != PL_OK || (st = simplex(w, 0, &gave_up)) != PL_OK)
            return st;
    }

    int32_t v = artificial_flow(w);
    if (v >= 0)
        return pl_err(PL_EINFEASIBLE, "network-simplex: no flow satisfies the supplies and arc "
                      "bounds (%lld units of node %d's balance cannot be routed)",
                      (long long)tree_flow(w, v), v);
    store_flows(w, out->flow);
    int64_t lo = w->pi[0];
    for (v = 1; v < p->n; v++)
        lo = w->pi[v] < lo ? w->pi[v] : lo;
    for (v = 0; v < p->n; v++)
        out->potential[v] = w->pi[v] - lo;
    return PL_OK;
}

static pl_status solve(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    if (opts && opts->pivot_block < 0)
        return pl_err(PL_EINVAL, "network-simplex: pivot_block %d is negative (0 = default, about "
                      "sqrt(arcs))", opts->pivot_block);
    out->iterations = 0;
    out->memory_bytes = 0;
    ns_work *w = NULL;
    if (out->state && *out->state) {
        w = *out->state;
        *out->state = NULL;
    }
    if (p->n == 0) {
        work_free(w);
        return PL_OK;
    }
    int64_t cmax = 0;
    pl_status st = max_cost(p, &cmax);
    if (st != PL_OK) {
        work_free(w);
        return st;
    }
    int warm = 0; /* 1: the kept basis as it is, 2: carried to a new structure */
    if (w && p->warm && w->has_basis) {
        if (w->version == p->structure_version && w->n == p->n && w->m == p->m) {
            warm = 1;
        } else if (p->n >= w->n && p->m >= w->m) {
            if (!(w = carry_basis(w, p)))
                return PL_ENOMEM;
            warm = 2;
        }
    }
    /* A cold start reuses the kept work's memory (PL_SOLVER_COLD_KEEPS_STATE)
     * and, for the same structure, its arcs' ends in slot order. */
    int ends = 0;
    if (w && !warm && (w->n != p->n || w->m != p->m)) {
        work_free(w);
        w = NULL;
    } else if (w && !warm) {
        ends = w->has_basis && w->version == p->structure_version;
    }
    if (!w && !(w = work_new(p->n, p->m, cmax <= INT32_MAX)))
        return PL_ENOMEM;
    w->has_basis = 0;
    st = run(w, p, opts, out, warm, ends, cmax);
    out->iterations = w->iters;
    out->memory_bytes = w->bytes + w->scratch_bytes;
    if (st == PL_OK && out->state) {
        w->has_basis = 1;
        w->version = p->structure_version;
        memcpy(w->supply, p->supply, (size_t)p->n * sizeof *p->supply);
        *out->state = w;
    } else {
        work_free(w);
    }
    return st;
}

const pl_solver_ops pl_solver_network_simplex = {
    .name = "network-simplex",
    .description = "primal network simplex (strongly feasible trees, block search pivots) "
                   "with warm re-solves from the previous basis",
    .solve = solve,
    .flags = PL_SOLVER_WARM_START | PL_SOLVER_COLD_KEEPS_STATE,
    .free_state = free_state,
};
