/* Demands the policies do not model, honoured once for all of them
 * (policy.h's file comment): CPU-only tasks, fractional GPUs (thousandths
 * of one GPU, PL_RES_GPU_MILLI), GPU models and CPU millicores.
 *
 * A policy maps tasks onto whole GPUs. So each job with such demands is
 * shown to it as a view: its whole-GPU tasks only, a CPU-only task's demand
 * added to the GPU task it talks to most (it will sit on that GPU's
 * package), on a copy of the topology where a GPU it must not have (partly
 * shared, or of a model the job does not accept) is not free. What the view
 * leaves out (fractional tasks, CPU-only tasks that could not join a GPU
 * task) is placed here, after the policy. Since those take resources the
 * policy did not plan, the rest of the queue is decided by a new call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/columns.h"
#include "internal/policy_impl.h"
#include "internal/topology_internal.h"
#include "internal/job_impl.h"

enum { KIND_GPU, KIND_FRAC, KIND_CPU };

/* One queued job as the policies see it. */
typedef struct dview {
    pl_job *view;            /* whole-GPU tasks (NULL: the job needs no view, or has none of them) */
    int32_t nview;
    int32_t *vtask;          /* [nview] the job's task of each view task */
    int32_t *vof;            /* [ntasks] view task of a GPU task, the anchor of a CPU task, else -1 */
    uint8_t *kind;           /* [ntasks] KIND_* */
    int engine;              /* tasks left for this file to place (fractional, unanchored CPU) */
} dview;

/* Who holds a machine, for job-to-job anti-affinity. */
typedef struct holder {
    const pl_job *job;
    int32_t machine;
} holder;

typedef struct dctx {
    const pl_policy_request *req;
    pl_topology *work;       /* the caller's topology, this call's placements, shared GPUs masked */
    int32_t nv;
    int32_t *mach_of;        /* per vertex: its machine vertex, -1 */
    int32_t *count;          /* per vertex: scratch */
    int32_t *gpus, ngpus;    /* GPU vertices in preorder */
    int32_t *pkgs, npkgs;    /* package vertices in preorder */
    int32_t *machines, nmach;
    pl_running_job *run;     /* the caller's running jobs and those placed so far */
    int32_t nrun;
    int64_t caprun;
    holder *hold;
    int64_t nhold, caphold;
    pl_plan_item *items;     /* a plan being built */
    int64_t capitems;
    int32_t nitems;
    char reason[512];
} dctx;

/* ---- which jobs need a view --------------------------------------------------- */

static int task_kind(const pl_task_demand *d)
{
    return pl_task_cpu_only(d) ? KIND_CPU : d->gpu_milli > 0 ? KIND_FRAC : KIND_GPU;
}

int pl_demand_special(const pl_job *job)
{
    if (*pl_job_gpu_model(job))
        return 1;
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) == PL_OK && (task_kind(&d) != KIND_GPU || d.cpu_milli > 0))
            return 1;
    }
    return 0;
}

/* A GPU whose unit is free but whose milli are partly taken by fractional
 * tasks: a whole-GPU task must not get it. */
static int partly_shared(const pl_topology *t, int32_t g)
{
    int64_t ufree = 0, mfree = 0;
    pl_topology_amount(t, g, PL_RES_UNITS, NULL, NULL, &ufree);
    pl_topology_amount(t, g, PL_RES_GPU_MILLI, NULL, NULL, &mfree);
    return ufree >= 1 && mfree < pl_gpu_milli_share(t, g);
}

/* Make every GPU some fractional task shares look taken to the policies. */
static pl_status mask_shared(pl_topology *t, const int32_t *gpus, int32_t n)
{
    pl_status st = PL_OK;
    for (int32_t i = 0; i < n && !st; i++)
        if (partly_shared(t, gpus[i]))
            st = pl_topology_alloc(t, gpus[i], PL_RES_UNITS, 1);
    return st;
}

/* ---- context ---------------------------------------------------------------------- */

static const pl_column vertex_cols[] = {PL_COLUMN(dctx, mach_of), PL_COLUMN(dctx, count)};

static void dctx_free(dctx *x)
{
    pl_topology_free(x->work);
    pl_columns_free(x, vertex_cols, PL_NCOLUMNS(vertex_cols));
    free(x->gpus);
    free(x->pkgs);
    free(x->machines);
    for (int32_t i = x->req ? x->req->nrunning : 0; i < x->nrun; i++)
        free((void *)x->run[i].gpus);
    free(x->run);
    free(x->hold);
    free(x->items);
}

