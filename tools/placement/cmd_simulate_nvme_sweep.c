/* `placement simulate --scenario nvme-deadline|nvme-devices|nvme-fio|
 * nvme-gpu-split|nvme-gpu-dist|nvme-gpu-hetero|nvme-gpu-overhead`: the
 * sweeps of sec. 4.4.4-4.4.6 and Fig. 5.5-5.8 of seed 001 (Call thesis),
 * one row per policy at every point (doc/results.md, "Seed 001"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/placement.h>
#include "nvme_sweep.h"

typedef enum sweep_kind {
    SWEEP_DEADLINE,
    SWEEP_DEVICES,
    SWEEP_FIO,
    SWEEP_GPU_SPLIT,
    SWEEP_GPU_DIST,
    SWEEP_HETERO,
    SWEEP_OVERHEAD
} sweep_kind;

typedef struct nvme_sweep {
    const char *name;
    sweep_kind kind;
    const char *title; /* what is swept, for the header */
    const char *xname; /* column title of the swept value */
    int nx;
    double x[9];
} nvme_sweep;

/* The figures give no exact x values beyond their ranges: factors 1.0-1.5
 * (Fig. 4.7 "1.0" is the tightest), 10 down to 2 devices (Fig. 4.10 omits
 * one), target loads 0.5-0.9 (Fig. 4.11 as Fig. 4.4). */
static const nvme_sweep sweeps[] = {
    {"nvme-deadline", SWEEP_DEADLINE, "sec. 4.4.4: high-priority deadline factor (Fig. 4.7-4.9)",
     "factor", 6, {1.0, 1.1, 1.2, 1.3, 1.4, 1.5}},
    {"nvme-devices", SWEEP_DEVICES, "sec. 4.4.5: NVMe devices in the pool (Fig. 4.10)", "nvme", 9,
     {10, 9, 8, 7, 6, 5, 4, 3, 2}},
    {"nvme-fio", SWEEP_FIO, "sec. 4.4.6: FIO / SMUFIN mixes of S1's 70% bandwidth-bound (Fig. 4.11)",
     "load", 5, {0.5, 0.6, 0.7, 0.8, 0.9}},
    {"nvme-gpu-split", SWEEP_GPU_SPLIT,
     "chapter 5: one GPU unsplittable (0) or split into 1/2/4 vGPUs (1) (Fig. 5.5)", "split", 2,
     {0, 1}},
    {"nvme-gpu-dist", SWEEP_GPU_DIST,
     "chapter 5: workloads per node (GPU / NVMe / compute, nodes 0-4) physically attached, "
     "GPU unsplittable, GPU split (Fig. 5.6)",
     "layout", 3, {0, 1, 2}},
    {"nvme-gpu-hetero", SWEEP_HETERO,
     "chapter 5: 3 NVMe, one unsplittable GPU, NVMe load factor (Fig. 5.7)", "load", 4,
     {0.6, 0.7, 0.8, 0.9}},
    {"nvme-gpu-overhead", SWEEP_OVERHEAD,
     "chapter 5: GPU disaggregation overhead, 3 NVMe, one unsplittable GPU, NVMe load 0.8 "
     "(Fig. 5.8)",
     "ovh%", 6, {0, 1, 2, 3, 4, 5}},
};

static const char *const dist_layout[3] = {"pa", "unsplit", "split"};

/* M1 FIO only, M2 70% FIO, M3 half and half (of the bandwidth-bound share). */
static const double fio_mix[3] = {1.0, 0.7, 0.5};

static const nvme_sweep *find_sweep(const char *name)
{
    for (size_t i = 0; i < sizeof sweeps / sizeof *sweeps; i++)
        if (!strcmp(name, sweeps[i].name))
            return &sweeps[i];
    return NULL;
}

int nvme_is_sweep(const char *name)
{
    return name && find_sweep(name) != NULL;
}

/* Per node: "a/b/c/d/e" of the workloads of `type` (0 bandwidth and 1
 * capacity count as NVMe) that ran there. */
static void node_counts(const pl_nvme_sim_result *r, int type, int32_t nodes, char *buf, size_t len)
{
    int32_t cnt[64] = {0};
    for (int32_t j = 0; j < pl_nvme_sim_result_count(r); j++) {
        pl_nvme_sim_record x;
        pl_nvme_sim_result_record(r, j, &x);
        int t = x.type == 1 ? 0 : x.type;
        if (t == type && x.node >= 0 && x.node < 64)
            cnt[x.node]++;
    }
    size_t at = 0;
    buf[0] = 0;
    for (int32_t i = 0; i < nodes && i < 64 && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, i ? "/%d" : "%d", (int)cnt[i]);
}

static void print_row(const char *group, const nvme_sweep *sw, double x, pl_disagg_policy p,
                      const pl_nvme_sim_result *r, const pl_nvme_sim_summary *s, int32_t nodes)
{
    if (sw->kind != SWEEP_GPU_DIST) {
        printf("%-5s %6g %-17s %7.2f %7.2f %9.1f %6.2f %6.2f %6.1f\n", group, x,
               pl_disagg_policy_name(p), s->missed_pct, s->missed_high_pct, s->mean_wait_s,
               s->mean_comp_size, s->mean_sharing, s->nvme_usage_pct);
        return;
    }
    char gpu[400], nvme[400], cpu[400];
    node_counts(r, 3, nodes, gpu, sizeof gpu);
    node_counts(r, 0, nodes, nvme, sizeof nvme);
    node_counts(r, 2, nodes, cpu, sizeof cpu);
    printf("%-5s %7s %-17s %7.2f %-22s %-22s %s\n", group, dist_layout[(int)x],
           pl_disagg_policy_name(p), s->missed_pct, gpu, nvme, cpu);
}

