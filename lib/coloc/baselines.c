/* The baselines of ch. 2 sec. 4.2 (Random, Greedy, HA, IA), built on the
 * search of sa.c: each places the applications one at a time in the
 * thesis's order, the earlier ones fixed, each step searched exhaustively
 * under a rule predictor. The rule predictor is what makes a baseline: the
 * solo runtime (interference-ignorant), times a large penalty for what the
 * baseline may not take (another configuration, another co-runner), so the
 * step keeps the best allowed choice when one fits and the least bad one
 * otherwise. A step looks ahead: the applications still to place are in its
 * search too, costing nothing, so it only keeps a choice after which they
 * all still fit (on a full cluster a greedy choice can otherwise strand the
 * last one, doc/coloc.md sec. 2b). Node choice among equals is the search's
 * (joined groups first, then the lowest empty nodes). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "coloc_impl.h"

/* A disallowed choice costs this factor: larger than any ratio of solo runtimes. */
#define RULE_PENALTY 1e6

typedef struct rule_ctx {
    const pl_coloc_problem *p;
    const int32_t *order;      /* sub-problem app i is p's app order[i] */
    const uint8_t *allowed;    /* [configs] NULL: every one */
    const int32_t *want_cfg;   /* [p->apps] IA: configuration of each app, -1 any (NULL: no rule) */
    const int32_t *partner;    /* [p->apps] IA: the only allowed co-runner, -1 none (NULL: no rule) */
    int32_t last;              /* sub-problem index of the app being placed; later ones are look-ahead */
} rule_ctx;

static pl_status rule_predict(void *ctx, const pl_coloc_query *q, double *runtime_s)
{
    const rule_ctx *r = ctx;
    int32_t a = r->order[q->app];
    if (q->app > r->last) {
        /* not placed yet, only required to fit: its worst solo runtime adds
         * log(1) = 0 to the objective, whatever its placement */
        double worst = 0;
        for (int32_t c = 0; c < r->p->configs; c++)
            worst = fmax(worst, r->p->solo_runtime_s[(size_t)a * (size_t)r->p->configs + (size_t)c]);
        *runtime_s = worst;
        return PL_OK;
    }
    double t = q->solo_runtime_s;
    if (r->allowed && !r->allowed[q->config])
        t *= RULE_PENALTY;
    if (r->want_cfg && r->want_cfg[a] >= 0 && r->want_cfg[a] != q->config)
        t *= RULE_PENALTY;
    if (r->partner) {
        for (int32_t b = 0; b < q->cfg->blocks; b++) {
            int with_partner = 0;
            for (int32_t i = 0; i < q->corunners[b]; i++) {
                if (q->corunner_app[b][i] > r->last)
                    continue; /* a look-ahead app is not there yet */
                int32_t o = r->order[q->corunner_app[b][i]];
                if (o == r->partner[a])
                    with_partner = 1;
                else
                    t *= RULE_PENALTY;
            }
            /* the second of a pair must share every block with the first */
            if (q->app == r->last && r->partner[a] >= 0 && !with_partner) {
                int32_t first_placed = 0;
                for (int32_t i = 0; i < r->last; i++)
                    first_placed |= r->order[i] == r->partner[a];
                if (first_placed)
                    t *= RULE_PENALTY;
            }
        }
    }
    *runtime_s = t;
    return PL_OK;
}

/* Place the first `count` of p's applications in the given order, each by
 * an exhaustive step under the rule predictor that looks ahead over all of
 * them; out receives their placement in p's app order (the others are left
 * alone). *penalised (may be NULL) is set when a step could only take a
 * disallowed choice. who names the baseline in errors. */
