/* pl_disagg_cluster: resources, options, queries, and applying / releasing
 * placement decisions (include/placement/disagg.h). */
#include <stdlib.h>
#include <string.h>
#include "disagg_impl.h"
#include "internal/columns.h"

#define MB 1000000LL
#define GB 1000000000LL

/* ---- life cycle ----------------------------------------------------------------- */

void pl_disagg_opts_init(pl_disagg_opts *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->perf = PL_DISAGG_PERF_TABLE;
    o->smufin_m = 0.98;
    o->bw_peak_bytes_per_s = 6000 * MB;
    o->max_composition = 3;
    o->node_order = PL_DISAGG_LEAST_USED_FIRST;
    o->nvme_beta_cores = 6;
    o->vgpu_step_s = 0;
}

pl_status pl_disagg_cluster_create(pl_disagg_cluster **out)
{
    pl_status st = pl_create_zeroed("pl_disagg_cluster_create", (void **)out, sizeof **out);
    if (!st)
        pl_disagg_opts_init(&(*out)->opts);
    return st;
}

/* Each grown on its own by pl_grow(), freed together. */
static const pl_column owned_cols[] = {
    PL_COLUMN(pl_disagg_cluster, nodes), PL_COLUMN(pl_disagg_cluster, nvme),
    PL_COLUMN(pl_disagg_cluster, comps), PL_COLUMN(pl_disagg_cluster, gpus),
    PL_COLUMN(pl_disagg_cluster, places),
};

void pl_disagg_cluster_free(pl_disagg_cluster *c)
{
    if (!c)
        return;
    pl_columns_free(c, owned_cols, PL_NCOLUMNS(owned_cols));
    free(c);
}

/* A what-if copy: a policy decides several workloads of one round on it
 * (each decision sees the ones before) and the live cluster stays as it is. */
pl_status pl_disagg_cluster_copy(const pl_disagg_cluster *c, pl_disagg_cluster **out)
{
    if (!c || !out)
        return pl_err(PL_EINVAL, "pl_disagg_cluster_copy: NULL argument");
    pl_disagg_cluster *d = NULL;
    pl_status st = pl_disagg_cluster_create(&d);
    if (st)
        return st;
    *d = *c;
    d->nodes = NULL;
    d->nvme = NULL;
    d->comps = NULL;
    d->gpus = NULL;
    d->places = NULL;
    const int64_t rows[] = {c->nnodes, c->nnvme, c->ncomps, c->ngpus, c->nplaces - c->place0};
    for (size_t k = 0; k < PL_NCOLUMNS(owned_cols) && !st; k++)
        st = pl_columns_copy(d, c, &owned_cols[k], 1, rows[k]);
    d->cap_nodes = c->nnodes;
    d->cap_nvme = c->nnvme;
    d->cap_comps = c->ncomps;
    d->cap_gpus = c->ngpus;
    d->cap_places = c->nplaces - c->place0;
    return PL_HAND_OUT(st, d, pl_disagg_cluster_free, out);
}

void pl_disagg_running_demand(const pl_disagg_cluster *c, double *bw, double *cap)
{
    for (int64_t i = c ? c->place0 : 0; c && i < c->nplaces; i++)
        if (dg_place_at(c, i)->alive) {
            *bw += (double)dg_place_at(c, i)->w.nvme_bw_bytes_per_s;
            *cap += (double)dg_place_at(c, i)->w.nvme_cap_bytes;
        }
}

pl_status pl_disagg_cluster_thesis(int with_gpu, pl_disagg_cluster **out)
{
    pl_disagg_cluster *c = NULL;
    pl_status st = pl_disagg_cluster_create(&c);
    for (int i = 0; st == PL_OK && i < 5; i++)
        st = pl_disagg_add_node(c, 25, 0, NULL);
    for (int i = 0; st == PL_OK && i < 10; i++)
        st = pl_disagg_add_nvme(c, 2000 * MB, 600 * GB, NULL);
    if (st == PL_OK && with_gpu) {
        static const int32_t t4[] = {1, 2, 4};
        st = pl_disagg_add_gpu(c, 4000 * MB, 16 * GB, t4, 3, NULL);
    }
    return PL_HAND_OUT(st, c, pl_disagg_cluster_free, out);
}

