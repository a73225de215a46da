/* The ch. 4 placement algorithms over classes: for energy saving ES-basic
 * (first fit), Attribute-aware (first fit over nodes sorted by the
 * attributes they possess) and "constraint-energy" (activeness-aware first
 * fit); for load balancing LB-basic (worst fit), Periodic migration and
 * "constraint-balance" (worst fit with spot migration); all with
 * rearrangement by sequences of length 2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "place_impl.h"

#define CAP_EPS 1e-9

void pl_constraint_place_opts_init(pl_constraint_place_opts *o)
{
    if (o)
        *o = (pl_constraint_place_opts){.algorithm = "constraint-energy", .rearrange = 1, .spot_migration = 1,
                                        .spot_threshold = 0.01, .period = 100};
}

static int allowed(const pstate *s, int32_t k, int32_t n)
{
    return s->c->allowed[(size_t)k * (size_t)s->nn + (size_t)n];
}

/* Is n in N_cand of class k, pretending class `ignore` is not placed? */
static int candidate(const pstate *s, int32_t k, int32_t n, int32_t ignore)
{
    if (!allowed(s, k, n))
        return 0;
    double fc = s->nodes->v[n].cores - s->ucores[n], fm = s->nodes->v[n].mem_gb - s->umem[n];
    if (ignore >= 0 && s->at[ignore] == n) {
        fc += s->kc[ignore];
        fm += s->km[ignore];
    }
    if (s->kc[k] > fc + CAP_EPS || s->km[k] > fm + CAP_EPS)
        return 0;
    for (int32_t i = 0; i < s->c->anti_n[k]; i++) {
        int32_t a = s->c->anti[k][i];
        if (a != ignore && s->at[a] == n)
            return 0;
    }
    return 1;
}

void pl_cplace_put(pstate *s, int32_t k, int32_t n)
{
    s->at[k] = n;
    s->ucores[n] += s->kc[k];
    s->umem[n] += s->km[k];
    s->ncls[n]++;
}

void pl_cplace_take(pstate *s, int32_t k)
{
    int32_t n = s->at[k];
    s->ucores[n] -= s->kc[k];
    s->umem[n] -= s->km[k];
    s->ncls[n]--;
    s->at[k] = -1;
}

static double util(const pstate *s, int32_t n, double extra)
{
    double u = s->ucores[n] + extra;
    if (s->nodes->v[n].cores > 0)
        return u / s->nodes->v[n].cores;
    return u > CAP_EPS ? INFINITY : 0;
}

double pl_cplace_sigma(const pstate *s)
{
    double sum = 0, sq = 0;
    for (int32_t n = 0; n < s->nn; n++) {
        double x = util(s, n, 0);
        sum += x;
        sq += x * x;
    }
    double mean = sum / s->nn, var = sq / s->nn - mean * mean;
    return var > 0 ? sqrt(var) : 0;
}

/* Active: hosts a class, or is the node of the class being grown (taken
 * off it while its new size is placed: pl_constraint_place_online()). */
static int is_active(const pstate *s, int32_t n)
{
    return s->ncls[n] > 0 || n == s->keep;
}

/* First fit in node index order (ES-basic's selectNode), or in s->order (Attribute-aware's). */
static int32_t first_fit(const pstate *s, int32_t k, int active_only, int32_t exclude)
{
    for (int32_t i = 0; i < s->nn; i++) {
        int32_t n = s->order ? s->order[i] : i;
        if (n != exclude && (!active_only || is_active(s, n)) && candidate(s, k, n, -1))
            return n;
    }
    return -1;
}

/* Attributes node n possesses: those with a value other than "0" (the
 * thesis's encoding: 0 = does not have it). */
static int32_t possessed(const pstate *s, int32_t n)
{
    const cnode *v = &s->nodes->v[n];
    int32_t c = 0;
    for (int32_t a = 0; a < v->nattrs; a++)
        c += strcmp(v->values[a], "0") != 0;
    return c;
}

/* Attribute-aware's node order: decreasing attributes possessed, ties by
 * index. A candidate satisfies the class's filters by definition, so
 * "possesses and satisfies" reduces to possessing. */
