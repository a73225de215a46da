/* DIMACS reading and writing: every kind of malformed input is rejected
 * with PL_EPARSE and a message naming the line; valid input round-trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"

static pl_flownet *read_ok(const char *text)
{
    pl_flownet *net = NULL;
    assert_pl_ok(pl_flownet_read_dimacs_string(text, strlen(text), &net));
    return net;
}

/* text must fail with PL_EPARSE and a message containing where and what. */
static void expect_parse_error(const char *text, const char *where, const char *what)
{
    pl_flownet *net = NULL;
    pl_status st = pl_flownet_read_dimacs_string(text, strlen(text), &net);
    if (st != PL_EPARSE)
        fail_msg("expected PL_EPARSE for input:\n%s\ngot %s", text, pl_status_name(st));
    assert_null(net);
    const char *msg = pl_last_error();
    if (!strstr(msg, where) || !strstr(msg, what))
        fail_msg("message '%s' lacks '%s' or '%s'", msg, where, what);
}

static void test_reads_standard_file(void **s)
{
    (void)s;
    pl_flownet *net = read_ok("c a comment\n"
                              "p min 4 5\n"
                              "n 1 4\n"
                              "n 4 -4\n"
                              "a 1 2 0 4 2\n"
                              "a 1 3 1 2 2\r\n"
                              "a 2 3 0 2 1\n"
                              "\n"
                              "a 2 4 0 3 3\n"
                              "a 3 4 0 5 1\n");
    assert_int_equal(pl_flownet_node_count(net), 4);
    assert_int_equal(pl_flownet_arc_count(net), 5);
    assert_int_equal(pl_flownet_id_base(net), 1);
    pl_arc_info a;
    assert_pl_ok(pl_flownet_get_arc(net, 1, &a));
    assert_int_equal(a.tail, 0);
    assert_int_equal(a.head, 2);
    assert_int_equal(a.lower, 1);
    assert_int_equal(a.upper, 2);
    int64_t b, cost;
    assert_pl_ok(pl_flownet_get_supply(net, 3, &b));
    assert_int_equal(b, -4);
    /* Optimal by hand: 1->3 carries 2 (lower 1, cost 2 each, then 3->4 cost 1):
     * 2 units 1->3->4 = 6; 2 units 1->2: 1->2->3->4 costs 4 each, 1->2->4 costs 5;
     * 3->4 has room 5, 2->3 cap 2: both via 2->3->4 = 8. Total 14. */
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 14);
    pl_flownet_free(net);
}

static void test_zero_based_ids(void **s)
{
    (void)s;
    pl_flownet *net = read_ok("p min 3 2\nn 0 2\nn 2 -2\na 0 1 0 5 1\na 1 2 0 5 1\n");
    assert_int_equal(pl_flownet_id_base(net), 0);
    pl_arc_info a;
    assert_pl_ok(pl_flownet_get_arc(net, 1, &a));
    assert_int_equal(a.tail, 1);
    assert_int_equal(a.head, 2);
    int64_t cost;
    assert_pl_ok(pl_test_solve(net, "ssp", &cost));
    assert_int_equal(cost, 4);
    /* Written back with the same base. */
    char *text;
    assert_pl_ok(pl_flownet_write_dimacs_string(net, &text));
    assert_non_null(strstr(text, "a 0 1 0 5 1"));
    assert_non_null(strstr(text, "n 2 -2"));
    pl_free(text);
    pl_flownet_free(net);
}

static void test_firmament_names(void **s)
{
    (void)s;
    pl_flownet *net = read_ok("p min 3 2\n"
                              "c nd 0 SINK\n"
                              "n 1 -1\n"
                              "c nd T\n"
                              "n 2 1\n"
                              "c nd 7 machine with spaces \n"
                              "n 3 0\n"
                              "a 2 3 0 1 0\na 3 1 0 1 0\n");
    assert_string_equal(pl_flownet_node_name(net, 0), "SINK");
    assert_string_equal(pl_flownet_node_name(net, 1), "T");
    assert_string_equal(pl_flownet_node_name(net, 2), "machine with spaces");
    pl_flownet_free(net);
}

