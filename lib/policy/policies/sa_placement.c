/* "sa-placement" (seed 003, Kim thesis ch. 2 sec. 3.2) as a policy.
 *
 * A queued job's candidate configurations are the thesis's two variants per
 * node type, taken per admissible machine: its k GPUs packed on the fewest
 * sockets, starting from each socket in turn (most consolidated), or spread
 * one per socket in turn (most scaled out: k > 1 on a machine of several
 * sockets).
 * The jobs that run now are chosen first, in queue order, by first fit over
 * those configurations (the start state); the annealing then moves them
 * between configurations to maximise the geometric mean over every job in
 * scope (running ones included: their co-runners change) of
 * r_worst_solo / r_est. r_worst_solo is a constant per job, so with the set
 * fixed the search minimises the sum of log r_est (doc/policies.md sec. 4e).
 * Move: another configuration of a random movable job; if it does not fit,
 * lift a random movable job from the target machine, place the first, and
 * re-place the lifted one in any configuration that fits (the thesis's
 * "adjust the affected applications"). Accept better or equal, worse with
 * probability exp(delta / T), delta = change of the sum of log speedups
 * (the moved jobs' and their neighbours'), T = T0 cooling^i. The best state
 * seen is placed. With PL_SA_MODEL_TREE the instance learns the slowdowns
 * once, when it is created (sa_tree.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sa_placement.h"

/* Scratch of one call: the candidate GPU buffer and the undo records. */
typedef struct search {
    sa_state *s;
    uint64_t rng;
    int32_t *cand;              /* [max k] */
    int32_t *saved_id;          /* [n] */
    double *saved_logr;
    double sum;                 /* sum of logr over the scope */
    int32_t *mov;               /* movable jobs */
    int32_t nmov;
} search;

static pl_status check_opts(const pl_sa_policy_opts *o)
{
    if (o->mode != PL_SA_BATCH && o->mode != PL_SA_ONLINE)
        return pl_err(PL_EINVAL, "sa-placement: unknown mode %d", (int)o->mode);
    if (o->iterations < 0)
        return pl_err(PL_EINVAL, "sa-placement: iterations %lld < 0", (long long)o->iterations);
    if (!(o->initial_temperature >= 0) || !isfinite(o->initial_temperature))
        return pl_err(PL_EINVAL, "sa-placement: initial_temperature %g is not finite and >= 0",
                      o->initial_temperature);
    if (!(o->cooling > 0 && o->cooling <= 1))
        return pl_err(PL_EINVAL, "sa-placement: cooling %g is not in (0, 1]", o->cooling);
    if (o->model != PL_SA_MODEL_LOOKUP && o->model != PL_SA_MODEL_TREE)
        return pl_err(PL_EINVAL, "sa-placement: unknown model %d", (int)o->model);
    if (o->model == PL_SA_MODEL_TREE && o->predict)
        return pl_err(PL_EINVAL, "sa-placement: model tree and a user predictor exclude each other");
    return PL_OK;
}

/* An instance's state: the tree model learned when it was created, and
 * from which profile set (the caller's, or NULL: the built-in one). */
typedef struct sa_instance {
    pl_coloc_model *model;
    const pl_profile_set *from;
} sa_instance;

static void instance_free(void *state)
{
    sa_instance *in = state;
    if (in)
        pl_coloc_model_free(in->model);
    free(in);
}

/* The model on the caller's profile set, or on the built-in one. */
static pl_status train_on(const pl_profile_set *ps, pl_coloc_model **out)
{
    pl_profile_set *own = NULL;
    pl_status st = ps ? PL_OK : pl_profile_set_builtin(&own);
    if (!st)
        st = sa_tree_train(ps ? ps : own, out);
    pl_profile_set_free(own);
    return st;
}

static int wants_tree(const void *ext)
{
    const pl_sa_policy_opts *o = ext;
    return o && o->kind == PL_POLICY_EXT_SA && o->model == PL_SA_MODEL_TREE;
}

/* Learning happens once per instance (a scheduler's or a simulator run's
 * lifetime), not per call: options of another kind are left to place()
 * to refuse. */
