/* Policies by name, and pl_policy_place(). Built-in policies live in a
 * constant table; user policies in a small list behind a mutex (as the
 * solver registry). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "policy_impl.h"

static const pl_policy_ops *const builtin[] = {
    &pl_policy_topo_aware, &pl_policy_topo_aware_p, &pl_policy_fcfs, &pl_policy_bf,
    &pl_policy_pack,       &pl_policy_spread,       &pl_policy_random,
    &pl_policy_drmaestro,  &pl_policy_drmaestro_na,
};
#define N_BUILTIN ((int)(sizeof builtin / sizeof builtin[0]))

#define MAX_USER 64
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const pl_policy_ops *user[MAX_USER];
static int n_user;

void pl_policy_opts_init(pl_policy_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->policy = "topo-aware";
    pl_utility_opts_init(&opts->utility);
    opts->profiles = NULL;
    opts->seed = 1;
    opts->max_placed = 0;
}

static const pl_policy_ops *find_locked(const char *name, int *user_index)
{
    *user_index = -1;
    for (int i = 0; i < N_BUILTIN; i++)
        if (strcmp(builtin[i]->name, name) == 0)
            return builtin[i];
    for (int i = 0; i < n_user; i++)
        if (strcmp(user[i]->name, name) == 0) {
            *user_index = i;
            return user[i];
        }
    return NULL;
}

pl_status pl_policy_register(const pl_policy_ops *ops)
{
    if (!ops || !ops->name || !ops->place || !ops->name[0])
        return pl_err(PL_EINVAL, "pl_policy_register: ops needs a non-empty name and a place function");
    pl_status st = PL_OK;
    int idx;
    pthread_mutex_lock(&lock);
    if (find_locked(ops->name, &idx))
        st = pl_err(PL_EINVAL, "pl_policy_register: a policy named \"%s\" already exists", ops->name);
    else if (n_user == MAX_USER)
        st = pl_err(PL_ENOMEM, "pl_policy_register: at most %d user policies", MAX_USER);
    else
        user[n_user++] = ops;
    pthread_mutex_unlock(&lock);
    return st;
}

pl_status pl_policy_unregister(const char *name)
{
    if (!name)
        return pl_err(PL_EINVAL, "pl_policy_unregister: name is NULL");
    pl_status st = PL_OK;
    int idx;
    pthread_mutex_lock(&lock);
    const pl_policy_ops *ops = find_locked(name, &idx);
    if (!ops)
        st = pl_err(PL_ENOTFOUND, "pl_policy_unregister: no policy named \"%s\"", name);
    else if (idx < 0)
        st = pl_err(PL_EINVAL, "pl_policy_unregister: \"%s\" is built in and cannot be removed", name);
    else {
        memmove(&user[idx], &user[idx + 1], (size_t)(n_user - idx - 1) * sizeof user[0]);
        n_user--;
    }
    pthread_mutex_unlock(&lock);
    return st;
}

pl_status pl_policy_find(const char *name, const pl_policy_ops **ops)
{
    if (!name || !ops)
        return pl_err(PL_EINVAL, "pl_policy_find: NULL argument");
    int idx;
    pthread_mutex_lock(&lock);
    *ops = find_locked(name, &idx);
    pthread_mutex_unlock(&lock);
    if (*ops)
        return PL_OK;
    char known[1024] = "";
    size_t len = 0;
    for (int i = 0; i < pl_policy_count() && len < sizeof known; i++) {
        const pl_policy_ops *p = pl_policy_get(i);
        if (p)
            len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", p->name);
    }
    return pl_err(PL_ENOTFOUND, "no policy named \"%s\" (known: %s)", name, known);
}

int pl_policy_count(void)
{
    pthread_mutex_lock(&lock);
    int n = N_BUILTIN + n_user;
    pthread_mutex_unlock(&lock);
    return n;
}

const pl_policy_ops *pl_policy_get(int i)
{
    if (i < 0)
        return NULL;
    if (i < N_BUILTIN)
        return builtin[i];
    pthread_mutex_lock(&lock);
    const pl_policy_ops *ops = i - N_BUILTIN < n_user ? user[i - N_BUILTIN] : NULL;
    pthread_mutex_unlock(&lock);
    return ops;
}

static pl_status check_running(const pl_topology *topo, const pl_running_job *running, int32_t n)
{
    if (n < 0 || (n > 0 && !running))
        return pl_err(PL_EINVAL, "pl_policy_place: running is NULL with nrunning %d", (int)n);
    int32_t nv = pl_topology_vertex_count(topo);
    for (int32_t i = 0; i < n; i++) {
        if (!running[i].job || running[i].ngpus < 0 || (running[i].ngpus > 0 && !running[i].gpus))
            return pl_err(PL_EINVAL, "pl_policy_place: running job %d has no job or GPU list", (int)i);
        for (int32_t j = 0; j < running[i].ngpus; j++) {
            pl_vertex_info vi;
            int32_t g = running[i].gpus[j];
            if (g < 0 || g >= nv || pl_topology_vertex(topo, g, &vi) || vi.kind != PL_VK_GPU)
                return pl_err(PL_EINVAL, "pl_policy_place: running job %d: vertex %d is not a GPU",
                              (int)i, (int)g);
        }
    }
    return PL_OK;
}

pl_status pl_policy_place(const pl_policy_opts *opts, const pl_topology *topo,
                          const pl_running_job *running, int32_t nrunning, pl_job *const *queue,
                          int32_t nqueue, pl_decision **out)
{
    if (out)
        *out = NULL;
    if (!opts || !topo || !out)
        return pl_err(PL_EINVAL, "pl_policy_place: NULL options, topology or output");
    if (nqueue < 0 || (nqueue > 0 && !queue))
        return pl_err(PL_EINVAL, "pl_policy_place: queue is NULL with nqueue %d", (int)nqueue);
    for (int32_t i = 0; i < nqueue; i++)
        if (!queue[i])
            return pl_err(PL_EINVAL, "pl_policy_place: queued job %d is NULL", (int)i);
    if (opts->max_placed < 0)
        return pl_err(PL_EINVAL, "pl_policy_place: max_placed %d < 0", (int)opts->max_placed);
    if (!(opts->network_load >= 0 && opts->network_load <= 1))
        return pl_err(PL_EINVAL, "pl_policy_place: network_load %g is not in [0, 1]", opts->network_load);
    pl_status st = pl_utility_opts_check(&opts->utility);
    if (st)
        return st;
    if ((st = check_running(topo, running, nrunning)))
        return st;
    const pl_policy_ops *ops;
    if ((st = pl_policy_find(opts->policy ? opts->policy : "topo-aware", &ops)))
        return st;
    pl_decision *d;
    if ((st = pl_decision_create_internal(nqueue, &d)))
        return st;
    pl_policy_request req = {opts, topo, running, nrunning, queue, nqueue};
    if ((st = ops->place(&req, d))) {
        pl_decision_free(d);
        return st;
    }
    *out = d;
    return PL_OK;
}
