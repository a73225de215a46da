/* GLPK plumbing shared by the "glpk" solver and pl_flow_lp_check(): building
 * a min-cost-flow LP from plain arrays, running GLPK so that its internal
 * errors come back as PL_EINTERNAL instead of abort(), and turning its
 * doubles back into exact integers. Not installed. */
#ifndef PL_GLPK_UTIL_H
#define PL_GLPK_UTIL_H

#include <stdint.h>
#include <glpk.h>
#include "internal/core.h"

/* Largest magnitude a double holds with every integer below it exact. */
#define PL_GLPK_EXACT_LIMIT ((int64_t)1 << 53)

/* A min-cost-flow network as GLPK sees it: one column per arc with bounds
 * [lower, upper], one equality row per node (out - in = supply). */
typedef struct pl_glpk_net {
    int32_t n, m;
    const int32_t *tail, *head;   /* [m] */
    const int64_t *lower;         /* [m], or NULL for all zero */
    const int64_t *upper;         /* [m]; PL_CAP_INF (INT64_MAX) = no upper bound */
    const uint8_t *is_inf;        /* [m] or NULL; 1 = no upper bound whatever upper says */
    const int64_t *cost;          /* [m] */
    const int64_t *supply;        /* [n] */
} pl_glpk_net;

/* PL_EOVERFLOW (with a message naming the value) if a bound, cost or supply
 * lies beyond +-2^53, where GLPK's doubles stop being exact. Infinite upper
 * bounds are not values and are skipped. */
PL_INTERNAL pl_status pl_glpk_check_range(const pl_glpk_net *net);

/* Work done on a problem object inside pl_glpk_run(). It may call any GLPK
 * routine; if GLPK fails internally control never comes back to it, so it
 * must not own resources (heap blocks, files) of its own while calling GLPK. */
typedef pl_status (*pl_glpk_body)(glp_prob *lp, void *arg);

/* Run body on a fresh problem object with GLPK silenced and its fatal errors
 * caught. Returns what body returns, or PL_EINTERNAL with GLPK's own error
 * text when GLPK fails. Caveat of GLPK's design: recovering from its failure
 * needs glp_free_env(), which invalidates every GLPK object of the calling
 * thread, including any the application made itself; the terminal and error
 * hooks of the thread's GLPK environment are reset on return. */
PL_INTERNAL pl_status pl_glpk_run(pl_glpk_body body, void *arg);

/* Add net's rows and columns to the empty problem lp (minimisation). */
PL_INTERNAL void pl_glpk_build(glp_prob *lp, const pl_glpk_net *net);

/* Primal simplex without presolve. it_limit > 0 caps the pivots. Returns
 * PL_OK (optimal basic solution), PL_EINFEASIBLE, PL_EUNBOUNDED, PL_ELIMIT or
 * PL_EINTERNAL, each with a message. */
PL_INTERNAL pl_status pl_glpk_simplex(glp_prob *lp, int64_t it_limit);

/* Round x to *out if it is an integer up to floating-point noise; 0 on
 * success, -1 if x is fractional, not finite or too large for int64_t. */
PL_INTERNAL int pl_glpk_round(double x, int64_t *out);

/* Optimal cost of a min-cost-flow problem given as user-level arrays (lower
 * may be NULL for all zero; upper == PL_CAP_INF means unbounded), solved by
 * GLPK alone and so independent of pl_flownet_solve(). The cost is
 * recomputed exactly in int64_t from the rounded flows. Returns PL_OK,
 * PL_EINFEASIBLE, PL_EUNBOUNDED, PL_EOVERFLOW (a value above 2^53 or a cost
 * sum beyond int64_t), PL_EINTERNAL or PL_EINVAL. */
PL_INTERNAL pl_status pl_glpk_min_cost(int32_t n, int32_t m, const int32_t *tail,
                                       const int32_t *head, const int64_t *lower,
                                       const int64_t *upper, const int64_t *cost,
                                       const int64_t *supply, int64_t *cost_out);

#endif
