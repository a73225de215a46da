/* Cost scaling (Goldberg-Tarjan push/relabel by successive approximation),
 * in the style of Goldberg's CS2 and LEMON's CostScaling.
 *
 * Scaled problem. Every cost is multiplied by k = n + 1. A pseudo-flow is
 * eps-optimal for prices p when every residual arc r with capacity left has
 * reduced cost c_p(r) = k*cost(r) + p[tail] - p[head] >= -eps. A 1-optimal
 * flow (eps = 1 in scaled units, 1/k in real ones) is optimal: a residual
 * cycle has at most n arcs, so its real cost is > -n/k > -1, hence >= 0.
 *
 * Phases. eps starts at k * max|cost| (any flow is eps-optimal for zero
 * prices) and is divided by alpha (opts->scaling_factor, default 16) per
 * phase down to 1. refine(eps) saturates every residual arc of negative
 * reduced cost, then removes the excesses by "partial augment" (LEMON's
 * default): from an active node, follow admissible arcs (residual, reduced
 * cost < 0, found through current-arc pointers) for up to CS_PATH_MAX steps
 * or until a deficit node, relabelling and stepping back at dead ends, then
 * push along the path. Heuristics:
 *  - global price update: a Dial/Dijkstra search backwards from the deficit
 *    nodes (ranks in units of eps) at the start of every refine and after
 *    every ~n relabels; it finds exact ranks even when they are far beyond the
 *    bucket array (the bucket window slides), and it proves infeasibility
 *    when an excess node cannot reach any deficit;
 *  - price refinement: before a phase, if the current flow has no excess,
 *    try to find prices making it eps-optimal for the new eps (rounds of a
 *    longest path over the admissible arcs, found by a depth-first search,
 *    then a top-down bucket pass, as LEMON does); on success the phase is
 *    skipped. Once the flow is optimal, every later phase is skipped. A
 *    failed attempt keeps the prices it lowered (still eps-optimal for the
 *    old eps): undoing them doubled the next phases' time on NETGEN;
 *  - the path search doubles as push look-ahead: no flow is pushed into a
 *    node from which no admissible arc leaves (it is relabelled first).
 * Arc fixing is not implemented (see the commit report: the scans it saves
 * are a small part of the time on the networks measured).
 *
 * Exact potentials. The final flow is 1-optimal for integer scaled prices
 * p. For any shift s, pi(v) = floor((p[v] + s) / k) gives every residual
 * arc a real reduced cost >= 0 except arcs of scaled reduced cost -1 into a
 * node v with p[v] + s = 0 (mod k). There are at most n such residues and k
 * = n + 1 candidates, so one s works: pi is exact in O(m), with no shortest
 * path computation.
 *
 * Warm start (p->warm): the previous flow (clipped to the bounds) and
 * potentials (scaled by k) are kept; eps starts at the largest violation
 * -c_p(r) over the residual arcs instead of k * max|cost| (but, when there
 * are excesses to move, no lower than the cold schedule's third phase), so
 * after a few changes most phases find nothing to do, and price refinement
 * skips the rest once the flow is optimal again.
 *
 * Layout and memory. The residual arcs are copied, grouped by tail in the
 * order of p->out_arcs, into an array of 16-byte records {residual capacity,
 * cost, head, partner}, all 32-bit, the cost unscaled and multiplied by k in
 * int64 at each use: 32 bytes per arc. Residual capacities stay within
 * 0..cap, so that layout holds whenever every capacity (cap_inf included:
 * p->cap carries it for infinite arcs) and every |cost| is at most
 * INT32_MAX; otherwise the solve falls back to 24-byte records {int64
 * residual capacity, int64 scaled cost, head, partner}: 48 bytes per arc.
 * The layout is chosen once per solve and every function touching arcs is
 * compiled once per layout (run_layout()), so neither pays for the other.
 * The compact records are also faster (4 per cache line instead of 2.7).
 * Per node: CSR offset, price, excess, current arc, queue, rank and two
 * bucket links, two flags and a bucket head: 54 bytes, plus 8 for the two
 * arrays of n + 1. In all (m > 0), memory_bytes = 32 m + 54 n + 8 (compact)
 * or 48 m + 54 n + 8 (wide): 32 to 46 bytes per arc on the benchmark
 * families (grids, n = m / 4, the most). That is all the solve touches; the
 * problem's own arrays (out_first/out_arcs, tail, head, cap, cost, supply:
 * 32 bytes per arc) and out->flow (8 bytes per arc) are read once while
 * building the copy and read/written once at the end. out->memory_bytes
 * reports exactly the bytes this file allocates (the copy plus the per-node
 * arrays; large ones are not rounded up to whole huge pages, see
 * cs_alloc()).
 *
 * Overflow. k * |cost| <= 2^61 by the problem's guarantee n * max|cost| <=
 * 2^60. Prices start at <= 0 and only decrease; they are kept >= -2^62, so
 * every reduced cost fits in int64. A price that would go below -2^62 ends
 * the solve with PL_EOVERFLOW (or PL_EINFEASIBLE, decided by a max-flow test,
 * if the prices ran away because the supplies cannot be routed); a warm
 * start whose scaled potentials do not fit falls back to zero prices.
 *
 * Iterations: out->iterations counts pushes (one per arc of an augmenting
 * path) plus relabels; opts->max_iterations caps that count (PL_ELIMIT).
 * Global updates and price refinements are not counted. */
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include "internal/flownet_impl.h"
#define CS_DEFAULT_ALPHA 16
#define CS_PRICE_MIN (-((int64_t)1 << 62))
#define CS_INF INT64_MAX
#define CS_PATH_MAX 4          /* arcs per partial augmentation */
#define CS_WARM_FLOOR_PHASE 2 /* see run_layout() */
#define CS_UPDATE_FACTOR 1     /* global update after n * this relabels */
#define CS_REFINE_ROUNDS 8     /* price refinement rounds before giving up */

