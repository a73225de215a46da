/* The "kim-ch5" scenario: Kim thesis ch. 5 sec. 4.2, the effect of kernel
 * split measured on the GPU usage-pattern simulator (pl_gpu_simulate()
 * through pl_gpu_qos_matrix()): each Cifar10 (latency-sensitive) model of
 * Table 5.1 shares a GPU with each Imagenet (batch) model whose kernels are
 * split by f = 1, 2, 4, 8; a row gives the LS model's slowdown averaged over
 * the five batch models, as the thesis's "average slowdown", and the batch
 * models' own. The thesis's nvprof traces are not published: the traces are
 * the synthetic iterations of tests/data/kim/README.md (10 kernels an
 * iteration, busy share = Table 5.1's GPU utilisation, iterations of 0.1 s
 * for the Cifar10 models and 0.4 s for the Imagenet ones, 15 % overhead per
 * extra sub-kernel at f = 2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <placement/gpuqos.h>
#include <placement/kim_sim.h>
#include "sim_impl.h"

#define K5_KERNELS 10
#define K5_LS 3
#define K5_BATCH 5
#define K5_HORIZON_S 100.0

/* Table 5.1: GPU utilisation (%) of the Cifar10 and the Imagenet models. */
static const char *const k5_ls_names[K5_LS] = {"Alexnet", "Resnet32", "Trivial"};
static const double k5_ls_util[K5_LS] = {26.46, 45.74, 8.04};
static const double k5_batch_util[K5_BATCH] = {71.39, 72.18, 85.31, 81.62, 73.47}; /* Googlenet .. VGG16 */
static const int32_t k5_factors[PL_KIM_CH5_FACTORS] = {1, 2, 4, 8};

/* One synthetic iteration (pl_gpu_trace_synthetic()): batch kernels split. */
static void k5_trace(double util_pct, int batch, pl_gpu_call *calls, pl_gpu_trace *t)
{
    pl_gpu_trace_synthetic(util_pct, batch ? 0.4 : 0.1, K5_KERNELS, batch, calls, t);
}

pl_status pl_kim_ch5(const pl_kim_opts *opts, pl_kim_row *rows, int32_t cap, int32_t *nrows)
{
    pl_kim_opts o;
    pl_status st = pl_kim_start("pl_kim_ch5", opts, &o, rows, cap, nrows, k5_ls_names, PL_KIM_CH5_ROWS);
    if (st)
        return st;
    pl_gpu_call lcalls[K5_LS][K5_KERNELS], bcalls[K5_BATCH][K5_KERNELS];
    pl_gpu_trace ls[K5_LS], batch[K5_BATCH];
    for (int32_t i = 0; i < K5_LS; i++)
        k5_trace(k5_ls_util[i], 0, lcalls[i], &ls[i]);
    for (int32_t j = 0; j < K5_BATCH; j++)
        k5_trace(k5_batch_util[j], 1, bcalls[j], &batch[j]);
    pl_gpu_sim_opts so;
    pl_gpu_sim_opts_init(&so);
    so.horizon_s = K5_HORIZON_S;
    for (int32_t f = 0; f < PL_KIM_CH5_FACTORS && !st; f++) {
        double b[K5_LS * K5_BATCH], l[K5_LS * K5_BATCH];
        /* no QoS bound: every factor is kept, so the matrix holds that factor's slowdowns */
        st = pl_gpu_qos_matrix(ls, K5_LS, batch, K5_BATCH, &k5_factors[f], 1, INFINITY, &so, b, l, NULL);
        for (int32_t i = 0; i < K5_LS && !st; i++)
            for (int32_t j = 0; j < K5_BATCH; j++) {
                rows[i].per_workload[f] += 100 * l[i * K5_BATCH + j] / K5_BATCH;
                rows[i].per_workload[PL_KIM_CH5_FACTORS + f] += 100 * b[i * K5_BATCH + j] / K5_BATCH;
            }
    }
    for (int32_t i = 0; i < K5_LS && !st; i++) {
        rows[i].value = rows[i].per_workload[0];
        rows[i].extra = rows[i].per_workload[PL_KIM_CH5_FACTORS - 1];
        rows[i].ratio = rows[i].per_workload[2 * PL_KIM_CH5_FACTORS - 1];
    }
    if (!st)
        *nrows = PL_KIM_CH5_ROWS;
    return st;
}
