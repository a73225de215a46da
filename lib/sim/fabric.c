/* The composed-storage runtime model (fabric.h): the disagg module's live
 * cluster applies each started job's decision and moves the ends of the
 * sharers whose sharing changed; the thesis's metrics are kept on the way.
 * Definitions and choices: doc/results.md, "Seed 001". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fabric.h"
#include "internal/columns.h"

static const pl_column job_cols[] = {PL_COLUMN(pl_sim_fabric, rec), PL_COLUMN(pl_sim_fabric, placement),
                                     PL_COLUMN(pl_sim_fabric, end), PL_COLUMN(pl_sim_fabric, running)};
static const pl_column comp_cols[] = {PL_COLUMN(pl_sim_fabric, comp_size), PL_COLUMN(pl_sim_fabric, comp_live),
                                      PL_COLUMN(pl_sim_fabric, comp_hosted), PL_COLUMN(pl_sim_fabric, comp_t0)};

pl_status pl_sim_fabric_init(pl_sim_fabric *f, pl_disagg_cluster *c, const pl_disagg_workload *w, int32_t n,
                             int reshare)
{
    memset(f, 0, sizeof *f);
    f->c = c;
    f->w = w;
    f->n = n;
    f->reshare = reshare;
    pl_status st = pl_disagg_cluster_totals(c, &f->tot);
    if (!st)
        st = pl_columns_alloc(f, job_cols, PL_NCOLUMNS(job_cols), (int64_t)n + 1);
    return st;
}

void pl_sim_fabric_free(pl_sim_fabric *f)
{
    pl_disagg_cluster_free(f->c);
    f->c = NULL;
    pl_columns_free(f, job_cols, PL_NCOLUMNS(job_cols));
    pl_columns_free(f, comp_cols, PL_NCOLUMNS(comp_cols));
}

void pl_sim_fabric_advance(pl_sim_fabric *f, double t)
{
    if (!f->started) {
        f->started = 1;
        f->first_t = f->last_t = t;
    }
    double a = f->last_t, b = t;
    if (f->windowed) {
        a = fmax(a, f->win0);
        b = fmin(b, f->win1);
    }
    double dt = b > a ? b - a : 0;
    f->area_cores += dt * f->run_cores;
    f->area_bw += dt * f->run_bw;
    f->area_cap += dt * f->run_cap;
    f->area_dev += dt * f->composed;
    f->area_comps += dt * f->live_comps;
    f->area_sharers += dt * f->comp_sharers;
    f->last_t = t;
}

static int in_window(const pl_sim_fabric *f, double t)
{
    return !f->windowed || (t >= f->win0 && t <= f->win1);
}

static pl_status note_composition(pl_sim_fabric *f, int32_t comp, int32_t size)
{
    if (comp >= f->ncomp) {
        int64_t cap = f->comp_cap < 16 ? 16 : f->comp_cap;
        while (cap <= comp)
            cap *= 2;
        if (cap > f->comp_cap) {
            if (pl_columns_grow(f, comp_cols, PL_NCOLUMNS(comp_cols), f->comp_cap, cap))
                return PL_ENOMEM;
            f->comp_cap = cap;
        }
        for (int32_t k = f->ncomp; k <= comp; k++)
            f->comp_t0[k] = -1;
        f->ncomp = comp + 1;
    }
    if (f->comp_live[comp] == 0) {
        f->composed += size;
        f->live_comps++;
    }
    f->comp_sharers++;
    if (f->comp_hosted[comp] == 0)
        f->comp_t0[comp] = f->last_t;
    f->comp_size[comp] = size;
    f->comp_live[comp]++;
    f->comp_hosted[comp]++;
    return PL_OK;
}

/* A sharing set changed (a composition's sharers or a GPU's busy vGPUs):
 * the disagg module moved the ends of the workloads concerned; push the
 * finish of each running one that moved. `skip` is the job just started
 * (-1 for none). */
static pl_status reschedule_sharers(pl_sim_fabric *f, int32_t skip, pl_fabric_push_fn push, void *ctx)
{
    if (!f->reshare)
        return PL_OK;
    for (int32_t j = 0; j < f->n; j++) {
        const pl_nvme_sim_record *r = &f->rec[j];
        if (j == skip || (r->composition < 0 && r->type != 3) || !f->running[j])
            continue;
        double end;
        if (pl_disagg_placement(f->c, f->placement[j], NULL, NULL, NULL, NULL, &end))
            return pl_err(PL_EINTERNAL, "NVMe simulation: workload %d lost its placement", (int)j);
        if (end == f->end[j])
            continue;
        f->end[j] = end;
        pl_status st = push(ctx, j, end);
        if (st)
            return st;
    }
    return PL_OK;
}

