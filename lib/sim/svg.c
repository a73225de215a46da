/* A small SVG writer for simulation results: two panels, the CDF of job
 * slowdown and the CDF of waiting time, one step curve per run, and below
 * them the GPU utilisation over time, one step curve per run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"

#define PANEL_W 420.0
#define PANEL_H 300.0
#define MARGIN_L 60.0
#define MARGIN_T 50.0
#define GAP 90.0
#define UTIL_W (2 * PANEL_W + GAP)
#define UTIL_H 220.0
#define ROW_GAP 90.0

static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

/* Values of the done jobs (field 0: slowdown, 1: wait), sorted. */
static double *collect(const pl_sim_result *res, int field, int32_t *n)
{
    int32_t cnt = pl_sim_result_count(res), k = 0;
    double *v = pl_alloc((size_t)cnt + 1, sizeof *v);
    if (!v)
        return NULL;
    for (int32_t i = 0; i < cnt; i++) {
        pl_sim_job_record r;
        if (pl_sim_result_job(res, i, &r) == PL_OK && r.state == PL_SIM_DONE)
            v[k++] = field ? r.wait : r.slowdown;
    }
    qsort(v, (size_t)k, sizeof *v, pl_cmp_double);
    *n = k;
    return v;
}

/* A "nice" upper bound for an axis. */
static double nice_max(double x)
{
    if (!(x > 0))
        return 1;
    double p = pow(10, floor(log10(x)));
    for (int m = 1; m <= 10; m++)
        if (m * p >= x)
            return m * p;
    return 10 * p;
}

/* A panel's frame, title, 5x5 grid and labels: x from lo to hi, y a fraction. */
typedef struct panel {
    double x0, y0, w, h;
} panel;

static void panel_axes(FILE *f, panel p, double lo, double hi, const char *xlabel,
                       const char *ylabel, const char *title)
{
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
               "stroke=\"#333\"/>\n", p.x0, p.y0, p.w, p.h);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">%s</text>\n",
            p.x0 + p.w / 2, p.y0 - 10, title);
    for (int i = 0; i <= 5; i++) {
        double fx = p.x0 + p.w * i / 5.0, fy = p.y0 + p.h - p.h * i / 5.0;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", fx,
                p.y0, fx, p.y0 + p.h);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", p.x0,
                fy, p.x0 + p.w, fy);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", fx,
                p.y0 + p.h + 16, lo + (hi - lo) * i / 5.0);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", p.x0 - 6, fy + 4,
                i / 5.0);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", p.x0 + p.w / 2,
            p.y0 + p.h + 36, xlabel);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">"
               "%s</text>\n", p.x0 - 40, p.y0 + p.h / 2, p.x0 - 40, p.y0 + p.h / 2, ylabel);
}

static void axes(FILE *f, double x0, double y0, double lo, double hi, const char *xlabel,
                 const char *title)
{
    panel_axes(f, (panel){x0, y0, PANEL_W, PANEL_H}, lo, hi, xlabel, "fraction of jobs", title);
}

static void curve(FILE *f, const double *v, int32_t n, double x0, double y0, double lo, double hi,
                  const char *colour)
{
    if (n == 0)
        return;
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
    double prev = 0;
    fprintf(f, "%.1f,%.1f", x0, y0 + PANEL_H);
    for (int32_t i = 0; i < n; i++) {
        double x = x0 + PANEL_W * (fmin(fmax(v[i], lo), hi) - lo) / (hi - lo);
        double y = y0 + PANEL_H * (1 - (double)(i + 1) / n);
        fprintf(f, " %.1f,%.1f %.1f,%.1f", x, y0 + PANEL_H * (1 - prev), x, y);
        prev = (double)(i + 1) / n;
    }
    fprintf(f, " %.1f,%.1f\"/>\n", x0 + PANEL_W, y0);
}

/* The utilisation panel at (x0, y0): time on x from t0 to t1, fraction on y. */
static void util_axes(FILE *f, double x0, double y0, double t0, double t1)
{
    panel_axes(f, (panel){x0, y0, UTIL_W, UTIL_H}, t0, t1, "time (s)", "fraction of GPUs in use",
               "GPU utilisation over time");
}

static void util_curve(FILE *f, const pl_sim_result *res, double x0, double y0, double t0, double t1,
                       const char *colour)
{
    int64_t n = pl_sim_result_timeline_count(res);
    if (n == 0)
        return;
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
    double prev_y = -1;
    for (int64_t i = 0; i < n; i++) {
        pl_sim_sample p;
        pl_sim_result_timeline(res, i, &p);
        double x = x0 + UTIL_W * (fmin(fmax(p.time, t0), t1) - t0) / (t1 - t0);
        double y = y0 + UTIL_H * (1 - fmin(fmax(p.gpu_util, 0), 1));
        if (prev_y >= 0)
            fprintf(f, " %.1f,%.1f", x, prev_y);
        fprintf(f, "%s%.1f,%.1f", i ? " " : "", x, y);
        prev_y = y;
    }
    fprintf(f, "\"/>\n");
}

