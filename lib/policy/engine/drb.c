/* Dual Recursive Bipartitioning (seed 002, Algorithm 2) with the
 * utility-based job-graph bipartition (Algorithm 3).
 *
 * Physical split: pl_topology_bipartition() (whole machines, then whole
 * sockets, ...), then one or more Fiduccia-Mattheyses passes that move GPUs
 * between the two sides to lower the cut weight, where a GPU pair weighs
 * D / d (D the largest pair distance in the set, d the pair's distance: close
 * pairs are expensive to cut). The side sizes of the structural split are the
 * balance: a pass may leave them by one GPU, but only a prefix of moves that
 * restores them is kept. Sets above FM_MAX_GPUS keep the structural split.
 *
 * Job split: the tasks are taken in order; each goes to the side with the
 * higher utility, side 0 on a tie (the pseudocode's U(P0) >= U(P1) -> A0, not
 * the prose), among the sides whose constraints hold: room (a side gets at
 * most as many tasks as it has GPUs), anti-collocation (no partner already
 * on a side that lies within the same machine), the task's node constraints
 * and job-to-job anti-affinity (some machine of the side admits it) and the
 * resources of the tasks sent to that side so far (tentatively on its first
 * GPUs). Collocation is left to the candidate's check (pl_pctx_evaluate).
 *
 * Algorithm 3 returns communication costs while Algorithm 2 expects
 * (A0, C0, A1, C1): here C is one table, each task's current domain
 * (represented by the domain's first GPU; -1 while undecided), updated as
 * tasks are assigned and shared by both recursive calls, so a task's cost on
 * a side counts its traffic to tasks already assigned anywhere, in this
 * split or an earlier one, times the distance between the domains.
 *
 * The side utility is the paper form of pl_utility() over the two sides (each
 * term normalised by the worse side), whatever the job's utility form: it
 * only compares two sides. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"

#define FM_MAX_GPUS 64
#define FM_MAX_PASSES 8

typedef struct drb {
    pl_pctx *c;
    const pl_job *job;
    int32_t k;
    double *traffic;    /* k x k */
    int32_t *dom;       /* per task: representative GPU of its domain, -1 undecided */
    int32_t *gpus;      /* the result */
    pl_utility_opts uo;
} drb;

/* ---- physical bipartition ----------------------------------------------------------- */

static pl_status pair_dist(pl_pctx *c, const int32_t *P, int32_t n, int64_t *d)
{
    int32_t m0 = c->gpu_mach[P[0]];
    int same = 1;
    for (int32_t i = 1; i < n; i++)
        same &= c->gpu_mach[P[i]] == m0;
    if (!same)
        return pl_topology_distance_matrix(c->work, P, n, d);
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++) {
            pl_status st = pl_pctx_dist(c, P[i], P[j], &d[(size_t)i * (size_t)n + (size_t)j]);
            if (st)
                return st;
        }
    return PL_OK;
}

static int64_t cut_of(const int64_t *w, int32_t n, const uint8_t *side)
{
    int64_t cut = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++)
            if (side[i] != side[j])
                cut += w[(size_t)i * (size_t)n + (size_t)j];
    return cut;
}

