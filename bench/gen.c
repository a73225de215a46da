/* Instance generators for the min-cost-flow benchmarks (see gen.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

/* ---- random numbers ---------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void bench_rng_seed(bench_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t bench_rng_next(bench_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int64_t bench_rng_range(bench_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    if (span == 0) /* the whole int64_t range */
        return (int64_t)bench_rng_next(r);
    /* Multiply-shift (Lemire) without the rejection step: the bias is below
     * span / 2^64, irrelevant here, and the sequence stays simple. */
    unsigned __int128 x = (unsigned __int128)bench_rng_next(r) * span;
    return lo + (int64_t)(uint64_t)(x >> 64);
}

static int rng_pct(bench_rng *r, int pct)
{
    return bench_rng_range(r, 0, 99) < pct;
}

/* ---- helpers --------------------------------------------------------------- */

#define TRY(expr)                      \
    do {                               \
        pl_status st_ = (expr);        \
        if (st_ != PL_OK) {            \
            pl_flownet_free(net);      \
            free(scratch);             \
            return st_;                \
        }                              \
    } while (0)

static void shuffle32(bench_rng *r, int32_t *a, int32_t n)
{
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)bench_rng_range(r, 0, i), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Split `total` into `k` parts, each >= `min_part` (total >= k * min_part),
 * at random cut points. parts[] gets the result. */
static int split_total(bench_rng *r, int64_t total, int32_t k, int64_t min_part, int64_t *parts)
{
    if (k <= 0)
        return 0;
    int64_t free_units = total - (int64_t)k * min_part;
    int64_t *cuts = malloc(sizeof *cuts * (size_t)(k + 1));
    if (!cuts)
        return -1;
    cuts[0] = 0;
    for (int32_t i = 1; i < k; i++)
        cuts[i] = bench_rng_range(r, 0, free_units);
    cuts[k] = free_units;
    qsort(cuts + 1, (size_t)(k - 1), sizeof *cuts, cmp_i64);
    for (int32_t i = 0; i < k; i++)
        parts[i] = min_part + cuts[i + 1] - cuts[i];
    free(cuts);
    return 0;
}

static pl_status add_supply(pl_flownet *net, int32_t v, int64_t delta)
{
    int64_t b;
    pl_status st = pl_flownet_get_supply(net, v, &b);
    return st ? st : pl_flownet_set_supply(net, v, b + delta);
}

/* ---- NETGEN-style ------------------------------------------------------------ */

void bench_netgen_defaults(bench_netgen_params *p)
{
    *p = (bench_netgen_params){.nodes = 1000, .arcs = 8000, .min_cost = 1, .max_cost = 10000,
                               .min_cap = 1, .max_cap = 1000, .hicost_pct = 30, .inf_pct = 10,
                               .seed = 1};
}

