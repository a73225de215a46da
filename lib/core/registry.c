/* Named registries of solvers and policies (registry.h). */
#include <stdio.h>
#include <string.h>
#include "internal/registry.h"

/* Entry named name, or NULL; *user_index its place among user entries, -1 if built in. */
static const void *find_locked(const pl_registry *r, const char *name, int *user_index)
{
    *user_index = -1;
    for (int i = 0; i < r->nbuiltin; i++)
        if (strcmp(r->name_of(r->builtin[i]), name) == 0)
            return r->builtin[i];
    for (int i = 0; i < r->nuser; i++)
        if (strcmp(r->name_of(r->user[i]), name) == 0) {
            *user_index = i;
            return r->user[i];
        }
    return NULL;
}

pl_status pl_registry_add(pl_registry *r, const void *ops, const char *fn)
{
    const char *name = r->name_of(ops);
    pl_status st = PL_OK;
    int idx;
    pthread_mutex_lock(&r->lock);
    if (find_locked(r, name, &idx))
        st = pl_err(PL_EINVAL, "%s: a %s named \"%s\" already exists", fn, r->what, name);
    else if (r->nuser == PL_REGISTRY_MAX_USER)
        st = pl_err(PL_ENOMEM, "%s: at most %d user %ss", fn, PL_REGISTRY_MAX_USER, r->what);
    else
        r->user[r->nuser++] = ops;
    pthread_mutex_unlock(&r->lock);
    return st;
}

pl_status pl_registry_remove(pl_registry *r, const char *name, const char *fn)
{
    if (!name)
        return pl_err(PL_EINVAL, "%s: name is NULL", fn);
    pl_status st = PL_OK;
    int idx;
    pthread_mutex_lock(&r->lock);
    const void *ops = find_locked(r, name, &idx);
    if (!ops)
        st = pl_err(PL_ENOTFOUND, "%s: no %s named \"%s\"", fn, r->what, name);
    else if (idx < 0)
        st = pl_err(PL_EINVAL, "%s: \"%s\" is built in and cannot be removed", fn, name);
    else {
        memmove(&r->user[idx], &r->user[idx + 1], (size_t)(r->nuser - idx - 1) * sizeof r->user[0]);
        r->nuser--;
    }
    pthread_mutex_unlock(&r->lock);
    return st;
}

pl_status pl_registry_find(pl_registry *r, const char *name, const void **ops, const char *fn)
{
    if (!name || !ops)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    int idx;
    pthread_mutex_lock(&r->lock);
    *ops = find_locked(r, name, &idx);
    pthread_mutex_unlock(&r->lock);
    if (*ops)
        return PL_OK;
    char known[1024] = "";
    size_t len = 0;
    for (int i = 0; i < pl_registry_count(r) && len < sizeof known; i++) {
        const void *o = pl_registry_at(r, i);
        if (o)
            len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", r->name_of(o));
    }
    return pl_err(PL_ENOTFOUND, "no %s named \"%s\" (known: %s)", r->what, name, known);
}

int pl_registry_count(pl_registry *r)
{
    pthread_mutex_lock(&r->lock);
    int n = r->nbuiltin + r->nuser;
    pthread_mutex_unlock(&r->lock);
    return n;
}

const void *pl_registry_at(pl_registry *r, int i)
{
    if (i < 0)
        return NULL;
    if (i < r->nbuiltin)
        return r->builtin[i];
    pthread_mutex_lock(&r->lock);
    const void *ops = i - r->nbuiltin < r->nuser ? r->user[i - r->nbuiltin] : NULL;
    pthread_mutex_unlock(&r->lock);
    return ops;
}
