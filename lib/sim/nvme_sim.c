/* Seed 001's NVMe experiments (Call thesis, Tables 4.2-4.5) replayed on the
 * disagg module: Poisson arrivals, an EDF queue, one policy, the thesis's
 * metrics. Definitions and choices: doc/results.md, "Seed 001". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <placement/nvme_sim.h>
#include "sim_impl.h"
#include "internal/columns.h"

struct pl_nvme_sim_result {
    int32_t n;
    pl_nvme_sim_record *rec;
    pl_nvme_sim_summary sum;
};

static const char *const scenario_names[] = {"nvme-s1",     "nvme-s2",     "nvme-s3",
                                             "nvme-gpu-s1", "nvme-gpu-s2", "nvme-gpu-s3", NULL};
/* Tables 4.2 and 5.3: bandwidth / capacity / compute / GPU shares; the
 * chapter 5 mixes (the last three) come with one GPU. */
static const double scenario_mix[6][4] = {
    {0.7, 0.1, 0.2, 0},     {0.1, 0.7, 0.2, 0},   {0.2, 0.1, 0.7, 0},
    {0.5, 0.2, 0.2, 0.1},   {0.1, 0, 0.1, 0.8},   {0.2, 0.2, 0.1, 0.4},
};


void pl_nvme_sim_opts_init(pl_nvme_sim_opts *o)
{
    /* Scenario S1's mix; the members left out are 0 (GPUs, FIO, overhead and
     * oversubscription off, dynamic sharing). */
    if (o)
        *o = (pl_nvme_sim_opts){
            .jobs = 1500, .load = 0.7, .load_basis = PL_NVME_LOAD_CPU, .window = 1,
            .frac_bandwidth = scenario_mix[0][0], .frac_capacity = scenario_mix[0][1],
            .frac_compute = scenario_mix[0][2], .frac_high = 0.2, .delta_high = PL_DISAGG_DELTA_HIGH,
            .gpu_split = 1, .seed = 1, .nodes = 5, .cores_per_node = 25, .nvme = 10,
            .nvme_bw_bytes_per_s = 2000000000LL, .nvme_cap_bytes = 600000000000LL,
            .layout = PL_NVME_LAYOUT_DISAGG, .arrivals = PL_NVME_ARRIVALS_POISSON,
            .node_order = PL_DISAGG_LEAST_USED_FIRST};
}

const char *const *pl_nvme_sim_scenario_names(void)
{
    return scenario_names;
}

pl_status pl_nvme_sim_scenario(const char *name, pl_nvme_sim_opts *o)
{
    if (!name || !o)
        return pl_err(PL_EINVAL, "pl_nvme_sim_scenario: NULL argument");
    for (int i = 0; scenario_names[i]; i++) {
        if (!strcmp(name, scenario_names[i])) {
            o->frac_bandwidth = scenario_mix[i][0];
            o->frac_capacity = scenario_mix[i][1];
            o->frac_compute = scenario_mix[i][2];
            o->frac_gpu = scenario_mix[i][3];
            o->gpus = i >= 3 ? 1 : 0;
            return PL_OK;
        }
    }
    return pl_err(PL_ENOTFOUND, "unknown NVMe scenario '%s' (known: nvme-s1, nvme-s2, nvme-s3, "
                  "nvme-gpu-s1, nvme-gpu-s2, nvme-gpu-s3)", name);
}

/* ---- workload generation --------------------------------------------------- */

static pl_status check_cluster_opts(const pl_nvme_sim_opts *o)
{
    if (!o->cluster && (o->nodes < 1 || o->cores_per_node < 1 || o->nvme < 0 ||
                        o->nvme_bw_bytes_per_s <= 0 || o->nvme_cap_bytes <= 0))
        return pl_err(PL_EINVAL, "NVMe simulation: the cluster needs nodes, cores and positive "
                                 "device sizes");
    if ((int)o->layout < 0 || (int)o->layout > (int)PL_NVME_LAYOUT_PA ||
        (int)o->arrivals < 0 || (int)o->arrivals > (int)PL_NVME_ARRIVALS_REGULAR)
        return pl_err(PL_EINVAL, "NVMe simulation: unknown layout %d or arrival process %d",
                      (int)o->layout, (int)o->arrivals);
    if (!o->cluster && o->gpus < 0)
        return pl_err(PL_EINVAL, "NVMe simulation: negative GPU count");
    if (!o->cluster && o->layout == PL_NVME_LAYOUT_PA && o->nodes < 2 && o->nvme > 1)
        return pl_err(PL_EINVAL, "NVMe simulation: the physically-attached layout needs 2 nodes");
    return PL_OK;
}

