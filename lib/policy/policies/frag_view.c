/* The fragmentation-model policies as library policies: any topology is
 * seen as nodes (frag.h), any queued job as a pod, and the pods are decided
 * in queue order. The policies take jobs as they are (PL_POLICY_CPU_JOBS:
 * they place fractional and CPU-only tasks themselves), so the demand layer
 * only hides whole GPUs partly shared, and the view reads the milli left.
 *
 * A call has no request distribution of its own: fgd and fgd-coarse
 * measure fragmentation against the running and queued jobs of the call
 * (the workload the scheduler knows); the saturation driver (lib/sim)
 * gives them the whole workload's, as the paper does. */
#include <stdlib.h>
#include <string.h>
#include "internal/frag.h"
#include "internal/policy_impl.h"
#include "internal/topology_internal.h"

/* The GPU model of g: its attribute "model", or its nearest ancestor's
 * "gpu_model" (job.h's rule). */
static const char *gpu_model(const pl_topology *t, int32_t g)
{
    const char *m = pl_topology_attr(t, g, "model");
    pl_vertex_info vi;
    for (int32_t v = g; !m && v >= 0 && pl_topology_vertex(t, v, &vi) == PL_OK; v = vi.parent)
        m = pl_topology_attr(t, v, "gpu_model");
    return m;
}

/* A resource the subtree does not model (capacity 0) is never short. */
static int64_t free_of(const pl_topology *t, int32_t m, int kind, pl_resource r)
{
    int64_t cap = 0, fr = 0;
    pl_topology_subtree_amount(t, m, kind, r, &cap, &fr);
    return cap == 0 ? INT64_MAX / 4 : fr;
}

/* Machine m as a node: its GPUs, cores and NUMA memory summed (a task's
 * cores are taken on its GPU's package: pl_fpolicy_place() checks the real
 * plan before it keeps a choice); CPU-only tasks go to package pkg. */
static pl_status node_of(pl_fstate *s, const pl_topology *t, int32_t m, int32_t pkg, pl_fnode *n)
{
    memset(n, 0, sizeof *n);
    n->vertex = m;
    n->pkg = pkg;
    n->model = -1;
    int32_t root = m, *v = NULL, nv = 0;
    int64_t cores = free_of(t, root, PL_VK_PACKAGE, PL_RES_CORES);
    n->cpu_left = n->cpu_cap = cores >= INT64_MAX / 4 ? cores : cores * 1000;
    n->mem_left = n->mem_cap = free_of(t, root, PL_VK_NUMA, PL_RES_MEMORY);
    pl_status st = pl_topo_list(t, root, PL_VK_GPU, &v, &nv);
    if (st)
        return st;
    for (int32_t i = 0; i < nv && n->ngpu < PL_FRAG_MAXG; i++) {
        int64_t units = 0, mcap = 0, mfree = 0;
        pl_topology_amount(t, v[i], PL_RES_UNITS, NULL, NULL, &units);
        pl_topology_amount(t, v[i], PL_RES_GPU_MILLI, &mcap, NULL, &mfree);
        /* Unshared GPUs (milli capacity 0) count whole or nothing. */
        int64_t left = mcap > 0 ? mfree * 1000 / mcap : units > 0 ? 1000 : 0;
        const char *model = gpu_model(t, v[i]);
        int32_t id = model ? pl_fstate_model(s, model) : -1;
        if (n->ngpu == 0)
            n->model = id;
        else if (id != n->model)
            n->mixed = 1;
        n->gmodel[n->ngpu] = id;
        n->gpu_vertex[n->ngpu] = v[i];
        n->left[n->ngpu++] = (int32_t)(left > 1000 ? 1000 : left);
    }
    free(v);
    return PL_OK;
}