static pl_status create(const pl_policy_opts *opts, const void *data, void **state)
{
    (void)data;
    *state = NULL;
    if (!wants_tree(opts->policy_opts))
        return PL_OK;
    pl_status st = check_opts(opts->policy_opts);
    sa_instance *in = st ? NULL : pl_alloc(1, sizeof *in);
    if (!st && !in)
        st = PL_ENOMEM;
    if (!st) {
        in->from = opts->profiles;
        st = train_on(opts->profiles, &in->model);
    }
    return PL_HAND_OUT(st, in, instance_free, state);
}

/* The candidate configurations of job a: per admissible machine, packed
 * from each socket (which socket group it opens or joins, as the thesis's
 * blocks choose their node group) and, for k > 1 on several sockets, spread. */
static pl_status configs(sa_state *s, int32_t a)
{
    sa_job *x = &s->j[a];
    pl_pctx *c = s->c;
    size_t cap = 1;
    for (int32_t m = 0; m < c->nmach; m++)
        cap += (size_t)c->mach[m].nsockets + 1;
    if (!(x->cfg_mach = pl_alloc(cap, sizeof *x->cfg_mach)) || !(x->cfg_shape = pl_alloc(cap, 1)) ||
        !(x->cfg_first = pl_alloc(cap, sizeof *x->cfg_first)))
        return PL_ENOMEM;
    for (int32_t m = 0; m < c->nmach; m++) {
        if (!pl_pctx_machine_admits(c, x->job, m, x->k))
            continue;
        for (int32_t sk = 0; sk < c->mach[m].nsockets; sk++) {
            x->cfg_mach[x->ncfg] = m;
            x->cfg_shape[x->ncfg] = PL_PICK_PACKED;
            x->cfg_first[x->ncfg++] = sk;
        }
        if (x->k > 1 && c->mach[m].nsockets > 1) {
            x->cfg_mach[x->ncfg] = m;
            x->cfg_shape[x->ncfg] = PL_PICK_SPREAD;
            x->cfg_first[x->ncfg++] = -1;
        }
    }
    return PL_OK;
}

/* A job in scope on machine m that job a must not share it with. The
 * context knows only the running jobs as occupants while the search moves
 * the queued ones (they are committed at the end, in queue order), so its
 * own check would let two anti-affine queued jobs meet here and the later
 * one's commit fail. */
static int meets_avoided(const sa_state *s, int32_t a, int32_t m)
{
    const pl_job *job = s->j[a].job;
    for (int32_t i = 0; i < s->nmj[m]; i++)
        if (pl_job_anti_affine(job, s->j[s->mj[m][i]].job))
            return 1;
    return 0;
}

/* Job a (holding nothing) into configuration cfg if its pick passes the
 * context's checks and the anti-affinity with the jobs the search has
 * placed; *ok = 0 and nothing changed otherwise. */
static pl_status put(search *h, int32_t a, int32_t cfg, int *ok)
{
    sa_state *s = h->s;
    sa_job *x = &s->j[a];
    *ok = 0;
    int32_t m = x->cfg_mach[cfg];
    if (meets_avoided(s, a, m) ||
        !pl_pick_pick(s->c, m, x->k, (pl_pick_shape)x->cfg_shape[cfg], x->cfg_first[cfg], PL_PICK_FREE, h->cand))
        return PL_OK;
    pl_cand cand = {0};
    cand.k = x->k;
    cand.gpus = h->cand;
    pl_status st = pl_pctx_evaluate(s->c, x->job, &cand, ok);
    if (st || !*ok)
        return st;
    if ((st = pl_pick_plan_take(s->c, x->job, h->cand, x->k, &x->plan, &x->nplan)))
        return st;
    memcpy(x->gpus, h->cand, (size_t)x->k * sizeof *x->gpus);
    x->cfg = cfg;
    return sa_enter(s, a);
}

/* Put a back on GPUs it held before (they fit: nothing else moved there). */
static pl_status put_back(sa_state *s, int32_t a, int32_t cfg, const int32_t *gpus)
{
    sa_job *x = &s->j[a];
    memcpy(x->gpus, gpus, (size_t)x->k * sizeof *gpus);
    x->cfg = cfg;
    pl_status st = pl_pick_plan_take(s->c, x->job, x->gpus, x->k, &x->plan, &x->nplan);
    return st ? st : sa_enter(s, a);
}