/* What the run's cluster adds up to: the arrival rate, the load factors and
 * the utilisations divide by these. */
static pl_status cluster_totals(const pl_nvme_sim_opts *o, pl_disagg_totals *tot)
{
    pl_disagg_cluster *c = NULL;
    pl_status st = pl_nvme_sim_cluster(o, &c);
    if (st == PL_OK)
        st = pl_disagg_cluster_totals(c, tot);
    pl_disagg_cluster_free(c);
    if (st == PL_OK && tot->cores < 1)
        return pl_err(PL_EINVAL, "NVMe simulation: the cluster has no cores");
    return st;
}

pl_status pl_nvme_sim_rate(const pl_nvme_sim_opts *o, double *rate_per_s)
{
    if (!o || !rate_per_s)
        return pl_err(PL_EINVAL, "pl_nvme_sim_rate: NULL argument");
    pl_disagg_totals tot;
    pl_status st = check_cluster_opts(o);
    if (!st)
        st = cluster_totals(o, &tot);
    if (st)
        return st;
    const double f[4] = {o->frac_bandwidth, o->frac_capacity, o->frac_compute, o->frac_gpu};
    double total = f[0] + f[1] + f[2] + f[3];
    if (!(o->load > 0) || f[0] < 0 || f[1] < 0 || f[2] < 0 || f[3] < 0 || !(total > 0) ||
        !(o->gpu_overhead >= 0))
        return pl_err(PL_EINVAL, "NVMe simulation: load must be > 0, the workload fractions "
                                 "non-negative with a positive sum, gpu_overhead >= 0");
    /* E[demand x time] per workload for each resource of the fat node. */
    double cores = 0, bw = 0, cap = 0;
    for (int t = 0; t < 4; t++) {
        pl_disagg_workload w;
        pl_disagg_workload_preset((pl_disagg_type)t, 0, 0, &w);
        double p = f[t] / total;
        cores += p * w.cores * w.base_time_s;
        bw += p * (double)w.nvme_bw_bytes_per_s * w.base_time_s;
        cap += p * (double)w.nvme_cap_bytes * w.base_time_s;
    }
    if ((int)o->load_basis < 0 || (int)o->load_basis > (int)PL_NVME_LOAD_NVME)
        return pl_err(PL_EINVAL, "NVMe simulation: unknown load basis %d", (int)o->load_basis);
    double per_job = cores / (double)tot.cores;
    if (o->load_basis != PL_NVME_LOAD_CPU && tot.nvme > 0) {
        double lbw = bw / (double)tot.nvme_bw_bytes_per_s;
        double lcap = cap / (double)tot.nvme_cap_bytes;
        per_job = o->load_basis == PL_NVME_LOAD_NVME ? fmax(lbw, lcap)
                                                     : fmax(per_job, fmax(lbw, lcap));
    }
    *rate_per_s = o->load / per_job;
    return PL_OK;
}

