#include <placement/status.h>

static const struct {
    const char *name;
    const char *text;
} status_table[] = {
    [PL_OK] = {"PL_OK", "success"},
    [PL_EINVAL] = {"PL_EINVAL", "invalid argument"},
    [PL_ENOMEM] = {"PL_ENOMEM", "out of memory"},
    [PL_EPARSE] = {"PL_EPARSE", "malformed input"},
    [PL_EINFEASIBLE] = {"PL_EINFEASIBLE", "problem is infeasible"},
    [PL_EUNBOUNDED] = {"PL_EUNBOUNDED", "problem is unbounded"},
    [PL_EOVERFLOW] = {"PL_EOVERFLOW", "value does not fit in 64 bits"},
    [PL_ENOTFOUND] = {"PL_ENOTFOUND", "not found"},
    [PL_EIO] = {"PL_EIO", "input/output error"},
    [PL_EVERIFY] = {"PL_EVERIFY", "solution failed verification"},
    [PL_ESTATE] = {"PL_ESTATE", "call not valid in the current state"},
    [PL_ELIMIT] = {"PL_ELIMIT", "limit reached"},
    [PL_EINTERNAL] = {"PL_EINTERNAL", "internal or external library failure"},
};

#define N_STATUS ((int)(sizeof status_table / sizeof status_table[0]))

const char *pl_status_name(pl_status status)
{
    if ((int)status < 0 || (int)status >= N_STATUS)
        return "PL_E?";
    return status_table[status].name;
}

const char *pl_status_string(pl_status status)
{
    if ((int)status < 0 || (int)status >= N_STATUS)
        return "unknown status";
    return status_table[status].text;
}