pl_status pl_fpod_from_job(pl_fstate *s, const pl_job *job, int whole_cores, pl_fpod *p)
{
    memset(p, 0, sizeof *p);
    int32_t whole = 0, frac = 0;
    for (int32_t i = 0; i < pl_job_task_count(job); i++) {
        pl_task_demand d;
        pl_status st = pl_job_task(job, i, &d);
        if (st)
            return st;
        if (d.gpu_milli > 0) {
            frac++;
            p->milli = (int32_t)d.gpu_milli;
        } else if (d.gpus > 0) {
            /* A task of several GPUs gives the pod that many (too many are refused below). */
            whole += d.gpus > PL_FRAG_MAXG ? PL_FRAG_MAXG + 1 : (int32_t)d.gpus;
        }
        p->cpu += whole_cores ? 1000 * pl_task_cores(&d) : 1000 * d.cores + d.cpu_milli;
        p->mem += d.memory;
    }
    if (frac > 1 || (frac == 1 && whole > 0))
        return pl_err(PL_EINVAL, "a pod takes whole GPUs or a share of one GPU, not %d shares and %d GPUs",
                      (int)frac, (int)whole);
    if (whole > PL_FRAG_MAXG)
        return pl_err(PL_EINVAL, "%d GPUs in one pod (at most %d)", (int)whole, PL_FRAG_MAXG);
    p->ngpu = frac ? 1 : whole;
    if (whole)
        p->milli = 1000;
    pl_fstate_pod_models(s, pl_job_gpu_model(job), p);
    return PL_OK;
}

pl_status pl_fstate_from_topology(pl_fstate *s, const pl_topology *t)
{
    int32_t *m = NULL, nm = 0, total = 0;
    pl_status st = pl_topo_list(t, -1, PL_VK_MACHINE, &m, &nm);
    int32_t **pk = st ? NULL : pl_alloc((size_t)nm + 1, sizeof *pk), *npk = st ? NULL : pl_alloc((size_t)nm + 1, sizeof *npk);
    if (!st && (!pk || !npk))
        st = PL_ENOMEM;
    for (int32_t i = 0; i < nm && !st; i++) {
        st = pl_topo_list(t, m[i], PL_VK_PACKAGE, &pk[i], &npk[i]);
        total++;
    }
    if (!st && (!(s->node = pl_alloc((size_t)total + 1, sizeof *s->node)) ||
                !(s->cand = pl_alloc((size_t)total + 1, sizeof *s->cand)) ||
                !(s->score = pl_alloc((size_t)total + 1, sizeof *s->score)) ||
                !(s->cgpu = pl_alloc((size_t)total + 1, sizeof *s->cgpu))))
        st = PL_ENOMEM;
    for (int32_t i = 0; i < nm && !st; i++) {
        pl_fnode *n = &s->node[s->nnode++];
        if (!(st = node_of(s, t, m[i], npk[i] > 0 ? pk[i][0] : -1, n)))
            for (int32_t g = 0; g < n->ngpu; g++) {
                s->total_milli += 1000;
                s->used_milli += 1000 - n->left[g];
            }
    }
    for (int32_t i = 0; pk && i < nm; i++)
        free(pk[i]);
    free(pk);
    free(npk);
    free(m);
    return st;
}

static pl_status build(pl_fstate *s, const pl_policy_request *req, int uses_typical)
{
    pl_status st = pl_fstate_from_topology(s, req->topo);
    s->rng = req->opts->seed;
    if (st || !uses_typical)
        return st;
    int32_t n = req->nrunning + req->nqueue, k = 0;
    pl_fpod *pods = pl_alloc((size_t)n + 1, sizeof *pods);
    if (!pods)
        return PL_ENOMEM;
    for (int32_t i = 0; i < n; i++) {
        const pl_job *job = i < req->nrunning ? req->running[i].job : req->queue[i - req->nrunning];
        if (pl_fpod_from_job(s, job, 0, &pods[k]) == PL_OK)
            k++;
    }
    st = pl_fstate_set_typical(s, pods, k, 0.95);
    if (!st && uses_typical > 1)
        st = pl_fstate_set_prices(s, pods, k);
    free(pods);
    return st;
}