static pl_status add_holder(dctx *x, const pl_job *job, int32_t machine)
{
    for (int64_t i = 0; i < x->nhold; i++)
        if (x->hold[i].job == job && x->hold[i].machine == machine)
            return PL_OK;
    pl_status st = pl_grow((void **)&x->hold, &x->caphold, x->nhold + 1, sizeof *x->hold);
    if (!st)
        x->hold[x->nhold++] = (holder){job, machine};
    return st;
}

static pl_status dctx_init(dctx *x, const pl_policy_request *req)
{
    memset(x, 0, sizeof *x);
    x->req = req;
    pl_status st = pl_topo_clone(req->topo, &x->work);
    if (st)
        return st;
    x->nv = pl_topology_vertex_count(x->work);
    if ((st = pl_columns_alloc(x, vertex_cols, PL_NCOLUMNS(vertex_cols), (int64_t)x->nv + 1)))
        return st;
    for (int32_t v = 0; v < x->nv; v++)
        if (pl_topology_ancestor(x->work, v, PL_VK_MACHINE, &x->mach_of[v]) != PL_OK)
            x->mach_of[v] = -1;
    if ((st = pl_topo_list(x->work, -1, PL_VK_GPU, &x->gpus, &x->ngpus)) ||
        (st = pl_topo_list(x->work, -1, PL_VK_PACKAGE, &x->pkgs, &x->npkgs)) ||
        (st = pl_topo_list(x->work, -1, PL_VK_MACHINE, &x->machines, &x->nmach)) ||
        (st = mask_shared(x->work, x->gpus, x->ngpus)))
        return st;
    if ((st = pl_grow((void **)&x->run, &x->caprun, (int64_t)req->nrunning + 1, sizeof *x->run)))
        return st;
    if (req->nrunning > 0)
        memcpy(x->run, req->running, (size_t)req->nrunning * sizeof *x->run);
    x->nrun = req->nrunning;
    for (int32_t i = 0; i < req->nrunning && !st; i++)
        for (int32_t j = 0; j < req->running[i].ngpus && !st; j++)
            st = add_holder(x, req->running[i].job, x->mach_of[req->running[i].gpus[j]]);
    return st;
}

/* A job placed in this call joins the running jobs the next policy calls
 * see (its GPUs) and the holders of its machines. */
static pl_status add_placed(dctx *x, const pl_job *job, const int32_t *hosts, const int32_t *gpus, int32_t k)
{
    int32_t *g = pl_alloc((size_t)k + 1, sizeof *g), n = 0;
    pl_status st = g ? pl_grow((void **)&x->run, &x->caprun, (int64_t)x->nrun + 1, sizeof *x->run) : PL_ENOMEM;
    if (st) {
        free(g);
        return st;
    }
    for (int32_t t = 0; t < k; t++)
        if (gpus[t] >= 0)
            g[n++] = gpus[t];
    x->run[x->nrun++] = (pl_running_job){job, g, n};
    for (int32_t t = 0; t < k && !st; t++)
        st = add_holder(x, job, x->mach_of[hosts[t]]);
    return st;
}

/* ---- views -------------------------------------------------------------------------- */

/* Per task of the job (vtask is filled for the first nview only). */
static const pl_column task_cols[] = {PL_COLUMN(dview, vtask), PL_COLUMN(dview, vof), PL_COLUMN(dview, kind)};

static void dview_free(dview *w)
{
    pl_job_free(w->view);
    pl_columns_free(w, task_cols, PL_NCOLUMNS(task_cols));
    memset(w, 0, sizeof *w);
}

/* The GPU task CPU-only task t sits next to, or -1: the one it talks to
 * most (the first on a tie) among those it may share a machine with, such
 * that sharing adds no constraint between GPU tasks the job did not have:
 * a task t must avoid (anti-collocation) is a GPU task that the anchor
 * avoids already, and t has no such pair with another CPU-only task. If t
 * must share a machine with GPU tasks, the anchor is one of them. */
