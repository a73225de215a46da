/* Workload presets, performance models and the thesis's formulas
 * (Eq. 4.1-4.6, 5.1, Algorithm 3's split count, EDF order). doc/disagg.md
 * gives the derivation of every constant here. */
#include <math.h>
#include <stdlib.h>
#include "disagg_impl.h"

#define MB 1000000LL
#define GB 1000000000LL

/* ---- workloads ------------------------------------------------------------------ */

pl_status pl_disagg_set_deadline(pl_disagg_workload *w)
{
    if (!w)
        return pl_err(PL_EINVAL, "pl_disagg_set_deadline: NULL workload");
    double delta = w->high_priority ? PL_DISAGG_DELTA_HIGH : PL_DISAGG_DELTA_REGULAR;
    w->deadline_s = w->base_time_s * delta + w->arrival_s;
    return PL_OK;
}

pl_status pl_disagg_workload_preset(pl_disagg_type type, double arrival_s, int high_priority,
                                    pl_disagg_workload *out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_disagg_workload_preset: NULL out");
    /* Tables 4.1 and 5.1, indexed by pl_disagg_type. */
    static const pl_disagg_workload presets[] = {
        [PL_DISAGG_BANDWIDTH_BOUND] = {.base_time_s = 1600, .nvme_bw_bytes_per_s = 1800 * MB,
                                       .nvme_cap_bytes = 43 * GB, .cores = 6,
                                       .model = PL_DISAGG_MODEL_SMUFIN},
        [PL_DISAGG_CAPACITY_BOUND] = {.base_time_s = 800, .nvme_bw_bytes_per_s = 160 * MB,
                                      .nvme_cap_bytes = 600 * GB, .cores = 6},
        [PL_DISAGG_COMPUTE_BOUND] = {.base_time_s = 900, .cores = 15},
        [PL_DISAGG_GPU_BOUND] = {.base_time_s = 152, .gpu_bw_bytes_per_s = 1000 * MB,
                                 .gpu_mem_bytes = 2 * GB, .cores = 2, .model = PL_DISAGG_MODEL_YOLO},
    };
    if ((unsigned)type >= sizeof presets / sizeof *presets)
        return pl_err(PL_EINVAL, "pl_disagg_workload_preset: unknown type %d", (int)type);
    pl_disagg_workload w = presets[type];
    w.arrival_s = arrival_s;
    w.high_priority = high_priority != 0;
    *out = w;
    return pl_disagg_set_deadline(out);
}

pl_status dg_check_workload(const pl_disagg_workload *w, const char *fn)
{
    if (!w)
        return pl_err(PL_EINVAL, "%s: NULL workload", fn);
    if (!(w->base_time_s > 0) || !isfinite(w->base_time_s))
        return pl_err(PL_EINVAL, "%s: base_time_s must be positive (got %g)", fn, w->base_time_s);
    if (w->nvme_bw_bytes_per_s < 0 || w->nvme_cap_bytes < 0 || w->gpu_bw_bytes_per_s < 0 ||
        w->gpu_mem_bytes < 0 || w->cores < 0 || w->mem_bytes < 0)
        return pl_err(PL_EINVAL, "%s: negative demand", fn);
    if (pl_disagg_uses_nvme(w) && pl_disagg_uses_gpu(w))
        return pl_err(PL_EINVAL, "%s: a workload requesting both NVMe and a GPU is not modelled", fn);
    if ((w->model == PL_DISAGG_MODEL_SMUFIN || w->model == PL_DISAGG_MODEL_FIO) && !pl_disagg_uses_nvme(w))
        return pl_err(PL_EINVAL, "%s: the SMUFIN/FIO models need an NVMe request", fn);
    if (w->model == PL_DISAGG_MODEL_YOLO && !pl_disagg_uses_gpu(w))
        return pl_err(PL_EINVAL, "%s: the YOLO model needs a GPU request", fn);
    if ((unsigned)w->model > PL_DISAGG_MODEL_YOLO)
        return pl_err(PL_EINVAL, "%s: unknown model %d", fn, (int)w->model);
    return PL_OK;
}

