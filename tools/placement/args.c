/* Argument parsing shared by the sub-commands. */
#include <errno.h>
#include <stdlib.h>
#include "commands.h"

int parse_seed(const char *text, unsigned long long *out)
{
    /* strtoull takes "-1" as 2^64 - 1 and saturates 99999999999999999999
     * at 2^64 - 1 with ERANGE; both were accepted silently. */
    const char *p = text;
    while (*p >= '0' && *p <= '9')
        p++;
    if (p == text || *p != '\0')
        return 0;
    errno = 0;
    unsigned long long v = strtoull(text, NULL, 10);
    if (errno == ERANGE)
        return 0;
    *out = v;
    return 1;
}