pl_status pl_nvme_sim_generate(const pl_nvme_sim_opts *o, pl_disagg_workload **jobs, int32_t *n)
{
    if (!o || !jobs || !n)
        return pl_err(PL_EINVAL, "pl_nvme_sim_generate: NULL argument");
    double rate;
    pl_status st = pl_nvme_sim_rate(o, &rate);
    if (st)
        return st;
    if (o->jobs < 1 || !(o->frac_high >= 0 && o->frac_high <= 1) ||
        !(o->frac_fio >= 0 && o->frac_fio <= 1) || !(o->delta_high > 0))
        return pl_err(PL_EINVAL, "NVMe simulation: jobs must be >= 1, frac_high and frac_fio in "
                                 "[0, 1], delta_high > 0");
    pl_disagg_workload *w = pl_alloc((size_t)o->jobs, sizeof *w);
    if (!w)
        return PL_ENOMEM;
    double total = o->frac_bandwidth + o->frac_capacity + o->frac_compute + o->frac_gpu;
    uint64_t rng = o->seed;
    double t = 0;
    for (int32_t i = 0; i < o->jobs; i++) {
        /* The first workload arrives at 0 so that runs start at a round time. */
        if (i > 0)
            t += o->arrivals == PL_NVME_ARRIVALS_REGULAR ? 1.0 / rate
                                                         : -log(1.0 - pl_rng_unit(&rng)) / rate;
        double u = pl_rng_unit(&rng) * total;
        double below_gpu = o->frac_bandwidth + o->frac_capacity + o->frac_compute;
        pl_disagg_type type = u < o->frac_bandwidth ? PL_DISAGG_BANDWIDTH_BOUND
                              : u < o->frac_bandwidth + o->frac_capacity ? PL_DISAGG_CAPACITY_BOUND
                              : u < below_gpu || !(o->frac_gpu > 0)     ? PL_DISAGG_COMPUTE_BOUND
                                                                        : PL_DISAGG_GPU_BOUND;
        int high = pl_rng_unit(&rng) < o->frac_high;
        pl_disagg_workload_preset(type, t, high, &w[i]);
        /* Extra draws only when asked, so default traces stay as they were. */
        if (o->frac_fio > 0 && type == PL_DISAGG_BANDWIDTH_BOUND && pl_rng_unit(&rng) < o->frac_fio)
            w[i].model = PL_DISAGG_MODEL_FIO;
        if (high)
            w[i].deadline_s = w[i].base_time_s * o->delta_high + t;
        /* Fig. 5.8: the overhead slows the run, not the deadline. */
        if (type == PL_DISAGG_GPU_BOUND)
            w[i].base_time_s *= 1.0 + o->gpu_overhead;
    }
    *jobs = w;
    *n = o->jobs;
    return PL_OK;
}

/* ---- the run --------------------------------------------------------------- */

typedef struct run_state {
    const pl_nvme_sim_opts *o;
    pl_disagg_cluster *c;
    pl_disagg_totals tot;    /* of c when it is built */
    pl_disagg_policy policy;
    pl_disagg_workload *w;
    pl_nvme_sim_record *rec;
    int32_t n;
    int32_t *placement;      /* disagg placement id per job */
    uint64_t *ver;           /* per job: finish events of another version are stale */
    double *end;             /* per job: the end its live finish event carries */
    int32_t *queue;          /* queued jobs in EDF order */
    int32_t nqueue;
    pl_sim_heap heap;
    /* per composition id (never reused): devices, live sharers, workloads hosted */
    int32_t *comp_size, *comp_live, *comp_hosted;
    double *comp_t0;         /* creation time */
    int64_t comp_cap;
    int32_t ncomp;
    /* demands of arrived unfinished jobs (Eq. 4.4's load factors) */
    double lf_cores, lf_bw, lf_cap;
    /* reservations of running jobs, and composed devices */
    double run_cores, run_bw, run_cap, composed;
    double live_comps, comp_sharers; /* live compositions, workloads running on them */
    double last_t, first_t;
    int windowed;            /* 0: the window is the whole run */
    double win0, win1;
    double area_cores, area_bw, area_cap, area_dev, area_comps, area_sharers;
    int32_t maxcomp, minfrag;
} run_state;

static int job_type(const pl_disagg_workload *w)
{
    int nvme = w->nvme_bw_bytes_per_s > 0 || w->nvme_cap_bytes > 0;
    int gpu = w->gpu_bw_bytes_per_s > 0 || w->gpu_mem_bytes > 0;
    if (gpu)
        return 3;
    if (!nvme)
        return 2;
    return (w->model == PL_DISAGG_MODEL_SMUFIN || w->model == PL_DISAGG_MODEL_FIO) ? 0 : 1;
}

/* EDF key, the order pl_disagg_edf_order() uses: deadline, arrival, index. */
static int edf_before(const run_state *s, int32_t a, int32_t b)
{
    if (s->w[a].deadline_s != s->w[b].deadline_s)
        return s->w[a].deadline_s < s->w[b].deadline_s;
    if (s->w[a].arrival_s != s->w[b].arrival_s)
        return s->w[a].arrival_s < s->w[b].arrival_s;
    return a < b;
}

static void enqueue(run_state *s, int32_t j)
{
    int32_t i = s->nqueue++;
    while (i > 0 && edf_before(s, j, s->queue[i - 1])) {
        s->queue[i] = s->queue[i - 1];
        i--;
    }
    s->queue[i] = j;
}