/* ---- performance models --------------------------------------------------------- */

/* SMUFIN run time (s) of a 1600 s job on k devices with s sharers including
 * itself, s = 1..6 (the range the thesis measured, Fig. 3.5 / 4.3). Values
 * are chosen to honour the text: within 4% of the solo time up to 2 sharers
 * at k = 1, 3 at k = 2 and 6 at k = 3; past the threshold each extra
 * sharer multiplies the time by 1.5 ("roughly exponential"; beyond s = 6
 * the same rule extrapolates); composing lowers the solo time (1600, 1500, 1450)
 * and six sharers on 3 devices stay below one job alone on one device. */
static const double smufin_table[3][6] = {
    {1600, 1650, 2475, 3712.5, 5568.75, 8353.125},
    {1500, 1520, 1560, 2340, 3510, 5265},
    {1450, 1460, 1470, 1480, 1490, 1500},
};

static double smufin_table_time(double base, int32_t k, int32_t s)
{
    /* The thesis measured up to 3 devices: more devices do not help further. */
    int32_t ki = k > 3 ? 2 : k - 1;
    double t = smufin_table[ki][s > 6 ? 5 : s - 1];
    for (int32_t i = 6; i < s; i++)
        t *= 1.5;
    return t * base / 1600.0;
}

pl_status pl_disagg_predict_nvme(const pl_disagg_cluster *c, const pl_disagg_workload *w,
                                 int32_t k, int64_t comp_bw, int32_t sharers, double *time_s)
{
    if (!c || !w || !time_s)
        return pl_err(PL_EINVAL, "pl_disagg_predict_nvme: NULL argument");
    if (k < 1 || sharers < 1 || comp_bw <= 0)
        return pl_err(PL_EINVAL, "pl_disagg_predict_nvme: need k >= 1, sharers >= 1, bandwidth > 0 "
                      "(got %d, %d, %lld)", (int)k, (int)sharers, (long long)comp_bw);
    switch (w->model) {
    case PL_DISAGG_MODEL_SMUFIN:
        if (c->opts.perf == PL_DISAGG_PERF_PARAMETRIC) {
            if (w->nvme_bw_bytes_per_s <= 0)
                return pl_err(PL_EINVAL, "pl_disagg_predict_nvme: the parametric form needs BW_base > 0");
            double avail = (double)comp_bw / sharers;
            double peak = (double)c->opts.bw_peak_bytes_per_s;
            double e = (avail < peak ? avail : peak) / (double)w->nvme_bw_bytes_per_s - 1.0;
            *time_s = ceil(w->base_time_s * pow(c->opts.smufin_m, e));
        } else {
            *time_s = smufin_table_time(w->base_time_s, k, sharers);
        }
        break;
    case PL_DISAGG_MODEL_FIO:
        *time_s = w->base_time_s / k;
        break;
    default:
        *time_s = w->base_time_s;
        break;
    }
    return PL_OK;
}

static double yolo_factor(int32_t n)
{
    static const double f[4] = {1.0, 1.05, 1.25, 3.5};
    if (n <= 4)
        return f[n - 1];
    double x = f[3];
    for (int32_t i = 4; i < n; i++)
        x *= 1.5;
    return x;
}

pl_status pl_disagg_yolo_factor(int32_t corunners, double *factor)
{
    if (!factor || corunners < 1)
        return pl_err(PL_EINVAL, "pl_disagg_yolo_factor: need corunners >= 1 and a non-NULL out");
    *factor = yolo_factor(corunners);
    return PL_OK;
}

double dg_gpu_time(const pl_disagg_workload *w, int32_t corunners)
{
    if (w->model != PL_DISAGG_MODEL_YOLO)
        return w->base_time_s;
    return w->base_time_s * yolo_factor(corunners < 1 ? 1 : corunners);
}

