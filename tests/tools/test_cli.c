/* The placement CLI, run as a user would: outputs and exit codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "../common/testutil.h"

/* Run "placement ARGS" through the shell; capture stdout (and stderr if
 * merge) into out; return the exit status. */
static int run(const char *args, int merge, char *out, size_t cap)
{
    char data[PL_PATH_MAX];
    return pl_test_run_cli(pl_test_data(data, "flow"), args, merge, out, cap);
}

static char out[1 << 16];

/* Run "placement ARGS < file holding text", stderr merged into out. */
static int run_input(const char *args, const char *text)
{
    char path[PL_TEST_TMP_PATH];
    FILE *f = pl_test_tmpfile(path);
    fputs(text, f);
    fclose(f);
    char full[512];
    snprintf(full, sizeof full, "%s < %s", args, path);
    int rc = run(full, 1, out, sizeof out);
    remove(path);
    return rc;
}

static void test_solve_default(void **s)
{
    (void)s;
    assert_int_equal(run("solve --verify graph_4m_2crs_6j.in", 0, out, sizeof out), 0);
    assert_string_equal(out, "s 330\n");
}

static void test_solve_each_solver(void **s)
{
    (void)s;
    const char *solvers[] = {"ssp", "network-simplex", "cost-scaling", "cycle-canceling", "glpk"};
    for (int i = 0; i < 5; i++) {
        char args[256];
        snprintf(args, sizeof args, "solve -q --solver %s --verify --lp-check small_graph_neg_costs.in",
                 solvers[i]);
        assert_int_equal(run(args, 0, out, sizeof out), 0);
        assert_string_equal(out, "s 12\n");
    }
}

/* Issue 25: with costs 1, 2 and 1e10 every solver is confirmed by GLPK (its
 * exact simplex); a value GLPK cannot hold is "cannot check", not a
 * disagreement. */
static void test_lp_check_messages(void **s)
{
    (void)s;
    assert_int_equal(run("solve --solver all --lp-check ../bad-input/glpk-wide-costs.in", 0, out,
                         sizeof out), 0);
    assert_null(strstr(out, "DISAGREES"));
    const char *solvers[] = {"ssp ", "network-simplex ", "cost-scaling ", "glpk ", "relaxation "};
    for (int i = 0; i < 5; i++) {
        const char *row = strstr(out, solvers[i]);
        assert_non_null(row);
        char line[256];
        sscanf(row, "%255[^\n]", line);
        if (!strstr(line, " 1 ") || !strstr(line, "GLPK agrees"))
            fail_msg("%s", line);
    }
    assert_int_equal(run("solve --solver network-simplex --lp-check ../bad-input/cost-over-2e53.in",
                         1, out, sizeof out), 2);
    assert_null(strstr(out, "DISAGREES"));
    assert_non_null(strstr(out, "exceeds 2^53"));
    run("solve --solver all --lp-check ../bad-input/cost-over-2e53.in", 0, out, sizeof out);
    assert_null(strstr(out, "DISAGREES"));
    assert_non_null(strstr(out, "GLPK cannot check: PL_EOVERFLOW"));
}

/* Issue 25: solvers named their own 0-based internal nodes, and two solvers
 * named different nodes for the same defect. Every solver now gives the
 * same reason, with the node's DIMACS id and name. */
static void test_infeasible_names_dimacs_node(void **s)
{
    (void)s;
    run("solve --solver all ../bad-input/infeasible-named.in", 0, out, sizeof out);
    const char *solvers[] = {"ssp ", "network-simplex ", "cost-scaling ", "cycle-canceling ",
                             "glpk ", "relaxation "};
    for (int i = 0; i < 6; i++) {
        const char *row = strstr(out, solvers[i]);
        assert_non_null(row);
        char line[512];
        sscanf(row, "%511[^\n]", line);
        if (!strstr(line, "no flow satisfies the supplies and arc bounds: 2 of the 5 units of "
                          "supply cannot reach any demand (2 of them at node 1 \"src\")"))
            fail_msg("%s", line);
    }
}

static void test_solve_all_table(void **s)
{
    (void)s;
    assert_int_equal(run("solve --solver all --verify --lp-check graph_4m_2crs_10j.in", 0, out,
                         sizeof out), 0);
    assert_non_null(strstr(out, "solver"));
    /* One row per built-in solver, each with the optimal cost 547. */
    const char *solvers[] = {"ssp ", "network-simplex ", "cost-scaling ", "cycle-canceling ", "glpk "};
    for (int i = 0; i < 5; i++) {
        const char *row = strstr(out, solvers[i]);
        assert_non_null(row);
        char line[256];
        sscanf(row, "%255[^\n]", line);
        assert_non_null(strstr(line, " 547 "));
        assert_non_null(strstr(line, "GLPK agrees"));
    }
}

