/* Internals of the simulator (not installed). */
#ifndef PL_SIM_IMPL_H
#define PL_SIM_IMPL_H

#include <stddef.h>
#include <placement/sim.h>
#include "internal/core.h"
#include "internal/policy_impl.h"
#include "internal/interference_impl.h"
#include "internal/drm_impl.h"
#include "internal/sched_impl.h"
#include "internal/gpu_usage.h"
#include "internal/nvme_rules.h"
#include "fabric.h"

/* The SC17 artifact's workload files, embedded at build time by
 * lib/interference/embed.py from lib/sim/data/ (NUL-terminated; the lengths
 * exclude the NUL), so the built-in scenarios read no file at run time. */
PL_INTERNAL extern const char pl_sim_workloads5_json[];
PL_INTERNAL extern const size_t pl_sim_workloads5_json_len;
PL_INTERNAL extern const char pl_sim_workloads100_json[];
PL_INTERNAL extern const size_t pl_sim_workloads100_json_len;

/* ---- scenarios (scenario.c, scenario_drm.c) ---------------------------------- */

/* The seed 004 scenario (opts already defaulted). */
PL_INTERNAL pl_status pl_sim_scenario_drmaestro(const pl_sim_scenario_opts *opts, pl_topology **topo,
                                                pl_jobset **jobs);

/* Run with policy table ops (opts.policy must be its name) and the
 * composed-storage runtime model: a job the policy places starts as its
 * choice (choices[queue position] of the round) says and ends when the
 * fabric says. All borrowed; for nvme_sim.c. */
PL_INTERNAL void pl_sim_use_fabric(pl_sim *s, const pl_policy_ops *ops, pl_sim_fabric *fabric,
                                   const pl_nvme_choice *choices);

/* ---- event heap (heap.c) --------------------------------------------------- */

/* Kinds in the order they are handled at equal times: a job that finishes at
 * t frees its GPUs before a round at t decides; a job that finishes when its
 * GPU fails has finished; a round at t sees the failures, repairs and
 * arrivals at t. */
typedef enum pl_sim_event_kind {
    PL_SIM_EV_FINISH = 0,
    PL_SIM_EV_FAILURE = 1,
    PL_SIM_EV_REPAIR = 2,
    PL_SIM_EV_TASK_START = 3,
    PL_SIM_EV_ARRIVAL = 4,
    PL_SIM_EV_ROUND = 5
} pl_sim_event_kind;

typedef struct pl_sim_event {
    double time;
    int32_t kind;
    int32_t job;       /* arrival, finish, task start: the job index; failure, repair: the failure index */
    uint64_t version;  /* finish, task start: the job's version when scheduled (stale if different) */
    uint64_t seq;      /* insertion number: breaks every remaining tie */
} pl_sim_event;

typedef struct pl_sim_heap {
    pl_sim_event *ev;
    int64_t n, cap;
    uint64_t next_seq;
} pl_sim_heap;

PL_INTERNAL pl_status pl_sim_heap_push(pl_sim_heap *h, double time, int32_t kind, int32_t job,
                                       uint64_t version);
/* 1 and the earliest event in *out, or 0 when empty. */
PL_INTERNAL int pl_sim_heap_pop(pl_sim_heap *h, pl_sim_event *out);
/* 1 and the earliest event's time in *time, or 0 when empty. */
PL_INTERNAL int pl_sim_heap_peek(const pl_sim_heap *h, double *time);
PL_INTERNAL void pl_sim_heap_clear(pl_sim_heap *h);
PL_INTERNAL void pl_sim_heap_free(pl_sim_heap *h);

/* ---- the simulator and its result ------------------------------------------- */

struct pl_sim {
    pl_topology *topo;          /* pristine copy; each run works on its own copy */
    /* The NVMe experiments (pl_sim_use_fabric): a policy the registry does
     * not list, and the composed-storage runtime model it decides for. */
    const pl_policy_ops *policy_ops;
    pl_sim_fabric *fabric;
    const pl_nvme_choice *choices;
    const pl_jobset *jobs;
    pl_sim_opts opts;
    const pl_profile_set *ps;
    pl_profile_set *owned_ps;
    int32_t njobs;
    int32_t nvert;
    int32_t *gpu_socket;        /* per vertex: socket ordinal of a GPU, else -1 */
    int32_t *gpu_units;         /* per vertex: jobs a GPU may hold at once (its units capacity, >= 1) */
    int32_t *gpu_machine;       /* per vertex: machine ordinal of a GPU, else -1 */
    int32_t *vert_machine;      /* per vertex: machine ordinal of it or its machine ancestor, else -1 */
    int32_t nsockets;
    int32_t nmachines;
    int32_t *machines;          /* machine vertices, preorder (ordinal -> vertex) */
    int32_t *machine_socket_max;/* per machine ordinal: most GPUs under one socket */
    int32_t *gpus;              /* GPU vertices, preorder */
    int32_t ngpus;
    int32_t *packages;          /* package vertices, preorder */
    int32_t npackages;
    uint8_t *is_package;        /* per vertex */
    /* Per machine ordinal m: its packages mach_pkg[mach_pkg_start[m] ..
     * mach_pkg_start[m + 1]) and NUMA nodes likewise, in preorder. */
    int32_t *mach_pkg, *mach_pkg_start;
    int32_t *mach_numa, *mach_numa_start;
    int32_t *storage;           /* storage vertices, preorder */
    int32_t nstorage;
    /* The reference job of the fragmentation metric (doc/simulator.md). */
    int32_t ref_gpus;
    int64_t ref_cores;
    /* PL_SIM_GPU_SHARE_USAGE: the usage patterns (built-in + opts.usage_traces), else NULL. */
    pl_gpu_usage *usage;
};