static int32_t pick_anchor(const pl_job *job, const dview *w, int32_t t)
{
    int32_t k = pl_job_task_count(job), best = -1, must_share = 0;
    double best_traffic = -1;
    for (int32_t u = 0; u < k; u++) {
        if (pl_job_anti_collocated(job, t, u) && w->kind[u] != KIND_GPU)
            return -1;
        if (u != t && w->kind[u] == KIND_GPU && pl_job_collocated(job, t, u) && !pl_job_single_node(job))
            must_share = 1;
    }
    for (int32_t b = 0; b < k; b++) {
        if (w->kind[b] != KIND_GPU || pl_job_anti_collocated(job, t, b) ||
            (must_share && !pl_job_collocated(job, t, b)))
            continue;
        int ok = 1;
        for (int32_t u = 0; u < k && ok; u++)
            if (u != b && pl_job_anti_collocated(job, t, u) && !pl_job_anti_collocated(job, b, u))
                ok = 0;
        double traffic = 0;
        pl_job_traffic(job, t, b, &traffic);
        if (ok && traffic > best_traffic) {
            best = b;
            best_traffic = traffic;
        }
    }
    return best;
}

/* Task pairs and node rules of the job on its view tasks (vof); pairs that
 * fall on one view task are trivially met (collocation) or were excluded
 * by pick_anchor (anti-collocation). */
static pl_status copy_constraints(const pl_job *job, const dview *w)
{
    pl_status st = PL_OK;
    int32_t k = pl_job_task_count(job);
    for (int32_t a = 0; a < k && !st; a++)
        for (int32_t b = a + 1; b < k && !st; b++) {
            int32_t va = w->vof[a], vb = w->vof[b];
            if (va < 0 || vb < 0 || va == vb)
                continue;
            if (pl_job_anti_collocated(job, a, b))
                st = pl_job_add_anti_collocation(w->view, va, vb);
            else if (!pl_job_single_node(job) && pl_job_collocated(job, a, b))
                st = pl_job_add_collocation(w->view, va, vb);
            double tr = 0;
            if (!st && pl_job_traffic(job, a, b, &tr) == PL_OK && tr > 0)
                st = pl_job_add_edge(w->view, va, vb, tr);
        }
    for (int32_t i = 0; i < pl_job_node_constraint_count(job) && !st; i++) {
        pl_node_constraint c;
        if ((st = pl_job_node_constraint(job, i, &c)))
            break;
        int32_t vt = c.task == PL_JOB_ALL_TASKS ? PL_JOB_ALL_TASKS : w->vof[c.task];
        if (c.task != PL_JOB_ALL_TASKS && vt < 0)
            continue;
        st = c.must_not ? pl_job_add_node_must_not(w->view, vt, c.key, c.value)
                        : pl_job_add_node_must(w->view, vt, c.key, c.value);
    }
    return st;
}

static pl_status build_view(const pl_job *job, dview *w)
{
    int32_t k = pl_job_task_count(job);
    memset(w, 0, sizeof *w);
    if (!pl_demand_special(job) || k == 0)
        return PL_OK;
    pl_status st = pl_columns_alloc(w, task_cols, PL_NCOLUMNS(task_cols), k);
    if (st)
        return st;
    pl_task_demand *dem = pl_alloc((size_t)k, sizeof *dem);
    if (!dem)
        return PL_ENOMEM;
    for (int32_t t = 0; t < k && !st; t++) {
        st = pl_job_task(job, t, &dem[t]);
        w->kind[t] = (uint8_t)task_kind(&dem[t]);
        w->vof[t] = -1;
        if (w->kind[t] == KIND_GPU)
            w->vof[t] = w->nview, w->vtask[w->nview++] = t;
    }
    /* The view's cores are whole cores (pl_task_cores): the policies know no millicores. */
    pl_task_demand *vd = st ? NULL : pl_alloc((size_t)w->nview + 1, sizeof *vd);
    if (!st && !vd)
        st = PL_ENOMEM;
    for (int32_t i = 0; i < w->nview && !st; i++) {
        vd[i] = dem[w->vtask[i]];
        vd[i].cores = pl_task_cores(&vd[i]);
        vd[i].cpu_milli = 0;
    }
    for (int32_t t = 0; t < k && !st && w->nview > 0; t++) {
        if (w->kind[t] != KIND_CPU || (w->vof[t] = pick_anchor(job, w, t)) < 0) {
            w->engine |= w->kind[t] != KIND_GPU;
            continue;
        }
        int32_t b = w->vof[t] = w->vof[w->vof[t]];
        int64_t c = pl_task_cores(&dem[t]);
        if (pl_add_ovf(vd[b].cores, c, &vd[b].cores) || pl_add_ovf(vd[b].memory, dem[t].memory, &vd[b].memory) ||
            pl_add_ovf(vd[b].bandwidth, dem[t].bandwidth, &vd[b].bandwidth))
            st = pl_err(PL_EOVERFLOW, "job \"%s\": the demand of task %d and its CPU-only tasks overflows",
                        pl_job_name(job), (int)w->vtask[b]);
    }
    if (w->nview == 0)
        w->engine = 1;
    if (!st && w->nview > 0)
        st = pl_job_create(pl_job_name(job), &w->view);
    for (int32_t i = 0; i < w->nview && !st; i++)
        st = pl_job_add_task(w->view, &vd[i], NULL);
    if (!st && w->view && !(st = pl_job_copy_goals(job, w->view)))
        st = copy_constraints(job, w);
    free(dem);
    free(vd);
    return st;
}