static void advance_clock(run_state *s, double t)
{
    double a = s->last_t, b = t;
    if (s->windowed) {
        a = fmax(a, s->win0);
        b = fmin(b, s->win1);
    }
    double dt = b > a ? b - a : 0;
    s->area_cores += dt * s->run_cores;
    s->area_bw += dt * s->run_bw;
    s->area_cap += dt * s->run_cap;
    s->area_dev += dt * s->composed;
    s->area_comps += dt * s->live_comps;
    s->area_sharers += dt * s->comp_sharers;
    s->last_t = t;
}

static int in_window(const run_state *s, double t)
{
    return !s->windowed || (t >= s->win0 && t <= s->win1);
}

static pl_status note_composition(run_state *s, int32_t comp, int32_t size)
{
    if (comp >= s->ncomp) {
        int64_t cap = s->comp_cap;
        pl_status st = pl_grow((void **)&s->comp_size, &cap, comp + 1, sizeof *s->comp_size);
        if (!st) {
            cap = s->comp_cap;
            st = pl_grow((void **)&s->comp_live, &cap, comp + 1, sizeof *s->comp_live);
        }
        if (!st) {
            cap = s->comp_cap;
            st = pl_grow((void **)&s->comp_hosted, &cap, comp + 1, sizeof *s->comp_hosted);
        }
        if (!st) {
            cap = s->comp_cap;
            st = pl_grow((void **)&s->comp_t0, &cap, comp + 1, sizeof *s->comp_t0);
        }
        if (st)
            return st;
        s->comp_cap = cap;
        for (int32_t k = s->ncomp; k <= comp; k++) {
            s->comp_size[k] = s->comp_live[k] = s->comp_hosted[k] = 0;
            s->comp_t0[k] = -1;
        }
        s->ncomp = comp + 1;
    }
    if (s->comp_live[comp] == 0) {
        s->composed += size;
        s->live_comps++;
    }
    s->comp_sharers++;
    if (s->comp_hosted[comp] == 0)
        s->comp_t0[comp] = s->last_t;
    s->comp_size[comp] = size;
    s->comp_live[comp]++;
    s->comp_hosted[comp]++;
    return PL_OK;
}

/* A sharing set changed (a composition's sharers or a GPU's busy vGPUs):
 * the disagg module moved the ends of the workloads concerned
 * (opts.reshare); replace the finish event of each running one that moved.
 * `skip` is the job just started (-1 for none). */
static pl_status reschedule_sharers(run_state *s, int32_t skip)
{
    if (s->o->static_sharing)
        return PL_OK;
    for (int32_t j = 0; j < s->n; j++) {
        const pl_nvme_sim_record *r = &s->rec[j];
        if (j == skip || (r->composition < 0 && r->type != 3) || r->start_s < 0 ||
            r->finish_s >= 0)
            continue;
        double end;
        if (pl_disagg_placement(s->c, s->placement[j], NULL, NULL, NULL, NULL, &end))
            return pl_err(PL_EINTERNAL, "NVMe simulation: workload %d lost its placement", (int)j);
        if (end == s->end[j])
            continue;
        s->end[j] = end;
        pl_status st = pl_sim_heap_push(&s->heap, end, PL_SIM_EV_FINISH, j, ++s->ver[j]);
        if (st)
            return st;
    }
    return PL_OK;
}

static pl_status start_job(run_state *s, int32_t j, const pl_disagg_decision *d, double now)
{
    const pl_disagg_workload *w = &s->w[j];
    pl_status st;
    int32_t id;
    if (pl_disagg_apply(s->c, w, d, now, &id))
        return pl_err(PL_EINTERNAL, "NVMe simulation: the disagg module refused its own decision "
                                    "for workload %d: %s",
                      (int)j, pl_last_error());
    int32_t node, comp;
    double end;
    pl_disagg_placement(s->c, id, &node, &comp, NULL, NULL, &end);
    pl_nvme_sim_record *r = &s->rec[j];
    r->start_s = now;
    r->node = node;
    r->composition = comp;
    r->decided_by = d->policy;
    if (d->policy == PL_DISAGG_MAX_COMPOSITION)
        s->maxcomp++;
    else if (d->policy == PL_DISAGG_MIN_FRAGMENTATION)
        s->minfrag++;
    if (comp >= 0) {
        pl_disagg_composition_info info;
        pl_disagg_composition(s->c, comp, &info);
        r->comp_size = info.n_devices;
        r->sharers = info.sharers;
        if ((st = note_composition(s, comp, info.n_devices)))
            return st;
    }
    s->placement[j] = id;
    s->run_cores += w->cores;
    s->run_bw += (double)w->nvme_bw_bytes_per_s;
    s->run_cap += (double)w->nvme_cap_bytes;
    s->end[j] = end;
    if ((st = pl_sim_heap_push(&s->heap, end, PL_SIM_EV_FINISH, j, ++s->ver[j])))
        return st;
    return comp >= 0 || r->type == 3 ? reschedule_sharers(s, j) : PL_OK;
}