struct pl_sim_result {
    int32_t n;
    pl_sim_job_record *rec;
    double *dtimes;
    int64_t ndtimes, capdtimes;
    pl_sim_sample *tl;          /* utilisation time series, strictly increasing times */
    int64_t ntl, captl;
    pl_sim_summary sum;
};

/* ---- one run ------------------------------------------------------------------ */

typedef struct sjob {
    const pl_job *job;
    int32_t k;
    double prio;         /* queue priority (higher first) */
    int cpu_only;        /* no task asks for a GPU: placed by the simulator itself */
    int32_t remote;      /* GPUs serving a task on another machine (DRMaestro) */
    double sf0, sf1;     /* remote-GPU slowdown factor at network load 0 and 1 */
    double net;          /* remote factor in effect since `last` (1 when all local) */
    int held;            /* holds its resources (placed, not finished or killed) */
    int running;         /* its tasks have begun: it progresses and interferes */
    int scheduled;       /* artifact model: its finish has been scheduled since it began */
    double solo;         /* solo time of its actual spread */
    double intra;        /* artifact model: intra-socket solo time (co-located times scale it) */
    double start;
    double slow;         /* current interference slowdown (>= 1) */
    double remaining;    /* fraction of its work left */
    double last;         /* time remaining was last brought up to date */
    uint64_t version;    /* bumped at each rescheduling, placement and kill: older events are stale */
    int32_t *gpus;       /* the GPUs it holds: [ngpus] (0 for a CPU-only job) */
    int32_t ngpus;
    int32_t *sockets;
    int32_t nsock;
    int32_t uclass;      /* its workload's usage-pattern class, -1 if none (or the constant model) */
} sjob;

/* Cluster state behind the utilisation time series, kept up to date by
 * every allocation and release (metrics.c). */
typedef struct smetrics {
    int32_t gpus_total, gpus_used, gpus_failed;
    int64_t cores_total, cores_used;
    int64_t nvme_bw_total, nvme_bw_used; /* PL_RES_BANDWIDTH of the storage devices */
    int32_t *mach_free_gpus;    /* per machine ordinal */
    int64_t *mach_free_cores;
    int *mach_has_cores;
    int64_t free_gpus;          /* free GPUs in machines */
    int64_t stranded;           /* of which on machines that cannot hold the reference job */
    uint8_t *gstate;            /* per vertex: a GPU's counted state (free, used, failed) */
    int32_t *failed;            /* per vertex: failures of the GPU not yet repaired (down while > 0) */
} smetrics;

typedef struct srun {
    pl_sim *s;
    /* The live cluster: the simulator places, commits, releases and marks
     * GPUs down through the public lifecycle (placement/sched.h), as an
     * embedding scheduler does; topo is the handle's live topology. */
    pl_sched *sched;
    const pl_topology *topo;
    sjob *j;
    pl_sim_result *res;
    pl_sim_heap heap;
    /* Per vertex: the jobs holding the GPU, in the order they took it
     * (at most its gpu_units; holders.c). */
    int32_t **hold;
    int32_t *hold_n, *hold_cap;
    int32_t **sock_jobs;  /* per socket: running jobs with a GPU there */
    int32_t *sock_n, *sock_cap;
    int32_t *queue;       /* waiting jobs in arrival order */
    int32_t nqueue;
    int32_t *running;
    int32_t nrunning;
    int32_t *mark;        /* per job: scratch for neighbour sets */
    int32_t mark_gen;
    int round_pending;
    double interval;
    smetrics m;
    int64_t failures, killed;
    double lost_gpu_seconds;
    /* Remote GPUs in use (they set the network load) and their jobs. */
    int32_t remote_gpus;
    double remote_traffic; /* sum over running remote GPUs of their job's isolated network share */
    int32_t *remote_jobs;
    int32_t nremote_jobs;
    /* A policy with idle rounds (its decisions change round by round:
     * DRMaestro's W) is asked every interval while jobs wait, until that
     * many rounds changed nothing (pl_sched_idle_rounds()). */
    int32_t idle_rounds;
    int cpu_jobs_by_policy;  /* the policy places CPU-only jobs itself */
    /* Jobs done or rejected, and the last progress step reported. */
    int32_t settled;
    int64_t progress_step;
    /* Usage-pattern model: device-side factor of class a next to class b
     * at [a * n + b] (n classes), NAN until first needed; NULL until then. */
    double *usage_factor;
} srun;

/* ---- GPU holders (holders.c) ------------------------------------------------------ */