/* The time axis: from the earliest point to the latest over all runs. */
static void time_range(const pl_sim_result *const *results, int32_t n, double *t0, double *t1)
{
    *t0 = INFINITY;
    *t1 = -INFINITY;
    for (int32_t r = 0; r < n; r++) {
        int64_t k = pl_sim_result_timeline_count(results[r]);
        pl_sim_sample a, b;
        if (k == 0 || pl_sim_result_timeline(results[r], 0, &a) ||
            pl_sim_result_timeline(results[r], k - 1, &b))
            continue;
        *t0 = fmin(*t0, a.time);
        *t1 = fmax(*t1, b.time);
    }
    if (!isfinite(*t0)) {
        *t0 = 0;
        *t1 = 1;
    }
    *t0 = *t0 > 0 ? 0 : *t0;
    *t1 = *t0 + nice_max(*t1 - *t0);
}

static void escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

pl_status pl_sim_write_svg(const pl_sim_result *const *results, const char *const *labels,
                           int32_t n, const char *title, FILE *f)
{
    if (!results || !labels || n < 1 || !f)
        return pl_err(PL_EINVAL, "pl_sim_write_svg: bad arguments");
    double **vals[2];
    int32_t *counts[2];
    pl_status st = PL_OK;
    for (int p = 0; p < 2; p++) {
        vals[p] = pl_alloc((size_t)n, sizeof *vals[p]);
        counts[p] = pl_alloc((size_t)n, sizeof *counts[p]);
    }
    double hi[2] = {1, 1}, lo[2] = {1, 0};
    for (int p = 0; p < 2 && !st; p++) {
        if (!vals[p] || !counts[p]) {
            st = PL_ENOMEM;
            break;
        }
        for (int32_t r = 0; r < n && !st; r++) {
            if (!results[r] || !labels[r]) {
                st = pl_err(PL_EINVAL, "pl_sim_write_svg: NULL result or label %d", (int)r);
                break;
            }
            if (!(vals[p][r] = collect(results[r], p, &counts[p][r]))) {
                st = PL_ENOMEM;
                break;
            }
            for (int32_t i = 0; i < counts[p][r]; i++) {
                if (vals[p][r][i] > hi[p])
                    hi[p] = vals[p][r][i];
                if (p == 0 && vals[p][r][i] < lo[p])
                    lo[p] = vals[p][r][i];
            }
        }
    }
    if (!st) {
        /* Slowdown axis from the smallest value (down to 1) to a tenth above
         * the largest; waits from 0. */
        lo[0] = floor(lo[0] * 20) / 20;
        hi[0] = lo[0] + nice_max((hi[0] - lo[0]) * 1.05);
        hi[1] = nice_max(hi[1]);
        double width = MARGIN_L + 2 * PANEL_W + GAP + 160;
        double height = MARGIN_T + PANEL_H + ROW_GAP + UTIL_H + 60;
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                   "font-family=\"sans-serif\" font-size=\"12\">\n"
                   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", width, height);
        fprintf(f, "<text x=\"%.1f\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", MARGIN_L);
        escape(f, title ? title : "simulation");
        fprintf(f, "</text>\n");
        const char *xl[2] = {"slowdown (run time / ideal solo time)", "waiting time (s)"};
        const char *tl[2] = {"CDF of job slowdown", "CDF of waiting time"};
        for (int p = 0; p < 2; p++) {
            double x0 = MARGIN_L + p * (PANEL_W + GAP);
            axes(f, x0, MARGIN_T, lo[p], hi[p], xl[p], tl[p]);
            for (int32_t r = 0; r < n; r++)
                curve(f, vals[p][r], counts[p][r], x0, MARGIN_T, lo[p], hi[p],
                      colours[r % (int32_t)(sizeof colours / sizeof colours[0])]);
        }
        double t0, t1, uy = MARGIN_T + PANEL_H + ROW_GAP;
        time_range(results, n, &t0, &t1);
        util_axes(f, MARGIN_L, uy, t0, t1);
        for (int32_t r = 0; r < n; r++)
            util_curve(f, results[r], MARGIN_L, uy, t0, t1,
                       colours[r % (int32_t)(sizeof colours / sizeof colours[0])]);
        double lx = MARGIN_L + 2 * PANEL_W + GAP + 15;
        for (int32_t r = 0; r < n; r++) {
            const char *c = colours[r % (int32_t)(sizeof colours / sizeof colours[0])];
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                       "stroke-width=\"3\"/>\n", lx, MARGIN_T + 10 + 20.0 * r, lx + 25,
                    MARGIN_T + 10 + 20.0 * r, c);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", lx + 32, MARGIN_T + 14 + 20.0 * r);
            escape(f, labels[r]);
            fprintf(f, "</text>\n");
        }
        fprintf(f, "</svg>\n");
        if (ferror(f))
            st = pl_err(PL_EIO, "pl_sim_write_svg: write error");
    }
    for (int p = 0; p < 2; p++) {
        if (vals[p])
            for (int32_t r = 0; r < n; r++)
                free(vals[p][r]);
        free(vals[p]);
        free(counts[p]);
    }
    return st;
}
