/* QoS matrix, Min-Max Pairing (thesis Algorithm 2, fixed), Greedy, and the
 * exact pairing by min-cost flow. Decisions: doc/gpuqos.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <placement/flownet.h>
#include <placement/gpuqos.h>
#include "internal/core.h"
#include "internal/columns.h"

/* Throughputs become integer flow costs at this scale (rounding <= 0.5e-9 per arc). */
#define FLOW_SCALE 1e9

pl_status pl_gpu_qos_matrix(const pl_gpu_trace *ls, int32_t nls, const pl_gpu_trace *batch,
                            int32_t nbatch, const int32_t *factors, int32_t nfactors, double qos,
                            const pl_gpu_sim_opts *opts, double *batch_slow, double *ls_slow,
                            int32_t *factor)
{
    if (!ls || !batch || !factors || !batch_slow || nls < 0 || nbatch < 0 || nfactors < 1)
        return pl_err(PL_EINVAL, "pl_gpu_qos_matrix: NULL argument, negative size or no factors");
    if (!(qos > 0))
        return pl_err(PL_EINVAL, "pl_gpu_qos_matrix: QoS threshold %g must be > 0", qos);
    for (int32_t i = 0; i < nls; i++)
        for (int32_t j = 0; j < nbatch; j++) {
            size_t e = (size_t)i * (size_t)nbatch + (size_t)j;
            batch_slow[e] = NAN;
            if (ls_slow)
                ls_slow[e] = NAN;
            if (factor)
                factor[e] = 0;
            for (int32_t q = 0; q < nfactors; q++) {
                pl_gpu_trace pair[2];
                pair[0] = ls[i];
                pl_status st = pl_gpu_trace_split(&batch[j], factors[q], &pair[1]);
                if (st != PL_OK)
                    return st;
                pl_gpu_sim_result r[2];
                st = pl_gpu_simulate(pair, 2, opts, r);
                pl_gpu_trace_release(&pair[1]);
                if (st != PL_OK)
                    return st;
                /* The batch model's slowdown counts its split overhead: it is
                 * measured against its unsplit solo period. */
                double bs = r[1].iteration_s / batch[j].period_s - 1.0;
                if (r[0].slowdown < qos && (isnan(batch_slow[e]) || bs < batch_slow[e])) {
                    batch_slow[e] = bs;
                    if (ls_slow)
                        ls_slow[e] = r[0].slowdown;
                    if (factor)
                        factor[e] = factors[q];
                }
            }
        }
    return PL_OK;
}

static pl_status check_problem(const pl_gpu_pairing_problem *p, const int32_t *pair)
{
    if (!p || !pair || p->nls < 0 || p->nbatch < 0 || (!p->batch_slow && p->nls && p->nbatch))
        return pl_err(PL_EINVAL, "gpu pairing: NULL argument or negative size");
    size_t n = (size_t)p->nls * (size_t)p->nbatch;
    for (size_t e = 0; e < n; e++) {
        double m = p->batch_slow[e];
        if (isnan(m))
            continue;
        if (!isfinite(m) || m < 0 || (p->ls_slow && (!isfinite(p->ls_slow[e]) || p->ls_slow[e] < 0)))
            return pl_err(PL_EINVAL, "gpu pairing: element (%zu, %zu) has slowdowns %g / %g; want finite >= 0",
                          e / (size_t)p->nbatch, e % (size_t)p->nbatch, m,
                          p->ls_slow ? p->ls_slow[e] : 0.0);
    }
    return PL_OK;
}

static double pair_throughput(const pl_gpu_pairing_problem *p, size_t e)
{
    double ls = p->ls_slow ? p->ls_slow[e] : 0.0;
    return 1.0 / (1.0 + ls) + 1.0 / (1.0 + p->batch_slow[e]);
}