PL_INTERNAL pl_status pl_sim_holders_init(srun *r);
PL_INTERNAL void pl_sim_holders_free(srun *r);
/* Job i takes / gives back GPU v. */
PL_INTERNAL pl_status pl_sim_hold(srun *r, int32_t v, int32_t i);
PL_INTERNAL void pl_sim_unhold(srun *r, int32_t v, int32_t i);
/* 1 if job o holds one of job a's GPUs (a co-tenant). */
PL_INTERNAL int pl_sim_cotenant(const srun *r, const sjob *a, int32_t o);

/* ---- the run (run.c, runtime.c, failure.c) -------------------------------------- */

/* Insert job i in the queue at its place (priority, arrival, index). */
PL_INTERNAL void pl_sim_enqueue(srun *r, int32_t i);
/* Schedule a round at the next interval tick at or after t, if needed. */
PL_INTERNAL pl_status pl_sim_want_round(srun *r, double t);
/* The lifecycle id of job i: its index in decimal (buf of 16 bytes). */
PL_INTERNAL const char *pl_sim_job_id(int32_t i, char *buf);
/* Commit decision q of d for job i at time t (pl_sched_commit()) after the
 * allocation check of its GPUs gpus[ngpus]; its tasks begin now or after
 * its delay. machine: the machine ordinal holding it all, or -1. */
PL_INTERNAL pl_status pl_sim_commit(srun *r, int32_t i, const pl_decision *d, int32_t q,
                                    const int32_t *gpus, int32_t ngpus, int32_t machine,
                                    double utility, double t);
/* Place the queued CPU-only jobs that fit, first fit in queue order (cpu_jobs.c). */
PL_INTERNAL pl_status pl_sim_place_cpu_jobs(srun *r, double t);
/* ---- remote GPUs (runtime.c) ---------------------------------------------------- */

/* Remote GPUs in use / all GPUs: the network load. */
PL_INTERNAL double pl_sim_network_load(const srun *r);
/* Slowdown factor of job a's remote GPUs at the current load (1: none). */
PL_INTERNAL double pl_sim_remote_factor(const srun *r, const sjob *a);

/* Job i is rejected (it leaves the queue for good). */
PL_INTERNAL void pl_sim_reject(srun *r, int32_t i);

/* Append one policy-call time to the result. */
PL_INTERNAL pl_status pl_sim_record_time(pl_sim_result *res, double dt);
/* Stop job i (a device failure): release, re-queue, restart later from scratch. */
PL_INTERNAL pl_status pl_sim_kill_job(srun *r, int32_t i, double t);
/* Bring job i up to time t, take its new speed and schedule its finish. */
PL_INTERNAL pl_status pl_sim_reschedule(srun *r, int32_t i, double t);
/* Device-side factor of job a sharing a GPU with job o (sec. 3c): the
 * constant factor, or the usage-pattern model's for their classes. */
PL_INTERNAL pl_status pl_sim_share_factor(srun *r, const sjob *a, int32_t o, double *f);
/* Reschedule the running jobs with a remote GPU (the network load changed). */
PL_INTERNAL pl_status pl_sim_update_remote(srun *r, double t);
/* Reschedule the running jobs sharing a socket with job i (and i itself). */
PL_INTERNAL pl_status pl_sim_update_neighbours(srun *r, int32_t i, double t, int include_self);
/* Check opts.failures against the topology. */
PL_INTERNAL pl_status pl_sim_check_failures(const pl_sim *s);
/* Failure f happens / is repaired at t. */
PL_INTERNAL pl_status pl_sim_fail_gpu(srun *r, int32_t f, double t);
PL_INTERNAL pl_status pl_sim_repair_gpu(srun *r, int32_t f, double t);

/* 1 if no task of the job asks for a GPU (the simulator places it itself). */
PL_INTERNAL int pl_sim_job_cpu_only(const pl_job *job);

/* The aggregates of a finished run (summary.c). */
PL_INTERNAL pl_status pl_sim_summarise(const pl_sim *s, pl_sim_result *res);

/* ---- metrics (metrics.c) ------------------------------------------------------- */

/* The reference job of the fragmentation metric, from the workload. */
PL_INTERNAL void pl_sim_reference_job(pl_sim *s);
/* Read the run topology's initial allocations into r->m. */
PL_INTERNAL pl_status pl_sim_metrics_init(srun *r);
PL_INTERNAL void pl_sim_metrics_free(srun *r);
/* Recount GPU v after its allocation or failure mark changed. */
PL_INTERNAL void pl_sim_metrics_gpu(srun *r, int32_t v);
/* Account for a plan allocated (sign +1) or released (-1). */
PL_INTERNAL void pl_sim_metrics_plan(srun *r, const pl_plan_item *items, int32_t n, int sign);
/* Append the state at time t to the time series (merging equal times). */
PL_INTERNAL pl_status pl_sim_metrics_sample(srun *r, double t);
/* Time-weighted means of the series over [from, to] into the summary. */
PL_INTERNAL void pl_sim_metrics_summarise(pl_sim_result *res, double from, double to);

#endif