/* One FM pass; returns 1 if it lowered the cut. */
static int fm_pass(const int64_t *w, int32_t n, uint8_t *side, int32_t size0, int64_t *cut,
                   uint8_t *locked, int64_t *gain, int32_t *moves)
{
    memset(locked, 0, (size_t)n);
    for (int32_t v = 0; v < n; v++) {
        gain[v] = 0;
        for (int32_t u = 0; u < n; u++)
            if (u != v)
                gain[v] += (side[u] != side[v] ? 1 : -1) * w[(size_t)v * (size_t)n + (size_t)u];
    }
    int32_t s0 = size0, best_prefix = 0, nmoves = 0;
    int64_t cur = *cut, best = *cut;
    for (int32_t step = 0; step < n; step++) {
        int32_t pick = -1;
        for (int32_t v = 0; v < n; v++) {
            if (locked[v])
                continue;
            int32_t ns0 = s0 + (side[v] ? 1 : -1);
            if (ns0 < size0 - 1 || ns0 > size0 + 1 || ns0 < 1 || ns0 > n - 1)
                continue;
            if (pick < 0 || gain[v] > gain[pick])
                pick = v;
        }
        if (pick < 0)
            break;
        cur -= gain[pick];
        s0 += side[pick] ? 1 : -1;
        side[pick] ^= 1;
        locked[pick] = 1;
        moves[nmoves++] = pick;
        for (int32_t u = 0; u < n; u++) {
            if (u == pick)
                continue;
            int64_t wu = w[(size_t)u * (size_t)n + (size_t)pick];
            /* pick joined u's side: cutting it no longer pays for u, or now does. */
            gain[u] += side[u] == side[pick] ? -2 * wu : 2 * wu;
        }
        if (s0 == size0 && cur < best) {
            best = cur;
            best_prefix = nmoves;
        }
    }
    for (int32_t i = nmoves - 1; i >= best_prefix; i--)
        side[moves[i]] ^= 1;
    int improved = best < *cut;
    *cut = best;
    return improved;
}

pl_status pl_drb_refine(pl_pctx *c, const int32_t *P, int32_t n, uint8_t *side,
                        int64_t *cut_before, int64_t *cut_after)
{
    *cut_before = *cut_after = 0;
    if (n < 3 || n > FM_MAX_GPUS)
        return PL_OK;
    size_t nn = (size_t)n * (size_t)n;
    pl_arena_mark mark = pl_arena_save(&c->scratch);
    int64_t *d = pl_arena_get(&c->scratch, nn, sizeof *d), *w = pl_arena_get(&c->scratch, nn, sizeof *w);
    int64_t *gain = pl_arena_get(&c->scratch, (size_t)n, sizeof *gain);
    uint8_t *locked = pl_arena_get(&c->scratch, (size_t)n, 1);
    int32_t *moves = pl_arena_get(&c->scratch, (size_t)n, sizeof *moves);
    pl_status st = PL_OK;
    if (!d || !w || !gain || !locked || !moves)
        st = PL_ENOMEM;
    if (!st)
        st = pair_dist(c, P, n, d);
    if (!st) {
        int64_t dmax = 1;
        for (size_t i = 0; i < nn; i++)
            if (d[i] > dmax)
                dmax = d[i];
        for (size_t i = 0; i < nn; i++)
            w[i] = d[i] <= 0 ? dmax : (dmax / d[i] > 0 ? dmax / d[i] : 1);
        int32_t size0 = 0;
        for (int32_t i = 0; i < n; i++)
            size0 += side[i] == 0;
        int64_t cut = cut_of(w, n, side);
        *cut_before = cut;
        for (int pass = 0; pass < FM_MAX_PASSES; pass++)
            if (!fm_pass(w, n, side, size0, &cut, locked, gain, moves))
                break;
        *cut_after = cut;
    }
    pl_arena_release(&c->scratch, mark);
    return st;
}

/* ---- job bipartition ----------------------------------------------------------------- */

typedef struct side_state {
    const int32_t *P;
    int32_t n;
    int32_t *tasks;     /* assigned so far */
    int32_t count;
    int32_t machine;    /* the machine holding all of P, or -1 */
} side_state;

static int32_t machine_of_set(const pl_pctx *c, const int32_t *P, int32_t n)
{
    int32_t m = c->gpu_mach[P[0]];
    for (int32_t i = 1; i < n; i++)
        if (c->gpu_mach[P[i]] != m)
            return -1;
    return m;
}

static int anti_ok(const drb *d, int32_t t, const side_state *s)
{
    if (s->machine < 0)
        return 1;
    for (int32_t j = 0; j < d->k; j++)
        if (j != t && d->dom[j] >= 0 && d->c->gpu_mach[d->dom[j]] == s->machine &&
            pl_job_anti_collocated(d->job, t, j))
            return 0;
    return 1;
}

