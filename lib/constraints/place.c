/* The ch. 4 placement algorithms over classes: "constraint-energy"
 * (activeness-aware first fit) and "constraint-balance" (worst fit with spot
 * migration), both with rearrangement by sequences of length 2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal/constraints_impl.h"

#define CAP_EPS 1e-9

void pl_constraint_place_opts_init(pl_constraint_place_opts *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->algorithm = "constraint-energy";
    o->rearrange = 1;
    o->spot_migration = 1;
    o->spot_threshold = 0.01;
}

typedef struct pstate {
    const pl_constraints *c;
    const pl_cnodes *nodes;
    int32_t nn, K;
    int32_t *at;       /* class -> node, -1 unplaced */
    double *ucores, *umem;
    int32_t *ncls;     /* classes on a node: > 0 means active */
} pstate;

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
        fc += s->c->class_cores[ignore];
        fm += s->c->class_mem[ignore];
    }
    if (s->c->class_cores[k] > fc + CAP_EPS || s->c->class_mem[k] > fm + CAP_EPS)
        return 0;
    for (int32_t i = 0; i < s->c->anti_n[k]; i++) {
        int32_t a = s->c->anti[k][i];
        if (a != ignore && s->at[a] == n)
            return 0;
    }
    return 1;
}

static void put(pstate *s, int32_t k, int32_t n)
{
    s->at[k] = n;
    s->ucores[n] += s->c->class_cores[k];
    s->umem[n] += s->c->class_mem[k];
    s->ncls[n]++;
}

static void take(pstate *s, int32_t k)
{
    int32_t n = s->at[k];
    s->ucores[n] -= s->c->class_cores[k];
    s->umem[n] -= s->c->class_mem[k];
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

static double sigma(const pstate *s)
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

/* First fit in node index order (ES-basic's selectNode). */
static int32_t first_fit(const pstate *s, int32_t k, int active_only, int32_t exclude)
{
    for (int32_t n = 0; n < s->nn; n++)
        if (n != exclude && (!active_only || s->ncls[n] > 0) && candidate(s, k, n, -1))
            return n;
    return -1;
}

/* Worst fit: the candidate left least utilised by k (ties: lowest index). */
static int32_t worst_fit(const pstate *s, int32_t k, int32_t exclude)
{
    int32_t best = -1;
    double bu = INFINITY;
    for (int32_t n = 0; n < s->nn; n++) {
        if (n == exclude || !candidate(s, k, n, -1))
            continue;
        double u = util(s, n, s->c->class_cores[k]);
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
        if ((active_only && s->ncls[n] == 0) || !allowed(s, k, n))
            continue;
        for (int32_t v = 0; v < s->K; v++) {
            if (v == k || s->at[v] != n || !candidate(s, k, n, v))
                continue;
            int32_t n2 = first_fit(s, v, active_only, n);
            if (n2 < 0)
                continue;
            take(s, v);
            put(s, v, n2);
            put(s, k, n);
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
            take(s, v);
            put(s, v, n2);
            put(s, k, n);
            double sg = sigma(s);
            take(s, k);
            take(s, v);
            put(s, v, n);
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
    take(s, bv);
    put(s, bv, bn2);
    put(s, k, bn);
    return 1;
}

static int cmp_size_desc(const void *a, const void *b, const pstate *s)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    double dx = s->c->class_cores[x], dy = s->c->class_cores[y];
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
    double before = sigma(s);
    for (int32_t i = 0; i < cnt; i++) {
        int32_t v = list[i], n2 = worst_fit(s, v, n);
        if (n2 < 0)
            continue;
        take(s, v);
        put(s, v, n2);
        if (before - sigma(s) > threshold)
            break;
        take(s, v);
        put(s, v, n);
    }
    free(list);
    return PL_OK;
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
    put(s, k, n);
    return 1;
}

static int place_balance(pstate *s, int32_t k, const pl_constraint_place_opts *o, pl_status *st)
{
    int32_t n = worst_fit(s, k, -1);
    if (n < 0)
        return o->rearrange && rearrange_best(s, k);
    put(s, k, n);
    if (o->spot_migration)
        *st = spot_migrate(s, k, o->spot_threshold);
    return 1;
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
    const char *alg = opts->algorithm ? opts->algorithm : "constraint-energy";
    int balance;
    if (strcmp(alg, "constraint-energy") == 0)
        balance = 0;
    else if (strcmp(alg, "constraint-balance") == 0)
        balance = 1;
    else
        return pl_err(PL_ENOTFOUND, "pl_constraint_place: no algorithm \"%s\" (constraint-energy, "
                      "constraint-balance)", alg);
    if (!(opts->spot_threshold >= 0))
        return pl_err(PL_EINVAL, "pl_constraint_place: spot threshold %g must be >= 0", opts->spot_threshold);
    for (int32_t u = 0; u < c->units; u++)
        assign[u] = -1;
    if (unplaced)
        *unplaced = 0;
    pl_status st = pl_constraints_resolve(c, nodes);
    if (st != PL_OK)
        return st;
    pstate s = { c, nodes, (int32_t)nodes->n, c->nclasses, NULL, NULL, NULL, NULL };
    s.at = pl_alloc((size_t)s.K + 1, sizeof *s.at);
    s.ucores = pl_alloc((size_t)s.nn + 1, sizeof *s.ucores);
    s.umem = pl_alloc((size_t)s.nn + 1, sizeof *s.umem);
    s.ncls = pl_alloc((size_t)s.nn + 1, sizeof *s.ncls);
    if (!s.at || !s.ucores || !s.umem || !s.ncls)
        st = PL_ENOMEM;
    int32_t failed = 0;
    for (int32_t k = 0; k < s.K && st == PL_OK; k++)
        s.at[k] = -1;
    for (int32_t k = 0; k < s.K && st == PL_OK; k++) {
        int ok = balance ? place_balance(&s, k, opts, &st) : place_energy(&s, k, opts);
        failed += !ok;
    }
    if (st == PL_OK) {
        for (int32_t u = 0; u < c->units; u++)
            assign[u] = s.at[c->class_of[u]];
        if (unplaced)
            *unplaced = failed;
    }
    free(s.at);
    free(s.ucores);
    free(s.umem);
    free(s.ncls);
    return st;
}