/* The two residual arc layouts (see "Layout and memory"). */
typedef struct cs_arc16 {
    int32_t rcap;   /* residual capacity */
    int32_t cost;   /* cost, negated for a backward arc; scaled by k at use */
    int32_t head;
    uint32_t rev;   /* index of the partner residual arc | CS_OPEN if its rcap > 0 */
} cs_arc16;

typedef struct cs_arc24 {
    int64_t rcap;
    int64_t cost;   /* k * cost, negated for a backward arc */
    int32_t head;
    uint32_t rev;
} cs_arc24;

/* Residual arc indices fit in 31 bits (2m < 2^31), so the top bit of rev
 * caches "the partner has residual capacity": the global update scans arcs
 * u -> v and needs exactly that for v -> u, without a cache miss on it. */
#define CS_OPEN 0x80000000u
#define CS_IDX(rev) ((int32_t)((rev) & ~CS_OPEN))

typedef struct cs_work {
    const pl_flow_problem *p;
    pl_flow_solution *out;
    int32_t n;
    int64_t k;           /* cost multiplier n + 1 */
    int64_t alpha;       /* eps divisor per phase */
    int64_t eps;         /* current phase's epsilon */
    int32_t *first;      /* [n+1] CSR offsets into the residual arcs */
    int wide;            /* 1: arc24 holds the residual arcs, 0: arc16 */
    cs_arc16 *arc16;     /* [2m] or NULL */
    cs_arc24 *arc24;     /* [2m] or NULL */
    int64_t *price;      /* [n] */
    int64_t *excess;     /* [n] */
    int32_t *cur;        /* [n] current arc */
    int32_t *queue;      /* [n] active nodes, circular FIFO */
    uint8_t *queued;     /* [n] membership of queue */
    int32_t qhead, qlen;
    int64_t *rank;       /* [n] global update ranks / price refinement depths */
    int32_t *bnext;      /* [n] bucket links / price refinement path lengths */
    int32_t *bprev;      /* [n] */
    int32_t *bucket;     /* [nb] bucket heads (window of ranks) */
    int32_t nb;
    int32_t *ovf;        /* [n] nodes whose rank lies beyond the bucket window */
    uint8_t *in_ovf;     /* [n] */
    int32_t novf;
    int64_t limit;       /* opts->max_iterations, 0 = none */
    const pl_solve_opts *opts; /* for pl_solve_cancelled() */
    int64_t iters;       /* pushes + relabels */
    int64_t relabels, next_update, update_every;
    int64_t bytes;       /* allocated bytes */
} cs_work;

/* ---- residual arcs ------------------------------------------------------- */

/* Every function that reads the residual arcs takes the layout as a
 * constant W (1 = cs_arc24) and is inlined into run_layout(), which is
 * compiled once per layout: the layout test folds away and the hot loops
 * are those of a single-layout solver. */
#define CS_INLINE static inline __attribute__((always_inline))

CS_INLINE int64_t arc_rcap(const cs_work *w, int W, int32_t i)
{
    return W ? w->arc24[i].rcap : w->arc16[i].rcap;
}

/* Scaled cost k * cost (of at most 2^61 in magnitude, checked by build_arcs). */
CS_INLINE int64_t arc_cost(const cs_work *w, int W, int32_t i)
{
    return W ? w->arc24[i].cost : (int64_t)w->arc16[i].cost * w->k;
}

CS_INLINE int32_t arc_head(const cs_work *w, int W, int32_t i)
{
    return W ? w->arc24[i].head : w->arc16[i].head;
}

CS_INLINE uint32_t arc_rev(const cs_work *w, int W, int32_t i)
{
    return W ? w->arc24[i].rev : w->arc16[i].rev;
}

/* Move delta units along residual arc i and its partner, keeping the flags.
 * In the compact layout delta <= rcap <= the arc's capacity, which fits. */
CS_INLINE void push_arc(cs_work *w, int W, int32_t i, int64_t delta)
{
    if (W) {
        cs_arc24 *x = &w->arc24[i], *y = &w->arc24[CS_IDX(x->rev)];
        x->rcap -= delta;
        y->rcap += delta;
        x->rev |= CS_OPEN;
        y->rev = x->rcap > 0 ? (y->rev | CS_OPEN) : (y->rev & ~CS_OPEN);
    } else {
        cs_arc16 *x = &w->arc16[i], *y = &w->arc16[CS_IDX(x->rev)];
        x->rcap -= (int32_t)delta;
        y->rcap += (int32_t)delta;
        x->rev |= CS_OPEN;
        y->rev = x->rcap > 0 ? (y->rev | CS_OPEN) : (y->rev & ~CS_OPEN);
    }
}

/* ---- small helpers ----------------------------------------------------- */

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    int64_t q = a / b;
    return (a % b < 0) ? q - 1 : q;
}

/* Zero-filled array of count elements, counted in w->bytes. Large arrays
 * are 2 MiB-aligned and, on Linux, their whole 2 MiB pages are marked for
 * transparent huge pages: first touching fresh 4 KiB pages costs more than
 * a whole phase on big networks (about 2.5 ms per MB measured on a VM), huge
 * pages cut that and the TLB misses of the random accesses. The partial last
 * page is left out of the advice: the kernel would back it with a whole huge
 * page, up to 2 MiB more than the array (8 B/arc at 256k arcs). */
