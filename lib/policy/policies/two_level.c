/* "two-level" (seed 003, Kim thesis ch. 3 sec. 2.2) as a policy.
 *
 * The thesis's applications are bags of tasks and its cores run one task
 * each; here an application is a workload type (the queued jobs sharing
 * it), its tasks are theirs, and a core is a GPU. Platforms are machine
 * types: a machine's "platform" attribute, or without one its name without
 * the trailing digits.
 *
 * Level 1 distributes each platform's free GPUs over the workload types by
 * platform affinity (pl_coloc_platform_affinity() on the table of the
 * options, pl_coloc_share_cores()). Level 2 takes the types by decreasing
 * co-runner affinity (the mean profile slowdown - 1 of the type next to
 * every workload present, floored at 0) and places each job of the type,
 * in queue order, whole on one machine of the platform of highest affinity
 * where its share still holds it: the machine and socket where its
 * co-runners slow it least (the thesis's combination of smallest CA(K,P,C)),
 * then the fullest machine. Jobs no share holds (the shares round down, and
 * demand above a share) are placed afterwards in queue order on any machine
 * by the same rule: what the shares leave flows on, as the thesis's
 * leftover pilots. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/coloc.h>
#include "gpu_pick.h"

typedef struct platform {
    const char *name;   /* a machine's platform attribute or name; the type is its first len chars */
    size_t len;
} platform;

typedef struct tl {
    pl_pctx *c;
    const pl_policy_request *req;
    const pl_two_level_opts *o;
    platform *plat;
    int32_t nplat;
    int32_t *plat_of;      /* [nmach] */
    const char **type;     /* [ncls] workload type of each class */
    int32_t ncls;
    int32_t *cls_of;       /* [nqueue] class, -1 when decided (rejected) up front */
    int32_t *k_of;         /* [nqueue] */
    double *pa;            /* [ncls * nplat] */
    int32_t *share;        /* [ncls * nplat] GPUs level 1 gave and level 2 has not used */
    double *ca;            /* [ncls] */
    int32_t placed;
} tl;

static pl_status check_opts(const pl_two_level_opts *o)
{
    if (o->nplatforms < 0 || o->nworkloads < 0)
        return pl_err(PL_EINVAL, "two-level: nplatforms %d or nworkloads %d < 0", (int)o->nplatforms,
                      (int)o->nworkloads);
    if ((o->nplatforms > 0 && !o->platforms) || (o->nworkloads > 0 && !o->workloads) ||
        ((int64_t)o->nplatforms * o->nworkloads > 0 && !o->task_runtime_s))
        return pl_err(PL_EINVAL, "two-level: a table with rows and columns needs names and task_runtime_s");
    for (int32_t p = 0; p < o->nplatforms; p++) {
        if (!o->platforms[p] || !o->platforms[p][0])
            return pl_err(PL_EINVAL, "two-level: platform name %d is NULL or empty", (int)p);
        for (int32_t q = 0; q < p; q++)
            if (strcmp(o->platforms[p], o->platforms[q]) == 0)
                return pl_err(PL_EINVAL, "two-level: platform \"%s\" is listed twice", o->platforms[p]);
    }
    for (int32_t w = 0; w < o->nworkloads; w++) {
        if (!o->workloads[w])
            return pl_err(PL_EINVAL, "two-level: workload name %d is NULL", (int)w);
        for (int32_t q = 0; q < w; q++)
            if (strcmp(o->workloads[w], o->workloads[q]) == 0)
                return pl_err(PL_EINVAL, "two-level: workload \"%s\" is listed twice", o->workloads[w]);
    }
    for (int64_t i = 0; i < (int64_t)o->nplatforms * o->nworkloads; i++)
        if (!(o->task_runtime_s[i] > 0) || !isfinite(o->task_runtime_s[i]))
            return pl_err(PL_EINVAL, "two-level: task_runtime_s of workload \"%s\" on platform \"%s\" is %g "
                          "(must be finite, > 0)", o->workloads[i / o->nplatforms],
                          o->platforms[i % o->nplatforms], o->task_runtime_s[i]);
    return PL_OK;
}