static pl_status finish_job(run_state *s, int32_t j, double now)
{
    const pl_disagg_workload *w = &s->w[j];
    pl_nvme_sim_record *r = &s->rec[j];
    pl_disagg_release_at(s->c, s->placement[j], now);
    r->finish_s = now;
    r->missed = now > w->deadline_s;
    s->run_cores -= w->cores;
    s->run_bw -= (double)w->nvme_bw_bytes_per_s;
    s->run_cap -= (double)w->nvme_cap_bytes;
    s->lf_cores -= w->cores;
    s->lf_bw -= (double)w->nvme_bw_bytes_per_s;
    s->lf_cap -= (double)w->nvme_cap_bytes;
    if (r->composition >= 0) {
        s->comp_sharers--;
        if (--s->comp_live[r->composition] == 0) {
            s->composed -= s->comp_size[r->composition];
            s->live_comps--;
        }
    }
    return r->composition >= 0 || r->type == 3 ? reschedule_sharers(s, -1) : PL_OK;
}

/* Try every queued job in EDF order; one that does not fit waits. */
static pl_status schedule(run_state *s, double now)
{
    double tot_bw = (double)s->tot.nvme_bw_bytes_per_s;
    double tot_cap = (double)s->tot.nvme_cap_bytes;
    double lf_bw = tot_bw > 0 ? s->lf_bw / tot_bw : 0;
    double lf_cap = tot_cap > 0 ? s->lf_cap / tot_cap : 0;
    int32_t kept = 0;
    for (int32_t q = 0; q < s->nqueue; q++) {
        int32_t j = s->queue[q];
        pl_disagg_decision d;
        pl_status st = pl_disagg_decide(s->c, s->policy, &s->w[j], now,
                                        lf_bw, lf_cap, &d);
        if (st)
            return st;
        if (d.placed) {
            if ((st = start_job(s, j, &d, now)))
                return st;
        } else {
            s->queue[kept++] = j;
        }
    }
    s->nqueue = kept;
    return PL_OK;
}

static void summarise(run_state *s, pl_nvme_sim_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->jobs = s->n;
    if (!s->windowed) {
        s->win0 = s->first_t;
        s->win1 = s->last_t;
    }
    sum->window_start_s = s->win0;
    sum->window_end_s = s->win1;
    sum->window_reached = s->windowed;
    int32_t missed = 0, missed_high = 0, ran = 0, counted = 0;
    double wait = 0;
    for (int32_t j = 0; j < s->n; j++) {
        const pl_nvme_sim_record *r = &s->rec[j];
        if (r->finish_s >= 0)
            sum->done++;
        else
            sum->unfinished++;
        if (!in_window(s, r->arrival_s))
            continue;
        counted++;
        if (r->finish_s >= 0) {
            ran++;
            wait += r->start_s - r->arrival_s;
        }
        missed += r->missed;
        missed_high += r->missed && r->high_priority;
    }
    sum->window_jobs = counted;
    sum->missed_pct = counted ? 100.0 * missed / counted : 0;
    sum->missed_high_pct = counted ? 100.0 * missed_high / counted : 0;
    sum->mean_wait_s = ran ? wait / ran : 0;
    double size = 0, hosted = 0;
    for (int32_t k = 0; k < s->ncomp; k++) {
        if (s->comp_hosted[k] == 0 || !in_window(s, s->comp_t0[k]))
            continue;
        sum->compositions++;
        size += s->comp_size[k];
        hosted += s->comp_hosted[k];
    }
    sum->mean_comp_size = sum->compositions ? size / sum->compositions : 0;
    sum->mean_hosted = sum->compositions ? hosted / sum->compositions : 0;
    sum->mean_sharing = s->area_comps > 0 ? s->area_sharers / s->area_comps : 0;
    double span = s->win1 - s->win0;
    if (span > 0) {
        double dev = (double)s->tot.nvme;
        sum->cpu_util_pct = 100.0 * s->area_cores / (span * (double)s->tot.cores);
        if (dev > 0) {
            sum->nvme_usage_pct = 100.0 * s->area_dev / (span * dev);
            sum->bw_util_pct = 100.0 * s->area_bw / (span * (double)s->tot.nvme_bw_bytes_per_s);
            sum->cap_util_pct = 100.0 * s->area_cap / (span * (double)s->tot.nvme_cap_bytes);
        }
    }
    sum->maxcomp_decisions = s->maxcomp;
    sum->minfrag_decisions = s->minfrag;
}