static void *cs_alloc(cs_work *w, size_t count, size_t size)
{
    size_t bytes;
    if (count == 0)
        count = 1;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        pl_err(PL_ENOMEM, "cost-scaling: allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    void *ptr = NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (bytes >= 2 * huge) {
        if (posix_memalign(&ptr, huge, bytes) == 0) {
            madvise(ptr, bytes / huge * huge, MADV_HUGEPAGE); /* advice only: failure is harmless */
            memset(ptr, 0, bytes);
            w->bytes += (int64_t)bytes;
            return ptr;
        }
        ptr = NULL;
    }
#endif
    ptr = pl_alloc(count, size);
    if (ptr)
        w->bytes += (int64_t)bytes;
    return ptr;
}

static void work_free(cs_work *w)
{
    free(w->first);
    free(w->arc16);
    free(w->arc24);
    free(w->price);
    free(w->excess);
    free(w->cur);
    free(w->queue);
    free(w->queued);
    free(w->rank);
    free(w->bnext);
    free(w->bprev);
    free(w->bucket);
    free(w->ovf);
    free(w->in_ovf);
}

static void enqueue(cs_work *w, int32_t v)
{
    int32_t slot = w->qhead + w->qlen;
    if (slot >= w->n)
        slot -= w->n;
    w->queue[slot] = v;
    w->queued[v] = 1;
    w->qlen++;
}

static int32_t dequeue(cs_work *w)
{
    int32_t v = w->queue[w->qhead];
    if (++w->qhead == w->n)
        w->qhead = 0;
    w->qlen--;
    w->queued[v] = 0;
    return v;
}

static pl_status limit_reached(const cs_work *w)
{
    return pl_err(PL_ELIMIT, "cost-scaling: iteration limit %lld reached (pushes + relabels) at eps %lld",
                  (long long)w->limit, (long long)w->eps);
}

/* A price ran below CS_PRICE_MIN. In a feasible problem prices move by at
 * most about 3n eps per phase, so this is either a genuine overflow of the
 * scaled prices or supplies that cannot be routed: tell them apart. */
static pl_status price_overflow(cs_work *w)
{
    int feasible = 0;
    pl_status st = pl_feasible_flow(w->p, w->out->flow, &feasible);
    if (st != PL_OK)
        return st;
    if (!feasible)
        return pl_err(PL_EINFEASIBLE, "cost-scaling: no flow satisfies the supplies and arc bounds");
    return pl_err(PL_EOVERFLOW,
                  "cost-scaling: node prices scaled by n + 1 = %lld exceed the int64 range; "
                  "use the ssp or network-simplex solver for this network", (long long)w->k);
}

/* ---- setup ---------------------------------------------------------------- */

/* Whether the compact layout holds every residual arc: residual capacities
 * stay within 0..cap (cap_inf for infinite arcs, already in p->cap) and
 * costs, negated too, within int32. */
static int fits_compact(const pl_flow_problem *p)
{
    for (int32_t a = 0; a < p->m; a++)
        if (p->cap[a] > INT32_MAX || p->cost[a] > INT32_MAX || p->cost[a] < -INT32_MAX)
            return 0;
    return 1;
}

static pl_status work_init(cs_work *w, const pl_flow_problem *p, const pl_solve_opts *opts,
                           pl_flow_solution *out)
{
    size_t n = (size_t)p->n, na = 2 * (size_t)p->m;
    *w = (cs_work){.p = p, .out = out, .n = p->n, .k = (int64_t)p->n + 1, .wide = !fits_compact(p)};
    w->alpha = opts && opts->scaling_factor ? opts->scaling_factor : CS_DEFAULT_ALPHA;
    w->limit = opts ? opts->max_iterations : 0;
    w->opts = opts;
    w->nb = p->n + 1;
    w->first = cs_alloc(w, n + 1, sizeof *w->first);
    if (w->wide)
        w->arc24 = cs_alloc(w, na, sizeof *w->arc24);
    else
        w->arc16 = cs_alloc(w, na, sizeof *w->arc16);
    w->price = cs_alloc(w, n, sizeof *w->price);
    w->excess = cs_alloc(w, n, sizeof *w->excess);
    w->cur = cs_alloc(w, n, sizeof *w->cur);
    w->queue = cs_alloc(w, n, sizeof *w->queue);
    w->queued = cs_alloc(w, n, sizeof *w->queued);
    w->rank = cs_alloc(w, n, sizeof *w->rank);
    w->bnext = cs_alloc(w, n, sizeof *w->bnext);
    w->bprev = cs_alloc(w, n, sizeof *w->bprev);
    w->bucket = cs_alloc(w, (size_t)w->nb, sizeof *w->bucket);
    w->ovf = cs_alloc(w, n, sizeof *w->ovf);
    w->in_ovf = cs_alloc(w, n, sizeof *w->in_ovf);
    if (!w->first || !(w->arc16 || w->arc24) || !w->price || !w->excess || !w->cur || !w->queue ||
        !w->queued || !w->rank || !w->bnext || !w->bprev || !w->bucket || !w->ovf || !w->in_ovf)
        return PL_ENOMEM;
    w->update_every = (int64_t)p->n * CS_UPDATE_FACTOR + 1;
    return PL_OK;
}