static pl_status platforms(tl *t)
{
    pl_pctx *c = t->c;
    if (!(t->plat = pl_alloc((size_t)c->nmach + 1, sizeof *t->plat)) ||
        !(t->plat_of = pl_alloc((size_t)c->nmach + 1, sizeof *t->plat_of)))
        return PL_ENOMEM;
    for (int32_t m = 0; m < c->nmach; m++) {
        /* the machine's platform attribute, else its name without trailing digits */
        const char *name = pl_topology_attr(c->work, c->mach[m].vertex, PL_TWO_LEVEL_PLATFORM_ATTR);
        size_t len = name ? strlen(name) : 0;
        if (!len) {
            name = c->mach[m].name;
            len = pl_pick_platform_len(name);
        }
        int32_t p = 0;
        while (p < t->nplat && !(t->plat[p].len == len && strncmp(t->plat[p].name, name, len) == 0))
            p++;
        if (p == t->nplat)
            t->plat[t->nplat++] = (platform){name, len};
        t->plat_of[m] = p;
    }
    return PL_OK;
}

static int32_t table_column(const tl *t, int32_t p)
{
    for (int32_t q = 0; q < t->o->nplatforms; q++)
        if (strlen(t->o->platforms[q]) == t->plat[p].len &&
            strncmp(t->o->platforms[q], t->plat[p].name, t->plat[p].len) == 0)
            return q;
    return -1;
}

static int32_t table_row(const tl *t, const char *type)
{
    for (int32_t w = 0; w < t->o->nworkloads; w++)
        if (strcmp(t->o->workloads[w], type) == 0)
            return w;
    return -1;
}

/* PA(K, P) among the topology's platforms the table knows; 1 (no
 * preference) for an unknown platform or workload, or when fewer than two
 * platforms are known (one platform: nothing to choose). */
static pl_status affinity(tl *t)
{
    int32_t nk = 0, *col = pl_alloc((size_t)t->nplat + 1, sizeof *col);
    int32_t *known = pl_alloc((size_t)t->nplat + 1, sizeof *known);
    double *rt = pl_alloc((size_t)t->nplat + 1, sizeof *rt), *pa = pl_alloc((size_t)t->nplat + 1, sizeof *pa);
    pl_status st = !col || !known || !rt || !pa ? PL_ENOMEM : PL_OK;
    for (int32_t i = 0; i < t->ncls * t->nplat; i++)
        t->pa[i] = 1.0;
    for (int32_t p = 0; p < t->nplat && !st; p++)
        if ((col[p] = table_column(t, p)) >= 0)
            known[nk++] = p;
    for (int32_t k = 0; k < t->ncls && nk >= 2 && !st; k++) {
        int32_t row = table_row(t, t->type[k]);
        if (row < 0)
            continue;
        for (int32_t q = 0; q < nk; q++)
            rt[q] = t->o->task_runtime_s[(size_t)row * (size_t)t->o->nplatforms + (size_t)col[known[q]]];
        if (!(st = pl_coloc_platform_affinity(rt, 1, nk, pa)))
            for (int32_t q = 0; q < nk; q++)
                t->pa[k * t->nplat + known[q]] = pa[q];
    }
    free(col);
    free(known);
    free(rt);
    free(pa);
    return st;
}

/* Level 1 on the free GPUs of each platform. */
static pl_status level1(tl *t)
{
    const pl_policy_request *req = t->req;
    int64_t *tasks = pl_alloc((size_t)t->ncls + 1, sizeof *tasks);
    int32_t *cores = pl_alloc((size_t)t->nplat + 1, sizeof *cores);
    pl_status st = !tasks || !cores ? PL_ENOMEM : PL_OK;
    for (int32_t i = 0; i < req->nqueue && !st; i++)
        if (t->cls_of[i] >= 0)
            tasks[t->cls_of[i]] += t->k_of[i];
    for (int32_t m = 0; m < t->c->nmach && !st; m++)
        cores[t->plat_of[m]] += pl_pctx_free_gpus(t->c, m, NULL);
    if (!st)
        st = pl_coloc_share_cores(t->pa, t->ncls, t->nplat, cores, tasks, t->share);
    free(tasks);
    free(cores);
    return st;
}