pl_status pl_disagg_add_node(pl_disagg_cluster *c, int32_t cores, int64_t mem_bytes, int32_t *id)
{
    if (!c || cores < 0 || mem_bytes < 0)
        return pl_err(PL_EINVAL, "pl_disagg_add_node: NULL cluster or negative size");
    if (pl_grow((void **)&c->nodes, &c->cap_nodes, c->nnodes + 1, sizeof *c->nodes) != PL_OK)
        return PL_ENOMEM;
    c->nodes[c->nnodes] = (dg_node){cores, cores, mem_bytes, mem_bytes};
    if (id)
        *id = (int32_t)c->nnodes;
    c->nnodes++;
    return PL_OK;
}

pl_status pl_disagg_add_nvme(pl_disagg_cluster *c, int64_t bw, int64_t cap, int32_t *id)
{
    if (!c || bw <= 0 || cap <= 0)
        return pl_err(PL_EINVAL, "pl_disagg_add_nvme: NULL cluster or non-positive bandwidth/capacity");
    if (pl_grow((void **)&c->nvme, &c->cap_nvme, c->nnvme + 1, sizeof *c->nvme) != PL_OK)
        return PL_ENOMEM;
    c->nvme[c->nnvme] = (dg_nvme){bw, cap, -1, -1};
    if (id)
        *id = (int32_t)c->nnvme;
    c->nnvme++;
    return PL_OK;
}

pl_status pl_disagg_add_nvme_at(pl_disagg_cluster *c, int64_t bw, int64_t cap, int32_t node,
                                int32_t *id)
{
    if (c && (node < 0 || node >= c->nnodes))
        return pl_err(PL_EINVAL, "pl_disagg_add_nvme_at: no node %d", (int)node);
    int32_t v = 0;
    pl_status st = pl_disagg_add_nvme(c, bw, cap, &v);
    if (st != PL_OK)
        return st;
    c->nvme[v].home = node;
    if (id)
        *id = v;
    return PL_OK;
}

pl_status pl_disagg_add_gpu(pl_disagg_cluster *c, int64_t bw, int64_t mem, const int32_t *splits,
                            int32_t n_splits, int32_t *id)
{
    if (!c || bw <= 0 || mem <= 0)
        return pl_err(PL_EINVAL, "pl_disagg_add_gpu: NULL cluster or non-positive bandwidth/memory");
    int32_t probe = 0;
    pl_status st = pl_disagg_split_count(bw, mem, 0, 0, splits, n_splits, &probe);
    if (st != PL_OK)
        return st;
    if (pl_grow((void **)&c->gpus, &c->cap_gpus, c->ngpus + 1, sizeof *c->gpus) != PL_OK)
        return PL_ENOMEM;
    dg_gpu *g = &c->gpus[c->ngpus];
    *g = (dg_gpu){.bw = bw, .mem = mem, .n_splits = n_splits, .home = -1};
    memcpy(g->splits, splits, (size_t)n_splits * sizeof *splits);
    for (int i = 0; i < PL_DISAGG_MAX_VGPU; i++)
        g->vgpu_job[i] = -1;
    if (id)
        *id = (int32_t)c->ngpus;
    c->ngpus++;
    return PL_OK;
}

pl_status pl_disagg_add_gpu_at(pl_disagg_cluster *c, int64_t bw, int64_t mem, const int32_t *splits,
                               int32_t n_splits, int32_t node, int32_t *id)
{
    if (c && (node < 0 || node >= c->nnodes))
        return pl_err(PL_EINVAL, "pl_disagg_add_gpu_at: no node %d", (int)node);
    int32_t g = 0;
    pl_status st = pl_disagg_add_gpu(c, bw, mem, splits, n_splits, &g);
    if (st != PL_OK)
        return st;
    c->gpus[g].home = node;
    if (id)
        *id = g;
    return PL_OK;
}

void pl_disagg_counts(const pl_disagg_cluster *c, int32_t *nodes, int32_t *nvme, int32_t *gpus)
{
    if (nodes)
        *nodes = c ? (int32_t)c->nnodes : 0;
    if (nvme)
        *nvme = c ? (int32_t)c->nnvme : 0;
    if (gpus)
        *gpus = c ? (int32_t)c->ngpus : 0;
}