/* A placement constraint (placement/job.h) lets t onto some GPU of the side:
 * a machine that passes its node constraints and node filter and holds no
 * job it must avoid. Sides keep machines whole near the top of the
 * recursion, so this steers tasks to their machines before the split
 * reaches single machines, where it becomes exact. */
static int placement_ok(const drb *d, int32_t t, const side_state *s)
{
    if (!pl_job_has_constraints(d->job))
        return 1;
    int32_t last = -1;
    for (int32_t i = 0; i < s->n; i++) {
        int32_t m = d->c->gpu_mach[s->P[i]];
        if (m == last)
            continue;
        last = m;
        if (pl_pctx_task_admits(d->c, d->job, t, m) && !pl_pctx_machine_avoided(d->c, d->job, m))
            return 1;
    }
    return 0;
}

/* The tasks of the side plus t, on the side's first GPUs, fit the free resources. */
static pl_status resources_ok(const drb *d, int32_t t, side_state *s, int *ok)
{
    /* t goes after the side's tasks for the plan only (tasks[] has room
     * for every task of the split, so for this one too). */
    s->tasks[s->count] = t;
    int32_t ni = 0;
    pl_pctx *c = d->c;
    pl_status st = pl_plan_build_tasks(c->work, d->job, s->tasks, s->P, s->count + 1, &c->plan,
                                       &c->capplan, &ni);
    *ok = !st && pl_plan_fits(c->work, c->plan, ni, 0);
    return st;
}

static pl_status side_terms(drb *d, int32_t t, const side_state *s, const int32_t *dom, int32_t ndom,
                            double *comm, double *inter, double *frag)
{
    *comm = 0;
    int32_t rep = s->P[0];
    for (int32_t j = 0; j < d->k; j++) {
        double tr = d->traffic[(size_t)t * (size_t)d->k + (size_t)j];
        if (j == t || tr <= 0 || d->dom[j] < 0)
            continue;
        int64_t dist;
        pl_status st = pl_pctx_dist(d->c, rep, d->dom[j], &dist);
        if (st)
            return st;
        *comm += tr * (double)dist;
    }
    double worst, maxs;
    pl_status st = pl_pctx_interference(d->c, d->job, d->k, s->P, s->n, PL_UTILITY_PAPER, inter,
                                        &worst, &maxs);
    if (st)
        return st;
    return pl_pctx_fragmentation(d->c, dom, ndom, s->P, s->count + 1, frag);
}

/* part / whole in millionths, within [0, 10^6]. Traffic near DBL_MAX sums to
 * infinity on both sides (inf / inf is NaN, and llround(NaN) INT64_MIN,
 * which failed the whole call): an infinite side is the worse side. */
static int64_t share_millionths(double part, double whole)
{
    double r = isinf(whole) ? (isinf(part) ? 1.0 : 0.0) : part / whole;
    if (!(r >= 0))
        r = 0;
    return (int64_t)llround(fmin(r, 1.0) * 1e6);
}

static pl_status side_utility(drb *d, double comm, double comm_w, double inter, double inter_w,
                              double frag, double frag_w, double *u)
{
    pl_utility_terms terms = {0};
    terms.gpus = d->k;
    /* pl_utility wants integers: the share of the worse side, in millionths. */
    terms.comm = comm_w > 0 ? share_millionths(comm, comm_w) : 0;
    terms.comm_norm = comm_w > 0 ? 1000000 : 0;
    terms.interference = inter;
    terms.interference_worst = inter_w;
    terms.fragmentation = frag;
    terms.fragmentation_worst = frag_w;
    return pl_utility(&d->uo, &terms, u);
}