static pl_status slowdown(const tl *t, const pl_job *a, int32_t ka, const pl_job *b, int32_t kb, double *s)
{
    const char *ta = pl_job_workload_type(a), *tb = pl_job_workload_type(b);
    *s = 1.0;
    if (!ta[0] || !tb[0])
        return PL_OK;
    pl_status st = pl_profile_set_slowdown(t->c->ps, ta, pl_job_workload_size(a), ka, tb,
                                           pl_job_workload_size(b), kb, s);
    if (!(*s >= 1.0) || !isfinite(*s))
        *s = 1.0;
    return st;
}

/* A job standing for each distinct (type, size, GPUs) present: queued (not
 * rejected) and running. */
typedef struct rep {
    const pl_job *job;
    int32_t k, cls;
} rep;

static int32_t add_rep(rep *r, int32_t n, const pl_job *job, int32_t k, int32_t cls)
{
    for (int32_t i = 0; i < n; i++)
        if (r[i].k == k && r[i].cls == cls &&
            strcmp(pl_job_workload_type(r[i].job), pl_job_workload_type(job)) == 0 &&
            strcmp(pl_job_workload_size(r[i].job), pl_job_workload_size(job)) == 0)
            return n;
    r[n] = (rep){job, k, cls};
    return n + 1;
}

/* CA(K): mean over K's representatives and every representative present
 * (K's own included: the thesis's AllCore) of max(0, slowdown - 1). */
static pl_status corunner_affinity(tl *t)
{
    const pl_policy_request *req = t->req;
    rep *r = pl_alloc((size_t)req->nqueue + (size_t)req->nrunning + 1, sizeof *r);
    double *cnt = pl_alloc((size_t)t->ncls + 1, sizeof *cnt);
    if (!r || !cnt) {
        free(r);
        free(cnt);
        return PL_ENOMEM;
    }
    int32_t n = 0;
    for (int32_t i = 0; i < req->nqueue; i++)
        if (t->cls_of[i] >= 0)
            n = add_rep(r, n, req->queue[i], t->k_of[i], t->cls_of[i]);
    for (int32_t i = 0; i < req->nrunning; i++)
        if (req->running[i].ngpus > 0)
            n = add_rep(r, n, req->running[i].job, req->running[i].ngpus, -1);
    pl_status st = PL_OK;
    for (int32_t a = 0; a < n && !st; a++) {
        if (r[a].cls < 0)
            continue;
        for (int32_t b = 0; b < n && !st; b++) {
            double s;
            if (!(st = slowdown(t, r[a].job, r[a].k, r[b].job, r[b].k, &s))) {
                t->ca[r[a].cls] += s - 1.0;
                cnt[r[a].cls]++;
            }
        }
    }
    for (int32_t k = 0; k < t->ncls; k++)
        t->ca[k] = cnt[k] > 0 ? t->ca[k] / cnt[k] : 0;
    free(r);
    free(cnt);
    return st;
}

/* The admissible machine (of platform p, or any when p < 0) and socket
 * where the job's co-runners slow it least, then the machine with the
 * fewest free GPUs, then the first. */