/* Copy the residual graph into w->arc16 or w->arc24, grouped by tail: node
 * v's residual arcs are at first[v] .. first[v+1]-1 (first = p->out_first,
 * which counts both endpoints of every arc), arcs in increasing id, each
 * arc's forward residual arc under its tail and its backward one under its
 * head. Built in one sequential pass over the problem's arrays; p->out_arcs
 * is not used. Starts from the flow in out->flow and computes the excesses
 * and the largest |cost| of an arc that can carry flow. Loops get their
 * optimal flow at once (full if the cost is negative, empty if positive). */
CS_INLINE pl_status build_arcs(cs_work *w, int W, int64_t *max_cost)
{
    const pl_flow_problem *p = w->p;
    const int64_t *flow = w->out->flow;
    const int64_t lim = (int64_t)1 << 61;
    int32_t *fill = w->cur;
    int64_t cmax = 0;
    memcpy(w->first, p->out_first, ((size_t)p->n + 1) * sizeof *w->first);
    memcpy(fill, p->out_first, (size_t)p->n * sizeof *fill);
    for (int32_t v = 0; v < p->n; v++)
        w->excess[v] = p->supply[v];
    for (int32_t a = 0; a < p->m; a++) {
        int32_t t = p->tail[a], h = p->head[a];
        int64_t c = p->cost[a], cap = p->cap[a], f = flow[a], sc;
        if (t == h)
            f = c < 0 ? cap : c > 0 ? 0 : f;
        else if (cap > 0)
            cmax = (c < 0 ? -c : c) > cmax ? (c < 0 ? -c : c) : cmax;
        if (pl_mul_ovf(c, w->k, &sc) || sc > lim || sc < -lim)
            return pl_err(PL_EOVERFLOW, "cost-scaling: cost %lld of arc %d times n + 1 = %lld "
                          "exceeds 2^61", (long long)c, a, (long long)w->k);
        int32_t i = fill[t]++, j = fill[h]++;
        uint32_t ri = (uint32_t)j | (f > 0 ? CS_OPEN : 0), rj = (uint32_t)i | (cap - f > 0 ? CS_OPEN : 0);
        if (W) {
            w->arc24[i] = (cs_arc24){.rcap = cap - f, .cost = sc, .head = h, .rev = ri};
            w->arc24[j] = (cs_arc24){.rcap = f, .cost = -sc, .head = t, .rev = rj};
        } else { /* fits_compact() checked cap and c; 0 <= f <= cap */
            w->arc16[i] = (cs_arc16){.rcap = (int32_t)(cap - f), .cost = (int32_t)c, .head = h, .rev = ri};
            w->arc16[j] = (cs_arc16){.rcap = (int32_t)f, .cost = (int32_t)-c, .head = t, .rev = rj};
        }
        w->excess[t] -= f;
        w->excess[h] += f;
    }
    *max_cost = cmax;
    return PL_OK;
}

/* Write the flow back into out->flow, walking the arcs in the same order as
 * build_arcs to find each forward residual arc. */
CS_INLINE void store_flow(cs_work *w, int W)
{
    const pl_flow_problem *p = w->p;
    int32_t *fill = w->cur;
    memcpy(fill, w->first, (size_t)p->n * sizeof *fill);
    for (int32_t a = 0; a < p->m; a++) {
        int32_t i = fill[p->tail[a]]++;
        fill[p->head[a]]++;
        w->out->flow[a] = p->cap[a] - arc_rcap(w, W, i);
    }
}

/* ---- global price update ------------------------------------------------------ */

static void bucket_insert(cs_work *w, int32_t b, int32_t v)
{
    int32_t h = w->bucket[b];
    w->bnext[v] = h;
    w->bprev[v] = -1;
    if (h >= 0)
        w->bprev[h] = v;
    w->bucket[b] = v;
}

static void bucket_remove(cs_work *w, int32_t b, int32_t v)
{
    int32_t pv = w->bprev[v], nv = w->bnext[v];
    if (pv >= 0)
        w->bnext[pv] = nv;
    else
        w->bucket[b] = nv;
    if (nv >= 0)
        w->bprev[nv] = pv;
}

/* Move the bucket window [base, base + nb) up to the smallest rank held in
 * the overflow list and bucket the nodes it now covers; 0 if the list holds
 * no node still waiting (entries of nodes bucketed since are dropped). */
static int slide_window(cs_work *w, int64_t *base)
{
    int64_t end = *base + w->nb, lo = CS_INF;
    int32_t kept = 0;
    for (int32_t i = 0; i < w->novf; i++) {
        int32_t v = w->ovf[i];
        if (w->rank[v] < end) { /* reached the window later and was settled */
            w->in_ovf[v] = 0;
            continue;
        }
        w->ovf[kept++] = v;
        lo = w->rank[v] < lo ? w->rank[v] : lo;
    }
    w->novf = kept;
    if (kept == 0)
        return 0;
    *base = lo;
    end = lo + w->nb;
    kept = 0;
    for (int32_t i = 0; i < w->novf; i++) {
        int32_t v = w->ovf[i];
        if (w->rank[v] < end) {
            w->in_ovf[v] = 0;
            bucket_insert(w, (int32_t)(w->rank[v] - lo), v);
        } else {
            w->ovf[kept++] = v;
        }
    }
    w->novf = kept;
    return 1;
}

/* Global price update: rank[v] = fewest eps-steps by which v's price must
 * drop so that an admissible path leads from v to a deficit node, found by
 * Dial's algorithm backwards from the deficits over residual arcs (step
 * length floor(c_p / eps) + 1 >= 0 by eps-optimality). The search stops once
 * every excess node is settled at some rank R; every node then drops by
 * min(rank, R) * eps, which keeps eps-optimality. An excess node that is
 * never reached cannot send its excess anywhere: the problem is infeasible. */
