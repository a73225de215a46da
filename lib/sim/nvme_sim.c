/* Seed 001's NVMe experiments (Call thesis, Tables 4.2-4.5): Poisson
 * arrivals, an EDF queue, one of the thesis's rules, its metrics; replayed
 * by pl_sim with the rule as its policy and the composed-storage model
 * (fabric.c; doc/simulator.md sec. 3d). Definitions and choices:
 * doc/results.md, "Seed 001". */
#include <math.h>
#include <stdio.h>
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

static int job_type(const pl_disagg_workload *w)
{
    if (pl_disagg_uses_gpu(w))
        return 3;
    if (!pl_disagg_uses_nvme(w))
        return 2;
    return (w->model == PL_DISAGG_MODEL_SMUFIN || w->model == PL_DISAGG_MODEL_FIO) ? 0 : 1;
}

/* An SLO that brings arrival + SLO back to the deadline exactly. */
static double slo_of(const pl_disagg_workload *w)
{
    if (!isfinite(w->deadline_s))
        return 0;
    double slo = w->deadline_s - w->arrival_s;
    while (w->arrival_s + slo < w->deadline_s)
        slo = nextafter(slo, INFINITY);
    while (w->arrival_s + slo > w->deadline_s)
        slo = nextafter(slo, -INFINITY);
    return slo;
}

static const char *type_name(const pl_disagg_workload *w)
{
    return w->model == PL_DISAGG_MODEL_SMUFIN ? PL_NVME_TYPE_SMUFIN
           : w->model == PL_DISAGG_MODEL_FIO  ? PL_NVME_TYPE_FIO
           : w->model == PL_DISAGG_MODEL_YOLO ? PL_NVME_TYPE_YOLO
           : pl_disagg_uses_nvme(w)           ? "capacity"
                                              : "compute";
}

/* A vGPU workload's share of a GPU the size of tot's mean one, in
 * thousandths (what Kubernetes GPU sharing would ask; the rules read its
 * bandwidth and memory). */
static int64_t gpu_share(const pl_disagg_workload *w, const pl_disagg_totals *tot)
{
    if (!pl_disagg_uses_gpu(w) || tot->gpus < 1)
        return 0;
    double bw = (double)w->gpu_bw_bytes_per_s * tot->gpus / (double)tot->gpu_bw_bytes_per_s;
    double mem = (double)w->gpu_mem_bytes * tot->gpus / (double)tot->gpu_mem_bytes;
    double milli = ceil(1000 * fmax(bw, mem));
    return milli < 1 ? 1 : milli > 999 ? 999 : (int64_t)milli;
}

/* The workloads as jobs of one task: what the NVMe rules read back
 * (pl_nvme_job_workload()), and EDF as the queue's priority. */
static pl_status to_jobs(const pl_disagg_workload *w, int32_t n, const pl_disagg_totals *tot, pl_jobset **out,
                         double **prio)
{
    pl_jobset *set = NULL;
    pl_status st = pl_jobset_create(&set);
    if (!st && !(*prio = pl_alloc((size_t)n + 1, sizeof **prio)))
        st = PL_ENOMEM;
    for (int32_t j = 0; j < n && !st; j++) {
        char name[24];
        snprintf(name, sizeof name, "w%d", (int)j);
        pl_job *job = NULL;
        pl_task_demand d = {.cores = w[j].cores, .memory = w[j].mem_bytes,
                            .storage_bw = w[j].nvme_bw_bytes_per_s, .storage_bytes = w[j].nvme_cap_bytes,
                            .gpu_milli = gpu_share(&w[j], tot), .bandwidth = w[j].gpu_bw_bytes_per_s,
                            .gpu_memory = w[j].gpu_mem_bytes};
        if ((st = pl_job_create(name, &job)))
            break;
        double slo = slo_of(&w[j]);
        if ((st = pl_job_add_task(job, &d, NULL)) ||
            (st = pl_job_set_workload(job, type_name(&w[j]), w[j].high_priority ? PL_NVME_SIZE_HIGH : "regular")) ||
            (st = pl_job_set_duration(job, w[j].base_time_s)) || (st = pl_job_set_arrival(job, w[j].arrival_s)) ||
            (slo > 0 && (st = pl_job_set_slo(job, slo)))) {
            pl_job_free(job);
            break;
        }
        st = pl_jobset_add(set, job, NULL);
        /* Earliest deadline first: ties by arrival, then index, as pl_sim orders them. */
        (*prio)[j] = -w[j].deadline_s;
    }
    return PL_HAND_OUT(st, set, pl_jobset_free, out);
}

