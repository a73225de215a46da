/* A table of named operation structs (solvers, policies): built-in entries in
 * a constant array, user entries in a small list behind a mutex, the only
 * shared mutable state in the library. The wrappers check the type-specific
 * parts (e.g. that a solver has a solve function) before calling in. */
#ifndef PL_CORE_REGISTRY_H
#define PL_CORE_REGISTRY_H

#include <pthread.h>
#include "internal/core.h"

#define PL_REGISTRY_MAX_USER 64

typedef struct pl_registry {
    const char *what;                 /* "solver", "policy": for messages */
    const void *const *builtin;
    int nbuiltin;
    const char *(*name_of)(const void *ops);
    pthread_mutex_t lock;
    const void *user[PL_REGISTRY_MAX_USER];
    int nuser;
} pl_registry;

#define PL_REGISTRY_INIT(what, builtin, nbuiltin, name_of) \
    {(what), (builtin), (nbuiltin), (name_of), PTHREAD_MUTEX_INITIALIZER, {0}, 0}

/* fn names the public function in messages. */
PL_INTERNAL pl_status pl_registry_add(pl_registry *r, const void *ops, const char *fn);
PL_INTERNAL pl_status pl_registry_remove(pl_registry *r, const char *name, const char *fn);
/* PL_ENOTFOUND lists the known names. */
PL_INTERNAL pl_status pl_registry_find(pl_registry *r, const char *name, const void **ops, const char *fn);
PL_INTERNAL int pl_registry_count(pl_registry *r);
PL_INTERNAL const void *pl_registry_at(pl_registry *r, int i);

#endif