CS_INLINE pl_status global_update_body(cs_work *w, int W)
{
    const int32_t n = w->n;
    const int64_t eps = w->eps;
    int64_t total = 0;
    for (int32_t b = 0; b < w->nb; b++)
        w->bucket[b] = -1;
    w->novf = 0;
    for (int32_t v = 0; v < n; v++) {
        w->rank[v] = CS_INF;
        if (w->excess[v] < 0) {
            w->rank[v] = 0;
            bucket_insert(w, 0, v);
        } else {
            total += w->excess[v];
        }
    }
    if (total == 0)
        return PL_OK;
    int64_t base = 0, R = 0;
    for (;;) {
        for (int32_t b = 0; b < w->nb; b++) {
            while (w->bucket[b] >= 0) {
                int32_t u = w->bucket[b];
                w->bucket[b] = w->bnext[u];
                if (w->bnext[u] >= 0)
                    w->bprev[w->bnext[u]] = -1;
                R = base + b;
                if (w->excess[u] > 0 && (total -= w->excess[u]) == 0)
                    goto settled;
                int64_t pu = w->price[u];
                for (int32_t i = w->first[u], e = w->first[u + 1]; i < e; i++) {
                    int32_t v = arc_head(w, W, i);
                    if (w->rank[v] <= R)
                        continue;
                    if (!(arc_rev(w, W, i) & CS_OPEN)) /* v -> u has no capacity */
                        continue;
                    int64_t cp = -arc_cost(w, W, i) + w->price[v] - pu; /* of v -> u */
                    int64_t step = cp >= 0 ? cp / eps + 1 : 0;
                    if (step >= w->rank[v] - R)
                        continue;
                    int64_t nr = R + step, old = w->rank[v];
                    if (old < base + w->nb)
                        bucket_remove(w, (int32_t)(old - base), v);
                    w->rank[v] = nr;
                    if (nr < base + w->nb) {
                        bucket_insert(w, (int32_t)(nr - base), v);
                    } else if (!w->in_ovf[v]) {
                        w->in_ovf[v] = 1;
                        w->ovf[w->novf++] = v;
                    }
                }
            }
        }
        if (!slide_window(w, &base)) {
            for (int32_t i = 0; i < w->novf; i++)
                w->in_ovf[w->ovf[i]] = 0;
            int32_t v = 0;
            while (v < n && !(w->excess[v] > 0 && w->rank[v] == CS_INF))
                v++;
            return pl_err(PL_EINFEASIBLE,
                          "cost-scaling: no flow satisfies the supplies and arc bounds "
                          "(%lld units at node %d cannot reach any demand)",
                          (long long)(v < n ? w->excess[v] : 0), v);
        }
    }
settled:
    for (int32_t i = 0; i < w->novf; i++)
        w->in_ovf[w->ovf[i]] = 0;
    for (int32_t v = 0; v < n; v++) {
        int64_t r = w->rank[v] < R ? w->rank[v] : R;
        if (r <= 0)
            continue;
        if (r > (w->price[v] - CS_PRICE_MIN) / eps)
            return price_overflow(w);
        w->price[v] -= r * eps;
        w->cur[v] = w->first[v];
    }
    return PL_OK;
}

/* Out of line, as the compiler chose before there were two layouts: it runs
 * once per ~n relabels, and inlining it into discharge() would crowd the
 * path search. */
static pl_status global_update_16(cs_work *w)
{
    return global_update_body(w, 0);
}

static pl_status global_update_24(cs_work *w)
{
    return global_update_body(w, 1);
}

CS_INLINE pl_status global_update(cs_work *w, int W)
{
    return W ? global_update_24(w) : global_update_16(w);
}

/* ---- price refinement ---------------------------------------------------------- */

/* Drops of the price refinement: d[v] = steps of eps2 by which v must drop
 * below its admissible predecessors, the longest path over the admissible
 * arcs (residual, reduced cost < 0) with gains -floor(c_p / eps2) - 1, found
 * by one depth-first search backwards along them: a node is finished once
 * all its admissible predecessors are, and its drop is then final, so the
 * search and the longest path share one scan of the arcs (an arc u -> v is
 * seen at v as the partner of v -> u, through the CS_OPEN flag). Returns 0
 * on an admissible cycle (no such drops exist); else 1 with the largest drop
 * in *top. Uses cur (arc pointers), queued (0 new, 1 on the path, 2
 * finished) and ovf (the path). */
CS_INLINE int pr_drops(cs_work *w, int W, int64_t eps2, int64_t *top)
{
    const int32_t n = w->n;
    int32_t *path = w->ovf;
    int64_t *d = w->rank, hi = 0;
    for (int32_t v = 0; v < n; v++) {
        w->cur[v] = w->first[v];
        w->queued[v] = 0;
        d[v] = 0;
    }
    for (int32_t s = 0; s < n; s++) {
        if (w->queued[s])
            continue;
        int32_t len = 0;
        path[len++] = s;
        w->queued[s] = 1;
        while (len > 0) {
            int32_t v = path[len - 1], e = w->first[v + 1], i = w->cur[v], next = -1;
            int64_t pv = w->price[v], dv = d[v];
            for (; i < e; i++) {
                if (!(arc_rev(w, W, i) & CS_OPEN))
                    continue;
                int32_t u = arc_head(w, W, i);
                int64_t cp = -arc_cost(w, W, i) + w->price[u] - pv; /* of u -> v */
                if (cp >= 0)
                    continue;
                if (w->queued[u] == 1)
                    return 0;
                if (w->queued[u] == 0) {
                    next = u; /* arc i is seen again once u is finished */
                    break;
                }
                int64_t nd = d[u] - floor_div(cp, eps2) - 1;
                dv = nd > dv ? nd : dv;
            }
            d[v] = dv;
            if (next >= 0) {
                w->cur[v] = i;
                w->queued[next] = 1;
                path[len++] = next;
            } else {
                w->queued[v] = 2;
                hi = dv > hi ? dv : hi;
                len--;
            }
        }
    }
    *top = hi;
    return 1;
}

