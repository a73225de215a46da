/* GLPK plumbing shared by the "glpk" solver and pl_flow_lp_check().
 *
 * GLPK reports internal errors by printing and calling abort(); the library
 * may do neither. pl_glpk_run() therefore installs a terminal hook that
 * swallows (and keeps) GLPK's text and an error hook that longjmps back to a
 * setjmp in guarded(); GLPK's manual prescribes glp_free_env() after such a
 * jump, since the environment is left in an undefined state. */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <string.h>
#include <placement/flownet.h>
#include "internal/glpk_util.h"

/* State of one pl_glpk_run() call, reached by the hooks through their info
 * pointer. It lives in pl_glpk_run()'s frame, not in guarded() where setjmp
 * is called, so C's rule that non-volatile locals of the setjmp caller are
 * indeterminate after longjmp does not touch it; guarded() itself reads no
 * local after the jump, so none of its variables need to be volatile. */
typedef struct glpk_guard {
    jmp_buf jump;
    char text[512];   /* GLPK's output, kept for the error message */
    size_t len;
    int failed;       /* GLPK failed and its environment was freed */
} glpk_guard;

static void append(glpk_guard *g, const char *s, size_t k)
{
    size_t room = sizeof g->text - 1 - g->len;
    if (k > room)
        k = room;
    memcpy(g->text + g->len, s, k);
    g->len += k;
    g->text[g->len] = '\0';
}

/* Terminal hook: keep the text, lines joined by "; " so it fits in one
 * message, and return non-zero so GLPK prints nothing (its error routine
 * turns terminal output back on before reporting). */
static int keep_output(void *info, const char *s)
{
    glpk_guard *g = info;
    if (g->len > 0 && g->text[g->len - 1] == '\n') {
        g->text[--g->len] = '\0';
        append(g, "; ", 2);
    }
    append(g, s, strlen(s));
    return 1;
}

/* Error hook: GLPK calls abort() if this returns, so it never does. */
static void escape(void *info)
{
    glpk_guard *g = info;
    longjmp(g->jump, 1);
}

/* Drop the final newline of GLPK's text. */
static const char *trimmed(char *s)
{
    size_t k = strlen(s);
    while (k > 0 && (s[k - 1] == '\n' || s[k - 1] == ' '))
        s[--k] = '\0';
    return k ? s : "(no message)";
}

static pl_status guarded(glpk_guard *g, pl_glpk_body body, void *arg)
{
    glp_term_hook(keep_output, g);
    glp_error_hook(escape, g);
    if (setjmp(g->jump)) {
        glp_free_env();
        g->failed = 1;
        return pl_err(PL_EINTERNAL, "GLPK failed: %s", trimmed(g->text));
    }
    glp_prob *lp = glp_create_prob();
    pl_status st = body(lp, arg);
    glp_delete_prob(lp);
    return st;
}

pl_status pl_glpk_run(pl_glpk_body body, void *arg)
{
    /* Initialise explicitly: done implicitly, a failure would abort(). */
    int init = glp_init_env();
    if (init == 2)
        return pl_err(PL_ENOMEM, "GLPK could not allocate its environment");
    if (init != 0 && init != 1)
        return pl_err(PL_EINTERNAL, "GLPK does not support this platform (glp_init_env %d)", init);
    int blocks = 0;
    glp_mem_usage(&blocks, NULL, NULL, NULL);
    int old_out = glp_term_out(GLP_OFF);

    glpk_guard g = {.len = 0, .failed = 0};
    g.text[0] = '\0';
    pl_status st = guarded(&g, body, arg);
    if (g.failed)
        return st;
    if (blocks == 0) {
        /* Nothing else on this thread holds GLPK objects: free the
         * environment so threads that solve and exit do not leak it. */
        glp_free_env();
    } else {
        glp_error_hook(NULL, NULL);
        glp_term_hook(NULL, NULL);
        glp_term_out(old_out);
    }
    return st;
}

static int out_of_range(int64_t v)
{
    return v > PL_GLPK_EXACT_LIMIT || v < -PL_GLPK_EXACT_LIMIT;
}

static int arc_unbounded(const pl_glpk_net *net, int32_t a)
{
    return net->upper[a] == PL_CAP_INF || (net->is_inf && net->is_inf[a]);
}

