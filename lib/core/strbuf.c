/* Appending printf output to a fixed buffer. */
#include <stdarg.h>
#include <stdio.h>
#include "internal/core.h"

void pl_appendf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    if (cap == 0 || *len >= cap - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (w > 0)
        *len = *len + (size_t)w < cap - 1 ? *len + (size_t)w : cap - 1;
}
