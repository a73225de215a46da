/* The run-time model of "sa-placement": who co-runs with whom (jobs holding
 * GPUs on a common socket), and a job's predicted run time there, from the
 * interference profiles (solo time of its spread x its largest slowdown
 * against a co-runner, the library's rule for info.slowdown; the slowdown
 * looked up or learned, sa_tree.c) or from the user's predictor. Profile look-ups are cached per class (type, size, k). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sa_placement.h"

static int32_t class_of(sa_state *s, const pl_job *job, int32_t k, pl_status *st)
{
    const char *t = pl_job_workload_type(job), *z = pl_job_workload_size(job);
    for (int32_t i = 0; i < s->ncls; i++)
        if (s->cls[i].k == k && strcmp(s->cls[i].type, t) == 0 && strcmp(s->cls[i].size, z) == 0)
            return i;
    if (s->ncls == s->ncls_cap) {
        int32_t cap = s->ncls_cap ? 2 * s->ncls_cap : 8;
        sa_class *cls = pl_realloc_array(s->cls, (size_t)cap, sizeof *cls);
        if (cls)
            s->cls = cls;
        double *solo = cls ? pl_realloc_array(s->solo, (size_t)cap * 2, sizeof *solo) : NULL;
        if (solo)
            s->solo = solo;
        double *slow = solo ? pl_alloc((size_t)cap * (size_t)cap, sizeof *slow) : NULL;
        if (!slow) {
            *st = PL_ENOMEM;
            return -1;
        }
        for (int32_t a = 0; a < cap; a++) {
            if (a >= s->ncls_cap)
                s->solo[2 * a] = s->solo[2 * a + 1] = NAN;
            for (int32_t b = 0; b < cap; b++)
                slow[(size_t)a * (size_t)cap + (size_t)b] =
                    a < s->ncls_cap && b < s->ncls_cap ? s->slow[(size_t)a * (size_t)s->ncls_cap + (size_t)b] : NAN;
        }
        free(s->slow);
        s->slow = slow;
        s->ncls_cap = cap;
    }
    s->cls[s->ncls] = (sa_class){t, z, k};
    return s->ncls++;
}

static pl_status grow_jobs(sa_state *s)
{
    size_t n = (size_t)s->n + 1;
    sa_job *j = pl_realloc_array(s->j, n, sizeof *j);
    if (!j)
        return PL_ENOMEM;
    s->j = j;
    uint8_t *mark = pl_realloc_array(s->mark, n, 1);
    if (mark)
        s->mark = mark;
    int32_t *list = mark ? pl_realloc_array(s->list, n, sizeof *list) : NULL;
    if (list)
        s->list = list;
    const pl_job **co = list ? pl_realloc_array((void *)s->co, n, sizeof *co) : NULL;
    if (co)
        s->co = co;
    int32_t *co_k = co ? pl_realloc_array(s->co_k, n, sizeof *co_k) : NULL;
    if (!co_k)
        return PL_ENOMEM;
    s->co_k = co_k;
    s->mark[s->n] = 0;
    return PL_OK;
}

pl_status sa_add_job(sa_state *s, const pl_job *job, int32_t qi, const int32_t *gpus, int32_t k,
                     int32_t *id)
{
    pl_status st = grow_jobs(s);
    if (st)
        return st;
    sa_job *a = &s->j[s->n];
    memset(a, 0, sizeof *a);
    a->job = job;
    a->qi = qi;
    a->k = k;
    a->cfg = -1;
    if ((a->cls = class_of(s, job, k, &st)) < 0)
        return st;
    if (!(a->gpus = pl_alloc((size_t)k + 1, sizeof *a->gpus)))
        return PL_ENOMEM;
    *id = s->n++;
    if (gpus) {
        memcpy(a->gpus, gpus, (size_t)k * sizeof *gpus);
        return sa_enter(s, *id);
    }
    return PL_OK;
}

void sa_state_free(sa_state *s)
{
    for (int32_t i = 0; i < s->n; i++) {
        free(s->j[i].gpus);
        free(s->j[i].plan);
        free(s->j[i].cfg_mach);
        free(s->j[i].cfg_shape);
        free(s->j[i].cfg_first);
    }
    free(s->j);
    if (s->mj)
        for (int32_t m = 0; m < s->c->nmach; m++)
            free(s->mj[m]);
    free(s->mj);
    free(s->nmj);
    free(s->capmj);
    free(s->cls);
    free(s->solo);
    free(s->slow);
    free(s->mark);
    free(s->list);
    free((void *)s->co);
    free(s->co_k);
}

static int on_machine(const sa_state *s, int32_t m, int32_t a)
{
    for (int32_t i = 0; i < s->nmj[m]; i++)
        if (s->mj[m][i] == a)
            return 1;
    return 0;
}

pl_status sa_enter(sa_state *s, int32_t a)
{
    const sa_job *x = &s->j[a];
    for (int32_t g = 0; g < x->k; g++) {
        int32_t m = s->c->gpu_mach[x->gpus[g]];
        if (m < 0 || on_machine(s, m, a))
            continue;
        if (s->nmj[m] == s->capmj[m]) {
            int32_t cap = s->capmj[m] ? 2 * s->capmj[m] : 4;
            int32_t *l = pl_realloc_array(s->mj[m], (size_t)cap, sizeof *l);
            if (!l)
                return PL_ENOMEM;
            s->mj[m] = l;
            s->capmj[m] = cap;
        }
        s->mj[m][s->nmj[m]++] = a;
    }
    return PL_OK;
}

void sa_leave(sa_state *s, int32_t a)
{
    const sa_job *x = &s->j[a];
    for (int32_t g = 0; g < x->k; g++) {
        int32_t m = s->c->gpu_mach[x->gpus[g]];
        for (int32_t i = 0; m >= 0 && i < s->nmj[m]; i++)
            if (s->mj[m][i] == a) {
                s->mj[m][i] = s->mj[m][--s->nmj[m]];
                break;
            }
    }
}

static int same_socket(const pl_pctx *c, int32_t g, int32_t h)
{
    int32_t m = c->gpu_mach[g];
    return m >= 0 && m == c->gpu_mach[h] &&
           c->mach[m].gpu_socket[c->gpu_index[g]] == c->mach[m].gpu_socket[c->gpu_index[h]];
}

static int share_socket(const pl_pctx *c, const sa_job *a, const sa_job *b)
{
    for (int32_t i = 0; i < a->k; i++)
        for (int32_t j = 0; j < b->k; j++)
            if (same_socket(c, a->gpus[i], b->gpus[j]))
                return 1;
    return 0;
}

/* The co-runners of a into s->list (s->mark cleared again). */
static int32_t corunners(sa_state *s, int32_t a)
{
    const sa_job *x = &s->j[a];
    int32_t n = 0;
    for (int32_t g = 0; g < x->k; g++) {
        int32_t m = s->c->gpu_mach[x->gpus[g]];
        for (int32_t i = 0; m >= 0 && i < s->nmj[m]; i++) {
            int32_t b = s->mj[m][i];
            if (b != a && !s->mark[b] && share_socket(s->c, x, &s->j[b])) {
                s->mark[b] = 1;
                s->list[n++] = b;
            }
        }
    }
    for (int32_t i = 0; i < n; i++)
        s->mark[s->list[i]] = 0;
    return n;
}