static pl_status attribute_order(pstate *s)
{
    s->order = pl_alloc((size_t)s->nn + 1, sizeof *s->order);
    int32_t *score = pl_alloc((size_t)s->nn + 1, sizeof *score);
    if (!s->order || !score) {
        free(score);
        return PL_ENOMEM;
    }
    for (int32_t n = 0; n < s->nn; n++) {
        score[n] = possessed(s, n);
        int32_t i = n;
        for (; i > 0 && score[s->order[i - 1]] < score[n]; i--)
            s->order[i] = s->order[i - 1];
        s->order[i] = n;
    }
    free(score);
    return PL_OK;
}

/* Worst fit: the candidate left least utilised by k (ties: lowest index). */
static int32_t worst_fit(const pstate *s, int32_t k, int32_t exclude)
{
    int32_t best = -1;
    double bu = INFINITY;
    for (int32_t n = 0; n < s->nn; n++) {
        if (n == exclude || !candidate(s, k, n, -1))
            continue;
        double u = util(s, n, s->kc[k]);
        if (best < 0 || u < bu - 1e-12) {
            best = n;
            bu = u;
        }
    }
    return best;
}

/* Energy rearrangement: on the first node (index order) where moving one
 * placed class v away would admit k, move v by first fit within the same
 * node set and place k. */
static int rearrange_first(pstate *s, int32_t k, int active_only)
{
    for (int32_t n = 0; n < s->nn; n++) {
        if ((active_only && !is_active(s, n)) || !allowed(s, k, n))
            continue;
        for (int32_t v = 0; v < s->K; v++) {
            if (v == k || s->at[v] != n || !candidate(s, k, n, v))
                continue;
            int32_t n2 = first_fit(s, v, active_only, n);
            if (n2 < 0)
                continue;
            pl_cplace_take(s, v);
            pl_cplace_put(s, v, n2);
            pl_cplace_put(s, k, n);
            return 1;
        }
    }
    return 0;
}

/* Balance rearrangement: every (node, class to move) sequence is tried
 * hypothetically; the one leaving the smallest sigma is applied. */
static int rearrange_best(pstate *s, int32_t k)
{
    int32_t bn = -1, bv = -1, bn2 = -1;
    double bs = INFINITY;
    for (int32_t n = 0; n < s->nn; n++) {
        if (!allowed(s, k, n))
            continue;
        for (int32_t v = 0; v < s->K; v++) {
            if (v == k || s->at[v] != n || !candidate(s, k, n, v))
                continue;
            int32_t n2 = worst_fit(s, v, n);
            if (n2 < 0)
                continue;
            pl_cplace_take(s, v);
            pl_cplace_put(s, v, n2);
            pl_cplace_put(s, k, n);
            double sg = pl_cplace_sigma(s);
            pl_cplace_take(s, k);
            pl_cplace_take(s, v);
            pl_cplace_put(s, v, n);
            if (sg < bs - 1e-12) {
                bs = sg;
                bn = n;
                bv = v;
                bn2 = n2;
            }
        }
    }
    if (bn < 0)
        return 0;
    pl_cplace_take(s, bv);
    pl_cplace_put(s, bv, bn2);
    pl_cplace_put(s, k, bn);
    return 1;
}

static int cmp_size_desc(const void *a, const void *b, const pstate *s)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    double dx = s->kc[x], dy = s->kc[y];
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return x < y ? -1 : (x > y);
}

/* Spot migration: the classes on k's node, largest first; the first whose
 * worst-fit move lowers sigma by more than the threshold moves (one only). */
