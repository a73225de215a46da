/* Every built-in solver on every real Firmament scheduling network of
 * tests/data/flow must reach the optimal cost listed in EXPECTED.txt (from an
 * independent solver) and pass the certificate check. One cmocka test per
 * (solver, file) pair so a failure names both. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"

typedef struct fixture {
    char file[256];
    int64_t cost;
    int32_t nodes, arcs;
    const char *solver;
    char test_name[320];
} fixture;

static void solve_fixture(void **state)
{
    const fixture *fx = *state;
    char path[PL_PATH_MAX], rel[300];
    snprintf(rel, sizeof rel, "flow/%s", fx->file);
    pl_flownet *net;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, rel), &net));
    assert_int_equal(pl_flownet_node_count(net), fx->nodes);
    assert_int_equal(pl_flownet_arc_count(net), fx->arcs);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, fx->solver, &cost));
    if (cost != fx->cost)
        fail_msg("%s on %s: cost %" PRId64 ", expected %" PRId64, fx->solver, fx->file, cost, fx->cost);
    pl_flownet_free(net);
}

/* EXPECTED.txt lines: "FILE cost=C nodes=N arcs=M". */
static int read_expected(fixture **out)
{
    char path[PL_PATH_MAX];
    FILE *f = fopen(pl_test_data(path, "flow/EXPECTED.txt"), "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    int cap = 32, n = 0;
    fixture *fx = calloc((size_t)cap, sizeof *fx);
    char line[512];
    while (fx && fgets(line, sizeof line, f)) {
        fixture r = {0};
        if (sscanf(line, "%255s cost=%" SCNd64 " nodes=%d arcs=%d", r.file, &r.cost, &r.nodes,
                   &r.arcs) != 4)
            continue;
        if (n == cap) {
            cap *= 2;
            fx = realloc(fx, (size_t)cap * sizeof *fx);
            if (!fx)
                break;
        }
        fx[n++] = r;
    }
    fclose(f);
    *out = fx;
    return fx ? n : -1;
}

int main(void)
{
    static const char *solvers[] = {"ssp", "network-simplex", "cost-scaling", "cycle-canceling", "glpk"};
    const int n_solvers = (int)(sizeof solvers / sizeof solvers[0]);
    fixture *files;
    int n_files = read_expected(&files);
    if (n_files < 17) {
        fprintf(stderr, "expected at least 17 fixtures in EXPECTED.txt, found %d\n", n_files);
        return 1;
    }
    int count = n_files * n_solvers;
    fixture *cases = calloc((size_t)count, sizeof *cases);
    struct CMUnitTest *tests = calloc((size_t)count, sizeof *tests);
    for (int s = 0; s < n_solvers; s++) {
        for (int i = 0; i < n_files; i++) {
            fixture *c = &cases[s * n_files + i];
            *c = files[i];
            c->solver = solvers[s];
            snprintf(c->test_name, sizeof c->test_name, "%s/%s", solvers[s], files[i].file);
            tests[s * n_files + i] = (struct CMUnitTest){
                .name = c->test_name, .test_func = solve_fixture, .initial_state = c};
        }
    }
    int failed = _cmocka_run_group_tests("flow_fixtures", tests, (size_t)count, NULL, NULL);
    free(tests);
    free(cases);
    free(files);
    return failed;
}
