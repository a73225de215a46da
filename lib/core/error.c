/* Thread-local last-error message: each thread sees only its own failures,
 * so handles used in different threads never clobber each other's errors. */
#include <stdarg.h>
#include <stdio.h>
#include <placement/solver.h>
#include "internal/core.h"

#define PL_ERRMSG_MAX 1024

static _Thread_local char last_error[PL_ERRMSG_MAX];

static pl_status set_error(pl_status status, const char *fmt, va_list ap)
{
    int n = vsnprintf(last_error, sizeof last_error, fmt, ap);
    /* Say so rather than silently cut a message short. */
    if (n >= (int)sizeof last_error)
        snprintf(last_error + sizeof last_error - 5, 5, "...");
    return status;
}

pl_status pl_solver_error(pl_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(status, fmt, ap);
    va_end(ap);
    return status;
}

/* The library's own name for the same function (hidden, so no PLT call). */
pl_status pl_err(pl_status status, const char *fmt, ...) __attribute__((alias("pl_solver_error")));

const char *pl_last_error(void)
{
    return last_error;
}