/* ---- what this file places itself ----------------------------------------------------- */

/* Whether task t of job may run on machine m with the tasks placed so far
 * (hosts[u] >= 0): node rules, task pairs, other jobs' anti-affinity. */
static int machine_ok(const dctx *x, const pl_job *job, int32_t t, int32_t m, const int32_t *hosts)
{
    if (m < 0 || !pl_job_task_admits(job, t, x->work, m))
        return 0;
    for (int32_t u = 0; u < pl_job_task_count(job); u++) {
        if (u == t || hosts[u] < 0)
            continue;
        int same = x->mach_of[hosts[u]] == m;
        if ((same && pl_job_anti_collocated(job, t, u)) || (!same && pl_job_collocated(job, t, u)))
            return 0;
    }
    for (int64_t i = 0; i < x->nhold; i++)
        if (x->hold[i].machine == m && x->hold[i].job != job && pl_job_anti_affine(job, x->hold[i].job))
            return 0;
    return 1;
}

/* Traffic between task t and the tasks placed under vertex v (by machine
 * when by_machine, else by package). */
static double traffic_to(const dctx *x, const pl_job *job, int32_t t, const int32_t *hosts, int32_t v,
                         int by_machine)
{
    double sum = 0;
    for (int32_t u = 0; u < pl_job_task_count(job); u++) {
        if (u == t || hosts[u] < 0)
            continue;
        int32_t at = x->mach_of[hosts[u]];
        if (!by_machine && pl_topology_ancestor(x->work, hosts[u], PL_VK_PACKAGE, &at) != PL_OK)
            continue;
        double tr = 0;
        if (at == v && pl_job_traffic(job, t, u, &tr) == PL_OK)
            sum += tr;
    }
    return sum;
}

static int uses_machine(const dctx *x, const pl_job *job, const int32_t *hosts, int32_t m)
{
    for (int32_t u = 0; u < pl_job_task_count(job); u++)
        if (hosts[u] >= 0 && x->mach_of[hosts[u]] == m)
            return 1;
    return 0;
}

/* Whether fractional task dem fits GPU g now: enough milli, and the unit
 * not held whole by anyone (a GPU shared already has its unit masked). */
static int frac_fits(const dctx *x, const pl_job *job, const pl_task_demand *dem, int32_t g, int64_t *left)
{
    int64_t ufree = 0, mused = 0, mfree = 0;
    pl_topology_amount(x->work, g, PL_RES_UNITS, NULL, NULL, &ufree);
    pl_topology_amount(x->work, g, PL_RES_GPU_MILLI, NULL, &mused, &mfree);
    *left = mfree;
    return mfree >= dem->gpu_milli && (ufree >= 1 || mused > 0) && pl_job_gpu_admits(job, x->work, g);
}

/* Plan task t on host v and allocate it in the work topology if it fits;
 * the items are appended to x->items. */
static pl_status try_host(dctx *x, const pl_job *job, int32_t t, int32_t v, int *ok)
{
    pl_plan_item *one = NULL;
    int64_t cap = 0;
    int32_t n = 0;
    *ok = 0;
    pl_status st = pl_plan_build_tasks(x->work, job, &t, &v, 1, &one, &cap, &n);
    if (!st && pl_plan_fits(x->work, one, n, 0)) {
        if (!(st = pl_grow((void **)&x->items, &x->capitems, (int64_t)x->nitems + n, sizeof *x->items))) {
            memcpy(x->items + x->nitems, one, (size_t)n * sizeof *one);
            x->nitems += n;
            st = pl_plan_alloc(x->work, one, n);
            *ok = !st;
        }
    }
    free(one);
    return st;
}

/* Rank of a host for task t, lower first: the job's own machines first,
 * then more traffic to the machine, then (fractional) the least milli left
 * that holds it, or (CPU) more traffic to the package; preorder breaks ties. */
typedef struct rank {
    int other;
    double mtraffic, ptraffic;
    int64_t left;
} rank;

