/* "gpu-qos" (seed 003, Kim thesis ch. 5) as a policy.
 *
 * A queued job is latency-sensitive (LS) when it has an SLO (> 0), else a
 * batch job. The thesis runs one LS model and at most one batch model on a
 * GPU; here a task takes one unit of its GPU, so sharing is explicit: a GPU
 * is shared only when its units capacity is >= 2 (MPS-like sharing the
 * owner of the topology enabled). Pairing is on-line and symmetric: rows of
 * the matrix are the queued LS jobs, then the running LS jobs alone on GPUs
 * with a unit left; columns the queued batch jobs, then the running batch
 * jobs alone on such GPUs. m_ij exists when at most one of the two runs,
 * both have the same number of tasks (task t of each on the same GPU), they
 * may share a machine (a running one's machine must admit the other) and the
 * LS slowdown stays strictly below the QoS. The pairing (Min-Max Pairing by
 * default) decides who shares; in queue order, a pair of queued jobs is
 * placed when the first of the two comes up, on k empty shareable GPUs of
 * one machine admitting both (the highest LS utility, the first machine on a
 * tie); a queued job paired with a running one goes onto that job's GPUs;
 * every other job runs alone on empty GPUs, those that cannot be shared
 * first. Jobs are never placed on a GPU that already holds another job
 * except by such a pairing, so a GPU holds at most one LS and one batch
 * task. The default predictor prices the device side of sharing by a
 * constant factor, or by the workloads' GPU usage patterns (the
 * simulator's table, read once per instance; doc/policies.md sec. 4e). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/gpuqos.h>
#include "gpu_pick.h"
#include "internal/gpu_usage.h"

/* An instance's usage-pattern table (PL_GPU_QOS_MODEL_USAGE), read once
 * when the instance is made (a scheduler's or a simulator run's lifetime),
 * its pair factors cached in it as rounds ask for them. */
typedef struct gq_usage {
    pl_gpu_usage *u;
    char *path;           /* the CSV it was read from, NULL: the built-in models only */
} gq_usage;

typedef struct gq {
    pl_pctx *c;
    const pl_policy_request *req;
    const pl_gpu_qos_opts *o;
    gq_usage *usage;      /* PL_GPU_QOS_MODEL_USAGE's table, else NULL */
    int32_t *k_of;        /* [nqueue] tasks; -1 decided up front (rejected or waiting) */
    int32_t *row_of;      /* [nqueue] row of an LS job, -1 */
    int32_t *col_of;      /* [nqueue] column of a batch job, -1 */
    int32_t nrow, ncol;
    int32_t *row_q;       /* [nrow] queue index, -1 for a running row */
    int32_t *row_r;       /* [nrow] running index, -1 for a queued row */
    int32_t *col_q;       /* [ncol] queue index, -1 for a running column */
    int32_t *col_r;       /* [ncol] running index, -1 for a queued column */
    double *bs, *ls;      /* [nrow * ncol] the matrix */
    int32_t *pair;        /* [nrow] column, -1 */
    int32_t *partner;     /* [ncol] row, -1 */
    uint8_t *done;        /* [nqueue] decided */
    int32_t placed;
    int32_t kmax;
} gq;

static pl_status check_opts(const pl_gpu_qos_opts *o)
{
    if (!(o->qos > 0) || !isfinite(o->qos))
        return pl_err(PL_EINVAL, "gpu-qos: qos %g is not finite and > 0", o->qos);
    if (!(o->share_factor >= 1) || !isfinite(o->share_factor))
        return pl_err(PL_EINVAL, "gpu-qos: share_factor %g is not finite and >= 1", o->share_factor);
    if (o->pairing < PL_GPU_PAIRING_MMP || o->pairing > PL_GPU_PAIRING_OPTIMAL)
        return pl_err(PL_EINVAL, "gpu-qos: unknown pairing algorithm %d", (int)o->pairing);
    if (o->model != PL_GPU_QOS_MODEL_PROFILES && o->model != PL_GPU_QOS_MODEL_USAGE)
        return pl_err(PL_EINVAL, "gpu-qos: unknown model %d", (int)o->model);
    if (o->model == PL_GPU_QOS_MODEL_USAGE && o->predict)
        return pl_err(PL_EINVAL, "gpu-qos: model usage and a user predictor exclude each other");
    return PL_OK;
}