static pl_status run_events(run_state *s)
{
    pl_sim_event e;
    s->first_t = s->last_t = s->heap.ev[0].time;
    while (s->heap.n > 0) {
        double now = s->heap.ev[0].time;
        advance_clock(s, now);
        /* Every event at this time before one scheduling pass. */
        while (s->heap.n > 0 && s->heap.ev[0].time == now) {
            pl_sim_heap_pop(&s->heap, &e);
            if (e.kind == PL_SIM_EV_FINISH) {
                if (e.version != s->ver[e.job])
                    continue; /* its composition's sharing changed since */
                pl_status st = finish_job(s, e.job, now);
                if (st)
                    return st;
            } else {
                const pl_disagg_workload *w = &s->w[e.job];
                s->lf_cores += w->cores;
                s->lf_bw += (double)w->nvme_bw_bytes_per_s;
                s->lf_cap += (double)w->nvme_cap_bytes;
                enqueue(s, e.job);
            }
        }
        pl_status st = schedule(s, now);
        if (st)
            return st;
    }
    return PL_OK;
}

/* Per workload and per composition. */
static const pl_column run_cols[] = {
    PL_COLUMN(run_state, w),         PL_COLUMN(run_state, placement),   PL_COLUMN(run_state, queue),
    PL_COLUMN(run_state, comp_size), PL_COLUMN(run_state, comp_live),   PL_COLUMN(run_state, comp_hosted),
    PL_COLUMN(run_state, comp_t0),   PL_COLUMN(run_state, ver),         PL_COLUMN(run_state, end),
};

static void free_state(run_state *s)
{
    pl_disagg_cluster_free(s->c);
    pl_columns_free(s, run_cols, PL_NCOLUMNS(run_cols));
    pl_sim_heap_free(&s->heap);
}

static pl_status check_trace(const pl_disagg_totals *tot, const pl_disagg_workload *jobs,
                             int32_t n, pl_disagg_policy policy)
{
    if ((int)policy < 0 || (int)policy > (int)PL_DISAGG_GPU_AWARE)
        return pl_err(PL_EINVAL, "NVMe simulation: policy %d is not one of first-fit, "
                                 "max-composition, min-fragmentation, disagg-aware, gpu-aware",
                      (int)policy);
    for (int32_t j = 0; j < n; j++) {
        if (job_type(&jobs[j]) == 3 && tot->gpus < 1)
            return pl_err(PL_EINVAL, "NVMe simulation: workload %d requests a GPU and the "
                                     "cluster has none",
                          (int)j);
        if (!(jobs[j].arrival_s >= 0) || !isfinite(jobs[j].arrival_s))
            return pl_err(PL_EINVAL, "NVMe simulation: workload %d has a bad arrival time",
                          (int)j);
    }
    return PL_OK;
}