static pl_status range_error(const char *what, int32_t id, int64_t v)
{
    return pl_err(PL_EOVERFLOW,
                  "%s %d: value %lld exceeds 2^53, beyond what GLPK's doubles hold exactly",
                  what, id, (long long)v);
}

pl_status pl_glpk_check_range(const pl_glpk_net *net)
{
    for (int32_t v = 0; v < net->n; v++)
        if (out_of_range(net->supply[v]))
            return range_error("supply of node", v, net->supply[v]);
    for (int32_t a = 0; a < net->m; a++) {
        if (out_of_range(net->cost[a]))
            return range_error("cost of arc", a, net->cost[a]);
        if (net->lower && out_of_range(net->lower[a]))
            return range_error("lower bound of arc", a, net->lower[a]);
        if (!arc_unbounded(net, a) && out_of_range(net->upper[a]))
            return range_error("upper bound of arc", a, net->upper[a]);
    }
    return PL_OK;
}

static void add_arc(glp_prob *lp, const pl_glpk_net *net, int32_t a)
{
    int j = a + 1;
    double lo = net->lower ? (double)net->lower[a] : 0.0, up = (double)net->upper[a];
    if (arc_unbounded(net, a))
        glp_set_col_bnds(lp, j, GLP_LO, lo, 0.0);
    else if (lo == up)
        glp_set_col_bnds(lp, j, GLP_FX, lo, up); /* GLP_DB needs lo < up */
    else
        glp_set_col_bnds(lp, j, GLP_DB, lo, up);
    glp_set_obj_coef(lp, j, (double)net->cost[a]);
    /* A loop's +1 and -1 fall in one row and cancel (GLPK also rejects the
     * repeated row index), so its column stays empty. */
    if (net->tail[a] == net->head[a])
        return;
    int ind[3] = {0, net->tail[a] + 1, net->head[a] + 1};
    double val[3] = {0.0, 1.0, -1.0};
    glp_set_mat_col(lp, j, 2, ind, val);
}

void pl_glpk_build(glp_prob *lp, const pl_glpk_net *net)
{
    glp_set_obj_dir(lp, GLP_MIN);
    /* glp_add_rows/cols reject a count of zero. */
    if (net->n > 0)
        glp_add_rows(lp, net->n);
    for (int32_t v = 0; v < net->n; v++) {
        double b = (double)net->supply[v];
        glp_set_row_bnds(lp, v + 1, GLP_FX, b, b);
    }
    if (net->m > 0)
        glp_add_cols(lp, net->m);
    for (int32_t a = 0; a < net->m; a++)
        add_arc(lp, net, a);
}

pl_status pl_glpk_simplex(glp_prob *lp, int64_t it_limit)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_PRIMAL;
    parm.presolve = GLP_OFF;
    if (it_limit > 0)
        parm.it_lim = it_limit < INT_MAX ? (int)it_limit : INT_MAX;
    int rc = glp_simplex(lp, &parm);
    if (rc == GLP_EITLIM)
        return pl_err(PL_ELIMIT, "GLPK stopped at the iteration limit of %lld pivots",
                      (long long)it_limit);
    if (rc != 0)
        return pl_err(PL_EINTERNAL, "GLPK's glp_simplex failed with code %d", rc);
    /* The floating simplex's tolerances are relative to the largest cost:
     * with costs 1, 2 and 1e10 it stops at cost 2 and calls it optimal. The
     * exact (rational) simplex, started from that basis, confirms it or
     * pivots on to the true optimum; inputs are integers below 2^53, so the
     * doubles it starts from are the data exactly. Its answer is the status.
     * glp_exact refuses a problem without rows or columns (GLP_EFAIL); the
     * floating answer to such a problem is exact anyway. */
    rc = glp_get_num_rows(lp) > 0 && glp_get_num_cols(lp) > 0 ? glp_exact(lp, &parm) : 0;
    if (rc == GLP_EITLIM)
        return pl_err(PL_ELIMIT, "GLPK's exact simplex stopped at the iteration limit of %lld "
                      "pivots", (long long)it_limit);
    if (rc != 0)
        return pl_err(PL_EINTERNAL, "GLPK's glp_exact failed with code %d", rc);
    int status = glp_get_status(lp);
    switch (status) {
    case GLP_OPT:
        return PL_OK;
    case GLP_NOFEAS:
        return pl_err(PL_EINFEASIBLE,
                      "GLPK: no flow satisfies the supplies and arc bounds (LP infeasible)");
    case GLP_UNBND:
        return pl_err(PL_EUNBOUNDED,
                      "GLPK: the cost decreases without bound (LP unbounded)");
    default:
        return pl_err(PL_EINTERNAL, "GLPK's simplex ended with status %d, not an optimum",
                      status);
    }
}

