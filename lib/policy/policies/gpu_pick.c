/* Shared by the seed-003 policies: the lookup of their option structs, the
 * platform type of a machine, GPU picks on one machine, and plans taken
 * while searching. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_pick.h"

pl_status pl_pick_ext(const pl_policy_request *req, pl_policy_ext_kind kind, const char *policy,
                     const void **out)
{
    *out = req->opts->policy_opts;
    if (!*out)
        return PL_OK;
    pl_policy_ext_kind got = *(const pl_policy_ext_kind *)*out;
    if (got != kind)
        return pl_err(PL_EINVAL, "%s: opts.policy_opts is not this policy's options (tag 0x%x, want 0x%x: "
                      "set it up with the policy's init function)", policy, (unsigned)got, (unsigned)kind);
    return PL_OK;
}

size_t pl_pick_platform_len(const char *name)
{
    size_t n = strlen(name);
    while (n > 0 && isdigit((unsigned char)name[n - 1]))
        n--;
    return n > 0 ? n : strlen(name);
}

int pl_pick_gpu_usable(const pl_pctx *c, int32_t g, pl_pick_usable u)
{
    int64_t cap = 0, free_amount = 0;
    if (pl_topology_amount(c->work, g, PL_RES_UNITS, &cap, NULL, &free_amount) != PL_OK)
        return 0;
    switch (u) {
    case PL_PICK_FREE:
        return free_amount >= 1;
    case PL_PICK_EMPTY:
        return cap >= 1 && free_amount == cap;
    case PL_PICK_SHAREABLE:
        return cap >= 2 && free_amount == cap;
    case PL_PICK_EXCLUSIVE:
        return cap == 1 && free_amount == 1;
    }
    return 0;
}

int32_t pl_pick_usable_count(const pl_pctx *c, int32_t m, pl_pick_usable u)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t n = 0;
    for (int32_t i = 0; i < pm->ngpus; i++)
        n += pl_pick_gpu_usable(c, pm->gpus[i], u);
    return n;
}

/* Usable GPUs of socket s of machine m, appended to gpus until k. */
static int32_t take_socket(const pl_pctx *c, int32_t m, int32_t s, int32_t k, pl_pick_usable u,
                           int32_t *gpus, int32_t got)
{
    const pl_pmachine *pm = &c->mach[m];
    for (int32_t i = 0; i < pm->ngpus && got < k; i++)
        if (pm->gpu_socket[i] == s && pl_pick_gpu_usable(c, pm->gpus[i], u))
            gpus[got++] = pm->gpus[i];
    return got;
}

