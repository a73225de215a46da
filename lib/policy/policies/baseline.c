/* Shared machinery of the greedy baselines. */
#include "baseline.h"

int32_t pl_socket_free_gpus(pl_pctx *c, int32_t m, int32_t s, int32_t *out, int32_t cap)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t n = 0;
    for (int32_t i = 0; i < pm->ngpus && n < cap; i++)
        if (pm->gpu_socket[i] == s && pl_pctx_gpu_free(c, pm->gpus[i]))
            out[n++] = pm->gpus[i];
    return n;
}

int pl_take_in_socket_order(pl_pctx *c, int32_t m, const int32_t *order, int32_t k, int32_t *gpus)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t got = 0;
    for (int32_t o = 0; o < pm->nsockets && got < k; o++)
        for (int32_t i = 0; i < pm->ngpus && got < k; i++)
            if (pm->gpu_socket[i] == order[o] && pl_pctx_gpu_free(c, pm->gpus[i]))
                gpus[got++] = pm->gpus[i];
    return got == k;
}

/* What a machine's pick and evaluation gave, kept for the machines in the
 * same class and state after it: the GPUs by position in the machine. */
typedef struct pick_memo {
    uint8_t *ok;
    int32_t *pos;       /* k per machine */
    double *utility, *slowdown;
    int64_t *comm;
} pick_memo;

static pl_status memo_get(pl_pctx *c, int32_t k, pick_memo *mm)
{
    size_t n = (size_t)c->nmach + 1;
    mm->ok = pl_arena_get(&c->scratch, n, sizeof *mm->ok);
    mm->pos = pl_arena_get(&c->scratch, n * (size_t)k, sizeof *mm->pos);
    mm->utility = pl_arena_get(&c->scratch, n, sizeof *mm->utility);
    mm->slowdown = pl_arena_get(&c->scratch, n, sizeof *mm->slowdown);
    mm->comm = pl_arena_get(&c->scratch, n, sizeof *mm->comm);
    return mm->ok && mm->pos && mm->utility && mm->slowdown && mm->comm ? PL_OK : PL_ENOMEM;
}

static void memo_put(pl_pctx *c, pick_memo *mm, int32_t m, int ok, const pl_cand *t)
{
    mm->ok[m] = (uint8_t)ok;
    if (!ok)
        return;
    for (int32_t i = 0; i < t->k; i++)
        mm->pos[(size_t)m * (size_t)t->k + (size_t)i] = c->gpu_index[t->gpus[i]];
    mm->utility[m] = t->utility;
    mm->slowdown[m] = t->slowdown;
    mm->comm[m] = t->comm;
}

/* Machine first's candidate, renamed onto machine m of the same class. */
static int memo_replay(pl_pctx *c, const pick_memo *mm, int32_t first, int32_t m, pl_cand *t)
{
    if (!mm->ok[first])
        return 0;
    for (int32_t i = 0; i < t->k; i++)
        t->gpus[i] = c->mach[m].gpus[mm->pos[(size_t)first * (size_t)t->k + (size_t)i]];
    t->machine = m;
    t->utility = mm->utility[first];
    t->slowdown = mm->slowdown[first];
    t->comm = mm->comm[first];
    return 1;
}

/* A machine's candidate: its own pick and evaluation, or, when an earlier
 * machine of its class was in the same state, that machine's renamed. */
static pl_status candidate_on(pl_pctx *c, const pl_job *job, int32_t k, int32_t m, int32_t first,
                              pick_memo *mm, pl_pick_fn pick, pl_cand *tmp, int *ok)
{
    tmp->k = k;
    if (first != m) {
        *ok = memo_replay(c, mm, first, m, tmp);
        return PL_OK;
    }
    *ok = 0;
    pl_status st = PL_OK;
    if (pick(c, m, k, tmp->gpus))
        st = pl_pctx_evaluate(c, job, tmp, ok);
    if (!st)
        memo_put(c, mm, m, *ok, tmp);
    return st;
}

pl_status pl_baseline_choose(pl_pctx *c, const pl_job *job, int32_t k, const pl_engine_rules *rules,
                             pl_cand *cand, pl_choose_result *res)
{
    pl_pick_fn pick = rules->pick;
    pl_rank_fn rank = rules->rank;
    pl_cand tmp = {0};
    pick_memo mm;
    pl_arena_mark mark = pl_arena_save(&c->scratch);
    tmp.gpus = pl_arena_get(&c->scratch, (size_t)k, sizeof *tmp.gpus);
    pl_status st = tmp.gpus ? memo_get(c, k, &mm) : PL_ENOMEM;
    int found = 0;
    /* A machine in the same state as an earlier one of its class gets that
     * machine's candidate renamed (machine_class.c: its pick and evaluation
     * read the machine by position), and is ranked as usual: whatever the
     * policy's key, the decision is the one of the full computation. Jobs
     * with placement constraints read names and labels: never reused. */
    int reuse = !pl_job_has_constraints(job);
    pl_pctx_states_reset(c);
    for (int32_t m = 0; m < c->nmach && !st; m++) {
        if (pl_pctx_free_count(c, m) < k || !pl_pctx_machine_admits(c, job, m, k))
            continue;
        int32_t first = m;
        int ok;
        if ((reuse && (st = pl_pctx_state_first(c, m, &first))) ||
            (st = candidate_on(c, job, k, m, first, &mm, pick, &tmp, &ok)) || !ok)
            continue;
        if (!found || rank(c, &tmp, cand) < 0) {
            pl_cand_copy(cand, &tmp);
            found = 1;
        }
    }
    pl_arena_release(&c->scratch, mark);
    *res = found ? PL_CHOSEN : PL_NO_FIT;
    return st;
}
