/* Internals of the simulator (not installed). */
#ifndef PL_SIM_IMPL_H
#define PL_SIM_IMPL_H

#include <stddef.h>
#include <placement/sim.h>
#include "../core/core.h"

/* The SC17 artifact's workload files, embedded at build time by
 * lib/interference/embed.py from lib/sim/data/ (NUL-terminated; the lengths
 * exclude the NUL), so the built-in scenarios read no file at run time. */
PL_INTERNAL extern const char pl_sim_workloads5_json[];
PL_INTERNAL extern const size_t pl_sim_workloads5_json_len;
PL_INTERNAL extern const char pl_sim_workloads100_json[];
PL_INTERNAL extern const size_t pl_sim_workloads100_json_len;

/* ---- event heap (heap.c) --------------------------------------------------- */

/* Kinds in the order they are handled at equal times: a job that finishes at
 * t frees its GPUs before a round at t decides. */
typedef enum pl_sim_event_kind {
    PL_SIM_EV_FINISH = 0,
    PL_SIM_EV_ARRIVAL = 1,
    PL_SIM_EV_ROUND = 2
} pl_sim_event_kind;

typedef struct pl_sim_event {
    double time;
    int32_t kind;
    int32_t job;       /* arrival, finish: the job index */
    uint64_t version;  /* finish: the job's rate version when scheduled (stale if different) */
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
PL_INTERNAL void pl_sim_heap_clear(pl_sim_heap *h);
PL_INTERNAL void pl_sim_heap_free(pl_sim_heap *h);

#endif
