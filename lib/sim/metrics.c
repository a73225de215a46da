/* Utilisation over time and fragmentation (doc/simulator.md sec. 5b): the
 * cluster state is kept by deltas at every allocation and release, and a
 * point of the time series is taken after every event that changed it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "internal/topology_internal.h"

enum { GPU_FREE = 0, GPU_USED = 1, GPU_FAILED = 2 };

/* Lower median of the GPU jobs' GPU counts and total cores: "the typical
 * job" that a machine's free GPUs should be able to hold. */
void pl_sim_reference_job(pl_sim *s)
{
    s->ref_gpus = 1;
    s->ref_cores = 0;
    int64_t *g = pl_alloc((size_t)s->njobs + 1, sizeof *g), *c = pl_alloc((size_t)s->njobs + 1, sizeof *c);
    int32_t n = 0;
    for (int32_t i = 0; g && c && i < s->njobs; i++) {
        const pl_job *job = pl_jobset_get(s->jobs, i);
        if (pl_sim_job_cpu_only(job))
            continue;
        pl_task_demand tot;
        if (pl_job_total_demand(job, &tot) != PL_OK)
            continue;
        g[n] = pl_job_task_count(job);
        c[n++] = tot.cores;
    }
    if (g && c && n > 0) {
        qsort(g, (size_t)n, sizeof *g, pl_cmp_i64);
        qsort(c, (size_t)n, sizeof *c, pl_cmp_i64);
        s->ref_gpus = (int32_t)g[(n - 1) / 2];
        s->ref_cores = c[(n - 1) / 2];
    }
    free(g);
    free(c);
}

static int64_t stranded_of(const srun *r, int32_t m)
{
    const smetrics *x = &r->m;
    int holds = x->mach_free_gpus[m] >= r->s->ref_gpus &&
                (!x->mach_has_cores[m] || x->mach_free_cores[m] >= r->s->ref_cores);
    return holds ? 0 : x->mach_free_gpus[m];
}

/* Change machine m's free GPUs and cores, keeping the stranded count. */
static void machine_delta(srun *r, int32_t m, int32_t dgpus, int64_t dcores)
{
    if (m < 0)
        return;
    smetrics *x = &r->m;
    x->stranded -= stranded_of(r, m);
    x->mach_free_gpus[m] += dgpus;
    x->mach_free_cores[m] += dcores;
    x->free_gpus += dgpus;
    x->stranded += stranded_of(r, m);
}

/* State of GPU v from the topology and the failure marks. */
static int gpu_state(const srun *r, int32_t v)
{
    if (r->m.failed && r->m.failed[v])
        return GPU_FAILED;
    int64_t alloc = 0;
    pl_topology_amount(r->topo, v, PL_RES_UNITS, NULL, &alloc, NULL);
    return alloc > 0 ? GPU_USED : GPU_FREE;
}

void pl_sim_metrics_gpu(srun *r, int32_t v)
{
    smetrics *x = &r->m;
    int old = x->gstate[v], now = gpu_state(r, v);
    if (old == now)
        return;
    x->gpus_used += (now == GPU_USED) - (old == GPU_USED);
    x->gpus_failed += (now == GPU_FAILED) - (old == GPU_FAILED);
    machine_delta(r, r->s->gpu_machine[v], (now == GPU_FREE) - (old == GPU_FREE), 0);
    x->gstate[v] = (uint8_t)now;
}

pl_status pl_sim_metrics_init(srun *r)
{
    const pl_sim *s = r->s;
    smetrics *x = &r->m;
    size_t nm = (size_t)s->nmachines + 1;
    if (!(x->mach_free_gpus = pl_alloc(nm, sizeof *x->mach_free_gpus)) ||
        !(x->mach_free_cores = pl_alloc(nm, sizeof *x->mach_free_cores)) ||
        !(x->mach_has_cores = pl_alloc(nm, sizeof *x->mach_has_cores)) ||
        !(x->gstate = pl_alloc((size_t)s->nvert + 1, sizeof *x->gstate)) ||
        !(x->failed = pl_alloc((size_t)s->nvert + 1, sizeof *x->failed)))
        return PL_ENOMEM;
    x->gpus_total = s->ngpus;
    for (int32_t i = 0; i < s->npackages; i++) {
        int32_t p = s->packages[i], m = s->vert_machine[p];
        int64_t cap = 0, fr = 0;
        pl_topology_amount(r->topo, p, PL_RES_CORES, &cap, NULL, &fr);
        x->cores_total += cap;
        x->cores_used += cap - fr;
        if (m >= 0 && cap > 0) {
            x->mach_free_cores[m] += fr;
            x->mach_has_cores[m] = 1;
        }
    }
    for (int32_t i = 0; i < s->ngpus; i++) {
        int32_t g = s->gpus[i];
        x->gstate[g] = GPU_FREE;
        if (s->gpu_machine[g] >= 0) {
            x->mach_free_gpus[s->gpu_machine[g]]++;
            x->free_gpus++;
        }
    }
    for (int32_t m = 0; m < s->nmachines; m++)
        x->stranded += stranded_of(r, m);
    for (int32_t i = 0; i < s->ngpus; i++)
        pl_sim_metrics_gpu(r, s->gpus[i]);
    for (int32_t i = 0; i < s->nstorage; i++) {
        int64_t cap = 0, alloc = 0;
        pl_topology_amount(r->topo, s->storage[i], PL_RES_BANDWIDTH, &cap, &alloc, NULL);
        x->nvme_bw_total += cap;
        x->nvme_bw_used += alloc;
    }
    return PL_OK;
}

