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
    pl_test_fixture fx;
    const char *solver;
    char test_name[320];
} fixture;

static void solve_fixture(void **state)
{
    const fixture *c = *state;
    const pl_test_fixture *fx = &c->fx;
    pl_flownet *net = pl_test_load_fixture(fx);
    assert_int_equal(pl_flownet_node_count(net), fx->nodes);
    assert_int_equal(pl_flownet_arc_count(net), fx->arcs);
    int64_t cost = 0;
    assert_pl_ok(pl_test_solve(net, c->solver, &cost));
    if (cost != fx->cost)
        fail_msg("%s on %s: cost %" PRId64 ", expected %" PRId64, c->solver, fx->file, cost, fx->cost);
    pl_flownet_free(net);
}

int main(void)
{
    static const char *solvers[] = {"ssp", "network-simplex", "cost-scaling", "cycle-canceling", "glpk", "relaxation"};
    const int n_solvers = (int)(sizeof solvers / sizeof solvers[0]);
    pl_test_fixture *files;
    int n_files = pl_test_read_fixtures(&files);
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
            c->fx = files[i];
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