/* ---- formulas ------------------------------------------------------------------- */

double pl_disagg_fitness(int64_t bw_c, int64_t sto_c, int64_t bw_j, int64_t sto_j)
{
    return (double)(bw_c - bw_j) / (double)MB + (double)(sto_c - sto_j) / (double)GB;
}

/* demand / free, where a zero demand costs nothing; -1 when undefined. */
static double share(int64_t demand, int64_t avail)
{
    if (demand == 0)
        return 0;
    if (avail <= 0)
        return -1;
    return (double)demand / (double)avail;
}

pl_status pl_disagg_alpha(int64_t bw_c, int64_t sto_c, int32_t core_n, int64_t bw_j,
                          int64_t sto_j, int32_t core_j, double *alpha)
{
    if (!alpha)
        return pl_err(PL_EINVAL, "pl_disagg_alpha: NULL out");
    if (bw_c < 0 || sto_c < 0 || bw_j < 0 || sto_j < 0 || core_n < 0)
        return pl_err(PL_EINVAL, "pl_disagg_alpha: negative input");
    if (core_j <= 0)
        return pl_err(PL_EINVAL, "pl_disagg_alpha: undefined for a job requesting %d cores", (int)core_j);
    if (core_n < core_j)
        return pl_err(PL_EINVAL, "pl_disagg_alpha: node has %d free cores, job needs %d",
                      (int)core_n, (int)core_j);
    double b = share(bw_j, bw_c), s = share(sto_j, sto_c);
    if (b < 0 || s < 0)
        return pl_err(PL_EINVAL, "pl_disagg_alpha: demand on a composition with none free");
    *alpha = (1.0 - (b + s)) / ((double)core_j / (double)core_n);
    return PL_OK;
}

pl_status pl_disagg_beta(int32_t core_n, int32_t tcore_n, double *beta)
{
    if (!beta || tcore_n <= 0 || core_n < 0 || core_n > tcore_n)
        return pl_err(PL_EINVAL, "pl_disagg_beta: need 0 <= free (%d) <= total (%d), total > 0",
                      (int)core_n, (int)tcore_n);
    *beta = 1.0 - (double)core_n / (double)tcore_n;
    return PL_OK;
}

pl_status pl_disagg_core_fitness(int32_t free_cores, int32_t job_cores, int32_t beta_cores, double *fitness)
{
    if (!fitness || beta_cores <= 0)
        return pl_err(PL_EINVAL, "pl_disagg_core_fitness: need beta > 0 and a non-NULL out");
    *fitness = (double)(free_cores - job_cores) / (double)beta_cores;
    return PL_OK;
}

static pl_status check_splits(const int32_t *splits, int32_t n, const char *fn)
{
    if (!splits || n < 1 || n > PL_DISAGG_MAX_SPLITS)
        return pl_err(PL_EINVAL, "%s: need 1..%d split counts", fn, PL_DISAGG_MAX_SPLITS);
    for (int32_t i = 0; i < n; i++)
        if (splits[i] < 1 || splits[i] > PL_DISAGG_MAX_VGPU)
            return pl_err(PL_EINVAL, "%s: split count %d outside [1, %d]", fn, (int)splits[i],
                          PL_DISAGG_MAX_VGPU);
    return PL_OK;
}