pl_status bench_gen_netgen(const bench_netgen_params *pp, pl_flownet **out)
{
    bench_netgen_params p = *pp;
    pl_flownet *net = NULL;
    int32_t *chain = NULL;
    int64_t *parts = NULL;
    pl_status st = PL_ENOMEM;
    *out = NULL;
    if (p.nodes < 2)
        return pl_solver_error(PL_EINVAL, "netgen: need at least 2 nodes");
    int32_t root = (int32_t)lround(sqrt((double)p.nodes));
    if (p.sources <= 0)
        p.sources = root > 0 ? root : 1;
    if (p.sinks <= 0)
        p.sinks = root > 0 ? root : 1;
    if (p.sources + p.sinks > p.nodes)
        return pl_solver_error(PL_EINVAL, "netgen: sources + sinks exceed nodes");
    if (p.total_supply <= 0)
        p.total_supply = 1000 * (int64_t)p.sources;
    if (p.total_supply < p.sources)
        p.total_supply = p.sources;
    bench_rng r;
    bench_rng_seed(&r, p.seed);
    int32_t S = p.sources, K = p.sinks, T = p.nodes - S - K, n = p.nodes;

    parts = malloc(sizeof *parts * (size_t)S);
    chain = malloc(sizeof *chain * (size_t)(T > 0 ? T : 1));
    if (!parts || !chain || split_total(&r, p.total_supply, S, 1, parts))
        goto fail;
    if ((st = pl_flownet_create(&net)) || (st = pl_flownet_reserve(net, n, p.arcs > n ? p.arcs : n)) ||
        (st = pl_flownet_add_nodes(net, n, NULL)))
        goto fail;
    for (int32_t i = 0; i < S; i++)
        if ((st = pl_flownet_set_supply(net, i, parts[i])))
            goto fail;
    /* Skeleton: the shuffled transshipment nodes are cut into one chain per
     * source; each chain reaches a few sinks, and every skeleton arc can carry
     * its source's whole supply, so the supplies are always routable. */
    for (int32_t i = 0; i < T; i++)
        chain[i] = S + i;
    shuffle32(&r, chain, T);
    int64_t skeleton = 0;
    int32_t per_source_sinks = (K + S - 1) / S;
    for (int32_t i = 0; i < S; i++) {
        int32_t lo = (int32_t)((int64_t)T * i / S), hi = (int32_t)((int64_t)T * (i + 1) / S);
        int32_t prev = i;
        for (int32_t j = lo; j < hi; j++) {
            int64_t cap = bench_rng_range(&r, p.min_cap, p.max_cap);
            int64_t cost = rng_pct(&r, p.hicost_pct) ? p.max_cost : bench_rng_range(&r, p.min_cost, p.max_cost);
            if ((st = pl_flownet_add_arc(net, prev, chain[j], 0, cap > parts[i] ? cap : parts[i], cost, NULL)))
                goto fail;
            prev = chain[j];
            skeleton++;
        }
        int32_t reach = (int32_t)bench_rng_range(&r, 1, 2 * per_source_sinks);
        if (reach > K)
            reach = K;
        if (reach > 64)
            reach = 64;
        int64_t amounts[64];
        if (split_total(&r, parts[i], reach, 0, amounts)) {
            st = PL_ENOMEM;
            goto fail;
        }
        for (int32_t k = 0; k < reach; k++) {
            /* The chain's last node feeds the first sink; the others are fed
             * from anywhere on the chain (the source included). */
            int32_t from = prev;
            if (k > 0) {
                int32_t pos = (int32_t)bench_rng_range(&r, lo - 1, hi - 1);
                from = pos < lo ? i : chain[pos];
            }
            int32_t sink = S + T + (int32_t)bench_rng_range(&r, 0, K - 1);
            int64_t cap = bench_rng_range(&r, p.min_cap, p.max_cap);
            int64_t cost = rng_pct(&r, p.hicost_pct) ? p.max_cost : bench_rng_range(&r, p.min_cost, p.max_cost);
            if ((st = pl_flownet_add_arc(net, from, sink, 0, cap > amounts[k] ? cap : amounts[k], cost, NULL)) ||
                (st = add_supply(net, sink, -amounts[k])))
                goto fail;
            skeleton++;
        }
    }
    /* Random arcs from sources/transshipment nodes to transshipment nodes/sinks. */
    for (int64_t a = skeleton; a < p.arcs; a++) {
        int32_t t, h;
        do {
            t = (int32_t)bench_rng_range(&r, 0, S + T - 1);
            h = (int32_t)bench_rng_range(&r, S, n - 1);
        } while (t == h);
        int64_t cap = rng_pct(&r, p.inf_pct) ? PL_CAP_INF : bench_rng_range(&r, p.min_cap, p.max_cap);
        if ((st = pl_flownet_add_arc(net, t, h, 0, cap, bench_rng_range(&r, p.min_cost, p.max_cost), NULL)))
            goto fail;
    }
    free(parts);
    free(chain);
    *out = net;
    return PL_OK;
fail:
    free(parts);
    free(chain);
    pl_flownet_free(net);
    return st;
}

