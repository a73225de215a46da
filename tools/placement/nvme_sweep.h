/* The sweeps of seed 001's sec. 4.4.4-4.4.6 and Fig. 5.5
 * (cmd_simulate_nvme_sweep.c). */
#ifndef PL_TOOLS_NVME_SWEEP_H
#define PL_TOOLS_NVME_SWEEP_H

#include <placement/disagg.h>
#include <placement/nvme_sim.h>

/* Non-zero when `name` is a sweep: nvme-deadline, nvme-devices, nvme-fio,
 * nvme-gpu-split. */
int nvme_is_sweep(const char *name);
/* Run sweep `name` from the options in *base (its own swept field
 * overridden at each point) and print one row per policy at every point;
 * returns the exit code (0, 1 a run failed, 2 not a sweep). */
int nvme_run_sweep(const char *name, const pl_nvme_sim_opts *base, const pl_disagg_policy *pols,
                   int npol);

#endif
