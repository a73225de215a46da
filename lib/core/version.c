#include <placement/version.h>

const char *pl_version(void)
{
    return PL_VERSION;
}