/* ---- grid -------------------------------------------------------------------- */

void bench_grid_defaults(bench_grid_params *p)
{
    *p = (bench_grid_params){.rows = 32, .cols = 32, .min_cost = 1, .max_cost = 10000,
                             .min_cap = 1, .max_cap = 1000, .seed = 1};
}

pl_status bench_gen_grid(const bench_grid_params *pp, pl_flownet **out)
{
    bench_grid_params p = *pp;
    pl_flownet *net = NULL;
    void *scratch = NULL;
    *out = NULL;
    if (p.rows < 1 || p.cols < 1 || (int64_t)p.rows * p.cols < 2 ||
        (int64_t)p.rows * p.cols > PL_FLOWNET_MAX_SIZE / 4)
        return pl_solver_error(PL_EINVAL, "grid: bad size %d x %d", p.rows, p.cols);
    int32_t n = p.rows * p.cols;
    if (p.corners)
        p.pairs = 1;
    else if (p.pairs <= 0)
        p.pairs = (int32_t)fmax(1.0, sqrt((double)n) / 4);
    if (2 * (int64_t)p.pairs > n)
        p.pairs = n / 2;
    if (p.supply <= 0)
        p.supply = p.corners ? 4 * p.max_cap : p.max_cap;
    bench_rng r;
    bench_rng_seed(&r, p.seed);
    int64_t m = 2 * ((int64_t)p.rows * (p.cols - 1) + (int64_t)(p.rows - 1) * p.cols) + p.pairs;
    TRY(pl_flownet_create(&net));
    TRY(pl_flownet_reserve(net, n, (int32_t)m));
    TRY(pl_flownet_add_nodes(net, n, NULL));
    for (int32_t i = 0; i < p.rows; i++)
        for (int32_t j = 0; j < p.cols; j++) {
            int32_t v = i * p.cols + j;
            if (j + 1 < p.cols) {
                TRY(pl_flownet_add_arc(net, v, v + 1, 0, bench_rng_range(&r, p.min_cap, p.max_cap),
                                       bench_rng_range(&r, p.min_cost, p.max_cost), NULL));
                TRY(pl_flownet_add_arc(net, v + 1, v, 0, bench_rng_range(&r, p.min_cap, p.max_cap),
                                       bench_rng_range(&r, p.min_cost, p.max_cost), NULL));
            }
            if (i + 1 < p.rows) {
                TRY(pl_flownet_add_arc(net, v, v + p.cols, 0, bench_rng_range(&r, p.min_cap, p.max_cap),
                                       bench_rng_range(&r, p.min_cost, p.max_cost), NULL));
                TRY(pl_flownet_add_arc(net, v + p.cols, v, 0, bench_rng_range(&r, p.min_cap, p.max_cap),
                                       bench_rng_range(&r, p.min_cost, p.max_cost), NULL));
            }
        }
    /* Each source has an infinite bypass arc to its sink, dearer than any
     * reasonable grid path: supplies are always routable, the grid is
     * preferred while it has capacity. */
    int64_t bypass = p.max_cost * (int64_t)(p.rows + p.cols);
    if (p.corners) {
        TRY(pl_flownet_set_supply(net, 0, p.supply));
        TRY(pl_flownet_set_supply(net, n - 1, -p.supply));
        TRY(pl_flownet_add_arc(net, 0, n - 1, 0, PL_CAP_INF, bypass, NULL));
    } else {
        uint8_t *used = calloc((size_t)n, 1);
        scratch = used;
        if (!used)
            TRY(PL_ENOMEM);
        for (int32_t k = 0; k < p.pairs; k++) {
            int32_t s, t;
            do s = (int32_t)bench_rng_range(&r, 0, n - 1); while (used[s]);
            used[s] = 1;
            do t = (int32_t)bench_rng_range(&r, 0, n - 1); while (used[t]);
            used[t] = 1;
            TRY(pl_flownet_set_supply(net, s, p.supply));
            TRY(pl_flownet_set_supply(net, t, -p.supply));
            TRY(pl_flownet_add_arc(net, s, t, 0, PL_CAP_INF, bypass, NULL));
        }
        free(scratch);
    }
    *out = net;
    return PL_OK;
}

