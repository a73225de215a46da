/* "constraint-energy" and "constraint-balance" (Kim's thesis ch. 4 behind
 * the policy interface, doc/policies.md, doc/constraints.md), one driver for
 * both: energy saving (fewest active machines; machines already running jobs
 * are active) by activeness-aware first fit with rearrangement, load
 * balancing (even GPU utilisation) by worst fit with spot migration.
 * The queue becomes a stream of creations for lib/constraints' algorithms,
 * one unit per task (its GPU), one node per machine with GPUs holding as
 * many units as it has GPUs, and one pinned unit per machine for the GPUs
 * already taken (so a machine running jobs counts as active, and
 * anti-affinity with what runs there is a unit-to-unit MustNot). Classes
 * earlier in the call may be moved by rearrangement and spot migration:
 * nothing of the call is applied yet. A job some of whose tasks find no
 * machine waits, and the algorithm runs again without it, until every
 * remaining job is placed whole. Then each task takes a free GPU of its
 * machine, the first (in preorder) on which the resources of the job's tasks
 * so far still fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_pick.h"
#include "internal/constraints_view.h"
#include "internal/job_slots.h"
#include <placement/constraint_sets.h>

typedef struct cdriver {
    const pl_policy_request *req;
    pl_decision *out;
    const char *algorithm;
    pl_pctx *c;
    int32_t *hosts;           /* [nmach] machine vertices */
    double *slots, *busy;     /* [nmach] GPUs, GPUs taken */
    uint8_t *active;          /* [nqueue] still in the model */
    int32_t *assign;          /* [units] host of each unit */
} cdriver;

static pl_status hosts_init(cdriver *d)
{
    pl_pctx *c = d->c;
    size_t n = (size_t)c->nmach + 1;
    if (!(d->hosts = pl_alloc(n, sizeof *d->hosts)) || !(d->slots = pl_alloc(n, sizeof *d->slots)) ||
        !(d->busy = pl_alloc(n, sizeof *d->busy)))
        return PL_ENOMEM;
    for (int32_t m = 0; m < c->nmach; m++) {
        d->hosts[m] = c->mach[m].vertex;
        d->slots[m] = c->mach[m].ngpus;
        d->busy[m] = c->mach[m].ngpus - pl_pctx_free_gpus(c, m, NULL);
    }
    return PL_OK;
}

/* REJECTED jobs (no tasks, too big, constraint conflicts) leave the model. */
static pl_status reject_impossible(cdriver *d)
{
    pl_status st = PL_OK;
    for (int32_t i = 0; i < d->req->nqueue && !st; i++) {
        int32_t k;
        const char *why;
        if (!(st = pl_pctx_job_check(d->c, d->req->queue[i], &k, 0, &why)) && why)
            st = pl_decision_set_kind(d->out, i, PL_DECISION_REJECTED, why);
        d->active[i] = !st && !why;
    }
    return st;
}

/* The model of the active jobs: their list, and which hosts each must
 * avoid because of what runs there (job-to-job anti-affinity). */
static pl_status build(cdriver *d, const pl_job **jobs, int32_t *qi, int32_t *nj, uint8_t *avoid,
                       pl_cview **m)
{
    pl_pctx *c = d->c;
    *nj = 0;
    for (int32_t i = 0; i < d->req->nqueue; i++)
        if (d->active[i]) {
            jobs[*nj] = d->req->queue[i];
            for (int32_t h = 0; h < c->nmach; h++)
                avoid[(size_t)*nj * (size_t)c->nmach + (size_t)h] =
                    pl_pctx_machine_avoided(c, jobs[*nj], h) != NULL;
            qi[(*nj)++] = i;
        }
    pl_cview_spec spec = {.topo = c->work, .hosts = d->hosts, .slots = d->slots, .nhosts = c->nmach,
                          .busy = d->busy, .jobs = jobs, .njobs = *nj, .avoid_busy = avoid};
    return pl_cview_build(&spec, m);
}

