/* The ch. 4 algorithms replayed VM by VM in time (thesis sec. 4.1): the
 * grown unit of each new VM is taken off its node and placed anew at its new
 * size, so the unit's earlier members migrate when the algorithm picks
 * another node (Algorithm 1 lines 8-14); failures leave the unit as it was.
 * Time-weighted metrics are integrated between events. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <placement/constraint_online.h>
#include "place_impl.h"

typedef struct replay {
    pstate s;
    double *kc, *km;     /* class sizes: created members only */
    int32_t *members;    /* created members still running, per class */
    int32_t *prev;       /* class -> node before the current event */
    double *ov;          /* migration time each VM has paid */
    double *end;         /* per VM; < 0: not created */
    const double **byend; /* departures: pointers into end, sorted */
    double t, lo, hi, active_int, sigma_int, bound_int;
    double running, cap; /* cores of the running VMs; the largest node's cores */
    pl_conline_observer observe; /* or NULL */
    void *ctx;
    pl_status obs_st;    /* the observer's first error */
} replay;

static int32_t active_nodes(const pstate *s)
{
    int32_t a = 0;
    for (int32_t n = 0; n < s->nn; n++)
        a += s->ncls[n] > 0;
    return a;
}

/* Integrate the current state from r->t to t. */
static void advance(replay *r, double t)
{
    if (t <= r->t)
        return;
    int32_t active = active_nodes(&r->s);
    r->active_int += active * (t - r->t);
    if (r->observe && !r->obs_st)
        r->obs_st = r->observe(r->ctx, r->t, t, r->kc, r->km, r->members, active);
    r->bound_int += (r->cap > 0 ? ceil(r->running / r->cap - 1e-9) : 0) * (t - r->t);
    double a = r->t > r->lo ? r->t : r->lo, b = t < r->hi ? t : r->hi;
    if (b > a)
        r->sigma_int += pl_cplace_sigma(&r->s) * (b - a);
    r->t = t;
}

/* Charge the migration of every created member of the classes that moved
 * during the creation of VM u (u itself is placed, not migrated). */
static void charge_moves(replay *r, const pl_conline_vm *vms, int32_t u, pl_conline_result *res)
{
    const pl_constraints *c = r->s.c;
    for (int32_t k = 0; k < r->s.K; k++) {
        if (r->prev[k] < 0 || r->s.at[k] < 0 || r->s.at[k] == r->prev[k])
            continue;
        for (int32_t v = 0; v < u; v++)
            if (c->class_of[v] == k && r->end[v] >= 0) {
                r->ov[v] += vms[v].mig_cost;
                res->migrations++;
                res->mig_time += vms[v].mig_cost;
            }
    }
}

/* Create VM u at its time: its unit, grown by u, placed anew. */
static pl_status create(replay *r, const pl_conline_vm *vms, int32_t u, int alg, const pl_constraint_place_opts *o,
                        pl_conline_result *res)
{
    const pl_constraints *c = r->s.c;
    int32_t k = c->class_of[u], old = r->s.at[k];
    pl_status st = PL_OK;
    memcpy(r->prev, r->s.at, (size_t)r->s.K * sizeof *r->prev);
    if (old >= 0) {
        pl_cplace_take(&r->s, k);
        r->s.keep = old;
    }
    r->kc[k] += c->cores[u];
    r->km[k] += c->mem_gb[u];
    int ok = pl_cplace_one(&r->s, alg, k, o, &st);
    r->s.keep = -1;
    if (!ok) {
        r->kc[k] -= c->cores[u];
        r->km[k] -= c->mem_gb[u];
        if (old >= 0)
            pl_cplace_put(&r->s, k, old);
        res->failed++;
        return st;
    }
    r->members[k]++;
    r->end[u] = 0;
    r->running += c->cores[u];
    if (alg == ALG_PERIODIC && (u + 1) % o->period == 0)
        pl_cplace_periodic(&r->s);
    charge_moves(r, vms, u, res);
    return st;
}

/* VM v leaves; its unit keeps its node while members remain. */
static void depart(replay *r, int32_t v)
{
    const pl_constraints *c = r->s.c;
    int32_t k = c->class_of[v], n = r->s.at[k];
    r->running -= c->cores[v];
    pl_cplace_take(&r->s, k);
    if (--r->members[k] > 0) {
        r->kc[k] -= c->cores[v];
        r->km[k] -= c->mem_gb[v];
        pl_cplace_put(&r->s, k, n);
    } else {
        r->kc[k] = r->km[k] = 0; /* no drift into the next use of the class */
    }
}

static int cmp_end(const void *a, const void *b)
{
    const double *x = *(const double *const *)a, *y = *(const double *const *)b;
    return *x < *y ? -1 : *x > *y;
}