/* ---- assignment ---------------------------------------------------------------- */

pl_status bench_gen_assignment(int32_t n, int64_t max_cost, uint64_t seed, pl_flownet **out)
{
    pl_flownet *net = NULL;
    void *scratch = NULL;
    *out = NULL;
    if (n < 1 || (int64_t)n * n > PL_FLOWNET_MAX_SIZE)
        return pl_solver_error(PL_EINVAL, "assignment: bad size %d", n);
    if (max_cost < 1)
        max_cost = 1000;
    bench_rng r;
    bench_rng_seed(&r, seed);
    TRY(pl_flownet_create(&net));
    TRY(pl_flownet_reserve(net, 2 * n, n * n));
    TRY(pl_flownet_add_nodes(net, 2 * n, NULL));
    for (int32_t i = 0; i < n; i++) {
        TRY(pl_flownet_set_supply(net, i, 1));
        TRY(pl_flownet_set_supply(net, n + i, -1));
    }
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            TRY(pl_flownet_add_arc(net, i, n + j, 0, 1, bench_rng_range(&r, 1, max_cost), NULL));
    *out = net;
    return PL_OK;
}

/* ---- scheduling ------------------------------------------------------------------ */

/* Costs, in the spirit of Quincy's: leaving a task unscheduled is dearest,
 * running it anywhere through the cluster aggregator X is the worst-case data
 * transfer, a preferred rack is cheaper and a preferred machine cheapest. */
#define COST_UNSCHED_LO 2500
#define COST_UNSCHED_HI 5000
#define COST_X_LO 1000
#define COST_X_HI 2000
#define COST_PREF_RACK_LO 400
#define COST_PREF_RACK_HI 1200
#define COST_PREF_MACHINE_LO 0
#define COST_PREF_MACHINE_HI 800
#define COST_LOAD_HI 100

void bench_sched_defaults(bench_sched_params *p)
{
    *p = (bench_sched_params){.machines = 100, .tasks = 800, .machines_per_rack = 40, .slots = 8,
                              .prefs = 8, .tasks_per_job = 100, .seed = 1};
}

void bench_sched_free(bench_sched *s)
{
    if (!s)
        return;
    pl_flownet_free(s->net);
    free(s->rack);
    free(s->machine);
    free(s->unsched);
    free(s->task);
    free(s->task_job);
    free(s->task_arcs);
    free(s->task_narcs);
    free(s->task_machine);
    free(s->xrack_arc);
    free(s->rack_machine_arc);
    memset(s, 0, sizeof *s);
}

/* *p resized to n int32_t; on failure *p is left as it was. */
static pl_status resize_i32(int32_t **p, size_t n)
{
    int32_t *q = realloc(*p, sizeof *q * n);
    if (!q)
        return PL_ENOMEM;
    *p = q;
    return PL_OK;
}

static pl_status sched_grow(bench_sched *s)
{
    if (s->ntasks < s->cap_tasks)
        return PL_OK;
    int32_t cap = s->cap_tasks ? 2 * s->cap_tasks : 64;
    size_t n = (size_t)cap;
    pl_status st;
    if ((st = resize_i32(&s->task, n)) || (st = resize_i32(&s->task_job, n)) ||
        (st = resize_i32(&s->task_arcs, n * BENCH_SCHED_MAX_TASK_ARCS)) || (st = resize_i32(&s->task_narcs, n)) ||
        (st = resize_i32(&s->task_machine, n)))
        return st;
    s->cap_tasks = cap;
    return PL_OK;
}