/* Jobs of the classes in conflict wait (not expected: each job alone was
 * resolved; kept so a combination the analysis missed is not a failure). */
static pl_status drop_conflicts(cdriver *d, const pl_cview *m, const int32_t *qi, int *dropped)
{
    char why[512];
    pl_status st = PL_OK;
    for (int32_t f = 0; f < pl_constraints_conflict_count(m->c) && !st; f++) {
        pl_conflict cf;
        pl_constraints_conflict(m->c, f, &cf);
        for (int32_t u = 0; u < m->nunits && !st; u++) {
            int32_t j = m->unit_job[u];
            if (j < 0 || pl_constraints_class_of(m->c, u) != cf.cls || !d->active[qi[j]])
                continue;
            pl_cview_describe(m, &cf, why, sizeof why);
            pl_job_slots_explain(d->req->queue[qi[j]], why, sizeof why); /* it names task ids */
            d->active[qi[j]] = 0;
            *dropped = 1;
            st = pl_decision_set_kind(d->out, qi[j], PL_DECISION_WAITING, why);
        }
    }
    return st;
}

/* Run the algorithm until every job left in the model is placed whole. */
static pl_status solve(cdriver *d, pl_cview **out, int32_t *qi)
{
    pl_pctx *c = d->c;
    const int32_t n = d->req->nqueue;
    const pl_job **jobs = pl_alloc((size_t)n + 1, sizeof *jobs);
    uint8_t *avoid = pl_alloc(((size_t)n + 1) * ((size_t)c->nmach + 1), 1);
    pl_status st = !jobs || !avoid ? PL_ENOMEM : PL_OK;
    char why[256];
    *out = NULL;
    for (int again = 1; again && !st;) {
        int32_t nj;
        pl_cview *m = NULL;
        again = 0;
        if ((st = build(d, jobs, qi, &nj, avoid, &m)))
            break;
        free(d->assign);
        if (!(d->assign = pl_alloc((size_t)m->nunits + 1, sizeof *d->assign))) {
            pl_cview_free(m);
            st = PL_ENOMEM;
            break;
        }
        pl_constraint_place_opts o;
        pl_constraint_place_opts_init(&o);
        o.algorithm = d->algorithm;
        st = pl_constraint_place(m->c, m->nodes, &o, d->assign, NULL);
        if (st == PL_EINFEASIBLE) {
            int dropped = 0;
            st = drop_conflicts(d, m, qi, &dropped);
            if (!st && !dropped)
                st = pl_err(PL_EINTERNAL, "%s: conflicts among the GPUs already taken", d->algorithm);
            again = !st;
        }
        for (int32_t j = 0; j < nj && !st && !again; j++)
            for (int32_t u = m->first_unit[j]; u < m->first_unit[j + 1]; u++)
                if (d->assign[u] < 0) {
                    snprintf(why, sizeof why, "%s: no machine can take every task of the job now "
                             "(after rearranging this call's placements)", d->algorithm);
                    d->active[qi[j]] = 0;
                    again = 1;
                    st = pl_decision_set_kind(d->out, qi[j], PL_DECISION_WAITING, why);
                    break;
                }
        if (st || again)
            pl_cview_free(m);
        else
            *out = m;
    }
    free(jobs);
    free(avoid);
    return st;
}

/* Task t's GPU: the first free one of its machine, not taken by the job's
 * earlier tasks, on which tasks 0..t still fit (policy.h's resources). */
static pl_status pick_gpu(cdriver *d, const pl_job *job, int32_t t, int32_t mi, int32_t *gpus, int *ok)
{
    pl_pctx *c = d->c;
    const pl_pmachine *pm = &c->mach[mi];
    *ok = 0;
    for (int32_t i = 0; i < pm->ngpus && !*ok; i++) {
        int32_t g = pm->gpus[i], used = 0;
        for (int32_t s = 0; s < t && !used; s++)
            used = gpus[s] == g;
        if (used || !pl_pctx_gpu_free(c, g))
            continue;
        gpus[t] = g;
        pl_plan_item *items;
        int32_t n;
        pl_status st = pl_plan_build(c->work, job, gpus, t + 1, &items, &n);
        if (st)
            return st;
        *ok = pl_plan_fits(c->work, items, n, 0);
        free(items);
    }
    return PL_OK;
}