static double profile_solo(sa_state *s, int32_t cls, pl_spread spread)
{
    double *v = &s->solo[2 * cls + (spread == PL_SPREAD_INTER_SOCKET)];
    if (isnan(*v)) {
        const sa_class *x = &s->cls[cls];
        double t = 0;
        /* Not profiled for this spread: the other one; neither: a unit time
         * (its speedup then depends on its co-runners only). */
        if (!x->type[0] || (pl_profile_set_solo(s->c->ps, x->type, x->size, x->k, spread, &t) &&
                            pl_profile_set_solo(s->c->ps, x->type, x->size, x->k,
                                                spread == PL_SPREAD_INTRA_SOCKET ? PL_SPREAD_INTER_SOCKET
                                                                                 : PL_SPREAD_INTRA_SOCKET,
                                                &t)))
            t = 1.0;
        *v = t;
    }
    return *v;
}

static pl_status profile_slow(sa_state *s, int32_t a, int32_t b, double *out)
{
    double *v = &s->slow[(size_t)a * (size_t)s->ncls_cap + (size_t)b];
    if (isnan(*v)) {
        const sa_class *x = &s->cls[a], *y = &s->cls[b];
        double sd = 1.0;
        if (x->type[0] && y->type[0]) {
            pl_status st = s->model ? sa_tree_slowdown(s->model, s->c->ps, x, y, &sd)
                                    : pl_profile_set_slowdown(s->c->ps, x->type, x->size, x->k, y->type, y->size,
                                                              y->k, &sd);
            if (st)
                return st;
        }
        /* A co-runner said to speed the job up counts as none (doc/policies.md sec. 6). */
        *v = sd >= 1.0 && isfinite(sd) ? sd : 1.0;
    }
    *out = *v;
    return PL_OK;
}