static pl_status spot_migrate(pstate *s, int32_t k, double threshold)
{
    int32_t n = s->at[k], cnt = 0;
    int32_t *list = pl_alloc((size_t)s->ncls[n] + 1, sizeof *list);
    if (!list)
        return PL_ENOMEM;
    for (int32_t v = 0; v < s->K; v++)
        if (v != k && s->at[v] == n)
            list[cnt++] = v;
    /* Insertion sort: qsort has no context argument in C11. */
    for (int32_t i = 1; i < cnt; i++)
        for (int32_t j = i; j > 0 && cmp_size_desc(&list[j - 1], &list[j], s) > 0; j--) {
            int32_t t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
    double before = pl_cplace_sigma(s);
    for (int32_t i = 0; i < cnt; i++) {
        int32_t v = list[i], n2 = worst_fit(s, v, n);
        if (n2 < 0)
            continue;
        pl_cplace_take(s, v);
        pl_cplace_put(s, v, n2);
        if (before - pl_cplace_sigma(s) > threshold)
            break;
        pl_cplace_take(s, v);
        pl_cplace_put(s, v, n);
    }
    free(list);
    return PL_OK;
}

/* ES-basic and Attribute-aware: first fit over all nodes (in s->order), else rearrangement. */
static int place_first_fit(pstate *s, int32_t k, const pl_constraint_place_opts *o)
{
    int32_t n = first_fit(s, k, 0, -1);
    if (n < 0)
        return o->rearrange && rearrange_first(s, k, 0);
    pl_cplace_put(s, k, n);
    return 1;
}

/* Periodic migration: repeatedly move the class of the most utilised node,
 * to the node, that lowers sigma most, while sigma falls. Sigma of a move is
 * updated from the sums, so a step costs O(classes there x nodes). */
int32_t pl_cplace_periodic(pstate *s)
{
    int32_t moves = 0;
    for (int64_t guard = (int64_t)s->K * s->nn; guard > 0; guard--) {
        double sum = 0, sq = 0;
        int32_t hot = 0;
        for (int32_t n = 0; n < s->nn; n++) {
            double u = util(s, n, 0);
            sum += u;
            sq += u * u;
            if (u > util(s, hot, 0))
                hot = n;
        }
        double now = sq / s->nn - (sum / s->nn) * (sum / s->nn), best = now - 1e-12;
        int32_t bv = -1, bn = -1;
        double uh = util(s, hot, 0);
        for (int32_t v = 0; v < s->K; v++) {
            if (s->at[v] != hot)
                continue;
            double uh2 = util(s, hot, -s->kc[v]);
            for (int32_t n = 0; n < s->nn; n++) {
                if (n == hot || !candidate(s, v, n, -1))
                    continue;
                double un = util(s, n, 0), un2 = util(s, n, s->kc[v]);
                double sum2 = sum - uh - un + uh2 + un2, sq2 = sq - uh * uh - un * un + uh2 * uh2 + un2 * un2;
                double var = sq2 / s->nn - (sum2 / s->nn) * (sum2 / s->nn);
                if (var < best) {
                    best = var;
                    bv = v;
                    bn = n;
                }
            }
        }
        if (bv < 0)
            break;
        pl_cplace_take(s, bv);
        pl_cplace_put(s, bv, bn);
        moves++;
    }
    return moves;
}

static int place_energy(pstate *s, int32_t k, const pl_constraint_place_opts *o)
{
    int32_t n = first_fit(s, k, 1, -1);
    if (n < 0 && o->rearrange && rearrange_first(s, k, 1))
        return 1;
    if (n < 0)
        n = first_fit(s, k, 0, -1);
    if (n < 0)
        return o->rearrange && rearrange_first(s, k, 0);
    pl_cplace_put(s, k, n);
    return 1;
}

static int place_balance(pstate *s, int32_t k, const pl_constraint_place_opts *o, pl_status *st)
{
    int32_t n = worst_fit(s, k, -1);
    if (n < 0)
        return o->rearrange && rearrange_best(s, k);
    pl_cplace_put(s, k, n);
    if (o->spot_migration)
        *st = spot_migrate(s, k, o->spot_threshold);
    return 1;
}

static const char *const alg_names[] = {"es-basic", "att-aware", "constraint-energy", "lb-basic", "periodic",
                                        "constraint-balance"};

pl_status pl_cplace_check(const char *who, const pl_constraint_place_opts *o, int *alg)
{
    const char *name = o->algorithm ? o->algorithm : "constraint-energy";
    *alg = 0;
    while (*alg < (int)(sizeof alg_names / sizeof *alg_names) && strcmp(name, alg_names[*alg]) != 0)
        (*alg)++;
    if (*alg == (int)(sizeof alg_names / sizeof *alg_names))
        return pl_err(PL_ENOTFOUND, "%s: no algorithm \"%s\" (es-basic, att-aware, "
                      "constraint-energy, lb-basic, periodic, constraint-balance)", who, name);
    if (!(o->spot_threshold >= 0))
        return pl_err(PL_EINVAL, "%s: spot threshold %g must be >= 0", who, o->spot_threshold);
    if (*alg == ALG_PERIODIC && o->period < 1)
        return pl_err(PL_EINVAL, "%s: period %d must be >= 1", who, (int)o->period);
    return PL_OK;
}

pl_status pl_cplace_init(pstate *s, const pl_constraints *c, const pl_cnodes *nodes, int alg)
{
    *s = (pstate){ c, nodes, (int32_t)nodes->n, c->nclasses, NULL, NULL, NULL, NULL, NULL, c->class_cores,
                   c->class_mem, -1 };
    s->at = pl_alloc((size_t)s->K + 1, sizeof *s->at);
    s->ucores = pl_alloc((size_t)s->nn + 1, sizeof *s->ucores);
    s->umem = pl_alloc((size_t)s->nn + 1, sizeof *s->umem);
    s->ncls = pl_alloc((size_t)s->nn + 1, sizeof *s->ncls);
    if (!s->at || !s->ucores || !s->umem || !s->ncls)
        return PL_ENOMEM;
    for (int32_t k = 0; k < s->K; k++)
        s->at[k] = -1;
    return alg == ALG_ATT ? attribute_order(s) : PL_OK;
}

void pl_cplace_free(pstate *s)
{
    free(s->at);
    free(s->ucores);
    free(s->umem);
    free(s->ncls);
    free(s->order);
}

int pl_cplace_one(pstate *s, int alg, int32_t k, const pl_constraint_place_opts *o, pl_status *st)
{
    pl_constraint_place_opts lb = *o;
    lb.spot_migration = 0;
    switch (alg) {
    case ALG_ES_BASIC:
    case ALG_ATT: return place_first_fit(s, k, o);
    case ALG_ACT: return place_energy(s, k, o);
    case ALG_SPOT: return place_balance(s, k, o, st);
    default: return place_balance(s, k, &lb, st);
    }
}

pl_status pl_constraint_place(pl_constraints *c, const pl_cnodes *nodes,
                              const pl_constraint_place_opts *opts, int32_t *assign,
                              int32_t *unplaced)
{
    if (!c || !nodes || !assign)
        return pl_err(PL_EINVAL, "pl_constraint_place: NULL argument");
    pl_constraint_place_opts def;
    pl_constraint_place_opts_init(&def);
    if (!opts)
        opts = &def;
    int alg = 0;
    pl_status st = pl_cplace_check("pl_constraint_place", opts, &alg);
    if (st != PL_OK)
        return st;
    for (int32_t u = 0; u < c->units; u++)
        assign[u] = -1;
    if (unplaced)
        *unplaced = 0;
    st = pl_constraints_resolve(c, nodes);
    if (st != PL_OK)
        return st;
    pstate s;
    st = pl_cplace_init(&s, c, nodes, alg);
    int32_t failed = 0;
    int32_t active = 0;
    for (int32_t k = 0; k < s.K && st == PL_OK; k++) {
        int ok = pl_cplace_one(&s, alg, k, opts, &st);
        failed += !ok;
        if (alg == ALG_PERIODIC && (k + 1) % opts->period == 0)
            pl_cplace_periodic(&s);
        if (opts->active_trace || opts->sigma_trace) {
            active = 0;
            for (int32_t n = 0; n < s.nn; n++)
                active += s.ncls[n] > 0;
            if (opts->active_trace)
                opts->active_trace[k] = active;
            if (opts->sigma_trace)
                opts->sigma_trace[k] = pl_cplace_sigma(&s);
        }
    }
    if (st == PL_OK) {
        for (int32_t u = 0; u < c->units; u++)
            assign[u] = s.at[c->class_of[u]];
        if (unplaced)
            *unplaced = failed;
    }
    pl_cplace_free(&s);
    return st;
}