static pl_status job_split(drb *d, const int32_t *A, int32_t na, const int32_t *P, int32_t np,
                           side_state *s, int *ok)
{
    *ok = 1;
    for (int32_t i = 0; i < na; i++)
        d->dom[A[i]] = -1;
    for (int32_t i = 0; i < na; i++) {
        int32_t t = A[i];
        int feas[2];
        for (int y = 0; y < 2; y++) {
            feas[y] = s[y].count < s[y].n && anti_ok(d, t, &s[y]) && placement_ok(d, t, &s[y]);
            if (feas[y]) {
                pl_status st = resources_ok(d, t, &s[y], &feas[y]);
                if (st)
                    return st;
            }
        }
        int y;
        if (!feas[0] && !feas[1]) {
            *ok = 0;
            return PL_OK;
        } else if (!feas[1]) {
            y = 0;
        } else if (!feas[0]) {
            y = 1;
        } else {
            double cm[2], in[2], fr[2], u[2];
            for (int z = 0; z < 2; z++) {
                pl_status st = side_terms(d, t, &s[z], P, np, &cm[z], &in[z], &fr[z]);
                if (st)
                    return st;
            }
            for (int z = 0; z < 2; z++) {
                pl_status st = side_utility(d, cm[z], fmax(cm[0], cm[1]), in[z], fmax(in[0], in[1]),
                                            fr[z], fmax(fr[0], fr[1]), &u[z]);
                if (st)
                    return st;
            }
            y = u[0] >= u[1] ? 0 : 1;
        }
        s[y].tasks[s[y].count++] = t;
        d->dom[t] = s[y].P[0];
    }
    return PL_OK;
}

static pl_status drb_rec(drb *d, const int32_t *A, int32_t na, const int32_t *P, int32_t np, int *ok)
{
    *ok = 1;
    if (na == 0)
        return PL_OK;
    if (na > np) {
        *ok = 0;
        return PL_OK;
    }
    if (np == 1) {
        d->gpus[A[0]] = P[0];
        d->dom[A[0]] = P[0];
        return PL_OK;
    }
    pl_arena *ar = &d->c->scratch;
    pl_arena_mark mark = pl_arena_save(ar);
    uint8_t *side = pl_arena_get(ar, (size_t)np, 1);
    int32_t *buf = pl_arena_get(ar, (size_t)np * 2 + (size_t)na * 2, sizeof *buf);
    pl_status st = !side || !buf ? PL_ENOMEM : PL_OK;
    int64_t before, after;
    if (!st)
        st = pl_topology_bipartition(d->c->work, P, np, side);
    if (!st)
        st = pl_drb_refine(d->c, P, np, side, &before, &after);
    side_state s[2] = {{0}};
    if (!st) {
        int32_t *p0 = buf, *p1 = buf + np, n0 = 0, n1 = 0;
        for (int32_t i = 0; i < np; i++) {
            if (side[i] == 0)
                p0[n0++] = P[i];
            else
                p1[n1++] = P[i];
        }
        s[0] = (side_state){p0, n0, buf + 2 * np, 0, machine_of_set(d->c, p0, n0)};
        s[1] = (side_state){p1, n1, buf + 2 * np + na, 0, n1 ? machine_of_set(d->c, p1, n1) : -1};
        if (n0 == 0 || n1 == 0) {
            /* No split possible (should not happen for np >= 2): halve. */
            *ok = 0;
        } else {
            st = job_split(d, A, na, P, np, s, ok);
        }
    }
    if (!st && *ok)
        st = drb_rec(d, s[0].tasks, s[0].count, s[0].P, s[0].n, ok);
    if (!st && *ok)
        st = drb_rec(d, s[1].tasks, s[1].count, s[1].P, s[1].n, ok);
    pl_arena_release(ar, mark);
    return st;
}

/* ---- assignment refinement ------------------------------------------------------- */

static int same_demand(const pl_job *job, int32_t a, int32_t b)
{
    pl_task_demand x, y;
    return pl_job_task(job, a, &x) == PL_OK && pl_job_task(job, b, &y) == PL_OK &&
           !memcmp(&x, &y, sizeof x);
}

/* Traffic-weighted distance between task a (placed on GPU ga) and all other
 * tasks, with b's GPU taken as gb where b is the task swapped with a. */