void pl_sim_metrics_free(srun *r)
{
    free(r->m.mach_free_gpus);
    free(r->m.mach_free_cores);
    free(r->m.mach_has_cores);
    free(r->m.gstate);
    free(r->m.failed);
    memset(&r->m, 0, sizeof r->m);
}

void pl_sim_metrics_plan(srun *r, const pl_plan_item *items, int32_t n, int sign)
{
    const pl_sim *s = r->s;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = items[i].v;
        if (items[i].res == PL_RES_UNITS && s->gpu_socket[v] >= 0) {
            pl_sim_metrics_gpu(r, v);
        } else if (items[i].res == PL_RES_CORES && s->is_package[v]) {
            int32_t m = s->vert_machine[v];
            r->m.cores_used += sign * items[i].amount;
            if (m >= 0 && r->m.mach_has_cores[m])
                machine_delta(r, m, 0, -sign * items[i].amount);
        } else if (items[i].res == PL_RES_BANDWIDTH && pl_topo_is(r->topo, v, PL_VK_STORAGE)) {
            /* A task's NVMe demand (the engine's storage step). */
            r->m.nvme_bw_used += sign * items[i].amount;
        }
    }
}

static void fill(const srun *r, double t, pl_sim_sample *p)
{
    const smetrics *x = &r->m;
    p->time = t;
    p->running = r->nrunning;
    p->queued = r->nqueue;
    p->gpus_used = x->gpus_used;
    p->gpus_failed = x->gpus_failed;
    p->gpu_util = x->gpus_total > 0 ? (double)x->gpus_used / x->gpus_total : 0;
    p->core_util = x->cores_total > 0 ? (double)x->cores_used / (double)x->cores_total : -1;
    p->nvme_util = x->nvme_bw_total > 0 ? (double)x->nvme_bw_used / (double)x->nvme_bw_total : -1;
    p->fragmentation = x->free_gpus > 0 ? (double)x->stranded / (double)x->free_gpus : 0;
    p->remote_gpus = r->remote_gpus;
}

static int same_state(const pl_sim_sample *a, const pl_sim_sample *b)
{
    return a->running == b->running && a->queued == b->queued && a->gpus_used == b->gpus_used &&
           a->gpus_failed == b->gpus_failed && a->gpu_util == b->gpu_util &&
           a->core_util == b->core_util && a->nvme_util == b->nvme_util &&
           a->fragmentation == b->fragmentation && a->remote_gpus == b->remote_gpus;
}

pl_status pl_sim_metrics_sample(srun *r, double t)
{
    pl_sim_result *res = r->res;
    pl_sim_sample p;
    fill(r, t, &p);
    if (res->ntl > 0) {
        pl_sim_sample *last = &res->tl[res->ntl - 1];
        if (last->time == t) {
            /* The state after the last event at t; merge into the point
             * before when it is back to that one. */
            *last = p;
            if (res->ntl > 1 && same_state(&res->tl[res->ntl - 2], last))
                res->ntl--;
            return PL_OK;
        }
        if (same_state(last, &p))
            return PL_OK;
    }
    pl_status st = pl_grow((void **)&res->tl, &res->captl, res->ntl + 1, sizeof *res->tl);
    if (!st)
        res->tl[res->ntl++] = p;
    return st;
}

void pl_sim_metrics_summarise(pl_sim_result *res, double from, double to)
{
    pl_sim_summary *m = &res->sum;
    if (!(to > from) || res->ntl == 0)
        return;
    double gpu = 0, core = 0, nvme = 0, frag = 0;
    for (int64_t i = 0; i < res->ntl; i++) {
        double a = fmax(res->tl[i].time, from);
        double b = i + 1 < res->ntl ? fmin(res->tl[i + 1].time, to) : to;
        if (i == 0)
            a = from; /* the first point holds from the start */
        if (!(b > a))
            continue;
        gpu += res->tl[i].gpu_util * (b - a);
        core += res->tl[i].core_util * (b - a);
        nvme += res->tl[i].nvme_util * (b - a);
        frag += res->tl[i].fragmentation * (b - a);
    }
    double w = to - from;
    m->mean_gpu_util = gpu / w;
    m->mean_core_util = core / w;
    m->mean_nvme_util = nvme / w;
    m->mean_fragmentation = frag / w;
}
