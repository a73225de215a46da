/* The thesis's placement policies as pure decisions over a cluster: first
 * fit (baseline), maximise composition (Algorithm 1), minimise fragmentation
 * (Algorithm 2), the Eq. 4.4 switch, and the GPU-aware policy (Algorithms
 * 3-4, Eq. 5.1). doc/disagg.md describes each step and every choice made
 * where the thesis is silent or inconsistent. */
#include <string.h>
#include "disagg_impl.h"

static void clear_decision(pl_disagg_decision *d, pl_disagg_policy policy)
{
    memset(d, 0, sizeof *d);
    d->policy = policy;
    d->node = d->composition = d->gpu = d->vgpu = -1;
}

static int node_fits(const dg_node *n, const pl_disagg_workload *w)
{
    return n->free_cores >= w->cores && n->free_mem >= w->mem_bytes;
}

static int32_t minimal_devices(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                               int32_t node, int32_t *dev, int64_t *bw);

/* A node for a new placement: cores and memory, and, when need_dev (the
 * physically-attached layout), enough free devices it can compose. */
static int node_ok(const pl_disagg_cluster *c, int32_t i, const pl_disagg_workload *w, int need_dev)
{
    if (!node_fits(&c->nodes[i], w))
        return 0;
    if (!need_dev)
        return 1;
    int32_t dev[PL_DISAGG_MAX_COMPOSE];
    int64_t bw = 0;
    return minimal_devices(c, w, i, dev, &bw) > 0;
}

/* ---- node choices --------------------------------------------------------------- */

static int32_t first_fit_node(const pl_disagg_cluster *c, const pl_disagg_workload *w, int need_dev)
{
    for (int32_t i = 0; i < c->nnodes; i++)
        if (node_ok(c, i, w, need_dev))
            return i;
    return -1;
}

/* Eq. 4.3: lowest beta first (or highest with MOST_USED_FIRST); ties by id. */
static int32_t beta_node(const pl_disagg_cluster *c, const pl_disagg_workload *w, int need_dev,
                         double *score)
{
    int32_t best = -1;
    double bb = 0;
    int most = c->opts.node_order == PL_DISAGG_MOST_USED_FIRST;
    for (int32_t i = 0; i < c->nnodes; i++) {
        const dg_node *n = &c->nodes[i];
        if (!node_ok(c, i, w, need_dev))
            continue;
        /* A node without cores has no defined beta; it only fits a 0-core job. */
        double b = n->cores > 0 ? 1.0 - (double)n->free_cores / n->cores : 1.0;
        if (best < 0 || (most ? b > bb : b < bb)) {
            best = i;
            bb = b;
        }
    }
    *score = bb;
    return best;
}

/* Eq. 5.1: highest (free - job cores) / beta; ties by id. */
static int32_t eq51_node(const pl_disagg_cluster *c, const pl_disagg_workload *w, double *score)
{
    int32_t best = -1;
    double bf = 0;
    for (int32_t i = 0; i < c->nnodes; i++) {
        const dg_node *n = &c->nodes[i];
        if (!node_fits(n, w))
            continue;
        double f = (double)(n->free_cores - w->cores) / c->opts.nvme_beta_cores;
        if (best < 0 || f > bf) {
            best = i;
            bf = f;
        }
    }
    *score = bf;
    return best;
}

/* ---- compositions --------------------------------------------------------------- */

typedef enum rank_kind { RANK_FIRST, RANK_TTL, RANK_ALPHA } rank_kind;

/* Best composition in use that meets the SLA (Algorithms 1-2, lines 3-9):
 * free bandwidth and capacity, cores (and memory) on its node and, when
 * use_model, a predicted end before the deadline. RANK_FIRST takes the
 * lowest id and skips the deadline (first fit uses no model). */