pl_status bench_sched_add_task(bench_sched *s, int32_t job)
{
    pl_status st;
    int32_t v;
    bench_rng *r = &s->rng;
    if (job < 0 || job >= s->njobs)
        job = (int32_t)bench_rng_range(r, 0, s->njobs - 1);
    if ((st = sched_grow(s)) || (st = pl_flownet_add_node(s->net, NULL, 1, &v)) ||
        (st = add_supply(s->net, s->sink, -1)))
        return st;
    int32_t *arcs = s->task_arcs + (size_t)s->ntasks * BENCH_SCHED_MAX_TASK_ARCS;
    int32_t na = 0;
    if ((st = pl_flownet_add_arc(s->net, v, s->unsched[job], 0, 1,
                                 bench_rng_range(r, COST_UNSCHED_LO, COST_UNSCHED_HI), &arcs[na++])) ||
        (st = pl_flownet_add_arc(s->net, v, s->cluster, 0, 1, bench_rng_range(r, COST_X_LO, COST_X_HI),
                                 &arcs[na++])))
        return st;
    int32_t chosen[64];
    int32_t np = s->p.prefs < 64 ? s->p.prefs : 64;
    for (int32_t k = 0; k < np; k++) {
        int32_t target = -1;
        int64_t cost = 0;
        for (int attempt = 0; attempt < 64 && target < 0; attempt++) {
            if (s->nracks > 1 && bench_rng_range(r, 0, 3) == 0) {
                target = s->rack[bench_rng_range(r, 0, s->nracks - 1)];
                cost = bench_rng_range(r, COST_PREF_RACK_LO, COST_PREF_RACK_HI);
            } else {
                target = s->machine[bench_rng_range(r, 0, s->p.machines - 1)];
                cost = bench_rng_range(r, COST_PREF_MACHINE_LO, COST_PREF_MACHINE_HI);
            }
            for (int32_t q = 0; q < k; q++)
                if (chosen[q] == target)
                    target = -1;
        }
        chosen[k] = target;
        if (target >= 0 && (st = pl_flownet_add_arc(s->net, v, target, 0, 1, cost, &arcs[na++])))
            return st;
    }
    s->task[s->ntasks] = v;
    s->task_job[s->ntasks] = job;
    s->task_narcs[s->ntasks] = na;
    s->task_machine[s->ntasks] = -1;
    s->ntasks++;
    return PL_OK;
}

pl_status bench_sched_remove_task(bench_sched *s, int32_t i)
{
    if (i < 0 || i >= s->ntasks)
        return pl_solver_error(PL_EINVAL, "no task %d", i);
    pl_status st;
    if ((st = pl_flownet_remove_node(s->net, s->task[i])) || (st = add_supply(s->net, s->sink, 1)))
        return st;
    s->ntasks--;
    s->task[i] = s->task[s->ntasks];
    s->task_job[i] = s->task_job[s->ntasks];
    s->task_narcs[i] = s->task_narcs[s->ntasks];
    s->task_machine[i] = s->task_machine[s->ntasks];
    if (i != s->ntasks) /* the last task moves into the hole */
        memcpy(s->task_arcs + (size_t)i * BENCH_SCHED_MAX_TASK_ARCS,
               s->task_arcs + (size_t)s->ntasks * BENCH_SCHED_MAX_TASK_ARCS,
               sizeof *s->task_arcs * (size_t)s->task_narcs[i]);
    return PL_OK;
}

/* Index of node v in ids[0..n) (ids consecutive, as bench_sched_build makes
 * them), or -1. */
static int32_t sched_index(const int32_t *ids, int32_t n, int32_t v)
{
    if (n <= 0)
        return -1;
    int64_t k = (int64_t)v - ids[0];
    return k >= 0 && k < n && ids[k] == v ? (int32_t)k : -1;
}

static int64_t flow_of(const pl_flownet *net, int32_t arc)
{
    int64_t f = 0;
    return pl_flownet_get_flow(net, arc, &f) == PL_OK ? f : 0;
}