pl_status pl_disagg_cluster_totals(const pl_disagg_cluster *c, pl_disagg_totals *out)
{
    if (!c || !out)
        return pl_err(PL_EINVAL, "pl_disagg_cluster_totals: NULL argument");
    memset(out, 0, sizeof *out);
    pl_disagg_counts(c, &out->nodes, &out->nvme, &out->gpus);
    for (int64_t i = 0; i < c->nnodes; i++) {
        out->cores += c->nodes[i].cores;
        out->mem_bytes += c->nodes[i].mem;
    }
    for (int64_t i = 0; i < c->nnvme; i++) {
        out->nvme_bw_bytes_per_s += c->nvme[i].bw;
        out->nvme_cap_bytes += c->nvme[i].cap;
    }
    for (int64_t i = 0; i < c->ngpus; i++) {
        out->gpu_bw_bytes_per_s += c->gpus[i].bw;
        out->gpu_mem_bytes += c->gpus[i].mem;
    }
    return PL_OK;
}

pl_status pl_disagg_set_opts(pl_disagg_cluster *c, const pl_disagg_opts *o)
{
    if (!c || !o)
        return pl_err(PL_EINVAL, "pl_disagg_set_opts: NULL argument");
    if ((unsigned)o->perf > PL_DISAGG_PERF_PARAMETRIC || (unsigned)o->node_order > PL_DISAGG_MOST_USED_FIRST)
        return pl_err(PL_EINVAL, "pl_disagg_set_opts: unknown perf or node_order");
    if (!(o->smufin_m > 0) || o->bw_peak_bytes_per_s <= 0)
        return pl_err(PL_EINVAL, "pl_disagg_set_opts: smufin_m and bw_peak must be positive");
    if (o->max_composition < 1 || o->max_composition > PL_DISAGG_MAX_COMPOSE)
        return pl_err(PL_EINVAL, "pl_disagg_set_opts: max_composition %d outside [1, %d]",
                      (int)o->max_composition, PL_DISAGG_MAX_COMPOSE);
    if (o->nvme_beta_cores <= 0 || !(o->vgpu_step_s >= 0))
        return pl_err(PL_EINVAL, "pl_disagg_set_opts: need nvme_beta_cores > 0, vgpu_step_s >= 0");
    c->opts = *o;
    return PL_OK;
}

/* ---- queries -------------------------------------------------------------------- */

pl_status pl_disagg_node_free(const pl_disagg_cluster *c, int32_t node, int32_t *cores,
                              int64_t *mem_bytes)
{
    if (!c || node < 0 || node >= c->nnodes)
        return pl_err(PL_EINVAL, "pl_disagg_node_free: no node %d", (int)node);
    if (cores)
        *cores = c->nodes[node].free_cores;
    if (mem_bytes)
        *mem_bytes = c->nodes[node].free_mem;
    return PL_OK;
}

pl_status pl_disagg_nvme_composition(const pl_disagg_cluster *c, int32_t dev, int32_t *comp)
{
    if (!c || !comp || dev < 0 || dev >= c->nnvme)
        return pl_err(PL_EINVAL, "pl_disagg_nvme_composition: no device %d", (int)dev);
    *comp = c->nvme[dev].comp;
    return PL_OK;
}

double dg_comp_end(const pl_disagg_cluster *c, int32_t comp)
{
    double end = 0;
    for (int64_t i = c->place0; i < c->nplaces; i++) {
        const dg_place *p = dg_place_at(c, i);
        if (p->alive && p->comp == comp && p->end > end)
            end = p->end;
    }
    return end;
}

pl_status pl_disagg_composition(const pl_disagg_cluster *c, int32_t comp,
                                pl_disagg_composition_info *out)
{
    if (!c || !out || comp < 0 || comp >= c->ncomps || !c->comps[comp].alive)
        return pl_err(PL_EINVAL, "pl_disagg_composition: no live composition %d", (int)comp);
    const dg_comp *k = &c->comps[comp];
    memset(out, 0, sizeof *out);
    out->node = k->node;
    out->n_devices = k->n;
    memcpy(out->devices, k->dev, (size_t)k->n * sizeof *k->dev);
    out->bw_bytes_per_s = k->bw;
    out->cap_bytes = k->cap;
    /* Oversubscribed SMUFIN sharers may reserve more than the total. */
    out->free_bw_bytes_per_s = k->bw > k->used_bw ? k->bw - k->used_bw : 0;
    out->free_cap_bytes = k->cap - k->used_cap;
    out->sharers = k->sharers;
    out->end_s = dg_comp_end(c, comp);
    return PL_OK;
}

pl_status pl_disagg_gpu_state(const pl_disagg_cluster *c, int32_t gpu, int32_t *vgpus, int32_t *busy)
{
    if (!c || gpu < 0 || gpu >= c->ngpus)
        return pl_err(PL_EINVAL, "pl_disagg_gpu_state: no GPU %d", (int)gpu);
    if (vgpus)
        *vgpus = c->gpus[gpu].n_vgpu;
    if (busy)
        *busy = c->gpus[gpu].busy;
    return PL_OK;
}