/* One point: generate the trace of *o and print one row per policy. */
static int run_point(const pl_nvme_sim_opts *o, const nvme_sweep *sw, const char *group, double x,
                     const pl_disagg_policy *pols, int npol)
{
    pl_disagg_workload *jobs = NULL;
    int32_t n = 0;
    if (pl_nvme_sim_generate(o, &jobs, &n)) {
        fprintf(stderr, "placement simulate: %s\n", pl_last_error());
        return 1;
    }
    int rc = 0;
    for (int p = 0; p < npol && !rc; p++) {
        pl_nvme_sim_result *r = NULL;
        pl_nvme_sim_summary s;
        if (pl_nvme_sim_run(o, jobs, n, pols[p], &r) || pl_nvme_sim_result_summary(r, &s)) {
            fprintf(stderr, "placement simulate: %s\n", pl_last_error());
            rc = 1;
        } else {
            print_row(group, sw, x, pols[p], r, &s, o->nodes);
        }
        pl_nvme_sim_result_free(r);
    }
    free(jobs);
    return rc;
}

int nvme_run_sweep(const char *name, const pl_nvme_sim_opts *base, const pl_disagg_policy *pols,
                   int npol)
{
    const nvme_sweep *sw = find_sweep(name);
    if (!sw || !base || !pols || npol < 1)
        return 2;
    /* The FIO, heterogeneous and overhead sweeps set the load themselves. */
    int own_load = sw->kind == SWEEP_FIO || sw->kind == SWEEP_HETERO || sw->kind == SWEEP_OVERHEAD;
    printf("%s: %s; %d workloads per run, seed %llu, %s layout, %s arrivals", name, sw->title,
           (int)base->jobs, (unsigned long long)base->seed,
           base->layout == PL_NVME_LAYOUT_PA ? "physically-attached" : "disaggregated",
           base->arrivals == PL_NVME_ARRIVALS_REGULAR ? "regular" : "Poisson");
    if (own_load)
        printf("\n");
    else
        printf(", target load %.2f\n", base->load);
    if (sw->kind == SWEEP_GPU_DIST)
        printf("%-5s %7s %-17s %7s %-22s %-22s %s\n", "scen", sw->xname, "policy", "missed%",
               "gpu_per_node", "nvme_per_node", "compute_per_node");
    else
        printf("%-5s %6s %-17s %7s %7s %9s %6s %6s %6s\n", sw->kind == SWEEP_FIO ? "mix" : "scen",
               sw->xname, "policy", "missed%", "mhigh%", "wait_s", "comp", "share", "nvme%");
    static const char *const scen[2][3] = {{"nvme-s1", "nvme-s2", "nvme-s3"},
                                           {"nvme-gpu-s1", "nvme-gpu-s2", "nvme-gpu-s3"}};
    static const char *const label[2][3] = {{"S1", "S2", "S3"}, {"M1", "M2", "M3"}};
    int rc = 0;
    for (int g = 0; g < 3 && !rc; g++) {
        for (int i = 0; i < sw->nx && !rc; i++) {
            pl_nvme_sim_opts o = *base;
            int ch5 = sw->kind >= SWEEP_GPU_SPLIT;
            pl_nvme_sim_scenario(sw->kind == SWEEP_FIO ? "nvme-s1" : scen[ch5][g], &o);
            if (sw->kind == SWEEP_HETERO || sw->kind == SWEEP_OVERHEAD) {
                /* Sec. 5.4.3: "a pool of 3 NVMe and 1 GPU", not split, the
                 * load the larger of the NVMe bandwidth and capacity ones
                 * (the fat node's CPU load never reaches it: whole run). */
                o.nvme = 3;
                o.gpu_split = 0;
                o.load_basis = PL_NVME_LOAD_NVME;
                o.window = 0;
                o.load = sw->kind == SWEEP_HETERO ? sw->x[i] : 0.8;
                o.gpu_overhead = sw->kind == SWEEP_OVERHEAD ? sw->x[i] / 100 : 0;
            } else if (sw->kind == SWEEP_GPU_DIST) {
                o.layout = sw->x[i] == 0 ? PL_NVME_LAYOUT_PA : PL_NVME_LAYOUT_DISAGG;
                o.gpu_split = sw->x[i] != 1;
            } else if (sw->kind == SWEEP_GPU_SPLIT)
                o.gpu_split = sw->x[i] != 0;
            else if (sw->kind == SWEEP_DEADLINE)
                o.delta_high = sw->x[i];
            else if (sw->kind == SWEEP_DEVICES)
                o.nvme = (int32_t)sw->x[i];
            else {
                o.load = sw->x[i];
                o.frac_fio = fio_mix[g];
            }
            rc = run_point(&o, sw, label[sw->kind == SWEEP_FIO][g], sw->x[i], pols, npol);
        }
    }
    return rc;
}