/* The run as pl_sim's event loop runs it: rounds at the events' times, the
 * NVMe rule as the policy, the fabric as the runtime model. */
static pl_status run_sim(const pl_nvme_sim_opts *o, pl_sim_fabric *f, pl_disagg_policy policy)
{
    pl_topology *own = NULL;
    pl_jobset *set = NULL;
    double *prio = NULL;
    pl_sim *sim = NULL;
    pl_sim_result *res = NULL;
    pl_profile_set *none = NULL; /* no job here is timed by a profile */
    pl_nvme_choice *choices = pl_alloc((size_t)f->n + 1, sizeof *choices);
    pl_status st = choices ? pl_profile_set_create(&none) : PL_ENOMEM;
    if (!st)
        st = pl_nvme_sim_sim_topology(o, &own);
    if (!st)
        st = to_jobs(f->w, f->n, &f->tot, &set, &prio);
    const pl_policy_ops *ops = pl_nvme_rule_ops(policy);
    pl_nvme_rule_opts ro;
    pl_nvme_rule_opts_init(&ro);
    ro.live = f->c;
    ro.choices = choices;
    ro.cap = f->n;
    pl_sim_opts so;
    pl_sim_opts_init(&so);
    so.interval = 0;
    so.job_priority = prio;
    so.policy.policy = ops ? ops->name : NULL;
    so.policy.policy_opts = &ro;
    so.policy.profiles = none;
    if (!st)
        st = pl_sim_create(own, set, &so, &sim);
    if (!st) {
        pl_sim_use_fabric(sim, ops, f, choices);
        st = pl_sim_run(sim, &res);
    }
    /* One record per job: the simulator's, which the model annotated. */
    for (int32_t j = 0; j < f->n && !st; j++) {
        pl_sim_job_record sr;
        pl_nvme_sim_record *r = &f->rec[j];
        if ((st = pl_sim_result_job(res, j, &sr)))
            break;
        r->start_s = sr.start;
        r->finish_s = sr.finish;
        r->node = sr.machine;
        r->missed = sr.state != PL_SIM_DONE || sr.finish > f->w[j].deadline_s;
    }
    pl_sim_result_free(res);
    pl_sim_free(sim);
    pl_jobset_free(set);
    pl_topology_free(own);
    pl_profile_set_free(none);
    free(prio);
    free(choices);
    return st;
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
    pl_sim_fabric f;
    memset(&f, 0, sizeof f);
    pl_nvme_sim_result *r = pl_alloc(1, sizeof *r);
    pl_disagg_cluster *c = NULL;
    pl_status st = r ? pl_nvme_sim_cluster(o, &c) : PL_ENOMEM;
    if (st || (st = pl_sim_fabric_init(&f, c, jobs, n, !o->static_sharing)))
        goto fail;
    f.windowed = windowed;
    f.win0 = w0;
    f.win1 = w1;
    for (int32_t j = 0; j < n; j++) {
        pl_nvme_sim_record *rec = &f.rec[j];
        rec->arrival_s = jobs[j].arrival_s;
        rec->deadline_s = jobs[j].deadline_s;
        rec->type = job_type(&jobs[j]);
        rec->high_priority = jobs[j].high_priority != 0;
        rec->composition = -1;
        rec->decided_by = policy; /* replaced by Eq. 4.4's pick when it runs */
    }
    if ((st = run_sim(o, &f, policy)))
        goto fail;
    pl_sim_fabric_summarise(&f, &r->sum);
    r->n = n;
    r->rec = f.rec;
    f.rec = NULL;
    pl_sim_fabric_free(&f);
    *out = r;
    return PL_OK;
fail:
    pl_sim_fabric_free(&f);
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
