/* `placement topo`, run as a user would: outputs and exit codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../common/testutil.h"

static char out[1 << 20];

/* Run "placement ARGS"; capture stdout (and stderr if merge) into out;
 * return the exit status. */
static int run(const char *args, int merge)
{
    return pl_test_run_cli(NULL, args, merge, out, sizeof out);
}

static void test_builtin_text(void **s)
{
    (void)s;
    assert_int_equal(run("topo --builtin minsky", 0), 0);
    assert_non_null(strstr(out, "machine machine\n"));
    assert_non_null(strstr(out, "  gpu0    0    1   22   22\n"));
    assert_non_null(strstr(out, "  gpu2   22   22    0    1\n"));
    assert_int_equal(run("topo -b 2s4g-pcie", 0), 0);
    assert_non_null(strstr(out, "  gpu0    0    2   24   24\n"));
}

static void test_builtin_dot(void **s)
{
    (void)s;
    assert_int_equal(run("topo --builtin minsky --dot", 0), 0);
    assert_int_equal(strncmp(out, "graph topology {", 16), 0);
    assert_non_null(strstr(out, "subgraph cluster_"));
    assert_non_null(strstr(out, "nvlink 40 GB/s"));
}

/* 3 machines, 2 per rack: racks 0 and 1 only, node2 alone in rack1, and a
 * matrix for every machine. */
static void test_cluster(void **s)
{
    (void)s;
    assert_int_equal(run("topo --builtin minsky --machines 3 --per-rack 2", 0), 0);
    assert_non_null(strstr(out, "cluster cluster\n  rack rack0\n    machine node0\n"));
    assert_non_null(strstr(out, "gpu distances in cluster/rack1/node2:\n"));
    assert_null(strstr(out, "rack2"));
    assert_int_equal(run("topo --builtin dgx1 --machines 2 --network-bw 25000000000 --dot", 0), 0);
    assert_non_null(strstr(out, "network 25 GB/s"));
}

static void test_errors(void **s)
{
    (void)s;
    assert_int_equal(run("topo --builtin nosuch", 1), 1);
    assert_non_null(strstr(out, "placement topo: "));
    assert_non_null(strstr(out, "no builtin machine 'nosuch'"));
    assert_int_equal(run("topo --frobnicate", 1), 2);
    assert_non_null(strstr(out, "usage: placement topo"));
    assert_int_equal(run("topo --builtin minsky --machines 0", 1), 2);
    assert_non_null(strstr(out, "--machines wants an integer"));
    assert_int_equal(run("topo --builtin minsky --per-rack 4", 1), 2);
    assert_non_null(strstr(out, "need --machines"));
    assert_int_equal(run("topo --builtin minsky --json x.json", 1), 2);
    assert_non_null(strstr(out, "at most one of"));
    assert_int_equal(run("topo --builtin minsky extra", 1), 2);
    assert_non_null(strstr(out, "unexpected argument 'extra'"));
    /* A loader failure is a library error: exit 1 with its message. */
    assert_int_equal(run("topo --xml /nonexistent/file.xml", 1), 1);
    assert_non_null(strstr(out, "placement topo: "));
}

static void test_help(void **s)
{
    (void)s;
    assert_int_equal(run("topo --help", 0), 0);
    assert_non_null(strstr(out, "usage: placement topo"));
    assert_non_null(strstr(out, "minsky dgx1 dgx2 2s4g-pcie"));
}

/* The crash: `placement topo --xml` on 100,000 nested objects
 * overflowed the stack in hwloc's own parser. Under either importer it is now
 * exit 1 with the file, the line and the limit. */
static void test_deep_xml(void **s)
{
    (void)s;
    char path[PL_TEST_TMP_PATH];
    FILE *f = pl_test_tmpfile(path);
    fputs("<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n", f);
    for (int i = 0; i < 100000; i++)
        fputs("<object type=\"Group\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\""
              " complete_nodeset=\"0x1\">", f);
    for (int i = 0; i < 100000; i++)
        fputs("</object>", f);
    fputs("</topology>\n", f);
    fclose(f);
    char args[256], want[256];
    snprintf(args, sizeof args, "topo --xml %s", path);
    snprintf(want, sizeof want, "placement topo: %s:3: elements nested more than 64 deep", path);
    static const char *const importers[] = {"0", "1"};
    for (int i = 0; i < 2; i++) {
        setenv("HWLOC_LIBXML_IMPORT", importers[i], 1);
        assert_int_equal(run(args, 1), 1);
        if (!strstr(out, want))
            fail_msg("HWLOC_LIBXML_IMPORT=%s: %s", importers[i], out);
    }
    unsetenv("HWLOC_LIBXML_IMPORT");
    remove(path);
}

/* Issue 25: the text output cleared topology-sized arrays for every
 * machine's matrix (17.6 s at 16,000 machines, over 10 minutes at 10^6).
 * The alarm fails the test past 10 s; it takes about 0.4 s now. The last
 * machine's matrix is the first one's. */
static void test_text_scales(void **s)
{
    (void)s;
    static char big[1 << 16];
    alarm(10);
    char path[PL_TEST_TMP_PATH];
    fclose(pl_test_tmpfile(path));
    char args[128];
    snprintf(args, sizeof args, "topo --builtin minsky --machines 16000 > %s", path);
    assert_int_equal(pl_test_run_cli(NULL, args, 0, big, sizeof big), 0);
    snprintf(args, sizeof args, "tail -6 %s", path);
    FILE *p = popen(args, "r");
    assert_non_null(p);
    size_t n = fread(big, 1, sizeof big - 1, p);
    big[n] = '\0';
    pclose(p);
    alarm(0);
    remove(path);
    assert_non_null(strstr(big, "gpu distances in cluster/rack499/node15999:\n"));
    assert_non_null(strstr(big, "  gpu0    0    1   22   22\n"));
    assert_non_null(strstr(big, "  gpu2   22   22    0    1\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_text), cmocka_unit_test(test_builtin_dot),
        cmocka_unit_test(test_cluster),      cmocka_unit_test(test_errors),
        cmocka_unit_test(test_help),         cmocka_unit_test(test_deep_xml),
        cmocka_unit_test(test_text_scales),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