/* Steps of eps2 by which head must drop below tail for residual arc i to
 * meet eps2-optimality: -floor(c_p / eps2) - 1 (> 0 only if c_p < -eps2). */
CS_INLINE int64_t pr_gain(const cs_work *w, int W, int32_t i, int64_t pu, int64_t eps2)
{
    return -floor_div(arc_cost(w, W, i) + pu - w->price[arc_head(w, W, i)], eps2) - 1;
}

/* Price refinement (the heuristic of LEMON's CostScaling, after Goldberg's
 * CS2): with a flow (no excess) that is eps-optimal, look for prices making
 * it eps2-optimal, so that the phase for eps2 can be skipped. Each round
 * computes how many steps of eps2 each node must drop (pr_drops(): a
 * longest path over the admissible arcs), then settles the nodes from the
 * largest drop down with buckets, so that a node also drops far enough for
 * its other residual arcs, and lowers the prices. A round whose drops are
 * all zero proves eps2-optimality. Gives up (returns 0; the prices stay
 * eps-optimal, as every round keeps them) on an admissible cycle, on a drop
 * beyond the bucket array, or after CS_REFINE_ROUNDS rounds. A label-
 * correcting search that ran before this one exhausted its budget in every
 * NETGEN phase measured; this takes O(m) a round and succeeds in the last
 * three or four. */
CS_INLINE int price_refine_rounds(cs_work *w, int W, int64_t eps2)
{
    const int32_t n = w->n, nb = w->nb;
    int64_t *d = w->rank;
    for (int round = 0; round < CS_REFINE_ROUNDS; round++) {
        int64_t top;
        if (!pr_drops(w, W, eps2, &top))
            return 0;
        if (top == 0)
            return 1;
        if (top >= nb)
            return 0;
        for (int32_t b = 0; b <= top; b++)
            w->bucket[b] = -1;
        for (int32_t v = 0; v < n; v++)
            if (d[v] > 0)
                bucket_insert(w, (int32_t)d[v], v);
        for (int32_t r = (int32_t)top; r > 0; r--) {
            while (w->bucket[r] >= 0) {
                int32_t u = w->bucket[r];
                w->bucket[r] = w->bnext[u];
                if (w->bnext[u] >= 0)
                    w->bprev[w->bnext[u]] = -1;
                int64_t pu = w->price[u];
                for (int32_t i = w->first[u], e = w->first[u + 1]; i < e; i++) {
                    int32_t v = arc_head(w, W, i);
                    if (d[v] >= r || arc_rcap(w, W, i) <= 0)
                        continue;
                    /* An arc gaining more than 0 would lift v above r,
                     * which is being settled: the next round sees it. */
                    int64_t g = pr_gain(w, W, i, pu, eps2);
                    int64_t nd = r + (g < 0 ? g : 0);
                    if (nd <= d[v])
                        continue;
                    if (d[v] > 0)
                        bucket_remove(w, (int32_t)d[v], v);
                    d[v] = nd;
                    bucket_insert(w, (int32_t)nd, v);
                }
            }
        }
        for (int32_t v = 0; v < n; v++)
            if (d[v] > (w->price[v] - CS_PRICE_MIN) / eps2)
                return 0; /* would leave the price range: let refine try instead */
        for (int32_t v = 0; v < n; v++)
            w->price[v] -= d[v] * eps2;
    }
    return 0;
}

/* price_refine_rounds() borrows queued[], which the phases need all zero. */
CS_INLINE int price_refine(cs_work *w, int W, int64_t eps2)
{
    int ok = price_refine_rounds(w, W, eps2);
    memset(w->queued, 0, (size_t)w->n);
    return ok;
}

/* ---- refine ------------------------------------------------------------------- */

/* Lower tip's price as far as eps-optimality allows: to the largest
 * p[head] - cost over its residual arcs (and the partner of the path arc
 * that led to it, which the pending push will open), minus eps. min_rc is
 * the least reduced cost among the arcs from cur[tip] on, already scanned. */
CS_INLINE pl_status relabel(cs_work *w, int W, int32_t tip, int32_t via, int64_t min_rc)
{
    int64_t pt = w->price[tip];
    if (via >= 0) {
        int32_t x = CS_IDX(arc_rev(w, W, via));
        int64_t rc = arc_cost(w, W, x) + pt - w->price[arc_head(w, W, x)];
        min_rc = rc < min_rc ? rc : min_rc;
    }
    for (int32_t i = w->first[tip], e = w->cur[tip]; i < e; i++) {
        if (arc_rcap(w, W, i) > 0) {
            int64_t rc = arc_cost(w, W, i) + pt - w->price[arc_head(w, W, i)];
            min_rc = rc < min_rc ? rc : min_rc;
        }
    }
    if (min_rc == CS_INF) /* only an excess node can get here (via < 0) */
        return pl_err(PL_EINFEASIBLE, "cost-scaling: no flow satisfies the supplies and arc bounds "
                      "(node %d holds %lld units and no arc leaves it)", tip,
                      (long long)w->excess[tip]);
    /* pt - min_rc = p[head] - cost of some arc, within [-2^62 - 2^61, 2^61]. */
    int64_t np = (pt - min_rc) - w->eps;
    if (np < CS_PRICE_MIN)
        return price_overflow(w);
    w->price[tip] = np;
    w->cur[tip] = w->first[tip];
    w->relabels++;
    w->iters++;
    return PL_OK;
}