static void lift(sa_state *s, int32_t a)
{
    sa_job *x = &s->j[a];
    sa_leave(s, a);
    pl_pick_plan_give_back(s->c, x->plan, x->nplan);
    free(x->plan);
    x->plan = NULL;
    x->nplan = 0;
    x->cfg = -1;
}

static int32_t mach_of(const sa_state *s, int32_t a)
{
    return s->c->gpu_mach[s->j[a].gpus[0]];
}

/* One move's undo record. */
typedef struct move {
    int32_t a, b;               /* moved jobs (b = -1: none) */
    int32_t cfg_a, cfg_b;       /* their configurations before */
    int32_t *gpus_a, *gpus_b;   /* their GPUs before */
    int32_t nsaved;
} move;

static pl_status undo(search *h, move *mv)
{
    sa_state *s = h->s;
    lift(s, mv->a);
    if (mv->b >= 0 && s->j[mv->b].cfg >= 0)
        lift(s, mv->b);
    pl_status st = put_back(s, mv->a, mv->cfg_a, mv->gpus_a);
    if (!st && mv->b >= 0)
        st = put_back(s, mv->b, mv->cfg_b, mv->gpus_b);
    sa_restore(s, h->saved_id, h->saved_logr, mv->nsaved);
    return st;
}

/* Try moving job a to configuration cfg (lifting and re-placing one other
 * movable job if needed); on success *done = 1 and *delta is the change of
 * the sum of log run times; mv can undo it. */
static pl_status try_move(search *h, int32_t a, int32_t cfg, move *mv, int *done, double *delta)
{
    sa_state *s = h->s;
    *done = 0;
    mv->a = a;
    mv->b = -1;
    mv->cfg_a = s->j[a].cfg;
    memcpy(mv->gpus_a, s->j[a].gpus, (size_t)s->j[a].k * sizeof *mv->gpus_a);
    int32_t machines[4] = {mach_of(s, a), s->j[a].cfg_mach[cfg], -1, -1};
    lift(s, a);
    int ok;
    pl_status st = put(h, a, cfg, &ok);
    if (!st && !ok) {
        /* Adjust: lift a movable job off the target machine. */
        int32_t cands = 0;
        for (int32_t i = 0; i < h->nmov; i++)
            if (h->mov[i] != a && s->j[h->mov[i]].cfg >= 0 && mach_of(s, h->mov[i]) == machines[1])
                s->list[cands++] = h->mov[i];
        if (cands > 0) {
            int32_t b = s->list[(int32_t)pl_rng_below(&h->rng, cands)];
            mv->b = b;
            mv->cfg_b = s->j[b].cfg;
            memcpy(mv->gpus_b, s->j[b].gpus, (size_t)s->j[b].k * sizeof *mv->gpus_b);
            lift(s, b);
            st = put(h, a, cfg, &ok);
            int32_t start = (int32_t)pl_rng_below(&h->rng, s->j[b].ncfg), okb = 0;
            for (int32_t t = 0; !st && ok && t < s->j[b].ncfg && !okb; t++) {
                int got;
                st = put(h, b, (start + t) % s->j[b].ncfg, &got);
                okb = got;
            }
            if (!st && ok && !okb) {
                lift(s, a);
                ok = 0;
            }
            if (!st && !ok)
                st = put_back(s, b, mv->cfg_b, mv->gpus_b);
            if (!st && ok)
                machines[2] = machines[1], machines[3] = mach_of(s, b);
        }
    }
    if (st)
        return st;
    if (!ok) {
        mv->nsaved = 0;
        return put_back(s, a, mv->cfg_a, mv->gpus_a);
    }
    *done = 1;
    return sa_refresh(s, machines, 4, delta, h->saved_id, h->saved_logr, &mv->nsaved);
}

/* Best state seen: the movable jobs' configurations and GPUs. */
typedef struct best {
    int32_t *cfg;       /* [nmov] */
    int32_t *gpus;      /* [nmov * kmax] */
    int32_t kmax;
    double sum;
} best;