static int32_t pick_shared(const pl_disagg_cluster *c, const pl_disagg_workload *w, double now,
                           rank_kind rank, double *time_s, double *score)
{
    int32_t best = -1;
    double bk1 = 0, bk2 = 0, bt = 0;
    for (int32_t i = 0; i < c->ncomps; i++) {
        const dg_comp *m = &c->comps[i];
        /* opts.smufin_oversubscribe: the model, not the request, limits
         * how many SMUFIN share (the thesis runs 2 on one 2 GB/s device). */
        int oversub = c->opts.smufin_oversubscribe && rank != RANK_FIRST &&
                      w->model == PL_DISAGG_MODEL_SMUFIN && m->sharers < 6;
        if (!m->alive || (!oversub && m->bw - m->used_bw < w->nvme_bw_bytes_per_s) ||
            m->cap - m->used_cap < w->nvme_cap_bytes || !node_fits(&c->nodes[m->node], w))
            continue;
        double t = 0;
        if (pl_disagg_predict_nvme(c, w, m->n, m->bw, m->sharers + 1, &t) != PL_OK)
            continue;
        if (rank != RANK_FIRST && now + t > w->deadline_s)
            continue;
        double k1 = 0, k2 = 0;
        if (rank == RANK_TTL) {
            double ttl_c = dg_comp_end(c, i) - now;
            k1 = t - (ttl_c > 0 ? ttl_c : 0);
            k2 = pl_disagg_fitness(m->bw - m->used_bw, m->cap - m->used_cap,
                                   w->nvme_bw_bytes_per_s, w->nvme_cap_bytes);
        } else if (rank == RANK_ALPHA) {
            if (pl_disagg_alpha(m->bw - m->used_bw, m->cap - m->used_cap,
                                c->nodes[m->node].free_cores, w->nvme_bw_bytes_per_s,
                                w->nvme_cap_bytes, w->cores, &k1) != PL_OK)
                continue; /* a 0-core job has no alpha: it is not a candidate */
        }
        if (best < 0 || k1 < bk1 || (k1 == bk1 && k2 < bk2)) {
            best = i;
            bk1 = k1;
            bk2 = k2;
            bt = t;
        }
        if (rank == RANK_FIRST)
            break;
    }
    *time_s = bt;
    *score = bk1;
    return best;
}

/* findFreeResources: the first free devices (by id) whose sum meets the
 * request; in a homogeneous pool that is a minimal set. Returns the count
 * (0 when the free pool cannot meet it). */
static int32_t minimal_devices(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                               int32_t node, int32_t *dev, int64_t *bw)
{
    int32_t n = 0;
    int64_t sbw = 0, scap = 0;
    for (int32_t i = 0; i < c->nnvme && n < PL_DISAGG_MAX_COMPOSE; i++) {
        if (c->nvme[i].comp != -1 || !dg_nvme_usable(c, i, node))
            continue;
        dev[n++] = i;
        sbw += c->nvme[i].bw;
        scap += c->nvme[i].cap;
        if (sbw >= w->nvme_bw_bytes_per_s && scap >= w->nvme_cap_bytes) {
            *bw = sbw;
            return n;
        }
    }
    return 0;
}

/* calculateRequestForMinimalTime as the prose describes it: from the minimal
 * set, add the next free device while the model predicts a strictly shorter
 * time, stop at the first level that does not improve, never beyond
 * max_composition devices. */
static int32_t grow_devices(const pl_disagg_cluster *c, const pl_disagg_workload *w, int32_t node,
                            int32_t *dev, int32_t n, int64_t *bw, double *time_s)
{
    double t = 0;
    if (pl_disagg_predict_nvme(c, w, n, *bw, 1, &t) != PL_OK)
        return n;
    int32_t next = dev[n - 1] + 1;
    while (n < c->opts.max_composition) {
        while (next < c->nnvme && (c->nvme[next].comp != -1 || !dg_nvme_usable(c, next, node)))
            next++;
        if (next >= c->nnvme)
            break;
        double tn = 0;
        if (pl_disagg_predict_nvme(c, w, n + 1, *bw + c->nvme[next].bw, 1, &tn) != PL_OK || !(tn < t))
            break;
        t = tn;
        *bw += c->nvme[next].bw;
        dev[n++] = next++;
    }
    *time_s = t;
    return n;
}

typedef enum node_rule { NODE_FIRST_FIT, NODE_BETA, NODE_EQ51 } node_rule;

static int32_t choose_node(const pl_disagg_cluster *c, const pl_disagg_workload *w, node_rule r,
                           int need_dev, double *score)
{
    *score = 0;
    if (r == NODE_BETA)
        return beta_node(c, w, need_dev, score);
    if (r == NODE_EQ51)
        return eq51_node(c, w, score);
    return first_fit_node(c, w, need_dev);
}

