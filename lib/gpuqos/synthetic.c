/* Synthetic iterations shaped by a GPU utilisation (tests/data/kim/README.md):
 * the thesis publishes no nvprof trace, only Table 5.1's utilisations. */
#include <placement/gpuqos.h>

void pl_gpu_trace_synthetic(double util_pct, double period_s, int32_t nkernels, int split,
                            pl_gpu_call *calls, pl_gpu_trace *t)
{
    double slot = period_s / nkernels, busy = slot * util_pct / 100;
    for (int32_t k = 0; k < nkernels; k++)
        calls[k] = (pl_gpu_call){.kind = PL_GPU_KERNEL, .start_s = k * slot + slot - busy, .duration_s = busy,
                                 .split = split,
                                 .split2_duration_s = split ? busy / 2 * PL_GPU_SYNTHETIC_SPLIT2 : 0};
    *t = (pl_gpu_trace){calls, nkernels, period_s, 0};
}