static void usage_free(void *state)
{
    gq_usage *x = state;
    if (!x)
        return;
    pl_gpu_usage_free(x->u);
    free(x->path);
    free(x);
}

static pl_status usage_load(const char *path, gq_usage **out)
{
    *out = NULL;
    gq_usage *x = pl_alloc(1, sizeof *x);
    if (!x)
        return PL_ENOMEM;
    pl_status st = pl_gpu_usage_load(path, &x->u);
    if (!st && path && !(x->path = pl_strdup(path)))
        st = PL_ENOMEM;
    return PL_HAND_OUT(st, x, usage_free, out);
}

/* Whether the instance's table x was read from path (NULL: none). */
static int read_from(const gq_usage *x, const char *path)
{
    if (!x)
        return 0;
    return x->path && path ? !strcmp(x->path, path) : x->path == path;
}

/* The table is read when the instance is made; options of another kind
 * are left to place() to refuse. */
static pl_status create(const pl_policy_opts *opts, const void *data, void **state)
{
    (void)data;
    *state = NULL;
    const pl_gpu_qos_opts *o = opts->policy_opts;
    if (!o || o->kind != PL_POLICY_EXT_GPU_QOS || o->model != PL_GPU_QOS_MODEL_USAGE)
        return PL_OK;
    pl_status st = check_opts(o);
    gq_usage *x = NULL;
    if (!st)
        st = usage_load(o->usage_traces, &x);
    *state = x;
    return st;
}

/* The device-side factors of lsj next to bj (*fl) and of bj next to lsj
 * (*fb), from the usage patterns when both workload types have one; left
 * as they are (the share factor) otherwise. */
static pl_status usage_factors(gq_usage *x, const pl_job *lsj, const pl_job *bj, double *fl, double *fb)
{
    int32_t a = pl_gpu_usage_find(x->u, pl_job_workload_type(lsj)),
            b = pl_gpu_usage_find(x->u, pl_job_workload_type(bj));
    if (a < 0 || b < 0)
        return PL_OK;
    pl_status st = pl_gpu_usage_factor(x->u, a, b, fl);
    return st ? st : pl_gpu_usage_factor(x->u, b, a, fb);
}

/* The default predictor: co-located over intra-socket solo time, at least
 * 1, times the share factor, - 1: the simulator's rule for co-tenants
 * (doc/simulator.md sec. 3c), so a factor matching the cluster's makes the
 * QoS check see the device side the socket profiles miss. NAN when either
 * time is not profiled (unknown interference cannot promise QoS). */
static double profiled(const pl_pctx *c, double factor, const pl_job *a, int32_t ka, const pl_job *b, int32_t kb)
{
    const char *ta = pl_job_workload_type(a), *tb = pl_job_workload_type(b);
    double solo, with;
    if (!ta[0] || !tb[0] ||
        pl_profile_set_solo(c->ps, ta, pl_job_workload_size(a), ka, PL_SPREAD_INTRA_SOCKET, &solo) ||
        pl_profile_set_colocated(c->ps, ta, pl_job_workload_size(a), ka, tb, pl_job_workload_size(b), kb,
                                 &with))
        return NAN;
    return fmax(1.0, with / solo) * factor - 1.0;
}

static pl_status element(gq *g, const pl_job *lsj, int32_t kl, const pl_job *bj, int32_t kb, double *ls,
                         double *bs)
{
    *ls = *bs = NAN;
    /* Anti-affine jobs may not share a machine, let alone a GPU. */
    if (kl != kb || pl_job_anti_affine(lsj, bj))
        return PL_OK;
    if (g->o->predict) {
        pl_status st = g->o->predict(g->o->predict_ctx, lsj, bj, ls, bs);
        if (st)
            return st;
    } else {
        double fl = g->o->share_factor, fb = fl;
        pl_status st = g->usage ? usage_factors(g->usage, lsj, bj, &fl, &fb) : PL_OK;
        if (st)
            return st;
        *ls = profiled(g->c, fl, lsj, kl, bj, kb);
        *bs = profiled(g->c, fb, bj, kb, lsj, kl);
    }
    /* A co-runner speeding a job up counts as none; an infinite slowdown as no pair. */
    if (*ls < 0)
        *ls = 0;
    if (*bs < 0)
        *bs = 0;
    if (!isfinite(*ls) || !isfinite(*bs) || !(*ls < g->o->qos))
        *ls = *bs = NAN;
    return PL_OK;
}