static int rank_less(const rank *a, const rank *b)
{
    if (a->other != b->other)
        return a->other < b->other;
    if (a->mtraffic != b->mtraffic)
        return a->mtraffic > b->mtraffic;
    if (a->left != b->left)
        return a->left < b->left;
    return a->ptraffic > b->ptraffic;
}

/* Place task t (fractional or CPU-only) on its best host that fits, only on
 * machine only (-1: any), none of excluded[m] machines; *ok = 0 if none fits. */
static pl_status place_task(dctx *x, const pl_job *job, int32_t t, int32_t only, int32_t *hosts, int *ok)
{
    pl_task_demand dem;
    pl_status st = pl_job_task(job, t, &dem);
    if (st)
        return st;
    int frac = dem.gpu_milli > 0;
    const int32_t *cand = frac ? x->gpus : x->pkgs;
    int32_t ncand = frac ? x->ngpus : x->npkgs;
    uint8_t *tried = pl_alloc((size_t)ncand + 1, 1);
    if (!tried)
        return PL_ENOMEM;
    *ok = 0;
    /* Best first, and the next best when the best's package lacks the cores. */
    for (;;) {
        int32_t best = -1;
        rank rb = {0};
        for (int32_t i = 0; i < ncand; i++) {
            int32_t v = cand[i], m = x->mach_of[v];
            int64_t left = 0;
            if (tried[i] || (only >= 0 && m != only) || !machine_ok(x, job, t, m, hosts) ||
                (frac && !frac_fits(x, job, &dem, v, &left)))
                continue;
            rank r = {!uses_machine(x, job, hosts, m), traffic_to(x, job, t, hosts, m, 1),
                      frac ? 0 : traffic_to(x, job, t, hosts, v, 0), left};
            if (best < 0 || rank_less(&r, &rb)) {
                best = i;
                rb = r;
            }
        }
        if (best < 0)
            break;
        tried[best] = 1;
        if ((st = try_host(x, job, t, cand[best], ok)) || *ok) {
            if (*ok)
                hosts[t] = cand[best];
            break;
        }
    }
    free(tried);
    return st;
}

/* Place every task the view left out. A job that must share one machine
 * and has no GPU task placed by the policy tries the machines one by one
 * (the first where all of them fit). *ok = 0: nothing fits now (the work
 * topology is then restored by the caller). */
static pl_status place_rest(dctx *x, const pl_job *job, const dview *w, int32_t *hosts, int *ok)
{
    int32_t k = pl_job_task_count(job), classes = pl_job_task_classes(job, NULL);
    if (classes < 0)
        return PL_ENOMEM;
    int one = classes == 1, any = 0;
    for (int32_t t = 0; t < k; t++)
        any |= hosts[t] >= 0;
    pl_topology_snapshot *snap = NULL;
    int32_t keep = x->nitems;
    pl_status st = one && !any ? pl_topology_snapshot_take(x->work, &snap) : PL_OK;
    /* Each task on its best host, so the first task of a new job picks the
     * best-fit GPU of the whole cluster and the others follow it there. */
    *ok = 1;
    for (int32_t t = 0; t < k && *ok && !st; t++)
        if (hosts[t] < 0 && w->kind[t] != KIND_GPU)
            st = place_task(x, job, t, -1, hosts, ok);
    if (st || *ok || !snap) {
        pl_topology_snapshot_free(snap);
        return st;
    }
    /* One machine for all: the first machine where all of them fit. */
    for (int32_t t = 0; t < k; t++)
        hosts[t] = -1;
    x->nitems = keep;
    st = pl_topology_snapshot_restore(x->work, snap);
    for (int32_t i = 0; i < x->nmach && !st; i++) {
        *ok = 1;
        for (int32_t t = 0; t < k && *ok && !st; t++)
            st = place_task(x, job, t, x->machines[i], hosts, ok);
        if (st || *ok)
            break;
        for (int32_t t = 0; t < k; t++)
            hosts[t] = -1;
        x->nitems = keep;
        st = pl_topology_snapshot_restore(x->work, snap);
    }
    pl_topology_snapshot_free(snap);
    return st;
}

/* ---- rejections ------------------------------------------------------------------------ */