pl_status pl_disagg_placement(const pl_disagg_cluster *c, int32_t id, int32_t *node,
                              int32_t *comp, int32_t *gpu, int32_t *vgpu, double *end_s)
{
    if (!c || !dg_place_alive(c, id))
        return pl_err(PL_EINVAL, "pl_disagg_placement: placement %d is not running", (int)id);
    const dg_place *p = dg_place_at(c, id);
    if (node)
        *node = p->node;
    if (comp)
        *comp = p->comp;
    if (gpu)
        *gpu = p->gpu;
    if (vgpu)
        *vgpu = p->vgpu;
    if (end_s)
        *end_s = p->end;
    return PL_OK;
}

/* ---- apply / release ------------------------------------------------------------ */

/* Validate the NVMe part of d; on success *k, *bw, *sharers describe the
 * composition the workload will run on (sharers includes it). */
static pl_status check_nvme(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                            const pl_disagg_decision *d, int32_t *k, int64_t *bw, int32_t *sharers)
{
    const char *fn = "pl_disagg_apply";
    if (d->n_new_devices < 0)
        return pl_err(PL_EINVAL, "%s: negative device count", fn);
    if (!pl_disagg_uses_nvme(w)) {
        if (d->composition != -1 || d->n_new_devices != 0)
            return pl_err(PL_EINVAL, "%s: workload uses no NVMe but the decision names a composition", fn);
        return PL_OK;
    }
    if ((d->composition >= 0) == (d->n_new_devices > 0))
        return pl_err(PL_EINVAL, "%s: NVMe workload needs exactly one of an existing or a new composition", fn);
    if (d->composition >= 0) {
        if (d->composition >= c->ncomps || !c->comps[d->composition].alive)
            return pl_err(PL_EINVAL, "%s: no live composition %d", fn, (int)d->composition);
        const dg_comp *m = &c->comps[d->composition];
        if (m->node != d->node)
            return pl_err(PL_EINVAL, "%s: composition %d is attached to node %d, not %d", fn,
                          (int)d->composition, (int)m->node, (int)d->node);
        int oversub = c->opts.smufin_oversubscribe && w->model == PL_DISAGG_MODEL_SMUFIN;
        if ((!oversub && m->bw - m->used_bw < w->nvme_bw_bytes_per_s) ||
            m->cap - m->used_cap < w->nvme_cap_bytes)
            return pl_err(PL_EINFEASIBLE, "%s: composition %d has %lld B/s and %lld B free, workload needs "
                          "%lld and %lld", fn, (int)d->composition, (long long)(m->bw - m->used_bw),
                          (long long)(m->cap - m->used_cap), (long long)w->nvme_bw_bytes_per_s,
                          (long long)w->nvme_cap_bytes);
        *k = m->n;
        *bw = m->bw;
        *sharers = m->sharers + 1;
        return PL_OK;
    }
    if (d->n_new_devices > PL_DISAGG_MAX_COMPOSE)
        return pl_err(PL_EINVAL, "%s: %d devices exceed %d", fn, (int)d->n_new_devices, PL_DISAGG_MAX_COMPOSE);
    int64_t sbw = 0, scap = 0;
    for (int32_t i = 0; i < d->n_new_devices; i++) {
        int32_t v = d->new_devices[i];
        if (v < 0 || v >= c->nnvme)
            return pl_err(PL_EINVAL, "%s: no NVMe device %d", fn, (int)v);
        for (int32_t j = 0; j < i; j++)
            if (d->new_devices[j] == v)
                return pl_err(PL_EINVAL, "%s: device %d listed twice", fn, (int)v);
        if (c->nvme[v].comp != -1)
            return pl_err(PL_EINFEASIBLE, "%s: device %d is in composition %d", fn, (int)v,
                          (int)c->nvme[v].comp);
        if (!dg_nvme_usable(c, v, d->node))
            return pl_err(PL_EINFEASIBLE, "%s: device %d is attached to node %d, not %d", fn,
                          (int)v, (int)c->nvme[v].home, (int)d->node);
        sbw += c->nvme[v].bw;
        scap += c->nvme[v].cap;
    }
    if (sbw < w->nvme_bw_bytes_per_s || scap < w->nvme_cap_bytes)
        return pl_err(PL_EINFEASIBLE, "%s: new composition (%lld B/s, %lld B) is below the request", fn,
                      (long long)sbw, (long long)scap);
    *k = d->n_new_devices;
    *bw = sbw;
    *sharers = 1;
    return PL_OK;
}