static pl_status realise(cdriver *d, const pl_cview *m, const int32_t *qi, int32_t j, int32_t *placed)
{
    pl_pctx *c = d->c;
    const int32_t i = qi[j];
    const pl_job *job = d->req->queue[i];
    const int32_t k = pl_job_task_count(job);
    char why[256];
    if (d->req->opts->max_placed > 0 && *placed >= d->req->opts->max_placed) {
        snprintf(why, sizeof why, "max_placed (%d) jobs already placed in this call",
                 (int)d->req->opts->max_placed);
        return pl_decision_set_kind(d->out, i, PL_DECISION_WAITING, why);
    }
    pl_cand cand = {.k = k};
    if (!(cand.gpus = pl_alloc((size_t)k, sizeof *cand.gpus)))
        return PL_ENOMEM;
    pl_status st = PL_OK;
    int ok = 1;
    for (int32_t t = 0; t < k && ok && !st; t++)
        st = pick_gpu(d, job, t, d->assign[m->first_unit[j] + t], cand.gpus, &ok);
    if (!st && ok)
        st = pl_pctx_evaluate(c, job, &cand, &ok);
    if (!st && !ok) {
        snprintf(why, sizeof why, "%s: the machines chosen for its tasks lack the cores, memory or "
                 "bandwidth they need on free GPUs", d->algorithm);
        st = pl_decision_set_kind(d->out, i, PL_DECISION_WAITING, why);
    } else if (!st) {
        pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = cand.gpus,
                                 .machine = cand.machine >= 0 ? c->mach[cand.machine].vertex : -1,
                                 .utility = cand.utility, .comm_cost = cand.comm,
                                 .slowdown = cand.slowdown, .reason = ""};
        if (!(st = pl_pctx_commit(c, job, &cand)) && !(st = pl_decision_set(d->out, i, &info)))
            (*placed)++;
    }
    free(cand.gpus);
    return st;
}

pl_status pl_constraint_policy_run(const pl_policy_request *req, pl_decision *out, const char *algorithm)
{
    cdriver d = {.req = req, .out = out, .algorithm = algorithm};
    int32_t *qi = pl_alloc((size_t)req->nqueue + 1, sizeof *qi);
    pl_cview *m = NULL;
    pl_status st = !qi ? PL_ENOMEM : pl_pctx_create(req, &d.c);
    if (!st && !(d.active = pl_alloc((size_t)req->nqueue + 1, 1)))
        st = PL_ENOMEM;
    if (!st)
        st = hosts_init(&d);
    if (!st)
        st = reject_impossible(&d);
    if (!st)
        st = solve(&d, &m, qi);
    int32_t placed = 0;
    for (int32_t j = 0; m && j < m->spec.njobs && !st; j++)
        st = realise(&d, m, qi, j, &placed);
    pl_cview_free(m);
    pl_pctx_free(d.c);
    free(d.hosts);
    free(d.slots);
    free(d.busy);
    free(d.active);
    free(d.assign);
    free(qi);
    return st;
}

/* The two policies differ only in the algorithm lib/constraints runs: its
 * name is their data. */
static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    return pl_constraint_policy_run(req, out, req->data);
}

PL_POLICY_DEFINE(pl_policy_constraint_energy, "constraint-energy",
                 "Kim ch. 4 energy saving: fewest active machines (activeness-aware first fit, rearrangement)",
                 place, "constraint-energy");

PL_POLICY_DEFINE(pl_policy_constraint_balance, "constraint-balance",
                 "Kim ch. 4 load balancing: even GPU utilisation (worst fit, spot migration)",
                 place, "constraint-balance");
