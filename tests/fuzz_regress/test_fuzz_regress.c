/* Regression inputs found by the fuzzers of fuzz/ (tests/data/fuzz/README.md
 * says what each one broke). Every file of tests/data/fuzz/<target>/ goes
 * through the same entry point as fuzz/<target>.c; the call must return a
 * known status, with a message when it fails, and leak nothing (the ASan
 * build checks that). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef pl_status (*entry_fn)(const char *text, size_t len);

static pl_status dimacs(const char *text, size_t len)
{
    pl_flownet *net = NULL;
    pl_status st = pl_flownet_read_dimacs_string(text, len, &net);
    pl_flownet_free(net);
    return st;
}

static pl_status topology_json(const char *text, size_t len)
{
    pl_topology *topo = NULL;
    pl_status st = pl_topology_load_json_string(text, len, &topo);
    pl_topology_free(topo);
    return st;
}

static pl_status jobs_json(const char *text, size_t len)
{
    pl_jobset *set = NULL;
    pl_status st = pl_jobset_load_json_string(text, len, &set);
    pl_jobset_free(set);
    return st;
}

static pl_status profiles(const char *text, size_t len)
{
    pl_profile_set *ps = NULL;
    pl_status st = pl_profile_set_load_sc17_string(text, len, &ps);
    pl_profile_set_free(ps);
    return st;
}

static pl_status hwloc_xml(const char *text, size_t len)
{
    pl_hwloc_opts opts;
    pl_hwloc_opts_init(&opts);
    opts.xml_buffer = text;
    opts.xml_length = len;
    pl_topology *topo = NULL;
    pl_status st = pl_topology_load_hwloc(&opts, &topo);
    pl_topology_free(topo);
    return st;
}

static pl_status sim_trace(const char *text, size_t len)
{
    pl_sim_trace *trace = NULL;
    pl_status st = pl_sim_trace_load_string(text, len, "fuzz", &trace);
    pl_sim_trace_free(trace);
    return st;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

/* Feed every file of tests/data/fuzz/<target>/ to fn; return how many. An
 * empty file is skipped: length 0 means "up to the NUL" to these loaders. */
static int feed_all(const char *target, entry_fn fn)
{
    char dir[PL_PATH_MAX], rel[256];
    snprintf(rel, sizeof rel, "fuzz/%s", target);
    pl_test_data(dir, rel);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char path[PL_PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *text = slurp(path, &len);
        if (len > 0) {
            pl_status st = fn(text, len);
            if (st < PL_OK || st > PL_EINTERNAL)
                fail_msg("%s: unknown status %d", path, (int)st);
            if (st != PL_OK && pl_last_error()[0] == '\0')
                fail_msg("%s: %s without a message", path, pl_status_name(st));
            n++;
        }
        free(text);
    }
    closedir(d);
    return n;
}

static void test_all_targets_return_a_status(void **state)
{
    (void)state;
    feed_all("fuzz_dimacs", dimacs);
    feed_all("fuzz_topology_json", topology_json);
    feed_all("fuzz_jobs_json", jobs_json);
    feed_all("fuzz_profiles", profiles);
    feed_all("fuzz_sim_trace", sim_trace);
    /* The hwloc findings are the crashes fixed so far: there must be some,
     * or the directory moved and this test checks nothing. */
    assert_true(feed_all("fuzz_hwloc_xml", hwloc_xml) >= 6);
}

/* hwloc 2.9 crashed on an object with a cpuset but no complete_cpuset; the
 * loader now refuses it itself, naming the line of the object. */
static void test_hwloc_missing_sets_is_a_parse_error(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    size_t len = 0;
    char *text = slurp(pl_test_data(path, "fuzz/fuzz_hwloc_xml/missing-sets-min.xml"), &len);
    assert_pl_status(hwloc_xml(text, len), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "<buffer>:1: an object needs all of cpuset, "
                                            "complete_cpuset, nodeset and complete_nodeset"));
    free(text);

    /* The same file by path goes through the same check. */
    pl_topology *topo = NULL;
    assert_pl_status(pl_topology_load_xml(path, &topo), PL_EPARSE);
    assert_null(topo);
    assert_non_null(strstr(pl_last_error(), path));
    assert_non_null(strstr(pl_last_error(), "complete_nodeset"));
}

/* The check must not refuse real exports: an object with all four sets and
 * I/O objects with none load as before. */
static void test_hwloc_complete_sets_still_load(void **state)
{
    (void)state;
    static const char xml[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
        "<topology version=\"2.0\">\n"
        " <object type=\"Machine\" os_index=\"0\" cpuset=\"0x00000003\" complete_cpuset=\"0x00000003\""
        " allowed_cpuset=\"0x00000003\" nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\""
        " allowed_nodeset=\"0x00000001\" gp_index=\"1\">\n"
        "  <object type=\"Package\" os_index=\"0\" cpuset=\"0x00000003\" complete_cpuset=\"0x00000003\""
        " nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"2\">\n"
        "   <object type=\"Core\" os_index=\"0\" cpuset=\"0x00000001\" complete_cpuset=\"0x00000001\""
        " nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"3\">\n"
        "    <object type=\"PU\" os_index=\"0\" cpuset=\"0x00000001\" complete_cpuset=\"0x00000001\""
        " nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"4\"/>\n"
        "   </object>\n"
        "   <object type=\"Core\" os_index=\"1\" cpuset=\"0x00000002\" complete_cpuset=\"0x00000002\""
        " nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"5\">\n"
        "    <object type=\"PU\" os_index=\"1\" cpuset=\"0x00000002\" complete_cpuset=\"0x00000002\""
        " nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"6\"/>\n"
        "   </object>\n"
        "  </object>\n"
        "  <object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x00000003\" complete_cpuset=\"0x00000003\""
        " nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"7\" local_memory=\"1073741824\"/>\n"
        " </object>\n"
        "</topology>\n";
    pl_hwloc_opts opts;
    pl_hwloc_opts_init(&opts);
    opts.xml_buffer = xml;
    pl_topology *topo = NULL;
    assert_pl_ok(pl_topology_load_hwloc(&opts, &topo));
    int32_t sockets = 0;
    for (int32_t v = 0; v < pl_topology_vertex_count(topo); v++) {
        pl_vertex_info info;
        assert_pl_ok(pl_topology_vertex(topo, v, &info));
        sockets += info.kind == PL_VK_PACKAGE;
    }
    assert_int_equal(sockets, 1);
    pl_topology_free(topo);

    /* Dropping complete_nodeset from the Package makes it the bad case. */
    char *bad = strdup(xml);
    assert_non_null(bad);
    char *p = strstr(bad, "type=\"Package\"");
    assert_non_null(p);
    p = strstr(p, " complete_nodeset=");
    memcpy(p, " xcomplete_nodese=", strlen(" complete_nodeset="));
    opts.xml_buffer = bad;
    assert_pl_status(pl_topology_load_hwloc(&opts, &topo), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "<buffer>:5:"));
    free(bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_targets_return_a_status),
        cmocka_unit_test(test_hwloc_missing_sets_is_a_parse_error),
        cmocka_unit_test(test_hwloc_complete_sets_still_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