/* A running job alone on GPUs that each have a unit left. */
static int running_alone(const gq *g, int32_t r, const int32_t *holders)
{
    const pl_running_job *x = &g->req->running[r];
    if (x->ngpus < 1)
        return 0;
    for (int32_t t = 0; t < x->ngpus; t++) {
        int64_t cap = 0, free_amount = 0;
        int32_t v = x->gpus[t];
        if (holders[v] != 1 || g->c->gpu_mach[v] < 0 ||
            pl_topology_amount(g->c->work, v, PL_RES_UNITS, &cap, NULL, &free_amount) ||
            cap < 2 || free_amount != cap - 1)
            return 0;
    }
    return 1;
}

/* Rows, columns, and the jobs decided up front (rejected, or waiting on an
 * anti-affine job). */
static pl_status classify(gq *g, pl_decision *out)
{
    const pl_policy_request *req = g->req;
    pl_status st = PL_OK;
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        const pl_job *job = req->queue[i];
        g->row_of[i] = g->col_of[i] = -1;
        const char *why = NULL;
        if ((st = pl_pctx_job_check(g->c, job, &g->k_of[i], 1, &why)))
            break;
        pl_decision_kind kind = PL_DECISION_REJECTED;
        if (!why)
            pl_pick_admission(g->c, job, g->k_of[i], &kind, &why);
        if (why) {
            g->k_of[i] = -1;
            g->done[i] = 1;
            st = pl_decision_set_kind(out, i, kind, why);
            continue;
        }
        g->kmax = g->k_of[i] > g->kmax ? g->k_of[i] : g->kmax;
        if (pl_job_slo(job) > 0) {
            g->row_q[g->nrow] = i;
            g->row_r[g->nrow] = -1;
            g->row_of[i] = g->nrow++;
        } else {
            g->col_q[g->ncol] = i;
            g->col_r[g->ncol] = -1;
            g->col_of[i] = g->ncol++;
        }
    }
    int32_t *holders = pl_alloc((size_t)g->c->nvert + 1, sizeof *holders);
    if (!st && !holders)
        st = PL_ENOMEM;
    for (int32_t r = 0; r < req->nrunning && !st; r++)
        for (int32_t t = 0; t < req->running[r].ngpus; t++)
            holders[req->running[r].gpus[t]]++;
    for (int32_t r = 0; r < req->nrunning && !st; r++) {
        if (!running_alone(g, r, holders))
            continue;
        if (pl_job_slo(req->running[r].job) > 0) {
            g->row_q[g->nrow] = -1;
            g->row_r[g->nrow++] = r;
        } else {
            g->col_q[g->ncol] = -1;
            g->col_r[g->ncol++] = r;
        }
    }
    free(holders);
    return st;
}

/* Whether queued job j may join running job r on its machine. */
static int running_admits(gq *g, int32_t r, const pl_job *j)
{
    const pl_running_job *x = &g->req->running[r];
    int32_t m = g->c->gpu_mach[x->gpus[0]];
    for (int32_t t = 1; t < x->ngpus; t++)
        if (g->c->gpu_mach[x->gpus[t]] != m)
            return 0;
    return m >= 0 && pl_pctx_machine_admits(g->c, j, m, x->ngpus);
}

static const pl_job *row_job(const gq *g, int32_t i, int32_t *k)
{
    if (g->row_q[i] >= 0) {
        *k = g->k_of[g->row_q[i]];
        return g->req->queue[g->row_q[i]];
    }
    *k = g->req->running[g->row_r[i]].ngpus;
    return g->req->running[g->row_r[i]].job;
}

static const pl_job *col_job(const gq *g, int32_t j, int32_t *k)
{
    if (g->col_q[j] >= 0) {
        *k = g->k_of[g->col_q[j]];
        return g->req->queue[g->col_q[j]];
    }
    *k = g->req->running[g->col_r[j]].ngpus;
    return g->req->running[g->col_r[j]].job;
}

/* m_ij of row i and column j. Two running jobs are never paired, and a
 * running job's GPUs are fixed: its partner must be allowed there (both
 * checked before the predictor is asked). */