static void test_round_trip(void **s)
{
    (void)s;
    char path[PL_PATH_MAX];
    pl_flownet *net, *again;
    assert_pl_ok(pl_flownet_read_dimacs(pl_test_data(path, "flow/graph_4m_2crs_6j.in"), &net));
    char *text;
    assert_pl_ok(pl_flownet_write_dimacs_string(net, &text));
    assert_pl_ok(pl_flownet_read_dimacs_string(text, strlen(text), &again));
    assert_int_equal(pl_flownet_node_count(again), pl_flownet_node_count(net));
    assert_int_equal(pl_flownet_arc_count(again), pl_flownet_arc_count(net));
    for (int32_t i = 0; i < pl_flownet_arc_count(net); i++) {
        pl_arc_info x, y;
        pl_flownet_get_arc(net, i, &x);
        pl_flownet_get_arc(again, i, &y);
        assert_memory_equal(&x, &y, sizeof x);
    }
    for (int32_t v = 0; v < pl_flownet_node_count(net); v++) {
        int64_t b1, b2;
        pl_flownet_get_supply(net, v, &b1);
        pl_flownet_get_supply(again, v, &b2);
        assert_int_equal(b1, b2);
        const char *n1 = pl_flownet_node_name(net, v), *n2 = pl_flownet_node_name(again, v);
        assert_true((n1 == NULL) == (n2 == NULL));
        if (n1)
            assert_string_equal(n1, n2);
    }
    int64_t c1, c2;
    assert_pl_ok(pl_test_solve(net, "ssp", &c1));
    assert_pl_ok(pl_test_solve(again, "ssp", &c2));
    assert_int_equal(c1, 330);
    assert_int_equal(c2, 330);
    pl_free(text);
    pl_flownet_free(net);
    pl_flownet_free(again);
}

static void test_solution_writer(void **s)
{
    (void)s;
    pl_flownet *net = read_ok("p min 2 2\nn 1 3\nn 2 -3\na 1 2 0 2 1\na 1 2 0 5 4\n");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_pl_status(pl_flownet_write_solution(net, f), PL_ESTATE);
    assert_pl_ok(pl_test_solve(net, "ssp", NULL));
    assert_pl_ok(pl_flownet_write_solution(net, f));
    fclose(f);
    assert_string_equal(buf, "s 6\nf 1 2 2\nf 1 2 1\n");
    free(buf);
    pl_flownet_free(net);
}

static void test_file_errors(void **s)
{
    (void)s;
    pl_flownet *net = NULL;
    assert_pl_status(pl_flownet_read_dimacs("/nonexistent/x.min", &net), PL_EIO);
    assert_non_null(strstr(pl_last_error(), "/nonexistent/x.min"));
    assert_pl_status(pl_flownet_read_dimacs(NULL, &net), PL_EINVAL);
    pl_flownet *ok = read_ok("p min 1 0\n");
    assert_pl_status(pl_flownet_save_dimacs(ok, "/nonexistent/dir/out.min"), PL_EIO);
    pl_flownet_free(ok);
}

static void test_problem_line_errors(void **s)
{
    (void)s;
    expect_parse_error("a 1 2 0 1 1\n", ":1:", "before the problem line");
    expect_parse_error("c only comments\n", ":1:", "no problem line");
    expect_parse_error("p max 2 1\n", ":1:", "problem type 'max'");
    expect_parse_error("p min 2\n", ":1:", "missing fields");
    expect_parse_error("p min 2 1 9\n", ":1:", "unexpected '9'");
    expect_parse_error("p min 2 0\np min 2 0\n", ":2:", "second problem line");
    expect_parse_error("p min -1 0\n", ":1:", "must lie in");
    expect_parse_error("p min 2 x\n", ":1:", "expected an integer ARCS, got 'x'");
}

static void test_count_errors(void **s)
{
    (void)s;
    expect_parse_error("p min 2 2\na 1 2 0 1 1\n", ":1:", "declares 2 arcs but the input has 1");
    expect_parse_error("p min 2 1\na 1 2 0 1 1\na 2 1 0 1 1\n", ":3:", "more 'a' lines");
}

