/* Sharing over time (opts.reshare, doc/disagg.md "Sharing over time"): a
 * workload on a composition progresses at 1 / T(k, s) of its work per
 * second, s being the sharers of the moment; a YOLO workload on a vGPU at
 * 1 / (base x f(b)), b being the busy vGPUs of its GPU (Fig. 5.3). When s or
 * b changes, every sharer's remaining work is first advanced at the old
 * rate, then its end is set at the new one: the thesis's per-step
 * re-evaluation, exact between changes. */
#include "disagg_impl.h"

int dg_has_attached(const pl_disagg_cluster *c)
{
    for (int64_t v = 0; v < c->nnvme; v++)
        if (c->nvme[v].home >= 0)
            return 1;
    return 0;
}

/* Advance p's work to now at its recorded rate, then run the rest at a full
 * run time of t. */
static void retime(dg_place *p, double now, double t)
{
    if (p->run_time > 0 && now > p->last_s)
        p->work_left -= (now - p->last_s) / p->run_time;
    if (p->work_left < 0)
        p->work_left = 0;
    p->run_time = t;
    p->last_s = now;
    p->end = now + p->work_left * t;
}

void dg_reshare(pl_disagg_cluster *c, int32_t comp, double now)
{
    const dg_comp *m = &c->comps[comp];
    if (!m->alive)
        return;
    for (int64_t i = c->place0; i < c->nplaces; i++) {
        dg_place *p = dg_place_at(c, i);
        if (!p->alive || p->comp != comp)
            continue;
        double t = p->run_time;
        /* The workload was valid when applied, so the model cannot fail on
         * a live composition; keep the old rate if it ever did. */
        if (pl_disagg_predict_nvme(c, &p->w, m->n, m->bw, m->sharers, &t) != PL_OK)
            t = p->run_time;
        retime(p, now, t);
    }
}

void dg_reshare_gpu(pl_disagg_cluster *c, int32_t gpu, double now)
{
    int32_t busy = c->gpus[gpu].busy;
    for (int64_t i = c->place0; i < c->nplaces; i++) {
        dg_place *p = dg_place_at(c, i);
        if (p->alive && p->gpu == gpu)
            retime(p, now, dg_gpu_time(&p->w, busy));
    }
}