pl_status pl_gpu_pairing_value(const pl_gpu_pairing_problem *p, const int32_t *pair, double *value)
{
    pl_status st = check_problem(p, pair);
    if (st != PL_OK)
        return st;
    if (!value)
        return pl_err(PL_EINVAL, "pl_gpu_pairing_value: NULL value");
    char *used = pl_alloc((size_t)p->nbatch + 1, 1);
    if (!used)
        return PL_ENOMEM;
    double v = 0;
    for (int32_t i = 0; i < p->nls && st == PL_OK; i++) {
        int32_t j = pair[i];
        if (j < 0) {
            v += 1.0;
            continue;
        }
        size_t e = (size_t)i * (size_t)p->nbatch + (size_t)j;
        if (j >= p->nbatch || used[j] || isnan(p->batch_slow[e]))
            st = pl_err(PL_EINVAL, "pl_gpu_pairing_value: LS %d -> batch %d is out of range, "
                        "reused or has no element", i, j);
        else {
            used[j] = 1;
            v += pair_throughput(p, e);
        }
    }
    free(used);
    if (st == PL_OK)
        *value = v;
    return st;
}

/* ---- Min-Max Pairing ---------------------------------------------------------- */

typedef struct mmp_state {
    int32_t n, m;
    char *alive;              /* [n*m] element still in the matrix */
    int32_t *rowcnt, *colcnt; /* live elements per row / column */
    char *rowdone, *coldone;  /* row scheduled (paired or alone) / column used or dropped */
    int32_t x, y;             /* unscheduled LS rows / usable batch columns */
} mmp_state;

static void mmp_kill(mmp_state *s, int32_t i, int32_t j)
{
    size_t e = (size_t)i * (size_t)s->m + (size_t)j;
    if (!s->alive[e])
        return;
    s->alive[e] = 0;
    s->rowcnt[i]--;
    s->colcnt[j]--;
}

/* The fixes of Algorithm 2 live here: a column left empty stops counting in
 * y (line 30 tested the row R_i), and an unscheduled row left empty (by a
 * removed maximum or by a pairing that took its last column) is scheduled
 * alone, so the loop cannot spin on it. */
static void sweep(mmp_state *s, int32_t *pair)
{
    s->x = 0;
    s->y = 0;
    for (int32_t i = 0; i < s->n; i++) {
        if (!s->rowdone[i] && s->rowcnt[i] == 0) {
            s->rowdone[i] = 1;
            pair[i] = -1;
        }
        s->x += !s->rowdone[i];
    }
    for (int32_t j = 0; j < s->m; j++) {
        if (!s->coldone[j] && s->colcnt[j] == 0)
            s->coldone[j] = 1;
        s->y += !s->coldone[j];
    }
}

static void assign(mmp_state *s, int32_t *pair, int32_t i, int32_t j)
{
    pair[i] = j;
    for (int32_t q = 0; q < s->m; q++)
        mmp_kill(s, i, q);
    for (int32_t r = 0; r < s->n; r++)
        mmp_kill(s, r, j);
    s->rowdone[i] = 1;
    s->coldone[j] = 1;
    sweep(s, pair);
}

static int32_t only_in_row(const mmp_state *s, int32_t i)
{
    for (int32_t j = 0; j < s->m; j++)
        if (s->alive[(size_t)i * (size_t)s->m + (size_t)j])
            return j;
    return -1;
}

static int32_t only_in_col(const mmp_state *s, int32_t j)
{
    for (int32_t i = 0; i < s->n; i++)
        if (s->alive[(size_t)i * (size_t)s->m + (size_t)j])
            return i;
    return -1;
}

/* One element per row (LS model) and per column (batch job), plus one so
 * that an empty side still allocates. */
static const pl_column row_cols[] = {PL_COLUMN(mmp_state, rowcnt), PL_COLUMN(mmp_state, rowdone)};
static const pl_column col_cols[] = {PL_COLUMN(mmp_state, colcnt), PL_COLUMN(mmp_state, coldone)};

static void mmp_free(mmp_state *s)
{
    free(s->alive);
    pl_columns_free(s, row_cols, PL_NCOLUMNS(row_cols));
    pl_columns_free(s, col_cols, PL_NCOLUMNS(col_cols));
}

/* Check the problem, set up the matrix of live cells and leave every LS
 * model unpaired; on failure nothing is left to free. */