/* One replay; windowed: measure over [w0, w1] only. */
static pl_status simulate(const pl_nvme_sim_opts *o, const pl_disagg_workload *jobs, int32_t n,
                          pl_disagg_policy policy, int windowed, double w0, double w1,
                          pl_nvme_sim_result **out)
{
    pl_status st;
    run_state s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.n = n;
    s.policy = policy;
    s.windowed = windowed;
    s.win0 = w0;
    s.win1 = w1;
    pl_nvme_sim_result *r = pl_alloc(1, sizeof *r);
    s.w = pl_alloc((size_t)n, sizeof *s.w);
    s.rec = pl_alloc((size_t)n, sizeof *s.rec);
    s.placement = pl_alloc((size_t)n, sizeof *s.placement);
    s.queue = pl_alloc((size_t)n, sizeof *s.queue);
    s.ver = pl_alloc((size_t)n, sizeof *s.ver);
    s.end = pl_alloc((size_t)n, sizeof *s.end);
    if (!r || !s.w || !s.rec || !s.placement || !s.queue || !s.ver || !s.end) {
        st = PL_ENOMEM;
        goto fail;
    }
    memcpy(s.w, jobs, (size_t)n * sizeof *s.w);
    if ((st = pl_nvme_sim_cluster(o, &s.c)) || (st = pl_disagg_cluster_totals(s.c, &s.tot)))
        goto fail;
    for (int32_t j = 0; j < n; j++) {
        pl_nvme_sim_record *rec = &s.rec[j];
        rec->arrival_s = s.w[j].arrival_s;
        rec->deadline_s = s.w[j].deadline_s;
        rec->start_s = rec->finish_s = -1;
        rec->type = job_type(&s.w[j]);
        rec->high_priority = s.w[j].high_priority != 0;
        rec->missed = 1; /* until it finishes in time */
        rec->node = rec->composition = -1;
        rec->decided_by = policy; /* replaced by Eq. 4.4's pick when it runs */
        if ((st = pl_sim_heap_push(&s.heap, s.w[j].arrival_s, PL_SIM_EV_ARRIVAL, j, 0)))
            goto fail;
    }
    if ((st = run_events(&s)))
        goto fail;
    summarise(&s, &r->sum);
    r->n = n;
    r->rec = s.rec;
    s.rec = NULL;
    free_state(&s);
    *out = r;
    return PL_OK;
fail:
    free(s.rec);
    free_state(&s);
    free(r);
    return st == PL_ENOMEM ? pl_err(PL_ENOMEM, "NVMe simulation: out of memory") : st;
}

typedef struct load_step {
    double t;
    int arrival;
    int32_t cores;
} load_step;

static int step_cmp(const void *pa, const void *pb)
{
    const load_step *a = pa, *b = pb;
    int c = pl_cmp_double(&a->t, &b->t);
    return c ? c : a->arrival - b->arrival; /* finishes first, as in the event loop */
}

/* The thesis's window: from the first arrival at which the ideal fat node's
 * CPU load factor reaches the target, to the last arrival. */
static pl_status fat_node_window(const pl_nvme_sim_opts *o, const pl_disagg_totals *tot,
                                 const pl_disagg_workload *jobs, int32_t n, int *reached,
                                 double *w0, double *w1)
{
    pl_nvme_sim_opts fat = *o;
    fat.cluster = NULL;
    fat.nodes = 1;
    fat.cores_per_node = (int32_t)tot->cores;
    fat.nvme = tot->nvme > 0 ? 1 : 0;
    fat.nvme_bw_bytes_per_s = tot->nvme > 0 ? tot->nvme_bw_bytes_per_s : 1;
    fat.nvme_cap_bytes = tot->nvme > 0 ? tot->nvme_cap_bytes : 1;
    fat.gpus = tot->gpus;
    fat.layout = PL_NVME_LAYOUT_DISAGG; /* the load factor does not depend on the layout */
    pl_disagg_workload *ideal = pl_alloc((size_t)n, sizeof *ideal);
    load_step *steps = pl_alloc(2 * (size_t)n, sizeof *steps);
    if (!ideal || !steps) {
        free(ideal);
        free(steps);
        return pl_err(PL_ENOMEM, "NVMe simulation: out of memory");
    }
    memcpy(ideal, jobs, (size_t)n * sizeof *ideal);
    for (int32_t j = 0; j < n; j++) {
        ideal[j].model = PL_DISAGG_MODEL_NONE; /* the ideal node has no sharing slowdown */
        /* The window follows the CPU load factor only: a GPU job holds its
         * cores for its base time on the fat node. */
        ideal[j].gpu_bw_bytes_per_s = ideal[j].gpu_mem_bytes = 0;
    }
    pl_nvme_sim_result *r = NULL;
    pl_status st = simulate(&fat, ideal, n, PL_DISAGG_FIRST_FIT, 0, 0, 0, &r);
    free(ideal);
    if (st) {
        free(steps);
        return st;
    }
    int32_t ns = 0;
    double last_arrival = 0;
    for (int32_t j = 0; j < n; j++) {
        const pl_nvme_sim_record *x = &r->rec[j];
        steps[ns++] = (load_step){x->arrival_s, 1, jobs[j].cores};
        if (x->finish_s >= 0)
            steps[ns++] = (load_step){x->finish_s, 0, jobs[j].cores};
        last_arrival = fmax(last_arrival, x->arrival_s);
    }
    pl_nvme_sim_result_free(r);
    qsort(steps, (size_t)ns, sizeof *steps, step_cmp);
    double total = (double)fat.cores_per_node, cores = 0;
    *reached = 0;
    for (int32_t i = 0; i < ns && !*reached; i++) {
        cores += steps[i].arrival ? steps[i].cores : -steps[i].cores;
        if (steps[i].arrival && cores / total >= o->load - 1e-12) {
            *reached = 1;
            *w0 = steps[i].t;
        }
    }
    *w1 = last_arrival;
    free(steps);
    return PL_OK;
}

