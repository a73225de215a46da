/* The NVMe composition rules (seed 001; doc/disagg.md) as policies on the
 * topology: each call decides the queue in order on a what-if copy of the
 * storage fabric (the live one the caller keeps, or what the topology has
 * free), so a decision sees the ones before it, as the thesis's scheduler
 * does. A placed job's plan takes its cores on the node's machine and its
 * bandwidth and capacity spread evenly over its composition's devices
 * (clamped to what a device has free: a composition shared past its
 * bandwidth, under smufin_oversubscribe, shows the devices full); the
 * fabric's own state says who shares what. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/nvme_rules.h"
#include "internal/policy_impl.h"
#include "internal/topology_internal.h"

void pl_nvme_rule_opts_init(pl_nvme_rule_opts *o)
{
    if (o)
        *o = (pl_nvme_rule_opts){.kind = PL_POLICY_EXT_NVME};
}

pl_status pl_nvme_job_workload(const pl_job *job, pl_disagg_workload *w)
{
    pl_task_demand d;
    memset(w, 0, sizeof *w);
    if (pl_job_task_count(job) != 1)
        return pl_err(PL_EINVAL, "the NVMe composition rules place jobs of one task (this one has %d)",
                      (int)pl_job_task_count(job));
    pl_status st = pl_job_task(job, 0, &d);
    if (st)
        return st;
    if (d.gpus > 0)
        return pl_err(PL_EINVAL, "the NVMe composition rules place NVMe, vGPU (a GPU share: gpu_milli) and "
                      "compute tasks, not whole GPUs");
    /* A vGPU task's bandwidth and memory are what its vGPU must have. */
    if (d.gpu_milli > 0) {
        w->gpu_bw_bytes_per_s = d.bandwidth;
        w->gpu_mem_bytes = d.gpu_memory;
    }
    int64_t cores = pl_task_cores(&d);
    if (!(pl_job_duration(job) > 0) || cores > INT32_MAX)
        return pl_err(PL_EINVAL, "the NVMe composition rules need the job's duration (its base time) "
                      "and at most %d cores", (int)INT32_MAX);
    const char *type = pl_job_workload_type(job), *size = pl_job_workload_size(job);
    w->base_time_s = pl_job_duration(job);
    w->nvme_bw_bytes_per_s = d.storage_bw;
    w->nvme_cap_bytes = d.storage_bytes;
    w->cores = (int32_t)cores;
    w->mem_bytes = d.memory;
    w->model = !type ? PL_DISAGG_MODEL_NONE
               : !strcmp(type, PL_NVME_TYPE_SMUFIN) ? PL_DISAGG_MODEL_SMUFIN
               : !strcmp(type, PL_NVME_TYPE_FIO)    ? PL_DISAGG_MODEL_FIO
               : !strcmp(type, PL_NVME_TYPE_YOLO)   ? PL_DISAGG_MODEL_YOLO
                                                    : PL_DISAGG_MODEL_NONE;
    w->high_priority = size && !strcmp(size, PL_NVME_SIZE_HIGH);
    w->arrival_s = pl_job_arrival(job);
    w->deadline_s = pl_job_slo(job) > 0 ? w->arrival_s + pl_job_slo(job) : INFINITY;
    return PL_OK;
}

typedef struct rctx {
    pl_disagg_policy rule;
    const pl_nvme_rule_opts *o;
    pl_disagg_cluster *work;  /* what-if fabric */
    pl_topology *wt;          /* the topology with this call's plans taken */
    int32_t *mach, nmach;     /* node id -> machine vertex */
    int32_t *dev, ndev;       /* NVMe id -> storage vertex */
    int32_t *gpu, ngpu;
    double lf_bw, lf_cap;     /* Eq. 4.6 over the queued and running jobs */
} rctx;

static void rctx_free(rctx *x)
{
    pl_disagg_cluster_free(x->work);
    pl_topology_free(x->wt);
    free(x->mach);
    free(x->dev);
    free(x->gpu);
}

static void add_demand(const pl_job *job, double *bw, double *cap)
{
    pl_task_demand d;
    for (int32_t t = 0; t < pl_job_task_count(job); t++)
        if (pl_job_task(job, t, &d) == PL_OK) {
            *bw += (double)d.storage_bw;
            *cap += (double)d.storage_bytes;
        }
}