pl_status bench_sched_placement(const bench_sched *s, int32_t *machine_of)
{
    const int32_t M = s->p.machines, R = s->nracks, mpr = s->p.machines_per_rack;
    int64_t *left = malloc(sizeof *left * (size_t)(M > R ? M : R));
    int32_t *via = malloc(sizeof *via * (size_t)(s->ntasks > 0 ? s->ntasks : 1));
    int32_t *next = malloc(sizeof *next * (size_t)R);
    pl_status st = PL_ENOMEM;
    if (!left || !via || !next)
        goto out;
    if (!pl_flownet_has_solution(s->net)) {
        st = pl_solver_error(PL_EINVAL, "placement: the network has no solution");
        goto out;
    }
    /* via[i]: rack index the task enters, -2 through X, -1 neither. */
    for (int32_t i = 0; i < s->ntasks; i++) {
        machine_of[i] = s->task_machine[i];
        via[i] = -1;
        if (machine_of[i] >= 0)
            continue;
        const int32_t *arcs = s->task_arcs + (size_t)i * BENCH_SCHED_MAX_TASK_ARCS;
        for (int32_t q = 0; q < s->task_narcs[i]; q++) {
            pl_arc_info info;
            if (flow_of(s->net, arcs[q]) <= 0 || pl_flownet_get_arc(s->net, arcs[q], &info) != PL_OK)
                continue;
            int32_t k;
            if (info.head == s->cluster)
                via[i] = -2;
            else if ((k = sched_index(s->rack, R, info.head)) >= 0)
                via[i] = k;
            else if ((k = sched_index(s->machine, M, info.head)) >= 0)
                machine_of[i] = k;
            break;
        }
    }
    /* Tasks through X take racks in proportion to the X -> rack flow ... */
    for (int32_t k = 0; k < R; k++)
        left[k] = flow_of(s->net, s->xrack_arc[k]);
    int32_t rk = 0;
    for (int32_t i = 0; i < s->ntasks; i++) {
        if (via[i] != -2)
            continue;
        while (rk < R && left[rk] <= 0)
            rk++;
        if (rk == R) {
            st = pl_solver_error(PL_EINTERNAL, "placement: more tasks through X than flow out of X");
            goto out;
        }
        via[i] = rk;
        left[rk]--;
    }
    /* ... and every task entering a rack a machine of it with rack -> machine flow left. */
    for (int32_t m = 0; m < M; m++)
        left[m] = flow_of(s->net, s->rack_machine_arc[m]);
    for (int32_t k = 0; k < R; k++)
        next[k] = k * mpr;
    for (int32_t i = 0; i < s->ntasks; i++) {
        int32_t k = via[i];
        if (k < 0)
            continue;
        int32_t end = (k + 1) * mpr < M ? (k + 1) * mpr : M;
        while (next[k] < end && left[next[k]] <= 0)
            next[k]++;
        if (next[k] == end) {
            st = pl_solver_error(PL_EINTERNAL, "placement: more tasks enter rack %d than leave it", k);
            goto out;
        }
        machine_of[i] = next[k];
        left[next[k]]--;
    }
    st = PL_OK;
out:
    free(left);
    free(via);
    free(next);
    return st;
}

pl_status bench_sched_pin(bench_sched *s, const int32_t *machine_of, int32_t *pinned)
{
    pl_status st;
    int32_t n = 0;
    for (int32_t i = 0; i < s->ntasks; i++) {
        if (s->task_machine[i] >= 0 || machine_of[i] < 0)
            continue;
        if (machine_of[i] >= s->p.machines)
            return pl_solver_error(PL_EINVAL, "pin: no machine %d", machine_of[i]);
        int32_t node = s->machine[machine_of[i]], keep = -1;
        int32_t *arcs = s->task_arcs + (size_t)i * BENCH_SCHED_MAX_TASK_ARCS;
        for (int32_t q = 0; q < s->task_narcs[i]; q++) {
            pl_arc_info info;
            if ((st = pl_flownet_get_arc(s->net, arcs[q], &info)))
                return st;
            if (keep < 0 && info.head == node) {
                keep = arcs[q];
                if ((st = pl_flownet_set_arc_cost(s->net, keep, 0)))
                    return st;
            } else if ((st = pl_flownet_remove_arc(s->net, arcs[q])))
                return st;
        }
        if (keep < 0 && (st = pl_flownet_add_arc(s->net, s->task[i], node, 0, 1, 0, &keep)))
            return st;
        arcs[0] = keep;
        s->task_narcs[i] = 1;
        s->task_machine[i] = machine_of[i];
        n++;
    }
    if (pinned)
        *pinned = n;
    return PL_OK;
}