/* Why job can never be placed for a demand of this file, or NULL. */
static const char *never_fits(dctx *x, const pl_job *job, const dview *w)
{
    int32_t k = pl_job_task_count(job), whole = 0, most = 0;
    int64_t frac_max = 0;
    for (int32_t t = 0; t < k; t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) != PL_OK)
            continue;
        whole += w->kind[t] == KIND_GPU;
        frac_max = d.gpu_milli > frac_max ? d.gpu_milli : frac_max;
    }
    const char *model = pl_job_gpu_model(job);
    int any_model = 0, sharable = 0;
    for (int32_t i = 0; i < x->ngpus; i++)
        if (x->mach_of[x->gpus[i]] >= 0)
            x->count[x->mach_of[x->gpus[i]]] = 0;
    for (int32_t i = 0; i < x->ngpus; i++) {
        int32_t g = x->gpus[i], m = x->mach_of[g];
        if (!pl_job_gpu_admits(job, x->work, g))
            continue;
        any_model = 1;
        int64_t cap = 0;
        pl_topology_amount(x->work, g, PL_RES_GPU_MILLI, &cap, NULL, NULL);
        sharable |= cap >= frac_max;
        if (m >= 0 && ++x->count[m] > most)
            most = x->count[m];
    }
    if ((whole > 0 || frac_max > 0) && !any_model) {
        snprintf(x->reason, sizeof x->reason, "no GPU of model %s in the cluster (gpu_model)", model);
        return x->reason;
    }
    if (*model && pl_job_single_node(job) && whole > most) {
        snprintf(x->reason, sizeof x->reason, "needs %d GPUs of model %s on one machine; no machine has more "
                 "than %d", (int)whole, model, (int)most);
        return x->reason;
    }
    if (frac_max > 0 && !sharable) {
        snprintf(x->reason, sizeof x->reason, "no GPU%s%s can be shared by %lld thousandths (gpu-milli capacity)",
                 *model ? " of model " : "", model, (long long)frac_max);
        return x->reason;
    }
    if (w->engine && x->npkgs == 0) {
        for (int32_t t = 0; t < k; t++)
            if (w->kind[t] == KIND_CPU && w->vof[t] < 0)
                return "a CPU-only task needs a package (socket), and the topology has none";
    }
    return NULL;
}

/* ---- one job ----------------------------------------------------------------------------- */

/* Record job's placement: decision q of out, its plan (the policy's items
 * for its GPU tasks, then ours), and it joins the occupants. */
static pl_status record(dctx *x, pl_decision *out, int32_t q, const pl_job *job, const int32_t *hosts,
                        const pl_decision_info *inner)
{
    int32_t k = pl_job_task_count(job), *gpus = pl_alloc((size_t)k + 1, sizeof *gpus);
    if (!gpus)
        return PL_ENOMEM;
    int32_t machine = -2;
    for (int32_t t = 0; t < k; t++) {
        pl_task_demand d;
        pl_job_task(job, t, &d);
        gpus[t] = pl_task_cpu_only(&d) ? -1 : hosts[t];
        int32_t m = x->mach_of[hosts[t]];
        machine = machine == -2 || machine == m ? m : -1;
    }
    pl_decision_info info = {0};
    info.kind = PL_DECISION_PLACED;
    info.ngpus = k;
    info.gpus = gpus;
    info.hosts = hosts;
    info.machine = machine < 0 ? -1 : machine;
    info.utility = inner ? inner->utility : 1.0;
    info.comm_cost = inner ? inner->comm_cost : 0;
    info.slowdown = inner ? inner->slowdown : 1.0;
    pl_status st = pl_decision_set(out, q, &info);
    if (!st)
        st = pl_decision_set_plan(out, q, x->items, x->nitems);
    /* A GPU its fractional tasks now share is no longer free to the policies. */
    for (int32_t t = 0; t < k && !st; t++)
        if (gpus[t] >= 0 && partly_shared(x->work, gpus[t]))
            st = pl_topology_alloc(x->work, gpus[t], PL_RES_UNITS, 1);
    if (!st)
        st = add_placed(x, job, hosts, gpus, k);
    free(gpus);
    return st;
}

/* Decide job q (view w) from the policy's decision of its view (inner, or
 * NULL when it has no GPU task); the work topology gets its resources. */