static pl_status cell(gq *g, int32_t i, int32_t j, double *ls, double *bs)
{
    int32_t kl, kb;
    const pl_job *lj = row_job(g, i, &kl), *bj = col_job(g, j, &kb);
    *ls = *bs = NAN;
    if ((g->row_r[i] >= 0 && g->col_r[j] >= 0) || kl != kb ||
        (g->row_r[i] >= 0 && !running_admits(g, g->row_r[i], bj)) ||
        (g->col_r[j] >= 0 && !running_admits(g, g->col_r[j], lj)))
        return PL_OK;
    return element(g, lj, kl, bj, kb, ls, bs);
}

static pl_status pairing(gq *g)
{
    pl_status st = PL_OK;
    size_t cells = (size_t)g->nrow * (size_t)g->ncol + 1;
    if (!(g->bs = pl_alloc(cells, sizeof *g->bs)) || !(g->ls = pl_alloc(cells, sizeof *g->ls)) ||
        !(g->pair = pl_alloc((size_t)g->nrow + 1, sizeof *g->pair)) ||
        !(g->partner = pl_alloc((size_t)g->ncol + 1, sizeof *g->partner)))
        return PL_ENOMEM;
    for (int32_t i = 0; i < g->nrow && !st; i++)
        for (int32_t j = 0; j < g->ncol && !st; j++) {
            size_t e = (size_t)i * (size_t)g->ncol + (size_t)j;
            st = cell(g, i, j, &g->ls[e], &g->bs[e]);
        }
    for (int32_t i = 0; i < g->nrow; i++)
        g->pair[i] = -1;
    for (int32_t j = 0; j < g->ncol; j++)
        g->partner[j] = -1;
    if (st || g->nrow == 0 || g->ncol == 0)
        return st;
    pl_gpu_pairing_problem p = {g->nrow, g->ncol, g->bs, g->ls};
    switch (g->o->pairing) {
    case PL_GPU_PAIRING_MMP:
        st = pl_gpu_mmp(&p, g->pair);
        break;
    case PL_GPU_PAIRING_MMP_STUCK:
        st = pl_gpu_mmp_variant(&p, 1, g->pair);
        break;
    case PL_GPU_PAIRING_GREEDY:
        st = pl_gpu_greedy(&p, g->pair);
        break;
    case PL_GPU_PAIRING_OPTIMAL:
        st = pl_gpu_pairing_optimal(&p, NULL, g->pair);
        break;
    }
    for (int32_t i = 0; i < g->nrow && !st; i++)
        if (g->pair[i] >= 0)
            g->partner[g->pair[i]] = i;
    return st;
}

static int full(const gq *g, int32_t more)
{
    return g->req->opts->max_placed > 0 && g->placed + more > g->req->opts->max_placed;
}

static pl_status commit(gq *g, pl_decision *out, int32_t i, pl_cand *cand, double slowdown)
{
    pl_status st = pl_pctx_commit(g->c, g->req->queue[i], cand);
    if (!st)
        st = pl_pick_set_placed(g->c, out, i, cand, slowdown);
    g->done[i] = 1;
    g->placed++;
    return st;
}

/* Whether batch job b also fits on the LS candidate's GPUs once the LS job
 * holds them (its plan taken for the test and given back). */
static pl_status batch_fits(gq *g, const pl_job *lj, const pl_job *bj, const pl_cand *ls_cand, int *ok)
{
    pl_plan_item *items;
    int32_t n;
    pl_status st = pl_pick_plan_take(g->c, lj, ls_cand->gpus, ls_cand->k, &items, &n);
    if (st)
        return st;
    pl_cand b = {0};
    b.k = ls_cand->k;
    b.gpus = ls_cand->gpus;
    st = pl_pctx_evaluate(g->c, bj, &b, ok);
    pl_pick_plan_give_back(g->c, items, n);
    free(items);
    return st;
}