int pl_glpk_round(double x, int64_t *out)
{
    if (!(fabs(x) < 0x1p62))
        return -1;
    long long k = llround(x);
    /* GLPK's values carry relative rounding noise: 1e-6 absolute is the test
     * up to 10^6, relative 10^-12 beyond, where doubles are coarser. */
    double tol = 1e-6 * fmax(1.0, fabs(x) * 1e-6);
    if (fabs(x - (double)k) > tol)
        return -1;
    *out = k;
    return 0;
}

/* ---- pl_glpk_min_cost ------------------------------------------------------ */

typedef struct cost_job {
    const pl_glpk_net *net;
    int64_t cost;
} cost_job;

/* The exact optimum: integer flows times integer costs, summed with overflow
 * checks, then cross-checked with GLPK's own (floating) objective. */
static pl_status exact_cost(glp_prob *lp, const pl_glpk_net *net, int64_t *out)
{
    int64_t total = 0;
    for (int32_t a = 0; a < net->m; a++) {
        double x = glp_get_col_prim(lp, a + 1);
        int64_t f, term;
        if (pl_glpk_round(x, &f))
            return pl_err(PL_EINTERNAL, "GLPK: flow %.17g on arc %d is not an integer", x, a);
        if (pl_mul_ovf(net->cost[a], f, &term) || pl_add_ovf(total, term, &total))
            return pl_err(PL_EOVERFLOW, "GLPK's optimal cost overflows int64_t at arc %d", a);
    }
    double obj = glp_get_obj_val(lp);
    if (fabs(obj - (double)total) > 1e-6 * fmax(1.0, fabs(obj)))
        return pl_err(PL_EINTERNAL,
                      "GLPK's objective %.17g disagrees with the cost %lld of its rounded flows",
                      obj, (long long)total);
    *out = total;
    return PL_OK;
}

static pl_status min_cost_body(glp_prob *lp, void *arg)
{
    cost_job *job = arg;
    pl_glpk_build(lp, job->net);
    pl_status st = pl_glpk_simplex(lp, 0);
    return st ? st : exact_cost(lp, job->net, &job->cost);
}

static pl_status check_arrays(const pl_glpk_net *net, const int64_t *cost_out)
{
    if (net->n < 0 || net->m < 0 || !cost_out || (net->n > 0 && !net->supply) ||
        (net->m > 0 && (!net->tail || !net->head || !net->upper || !net->cost)))
        return pl_err(PL_EINVAL, "pl_glpk_min_cost: negative count or NULL array");
    for (int32_t a = 0; a < net->m; a++) {
        if (net->tail[a] < 0 || net->tail[a] >= net->n || net->head[a] < 0 ||
            net->head[a] >= net->n)
            return pl_err(PL_EINVAL, "pl_glpk_min_cost: arc %d has a node id out of range", a);
        if (net->lower && net->lower[a] > net->upper[a])
            return pl_err(PL_EINVAL, "pl_glpk_min_cost: arc %d has lower > upper", a);
    }
    return PL_OK;
}

pl_status pl_glpk_min_cost(int32_t n, int32_t m, const int32_t *tail, const int32_t *head,
                           const int64_t *lower, const int64_t *upper, const int64_t *cost,
                           const int64_t *supply, int64_t *cost_out)
{
    pl_glpk_net net = {.n = n, .m = m, .tail = tail, .head = head, .lower = lower,
                       .upper = upper, .is_inf = NULL, .cost = cost, .supply = supply};
    pl_status st;
    if ((st = check_arrays(&net, cost_out)) || (st = pl_glpk_check_range(&net)))
        return st;
    cost_job job = {.net = &net, .cost = 0};
    if ((st = pl_glpk_run(min_cost_body, &job)))
        return st;
    *cost_out = job.cost;
    return PL_OK;
}