static void test_range_errors(void **s)
{
    (void)s;
    expect_parse_error("p min 2 1\na 1 3 0 1 1\n", ":2:", "head 3 out of range");
    expect_parse_error("p min 2 1\na -1 2 0 1 1\n", ":2:", "tail -1 out of range");
    expect_parse_error("p min 2 0\nn 5 1\n", ":2:", "node id 5 out of range");
    expect_parse_error("p min 3 2\na 0 1 0 1 1\na 1 3 0 1 1\n", ":3:", "ids 0 (line 2) and 3 (line 3)");
    expect_parse_error("p min 2 0\nn 1 1\nn 1 2\n", ":3:", "already has an 'n' line (line 2)");
    expect_parse_error("p min 2 1\na 1 2 5 4 1\n", ":2:", "lower bound 5 exceeds capacity 4");
}

static void test_number_errors(void **s)
{
    (void)s;
    expect_parse_error("p min 2 1\na 1 2 0 ten 1\n", ":2:", "expected an integer CAP, got 'ten'");
    expect_parse_error("p min 2 1\na 1 2 0 1 1.5\n", ":2:", "got '1.5'");
    expect_parse_error("p min 2 1\na 1 2 0 99999999999999999999 1\n", ":2:", "does not fit in 64 bits");
    expect_parse_error("p min 2 1\na 1 2 0 1 -99999999999999999999\n", ":2:", "does not fit in 64 bits");
    expect_parse_error("p min 2 0\nn 1 12x\n", ":2:", "got '12x'");
}

static void test_line_errors(void **s)
{
    (void)s;
    expect_parse_error("p min 2 1\nx 1 2\n", ":2:", "unknown line type");
    expect_parse_error("p min 2 1\narc 1 2 0 1 1\n", ":2:", "unknown line type");
    expect_parse_error("p min 2 1\na 1 2 0 1\n", ":2:", "missing fields");
    expect_parse_error("p min 2 1\na 1 2 0 1 1 7\n", ":2:", "unexpected '7'");
    expect_parse_error("p min 2 0\nn 1\n", ":2:", "missing fields");
    expect_parse_error("p min 2 1\na 1 2 0 1 1 1 1 1 1 1\n", ":2:", "too many fields");
    const char nul[] = "p min 2 0\nn 1\0 1\n";
    pl_flownet *net = NULL;
    assert_pl_status(pl_flownet_read_dimacs_string(nul, sizeof nul - 1, &net), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), ":2: NUL byte"));
}

/* Error messages name the file when reading from a path. */
static void test_message_names_file(void **s)
{
    (void)s;
    char path[PL_TEST_TMP_PATH];
    FILE *f = pl_test_tmpfile(path);
    fputs("p min 2 1\n\na 1 2 0 1 zz\n", f);
    fclose(f);
    pl_flownet *net = NULL;
    assert_pl_status(pl_flownet_read_dimacs(path, &net), PL_EPARSE);
    char want[64];
    snprintf(want, sizeof want, "%s:3:", path);
    assert_non_null(strstr(pl_last_error(), want));
    remove(path);
}


/* Empty input, a negative capacity and a truncated last line (doc/robustness.md). */
static void test_degenerate_inputs(void **s)
{
    (void)s;
    pl_flownet *net = NULL;
    assert_pl_status(pl_flownet_read_dimacs_string("", 0, &net), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "<string>:0: no problem line"));
    assert_null(net);
    expect_parse_error("p min 2 1\na 1 2 0 -1 1\n", ":2:", "lower bound 0 exceeds capacity -1");
    expect_parse_error("p min 2 1\na 1 2 0 1", ":2:", "missing fields: expected 'a TAIL HEAD LOW CAP COST'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_standard_file), cmocka_unit_test(test_zero_based_ids),
        cmocka_unit_test(test_firmament_names),     cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_solution_writer),     cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_problem_line_errors), cmocka_unit_test(test_count_errors),
        cmocka_unit_test(test_range_errors),        cmocka_unit_test(test_number_errors),
        cmocka_unit_test(test_line_errors),         cmocka_unit_test(test_message_names_file),
        cmocka_unit_test(test_degenerate_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
