/* GPU usage-pattern simulator (Kim's thesis ch. 5 sec. 2.3) and kernel split
 * (sec. 2.2, 3.2). Rules and decisions: doc/gpuqos.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <placement/gpuqos.h>
#include "internal/core.h"

/* Events closer than this are simultaneous; durations are seconds. */
#define TIME_EPS 1e-12
/* A copy whose remaining bytes fall below this fraction of its size is done. */
#define BYTES_REL_EPS 1e-12
#define MIN_SPLIT_DURATION_S 1e-9

void pl_gpu_sim_opts_init(pl_gpu_sim_opts *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->horizon_s = 10000.0;
    o->pcie_max_bytes_per_s = PL_GPU_PCIE_MAX_BYTES_PER_S;
}

static pl_status check_trace(const pl_gpu_trace *t, int32_t idx)
{
    if (!t->calls || t->ncalls < 1)
        return pl_err(PL_EINVAL, "gpu trace %d: no calls", idx);
    if (!(t->host_slowdown >= 0) || !isfinite(t->host_slowdown))
        return pl_err(PL_EINVAL, "gpu trace %d: host_slowdown %g must be finite and >= 0", idx,
                      t->host_slowdown);
    double prev_start = 0, last_end = 0;
    for (int32_t k = 0; k < t->ncalls; k++) {
        const pl_gpu_call *c = &t->calls[k];
        if (c->kind != PL_GPU_KERNEL && c->kind != PL_GPU_MEMCPY_H2D && c->kind != PL_GPU_MEMCPY_D2H)
            return pl_err(PL_EINVAL, "gpu trace %d call %d: unknown kind %d", idx, k, (int)c->kind);
        if (!isfinite(c->start_s) || c->start_s < prev_start)
            return pl_err(PL_EINVAL, "gpu trace %d call %d: start %g before the previous call's %g",
                          idx, k, c->start_s, prev_start);
        if (!(c->duration_s > 0) || !isfinite(c->duration_s))
            return pl_err(PL_EINVAL, "gpu trace %d call %d: duration %g must be > 0", idx, k,
                          c->duration_s);
        if (c->kind != PL_GPU_KERNEL && (!(c->bw_bytes_per_s > 0) || !isfinite(c->bw_bytes_per_s)))
            return pl_err(PL_EINVAL, "gpu trace %d call %d: memcopy bandwidth %g must be > 0", idx,
                          k, c->bw_bytes_per_s);
        if (c->split && (c->split2_duration_s < 0 || !isfinite(c->split2_duration_s)))
            return pl_err(PL_EINVAL, "gpu trace %d call %d: split2_duration %g must be >= 0", idx,
                          k, c->split2_duration_s);
        prev_start = c->start_s;
        if (c->start_s + c->duration_s > last_end)
            last_end = c->start_s + c->duration_s;
    }
    if (!(t->period_s >= last_end - TIME_EPS) || !isfinite(t->period_s))
        return pl_err(PL_EINVAL, "gpu trace %d: period %g ends before its last call (%g)", idx,
                      t->period_s, last_end);
    return PL_OK;
}

/* CPU gap before call k in the solo trace: from the end of call k-1 (or the
 * iteration start) to the submission of call k. Overlapping solo calls give
 * a negative difference, clamped to 0 because a model's calls run in one
 * stream here. */
static double solo_gap(const pl_gpu_trace *t, int32_t k)
{
    if (k == 0)
        return t->calls[0].start_s;
    double g = t->calls[k].start_s - (t->calls[k - 1].start_s + t->calls[k - 1].duration_s);
    return g > 0 ? g : 0;
}

static double solo_tail(const pl_gpu_trace *t)
{
    const pl_gpu_call *c = &t->calls[t->ncalls - 1];
    double g = t->period_s - (c->start_s + c->duration_s);
    return g > 0 ? g : 0;
}

typedef enum { ST_GAP, ST_TAIL, ST_KQUEUE, ST_KRUN, ST_COPY } sim_state;

typedef struct sim_model {
    const pl_gpu_trace *t;
    double stretch;     /* 1 + host slowdown */
    sim_state st;
    int32_t k;          /* current call */
    double due;         /* GAP/TAIL: end of the gap; KQUEUE: submission; KRUN: end */
    double bytes_left;  /* COPY */
    double bytes_total; /* COPY */
    double rate;        /* COPY: current bytes/s */
    int64_t iters;
    double last_done;
    double wait;
} sim_model;

static void finish_call(sim_model *m, double t)
{
    if (m->k == m->t->ncalls - 1) {
        m->st = ST_TAIL;
        m->due = t + solo_tail(m->t) * m->stretch;
    } else {
        m->k++;
        m->st = ST_GAP;
        m->due = t + solo_gap(m->t, m->k) * m->stretch;
    }
}