static pl_status choose(tl *t, const pl_job *job, int32_t k, int32_t p, pl_cand *best, int *found)
{
    pl_pctx *c = t->c;
    pl_cand cand = {0};
    cand.k = k;
    *found = 0;
    if (!(cand.gpus = pl_alloc((size_t)k, sizeof *cand.gpus)))
        return PL_ENOMEM;
    pl_status st = PL_OK;
    int32_t best_free = 0;
    for (int32_t m = 0; m < c->nmach && !st; m++) {
        if ((p >= 0 && t->plat_of[m] != p) || !pl_pctx_machine_admits(c, job, m, k))
            continue;
        int32_t nfree = pl_pctx_free_gpus(c, m, NULL);
        if (nfree < k)
            continue;
        for (int32_t s = 0; s < c->mach[m].nsockets && !st; s++) {
            if (pl_pctx_socket_free(c, m, s) == 0 ||
                !pl_pick_pick(c, m, k, PL_PICK_PACKED, s, PL_PICK_FREE, cand.gpus))
                continue;
            int ok;
            cand.k = k;
            if ((st = pl_pctx_evaluate(c, job, &cand, &ok)) || !ok)
                continue;
            if (!*found || cand.slowdown < best->slowdown - 1e-12 ||
                (cand.slowdown <= best->slowdown + 1e-12 && nfree < best_free)) {
                pl_cand_copy(best, &cand);
                best_free = nfree;
                *found = 1;
            }
        }
    }
    free(cand.gpus);
    return st;
}

static pl_status commit(tl *t, pl_decision *out, int32_t i, const pl_cand *cand)
{
    pl_status st = pl_pctx_commit(t->c, t->req->queue[i], cand);
    if (!st)
        st = pl_pick_set_placed(t->c, out, i, cand, cand->slowdown);
    t->cls_of[i] = -1;
    t->placed++;
    return st;
}

static int full(const tl *t)
{
    return t->req->opts->max_placed > 0 && t->placed >= t->req->opts->max_placed;
}

/* Level 2: the classes by decreasing CA, each job in its shares. */
static pl_status level2(tl *t, pl_decision *out, pl_cand *cand)
{
    const pl_policy_request *req = t->req;
    int32_t *order = pl_alloc((size_t)t->ncls + 1, sizeof *order);
    int32_t *porder = pl_alloc((size_t)t->nplat + 1, sizeof *porder);
    pl_status st = !order || !porder ? PL_ENOMEM : PL_OK;
    for (int32_t i = 0; i < t->ncls; i++) {
        int32_t j = i;
        while (j > 0 && t->ca[order[j - 1]] < t->ca[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int32_t o = 0; o < t->ncls && !st; o++) {
        int32_t K = order[o];
        const double *pa = t->pa + K * t->nplat;
        for (int32_t p = 0; p < t->nplat; p++) {
            int32_t j = p;
            while (j > 0 && pa[porder[j - 1]] < pa[p]) {
                porder[j] = porder[j - 1];
                j--;
            }
            porder[j] = p;
        }
        for (int32_t i = 0; i < req->nqueue && !st && !full(t); i++) {
            if (t->cls_of[i] != K)
                continue;
            int found = 0;
            for (int32_t q = 0; q < t->nplat && !st && !found; q++) {
                int32_t P = porder[q];
                if (t->share[K * t->nplat + P] < t->k_of[i])
                    continue;
                cand->k = t->k_of[i];
                if (!(st = choose(t, req->queue[i], t->k_of[i], P, cand, &found)) && found) {
                    t->share[K * t->nplat + P] -= t->k_of[i];
                    st = commit(t, out, i, cand);
                }
            }
        }
    }
    free(order);
    free(porder);
    return st;
}

/* What the shares did not place, in queue order, anywhere. */
static pl_status leftovers(tl *t, pl_decision *out, pl_cand *cand)
{
    const pl_policy_request *req = t->req;
    char reason[160];
    pl_status st = PL_OK;
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        if (t->cls_of[i] < 0)
            continue;
        if (full(t)) {
            snprintf(reason, sizeof reason, "max_placed (%d) jobs already placed in this call",
                     (int)req->opts->max_placed);
            st = pl_decision_set_kind(out, i, PL_DECISION_WAITING, reason);
            continue;
        }
        int found;
        cand->k = t->k_of[i];
        if ((st = choose(t, req->queue[i], t->k_of[i], -1, cand, &found)))
            break;
        if (found)
            st = commit(t, out, i, cand);
        else {
            snprintf(reason, sizeof reason, "no admissible machine has %d free GPUs with the resources the job needs",
                     (int)t->k_of[i]);
            st = pl_decision_set_kind(out, i, PL_DECISION_WAITING, reason);
        }
    }
    return st;
}

/* Reject what never fits, hold back what an anti-affine job blocks now;
 * classes of the rest. */
static pl_status classify(tl *t, pl_decision *out)
{
    const pl_policy_request *req = t->req;
    pl_status st = PL_OK;
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        const pl_job *job = req->queue[i];
        t->cls_of[i] = -1;
        const char *why = NULL;
        if ((st = pl_pctx_job_check(t->c, job, &t->k_of[i], 1, &why)))
            break;
        pl_decision_kind kind = PL_DECISION_REJECTED;
        if (!why)
            pl_pick_admission(t->c, job, t->k_of[i], &kind, &why);
        if (why) {
            st = pl_decision_set_kind(out, i, kind, why);
            continue;
        }
        const char *type = pl_job_workload_type(job);
        int32_t k = 0;
        while (k < t->ncls && strcmp(t->type[k], type) != 0)
            k++;
        if (k == t->ncls)
            t->type[t->ncls++] = type;
        t->cls_of[i] = k;
    }
    return st;
}