static pl_status place_in_order(const pl_coloc_problem *p, const int32_t *order, int32_t count, rule_ctx *rule,
                                pl_coloc_placement *out, int *penalised, const char *who)
{
    int32_t n = p->apps, k = p->configs, R = p->vms;
    pl_coloc_placement sub = {0}, step = {0};
    double *solo = pl_alloc((size_t)n * (size_t)k, sizeof *solo);
    pl_status st = solo ? PL_OK : PL_ENOMEM;
    if (!st)
        st = pl_coloc_placement_alloc(&sub, n, R);
    if (!st)
        st = pl_coloc_placement_alloc(&step, n, R);
    if (penalised)
        *penalised = 0;
    for (int32_t i = 0; i < n && !st; i++)
        memcpy(solo + (size_t)i * (size_t)k, p->solo_runtime_s + (size_t)order[i] * (size_t)k,
               (size_t)k * sizeof *solo);
    rule->order = order;
    for (int32_t i = 0; i < count && !st; i++) {
        pl_coloc_problem q = *p;
        q.fixed = i;
        q.fixed_placement = i ? &sub : NULL;
        q.solo_runtime_s = solo;
        q.predict = rule_predict;
        q.predict_ctx = rule;
        rule->last = i;
        pl_coloc_result res;
        st = pl_coloc_exhaustive_place(&q, 0, &step, &res);
        /* each step keeps a choice with a completion, so only step 0 can find
         * nothing: then no placement of them all exists */
        if (st == PL_EINFEASIBLE) {
            st = pl_err(PL_EINFEASIBLE, "%s: no placement of the %d applications fits the cluster", who, (int)n);
            break;
        }
        if (st)
            break;
        /* allowed choices cost nothing and look-ahead apps add 0, so a penalty
         * shows as a drop of the summed log objective by at least log(RULE_PENALTY) */
        double free_obj = 0;
        for (int32_t j = 0; j <= i; j++) {
            double worst = 0, t = solo[(size_t)j * (size_t)k + (size_t)step.config[j]];
            for (int32_t c = 0; c < k; c++)
                worst = fmax(worst, solo[(size_t)j * (size_t)k + (size_t)c]);
            free_obj += log(worst / t);
        }
        if (penalised && n * log(res.objective) < free_obj - 0.5 * log(RULE_PENALTY))
            *penalised = 1;
        sub.config[i] = step.config[i];
        memcpy(sub.node + (size_t)i * (size_t)R, step.node + (size_t)i * (size_t)R, (size_t)R * sizeof *sub.node);
    }
    for (int32_t i = 0; i < count && !st; i++) {
        out->config[order[i]] = sub.config[i];
        memcpy(out->node + (size_t)order[i] * (size_t)R, sub.node + (size_t)i * (size_t)R,
               (size_t)R * sizeof *out->node);
    }
    free(solo);
    pl_coloc_placement_free(&sub);
    pl_coloc_placement_free(&step);
    return st;
}

static pl_status check_batch(const pl_coloc_problem *p, const pl_coloc_placement *out, const char *who)
{
    if (!p || !out || !out->config || !out->node || !p->solo_runtime_s || p->apps < 1 || p->configs < 1)
        return pl_err(PL_EINVAL, "%s: NULL or empty problem, or output not allocated", who);
    if (p->fixed)
        return pl_err(PL_EINVAL, "%s: a batch baseline (fixed = %d)", who, (int)p->fixed);
    return PL_OK;
}

pl_status pl_coloc_solo_greedy_place(const pl_coloc_problem *p, int consolidated_only, pl_coloc_placement *out)
{
    pl_status st = check_batch(p, out, "pl_coloc_solo_greedy_place");
    if (st)
        return st;
    int32_t n = p->apps, k = p->configs;
    uint8_t *allowed = pl_alloc((size_t)k, 1);
    int32_t *order = pl_alloc((size_t)n, sizeof *order);
    double *gain = pl_alloc((size_t)n, sizeof *gain);
    if (!allowed || !order || !gain) {
        st = PL_ENOMEM;
        goto done;
    }
    int32_t nallowed = 0;
    for (int32_t c = 0; c < k; c++) {
        allowed[c] = !consolidated_only || (p->config[c].types == 1 && p->config[c].consolidated);
        nallowed += allowed[c];
    }
    if (!nallowed) {
        st = pl_err(PL_EINVAL, "pl_coloc_solo_greedy_place: no consolidated homogeneous configuration");
        goto done;
    }
    /* decreasing r_worst / r_best over the allowed configurations (sec. 4.2); ties: app index */
    for (int32_t a = 0; a < n; a++) {
        double lo = INFINITY, hi = 0;
        for (int32_t c = 0; c < k; c++)
            if (allowed[c]) {
                lo = fmin(lo, p->solo_runtime_s[(size_t)a * (size_t)k + (size_t)c]);
                hi = fmax(hi, p->solo_runtime_s[(size_t)a * (size_t)k + (size_t)c]);
            }
        gain[a] = hi / lo;
        int32_t i = a;
        for (; i > 0 && gain[order[i - 1]] < gain[a]; i--)
            order[i] = order[i - 1];
        order[i] = a;
    }
    rule_ctx rule = {.p = p, .allowed = allowed};
    st = place_in_order(p, order, n, &rule, out, NULL, "pl_coloc_solo_greedy_place");
done:
    free(allowed);
    free(order);
    free(gain);
    return st;
}