static pl_status user_predict(sa_state *s, int32_t a, int32_t nco, double *r)
{
    const sa_job *x = &s->j[a];
    pl_sa_query q;
    memset(&q, 0, sizeof q);
    q.job = x->job;
    q.topo = s->c->req->topo;
    q.gpus = x->gpus;
    q.ngpus = x->k;
    q.machine = s->c->gpu_mach[x->gpus[0]];
    for (int32_t g = 1; g < x->k; g++)
        if (s->c->gpu_mach[x->gpus[g]] != q.machine)
            q.machine = -1;
    if (q.machine >= 0)
        q.machine = s->c->mach[q.machine].vertex;
    q.spread = pl_pick_sockets_used(s->c, x->gpus, x->k) == 1 ? PL_SPREAD_INTRA_SOCKET : PL_SPREAD_INTER_SOCKET;
    for (int32_t i = 0; i < nco; i++) {
        s->co[i] = s->j[s->list[i]].job;
        s->co_k[i] = s->j[s->list[i]].k;
    }
    q.corunners = s->co;
    q.corunner_gpus = s->co_k;
    q.ncorunners = nco;
    pl_status st = s->o->predict(s->o->predict_ctx, &q, r);
    if (st)
        return st;
    if (!(*r > 0) || !isfinite(*r))
        return pl_err(PL_EINVAL, "sa-placement: the predictor gave run time %g for job \"%s\" (must be finite, > 0)",
                      *r, pl_job_name(x->job));
    return PL_OK;
}

pl_status sa_predict(sa_state *s, int32_t a, double *logr, double *log_solo)
{
    const sa_job *x = &s->j[a];
    int32_t nco = corunners(s, a);
    pl_status st = PL_OK;
    if (s->o->predict) {
        double r, solo;
        if ((st = user_predict(s, a, nco, &r)))
            return st;
        *logr = log(r);
        if (log_solo) {
            if ((st = user_predict(s, a, 0, &solo)))
                return st;
            *log_solo = log(solo);
        }
        return PL_OK;
    }
    pl_spread spread = pl_pick_sockets_used(s->c, x->gpus, x->k) == 1 ? PL_SPREAD_INTRA_SOCKET
                                                                     : PL_SPREAD_INTER_SOCKET;
    double worst = 1.0, sd;
    for (int32_t i = 0; i < nco && !st; i++) {
        st = profile_slow(s, x->cls, s->j[s->list[i]].cls, &sd);
        if (!st && sd > worst)
            worst = sd;
    }
    double solo = log(profile_solo(s, x->cls, spread));
    *logr = solo + log(worst);
    if (log_solo)
        *log_solo = solo;
    return st;
}

pl_status sa_refresh(sa_state *s, const int32_t *machines, int32_t n, double *delta,
                     int32_t *saved_id, double *saved_logr, int32_t *nsaved)
{
    *delta = 0;
    *nsaved = 0;
    pl_status st = PL_OK;
    for (int32_t i = 0; i < n && !st; i++) {
        int32_t m = machines[i];
        for (int32_t t = 0; m >= 0 && t < s->nmj[m] && !st; t++) {
            int32_t a = s->mj[m][t];
            int dup = 0;
            for (int32_t q = 0; q < *nsaved && !dup; q++)
                dup = saved_id[q] == a;
            if (dup)
                continue;
            saved_id[*nsaved] = a;
            saved_logr[(*nsaved)++] = s->j[a].logr;
            double v;
            if (!(st = sa_predict(s, a, &v, NULL))) {
                *delta += v - s->j[a].logr;
                s->j[a].logr = v;
            }
        }
    }
    return st;
}

void sa_restore(sa_state *s, const int32_t *saved_id, const double *saved_logr, int32_t nsaved)
{
    for (int32_t i = 0; i < nsaved; i++)
        s->j[saved_id[i]].logr = saved_logr[i];
}