/* Validate the GPU part of d; *corunners counts busy vGPUs including it. */
static pl_status check_gpu(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                           const pl_disagg_decision *d, int32_t *corunners)
{
    const char *fn = "pl_disagg_apply";
    if (!pl_disagg_uses_gpu(w)) {
        if (d->gpu != -1 || d->vgpu != -1 || d->partition != 0)
            return pl_err(PL_EINVAL, "%s: workload uses no GPU but the decision names one", fn);
        return PL_OK;
    }
    if (d->gpu < 0 || d->gpu >= c->ngpus)
        return pl_err(PL_EINVAL, "%s: no GPU %d", fn, (int)d->gpu);
    const dg_gpu *g = &c->gpus[d->gpu];
    if (g->home >= 0 && g->home != d->node)
        return pl_err(PL_EINFEASIBLE, "%s: GPU %d is attached to node %d, not %d", fn, (int)d->gpu,
                      (int)g->home, (int)d->node);
    int32_t n = g->n_vgpu;
    if (d->partition != 0) {
        int ok = 0;
        for (int32_t i = 0; i < g->n_splits; i++)
            ok |= g->splits[i] == d->partition;
        if (!ok)
            return pl_err(PL_EINVAL, "%s: GPU %d cannot be split into %d", fn, (int)d->gpu, (int)d->partition);
        if (g->n_vgpu != 0)
            return pl_err(PL_EINFEASIBLE, "%s: GPU %d is already split into %d", fn, (int)d->gpu, (int)g->n_vgpu);
        n = d->partition;
    }
    if (d->vgpu < 0 || d->vgpu >= n)
        return pl_err(PL_EINVAL, "%s: GPU %d has no vGPU %d", fn, (int)d->gpu, (int)d->vgpu);
    if (d->partition == 0 && g->vgpu_job[d->vgpu] != -1)
        return pl_err(PL_EINFEASIBLE, "%s: vGPU %d of GPU %d is in use", fn, (int)d->vgpu, (int)d->gpu);
    if (g->bw / n < w->gpu_bw_bytes_per_s || g->mem / n < w->gpu_mem_bytes)
        return pl_err(PL_EINFEASIBLE, "%s: a 1/%d vGPU of GPU %d is smaller than the request", fn,
                      (int)n, (int)d->gpu);
    *corunners = (d->partition ? 0 : g->busy) + 1;
    return PL_OK;
}

static pl_status new_comp(pl_disagg_cluster *c, const pl_disagg_decision *d, int32_t *id)
{
    if (pl_grow((void **)&c->comps, &c->cap_comps, c->ncomps + 1, sizeof *c->comps) != PL_OK)
        return PL_ENOMEM;
    dg_comp *m = &c->comps[c->ncomps];
    memset(m, 0, sizeof *m);
    m->alive = 1;
    m->node = d->node;
    m->n = d->n_new_devices;
    memcpy(m->dev, d->new_devices, (size_t)m->n * sizeof *m->dev);
    qsort(m->dev, (size_t)m->n, sizeof *m->dev, pl_cmp_i32);
    for (int32_t i = 0; i < m->n; i++) {
        m->bw += c->nvme[m->dev[i]].bw;
        m->cap += c->nvme[m->dev[i]].cap;
        c->nvme[m->dev[i]].comp = (int32_t)c->ncomps;
    }
    *id = (int32_t)c->ncomps++;
    return PL_OK;
}

/* Forget the finished placements before the first running one. */
static void drop_finished(pl_disagg_cluster *c)
{
    int64_t k = 0, n = c->nplaces - c->place0;
    while (k < n && !c->places[k].alive)
        k++;
    if (k == 0)
        return;
    memmove(c->places, c->places + k, (size_t)(n - k) * sizeof *c->places);
    c->place0 += k;
}

