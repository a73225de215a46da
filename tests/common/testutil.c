#include <inttypes.h>
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

int pl_test_read_fixtures(pl_test_fixture **out)
{
    char path[PL_PATH_MAX];
    *out = NULL;
    FILE *f = fopen(pl_test_data(path, "flow/EXPECTED.txt"), "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    int cap = 0, n = 0;
    pl_test_fixture *fx = NULL;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        pl_test_fixture r = {0};
        if (sscanf(line, "%255s cost=%" SCNd64 " nodes=%" SCNd32 " arcs=%" SCNd32, r.file, &r.cost,
                   &r.nodes, &r.arcs) != 4)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            pl_test_fixture *grown = realloc(fx, (size_t)cap * sizeof *fx);
            if (!grown) {
                free(fx);
                fclose(f);
                return -1;
            }
            fx = grown;
        }
        fx[n++] = r;
    }
    fclose(f);
    *out = fx;
    return n;
}

pl_flownet *pl_test_load_fixture(const pl_test_fixture *fx)
{
    char path[PL_PATH_MAX], rel[300];
    snprintf(rel, sizeof rel, "flow/%s", fx->file);
    pl_flownet *net = NULL;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, rel), &net));
    return net;
}

char *pl_test_deep_json(const char *key, int depth)
{
    size_t n = strlen(key) + 2 * (size_t)depth + 16;
    char *s = malloc(n);
    assert_non_null(s);
    int k = snprintf(s, n, "{\"%s\": ", key);
    memset(s + k, '[', (size_t)depth);
    memset(s + k + depth, ']', (size_t)depth);
    strcpy(s + k + 2 * depth, "}");
    return s;
}

static void expect_parse_error(pl_test_json_loader load, const char *text, size_t length, const char *message)
{
    pl_status st = load(text, length);
    if (st != PL_EPARSE || !strstr(pl_last_error(), message))
        fail_msg("%s: %s \"%s\", want PL_EPARSE \"%s\"", text, pl_status_name(st), pl_last_error(), message);
}

void pl_test_degenerate_json(const char *key, pl_test_json_loader load)
{
    /* JSON has no NaN or infinity, and numbers beyond double or int64 range
     * overflow in the parser: each is refused with its position. */
    static const struct { const char *value; const char *message; } cases[] = {
        {"NaN", "invalid token near 'NaN'"},
        {"-Infinity", "invalid token near '-'"},
        {"1e400", "real number overflow near '1e400'"},
        {"99999999999999999999", "too big integer near '99999999999999999999'"},
    };
    char text[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "{\"%s\": %s}", key, cases[i].value);
        expect_parse_error(load, text, 0, cases[i].message);
    }
    expect_parse_error(load, " \n", 0, "<string>:2:0: '[' or '{' expected near end of file");
    expect_parse_error(load, "", 0, "<string>:1:0: '[' or '{' expected near end of file");
    /* Deep nesting stops at jansson's depth limit (2048) instead of
     * exhausting the stack. */
    char *deep = pl_test_deep_json(key, 100000);
    expect_parse_error(load, deep, 0, "maximum parsing depth reached");
    free(deep);
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

FILE *pl_test_tmpfile(char path[PL_TEST_TMP_PATH])
{
    snprintf(path, PL_TEST_TMP_PATH, "/tmp/pl_test_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    return f;
}

char *pl_test_topology_output(pl_status (*writer)(const pl_topology *, FILE *), const pl_topology *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_pl_ok(writer(t, f));
    fclose(f);
    return buf;
}