/* Decision q: the pod's tasks on the chosen node, in task order. */
static pl_status decide(pl_fstate *s, const pl_job *job, const pl_fchoice *c, pl_decision *out, int32_t q)
{
    const pl_fnode *n = &s->node[c->node];
    int32_t nt = pl_job_task_count(job), used = 0;
    int32_t *gpus = pl_alloc((size_t)nt + 1, sizeof *gpus), *hosts = pl_alloc((size_t)nt + 1, sizeof *hosts);
    pl_status st = !gpus || !hosts ? PL_ENOMEM : PL_OK;
    for (int32_t i = 0; i < nt && !st; i++) {
        pl_task_demand d;
        if ((st = pl_job_task(job, i, &d)))
            break;
        if (d.gpus == 0 && d.gpu_milli == 0) {
            if (n->pkg < 0) {
                st = pl_decision_set_kind(out, q, PL_DECISION_REJECTED, "a CPU-only task on a machine without a package");
                free(gpus);
                free(hosts);
                return st == PL_OK ? PL_EINFEASIBLE : st;
            }
            gpus[i] = -1;
            hosts[i] = n->pkg;
        } else {
            gpus[i] = hosts[i] = n->gpu_vertex[c->gpu[used < c->ngpu ? used : 0]];
            used++;
        }
    }
    if (!st) {
        pl_decision_info info = {0};
        info.kind = PL_DECISION_PLACED;
        info.ngpus = nt;
        info.gpus = gpus;
        info.hosts = hosts;
        info.machine = n->vertex;
        info.utility = 1;
        info.slowdown = 1;
        info.reason = "";
        st = pl_decision_set(out, q, &info);
    }
    free(gpus);
    free(hosts);
    return st;
}

/* Jobs with placement constraints (node Must/MustNot, filters, anti-
 * collocation, labels) are decided by "topo-aware", which honours them all
 * (placement/policy.h): on a copy of the topology carrying this call's
 * earlier placements; the nodes are then read again from that copy. */
typedef struct delegate_ctx {
    pl_topology *work;
    int32_t applied;  /* decisions 0 .. applied-1 are on work */
} delegate_ctx;

static pl_status apply_one(const pl_policy_request *req, pl_decision *out, int32_t i, pl_topology *work)
{
    pl_decision_info info;
    pl_decision *one = NULL;
    pl_status st = pl_decision_get(out, i, &info);
    if (st || info.kind != PL_DECISION_PLACED)
        return st;
    if (!(st = pl_decision_create_internal(1, &one)) && !(st = pl_decision_set(one, 0, &info)))
        st = pl_decision_apply(one, &req->queue[i], 1, work);
    pl_decision_free(one);
    return st;
}

static pl_status delegate(pl_fstate *s, const pl_policy_request *req, pl_decision *out, int32_t q, delegate_ctx *x)
{
    pl_status st = PL_OK;
    if (!x->work && (st = pl_topology_copy(req->topo, &x->work)))
        return st;
    for (; x->applied < q && !st; x->applied++)
        st = apply_one(req, out, x->applied, x->work);
    pl_policy_opts o = *req->opts;
    o.policy = "topo-aware";
    o.policy_opts = NULL;
    pl_decision *d = NULL;
    pl_decision_info info;
    /* This call's placed jobs run too (anti-affinity between jobs). */
    int32_t nr = req->nrunning;
    pl_running_job *run = pl_alloc((size_t)(req->nrunning + q) + 1, sizeof *run);
    int32_t *gbuf = NULL;
    int64_t ng = 0;
    for (int32_t i = 0; i < q && !st; i++)
        if (!(st = pl_decision_get(out, i, &info)) && info.kind == PL_DECISION_PLACED)
            ng += info.ngpus;
    if (!st && (!run || !(gbuf = pl_alloc((size_t)ng + 1, sizeof *gbuf))))
        st = PL_ENOMEM;
    if (!st && req->nrunning)
        memcpy(run, req->running, (size_t)req->nrunning * sizeof *run);
    for (int32_t i = 0, used = 0; i < q && !st; i++) {
        if ((st = pl_decision_get(out, i, &info)) || info.kind != PL_DECISION_PLACED)
            continue;
        int32_t k = 0;
        for (int32_t j = 0; j < info.ngpus; j++)
            if (info.gpus[j] >= 0)
                gbuf[used + k++] = info.gpus[j];
        if (k > 0)
            run[nr++] = (pl_running_job){req->queue[i], gbuf + used, k};
        used += k;
    }
    if (!st)
        st = pl_policy_place(&o, x->work, run, nr, &req->queue[q], 1, &d);
    free(run);
    free(gbuf);
    if (!st)
        st = pl_decision_get(d, 0, &info);
    if (!st && info.kind == PL_DECISION_PLACED)
        st = pl_decision_set(out, q, &info);
    else if (!st)
        st = pl_decision_set_kind(out, q, info.kind, info.reason);
    pl_decision_free(d);
    if (!st)
        st = apply_one(req, out, q, x->work);
    x->applied = q + 1;
    if (st)
        return st;
    /* The nodes as they now are. */
    free(s->node);
    free(s->cand);
    free(s->score);
    free(s->cgpu);
    s->node = NULL;
    s->cand = s->cgpu = NULL;
    s->score = NULL;
    s->nnode = 0;
    s->total_milli = s->used_milli = 0;
    return pl_fstate_from_topology(s, x->work);
}