static pl_status rctx_init(rctx *x, const pl_policy_request *req)
{
    memset(x, 0, sizeof *x);
    x->rule = *(const pl_disagg_policy *)req->data;
    x->o = req->opts->policy_opts;
    if (x->o && x->o->kind != PL_POLICY_EXT_NVME)
        return pl_err(PL_EINVAL, "the NVMe composition rules: policy_opts is not a pl_nvme_rule_opts");
    if (x->o && x->o->choices && x->o->cap < req->nqueue)
        return pl_err(PL_EINVAL, "the NVMe composition rules: %d choices for %d queued jobs",
                      (int)x->o->cap, (int)req->nqueue);
    pl_status st = pl_topo_clone(req->topo, &x->wt);
    if (!st)
        st = pl_topo_list(req->topo, -1, PL_VK_MACHINE, &x->mach, &x->nmach);
    if (st)
        return st;
    if (x->o && x->o->live) {
        if (!(st = pl_disagg_cluster_copy(x->o->live, &x->work)) &&
            !(st = pl_topo_list(req->topo, -1, PL_VK_STORAGE, &x->dev, &x->ndev)))
            st = pl_topo_list(req->topo, -1, PL_VK_GPU, &x->gpu, &x->ngpu);
    } else {
        if (!(st = pl_disagg_cluster_view_free(req->topo, &x->work, &x->dev, &x->gpu)))
            pl_disagg_counts(x->work, NULL, &x->ndev, &x->ngpu);
    }
    pl_disagg_totals tot;
    if (!st)
        st = pl_disagg_cluster_totals(x->work, &tot);
    if (st)
        return st;
    /* Sums of whole bytes: exact in a double, in any order. */
    double bw = 0, cap = 0;
    for (int32_t q = 0; q < req->nqueue; q++)
        add_demand(req->queue[q], &bw, &cap);
    /* The running ones: the fabric's (the request lists only jobs holding
     * a GPU); without one, those the request lists. */
    if (x->o && x->o->live)
        pl_disagg_running_demand(x->o->live, &bw, &cap);
    for (int32_t r = 0; r < req->nrunning && !(x->o && x->o->live); r++)
        add_demand(req->running[r].job, &bw, &cap);
    x->lf_bw = tot.nvme_bw_bytes_per_s > 0 ? bw / (double)tot.nvme_bw_bytes_per_s : 0;
    x->lf_cap = tot.nvme_cap_bytes > 0 ? cap / (double)tot.nvme_cap_bytes : 0;
    return PL_OK;
}

/* Up to `want` of res on v, as much as it has free in the work topology. */
static void take(rctx *x, int32_t v, pl_resource res, int64_t want, pl_plan_item *items, int32_t *n)
{
    int64_t fr = 0;
    pl_topology_amount(x->wt, v, res, NULL, NULL, &fr);
    int64_t got = want < fr ? want : fr;
    if (got > 0)
        items[(*n)++] = (pl_plan_item){v, res, got};
}

/* The plan of placement id on the work fabric; *gpu the vertex of its
 * vGPU's GPU, *dev0 of its composition's first device (what the decision
 * names, policy.h's storage), -1 for none. */
static pl_status plan_of(rctx *x, const pl_disagg_workload *w, int32_t id, int32_t *machine,
                         int32_t *gpu, int32_t *dev0, pl_plan_item *items, int32_t *n)
{
    *dev0 = -1;
    int32_t node = -1, comp = -1, g = -1;
    pl_status st = pl_disagg_placement(x->work, id, &node, &comp, &g, NULL, NULL);
    if (st || node < 0 || node >= x->nmach || g >= x->ngpu)
        return st ? st : pl_err(PL_EINTERNAL, "NVMe rules: node %d or GPU %d is no vertex", (int)node, (int)g);
    *machine = x->mach[node];
    *gpu = g >= 0 ? x->gpu[g] : -1;
    *n = 0;
    take(x, *machine, PL_RES_CORES, w->cores, items, n);
    take(x, *machine, PL_RES_MEMORY, w->mem_bytes, items, n);
    if (*gpu >= 0) {
        take(x, *gpu, PL_RES_BANDWIDTH, w->gpu_bw_bytes_per_s, items, n);
        take(x, *gpu, PL_RES_GPU_MEMORY, w->gpu_mem_bytes, items, n);
    }
    if (comp < 0)
        return PL_OK;
    pl_disagg_composition_info ci;
    if ((st = pl_disagg_composition(x->work, comp, &ci)))
        return st;
    int64_t k = ci.n_devices;
    for (int32_t i = 0; i < ci.n_devices; i++) {
        if (ci.devices[i] < 0 || ci.devices[i] >= x->ndev)
            return pl_err(PL_EINTERNAL, "NVMe rules: device %d is no storage vertex", (int)ci.devices[i]);
        int32_t v = x->dev[ci.devices[i]];
        if (i == 0)
            *dev0 = v;
        /* Even shares, the remainder on the first devices. */
        take(x, v, PL_RES_BANDWIDTH, w->nvme_bw_bytes_per_s / k + (i < w->nvme_bw_bytes_per_s % k), items, n);
        take(x, v, PL_RES_STORAGE, w->nvme_cap_bytes / k + (i < w->nvme_cap_bytes % k), items, n);
    }
    return PL_OK;
}