pl_status pl_nvme_sim_run(const pl_nvme_sim_opts *o, const pl_disagg_workload *jobs, int32_t n,
                          pl_disagg_policy policy, pl_nvme_sim_result **out)
{
    if (!jobs || !out || n < 1)
        return pl_err(PL_EINVAL, "pl_nvme_sim_run: NULL argument or no workload");
    pl_nvme_sim_opts def;
    if (!o) {
        pl_nvme_sim_opts_init(&def);
        o = &def;
    }
    pl_disagg_totals tot;
    pl_status st = check_cluster_opts(o);
    if (!st)
        st = cluster_totals(o, &tot);
    if (!st)
        st = check_trace(&tot, jobs, n, policy);
    if (st)
        return st;
    if (tot.cores > INT32_MAX)
        return pl_err(PL_EINVAL, "NVMe simulation: %lld cores are more than the fat node holds",
                      (long long)tot.cores);
    int reached = 0;
    double w0 = 0, w1 = 0;
    if (o->window && (st = fat_node_window(o, &tot, jobs, n, &reached, &w0, &w1)))
        return st;
    return simulate(o, jobs, n, policy, reached, w0, w1, out);
}

void pl_nvme_sim_result_free(pl_nvme_sim_result *r)
{
    if (!r)
        return;
    free(r->rec);
    free(r);
}

pl_status pl_nvme_sim_result_summary(const pl_nvme_sim_result *r, pl_nvme_sim_summary *s)
{
    if (!r || !s)
        return pl_err(PL_EINVAL, "pl_nvme_sim_result_summary: NULL argument");
    *s = r->sum;
    return PL_OK;
}

int32_t pl_nvme_sim_result_count(const pl_nvme_sim_result *r)
{
    return r ? r->n : 0;
}

pl_status pl_nvme_sim_result_record(const pl_nvme_sim_result *r, int32_t i,
                                    pl_nvme_sim_record *rec)
{
    if (!r || !rec || i < 0 || i >= r->n)
        return pl_err(PL_EINVAL, "pl_nvme_sim_result_record: NULL argument or index out of range");
    *rec = r->rec[i];
    return PL_OK;
}

pl_status pl_nvme_sim_result_write_csv(const pl_nvme_sim_result *r, FILE *f)
{
    static const char *const types[] = {"bandwidth", "capacity", "compute", "other"};
    if (!r || !f)
        return pl_err(PL_EINVAL, "pl_nvme_sim_result_write_csv: NULL argument");
    int bad = fprintf(f, "job,type,high_priority,arrival,deadline,start,finish,wait,missed,node,"
                         "composition,comp_size,sharers,decided_by\n") < 0;
    for (int32_t j = 0; j < r->n && !bad; j++) {
        const pl_nvme_sim_record *x = &r->rec[j];
        double wait = x->start_s >= 0 ? x->start_s - x->arrival_s : -1;
        bad = fprintf(f, "%d,%s,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%d,%d,%d,%d,%d,%s\n", (int)j,
                      types[x->type], x->high_priority, x->arrival_s, x->deadline_s, x->start_s,
                      x->finish_s, wait, x->missed, (int)x->node, (int)x->composition,
                      (int)x->comp_size, (int)x->sharers, pl_disagg_policy_name(x->decided_by)) < 0;
    }
    if (bad || ferror(f))
        return pl_err(PL_EIO, "NVMe simulation: writing the CSV failed");
    return PL_OK;
}