static pl_status mmp_start(mmp_state *s, const pl_gpu_pairing_problem *p, int32_t *pair)
{
    memset(s, 0, sizeof *s);
    pl_status st = check_problem(p, pair);
    if (st != PL_OK)
        return st;
    s->n = p->nls;
    s->m = p->nbatch;
    size_t cells = (size_t)s->n * (size_t)s->m;
    if (!(s->alive = pl_alloc(cells + 1, 1)) ||
        pl_columns_alloc(s, row_cols, PL_NCOLUMNS(row_cols), s->n + 1) ||
        pl_columns_alloc(s, col_cols, PL_NCOLUMNS(col_cols), s->m + 1)) {
        mmp_free(s);
        return PL_ENOMEM;
    }
    for (int32_t i = 0; i < s->n; i++)
        pair[i] = -1;
    for (int32_t i = 0; i < s->n; i++)
        for (int32_t j = 0; j < s->m; j++)
            if (!isnan(p->batch_slow[(size_t)i * (size_t)s->m + (size_t)j])) {
                s->alive[(size_t)i * (size_t)s->m + (size_t)j] = 1;
                s->rowcnt[i]++;
                s->colcnt[j]++;
            }
    return PL_OK;
}


/* Lines 13-20: the first unscheduled row with a single element. */
static int pair_single_row(mmp_state *s, int32_t *pair)
{
    for (int32_t i = 0; i < s->n; i++)
        if (!s->rowdone[i] && s->rowcnt[i] == 1) {
            assign(s, pair, i, only_in_row(s, i));
            return 1;
        }
    return 0;
}

/* Lines 21-28: a column with a single element, when every remaining batch model is needed. */
static int pair_single_col(mmp_state *s, int32_t *pair)
{
    if (s->x != s->y)
        return 0;
    for (int32_t j = 0; j < s->m; j++)
        if (!s->coldone[j] && s->colcnt[j] == 1) {
            assign(s, pair, only_in_col(s, j), j);
            return 1;
        }
    return 0;
}

/* Line 29: drop the largest slowdown (first in row-major order on ties). */
static void remove_max(mmp_state *s, const pl_gpu_pairing_problem *p, int32_t *pair)
{
    size_t best = SIZE_MAX;
    size_t cells = (size_t)s->n * (size_t)s->m;
    for (size_t e = 0; e < cells; e++)
        if (s->alive[e] && (best == SIZE_MAX || p->batch_slow[e] > p->batch_slow[best]))
            best = e;
    if (best == SIZE_MAX)
        return;
    mmp_kill(s, (int32_t)(best / (size_t)s->m), (int32_t)(best % (size_t)s->m));
    sweep(s, pair);
}

pl_status pl_gpu_mmp(const pl_gpu_pairing_problem *p, int32_t *pair)
{
    return pl_gpu_mmp_variant(p, 0, pair);
}

pl_status pl_gpu_mmp_variant(const pl_gpu_pairing_problem *p, int remove_only_when_stuck, int32_t *pair)
{
    mmp_state s;
    pl_status st = mmp_start(&s, p, pair);
    if (st != PL_OK)
        return st;
    sweep(&s, pair); /* lines 5-11: drop empty columns, schedule empty rows alone */
    while (s.x > 0) {
        int paired = pair_single_row(&s, pair);
        paired |= pair_single_col(&s, pair);
        if (s.x > 0 && !(paired && remove_only_when_stuck))
            remove_max(&s, p, pair);
    }
    mmp_free(&s);
    return PL_OK;
}

pl_status pl_gpu_greedy(const pl_gpu_pairing_problem *p, int32_t *pair)
{
    mmp_state s;
    pl_status st = mmp_start(&s, p, pair);
    if (st != PL_OK)
        return st;
    for (;;) {
        size_t best = SIZE_MAX;
        size_t cells = (size_t)s.n * (size_t)s.m;
        for (size_t e = 0; e < cells; e++)
            if (s.alive[e] && (best == SIZE_MAX || p->batch_slow[e] < p->batch_slow[best]))
                best = e;
        if (best == SIZE_MAX)
            break;
        assign(&s, pair, (int32_t)(best / (size_t)s.m), (int32_t)(best % (size_t)s.m));
    }
    mmp_free(&s);
    return PL_OK;
}