pl_status pl_disagg_split_count(int64_t gpu_bw, int64_t gpu_mem, int64_t job_bw, int64_t job_mem,
                                const int32_t *splits, int32_t n_splits, int32_t *count)
{
    if (!count)
        return pl_err(PL_EINVAL, "pl_disagg_split_count: NULL out");
    if (gpu_bw <= 0 || gpu_mem <= 0 || job_bw < 0 || job_mem < 0)
        return pl_err(PL_EINVAL, "pl_disagg_split_count: GPU sizes must be positive, demands >= 0");
    pl_status st = check_splits(splits, n_splits, "pl_disagg_split_count");
    if (st != PL_OK)
        return st;
    *count = 0;
    if (job_bw == 0 && job_mem == 0)
        return PL_OK;
    int64_t n = INT64_MAX;
    if (job_bw > 0)
        n = gpu_bw / job_bw;
    if (job_mem > 0 && gpu_mem / job_mem < n)
        n = gpu_mem / job_mem;
    for (int32_t i = 0; i < n_splits; i++)
        if (splits[i] <= n && splits[i] > *count)
            *count = splits[i];
    return PL_OK;
}

pl_status pl_disagg_load_factors(const pl_disagg_cluster *c, const pl_disagg_workload *jobs,
                                 int32_t n, pl_disagg_load *out)
{
    if (!c || !out || n < 0 || (n > 0 && !jobs))
        return pl_err(PL_EINVAL, "pl_disagg_load_factors: NULL argument or n < 0");
    pl_disagg_totals tot;
    pl_disagg_cluster_totals(c, &tot);
    double tc = (double)tot.cores, tbw = (double)tot.nvme_bw_bytes_per_s;
    double tcap = (double)tot.nvme_cap_bytes, tgbw = (double)tot.gpu_bw_bytes_per_s;
    double tgmem = (double)tot.gpu_mem_bytes;
    double dc = 0, dbw = 0, dcap = 0, dgbw = 0, dgmem = 0;
    for (int32_t i = 0; i < n; i++) {
        dc += jobs[i].cores;
        dbw += (double)jobs[i].nvme_bw_bytes_per_s;
        dcap += (double)jobs[i].nvme_cap_bytes;
        dgbw += (double)jobs[i].gpu_bw_bytes_per_s;
        dgmem += (double)jobs[i].gpu_mem_bytes;
    }
    out->cpu = tc > 0 ? dc / tc : 0;
    out->nvme_bw = tbw > 0 ? dbw / tbw : 0;
    out->nvme_cap = tcap > 0 ? dcap / tcap : 0;
    out->gpu_bw = tgbw > 0 ? dgbw / tgbw : 0;
    out->gpu_mem = tgmem > 0 ? dgmem / tgmem : 0;
    return PL_OK;
}

pl_disagg_policy pl_disagg_aware_choice(double lf_bw, double lf_cap)
{
    if (lf_bw <= 0.5 && lf_cap <= 0.5)
        return PL_DISAGG_MAX_COMPOSITION;
    if (lf_bw >= 0.7 && lf_cap <= 0.7)
        return PL_DISAGG_MAX_COMPOSITION;
    return PL_DISAGG_MIN_FRAGMENTATION;
}

typedef struct edf_key {
    double deadline, arrival;
    int32_t idx;
} edf_key;

static int edf_cmp(const void *a, const void *b)
{
    const edf_key *x = a, *y = b;
    int c = pl_cmp_double(&x->deadline, &y->deadline);
    if (!c)
        c = pl_cmp_double(&x->arrival, &y->arrival);
    return c ? c : pl_cmp_i32(&x->idx, &y->idx);
}

pl_status pl_disagg_edf_order(const pl_disagg_workload *jobs, int32_t n, int32_t *order)
{
    if (n < 0 || (n > 0 && (!jobs || !order)))
        return pl_err(PL_EINVAL, "pl_disagg_edf_order: NULL argument or n < 0");
    if (n == 0)
        return PL_OK;
    edf_key *k = pl_alloc((size_t)n, sizeof *k);
    if (!k)
        return PL_ENOMEM;
    for (int32_t i = 0; i < n; i++)
        k[i] = (edf_key){jobs[i].deadline_s, jobs[i].arrival_s, i};
    qsort(k, (size_t)n, sizeof *k, edf_cmp);
    for (int32_t i = 0; i < n; i++)
        order[i] = k[i].idx;
    free(k);
    return PL_OK;
}