static void remember(const search *h, best *b)
{
    for (int32_t i = 0; i < h->nmov; i++) {
        const sa_job *x = &h->s->j[h->mov[i]];
        b->cfg[i] = x->cfg;
        memcpy(b->gpus + (size_t)i * (size_t)b->kmax, x->gpus, (size_t)x->k * sizeof *x->gpus);
    }
    b->sum = h->sum;
}

static pl_status recall(search *h, const best *b)
{
    sa_state *s = h->s;
    for (int32_t i = 0; i < h->nmov; i++)
        lift(s, h->mov[i]);
    pl_status st = PL_OK;
    for (int32_t i = 0; i < h->nmov && !st; i++)
        st = put_back(s, h->mov[i], b->cfg[i], b->gpus + (size_t)i * (size_t)b->kmax);
    /* Every job's prediction again: simpler than tracking which changed. */
    for (int32_t a = 0; a < s->n && !st; a++)
        if (s->j[a].qi < 0 || s->j[a].cfg >= 0)
            st = sa_predict(s, a, &s->j[a].logr, NULL);
    h->sum = b->sum;
    return st;
}

/* The annealing over the movable jobs h->mov, from the current state. */
static pl_status anneal(search *h, int32_t kmax)
{
    sa_state *s = h->s;
    const pl_sa_policy_opts *o = s->o;
    best b = {0};
    move mv = {0};
    b.kmax = kmax;
    pl_status st = PL_OK;
    if (!(b.cfg = pl_alloc((size_t)h->nmov + 1, sizeof *b.cfg)) ||
        !(b.gpus = pl_alloc((size_t)h->nmov * (size_t)kmax + 1, sizeof *b.gpus)) ||
        !(mv.gpus_a = pl_alloc((size_t)kmax, sizeof *mv.gpus_a)) ||
        !(mv.gpus_b = pl_alloc((size_t)kmax, sizeof *mv.gpus_b)))
        st = PL_ENOMEM;
    if (!st)
        remember(h, &b);
    double temp = o->initial_temperature;
    for (int64_t it = 0; it < o->iterations && !st; it++, temp *= o->cooling) {
        int32_t a = h->mov[(int32_t)pl_rng_below(&h->rng, h->nmov)];
        const sa_job *x = &s->j[a];
        if (x->ncfg < 2)
            continue;
        int32_t cfg = (x->cfg + 1 + (int32_t)pl_rng_below(&h->rng, x->ncfg - 1)) % x->ncfg;
        int done;
        double delta;
        if ((st = try_move(h, a, cfg, &mv, &done, &delta)) || !done)
            continue;
        /* The sum of log speedups changes by -delta. Not the mean: a move
         * changes a few jobs, so over the mean a long queue would make every
         * move look small against T and the search a random walk. */
        double gain = -delta;
        if (gain >= 0 || (temp > 0 && pl_rng_unit(&h->rng) < exp(gain / temp))) {
            h->sum += delta;
            if (h->sum < b.sum - 1e-12)
                remember(h, &b);
        } else
            st = undo(h, &mv);
    }
    if (!st && h->sum > b.sum + 1e-12)
        st = recall(h, &b);
    free(b.cfg);
    free(b.gpus);
    free(mv.gpus_a);
    free(mv.gpus_b);
    return st;
}

/* On-line, one job with at most `iterations` other configurations: try
 * each and keep the best (the annealing could not do better); every trial
 * is undone, so the best one's pick is the same GPUs again. */
static pl_status try_all(search *h, int32_t a, int32_t kmax)
{
    sa_state *s = h->s;
    move mv = {0};
    if (!(mv.gpus_a = pl_alloc((size_t)kmax, sizeof *mv.gpus_a)) ||
        !(mv.gpus_b = pl_alloc((size_t)kmax, sizeof *mv.gpus_b))) {
        free(mv.gpus_a);
        return PL_ENOMEM;
    }
    int32_t best_cfg = s->j[a].cfg;
    double best_delta = 0;
    pl_status st = PL_OK;
    for (int32_t cfg = 0; cfg < s->j[a].ncfg && !st; cfg++) {
        if (cfg == s->j[a].cfg)
            continue;
        int done;
        double delta;
        if ((st = try_move(h, a, cfg, &mv, &done, &delta)) || !done)
            continue;
        if (delta < best_delta - 1e-12) {
            best_delta = delta;
            best_cfg = cfg;
        }
        st = undo(h, &mv);
    }
    if (!st && best_cfg != s->j[a].cfg) {
        int done;
        double delta;
        if (!(st = try_move(h, a, best_cfg, &mv, &done, &delta)) && !done)
            st = pl_err(PL_EINTERNAL, "sa-placement: the best configuration no longer fits");
        h->sum += delta;
    }
    free(mv.gpus_a);
    free(mv.gpus_b);
    return st;
}