/* ---- exact pairing --------------------------------------------------------------- */

static pl_status build_flow(const pl_gpu_pairing_problem *p, pl_flownet *net, int32_t *pair_arc)
{
    int32_t n = p->nls, m = p->nbatch;
    int32_t src, sink, a0 = 0, b0 = 0;
    pl_status st = pl_flownet_add_node(net, "source", n, &src);
    if (st == PL_OK)
        st = pl_flownet_add_node(net, "sink", -(int64_t)n, &sink);
    if (st == PL_OK && n > 0)
        st = pl_flownet_add_nodes(net, n, &a0);
    if (st == PL_OK && m > 0)
        st = pl_flownet_add_nodes(net, m, &b0);
    for (int32_t i = 0; i < n && st == PL_OK; i++) {
        st = pl_flownet_add_arc(net, src, a0 + i, 0, 1, 0, NULL);
        if (st == PL_OK)
            st = pl_flownet_add_arc(net, a0 + i, sink, 0, 1, -(int64_t)FLOW_SCALE, NULL);
        for (int32_t j = 0; j < m && st == PL_OK; j++) {
            size_t e = (size_t)i * (size_t)m + (size_t)j;
            pair_arc[e] = -1;
            if (isnan(p->batch_slow[e]))
                continue;
            int64_t c = -(int64_t)llround(FLOW_SCALE * pair_throughput(p, e));
            st = pl_flownet_add_arc(net, a0 + i, b0 + j, 0, 1, c, &pair_arc[e]);
        }
    }
    for (int32_t j = 0; j < m && st == PL_OK; j++)
        st = pl_flownet_add_arc(net, b0 + j, sink, 0, 1, 0, NULL);
    return st;
}

pl_status pl_gpu_pairing_optimal(const pl_gpu_pairing_problem *p, const pl_solve_opts *opts,
                                 int32_t *pair)
{
    pl_status st = check_problem(p, pair);
    if (st != PL_OK)
        return st;
    size_t cells = (size_t)p->nls * (size_t)p->nbatch;
    int32_t *pair_arc = pl_alloc(cells + 1, sizeof *pair_arc);
    if (!pair_arc)
        return PL_ENOMEM;
    pl_flownet *net = NULL;
    st = pl_flownet_create(&net);
    if (st == PL_OK)
        st = build_flow(p, net, pair_arc);
    if (st == PL_OK)
        st = pl_flownet_solve(net, opts, NULL);
    for (int32_t i = 0; i < p->nls && st == PL_OK; i++) {
        pair[i] = -1;
        for (int32_t j = 0; j < p->nbatch && st == PL_OK; j++) {
            int32_t a = pair_arc[(size_t)i * (size_t)p->nbatch + (size_t)j];
            int64_t f = 0;
            if (a < 0)
                continue;
            st = pl_flownet_get_flow(net, a, &f);
            if (f > 0)
                pair[i] = j;
        }
    }
    pl_flownet_free(net);
    free(pair_arc);
    return st;
}

pl_status pl_gpu_mmp_vs_optimal(const pl_gpu_pairing_problem *p, const pl_solve_opts *opts,
                                double *mmp_value, double *opt_value)
{
    if (!p || !mmp_value || !opt_value || p->nls < 0)
        return pl_err(PL_EINVAL, "pl_gpu_mmp_vs_optimal: NULL argument");
    int32_t *a = pl_alloc((size_t)p->nls + 1, sizeof *a);
    int32_t *b = pl_alloc((size_t)p->nls + 1, sizeof *b);
    pl_status st = (a && b) ? PL_OK : PL_ENOMEM;
    if (st == PL_OK)
        st = pl_gpu_mmp(p, a);
    if (st == PL_OK)
        st = pl_gpu_pairing_optimal(p, opts, b);
    if (st == PL_OK)
        st = pl_gpu_pairing_value(p, a, mmp_value);
    if (st == PL_OK)
        st = pl_gpu_pairing_value(p, b, opt_value);
    free(a);
    free(b);
    return st;
}