static void test_flows_and_stdin(void **s)
{
    (void)s;
    assert_int_equal(run("solve --flows - < small_graph.in", 0, out, sizeof out), 0);
    assert_true(strncmp(out, "s 38\nf ", 7) == 0);
}

static void test_infeasible_exit(void **s)
{
    (void)s;
    assert_int_equal(run_input("solve -", "p min 2 1\nn 1 5\nn 2 -5\na 1 2 0 3 1\n"), 1);
    assert_non_null(strstr(out, "infeasible"));
}

static void test_unbounded_exit(void **s)
{
    (void)s;
    assert_int_equal(run_input("solve -", "p min 2 2\na 1 2 0 9223372036854775807 -1\n"
                                          "a 2 1 0 9223372036854775807 0\n"), 1);
    assert_non_null(strstr(out, "unbounded"));
}

static void test_parse_error_exit(void **s)
{
    (void)s;
    assert_int_equal(run_input("solve -", "p min 2 1\na 1 2 0 x 1\n"), 2);
    assert_non_null(strstr(out, "<stdin>:2: expected an integer CAP"));
}

static void test_usage_errors(void **s)
{
    (void)s;
    assert_int_equal(run("solve", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "usage: placement solve"));
    assert_int_equal(run("frobnicate", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown command"));
    assert_int_equal(run("solve --solver nope small_graph.in", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "no solver named \"nope\""));
    assert_int_equal(run("solve missing.in", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "missing.in: cannot open"));
}

/* The solver knobs reach the solvers: the same optimum with any valid
 * value, the solver's own error for a value it rejects, and a usage error
 * for text that is not a number. */
static void test_solver_knobs(void **s)
{
    (void)s;
    assert_int_equal(run("solve --solver network-simplex --pivot-block 3 --verify graph_4m_2crs_10j.in",
                         1, out, sizeof out), 0);
    assert_non_null(strstr(out, "s 547\n"));
    assert_non_null(strstr(out, "bytes/arc"));
    assert_int_equal(run("solve -q --solver cost-scaling --scaling-factor 2 --verify graph_4m_2crs_10j.in",
                         0, out, sizeof out), 0);
    assert_string_equal(out, "s 547\n");
    assert_int_equal(run("solve --solver cost-scaling --scaling-factor 1 graph_4m_2crs_10j.in", 1, out,
                         sizeof out), 2);
    assert_non_null(strstr(out, "scaling_factor 1 must be at least 2"));
    assert_int_equal(run("solve --pivot-block ten graph_4m_2crs_10j.in", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "--pivot-block wants an integer"));
    assert_int_equal(run("solve --scaling-factor -4 graph_4m_2crs_10j.in", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "--scaling-factor wants an integer"));
}

static void test_solvers_list(void **s)
{
    (void)s;
    assert_int_equal(run("solvers", 0, out, sizeof out), 0);
    assert_non_null(strstr(out, "ssp"));
    /* the first line is the default solver's, and only it is marked */
    assert_true(strncmp(out, "network-simplex ", 16) == 0);
    const char *mark = strstr(out, "(default)");
    assert_non_null(mark);
    assert_ptr_equal(mark, strstr(out, "\n") - strlen("(default)"));
    assert_null(strstr(mark + 1, "(default)"));
    assert_non_null(strstr(out, "cycle-canceling"));
    assert_non_null(strstr(out, "network-simplex"));
    assert_non_null(strstr(out, "cost-scaling"));
    assert_non_null(strstr(out, "glpk"));
    assert_int_equal(run("--help", 0, out, sizeof out), 0);
    assert_non_null(strstr(out, "solve"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_default),    cmocka_unit_test(test_solve_each_solver),
        cmocka_unit_test(test_solve_all_table),
        cmocka_unit_test(test_lp_check_messages), cmocka_unit_test(test_infeasible_names_dimacs_node),  cmocka_unit_test(test_flows_and_stdin),
        cmocka_unit_test(test_solver_knobs),     cmocka_unit_test(test_infeasible_exit),  cmocka_unit_test(test_unbounded_exit),
        cmocka_unit_test(test_parse_error_exit), cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_solvers_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