/* First fit over a's configurations (the start state); then its neighbours' predictions. */
static pl_status admit(search *h, int32_t a, int *ok)
{
    sa_state *s = h->s;
    *ok = 0;
    pl_status st = PL_OK;
    for (int32_t cfg = 0; cfg < s->j[a].ncfg && !st && !*ok; cfg++)
        st = put(h, a, cfg, ok);
    if (st || !*ok)
        return st;
    int32_t m = mach_of(s, a), n;
    double delta;
    st = sa_refresh(s, &m, 1, &delta, h->saved_id, h->saved_logr, &n);
    h->sum += delta;
    return st;
}

/* Decisions: each admitted job's slowdown from the model, then every
 * admitted job re-checked and committed in queue order. */
static pl_status decide(search *h, pl_decision *out)
{
    sa_state *s = h->s;
    double *slow = pl_alloc((size_t)s->n + 1, sizeof *slow);
    if (!slow)
        return PL_ENOMEM;
    pl_status st = PL_OK;
    for (int32_t a = 0; a < s->n && !st; a++)
        if (s->j[a].qi >= 0 && s->j[a].cfg >= 0) {
            double lr, ls;
            if (!(st = sa_predict(s, a, &lr, &ls)))
                slow[a] = exp(lr - ls);
        }
    int32_t *placed = s->list, np = 0;
    for (int32_t a = 0; a < s->n && !st; a++)
        if (s->j[a].qi >= 0 && s->j[a].cfg >= 0) {
            lift(s, a);
            placed[np++] = a;
        }
    for (int32_t i = 0; i < np && !st; i++) {
        sa_job *x = &s->j[placed[i]];
        pl_cand cand = {0};
        cand.k = x->k;
        cand.gpus = x->gpus;
        int ok;
        if ((st = pl_pctx_evaluate(s->c, x->job, &cand, &ok)))
            break;
        if (!ok)
            st = pl_err(PL_EINTERNAL, "sa-placement: job \"%s\" no longer fits its annealed GPUs",
                        pl_job_name(x->job));
        else if (!(st = pl_pctx_commit(s->c, x->job, &cand)))
            st = pl_pick_set_placed(s->c, out, x->qi, &cand, slow[placed[i]]);
    }
    free(slow);
    return st;
}

