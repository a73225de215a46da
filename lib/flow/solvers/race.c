/* "race": two solvers on one problem in two threads, the first optimal
 * answer taken, the other stopped (what Firmament does with relaxation and
 * incremental cost scaling, doc/flow.md "The race").
 *
 * Each entrant gets its own copy of what it writes: the flow and potential
 * arrays (both start from the pre-filled warm start or zeros, copied before
 * either thread runs) and its own per-solve work arrays. The problem is
 * read-only and shared. An entrant not flagged PL_SOLVER_INCREMENTAL cannot
 * read gapped residual lists, so on the incremental path it gets a
 * contiguous copy of them, built in its own thread (cost scaling copies
 * every arc into its own layout anyway, so this adds one pass to a solve
 * that already makes several).
 *
 * Stopping. The first entrant to return PL_OK claims the win (a
 * compare-and-swap) and raises a flag the other reads through
 * pl_solve_cancelled() in its main loop; it then returns PL_ELIMIT. An
 * entrant that never reads the flag still works: both threads are joined
 * before returning, so the race then lasts as long as the slower one. An
 * entrant that fails does not stop the other: the race fails only when both
 * did, with the error of the one that finished first.
 *
 * State between solves. The race keeps none (no free_state), and entrants
 * are given no state slot, so a loser leaves nothing behind: after the
 * race, the network holds the winner's flow and potentials and nothing else,
 * which is all the next warm start (of the race or of any solver) reads.
 * The race is flagged incremental, so the network keeps its normalised
 * problem up to date between rounds exactly as for relaxation; whichever
 * entrant won, its answer is an optimum of that problem.
 *
 * If the second thread cannot be created, the entrants run one after the
 * other in the calling thread (the second only if the first failed). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"

typedef struct race race;

typedef struct entrant {
    race *r;
    int index;
    const pl_solver_ops *ops;
    pl_flow_problem p;     /* its view of the problem */
    int32_t *first, *arcs; /* owned contiguous residual lists, or NULL */
    pl_flow_solution sol;
    pl_solve_opts opts;    /* the caller's, with the race's stop flag */
    pl_status st;
    int finish;            /* order of finishing, 1 or 2 */
    char why[512];         /* its error message (the thread's own buffer) */
} entrant;

struct race {
    atomic_int stop;       /* raised by the winner */
    atomic_int winner;     /* entrant index, -1 while none */
    atomic_int finished;   /* entrants done so far */
    entrant e[2];
};

/* Gapped lists (p->out_end set) as the contiguous CSR a solver without the
 * incremental flag expects: every arc id under both endpoints, removed arcs
 * (capacity 0) included, as the full path builds it. */
static pl_status compact_lists(entrant *e)
{
    const pl_flow_problem *p = &e->p;
    int gapped = p->out_end != NULL;
    e->p.out_end = NULL;
    e->p.delta = NULL;
    if (!gapped)
        return PL_OK;
    e->first = pl_alloc((size_t)p->n + 1, sizeof *e->first);
    e->arcs = pl_alloc(2 * (size_t)p->m + 1, sizeof *e->arcs);
    if (!e->first || !e->arcs)
        return pl_err(PL_ENOMEM, "race: no memory for %s's residual lists", e->ops->name);
    pl_csr_fill(p->n, p->m, p->tail, p->head, e->first, e->arcs);
    e->p.out_first = e->first;
    e->p.out_arcs = e->arcs;
    return PL_OK;
}

static void *run_entrant(void *arg)
{
    entrant *e = arg;
    race *r = e->r;
    e->st = (e->ops->flags & PL_SOLVER_INCREMENTAL) || atomic_load(&r->stop) ? PL_OK : compact_lists(e);
    if (e->st == PL_OK && atomic_load(&r->stop))
        e->st = pl_err(PL_ELIMIT, "race: %s cancelled before it started", e->ops->name);
    else if (e->st == PL_OK)
        e->st = e->ops->solve(&e->p, &e->opts, &e->sol);
    if (e->st != PL_OK)
        snprintf(e->why, sizeof e->why, "%s", pl_last_error());
    e->finish = atomic_fetch_add(&r->finished, 1) + 1;
    int none = -1;
    if (e->st == PL_OK && atomic_compare_exchange_strong(&r->winner, &none, e->index))
        atomic_store(&r->stop, 1);
    return NULL;
}