static void submit_call(sim_model *m)
{
    const pl_gpu_call *c = &m->t->calls[m->k];
    if (c->kind == PL_GPU_KERNEL) {
        m->st = ST_KQUEUE; /* due keeps the submission time for FCFS */
    } else {
        m->st = ST_COPY;
        m->bytes_total = c->bw_bytes_per_s * c->duration_s;
        m->bytes_left = m->bytes_total;
    }
}

/* Copies in one direction share max_bw in proportion to their solo rates;
 * below the maximum each keeps its solo rate. */
static void set_copy_rates(sim_model *ms, int32_t n, double max_bw)
{
    for (int dir = PL_GPU_MEMCPY_H2D; dir <= PL_GPU_MEMCPY_D2H; dir++) {
        double sum = 0;
        for (int32_t i = 0; i < n; i++)
            if (ms[i].st == ST_COPY && (int)ms[i].t->calls[ms[i].k].kind == dir)
                sum += ms[i].t->calls[ms[i].k].bw_bytes_per_s;
        double scale = sum > max_bw ? max_bw / sum : 1.0;
        for (int32_t i = 0; i < n; i++)
            if (ms[i].st == ST_COPY && (int)ms[i].t->calls[ms[i].k].kind == dir)
                ms[i].rate = ms[i].t->calls[ms[i].k].bw_bytes_per_s * scale;
    }
}

static double next_event(const sim_model *ms, int32_t n, double now, double horizon)
{
    double tn = INFINITY;
    for (int32_t i = 0; i < n; i++) {
        const sim_model *m = &ms[i];
        double e = INFINITY;
        if (m->st == ST_GAP || m->st == ST_TAIL || m->st == ST_KRUN)
            e = m->due;
        else if (m->st == ST_COPY)
            e = now + m->bytes_left / m->rate;
        if (e < tn)
            tn = e;
    }
    (void)horizon;
    return tn;
}

/* Handle every event due at time t; returns non-zero if something happened. */
static int process_due(sim_model *ms, int32_t n, double t, int *gpu_busy)
{
    int any = 0;
    for (int32_t i = 0; i < n; i++) {
        sim_model *m = &ms[i];
        switch (m->st) {
        case ST_GAP:
            if (m->due <= t + TIME_EPS) {
                submit_call(m);
                any = 1;
            }
            break;
        case ST_TAIL:
            if (m->due <= t + TIME_EPS) {
                m->iters++;
                m->last_done = m->due;
                m->k = 0;
                m->st = ST_GAP;
                m->due = m->due + solo_gap(m->t, 0) * m->stretch;
                any = 1;
            }
            break;
        case ST_KRUN:
            if (m->due <= t + TIME_EPS) {
                *gpu_busy = 0;
                finish_call(m, m->due);
                any = 1;
            }
            break;
        case ST_COPY:
            if (m->bytes_left <= m->bytes_total * BYTES_REL_EPS) {
                finish_call(m, t);
                any = 1;
            }
            break;
        case ST_KQUEUE:
            break;
        }
    }
    return any;
}

/* FCFS: the earliest submission; ties go to the lower model index. */
static void start_kernel(sim_model *ms, int32_t n, double t, int *gpu_busy)
{
    if (*gpu_busy)
        return;
    int32_t best = -1;
    for (int32_t i = 0; i < n; i++)
        if (ms[i].st == ST_KQUEUE && (best < 0 || ms[i].due < ms[best].due - TIME_EPS))
            best = i;
    if (best < 0)
        return;
    sim_model *m = &ms[best];
    /* t may trail the submission by rounding (events within TIME_EPS are simultaneous). */
    if (t > m->due)
        m->wait += t - m->due;
    m->st = ST_KRUN;
    m->due = t + m->t->calls[m->k].duration_s;
    *gpu_busy = 1;
}

