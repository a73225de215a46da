/* Argument parsing shared by the sub-commands. */
#include <errno.h>
#include <stdio.h>
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

long long parse_count(const char *cmd, const char *name, const char *text, long long max)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno || v < 1 || v > max) {
        fprintf(stderr, "placement %s: --%s wants an integer in 1..%lld, got '%s'\n", cmd, name, max, text);
        return -1;
    }
    return v;
}

pl_status load_machines(const char *xml, const char *json, const char *builtin, long long machines,
                        long long per_rack, pl_topology **out)
{
    if (xml)
        return pl_topology_load_xml(xml, out);
    if (json)
        return pl_topology_load_json(json, out);
    pl_topology *m = NULL;
    pl_status st = builtin ? pl_topology_builtin(builtin, &m) : pl_topology_load_hwloc(NULL, &m);
    if (st || !machines) {
        *out = m;
        return st;
    }
    st = pl_topology_cluster(m, (int32_t)machines, per_rack ? (int32_t)per_rack : 32, 0, out);
    pl_topology_free(m);
    return st;
}