pl_status pl_sim_fabric_start(pl_sim_fabric *f, int32_t j, const pl_disagg_decision *d, double now,
                              pl_fabric_push_fn push, void *ctx)
{
    const pl_disagg_workload *w = &f->w[j];
    pl_status st;
    int32_t id;
    if (pl_disagg_apply(f->c, w, d, now, &id))
        return pl_err(PL_EINTERNAL, "NVMe simulation: the disagg module refused its own decision "
                                    "for workload %d: %s",
                      (int)j, pl_last_error());
    int32_t comp;
    double end;
    pl_disagg_placement(f->c, id, NULL, &comp, NULL, NULL, &end);
    pl_nvme_sim_record *r = &f->rec[j];
    f->running[j] = 1;
    r->composition = comp;
    r->decided_by = d->policy;
    if (d->policy == PL_DISAGG_MAX_COMPOSITION)
        f->maxcomp++;
    else if (d->policy == PL_DISAGG_MIN_FRAGMENTATION)
        f->minfrag++;
    if (comp >= 0) {
        pl_disagg_composition_info info;
        pl_disagg_composition(f->c, comp, &info);
        r->comp_size = info.n_devices;
        r->sharers = info.sharers;
        if ((st = note_composition(f, comp, info.n_devices)))
            return st;
    }
    f->placement[j] = id;
    f->run_cores += w->cores;
    f->run_bw += (double)w->nvme_bw_bytes_per_s;
    f->run_cap += (double)w->nvme_cap_bytes;
    f->end[j] = end;
    if ((st = push(ctx, j, end)))
        return st;
    return comp >= 0 || r->type == 3 ? reschedule_sharers(f, j, push, ctx) : PL_OK;
}

pl_status pl_sim_fabric_finish(pl_sim_fabric *f, int32_t j, double now, pl_fabric_push_fn push, void *ctx)
{
    const pl_disagg_workload *w = &f->w[j];
    pl_nvme_sim_record *r = &f->rec[j];
    pl_disagg_release_at(f->c, f->placement[j], now);
    f->running[j] = 0;
    f->run_cores -= w->cores;
    f->run_bw -= (double)w->nvme_bw_bytes_per_s;
    f->run_cap -= (double)w->nvme_cap_bytes;
    if (r->composition >= 0) {
        f->comp_sharers--;
        if (--f->comp_live[r->composition] == 0) {
            f->composed -= f->comp_size[r->composition];
            f->live_comps--;
        }
    }
    return r->composition >= 0 || r->type == 3 ? reschedule_sharers(f, -1, push, ctx) : PL_OK;
}

void pl_sim_fabric_summarise(pl_sim_fabric *f, pl_nvme_sim_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->jobs = f->n;
    if (!f->windowed) {
        f->win0 = f->first_t;
        f->win1 = f->last_t;
    }
    sum->window_start_s = f->win0;
    sum->window_end_s = f->win1;
    sum->window_reached = f->windowed;
    int32_t missed = 0, missed_high = 0, ran = 0, counted = 0;
    double wait = 0;
    for (int32_t j = 0; j < f->n; j++) {
        const pl_nvme_sim_record *r = &f->rec[j];
        if (r->finish_s >= 0)
            sum->done++;
        else
            sum->unfinished++;
        if (!in_window(f, r->arrival_s))
            continue;
        counted++;
        if (r->finish_s >= 0) {
            ran++;
            wait += r->start_s - r->arrival_s;
        }
        missed += r->missed;
        missed_high += r->missed && r->high_priority;
    }
    sum->window_jobs = counted;
    sum->missed_pct = counted ? 100.0 * missed / counted : 0;
    sum->missed_high_pct = counted ? 100.0 * missed_high / counted : 0;
    sum->mean_wait_s = ran ? wait / ran : 0;
    double size = 0, hosted = 0;
    for (int32_t k = 0; k < f->ncomp; k++) {
        if (f->comp_hosted[k] == 0 || !in_window(f, f->comp_t0[k]))
            continue;
        sum->compositions++;
        size += f->comp_size[k];
        hosted += f->comp_hosted[k];
    }
    sum->mean_comp_size = sum->compositions ? size / sum->compositions : 0;
    sum->mean_hosted = sum->compositions ? hosted / sum->compositions : 0;
    sum->mean_sharing = f->area_comps > 0 ? f->area_sharers / f->area_comps : 0;
    double span = f->win1 - f->win0;
    if (span > 0) {
        double dev = (double)f->tot.nvme;
        sum->cpu_util_pct = 100.0 * f->area_cores / (span * (double)f->tot.cores);
        if (dev > 0) {
            sum->nvme_usage_pct = 100.0 * f->area_dev / (span * dev);
            sum->bw_util_pct = 100.0 * f->area_bw / (span * (double)f->tot.nvme_bw_bytes_per_s);
            sum->cap_util_pct = 100.0 * f->area_cap / (span * (double)f->tot.nvme_cap_bytes);
        }
    }
    sum->maxcomp_decisions = f->maxcomp;
    sum->minfrag_decisions = f->minfrag;
}