pl_status pl_disagg_apply(pl_disagg_cluster *c, const pl_disagg_workload *w,
                          const pl_disagg_decision *d, double now_s, int32_t *id)
{
    if (!c || !d)
        return pl_err(PL_EINVAL, "pl_disagg_apply: NULL argument");
    pl_status st = dg_check_workload(w, "pl_disagg_apply");
    if (st != PL_OK)
        return st;
    if (!d->placed)
        return pl_err(PL_EINVAL, "pl_disagg_apply: the decision placed nothing");
    if (d->node < 0 || d->node >= c->nnodes)
        return pl_err(PL_EINVAL, "pl_disagg_apply: no node %d", (int)d->node);
    dg_node *nd = &c->nodes[d->node];
    if (nd->free_cores < w->cores || nd->free_mem < w->mem_bytes)
        return pl_err(PL_EINFEASIBLE, "pl_disagg_apply: node %d has %d cores and %lld B free, workload "
                      "needs %d and %lld", (int)d->node, (int)nd->free_cores, (long long)nd->free_mem,
                      (int)w->cores, (long long)w->mem_bytes);
    int32_t k = 0, sharers = 0, corun = 0;
    int64_t bw = 0;
    if ((st = check_nvme(c, w, d, &k, &bw, &sharers)) != PL_OK ||
        (st = check_gpu(c, w, d, &corun)) != PL_OK)
        return st;
    double t = w->base_time_s;
    if (k > 0 && (st = pl_disagg_predict_nvme(c, w, k, bw, sharers, &t)) != PL_OK)
        return st;
    if (corun > 0)
        t = dg_gpu_time(w, corun);
    /* Allocate everything that can fail before changing any state. */
    drop_finished(c);
    if (pl_grow((void **)&c->places, &c->cap_places, c->nplaces - c->place0 + 1, sizeof *c->places) != PL_OK ||
        (d->n_new_devices > 0 &&
         pl_grow((void **)&c->comps, &c->cap_comps, c->ncomps + 1, sizeof *c->comps) != PL_OK))
        return PL_ENOMEM;
    int32_t pid = (int32_t)c->nplaces;
    int32_t comp = d->composition;
    if (d->n_new_devices > 0 && (st = new_comp(c, d, &comp)) != PL_OK)
        return st;
    if (comp >= 0) {
        dg_comp *m = &c->comps[comp];
        m->used_bw += w->nvme_bw_bytes_per_s;
        m->used_cap += w->nvme_cap_bytes;
        m->sharers++;
    }
    if (corun > 0) {
        dg_gpu *g = &c->gpus[d->gpu];
        if (d->partition)
            g->n_vgpu = d->partition;
        g->vgpu_job[d->vgpu] = pid;
        g->busy++;
    }
    nd->free_cores -= w->cores;
    nd->free_mem -= w->mem_bytes;
    *dg_place_at(c, pid) = (dg_place){1, *w, d->node, comp, corun > 0 ? d->gpu : -1,
                                corun > 0 ? d->vgpu : -1, now_s, now_s + t, 1.0, t, now_s};
    c->nplaces++;
    if (comp >= 0 && c->opts.reshare)
        dg_reshare(c, comp, now_s);
    if (corun > 0 && c->opts.reshare)
        dg_reshare_gpu(c, d->gpu, now_s);
    if (id)
        *id = pid;
    return PL_OK;
}

pl_status pl_disagg_release(pl_disagg_cluster *c, int32_t id)
{
    if (!c || !dg_place_alive(c, id))
        return pl_err(PL_EINVAL, "pl_disagg_release: placement %d is not running", (int)id);
    dg_place *p = dg_place_at(c, id);
    c->nodes[p->node].free_cores += p->w.cores;
    c->nodes[p->node].free_mem += p->w.mem_bytes;
    if (p->comp >= 0) {
        dg_comp *m = &c->comps[p->comp];
        m->used_bw -= p->w.nvme_bw_bytes_per_s;
        m->used_cap -= p->w.nvme_cap_bytes;
        if (--m->sharers == 0) {
            for (int32_t i = 0; i < m->n; i++)
                c->nvme[m->dev[i]].comp = -1;
            m->alive = 0;
        }
    }
    if (p->gpu >= 0) {
        dg_gpu *g = &c->gpus[p->gpu];
        g->vgpu_job[p->vgpu] = -1;
        if (--g->busy == 0)
            g->n_vgpu = 0;
    }
    p->alive = 0;
    return PL_OK;
}

pl_status pl_disagg_release_at(pl_disagg_cluster *c, int32_t id, double now_s)
{
    pl_status st = pl_disagg_release(c, id);
    if (st != PL_OK)
        return st;
    int32_t comp = dg_place_at(c, id)->comp, gpu = dg_place_at(c, id)->gpu;
    if (comp >= 0 && c->opts.reshare)
        dg_reshare(c, comp, now_s);
    if (gpu >= 0 && c->opts.reshare)
        dg_reshare_gpu(c, gpu, now_s);
    return PL_OK;
}
