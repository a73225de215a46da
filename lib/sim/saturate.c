/* The ATC'23 paper's saturation experiment, and the trace's own timeline,
 * over the fragmentation model (lib/policy/policies/frag.h).
 *
 * Why a driver of its own: a pod placed through pl_policy_place() costs a
 * copy of the 1,213-machine topology and a view rebuilt from it (a few ms),
 * so 8,000 pods would take tens of seconds per run; here the nodes are
 * built once and each pod costs one scoring pass over them (the policies'
 * score functions are the same ones their registered ops use). Sampling as
 * the peer (TunePodsByNodeTotalResource with --shuffle-pod): the pod list
 * shuffled, then pods drawn uniformly (with replacement) and appended until
 * the next one would push the GPU demand past inflate x the cluster's GPUs
 * (the peer compares with the drawn pod's per-GPU milli; so do we), or,
 * when the list already asks for more, pods removed at random until it
 * does not. Pods are placed in that order, none departs; after each pod the
 * arrived demand is compared with the next 1% mark. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/columns.h"
#include "internal/openb.h"
#include "internal/frag.h"

void pl_saturate_opts_init(pl_saturate_opts *o)
{
    *o = (pl_saturate_opts){.policy = "fgd", .inflate = 1.3, .seed = 42, .typical = 0.95};
}

/* The result's two series: per saturation point, per timeline sample. */
static const pl_column point_cols[] = {PL_COLUMN(pl_saturate_result, alloc),
                                       PL_COLUMN(pl_saturate_result, frag)};
static const pl_column sample_cols[] = {PL_COLUMN(pl_saturate_result, time),
                                        PL_COLUMN(pl_saturate_result, talloc)};

void pl_saturate_result_free(pl_saturate_result *r)
{
    if (!r)
        return;
    pl_columns_free(r, point_cols, PL_NCOLUMNS(point_cols));
    pl_columns_free(r, sample_cols, PL_NCOLUMNS(sample_cols));
    memset(r, 0, sizeof *r);
}

static int64_t demand(const pl_fpod *p)
{
    return (int64_t)p->ngpu * p->milli;
}

/* The arrival sequence: indices into pods. */
static pl_status sample(const pl_fpod *pods, int32_t n, double target, uint64_t *rng, int32_t **out, int32_t *len)
{
    int64_t cap = n + 16, total = 0;
    int32_t *seq = pl_alloc((size_t)cap, sizeof *seq), k = n;
    if (!seq)
        return PL_ENOMEM;
    for (int32_t i = 0; i < n; i++) {
        seq[i] = i;
        total += demand(&pods[i]);
    }
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)(pl_rng_u64(rng) % (uint64_t)(i + 1)), t = seq[i];
        seq[i] = seq[j];
        seq[j] = t;
    }
    while (k > 0 && (double)total > target) {
        int32_t j = (int32_t)(pl_rng_u64(rng) % (uint64_t)k);
        total -= demand(&pods[seq[j]]);
        memmove(seq + j, seq + j + 1, (size_t)(k - j - 1) * sizeof *seq);
        k--;
    }
    while (n > 0 && (double)total < target) {
        int32_t j = (int32_t)(pl_rng_u64(rng) % (uint64_t)n);
        if ((double)(total + pods[j].milli) > target)
            break;
        pl_status st = pl_grow((void **)&seq, &cap, k + 1, sizeof *seq);
        if (st) {
            free(seq);
            return st;
        }
        seq[k++] = j;
        total += demand(&pods[j]);
    }
    *out = seq;
    *len = k;
    return PL_OK;
}

static void record(pl_fstate *s, pl_saturate_result *r, int32_t k)
{
    double frag, idle;
    pl_fstate_frag_total(s, &frag, &idle);
    r->alloc[k] = s->total_milli ? 100.0 * (double)s->used_milli / (double)s->total_milli : 0;
    r->frag[k] = idle > 0 ? 100.0 * frag / idle : 0;
}

static pl_status saturate(pl_fstate *s, const pl_fpolicy *pol, const pl_fpod *pods, int32_t n,
                          const pl_saturate_opts *o, pl_saturate_result *r)
{
    uint64_t rng = o->seed;
    int32_t *seq = NULL, len = 0;
    pl_status st = sample(pods, n, o->inflate * (double)s->total_milli, &rng, &seq, &len);
    if (st)
        return st;
    r->npoints = (int32_t)ceil(o->inflate * 100.0 - 1e-9) + 1;
    if (pl_columns_alloc(r, point_cols, PL_NCOLUMNS(point_cols), r->npoints)) {
        free(seq);
        return PL_ENOMEM;
    }
    record(s, r, 0);
    int32_t next = 1;
    int64_t arrived = 0;
    double t0 = pl_now(), spent = 0;
    for (int32_t i = 0; i < len && !st; i++) {
        const pl_fpod *p = &pods[seq[i]];
        pl_fchoice c;
        if ((st = pl_fstate_choose(s, pol, p, &c)))
            break;
        if (c.node >= 0) {
            pl_fstate_apply(s, p, &c);
            r->placed++;
        } else {
            r->failed++;
        }
        r->pods++;
        arrived += demand(p);
        if (next < r->npoints && (double)arrived >= next / 100.0 * (double)s->total_milli) {
            double t1 = pl_now();
            spent += t1 - t0;
            while (next < r->npoints && (double)arrived >= next / 100.0 * (double)s->total_milli)
                record(s, r, next++);
            t0 = pl_now();
        }
    }
    spent += pl_now() - t0;
    /* Marks the sample never reached (it stops just below inflate x 100%)
     * get the final state. */
    while (!st && next < r->npoints)
        record(s, r, next++);
    r->seconds = spent;
    free(seq);
    return st;
}