static void free_entrant(entrant *e, const pl_flow_solution *out)
{
    if (e->sol.flow != out->flow)
        free(e->sol.flow);
    if (e->sol.potential != out->potential)
        free(e->sol.potential);
    free(e->first);
    free(e->arcs);
}

/* Entrant 0 writes straight into out; entrant 1 into copies of its starting
 * point, taken before anything runs. */
static pl_status setup(race *r, const pl_solver_ops *const ops[2], const pl_flow_problem *p,
                       const pl_solve_opts *opts, pl_flow_solution *out)
{
    for (int i = 0; i < 2; i++) {
        entrant *e = &r->e[i];
        *e = (entrant){.r = r, .index = i, .ops = ops[i], .p = *p, .sol = *out};
        if (opts)
            e->opts = *opts;
        e->opts.reserved[0] = (void *)&r->stop;
        e->sol.state = NULL; /* nothing survives the race but the winner's arrays */
        e->sol.iterations = 0;
        e->sol.memory_bytes = 0;
        if (!(ops[i]->flags & PL_SOLVER_WARM_START))
            e->p.warm = 0;
    }
    entrant *e = &r->e[1];
    e->sol.flow = pl_alloc((size_t)p->m + 1, sizeof *e->sol.flow);
    e->sol.potential = pl_alloc((size_t)p->n + 1, sizeof *e->sol.potential);
    if (!e->sol.flow || !e->sol.potential)
        return PL_ENOMEM;
    if (e->p.warm) {
        memcpy(e->sol.flow, out->flow, (size_t)p->m * sizeof *out->flow);
        memcpy(e->sol.potential, out->potential, (size_t)p->n * sizeof *out->potential);
    } else {
        memset(e->sol.flow, 0, (size_t)p->m * sizeof *out->flow);
        memset(e->sol.potential, 0, (size_t)p->n * sizeof *out->potential);
    }
    if (!r->e[0].p.warm) {
        memset(out->flow, 0, (size_t)p->m * sizeof *out->flow);
        memset(out->potential, 0, (size_t)p->n * sizeof *out->potential);
    }
    return PL_OK;
}

pl_status pl_race_run(const pl_solver_ops *const ops[2], const pl_flow_problem *p,
                      const pl_solve_opts *opts, pl_flow_solution *out, int *winner)
{
    race *r = pl_alloc(1, sizeof *r);
    if (!r)
        return PL_ENOMEM;
    atomic_init(&r->stop, 0);
    atomic_init(&r->winner, -1);
    atomic_init(&r->finished, 0);
    pl_status st = setup(r, ops, p, opts, out);
    if (st == PL_OK) {
        pthread_t th;
        int threaded = pthread_create(&th, NULL, run_entrant, &r->e[1]) == 0;
        run_entrant(&r->e[0]);
        if (threaded)
            pthread_join(th, NULL);
        else if (r->e[0].st != PL_OK)
            run_entrant(&r->e[1]);
        int w = atomic_load(&r->winner);
        if (winner)
            *winner = w;
        out->iterations = w >= 0 ? r->e[w].sol.iterations : 0;
        out->memory_bytes = r->e[0].sol.memory_bytes + r->e[1].sol.memory_bytes +
                            ((int64_t)p->m + p->n + 2) * 8;
        if (w == 1) {
            memcpy(out->flow, r->e[1].sol.flow, (size_t)p->m * sizeof *out->flow);
            memcpy(out->potential, r->e[1].sol.potential, (size_t)p->n * sizeof *out->potential);
        } else if (w < 0) {
            /* Both failed (a failed run never ran second without the first failing). */
            int first = !threaded || r->e[0].finish == 1 ? 0 : 1;
            entrant *e = &r->e[first];
            st = pl_err(e->st, "%s", e->why);
        }
    }
    free_entrant(&r->e[0], out);
    free_entrant(&r->e[1], out);
    free(r);
    return st;
}

static pl_status solve(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    static const pl_solver_ops *const entrants[2] = {&pl_solver_relaxation, &pl_solver_cost_scaling};
    return pl_race_run(entrants, p, opts, out, NULL);
}

const pl_solver_ops pl_solver_race = {
    .name = "race",
    .description = "relaxation and cost scaling side by side on two threads, both warm; the first "
                   "optimal answer wins and the other is stopped (Firmament's race)",
    .solve = solve,
    .flags = PL_SOLVER_WARM_START | PL_SOLVER_INCREMENTAL,
};