/* The pair (row i, column j) on k empty shareable GPUs of one machine. */
static pl_status place_pair(gq *g, pl_decision *out, int32_t i, int32_t j, pl_cand *best, int *found)
{
    pl_pctx *c = g->c;
    int32_t li = g->row_q[i], bi = g->col_q[j], k = g->k_of[li];
    const pl_job *lj = g->req->queue[li], *bj = g->req->queue[bi];
    pl_cand cand = {0};
    *found = 0;
    if (!(cand.gpus = pl_alloc((size_t)k, sizeof *cand.gpus)))
        return PL_ENOMEM;
    pl_status st = PL_OK;
    for (int32_t m = 0; m < c->nmach && !st; m++) {
        if (!pl_pctx_machine_admits(c, lj, m, k) || !pl_pctx_machine_admits(c, bj, m, k) ||
            !pl_pick_pick(c, m, k, PL_PICK_PACKED, -1, PL_PICK_SHAREABLE, cand.gpus))
            continue;
        int ok = 0, okb = 0;
        cand.k = k;
        if ((st = pl_pctx_evaluate(c, lj, &cand, &ok)) || !ok || (st = batch_fits(g, lj, bj, &cand, &okb)) ||
            !okb)
            continue;
        if (!*found || pl_cand_better(&cand, best)) {
            pl_cand_copy(best, &cand);
            *found = 1;
        }
    }
    free(cand.gpus);
    if (st || !*found)
        return st;
    size_t e = (size_t)i * (size_t)g->ncol + (size_t)j;
    if ((st = commit(g, out, li, best, 1.0 + g->ls[e])))
        return st;
    int ok;
    if ((st = pl_pctx_evaluate(c, bj, best, &ok)))
        return st;
    if (!ok)
        return pl_err(PL_EINTERNAL, "gpu-qos: the batch job no longer fits its pair's GPUs");
    return commit(g, out, bi, best, 1.0 + g->bs[e]);
}

/* Queued job q onto the GPUs of running job r, its partner. */
static pl_status join_running(gq *g, pl_decision *out, int32_t r, int32_t q, double slowdown, pl_cand *cand,
                              int *found)
{
    const pl_running_job *x = &g->req->running[r];
    memcpy(cand->gpus, x->gpus, (size_t)x->ngpus * sizeof *cand->gpus);
    cand->k = x->ngpus;
    pl_status st = pl_pctx_evaluate(g->c, g->req->queue[q], cand, found);
    if (st || !*found)
        return st;
    return commit(g, out, q, cand, slowdown);
}

/* Job q alone on empty GPUs, those that cannot be shared first. */
static pl_status place_alone(gq *g, pl_decision *out, int32_t q, pl_cand *best, int *found)
{
    pl_pctx *c = g->c;
    const pl_job *job = g->req->queue[q];
    int32_t k = g->k_of[q];
    pl_cand cand = {0};
    *found = 0;
    if (!(cand.gpus = pl_alloc((size_t)k, sizeof *cand.gpus)))
        return PL_ENOMEM;
    pl_status st = PL_OK;
    static const pl_pick_usable tiers[2] = {PL_PICK_EXCLUSIVE, PL_PICK_EMPTY};
    for (int t = 0; t < 2 && !*found && !st; t++)
        for (int32_t m = 0; m < c->nmach && !st; m++) {
            if (!pl_pctx_machine_admits(c, job, m, k) || !pl_pick_pick(c, m, k, PL_PICK_PACKED, -1, tiers[t], cand.gpus))
                continue;
            int ok;
            cand.k = k;
            if ((st = pl_pctx_evaluate(c, job, &cand, &ok)) || !ok)
                continue;
            if (!*found || pl_cand_better(&cand, best)) {
                pl_cand_copy(best, &cand);
                *found = 1;
            }
        }
    free(cand.gpus);
    if (!st && *found)
        st = commit(g, out, q, best, 1.0);
    return st;
}

static pl_status waiting(gq *g, pl_decision *out, int32_t q, const char *why)
{
    g->done[q] = 1;
    return pl_decision_set_kind(out, q, PL_DECISION_WAITING, why);
}

