/* Instance generators for the min-cost-flow benchmarks: deterministic for a
 * seed, sized by parameters, building a pl_flownet directly (write it with
 * pl_flownet_write_dimacs() for a DIMACS `min` file).
 *
 * Families:
 *  - netgen:     NETGEN-style transshipment network (sources, transshipment
 *                nodes, sinks; a skeleton of chains that guarantees
 *                feasibility; random arcs, some of infinite capacity);
 *  - grid:       rows x cols grid, arcs both ways between neighbours, random
 *                costs and capacities; sources and sinks spread over the grid
 *                (or one of each at opposite corners), each source with an
 *                expensive infinite bypass arc to its sink so that any supply
 *                is feasible;
 *  - assignment: dense n x n bipartite assignment, unit supplies, random costs;
 *  - scheduling: Firmament/Quincy-style scheduling graph (tasks, per-job
 *                unscheduled aggregators, cluster aggregator X, racks,
 *                machines, sink), with helpers to add and remove tasks for
 *                incremental benchmarks.
 */
#ifndef PL_BENCH_GEN_H
#define PL_BENCH_GEN_H

#include <stdint.h>
#include <placement/placement.h>

/* ---- random numbers: xoshiro256** seeded by splitmix64 ------------------ */

typedef struct bench_rng {
    uint64_t s[4];
} bench_rng;

void bench_rng_seed(bench_rng *r, uint64_t seed);
uint64_t bench_rng_next(bench_rng *r);
/* Uniform integer in [lo, hi] (lo <= hi). */
int64_t bench_rng_range(bench_rng *r, int64_t lo, int64_t hi);

/* ---- NETGEN-style transshipment ------------------------------------------ */

typedef struct bench_netgen_params {
    int32_t nodes, arcs;         /* arcs >= skeleton arcs; extra arcs are random */
    int32_t sources, sinks;      /* 0 = round(sqrt(nodes)) */
    int64_t total_supply;        /* 0 = 1000 * sources */
    int64_t min_cost, max_cost;  /* default 1 .. 10000 */
    int64_t min_cap, max_cap;    /* default 1 .. 1000 */
    int hicost_pct;              /* % of skeleton arcs at max_cost (default 30) */
    int inf_pct;                 /* % of random arcs of infinite capacity (default 10) */
    uint64_t seed;
} bench_netgen_params;

void bench_netgen_defaults(bench_netgen_params *p);
pl_status bench_gen_netgen(const bench_netgen_params *p, pl_flownet **out);

/* ---- grid ------------------------------------------------------------------ */

typedef struct bench_grid_params {
    int32_t rows, cols;
    int corners;                 /* 1: one source at (0,0), one sink at (rows-1, cols-1) */
    int32_t pairs;               /* spread mode: source/sink pairs; 0 = max(1, sqrt(rows*cols)/4) */
    int64_t supply;              /* per pair; 0 = max_cap (spread) or 4 * max_cap (corners) */
    int64_t min_cost, max_cost;  /* default 1 .. 10000 */
    int64_t min_cap, max_cap;    /* default 1 .. 1000 */
    uint64_t seed;
} bench_grid_params;

void bench_grid_defaults(bench_grid_params *p);
pl_status bench_gen_grid(const bench_grid_params *p, pl_flownet **out);

/* ---- dense assignment ------------------------------------------------------ */

pl_status bench_gen_assignment(int32_t n, int64_t max_cost, uint64_t seed, pl_flownet **out);

/* ---- Firmament-style scheduling graph ------------------------------------- */

typedef struct bench_sched_params {
    int32_t machines, tasks;
    int32_t machines_per_rack;   /* default 40 */
    int32_t slots;               /* task slots per machine, default 8 */
    int32_t prefs;               /* preference arcs per task (to machines or racks), default 8 */
    int32_t tasks_per_job;       /* default 100 */
    uint64_t seed;
} bench_sched_params;

void bench_sched_defaults(bench_sched_params *p);

/* A scheduling graph plus what is needed to change it: node ids of every
 * part, and the live tasks (in no particular order) with their jobs. */
typedef struct bench_sched {
    pl_flownet *net;
    bench_sched_params p;
    bench_rng rng;
    int32_t sink, cluster;       /* node ids */
    int32_t nracks, njobs;
    int32_t *rack;               /* [nracks] rack node ids */
    int32_t *machine;            /* [machines] machine node ids */
    int32_t *unsched;            /* [njobs] per-job unscheduled aggregator ids */
    int32_t ntasks, cap_tasks;   /* live tasks */
    int32_t *task;               /* [ntasks] task node ids */
    int32_t *task_job;           /* [ntasks] job of each task */
    /* Each task's live arc ids, BENCH_SCHED_MAX_TASK_ARCS per task; a pinned
     * task (bench_sched_pin) keeps one, its running arc. */
    int32_t *task_arcs;          /* [cap_tasks * BENCH_SCHED_MAX_TASK_ARCS] */
    int32_t *task_narcs;         /* [ntasks] */
    int32_t *task_machine;       /* [ntasks] machine index a pinned task runs on, -1: not pinned */
    int32_t *xrack_arc;          /* [nracks] arc X -> rack */
    int32_t *rack_machine_arc;   /* [machines] arc rack -> machine */
} bench_sched;

/* Unscheduled arc, X arc and at most 64 preference arcs. */
#define BENCH_SCHED_MAX_TASK_ARCS 66

pl_status bench_sched_build(const bench_sched_params *p, bench_sched *s);
/* Add one task of job `job` (-1: a random job): node with supply 1, its arcs,
 * sink demand one more. */
pl_status bench_sched_add_task(bench_sched *s, int32_t job);
/* Remove live task number i (0 <= i < ntasks): the node and its arcs go,
 * sink demand one less. The last task takes index i. */
pl_status bench_sched_remove_task(bench_sched *s, int32_t i);
/* Where each live task runs in s->net's solution: machine_of[i] = machine
 * index of task i, or -1 while it waits on its unscheduled aggregator.
 * Tasks routed through X or a preferred rack are given machines by
 * following the flow on the X -> rack and rack -> machine arcs (any
 * decomposition of that flow; the solution fixes only the counts).
 * PL_EINTERNAL if the flow does not decompose (a broken solution). */
pl_status bench_sched_placement(const bench_sched *s, int32_t *machine_of);
/* Firmament's default (no preemption, no migration): every task given a
 * machine in machine_of and not yet pinned is pinned to it. All its arcs go
 * except one running arc to that machine (capacity 1, cost 0; its preference
 * arc to the machine is reused when there is one). machine_of comes from
 * bench_sched_placement() of this graph or of an identical copy: copies given
 * the same calls keep the same arc ids. *pinned = tasks newly pinned. */
pl_status bench_sched_pin(bench_sched *s, const int32_t *machine_of, int32_t *pinned);
void bench_sched_free(bench_sched *s);

/* ---- families by size ------------------------------------------------------ */

/* Build an instance of family `family` ("netgen", "grid", "assignment",
 * "scheduling") with about `arcs` arcs (at least `arcs` for the sizes used in
 * the ladder); `desc` (may be NULL) receives a short parameter description. */
pl_status bench_gen_family(const char *family, int64_t arcs, uint64_t seed, pl_flownet **out,
                           char *desc, size_t desc_len);

extern const char *const bench_families[]; /* NULL-terminated */

#endif