static pl_status decide_one(rctx *x, const pl_policy_request *req, int32_t q, pl_decision *out)
{
    pl_nvme_choice *ch = x->o && x->o->choices ? &x->o->choices[q] : NULL;
    if (ch)
        memset(ch, 0, sizeof *ch);
    pl_disagg_workload w;
    pl_disagg_decision d;
    char why[512];
    pl_status st = pl_nvme_job_workload(req->queue[q], &w);
    if (!st)
        st = pl_disagg_decide(x->work, x->rule, &w, req->opts->now, x->lf_bw, x->lf_cap, &d);
    if (st == PL_EINVAL) {
        snprintf(why, sizeof why, "%s", pl_last_error());
        return pl_decision_set_kind(out, q, PL_DECISION_REJECTED, why);
    }
    if (st)
        return st;
    /* A fixed text: a long queue waits at every event. */
    if (!d.placed)
        return pl_decision_set_kind(out, q, PL_DECISION_WAITING,
                                    pl_disagg_uses_nvme(&w) ? "no node has its cores free with a composition of its NVMe "
                                                  "bandwidth and capacity (or a vGPU) that fits now"
                                                : "no node has its cores and memory (or a vGPU) free now");
    int32_t id = -1, machine = -1, gpu = -1, dev0 = -1, n = 0;
    pl_plan_item items[4 + 2 * PL_DISAGG_MAX_COMPOSE];
    if ((st = pl_disagg_apply(x->work, &w, &d, req->opts->now, &id)) ||
        (st = plan_of(x, &w, id, &machine, &gpu, &dev0, items, &n)) || (st = pl_plan_alloc(x->wt, items, n)))
        return st;
    /* A vGPU task is hosted by its GPU (a pool's, its cores on the node's machine). */
    int32_t host = gpu >= 0 ? gpu : machine;
    pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = 1, .gpus = &gpu, .machine = machine,
                             .utility = 1, .slowdown = 1, .reason = "", .hosts = &host};
    if ((st = pl_decision_set(out, q, &info)) || (st = pl_decision_set_plan(out, q, items, n)) ||
        (pl_disagg_uses_nvme(&w) && (st = pl_decision_set_storage(out, q, &dev0))))
        return st;
    if (ch)
        *ch = (pl_nvme_choice){.placed = 1, .w = w, .d = d};
    return PL_OK;
}

static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    rctx x;
    pl_status st = rctx_init(&x, req);
    int32_t placed = 0;
    for (int32_t q = 0; q < req->nqueue && !st; q++) {
        if (req->opts->max_placed > 0 && placed >= req->opts->max_placed)
            break;
        pl_decision_info info;
        if (!(st = decide_one(&x, req, q, out)) && !(st = pl_decision_get(out, q, &info)))
            placed += info.kind == PL_DECISION_PLACED;
    }
    rctx_free(&x);
    return st;
}

static const pl_disagg_policy rules[] = {PL_DISAGG_FIRST_FIT, PL_DISAGG_MAX_COMPOSITION,
                                         PL_DISAGG_MIN_FRAGMENTATION, PL_DISAGG_AWARE,
                                         PL_DISAGG_GPU_AWARE};

#define NVME_RULE(i, pname, pdescription)                                                              \
    {.name = (pname), .description = (pdescription), .place = place, .version = PL_POLICY_OPS_VERSION, \
     .flags = PL_POLICY_CPU_JOBS | PL_POLICY_OWN_STORAGE, .data = &rules[i]}

static const pl_policy_ops table[] = {
    NVME_RULE(0, "nvme-first-fit", "Call's baseline: the first node and free devices that fit, no model"),
    NVME_RULE(1, "nvme-max-composition", "Call's Algorithm 1: compose up to 3 devices, shortest predicted run"),
    NVME_RULE(2, "nvme-min-fragmentation", "Call's Algorithm 2: share the composition that fits tightest"),
    NVME_RULE(3, "nvme-disagg-aware", "Call's Eq. 4.4: max-composition or min-fragmentation by NVMe load"),
    NVME_RULE(4, "nvme-gpu-aware", "Call's chapter 5: Algorithms 3-4 and Eq. 5.1"),
};

const pl_policy_ops *pl_nvme_rule_ops(pl_disagg_policy p)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rules[i] == p)
            return &table[i];
    return NULL;
}