static pl_status check(const pl_constraints *c, const pl_cnodes *nodes, const pl_conline_vm *vms, double lo,
                       double hi, const pl_conline_result *res)
{
    if (!c || !nodes || !vms || !res)
        return pl_err(PL_EINVAL, "pl_constraint_place_online: NULL argument");
    if (c->units < 1)
        return pl_err(PL_EINVAL, "pl_constraint_place_online: no VMs");
    if (!(lo <= hi))
        return pl_err(PL_EINVAL, "pl_constraint_place_online: window [%g, %g] is empty", lo, hi);
    for (int32_t u = 0; u < c->units; u++) {
        if (!(vms[u].runtime > 0) || !(vms[u].mig_cost >= 0) || !isfinite(vms[u].create))
            return pl_err(PL_EINVAL, "pl_constraint_place_online: VM %d: runtime must be > 0, migration cost >= 0",
                          (int)u);
        if (u > 0 && vms[u].create < vms[u - 1].create)
            return pl_err(PL_EINVAL, "pl_constraint_place_online: VM %d created before VM %d", (int)u, (int)u - 1);
    }
    return PL_OK;
}

/* After the last request at `last`, VM u finishes the iteration it is in;
 * its migrations have shifted its iterations by ov[u]. */
static double finish(const pl_conline_vm *vm, double ov, double last)
{
    double done = last - vm->create - ov;
    if (done <= 0)
        return vm->create + ov + vm->runtime;
    return last + vm->runtime - fmod(done, vm->runtime);
}

static pl_status run(replay *r, const pl_conline_vm *vms, int alg, const pl_constraint_place_opts *o,
                     pl_conline_result *res)
{
    int32_t n = r->s.c->units, gone = 0;
    double last = vms[n - 1].create, snap = 0;
    pl_status st = PL_OK;
    r->t = vms[0].create;
    for (int32_t u = 0; u < n && st == PL_OK && !r->obs_st; u++) {
        advance(r, vms[u].create);
        st = create(r, vms, u, alg, o, res);
        if (vms[u].create <= r->lo)
            snap = pl_cplace_sigma(&r->s);
    }
    for (int32_t u = 0; u < n && st == PL_OK; u++)
        if (r->end[u] >= 0) {
            r->end[u] = finish(&vms[u], r->ov[u], last);
            r->byend[gone++] = &r->end[u];
        }
    qsort(r->byend, (size_t)gone, sizeof *r->byend, cmp_end);
    for (int32_t i = 0; i < gone && st == PL_OK && !r->obs_st; i++) {
        advance(r, *r->byend[i]);
        depart(r, (int32_t)(r->byend[i] - r->end));
    }
    double span = r->t - vms[0].create;
    res->end = r->t;
    res->active = span > 0 ? r->active_int / span : 0;
    res->active_min = span > 0 ? r->bound_int / span : 0;
    res->sigma = r->hi > r->lo ? r->sigma_int / (r->hi - r->lo) : snap;
    return st ? st : r->obs_st;
}

pl_status pl_constraint_place_online(pl_constraints *c, const pl_cnodes *nodes,
                                     const pl_constraint_place_opts *opts, const pl_conline_vm *vms,
                                     double win_lo, double win_hi, pl_conline_result *res)
{
    return pl_constraint_place_online_observed(c, nodes, opts, vms, win_lo, win_hi, NULL, NULL, res);
}

pl_status pl_constraint_place_online_observed(pl_constraints *c, const pl_cnodes *nodes,
                                              const pl_constraint_place_opts *opts, const pl_conline_vm *vms,
                                              double win_lo, double win_hi, pl_conline_observer observe,
                                              void *ctx, pl_conline_result *res)
{
    pl_status st = check(c, nodes, vms, win_lo, win_hi, res);
    if (st != PL_OK)
        return st;
    memset(res, 0, sizeof *res);
    pl_constraint_place_opts def;
    pl_constraint_place_opts_init(&def);
    if (!opts)
        opts = &def;
    int alg = 0;
    st = pl_cplace_check("pl_constraint_place_online", opts, &alg);
    if (st == PL_OK)
        st = pl_constraints_resolve(c, nodes);
    if (st != PL_OK)
        return st;
    replay r;
    memset(&r, 0, sizeof r);
    st = pl_cplace_init(&r.s, c, nodes, alg);
    size_t K = (size_t)c->nclasses + 1, n = (size_t)c->units;
    r.kc = pl_alloc(K, sizeof *r.kc);
    r.km = pl_alloc(K, sizeof *r.km);
    r.members = pl_alloc(K, sizeof *r.members);
    r.prev = pl_alloc(K, sizeof *r.prev);
    r.ov = pl_alloc(n, sizeof *r.ov);
    r.end = pl_alloc(n, sizeof *r.end);
    r.byend = pl_alloc(n, sizeof *r.byend);
    if (st == PL_OK && (!r.kc || !r.km || !r.members || !r.prev || !r.ov || !r.end || !r.byend))
        st = PL_ENOMEM;
    if (st == PL_OK) {
        r.s.kc = r.kc;
        r.s.km = r.km;
        r.lo = win_lo;
        for (int32_t i = 0; i < r.s.nn; i++)
            r.cap = nodes->v[i].cores > r.cap ? nodes->v[i].cores : r.cap;
        r.hi = win_hi;
        r.observe = observe;
        r.ctx = ctx;
        for (size_t u = 0; u < n; u++)
            r.end[u] = -1;
        st = run(&r, vms, alg, opts, res);
    }
    if (st == PL_ENOMEM)
        pl_err(st, "pl_constraint_place_online: out of memory");
    pl_cplace_free(&r.s);
    free(r.kc);
    free(r.km);
    free(r.members);
    free(r.prev);
    free(r.ov);
    free(r.end);
    free(r.byend);
    return st;
}