typedef struct event {
    double t;
    int32_t pod;
    int create;
} event;

static int cmp_event(const void *x, const void *y)
{
    const event *a = x, *b = y;
    /* Departures first at equal times (they free what arrivals need), then
     * list order. */
    int c = pl_cmp_double(&a->t, &b->t);
    if (!c)
        c = a->create - b->create;
    return c ? c : a->pod - b->pod;
}

static pl_status timeline(pl_fstate *s, const pl_fpolicy *pol, const pl_fpod *pods, const pl_openb_pods *op,
                          pl_saturate_result *r)
{
    int32_t n = op->n, ne = 0;
    event *ev = pl_alloc((size_t)2 * n + 1, sizeof *ev);
    pl_fchoice *at = pl_alloc((size_t)n + 1, sizeof *at);
    pl_status st = !ev || !at ? PL_ENOMEM
                              : pl_columns_alloc(r, sample_cols, PL_NCOLUMNS(sample_cols), 2 * (int64_t)n + 1);
    for (int32_t i = 0; i < n && !st; i++) {
        ev[ne++] = (event){op->creation[i], i, 1};
        if (!isnan(op->deletion[i]))
            ev[ne++] = (event){op->deletion[i], i, 0};
        at[i].node = -1;
    }
    if (!st)
        qsort(ev, (size_t)ne, sizeof *ev, cmp_event);
    double t0 = pl_now();
    for (int32_t e = 0; e < ne && !st; e++) {
        const pl_fpod *p = &pods[ev[e].pod];
        if (!ev[e].create) {
            if (at[ev[e].pod].node >= 0)
                pl_fstate_release(s, p, &at[ev[e].pod]);
            at[ev[e].pod].node = -1;
        } else if (!(st = pl_fstate_choose(s, pol, p, &at[ev[e].pod]))) {
            r->pods++;
            if (at[ev[e].pod].node >= 0) {
                pl_fstate_apply(s, p, &at[ev[e].pod]);
                r->placed++;
            } else {
                r->failed++;
            }
        }
        r->time[r->nsamples] = ev[e].t;
        r->talloc[r->nsamples++] = s->total_milli ? 100.0 * (double)s->used_milli / (double)s->total_milli : 0;
    }
    r->seconds = pl_now() - t0;
    free(ev);
    free(at);
    return st;
}

pl_status pl_saturate_run(const pl_topology *t, const pl_openb_pods *op, const pl_saturate_opts *o,
                          pl_saturate_result *r)
{
    if (!t || !op || !o || !r)
        return pl_err(PL_EINVAL, "pl_saturate_run: NULL argument");
    memset(r, 0, sizeof *r);
    const pl_fpolicy *pol = pl_fpolicy_find(o->policy);
    if (!pol) {
        /* The names from the model's own table, so a new policy is listed. */
        char names[512] = "";
        for (int i = 0; pl_fpolicy_at(i); i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     pl_fpolicy_at(i)->name);
        return pl_err(PL_ENOTFOUND, "pl_saturate_run: '%s' is not a policy of the fragmentation model (%s)",
                      o->policy ? o->policy : "(null)", names);
    }
    if (!(o->inflate > 0 && o->inflate <= 100) || !(o->typical > 0 && o->typical <= 1))
        return pl_err(PL_EINVAL, "pl_saturate_run: inflate must be in (0, 100], typical in (0, 1]");
    pl_fstate s = {0};
    pl_fpod *pods = pl_alloc((size_t)op->n + 1, sizeof *pods);
    pl_status st = pods ? pl_fstate_from_topology(&s, t) : PL_ENOMEM;
    for (int32_t i = 0; i < op->n && !st; i++)
        if ((st = pl_fpod_from_job(&s, pl_jobset_get(op->jobs, i), 0, &pods[i]))) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", pl_last_error());
            st = pl_err(st, "pod %d (%s): %s", (int)i, pl_job_name(pl_jobset_get(op->jobs, i)), msg);
        }
    if (!st && s.total_milli == 0)
        st = pl_err(PL_EINVAL, "pl_saturate_run: the cluster has no GPU");
    if (!st)
        st = pl_fstate_set_typical(&s, pods, op->n, o->typical);
    if (!st && pol->uses_typical > 1)
        st = pl_fstate_set_prices(&s, pods, op->n);
    s.rng = o->seed ^ 0x5851f42d4c957f2dULL;
    /* The run's node order: a permutation drawn from the seed, as the
     * peer's random node names give (ties go to the first node in it). */
    int32_t *order = st ? NULL : pl_alloc((size_t)s.nnode + 1, sizeof *order);
    if (!st && !order)
        st = PL_ENOMEM;
    for (int32_t i = 0; i < s.nnode && !st; i++) {
        int32_t j = (int32_t)(pl_rng_u64(&s.rng) % (uint64_t)(i + 1));
        order[i] = order[j];
        order[j] = i;
    }
    s.order = order;
    if (!st)
        st = o->timeline ? timeline(&s, pol, pods, op, r) : saturate(&s, pol, pods, op->n, o, r);
    if (st)
        pl_saturate_result_free(r);
    free(pods);
    free(order);
    pl_fstate_free(&s);
    return st;
}