static pl_status run(tl *t, pl_decision *out)
{
    const pl_policy_request *req = t->req;
    size_t nq = (size_t)req->nqueue + 1;
    pl_status st = platforms(t);
    if (!st && (!(t->type = pl_alloc(nq, sizeof *t->type)) || !(t->cls_of = pl_alloc(nq, sizeof *t->cls_of)) ||
                !(t->k_of = pl_alloc(nq, sizeof *t->k_of))))
        st = PL_ENOMEM;
    if (!st)
        st = classify(t, out);
    if (st || t->ncls == 0)
        return st;
    size_t cells = (size_t)t->ncls * (size_t)t->nplat + 1;
    int32_t kmax = 1;
    for (int32_t i = 0; i < req->nqueue; i++)
        kmax = t->k_of[i] > kmax ? t->k_of[i] : kmax;
    pl_cand cand = {0};
    if (!(t->pa = pl_alloc(cells, sizeof *t->pa)) || !(t->share = pl_alloc(cells, sizeof *t->share)) ||
        !(t->ca = pl_alloc((size_t)t->ncls + 1, sizeof *t->ca)) ||
        !(cand.gpus = pl_alloc((size_t)kmax, sizeof *cand.gpus)))
        st = PL_ENOMEM;
    if (!st)
        st = affinity(t);
    if (!st)
        st = level1(t);
    if (!st)
        st = corunner_affinity(t);
    if (!st)
        st = level2(t, out, &cand);
    if (!st)
        st = leftovers(t, out, &cand);
    free(cand.gpus);
    return st;
}

static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    const void *ext;
    pl_two_level_opts defaults;
    pl_two_level_opts_init(&defaults);
    pl_status st = pl_pick_ext(req, PL_POLICY_EXT_TWO_LEVEL, "two-level", &ext);
    if (st)
        return st;
    const pl_two_level_opts *o = ext ? ext : &defaults;
    if ((st = check_opts(o)))
        return st;
    tl t = {0};
    t.req = req;
    t.o = o;
    if ((st = pl_pctx_create(req, &t.c)))
        return st;
    st = run(&t, out);
    free(t.plat);
    free(t.plat_of);
    free((void *)t.type);
    free(t.cls_of);
    free(t.k_of);
    free(t.pa);
    free(t.share);
    free(t.ca);
    pl_pctx_free(t.c);
    return st;
}

void pl_two_level_opts_init(pl_two_level_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->kind = PL_POLICY_EXT_TWO_LEVEL;
}

PL_POLICY_DEFINE(pl_policy_two_level, "two-level",
                 "GPUs of each platform type shared by platform affinity, jobs mapped by co-runner affinity (seed 003)",
                 place, NULL);