/* Queue order; a pair when the first of its two jobs comes up. */
static pl_status place_all(gq *g, pl_decision *out)
{
    const pl_policy_request *req = g->req;
    pl_cand cand = {0};
    char reason[160];
    if (!(cand.gpus = pl_alloc((size_t)g->kmax + 1, sizeof *cand.gpus)))
        return PL_ENOMEM;
    pl_status st = PL_OK;
    for (int32_t q = 0; q < req->nqueue && !st; q++) {
        if (g->done[q])
            continue;
        if (full(g, 1)) {
            snprintf(reason, sizeof reason, "max_placed (%d) jobs already placed in this call",
                     (int)req->opts->max_placed);
            st = waiting(g, out, q, reason);
            continue;
        }
        int found = 0;
        int32_t row = g->row_of[q], col = g->col_of[q];
        if (row < 0 && col >= 0 && g->partner[col] >= 0)
            row = g->partner[col];
        if (col < 0 && row >= 0)
            col = g->pair[row];
        if (row >= 0 && col >= 0) {
            size_t e = (size_t)row * (size_t)g->ncol + (size_t)col;
            if (g->row_r[row] >= 0)
                st = join_running(g, out, g->row_r[row], q, 1.0 + g->bs[e], &cand, &found);
            else if (g->col_r[col] >= 0)
                st = join_running(g, out, g->col_r[col], q, 1.0 + g->ls[e], &cand, &found);
            else if (!full(g, 2))
                st = place_pair(g, out, row, col, &cand, &found);
            /* Not placed together: both run alone, each at its turn. */
            if (!st && !found)
                g->partner[col] = g->pair[row] = -1;
        }
        if (!st && !found && !g->done[q] && !(st = place_alone(g, out, q, &cand, &found)) && !found) {
            snprintf(reason, sizeof reason, "no admissible machine has %d empty GPUs with the resources the job needs",
                     (int)g->k_of[q]);
            st = waiting(g, out, q, reason);
        }
    }
    free(cand.gpus);
    return st;
}

static pl_status run(gq *g, pl_decision *out)
{
    const pl_policy_request *req = g->req;
    size_t nq = (size_t)req->nqueue + 1, nr = nq + (size_t)req->nrunning;
    if (!(g->k_of = pl_alloc(nq, sizeof *g->k_of)) || !(g->row_of = pl_alloc(nq, sizeof *g->row_of)) ||
        !(g->col_of = pl_alloc(nq, sizeof *g->col_of)) || !(g->row_q = pl_alloc(nr, sizeof *g->row_q)) ||
        !(g->row_r = pl_alloc(nr, sizeof *g->row_r)) || !(g->col_q = pl_alloc(nr, sizeof *g->col_q)) ||
        !(g->col_r = pl_alloc(nr, sizeof *g->col_r)) ||
        !(g->done = pl_alloc(nq, 1)))
        return PL_ENOMEM;
    g->kmax = 1;
    pl_status st = classify(g, out);
    if (!st)
        st = pairing(g);
    if (!st)
        st = place_all(g, out);
    return st;
}

static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    const void *ext;
    pl_gpu_qos_opts defaults;
    pl_gpu_qos_opts_init(&defaults);
    pl_status st = pl_pick_ext(req, PL_POLICY_EXT_GPU_QOS, "gpu-qos", &ext);
    if (st)
        return st;
    const pl_gpu_qos_opts *o = ext ? ext : &defaults;
    if ((st = check_opts(o)))
        return st;
    /* A round whose options name another CSV than the instance read (or
     * an instance made without the usage model) reads it afresh. */
    gq_usage *in = req->state, *fresh = NULL;
    if (o->model == PL_GPU_QOS_MODEL_USAGE && !read_from(in, o->usage_traces) &&
        (st = usage_load(o->usage_traces, &fresh)))
        return st;
    gq g = {0};
    g.req = req;
    g.o = o;
    g.usage = o->model != PL_GPU_QOS_MODEL_USAGE ? NULL : fresh ? fresh : in;
    if ((st = pl_pctx_create(req, &g.c))) {
        usage_free(fresh);
        return st;
    }
    st = run(&g, out);
    free(g.k_of);
    free(g.row_of);
    free(g.col_of);
    free(g.row_q);
    free(g.row_r);
    free(g.col_q);
    free(g.col_r);
    free(g.bs);
    free(g.ls);
    free(g.pair);
    free(g.partner);
    free(g.done);
    pl_pctx_free(g.c);
    usage_free(fresh);
    return st;
}

void pl_gpu_qos_opts_init(pl_gpu_qos_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->kind = PL_POLICY_EXT_GPU_QOS;
    opts->qos = 0.2;   /* the middle of the thesis's 10 / 20 / 30 % */
    opts->pairing = PL_GPU_PAIRING_MMP;
    opts->share_factor = 1.0;   /* no device-side cost: doc/policies.md sec. 4e says why */
    opts->model = PL_GPU_QOS_MODEL_PROFILES;
}

const pl_policy_ops pl_policy_gpu_qos = {
    .name = "gpu-qos", .place = place, .version = PL_POLICY_OPS_VERSION, .create = create,
    .destroy = usage_free,
    .description = "latency-sensitive jobs (SLO > 0) paired with batch jobs on GPUs of units >= 2 by Min-Max "
                   "Pairing (seed 003)"};