static void decide_nvme(const pl_disagg_cluster *c, const pl_disagg_workload *w, double now,
                        rank_kind rank, int grow, node_rule nr, pl_disagg_decision *d)
{
    double t = 0, score = 0;
    int32_t comp = pick_shared(c, w, now, rank, &t, &score);
    if (comp >= 0) {
        d->placed = 1;
        d->composition = comp;
        d->node = c->comps[comp].node;
        d->predicted_time_s = t;
        d->score = score;
        return;
    }
    int32_t dev[PL_DISAGG_MAX_COMPOSE];
    int64_t bw = 0;
    /* Disaggregated pool: any node can take the free devices. Devices
     * physically attached to nodes: only a node holding enough of them. */
    int pinned = dg_has_attached(c);
    int32_t node = -1, n = 0;
    if (!pinned && (n = minimal_devices(c, w, -1, dev, &bw)) == 0)
        return;
    node = choose_node(c, w, nr, pinned, &score);
    if (node < 0)
        return;
    if (pinned)
        n = minimal_devices(c, w, node, dev, &bw);
    if (grow)
        n = grow_devices(c, w, node, dev, n, &bw, &t);
    else if (pl_disagg_predict_nvme(c, w, n, bw, 1, &t) != PL_OK)
        return;
    d->placed = 1;
    d->node = node;
    d->n_new_devices = n;
    memcpy(d->new_devices, dev, (size_t)n * sizeof *dev);
    d->predicted_time_s = t;
    d->score = score;
}

/* ---- GPUs ----------------------------------------------------------------------- */

/* availvGPU (Algorithm 4 lines 21-30): the first idle vGPU, by GPU then
 * index, whose share fits the request and, when use_model, whose predicted
 * end (co-run factor with the GPU's busy vGPUs) plus step meets the deadline. */
static int find_vgpu(const pl_disagg_cluster *c, const pl_disagg_workload *w, double now,
                     int use_model, pl_disagg_decision *d)
{
    for (int32_t g = 0; g < c->ngpus; g++) {
        const dg_gpu *u = &c->gpus[g];
        if (u->n_vgpu == 0 || u->bw / u->n_vgpu < w->gpu_bw_bytes_per_s ||
            u->mem / u->n_vgpu < w->gpu_mem_bytes)
            continue;
        double t = dg_gpu_time(w, u->busy + 1);
        if (use_model && now + t + c->opts.vgpu_step_s > w->deadline_s)
            continue;
        for (int32_t v = 0; v < u->n_vgpu; v++) {
            if (u->vgpu_job[v] == -1) {
                d->gpu = g;
                d->vgpu = v;
                d->predicted_time_s = t;
                return 1;
            }
        }
    }
    return 0;
}

/* PartitionGPU (Algorithm 3): the first unsplit GPU, split by
 * pl_disagg_split_count(); the job takes vGPU 0. */
static int partition_gpu(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                         pl_disagg_decision *d)
{
    for (int32_t g = 0; g < c->ngpus; g++) {
        const dg_gpu *u = &c->gpus[g];
        int32_t n = 0;
        if (u->n_vgpu != 0 ||
            pl_disagg_split_count(u->bw, u->mem, w->gpu_bw_bytes_per_s, w->gpu_mem_bytes,
                                  u->splits, u->n_splits, &n) != PL_OK || n == 0)
            continue;
        d->gpu = g;
        d->vgpu = 0;
        d->partition = n;
        d->predicted_time_s = dg_gpu_time(w, 1);
        return 1;
    }
    return 0;
}

/* The vGPU first, then the node: the policy's node among those with the
 * cores, or the GPU's own node when it is physically attached. */
static void decide_gpu(const pl_disagg_cluster *c, const pl_disagg_workload *w, double now,
                       int use_model, node_rule nr, pl_disagg_decision *d)
{
    if (!find_vgpu(c, w, now, use_model, d) && !partition_gpu(c, w, d))
        return;
    double score = 0;
    int32_t home = c->gpus[d->gpu].home;
    int32_t node = home < 0 ? choose_node(c, w, nr, 0, &score)
                   : node_fits(&c->nodes[home], w) ? home : -1;
    if (node < 0) {
        clear_decision(d, d->policy);
        return;
    }
    d->placed = 1;
    d->node = node;
    d->score = score;
}

static void decide_compute(const pl_disagg_cluster *c, const pl_disagg_workload *w, node_rule nr,
                           pl_disagg_decision *d)
{
    double score = 0;
    int32_t node = choose_node(c, w, nr, 0, &score);
    if (node < 0)
        return;
    d->placed = 1;
    d->node = node;
    d->predicted_time_s = w->base_time_s;
    d->score = score;
}