pl_status pl_coloc_random_place(const pl_coloc_problem *p, uint64_t seed, pl_coloc_placement *out)
{
    pl_status st = check_batch(p, out, "pl_coloc_random_place");
    if (st)
        return st;
    pl_coloc_problem q = *p;
    rule_ctx rule = {.p = p, .last = p->apps - 1};
    int32_t *identity = pl_alloc((size_t)p->apps, sizeof *identity);
    if (!identity)
        return PL_ENOMEM;
    for (int32_t a = 0; a < p->apps; a++)
        identity[a] = a;
    rule.order = identity;
    q.predict = rule_predict; /* the start is random; nothing is evaluated but that start */
    q.predict_ctx = &rule;
    pl_coloc_sa_opts o;
    pl_coloc_sa_opts_init(&o);
    o.iterations = 0;
    o.seed = seed;
    st = pl_coloc_sa_place(&q, &o, out, NULL);
    free(identity);
    return st;
}

pl_status pl_coloc_ia_place(const pl_coloc_problem *p, const int32_t *dominant, uint64_t seed,
                            pl_coloc_placement *out)
{
    pl_status st = check_batch(p, out, "pl_coloc_ia_place");
    if (st)
        return st;
    if (!dominant)
        return pl_err(PL_EINVAL, "pl_coloc_ia_place: NULL dominant");
    int32_t n = p->apps, k = p->configs, nscaled = 0;
    int32_t *order = pl_alloc((size_t)n, sizeof *order), *partner = pl_alloc((size_t)n, sizeof *partner);
    int32_t *want = pl_alloc((size_t)n, sizeof *want), *scaled = pl_alloc((size_t)k, sizeof *scaled);
    int32_t *shuffled = pl_alloc((size_t)n, sizeof *shuffled);
    if (!order || !partner || !want || !scaled || !shuffled) {
        st = PL_ENOMEM;
        goto done;
    }
    /* the thesis's C1, C3, C5: the scaled-out configurations */
    for (int32_t c = 0; c < k; c++)
        if (!p->config[c].consolidated)
            scaled[nscaled++] = c;
    if (!nscaled) {
        st = pl_err(PL_EINVAL, "pl_coloc_ia_place: no scaled-out configuration");
        goto done;
    }
    uint64_t rng = seed;
    pl_rng_u64(&rng);
    for (int32_t a = 0; a < n; a++) {
        shuffled[a] = a;
        partner[a] = -1;
        want[a] = -1;
    }
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)pl_rng_below(&rng, i + 1), t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
    }
    /* pairs of different dominant resources where possible, in random order */
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t a = shuffled[i];
        if (partner[a] >= 0)
            continue;
        int32_t best = -1;
        for (int32_t j = i + 1; j < n; j++) {
            int32_t b = shuffled[j];
            if (partner[b] >= 0)
                continue;
            if (best < 0 || (dominant[b] != dominant[a] && dominant[best] == dominant[a]))
                best = b;
        }
        order[m++] = a;
        if (best >= 0) {
            partner[a] = best;
            partner[best] = a;
            order[m++] = best;
        }
    }
    rule_ctx rule = {.p = p, .want_cfg = want, .partner = partner};
    /* each pair on a random scaled-out configuration; one that no longer fits is
     * replaced by the next (in random order) that does, tried pair by pair. */
    for (int32_t i = 0; i < m && !st; i++) {
        int32_t a = order[i];
        if (i && partner[a] == order[i - 1])
            continue;
        int32_t first = (int32_t)pl_rng_below(&rng, nscaled);
        int penalised = 1;
        for (int32_t t = 0; t < nscaled && penalised && !st; t++) {
            want[a] = scaled[(first + t) % nscaled];
            if (partner[a] >= 0)
                want[partner[a]] = want[a];
            st = place_in_order(p, order, partner[a] >= 0 ? i + 2 : i + 1, &rule, out, &penalised,
                                "pl_coloc_ia_place");
        }
        if (penalised && !st) { /* no scaled-out configuration fits the pair: any */
            want[a] = -1;
            if (partner[a] >= 0)
                want[partner[a]] = -1;
        }
    }
    if (!st)
        st = place_in_order(p, order, n, &rule, out, NULL, "pl_coloc_ia_place");
done:
    free(order);
    free(partner);
    free(want);
    free(scaled);
    free(shuffled);
    return st;
}
