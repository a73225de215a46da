/* Solvers by name. Built-in solvers live in a constant table; user solvers
 * in a small list behind a mutex, the only shared state in the library. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../flownet_impl.h"

static const pl_solver_ops *const builtin[] = {
    &pl_solver_ssp,
    &pl_solver_network_simplex,
    &pl_solver_cost_scaling,
    &pl_solver_cycle_canceling,
    &pl_solver_glpk,
};
#define N_BUILTIN ((int)(sizeof builtin / sizeof builtin[0]))

#define MAX_USER 64
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const pl_solver_ops *user[MAX_USER];
static int n_user;

static const pl_solver_ops *find_locked(const char *name, int *user_index)
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

pl_status pl_solver_register(const pl_solver_ops *ops)
{
    if (!ops || !ops->name || !ops->solve || !ops->name[0])
        return pl_err(PL_EINVAL, "pl_solver_register: ops needs a non-empty name and a solve function");
    pl_status st = PL_OK;
    int idx;
    pthread_mutex_lock(&lock);
    if (find_locked(ops->name, &idx))
        st = pl_err(PL_EINVAL, "pl_solver_register: a solver named \"%s\" already exists", ops->name);
    else if (n_user == MAX_USER)
        st = pl_err(PL_ENOMEM, "pl_solver_register: at most %d user solvers", MAX_USER);
    else
        user[n_user++] = ops;
    pthread_mutex_unlock(&lock);
    return st;
}

pl_status pl_solver_unregister(const char *name)
{
    if (!name)
        return pl_err(PL_EINVAL, "pl_solver_unregister: name is NULL");
    pl_status st = PL_OK;
    int idx;
    pthread_mutex_lock(&lock);
    const pl_solver_ops *ops = find_locked(name, &idx);
    if (!ops)
        st = pl_err(PL_ENOTFOUND, "pl_solver_unregister: no solver named \"%s\"", name);
    else if (idx < 0)
        st = pl_err(PL_EINVAL, "pl_solver_unregister: \"%s\" is built in and cannot be removed", name);
    else {
        memmove(&user[idx], &user[idx + 1], (size_t)(n_user - idx - 1) * sizeof user[0]);
        n_user--;
    }
    pthread_mutex_unlock(&lock);
    return st;
}

pl_status pl_solver_find(const char *name, const pl_solver_ops **ops)
{
    if (!name || !ops)
        return pl_err(PL_EINVAL, "pl_solver_find: NULL argument");
    int idx;
    pthread_mutex_lock(&lock);
    *ops = find_locked(name, &idx);
    pthread_mutex_unlock(&lock);
    if (*ops)
        return PL_OK;
    char known[512] = "";
    size_t len = 0;
    for (int i = 0; i < pl_solver_count() && len < sizeof known; i++) {
        const pl_solver_ops *s = pl_solver_at(i);
        if (s)
            len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", s->name);
    }
    return pl_err(PL_ENOTFOUND, "no solver named \"%s\" (known: %s)", name, known);
}

int pl_solver_count(void)
{
    pthread_mutex_lock(&lock);
    int n = N_BUILTIN + n_user;
    pthread_mutex_unlock(&lock);
    return n;
}

const pl_solver_ops *pl_solver_at(int i)
{
    if (i < 0)
        return NULL;
    if (i < N_BUILTIN)
        return builtin[i];
    pthread_mutex_lock(&lock);
    const pl_solver_ops *ops = i - N_BUILTIN < n_user ? user[i - N_BUILTIN] : NULL;
    pthread_mutex_unlock(&lock);
    return ops;
}