static pl_status settle(dctx *x, pl_decision *out, int32_t q, const pl_job *job, const dview *w,
                        const pl_decision *d, int32_t di, const pl_job *asked, int *placed)
{
    *placed = 0;
    pl_decision_info in = {0};
    pl_status st = d ? pl_decision_get(d, di, &in) : PL_OK;
    if (st)
        return st;
    if (d && in.kind != PL_DECISION_PLACED) {
        pl_decision_info o = in;
        o.ngpus = 0;
        o.gpus = o.hosts = NULL;
        return pl_decision_set(out, q, &o);
    }
    x->nitems = 0;
    pl_plan_item *items = NULL;
    int32_t n = 0;
    if (d && (st = pl_decision_plan(d, di, x->work, asked, &items, &n)) == PL_OK) {
        if ((st = pl_grow((void **)&x->items, &x->capitems, n + 1, sizeof *x->items)) == PL_OK) {
            memcpy(x->items, items, (size_t)n * sizeof *items);
            x->nitems = n;
        }
    }
    free(items);
    if (st)
        return st;
    if (!w->vtask) {
        /* A job of whole-GPU tasks only: the policy's decision as it is. */
        if ((st = pl_plan_alloc(x->work, x->items, x->nitems)))
            return st;
        *placed = 1;
        in.hosts = NULL;
        if ((st = pl_decision_set(out, q, &in)) || (st = pl_decision_set_plan(out, q, x->items, x->nitems)) ||
            (st = pl_decision_set_remote(out, q, pl_decision_remote(d, di))))
            return st;
        return add_placed(x, job, in.gpus, in.gpus, in.ngpus);
    }
    int32_t k = pl_job_task_count(job), *hosts = pl_alloc((size_t)k + 1, sizeof *hosts);
    pl_topology_snapshot *snap = NULL;
    if (!hosts)
        return PL_ENOMEM;
    for (int32_t t = 0; t < k; t++) {
        hosts[t] = -1;
        if (w->kind[t] == KIND_GPU)
            hosts[t] = in.gpus[w->vof[t]];
    }
    /* A CPU-only task joined to a GPU task runs on that GPU's package. */
    for (int32_t t = 0; t < k; t++)
        if (w->kind[t] == KIND_CPU && w->vof[t] >= 0 &&
            pl_topology_ancestor(x->work, in.gpus[w->vof[t]], PL_VK_PACKAGE, &hosts[t]) != PL_OK)
            hosts[t] = x->mach_of[in.gpus[w->vof[t]]];
    int ok = 1;
    if (!(st = pl_topology_snapshot_take(x->work, &snap)) && !(st = pl_plan_alloc(x->work, x->items, x->nitems)) &&
        w->engine)
        st = place_rest(x, job, w, hosts, &ok);
    if (!st && ok) {
        *placed = 1;
        st = record(x, out, q, job, hosts, d ? &in : NULL);
    } else if (!st) {
        st = pl_topology_snapshot_restore(x->work, snap);
        const char *why = d ? "its GPU tasks fit, but its fractional GPU or CPU-only tasks find no room "
                              "next to them now"
                            : "no room now for its fractional GPU or CPU-only tasks";
        if (!st)
            st = pl_decision_set_kind(out, q, PL_DECISION_WAITING, why);
    }
    pl_topology_snapshot_free(snap);
    free(hosts);
    return st;
}

/* ---- the policy calls ------------------------------------------------------------------ */

/* The policy on queue[i..j) (views where they have one) over the work
 * topology, plus, for a job with a GPU model, its other GPUs taken. */
static pl_status call_policy(dctx *x, const pl_policy_ops *ops, const pl_policy_opts *opts,
                             pl_job *const *asked, int32_t n, const pl_job *model_job, pl_decision **d)
{
    pl_topology *t = x->work, *masked = NULL;
    pl_status st = PL_OK;
    if (model_job) {
        if ((st = pl_topo_clone(x->work, &masked)))
            return st;
        for (int32_t i = 0; i < x->ngpus && !st; i++) {
            int64_t fr = 0;
            pl_topology_amount(masked, x->gpus[i], PL_RES_UNITS, NULL, NULL, &fr);
            if (fr > 0 && !pl_job_gpu_admits(model_job, masked, x->gpus[i]))
                st = pl_topology_alloc(masked, x->gpus[i], PL_RES_UNITS, fr);
        }
        t = masked;
    }
    pl_policy_request r = *x->req;
    r.opts = opts;
    r.topo = t;
    r.running = x->run;
    r.nrunning = x->nrun;
    r.queue = asked;
    r.nqueue = n;
    if (!st)
        st = pl_decision_create_internal(n, d);
    if (!st && (st = ops->place(&r, *d))) {
        pl_decision_free(*d);
        *d = NULL;
    }
    pl_topology_free(masked);
    return st;
}

/* Jobs that can be decided together with their neighbours in one call: a
 * view (or the job) whose placement the policy plans entirely. */
static int batchable(const pl_job *job, const dview *w)
{
    return !w->vtask || (!w->engine && !*pl_job_gpu_model(job));
}