static pl_status run(search *h, const pl_policy_request *req, pl_decision *out)
{
    sa_state *s = h->s;
    pl_pctx *c = s->c;
    pl_status st = PL_OK;
    int32_t kmax = 1, id;
    for (int32_t r = 0; r < req->nrunning && !st; r++)
        if (req->running[r].ngpus > 0) {
            st = sa_add_job(s, req->running[r].job, -1, req->running[r].gpus, req->running[r].ngpus, &id);
            kmax = req->running[r].ngpus > kmax ? req->running[r].ngpus : kmax;
        }
    for (int32_t i = 0; i < req->nqueue; i++)
        kmax = pl_job_task_count(req->queue[i]) > kmax ? pl_job_task_count(req->queue[i]) : kmax;
    int32_t cap = s->n + req->nqueue + 1;
    if (!st && (!(h->cand = pl_alloc((size_t)kmax, sizeof *h->cand)) ||
                !(h->saved_id = pl_alloc((size_t)cap, sizeof *h->saved_id)) ||
                !(h->saved_logr = pl_alloc((size_t)cap, sizeof *h->saved_logr)) ||
                !(h->mov = pl_alloc((size_t)cap, sizeof *h->mov))))
        st = PL_ENOMEM;
    for (int32_t a = 0; a < s->n && !st; a++) {
        st = sa_predict(s, a, &s->j[a].logr, NULL);
        h->sum += s->j[a].logr;
    }
    int32_t placed = 0;
    char reason[160];
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        const pl_job *job = req->queue[i];
        int32_t k;
        const char *why = NULL;
        if ((st = pl_pctx_job_check(c, job, &k, 1, &why)))
            break;
        if (why) {
            st = pl_decision_set_kind(out, i, PL_DECISION_REJECTED, why);
            continue;
        }
        if (req->opts->max_placed > 0 && placed >= req->opts->max_placed) {
            snprintf(reason, sizeof reason, "max_placed (%d) jobs already placed in this call",
                     (int)req->opts->max_placed);
            st = pl_decision_set_kind(out, i, PL_DECISION_WAITING, reason);
            continue;
        }
        pl_decision_kind kind;
        pl_pick_admission(c, job, k, &kind, &why);
        if (why) {
            st = pl_decision_set_kind(out, i, kind, why);
            continue;
        }
        if ((st = sa_add_job(s, job, i, NULL, k, &id)) || (st = configs(s, id)))
            break;
        int ok;
        if ((st = admit(h, id, &ok)))
            break;
        if (!ok) {
            st = pl_decision_set_kind(out, i, PL_DECISION_WAITING,
                                 "no candidate configuration fits the free resources next to the jobs placed before it");
            continue;
        }
        placed++;
        if (s->o->mode == PL_SA_ONLINE) {
            h->mov[0] = id;
            h->nmov = 1;
            st = s->j[id].ncfg - 1 <= s->o->iterations ? try_all(h, id, kmax) : anneal(h, kmax);
        } else
            h->mov[h->nmov++] = id;
    }
    if (!st && s->o->mode == PL_SA_BATCH && h->nmov > 0)
        st = anneal(h, kmax);
    return st ? st : decide(h, out);
}

static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    const void *ext;
    pl_sa_policy_opts defaults;
    pl_sa_policy_opts_init(&defaults);
    pl_status st = pl_pick_ext(req, PL_POLICY_EXT_SA, "sa-placement", &ext);
    if (st)
        return st;
    const pl_sa_policy_opts *o = ext ? ext : &defaults;
    if ((st = check_opts(o)))
        return st;
    /* A round whose options name another profile set than the instance
     * learned from (or an instance made without the tree) learns afresh. */
    const sa_instance *in = req->state;
    pl_coloc_model *fresh = NULL;
    if (o->model == PL_SA_MODEL_TREE && (!in || !in->model || in->from != req->opts->profiles) &&
        (st = train_on(req->opts->profiles, &fresh)))
        return st;
    pl_pctx *c;
    if ((st = pl_pctx_create(req, &c))) {
        pl_coloc_model_free(fresh);
        return st;
    }
    sa_state s = {0};
    s.c = c;
    s.o = o;
    s.model = o->model != PL_SA_MODEL_TREE ? NULL : fresh ? fresh : in->model;
    search h = {0};
    h.s = &s;
    h.rng = req->opts->seed;
    if (!(s.mj = pl_alloc((size_t)c->nmach + 1, sizeof *s.mj)) ||
        !(s.nmj = pl_alloc((size_t)c->nmach + 1, sizeof *s.nmj)) ||
        !(s.capmj = pl_alloc((size_t)c->nmach + 1, sizeof *s.capmj)))
        st = PL_ENOMEM;
    if (!st)
        st = run(&h, req, out);
    free(h.cand);
    free(h.saved_id);
    free(h.saved_logr);
    free(h.mov);
    sa_state_free(&s);
    pl_pctx_free(c);
    pl_coloc_model_free(fresh);
    return st;
}

void pl_sa_policy_opts_init(pl_sa_policy_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->kind = PL_POLICY_EXT_SA;
    opts->mode = PL_SA_BATCH;
    /* The standalone search's schedule (doc/coloc.md): the thesis gives none. */
    opts->iterations = 2000;
    opts->initial_temperature = 0.05;
    opts->cooling = 0.995;
}

const pl_policy_ops pl_policy_sa_placement = {
    .name = "sa-placement", .place = place, .version = PL_POLICY_OPS_VERSION, .create = create,
    .destroy = instance_free,
    .description = "simulated annealing over packed / spread configurations per machine, max geometric-mean "
                   "speedup (seed 003)"};