int pl_pick_pick(const pl_pctx *c, int32_t m, int32_t k, pl_pick_shape shape, int32_t first,
                pl_pick_usable u, int32_t *gpus)
{
    const pl_pmachine *pm = &c->mach[m];
    int32_t ns = pm->nsockets, got = 0;
    int32_t cnt[ns > 0 ? ns : 1], order[ns > 0 ? ns : 1];
    memset(cnt, 0, sizeof cnt);
    memset(order, 0, sizeof order);
    for (int32_t i = 0; i < pm->ngpus; i++)
        cnt[pm->gpu_socket[i]] += pl_pick_gpu_usable(c, pm->gpus[i], u);
    if (shape == PL_PICK_SPREAD) {
        /* Round robin: the r-th usable GPU of every socket in round r. */
        int32_t *next = order;   /* per socket: how many of its usable GPUs are taken */
        for (int progress = 1; progress && got < k;) {
            progress = 0;
            for (int32_t s = 0; s < ns && got < k; s++) {
                int32_t seen = 0;
                for (int32_t i = 0; i < pm->ngpus; i++) {
                    if (pm->gpu_socket[i] != s || !pl_pick_gpu_usable(c, pm->gpus[i], u))
                        continue;
                    if (seen++ == next[s]) {
                        gpus[got++] = pm->gpus[i];
                        next[s]++;
                        progress = 1;
                        break;
                    }
                }
            }
        }
    } else {
        int32_t no = 0, best = -1;
        if (first >= ns || (first >= 0 && cnt[first] == 0))
            return 0;
        if (first >= 0)
            order[no++] = first;
        else
            /* Best fit: the socket with the fewest usable GPUs that holds all k. */
            for (int32_t s = 0; s < ns; s++)
                if (cnt[s] >= k && (best < 0 || cnt[s] < cnt[best]))
                    best = s;
        if (best >= 0)
            order[no++] = best;
        /* Then the others, most usable first (stable: index order on ties). */
        const int32_t head = no;
        for (int32_t s = 0; s < ns; s++) {
            if ((head > 0 && order[0] == s) || cnt[s] == 0)
                continue;
            int32_t j = no++;
            while (j > head && cnt[order[j - 1]] < cnt[s]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = s;
        }
        for (int32_t o = 0; o < no && got < k; o++)
            got = take_socket(c, m, order[o], k, u, gpus, got);
    }
    return got == k;
}

int32_t pl_pick_sockets_used(const pl_pctx *c, const int32_t *gpus, int32_t k)
{
    int32_t n = 0;
    for (int32_t i = 0; i < k; i++) {
        int32_t mi = c->gpu_mach[gpus[i]], seen = 0;
        /* A GPU outside every machine (a pool's) is a socket of its own. */
        if (mi < 0) {
            n++;
            continue;
        }
        int32_t s = c->mach[mi].gpu_socket[c->gpu_index[gpus[i]]];
        for (int32_t j = 0; j < i && !seen; j++)
            seen = c->gpu_mach[gpus[j]] == mi &&
                   c->mach[mi].gpu_socket[c->gpu_index[gpus[j]]] == s;
        n += !seen;
    }
    return n;
}

/* Machine m may hold the whole job whoever runs there. */
static int admits_when_empty(const pl_pctx *c, const pl_job *job, int32_t m, int32_t k)
{
    if (c->mach[m].ngpus < k || !pl_job_admits_node(job, c->mach[m].name))
        return 0;
    for (int32_t t = 0; t < k; t++)
        if (!pl_pctx_task_admits(c, job, t, m))
            return 0;
    return 1;
}

void pl_pick_admission(pl_pctx *c, const pl_job *job, int32_t k, pl_decision_kind *kind, const char **why)
{
    int ever = 0;
    *why = NULL;
    for (int32_t m = 0; m < c->nmach; m++) {
        if (pl_pctx_machine_admits(c, job, m, k))
            return;
        ever |= admits_when_empty(c, job, m, k);
    }
    *kind = ever ? PL_DECISION_WAITING : PL_DECISION_REJECTED;
    *why = ever ? "every machine that admits the job holds a job it must not share a machine with "
                  "(anti-affinity)"
                : "no machine admits the job";
}

pl_status pl_pick_set_placed(pl_pctx *c, pl_decision *out, int32_t i, const pl_cand *cand,
                            double slowdown)
{
    pl_decision_info info = {0};
    info.kind = PL_DECISION_PLACED;
    info.ngpus = cand->k;
    info.gpus = cand->gpus;
    info.machine = cand->machine >= 0 ? c->mach[cand->machine].vertex : -1;
    info.utility = cand->utility;
    info.comm_cost = cand->comm;
    info.slowdown = slowdown;
    info.reason = "";
    return pl_decision_set(out, i, &info);
}

pl_status pl_pick_plan_take(pl_pctx *c, const pl_job *job, const int32_t *gpus, int32_t k,
                           pl_plan_item **items, int32_t *n)
{
    pl_status st = pl_plan_build(c->work, job, gpus, k, items, n);
    if (st)
        return st;
    if (!pl_plan_fits(c->work, *items, *n, 0))
        st = pl_err(PL_EINTERNAL, "policy: a plan checked to fit does not");
    else
        st = pl_plan_alloc(c->work, *items, *n);
    if (st) {
        free(*items);
        *items = NULL;
        *n = 0;
    }
    return st;
}

void pl_pick_plan_give_back(pl_pctx *c, const pl_plan_item *items, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        (void)pl_topology_release(c->work, items[i].v, items[i].res, items[i].amount);
}
