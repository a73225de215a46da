/* The composed-storage runtime model (fabric.c): seed 001's compositions,
 * their sharers' run times (re-evaluated when the sharing changes) and the
 * thesis's metrics, for pl_sim's event loop (nvme_sim.c runs the NVMe
 * experiments through it). */
#ifndef PL_SIM_FABRIC_H
#define PL_SIM_FABRIC_H

#include <placement/nvme_sim.h>
#include "internal/core.h"

/* Where a model puts a job's (new) finish time: the event loop's heap. */
typedef pl_status (*pl_fabric_push_fn)(void *ctx, int32_t job, double end);

typedef struct pl_sim_fabric {
    pl_disagg_cluster *c;     /* the live fabric (owned) */
    pl_disagg_totals tot;     /* of c when it is built */
    int reshare;              /* sharers' ends move when their sharing changes */
    /* [n] (owned): the caller fills arrival, deadline, type and priority,
     * the model what it decided (composition, its size and sharers, the
     * rule that decided); start, finish, node and missed come from the
     * simulator's own record of the job (nvme_sim.c) before summarising. */
    pl_nvme_sim_record *rec;
    uint8_t *running;         /* per job: started and not finished */
    const pl_disagg_workload *w; /* [n] the jobs as workloads (borrowed) */
    int32_t n;
    int32_t *placement;       /* per job: disagg placement id */
    double *end;              /* per job: the end its live finish event carries */
    /* per composition id (never reused): devices, live sharers, workloads hosted, creation time */
    int32_t *comp_size, *comp_live, *comp_hosted;
    double *comp_t0;
    int64_t comp_cap;
    int32_t ncomp;
    /* reservations of running jobs, and composed devices */
    double run_cores, run_bw, run_cap, composed;
    double live_comps, comp_sharers; /* live compositions, workloads running on them */
    double last_t, first_t;
    int started;              /* the clock has advanced once */
    int windowed;             /* 0: the window is the whole run */
    double win0, win1;
    double area_cores, area_bw, area_cap, area_dev, area_comps, area_sharers;
    int32_t maxcomp, minfrag;
} pl_sim_fabric;

/* c is taken (freed by pl_sim_fabric_free, also on error). */
PL_INTERNAL pl_status pl_sim_fabric_init(pl_sim_fabric *f, pl_disagg_cluster *c, const pl_disagg_workload *w,
                                         int32_t n, int reshare);
PL_INTERNAL void pl_sim_fabric_free(pl_sim_fabric *f);
/* Time-weighted areas up to t (call at every event, in time order). */
PL_INTERNAL void pl_sim_fabric_advance(pl_sim_fabric *f, double t);
/* Job j starts now as decision d says (its record gets the composition, its
 * size and sharers and the deciding rule). */
PL_INTERNAL pl_status pl_sim_fabric_start(pl_sim_fabric *f, int32_t j, const pl_disagg_decision *d, double now,
                                          pl_fabric_push_fn push, void *ctx);
/* Job j finishes now. */
PL_INTERNAL pl_status pl_sim_fabric_finish(pl_sim_fabric *f, int32_t j, double now, pl_fabric_push_fn push,
                                           void *ctx);
PL_INTERNAL void pl_sim_fabric_summarise(pl_sim_fabric *f, pl_nvme_sim_summary *sum);

#endif