/* Whether decision q's resources (policy.h's rule: cores on each GPU's
 * package) are free on work. */
static pl_status plan_fits(const pl_policy_request *req, pl_decision *out, int32_t q, pl_topology *work, int *ok)
{
    pl_plan_item *items = NULL;
    int32_t n = 0;
    pl_decision_info info;
    pl_status st = pl_decision_get(out, q, &info);
    if (!st)
        st = pl_plan_build(work, req->queue[q], info.hosts, info.ngpus, &items, &n);
    *ok = !st && pl_plan_fits(work, items, n, 0);
    free(items);
    return st;
}

pl_status pl_fpolicy_place(const pl_fpolicy *pol, const pl_policy_request *req, pl_decision *out)
{
    pl_fstate s = {0};
    delegate_ctx x = {0};
    pl_status st = build(&s, req, pol->uses_typical);
    if (!st)
        st = pl_topology_copy(req->topo, &x.work);
    for (int32_t q = 0; q < req->nqueue && !st; q++) {
        pl_fpod p;
        pl_fchoice c;
        if (pl_job_has_constraints(req->queue[q])) {
            st = delegate(&s, req, out, q, &x);
            continue;
        }
        if (pl_fpod_from_job(&s, req->queue[q], 1, &p) != PL_OK) {
            st = pl_decision_set_kind(out, q, PL_DECISION_REJECTED, pl_last_error());
            continue;
        }
        /* A node whose summed cores hold the pod but whose packages do not
         * (for the GPUs chosen) is left out and the choice made again. */
        int32_t tries = 0, *out_nodes = pl_alloc((size_t)s.nnode + 1, sizeof *out_nodes);
        int64_t *saved = pl_alloc((size_t)s.nnode + 1, sizeof *saved);
        int ok = 0;
        if (!out_nodes || !saved)
            st = PL_ENOMEM;
        while (!st && !ok) {
            if ((st = pl_fstate_choose(&s, pol, &p, &c)) || c.node < 0)
                break;
            if ((st = decide(&s, req->queue[q], &c, out, q)) == PL_EINFEASIBLE) {
                st = PL_OK;
                ok = -1;
                break;
            }
            if (!st && !(st = plan_fits(req, out, q, x.work, &ok)) && !ok) {
                out_nodes[tries] = c.node;
                saved[tries++] = s.node[c.node].cpu_left;
                s.node[c.node].cpu_left = -1;
            }
        }
        for (int32_t k = tries - 1; k >= 0; k--)
            s.node[out_nodes[k]].cpu_left = saved[k];
        free(out_nodes);
        free(saved);
        if (st || ok < 0)
            continue;
        if (!ok) {
            st = pl_decision_set_kind(out, q, PL_DECISION_WAITING,
                                      "no machine has the cores, memory, GPU model and GPUs the pod asks for now");
            continue;
        }
        pl_fstate_apply(&s, &p, &c);
        st = apply_one(req, out, q, x.work);
        x.applied = q + 1;
    }
    pl_topology_free(x.work);
    pl_fstate_free(&s);
    return st;
}