/* Remove u's excess by partial augmentations. */
CS_INLINE pl_status discharge(cs_work *w, int W, int32_t u)
{
    int32_t path[64];
    pl_status st;
    while (w->excess[u] > 0) {
        int32_t tip = u, len = 0;
        while (len < CS_PATH_MAX && (tip == u || w->excess[tip] >= 0)) {
            int64_t pt = w->price[tip], min_rc = CS_INF;
            int32_t i = w->cur[tip], e = w->first[tip + 1];
            for (; i < e; i++) {
                if (arc_rcap(w, W, i) > 0) {
                    int64_t rc = arc_cost(w, W, i) + pt - w->price[arc_head(w, W, i)];
                    if (rc < 0)
                        break;
                    min_rc = rc < min_rc ? rc : min_rc;
                }
            }
            if (i < e) {
                w->cur[tip] = i;
                path[len++] = i;
                tip = arc_head(w, W, i);
                continue;
            }
            if (w->limit > 0 && w->iters >= w->limit)
                return limit_reached(w);
            if ((st = relabel(w, W, tip, len > 0 ? path[len - 1] : -1, min_rc)) != PL_OK)
                return st;
            if (w->relabels >= w->next_update) {
                /* Also the way out when the excess is stuck (infeasible):
                 * the update proves it cannot reach a deficit. */
                if ((st = global_update(w, W)) != PL_OK)
                    return st;
                w->next_update = w->relabels + w->update_every;
                len = 0;
                tip = u;
                continue;
            }
            if (len > 0) { /* step back to the tail of the last arc */
                len--;
                tip = arc_head(w, W, CS_IDX(arc_rev(w, W, path[len])));
            }
        }
        if (w->limit > 0 && w->iters + len > w->limit)
            return limit_reached(w);
        int32_t x = u;
        for (int32_t j = 0; j < len; j++) {
            int32_t y = arc_head(w, W, path[j]);
            int64_t rcap = arc_rcap(w, W, path[j]);
            int64_t delta = rcap < w->excess[x] ? rcap : w->excess[x];
            if (delta > 0) {
                push_arc(w, W, path[j], delta);
                w->excess[x] -= delta;
                w->excess[y] += delta;
                if (w->excess[y] > 0 && y != u && !w->queued[y])
                    enqueue(w, y);
            }
            x = y;
        }
        w->iters += len;
    }
    return PL_OK;
}

/* One phase: make the pseudo-flow 0-optimal by saturating every residual
 * arc of negative reduced cost, then push the excesses away keeping
 * eps-optimality. Leaves a flow (no excess) that is eps-optimal. */
CS_INLINE pl_status refine(cs_work *w, int W, int64_t eps)
{
    const int32_t n = w->n;
    w->eps = eps;
    for (int32_t u = 0; u < n; u++) {
        int64_t pu = w->price[u];
        for (int32_t i = w->first[u], e = w->first[u + 1]; i < e; i++) {
            int64_t delta = arc_rcap(w, W, i);
            int32_t v = arc_head(w, W, i);
            if (delta > 0 && arc_cost(w, W, i) + pu - w->price[v] < 0) {
                push_arc(w, W, i, delta);
                w->excess[u] -= delta;
                w->excess[v] += delta;
            }
        }
    }
    w->qhead = w->qlen = 0;
    for (int32_t v = 0; v < n; v++) {
        w->cur[v] = w->first[v];
        if (w->excess[v] > 0)
            enqueue(w, v);
    }
    if (w->qlen == 0)
        return PL_OK;
    if (pl_solve_cancelled(w->opts)) /* before an O(m) search */
        return pl_err(PL_ELIMIT, "cost-scaling: cancelled at eps %lld", (long long)eps);
    pl_status st = global_update(w, W);
    w->next_update = w->relabels + w->update_every;
    while (st == PL_OK && w->qlen > 0) {
        if (pl_solve_cancelled(w->opts)) /* one relaxed load per discharge */
            return pl_err(PL_ELIMIT, "cost-scaling: cancelled at eps %lld", (long long)w->eps);
        int32_t u = dequeue(w);
        st = discharge(w, W, u);
    }
    return st;
}

/* ---- potentials ------------------------------------------------------------------ */

/* Scaled prices from the previous potentials, shifted so the largest is 0;
 * 0 if they do not fit the price range (the caller then starts from zero). */
static int warm_prices(cs_work *w)
{
    const int64_t *pot = w->out->potential;
    if (w->n == 0)
        return 1;
    int64_t hi = pot[0], lo = pot[0];
    for (int32_t v = 1; v < w->n; v++) {
        hi = pot[v] > hi ? pot[v] : hi;
        lo = pot[v] < lo ? pot[v] : lo;
    }
    int64_t span, scaled;
    if (pl_sub_ovf(hi, lo, &span) || pl_mul_ovf(span, w->k, &scaled) || scaled > -CS_PRICE_MIN)
        return 0;
    for (int32_t v = 0; v < w->n; v++)
        w->price[v] = (pot[v] - hi) * w->k;
    return 1;
}

