#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "testutil.h"

const char *pl_test_data(char *buf, const char *rel)
{
    const char *root = getenv("PL_TEST_DATA");
    snprintf(buf, PL_PATH_MAX, "%s/%s", root ? root : "tests/data", rel);
    return buf;
}

int pl_test_run_cli(const char *dir, const char *args, int merge, char *out, size_t cap)
{
    const char *bin = getenv("PL_PLACEMENT_BIN");
    size_t need = strlen(args) + (dir ? strlen(dir) : 0) + (bin ? strlen(bin) : 9) + 64;
    char *cmd = malloc(need);
    assert_non_null(cmd);
    snprintf(cmd, need, "%s%s%s'%s' %s %s", dir ? "cd '" : "", dir ? dir : "", dir ? "' && " : "",
             bin ? bin : "placement", args, merge ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    free(cmd);
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

pl_status pl_test_solve(pl_flownet *net, const char *solver, int64_t *cost)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = solver;
    o.verify = 1;
    pl_status st = pl_flownet_solve(net, &o, NULL);
    if (st == PL_OK && cost)
        st = pl_flownet_solution_cost(net, cost);
    return st;
}

uint64_t pl_test_rand(pl_test_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int64_t pl_test_range(pl_test_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(pl_test_rand(r) % (uint64_t)(hi - lo + 1));
}