static pl_status task_cost(drb *d, int32_t a, int32_t ga, int32_t b, int32_t gb, double *cost)
{
    *cost = 0;
    for (int32_t t = 0; t < d->k; t++) {
        double w = d->traffic[(size_t)a * (size_t)d->k + (size_t)t];
        if (t == a || w == 0)
            continue;
        int64_t dist;
        pl_status st = pl_pctx_dist(d->c, ga, t == b ? gb : d->gpus[t], &dist);
        if (st)
            return st;
        *cost += w * (double)dist;
    }
    return PL_OK;
}

/* DRB fixes each task's side greedily, task by task, so with uneven traffic
 * a heavy pair can end up farther apart than needed (measured by
 * bench-scotch: 2% worse than Scotch's assignment onto the same GPUs). Swap
 * two tasks' GPUs while that lowers sum traffic x distance. Only placements
 * on one machine, and only tasks with equal demands, so resources, node
 * filters and anti-collocation stay as DRB checked them. */
static pl_status swap_refine(drb *d)
{
    const int32_t k = d->k;
    /* Single-machine placements only: across machines every cost term would
     * be a Dijkstra search over the cluster (pl_pctx_dist). */
    for (int32_t t = 1; t < k; t++)
        if (d->c->gpu_mach[d->gpus[t]] != d->c->gpu_mach[d->gpus[0]])
            return PL_OK;
    for (int improved = 1, rounds = 0; improved && rounds < 2 * k; rounds++) {
        improved = 0;
        for (int32_t a = 0; a < k; a++)
            for (int32_t b = a + 1; b < k; b++) {
                int32_t ga = d->gpus[a], gb = d->gpus[b];
                if (!same_demand(d->job, a, b))
                    continue;
                double before_a, before_b, after_a, after_b;
                pl_status st;
                if ((st = task_cost(d, a, ga, b, gb, &before_a)) || (st = task_cost(d, b, gb, a, ga, &before_b)) ||
                    (st = task_cost(d, a, gb, b, ga, &after_a)) || (st = task_cost(d, b, ga, a, gb, &after_b)))
                    return st;
                /* The a-b edge is counted twice on both sides: the comparison holds. */
                if (after_a + after_b < before_a + before_b - 1e-9) {
                    d->gpus[a] = gb;
                    d->gpus[b] = ga;
                    improved = 1;
                }
            }
    }
    return PL_OK;
}

pl_status pl_drb_map(pl_pctx *c, const pl_job *job, int32_t k, const int32_t *P, int32_t n,
                     int32_t *gpus, int *ok)
{
    *ok = 0;
    drb d = {0};
    d.c = c;
    d.job = job;
    d.k = k;
    d.gpus = gpus;
    d.uo = c->req->opts->utility;
    d.uo.form = PL_UTILITY_PAPER;
    pl_arena_mark mark = pl_arena_save(&c->scratch);
    int32_t *A = pl_arena_get(&c->scratch, (size_t)k, sizeof *A);
    d.traffic = pl_arena_get(&c->scratch, (size_t)k * (size_t)k, sizeof *d.traffic);
    d.dom = pl_arena_get(&c->scratch, (size_t)k, sizeof *d.dom);
    pl_status st = !A || !d.traffic || !d.dom ? PL_ENOMEM : PL_OK;
    for (int32_t i = 0; i < pl_job_edge_count(job) && !st; i++) {
        pl_job_edge_info e;
        if (!(st = pl_job_edge(job, i, &e))) {
            d.traffic[(size_t)e.a * (size_t)k + (size_t)e.b] += e.traffic;
            d.traffic[(size_t)e.b * (size_t)k + (size_t)e.a] += e.traffic;
        }
    }
    for (int32_t i = 0; i < k && !st; i++) {
        A[i] = i;
        d.dom[i] = -1;
        gpus[i] = -1;
    }
    if (!st)
        st = drb_rec(&d, A, k, P, n, ok);
    if (!st && *ok)
        st = swap_refine(&d);
    pl_arena_release(&c->scratch, mark);
    return st;
}