static pl_status run(dctx *x, const pl_policy_ops *ops, pl_decision *out, dview *w, pl_job **asked)
{
    const pl_policy_request *req = x->req;
    pl_policy_opts o = *req->opts;
    int32_t placed = 0;
    pl_status st = PL_OK;
    for (int32_t i = 0; i < req->nqueue && !st;) {
        const pl_job *job = req->queue[i];
        if (req->opts->max_placed > 0 && placed >= req->opts->max_placed) {
            snprintf(x->reason, sizeof x->reason, "max_placed (%d) jobs already placed in this call",
                     (int)req->opts->max_placed);
            st = pl_decision_set_kind(out, i++, PL_DECISION_WAITING, x->reason);
            continue;
        }
        const char *why = w[i].vtask ? never_fits(x, job, &w[i]) : NULL;
        int was = 0;
        if (why) {
            st = pl_decision_set_kind(out, i++, PL_DECISION_REJECTED, why);
            continue;
        }
        if (!asked[i]) {
            st = settle(x, out, i, job, &w[i], NULL, 0, NULL, &was);
            placed += was;
            i++;
            continue;
        }
        int32_t j = i + 1;
        if (batchable(job, &w[i]))
            while (j < req->nqueue && asked[j] && batchable(req->queue[j], &w[j]) &&
                   !(w[j].vtask && never_fits(x, req->queue[j], &w[j])))
                j++;
        if (req->opts->max_placed > 0)
            o.max_placed = req->opts->max_placed - placed;
        pl_decision *d = NULL;
        st = call_policy(x, ops, &o, asked + i, j - i, *pl_job_gpu_model(job) ? job : NULL, &d);
        for (int32_t q = i; q < j && !st; q++) {
            st = settle(x, out, q, req->queue[q], &w[q], d, q - i, asked[q], &was);
            placed += was;
        }
        pl_decision_free(d);
        i = j;
    }
    return st;
}

/* A policy that takes the jobs as they are (PL_POLICY_CPU_JOBS), on the
 * topology with the GPUs fractional tasks share masked. */
static pl_status place_as_is(const pl_policy_ops *ops, const pl_policy_request *req, pl_decision *out)
{
    pl_topology *t = NULL;
    int32_t *gpus = NULL, ng = 0;
    pl_status st = pl_topo_clone(req->topo, &t);
    if (!st)
        st = pl_topo_list(t, -1, PL_VK_GPU, &gpus, &ng);
    if (!st)
        st = mask_shared(t, gpus, ng);
    pl_policy_request r = *req;
    r.topo = t;
    if (!st)
        st = ops->place(&r, out);
    free(gpus);
    pl_topology_free(t);
    return st;
}

pl_status pl_demand_plain(const pl_topology *t, pl_job *const *queue, int32_t n, int *plain)
{
    *plain = 1;
    for (int32_t i = 0; i < n && *plain; i++)
        *plain = !pl_demand_special(queue[i]);
    int32_t *gpus = NULL, ng = 0;
    pl_status st = *plain ? pl_topo_list(t, -1, PL_VK_GPU, &gpus, &ng) : PL_OK;
    for (int32_t i = 0; i < ng && *plain && !st; i++)
        *plain = !partly_shared(t, gpus[i]);
    free(gpus);
    return st;
}

pl_status pl_demand_place(const pl_policy_ops *ops, const pl_policy_request *req, pl_decision *out)
{
    /* A policy placing CPU-only jobs itself sees the jobs as they are; only
     * shared GPUs are masked for it (place_as_is). */
    int plain = 0, as_is = ops->version >= 2 && (ops->flags & PL_POLICY_CPU_JOBS);
    pl_status st = pl_demand_plain(req->topo, req->queue, as_is ? 0 : req->nqueue, &plain);
    if (st)
        return st;
    /* Nothing for this file to do: the policy's decisions, untouched. */
    if (plain)
        return ops->place(req, out);
    if (as_is)
        return place_as_is(ops, req, out);
    dctx x = {0};
    dview *w = pl_alloc((size_t)req->nqueue + 1, sizeof *w);
    pl_job **asked = pl_alloc((size_t)req->nqueue + 1, sizeof *asked);
    st = !w || !asked ? PL_ENOMEM : dctx_init(&x, req);
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        st = build_view(req->queue[i], &w[i]);
        asked[i] = w[i].vtask ? w[i].view : req->queue[i];
    }
    if (!st)
        st = run(&x, ops, out, w, asked);
    for (int32_t i = 0; w && i < req->nqueue; i++)
        dview_free(&w[i]);
    free(w);
    free(asked);
    dctx_free(&x);
    return st;
}