/* ---- policies ------------------------------------------------------------------- */

static pl_status run(const pl_disagg_cluster *c, pl_disagg_policy p, const pl_disagg_workload *w,
                     double now, pl_disagg_decision *d, const char *fn)
{
    if (!c || !d)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    pl_status st = dg_check_workload(w, fn);
    if (st != PL_OK)
        return st;
    clear_decision(d, p);
    rank_kind rank = p == PL_DISAGG_FIRST_FIT ? RANK_FIRST
                     : p == PL_DISAGG_MIN_FRAGMENTATION ? RANK_ALPHA : RANK_TTL;
    node_rule nr = p == PL_DISAGG_MIN_FRAGMENTATION ? NODE_BETA
                   : p == PL_DISAGG_GPU_AWARE ? NODE_EQ51 : NODE_FIRST_FIT;
    int use_model = p != PL_DISAGG_FIRST_FIT;
    if (pl_disagg_uses_nvme(w))
        /* Chapter 5 places NVMe workloads as chapter 4's over-provisioning
         * policy does: first fit, then grow while the model improves. */
        decide_nvme(c, w, now, rank, p == PL_DISAGG_MAX_COMPOSITION || p == PL_DISAGG_GPU_AWARE,
                    p == PL_DISAGG_GPU_AWARE ? NODE_FIRST_FIT : nr, d);
    else if (pl_disagg_uses_gpu(w))
        decide_gpu(c, w, now, use_model, nr, d);
    else
        decide_compute(c, w, nr, d);
    return PL_OK;
}

pl_status pl_disagg_first_fit(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                              double now_s, pl_disagg_decision *d)
{
    return run(c, PL_DISAGG_FIRST_FIT, w, now_s, d, "pl_disagg_first_fit");
}

pl_status pl_disagg_max_composition(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                                    double now_s, pl_disagg_decision *d)
{
    return run(c, PL_DISAGG_MAX_COMPOSITION, w, now_s, d, "pl_disagg_max_composition");
}

pl_status pl_disagg_min_fragmentation(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                                      double now_s, pl_disagg_decision *d)
{
    return run(c, PL_DISAGG_MIN_FRAGMENTATION, w, now_s, d, "pl_disagg_min_fragmentation");
}

pl_status pl_disagg_gpu_aware(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                              double now_s, pl_disagg_decision *d)
{
    return run(c, PL_DISAGG_GPU_AWARE, w, now_s, d, "pl_disagg_gpu_aware");
}

pl_status pl_disagg_decide(const pl_disagg_cluster *c, pl_disagg_policy policy,
                           const pl_disagg_workload *w, double now_s, double lf_bw,
                           double lf_cap, pl_disagg_decision *d)
{
    switch (policy) {
    case PL_DISAGG_AWARE:
        return run(c, pl_disagg_aware_choice(lf_bw, lf_cap), w, now_s, d, "pl_disagg_decide");
    case PL_DISAGG_FIRST_FIT:
    case PL_DISAGG_MAX_COMPOSITION:
    case PL_DISAGG_MIN_FRAGMENTATION:
    case PL_DISAGG_GPU_AWARE:
        return run(c, policy, w, now_s, d, "pl_disagg_decide");
    }
    return pl_err(PL_EINVAL, "pl_disagg_decide: unknown policy %d", (int)policy);
}

static const char *const policy_names[] = {"first-fit", "max-composition", "min-fragmentation",
                                           "disagg-aware", "gpu-aware"};

const char *pl_disagg_policy_name(pl_disagg_policy p)
{
    if ((int)p < 0 || (int)p > (int)PL_DISAGG_GPU_AWARE)
        return NULL;
    return policy_names[p];
}

pl_status pl_disagg_policy_find(const char *name, pl_disagg_policy *p)
{
    if (!name || !p)
        return pl_err(PL_EINVAL, "pl_disagg_policy_find: NULL argument");
    for (int i = 0; i <= (int)PL_DISAGG_GPU_AWARE; i++) {
        if (!strcmp(name, policy_names[i])) {
            *p = (pl_disagg_policy)i;
            return PL_OK;
        }
    }
    return pl_err(PL_ENOTFOUND,
                  "unknown NVMe policy '%s' (known: first-fit, max-composition, "
                  "min-fragmentation, disagg-aware, gpu-aware)",
                  name);
}