pl_status bench_sched_build(const bench_sched_params *pp, bench_sched *s)
{
    memset(s, 0, sizeof *s);
    bench_sched_params p = *pp;
    if (p.machines_per_rack <= 0)
        p.machines_per_rack = 40;
    if (p.slots <= 0)
        p.slots = 8;
    if (p.prefs < 0)
        p.prefs = 0;
    if (p.tasks_per_job <= 0)
        p.tasks_per_job = 100;
    if (p.machines < 1 || p.tasks < 0)
        return pl_solver_error(PL_EINVAL, "scheduling: need machines >= 1 and tasks >= 0");
    s->p = p;
    bench_rng_seed(&s->rng, p.seed);
    bench_rng *r = &s->rng;
    s->nracks = (p.machines + p.machines_per_rack - 1) / p.machines_per_rack;
    s->njobs = p.tasks > 0 ? (p.tasks + p.tasks_per_job - 1) / p.tasks_per_job : 1;
    s->rack = malloc(sizeof *s->rack * (size_t)s->nracks);
    s->machine = malloc(sizeof *s->machine * (size_t)p.machines);
    s->unsched = malloc(sizeof *s->unsched * (size_t)s->njobs);
    s->xrack_arc = malloc(sizeof *s->xrack_arc * (size_t)s->nracks);
    s->rack_machine_arc = malloc(sizeof *s->rack_machine_arc * (size_t)p.machines);
    pl_status st = PL_ENOMEM;
    if (!s->rack || !s->machine || !s->unsched || !s->xrack_arc || !s->rack_machine_arc)
        goto fail;
    int64_t nodes = 2 + (int64_t)s->nracks + p.machines + s->njobs + p.tasks;
    int64_t arcs = (int64_t)s->nracks + 2 * (int64_t)p.machines + s->njobs + (int64_t)p.tasks * (2 + p.prefs);
    if (nodes > PL_FLOWNET_MAX_SIZE || arcs > PL_FLOWNET_MAX_SIZE) {
        st = pl_solver_error(PL_EINVAL, "scheduling: too large");
        goto fail;
    }
    if ((st = pl_flownet_create(&s->net)) || (st = pl_flownet_reserve(s->net, (int32_t)nodes, (int32_t)arcs)) ||
        (st = pl_flownet_add_node(s->net, NULL, 0, &s->sink)) ||
        (st = pl_flownet_add_node(s->net, NULL, 0, &s->cluster)))
        goto fail;
    for (int32_t k = 0; k < s->nracks; k++) {
        int32_t in_rack = p.machines - k * p.machines_per_rack;
        if (in_rack > p.machines_per_rack)
            in_rack = p.machines_per_rack;
        if ((st = pl_flownet_add_node(s->net, NULL, 0, &s->rack[k])) ||
            (st = pl_flownet_add_arc(s->net, s->cluster, s->rack[k], 0, (int64_t)in_rack * p.slots, 0,
                                     &s->xrack_arc[k])))
            goto fail;
    }
    for (int32_t k = 0; k < p.machines; k++) {
        if ((st = pl_flownet_add_node(s->net, NULL, 0, &s->machine[k])) ||
            (st = pl_flownet_add_arc(s->net, s->rack[k / p.machines_per_rack], s->machine[k], 0, p.slots,
                                     bench_rng_range(r, 0, COST_LOAD_HI), &s->rack_machine_arc[k])) ||
            (st = pl_flownet_add_arc(s->net, s->machine[k], s->sink, 0, p.slots, 0, NULL)))
            goto fail;
    }
    for (int32_t j = 0; j < s->njobs; j++)
        if ((st = pl_flownet_add_node(s->net, NULL, 0, &s->unsched[j])) ||
            (st = pl_flownet_add_arc(s->net, s->unsched[j], s->sink, 0, PL_CAP_INF, 0, NULL)))
            goto fail;
    for (int32_t t = 0; t < p.tasks; t++)
        if ((st = bench_sched_add_task(s, t / p.tasks_per_job)))
            goto fail;
    return PL_OK;
fail:
    bench_sched_free(s);
    return st;
}