pl_status pl_gpu_simulate(const pl_gpu_trace *traces, int32_t n, const pl_gpu_sim_opts *opts,
                          pl_gpu_sim_result *out)
{
    if (!traces || !out || n < 1)
        return pl_err(PL_EINVAL, "pl_gpu_simulate: NULL argument or n = %d < 1", n);
    pl_gpu_sim_opts def;
    pl_gpu_sim_opts_init(&def);
    if (!opts)
        opts = &def;
    if (!(opts->horizon_s > 0) || !isfinite(opts->horizon_s))
        return pl_err(PL_EINVAL, "pl_gpu_simulate: horizon %g must be > 0", opts->horizon_s);
    if (!(opts->pcie_max_bytes_per_s > 0))
        return pl_err(PL_EINVAL, "pl_gpu_simulate: PCIe bandwidth %g must be > 0",
                      opts->pcie_max_bytes_per_s);
    for (int32_t i = 0; i < n; i++) {
        pl_status st = check_trace(&traces[i], i);
        if (st != PL_OK)
            return st;
    }
    sim_model *ms = pl_alloc((size_t)n, sizeof *ms);
    if (!ms)
        return PL_ENOMEM;
    for (int32_t i = 0; i < n; i++) {
        ms[i].t = &traces[i];
        ms[i].stretch = 1.0 + traces[i].host_slowdown;
        ms[i].st = ST_GAP;
        ms[i].due = solo_gap(&traces[i], 0) * ms[i].stretch;
    }
    double t = 0;
    int gpu_busy = 0;
    for (;;) {
        while (process_due(ms, n, t, &gpu_busy)) {
        }
        start_kernel(ms, n, t, &gpu_busy);
        set_copy_rates(ms, n, opts->pcie_max_bytes_per_s);
        double tn = next_event(ms, n, t, opts->horizon_s);
        if (tn > opts->horizon_s + TIME_EPS)
            break;
        for (int32_t i = 0; i < n; i++)
            if (ms[i].st == ST_COPY) {
                ms[i].bytes_left -= ms[i].rate * (tn - t);
                /* Round the finishing copy exactly to zero: its end defines tn. */
                if (ms[i].bytes_left <= ms[i].bytes_total * 1e-9)
                    ms[i].bytes_left = 0;
            }
        t = tn;
    }
    pl_status st = PL_OK;
    for (int32_t i = 0; i < n && st == PL_OK; i++) {
        if (ms[i].iters == 0) {
            st = pl_err(PL_ELIMIT, "pl_gpu_simulate: model %d completes no iteration in %g s", i,
                        opts->horizon_s);
            break;
        }
        out[i].iterations = ms[i].iters;
        out[i].iteration_s = ms[i].last_done / (double)ms[i].iters;
        out[i].slowdown = (out[i].iteration_s - traces[i].period_s) / traces[i].period_s;
        out[i].kernel_wait_s = ms[i].wait;
    }
    free(ms);
    return st;
}

/* ---- kernel split ----------------------------------------------------------- */

/* Duration of one of f sub-calls: a + b/f fitted through (1, d1) and (2, d2). */
static double split_duration(const pl_gpu_call *c, int32_t f)
{
    double d1 = c->duration_s;
    double d2 = c->split2_duration_s > 0 ? c->split2_duration_s : d1 / 2;
    double d = (2 * d2 - d1) + 2 * (d1 - d2) / f;
    return d > MIN_SPLIT_DURATION_S ? d : MIN_SPLIT_DURATION_S;
}

static void emit(pl_gpu_call *dst, int32_t *len, const pl_gpu_call *src, double *cursor,
                 double gap, double dur)
{
    pl_gpu_call c = *src;
    c.start_s = *cursor + gap;
    c.duration_s = dur;
    c.split = 0;
    c.split2_duration_s = 0;
    dst[(*len)++] = c;
    *cursor = c.start_s + dur;
}

pl_status pl_gpu_trace_split(const pl_gpu_trace *in, int32_t factor, pl_gpu_trace *out)
{
    if (!in || !out || factor < 1)
        return pl_err(PL_EINVAL, "pl_gpu_trace_split: NULL argument or factor %d < 1", factor);
    pl_status st = check_trace(in, 0);
    if (st != PL_OK)
        return st;
    int64_t nsplit = 0;
    for (int32_t k = 0; k < in->ncalls; k++)
        nsplit += in->calls[k].split != 0;
    int64_t total = in->ncalls + nsplit * (factor - 1);
    if (total > INT32_MAX)
        return pl_err(PL_EINVAL, "pl_gpu_trace_split: %lld calls do not fit", (long long)total);
    pl_gpu_call *calls = pl_alloc((size_t)total, sizeof *calls);
    if (!calls)
        return PL_ENOMEM;
    int32_t len = 0;
    double cursor = 0;
    for (int32_t k = 0; k < in->ncalls;) {
        if (!in->calls[k].split) {
            emit(calls, &len, &in->calls[k], &cursor, solo_gap(in, k), in->calls[k].duration_s);
            k++;
            continue;
        }
        int32_t g1 = k;
        while (g1 + 1 < in->ncalls && in->calls[g1 + 1].split)
            g1++;
        for (int32_t rep = 0; rep < factor; rep++)
            for (int32_t q = k; q <= g1; q++) {
                double gap = (q == k && rep > 0) ? 0 : solo_gap(in, q);
                emit(calls, &len, &in->calls[q], &cursor, gap, split_duration(&in->calls[q], factor));
            }
        k = g1 + 1;
    }
    out->calls = calls;
    out->ncalls = len;
    out->period_s = cursor + solo_tail(in);
    out->host_slowdown = in->host_slowdown;
    return PL_OK;
}

void pl_gpu_trace_release(pl_gpu_trace *t)
{
    if (!t)
        return;
    free((void *)t->calls);
    t->calls = NULL;
    t->ncalls = 0;
}