/* Largest violation -c_p(r) of 0-optimality over the residual arcs (>= 0). */
CS_INLINE int64_t violation(const cs_work *w, int W)
{
    int64_t worst = 0;
    for (int32_t u = 0; u < w->n; u++) {
        int64_t pu = w->price[u];
        for (int32_t i = w->first[u], e = w->first[u + 1]; i < e; i++) {
            if (arc_rcap(w, W, i) > 0) {
                int64_t rc = arc_cost(w, W, i) + pu - w->price[arc_head(w, W, i)];
                worst = -rc > worst ? -rc : worst;
            }
        }
    }
    return worst;
}

/* Exact potentials of the original costs from the 1-optimal scaled prices
 * (see the file comment): pi = floor((p + s) / k) for a residue s that no
 * head of a residual arc of scaled reduced cost -1 excludes. */
CS_INLINE pl_status exact_potentials(cs_work *w, int W)
{
    const int32_t n = w->n;
    const int64_t k = w->k;
    uint8_t *bad = pl_alloc((size_t)k, 1);
    if (!bad)
        return PL_ENOMEM;
    for (int32_t u = 0; u < n; u++) {
        int64_t pu = w->price[u];
        for (int32_t i = w->first[u], e = w->first[u + 1]; i < e; i++) {
            if (arc_rcap(w, W, i) <= 0)
                continue;
            int32_t v = arc_head(w, W, i);
            int64_t rc = arc_cost(w, W, i) + pu - w->price[v];
            if (rc < -1) {
                free(bad);
                return pl_err(PL_EINTERNAL, "cost-scaling: final flow not 1-optimal (arc reduced cost %lld)",
                              (long long)rc);
            }
            if (rc == -1) {
                int64_t res = (-w->price[v]) % k; /* price <= 0 */
                bad[res] = 1;
            }
        }
    }
    int64_t s = 0;
    while (bad[s])
        s++;
    free(bad);
    int64_t lo = CS_INF;
    for (int32_t v = 0; v < n; v++) {
        int64_t pi = floor_div(w->price[v] + s, k);
        w->out->potential[v] = pi;
        lo = pi < lo ? pi : lo;
    }
    for (int32_t v = 0; v < n; v++)
        w->out->potential[v] -= lo;
    return PL_OK;
}

/* ---- driver ------------------------------------------------------------------------ */

CS_INLINE pl_status run_layout(cs_work *w, int W)
{
    const pl_flow_problem *p = w->p;
    int64_t cmax = 0, eps;
    pl_status st = build_arcs(w, W, &cmax);
    if (st != PL_OK)
        return st;
    if (pl_solve_cancelled(w->opts))
        return pl_err(PL_ELIMIT, "cost-scaling: cancelled");
    if (p->warm && warm_prices(w)) {
        eps = violation(w, W);
    } else {
        memset(w->price, 0, (size_t)w->n * sizeof *w->price);
        eps = cmax * w->k;
    }
    int excess = 0;
    for (int32_t v = 0; v < w->n && !excess; v++)
        excess = w->excess[v] != 0;
    /* A warm start with excesses to move (supplies or structure changed)
     * starts no lower than the cold schedule's third phase: at a small eps
     * every relabel moves a price by little, and excesses that must travel
     * far take many relabels. Measured on a 100k-arc scheduling graph with
     * 1% task churn per round (bench-incremental): warm/cold time 1.46
     * starting at the largest violation, 0.66 / 0.50 / 0.65 / 0.98 with the
     * floor at the 2nd / 3rd / 4th / 5th phase. */
    if (p->warm && excess) {
        int64_t floor_eps = cmax * w->k;
        for (int j = 0; j < CS_WARM_FLOOR_PHASE && floor_eps > 1; j++)
            floor_eps /= w->alpha;
        eps = eps > floor_eps ? eps : floor_eps;
    }
    /* Phases eps/alpha, eps/alpha^2, ..., 1; none when the start is already
     * a 1-optimal flow. */
    while (eps > 1 || excess) {
        if (pl_solve_cancelled(w->opts))
            return pl_err(PL_ELIMIT, "cost-scaling: cancelled at eps %lld", (long long)eps);
        eps = eps > w->alpha ? eps / w->alpha : 1;
        if (!excess && price_refine(w, W, eps))
            continue;
        if ((st = refine(w, W, eps)) != PL_OK)
            return st;
        excess = 0;
    }
    if ((st = exact_potentials(w, W)) != PL_OK)
        return st;
    store_flow(w, W);
    return PL_OK;
}

static pl_status run_compact(cs_work *w)
{
    return run_layout(w, 0);
}

static pl_status run_wide(cs_work *w)
{
    return run_layout(w, 1);
}

static pl_status solve(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    if (opts && opts->scaling_factor != 0 && opts->scaling_factor < 2)
        return pl_err(PL_EINVAL, "cost-scaling: scaling_factor %d must be at least 2 (0 = default %d)",
                      opts->scaling_factor, CS_DEFAULT_ALPHA);
    out->iterations = 0;
    if (p->n == 0)
        return PL_OK;
    cs_work w;
    pl_status st = work_init(&w, p, opts, out);
    if (st == PL_OK)
        st = w.wide ? run_wide(&w) : run_compact(&w);
    out->iterations = w.iters;
    out->memory_bytes = w.bytes;
    work_free(&w);
    return st;
}

const pl_solver_ops pl_solver_cost_scaling = {
    .name = "cost-scaling",
    .description = "cost scaling push/relabel (Goldberg-Tarjan, as CS2/LEMON) with global updates "
                   "and price refinement",
    .solve = solve,
    .flags = PL_SOLVER_WARM_START,
};