/* ---- families by size --------------------------------------------------------------- */

const char *const bench_families[] = {"netgen", "grid", "assignment", "scheduling", NULL};

static int64_t sched_arcs(int64_t tasks, const bench_sched_params *p)
{
    int64_t machines = (tasks + p->slots - 1) / p->slots;
    if (machines < 1)
        machines = 1;
    int64_t racks = (machines + p->machines_per_rack - 1) / p->machines_per_rack;
    int64_t jobs = (tasks + p->tasks_per_job - 1) / p->tasks_per_job;
    return racks + 2 * machines + jobs + tasks * (2 + p->prefs);
}

pl_status bench_gen_family(const char *family, int64_t arcs, uint64_t seed, pl_flownet **out,
                           char *desc, size_t desc_len)
{
    char dummy[8];
    if (!desc) {
        desc = dummy;
        desc_len = sizeof dummy;
    }
    if (arcs < 16 || arcs > PL_FLOWNET_MAX_SIZE / 2)
        return pl_solver_error(PL_EINVAL, "bad arc count %lld", (long long)arcs);
    if (strcmp(family, "netgen") == 0) {
        bench_netgen_params p;
        bench_netgen_defaults(&p);
        p.nodes = (int32_t)(arcs / 8 > 16 ? arcs / 8 : 16);
        p.arcs = (int32_t)arcs;
        p.seed = seed;
        snprintf(desc, desc_len, "netgen %d %d", p.nodes, p.arcs);
        return bench_gen_netgen(&p, out);
    }
    if (strcmp(family, "grid") == 0) {
        bench_grid_params p;
        bench_grid_defaults(&p);
        int32_t side = 2;
        while (4 * (int64_t)side * (side - 1) < arcs)
            side++;
        p.rows = p.cols = side;
        p.seed = seed;
        snprintf(desc, desc_len, "grid %d %d", side, side);
        return bench_gen_grid(&p, out);
    }
    if (strcmp(family, "assignment") == 0) {
        int32_t n = (int32_t)ceil(sqrt((double)arcs));
        snprintf(desc, desc_len, "assignment %d", n);
        return bench_gen_assignment(n, 1000, seed, out);
    }
    if (strcmp(family, "scheduling") == 0) {
        bench_sched_params p;
        bench_sched_defaults(&p);
        int64_t lo = 1, hi = arcs;
        while (lo < hi) { /* smallest task count reaching `arcs` */
            int64_t mid = (lo + hi) / 2;
            if (sched_arcs(mid, &p) >= arcs)
                hi = mid;
            else
                lo = mid + 1;
        }
        p.tasks = (int32_t)lo;
        p.machines = (p.tasks + p.slots - 1) / p.slots;
        p.seed = seed;
        snprintf(desc, desc_len, "scheduling %d %d %d %d %d", p.machines, p.tasks, p.machines_per_rack,
                 p.slots, p.prefs);
        bench_sched s;
        pl_status st = bench_sched_build(&p, &s);
        if (st)
            return st;
        *out = s.net;
        s.net = NULL;
        bench_sched_free(&s);
        return PL_OK;
    }
    return pl_solver_error(PL_ENOTFOUND, "unknown family \"%s\" (netgen, grid, assignment, scheduling)", family);
}
