/* The hwloc XML guard (lib/topology/xml_guard.c): shapes that crash or
 * exhaust one of hwloc's importers are refused with "WHAT:LINE:" before
 * hwloc parses them, and real exports still load. meson runs this suite
 * twice, with HWLOC_LIBXML_IMPORT=0 (hwloc's own parser) and =1 (the libxml2
 * plugin, where libhwloc-plugins is installed): the answers must not differ. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

#define SETS(c) " cpuset=\"" c "\" complete_cpuset=\"" c "\" nodeset=\"0x1\" complete_nodeset=\"0x1\""

/* A one-PU machine whose package sits below `groups` nested Groups, one
 * element per line. Elements open at depth: topology 1, Machine 2, the Groups
 * 3 .. groups + 2, Package groups + 3, Core groups + 4 (the PU and the NUMA
 * node close themselves). The Group on line L is at depth L - 1. */
static char *nested_machine(int groups, const char *extra_in_machine)
{
    size_t cap = (size_t)groups * 200 + 4096 + strlen(extra_in_machine);
    char *x = malloc(cap);
    assert_non_null(x);
    size_t k = (size_t)snprintf(x, cap,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<topology version=\"2.0\">\n"
        "<object type=\"Machine\" os_index=\"0\"" SETS("0x1")
        " allowed_cpuset=\"0x1\" allowed_nodeset=\"0x1\" gp_index=\"1\">\n"
        "%s", extra_in_machine);
    for (int i = 0; i < groups; i++)
        k += (size_t)snprintf(x + k, cap - k, "<object type=\"Group\"" SETS("0x1")
                              " gp_index=\"%d\">\n", 10 + i);
    k += (size_t)snprintf(x + k, cap - k,
        "<object type=\"Package\" os_index=\"0\"" SETS("0x1") " gp_index=\"2\">\n"
        "<object type=\"Core\" os_index=\"0\"" SETS("0x1") " gp_index=\"3\">\n"
        "<object type=\"PU\" os_index=\"0\"" SETS("0x1") " gp_index=\"4\"/>\n"
        "</object>\n</object>\n");
    for (int i = 0; i < groups; i++)
        k += (size_t)snprintf(x + k, cap - k, "</object>\n");
    snprintf(x + k, cap - k,
        "<object type=\"NUMANode\" os_index=\"0\"" SETS("0x1")
        " gp_index=\"5\" local_memory=\"1073741824\"/>\n</object>\n</topology>\n");
    return x;
}

static pl_status load_buffer(const char *xml, pl_topology **t)
{
    pl_hwloc_opts o;
    pl_hwloc_opts_init(&o);
    o.xml_buffer = xml;
    *t = NULL;
    return pl_topology_load_hwloc(&o, t);
}

static void expect_refused(const char *xml, const char *where, const char *what)
{
    pl_topology *t = (pl_topology *)&t;
    assert_pl_status(load_buffer(xml, &t), PL_EPARSE);
    assert_null(t);
    if (!strstr(pl_last_error(), where) || !strstr(pl_last_error(), what))
        fail_msg("expected \"%s\" and \"%s\" in: %s", where, what, pl_last_error());
}

/* nested_machine(0, extra) must be refused with where and what. */
static void expect_machine_refused(const char *extra, const char *where, const char *what)
{
    char *xml = nested_machine(0, extra);
    expect_refused(xml, where, what);
    free(xml);
}

static int32_t packages(const pl_topology *t)
{
    int32_t n = -1;
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_PACKAGE, NULL, 0, &n));
    return n;
}

/* 64 levels load (the Groups are merged away by hwloc); 65 are refused,
 * naming the line of the element that went past the limit. */
static void test_depth_limit_boundary(void **state)
{
    (void)state;
    char *ok = nested_machine(60, ""); /* Core at depth 64 */
    pl_topology *t = NULL;
    assert_pl_ok(load_buffer(ok, &t));
    assert_int_equal(packages(t), 1);
    pl_topology_free(t);
    free(ok);

    char *deep = nested_machine(61, ""); /* Core at depth 65, on line 3 + 61 + 2 */
    expect_refused(deep, "<buffer>:66: ", "elements nested more than 64 deep");
    free(deep);
}

/* The crash of the issue: 100,000 nested objects, as a buffer and as a file. */
static void test_hundred_thousand_levels(void **state)
{
    (void)state;
    static const char open_tag[] = "<object type=\"Group\"" SETS("0x1") ">";
    static const char close_tag[] = "</object>";
    const int depth = 100000;
    size_t cap = (size_t)depth * (sizeof open_tag + sizeof close_tag) + 128;
    char *xml = malloc(cap);
    assert_non_null(xml);
    size_t k = (size_t)sprintf(xml, "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n");
    for (int i = 0; i < depth; i++, k += sizeof open_tag - 1)
        memcpy(xml + k, open_tag, sizeof open_tag - 1);
    for (int i = 0; i < depth; i++, k += sizeof close_tag - 1)
        memcpy(xml + k, close_tag, sizeof close_tag - 1);
    strcpy(xml + k, "</topology>\n");
    expect_refused(xml, "<buffer>:3: ", "nested more than 64 deep");

    char path[PL_TEST_TMP_PATH];
    FILE *f = pl_test_tmpfile(path);
    fputs(xml, f);
    fclose(f);
    pl_topology *t = (pl_topology *)&t;
    assert_pl_status(pl_topology_load_xml(path, &t), PL_EPARSE);
    assert_null(t);
    char where[64];
    snprintf(where, sizeof where, "%s:3: ", path);
    assert_non_null(strstr(pl_last_error(), where));
    remove(path);
    free(xml);
}

/* Self-closing tags, escapes and tags over several lines do not count as
 * levels, and the lines inside tags are counted. */
static void test_depth_counts_elements_only(void **state)
{
    (void)state;
    char extra[8192] = "";
    for (int i = 0; i < 100; i++)
        strcat(extra, "<info name=\"k\"\n value=\"a&gt;b&lt;c\"/>");
    char *xml = nested_machine(60, extra);
    pl_topology *t = NULL;
    assert_pl_ok(load_buffer(xml, &t));
    pl_topology_free(t);
    free(xml);

    /* 100 more lines above: the refused element moves down 100 lines. */
    xml = nested_machine(61, extra);
    expect_refused(xml, "<buffer>:166: ", "nested more than 64 deep");
    free(xml);
}

/* Attributes hwloc's own parser reads differently from libxml2: it stops at
 * the first one outside its grammar and ends a tag at its first '>', so an
 * object could keep its cpuset and lose its complete_nodeset in one importer
 * only (found by fuzz_hwloc_xml under HWLOC_LIBXML_IMPORT=0: a NULL bitmap
 * in hwloc_bitmap_set). */
static void test_attribute_grammar(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"complete_nodeset=\x01x1\"", "not name=\"value\""},
        {"complete_nodeset='0x1'", "not name=\"value\""},
        {"Complete_nodeset=\"0x1\"", "not name=\"value\""},
        {"complete_nodeset=\"0x1\"gp_index=\"3\"", "not separated from the one before"},
        {"complete_nodeset=\"0x1\" name=\"a>b\"", "raw '<' or '>'"},
        {"complete_nodeset=\"0x1\" name=\"a&#65;\"", "an escape other than"},
        {"complete_nodeset=\"0x1\" name=\"a&bogus;\"", "an escape other than"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char xml[1024];
        snprintf(xml, sizeof xml, "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n"
                 "<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x1\""
                 " nodeset=\"0x1\" %s>\n</object>\n</topology>\n", bad[i][0]);
        expect_refused(xml, "<buffer>:3: ", bad[i][1]);
    }
    /* The escapes hwloc writes are fine, and a newline inside a tag counts. */
    char *xml = nested_machine(0, "<info name=\"k\"\n value=\"&lt;&gt;&amp;&quot;&#10;&#13;&#9;\"/>\n");
    pl_topology *t = NULL;
    assert_pl_ok(load_buffer(xml, &t));
    pl_topology_free(t);
    free(xml);
}

/* hwloc_bitmap_sscanf() zeroes a set it cannot read; a Machine whose
 * complete_cpuset was zeroed that way crashed the libxml2 import (found by
 * fuzz_hwloc_xml under HWLOC_LIBXML_IMPORT=1). Bitmaps hwloc writes load. */
static void test_bitmap_values(void **state)
{
    (void)state;
    static const char *const bad[] = {"0x0cpuset3", "", ",0x1", "0x", "0x123456789", "0x1;0x2",
                                      "0xf...f,zz", "-1", " 0x1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char xml[1024];
        snprintf(xml, sizeof xml, "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n"
                 "<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"%s\""
                 " nodeset=\"0x1\" complete_nodeset=\"0x1\">\n</object>\n</topology>\n", bad[i]);
        expect_refused(xml, "<buffer>:3: ", "is not an hwloc bitmap");
    }
    static const char *const good[] = {"0x00000001", "0x1,,0x0", "0xf...f", "0xf...f,0x1", "1",
                                       "0x00000303,0x03030000,,0x03030303"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        char extra[256];
        snprintf(extra, sizeof extra, "<object type=\"Misc\" cpuset=\"%s\" complete_cpuset=\"%s\""
                 " nodeset=\"0x1\" complete_nodeset=\"0x1\"/>\n", good[i], good[i]);
        char *xml = nested_machine(0, extra);
        pl_topology *t = NULL;
        if (load_buffer(xml, &t) != PL_OK && strstr(pl_last_error(), "bitmap"))
            fail_msg("%s: %s", good[i], pl_last_error());
        pl_topology_free(t);
        free(xml);
    }
}

/* Text between elements: libxml2 skips it, hwloc's own parser fails part-way
 * through the import (a fuzzed file with a stray '#' crashed hwloc 2.9). */
static void test_text_outside_tags(void **state)
{
    (void)state;
    expect_machine_refused("#\n", "<buffer>:4: ", "text outside a tag");
    expect_machine_refused("\r\n", "<buffer>:4: ", "a carriage return (CRLF line end)");
    /* The elements that hold text, a byte order mark and blank lines are fine. */
    char *plain = nested_machine(0, "\n\t \n");
    char *bom = malloc(strlen(plain) + 4);
    assert_non_null(bom);
    sprintf(bom, "\xef\xbb\xbf%s", plain);
    pl_topology *t = NULL;
    assert_pl_ok(load_buffer(bom, &t));
    pl_topology_free(t);
    free(bom);
    free(plain);
    static const char dist[] =
        "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n"
        "<object type=\"Machine\"" SETS("0x1") ">\n"
        "<object type=\"NUMANode\" os_index=\"0\"" SETS("0x1") " local_memory=\"1000\"/>\n"
        "<object type=\"PU\" os_index=\"0\"" SETS("0x1") "/>\n</object>\n"
        "<distances2 type=\"NUMANode\" nbobjs=\"1\" kind=\"5\" indexing=\"os\">\n"
        "<indexes length=\"1\">0</indexes>\n<u64values length=\"2\">10</u64values>\n"
        "</distances2>\n</topology>\n";
    if (load_buffer(dist, &t) != PL_OK && strstr(pl_last_error(), "outside a tag"))
        fail_msg("%s", pl_last_error());
    pl_topology_free(t);
}

/* The prolog as hwloc writes it (hwloc's own parser skips whole lines
 * starting with "<?xml " or "<!DOCTYPE "); no DTD declarations, which is
 * where libxml2's entity expansion lives; no comments or processing
 * instructions inside the document, on which hwloc's own parser fails
 * part-way. */
static void test_prolog_and_markup(void **state)
{
    (void)state;
    expect_refused("<?xml version=\"1.0\"?>\n<!DOCTYPE topology [\n<!ENTITY a \"aaaa\">\n"
                   "<!ENTITY b \"&a;&a;&a;&a;\">\n]>\n<topology version=\"2.0\"/>\n",
                   "<buffer>:2: ", "the DOCTYPE must fill a line of its own");
    expect_refused("<?xml version=\"1.0\"?>\n<!ENTITY a \"x\">\n<topology version=\"2.0\"/>\n",
                   "<buffer>:2: ", "expected the <topology> element");
    expect_refused("<?xml version=\"1.0\" encoding=\"UTF-8\"8\"\n<topology version=\"2.0\"/>\n",
                   "<buffer>:1: ", "the XML declaration must fill a line of its own");
    expect_refused("<?xml version=\"1.0\"?><topology version=\"2.0\"/>\n",
                   "<buffer>:1: ", "the XML declaration must fill a line of its own");
    expect_refused("\n<topology version=\"2.0\"/>\n", "<buffer>:1: ", "expected the <topology>");
    expect_machine_refused("<!-- a comment -->\n", "<buffer>:4: ", "a comment, CDATA section");
    expect_machine_refused("<?pi x?>\n", "<buffer>:4: ", "processing instruction");
    /* The external DOCTYPE line of every hwloc export is fine. */
    char *xml = nested_machine(0, "");
    char *with_doctype = malloc(strlen(xml) + 64);
    assert_non_null(with_doctype);
    const char *body = strstr(xml, "<topology");
    sprintf(with_doctype, "<?xml version=\"1.0\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n%s",
            body);
    pl_topology *t = NULL;
    assert_pl_ok(load_buffer(with_doctype, &t));
    pl_topology_free(t);
    free(with_doctype);
    free(xml);
}

/* Closing tags hwloc's own parser reads: "</name>" of the open element; a
 * truncated text, a NUL byte and anything after the root are refused. */
static void test_structure(void **state)
{
    (void)state;
    char *xml = nested_machine(0, "");
    char *p = strstr(xml, "</object>\n</topology>");
    assert_non_null(p);
    memcpy(p, "</object >", 10);
    expect_refused(xml, "<buffer>:", "a closing tag that is not </object>");
    free(xml);

    xml = nested_machine(0, "");
    size_t len = strlen(xml);
    pl_hwloc_opts o;
    pl_hwloc_opts_init(&o);
    o.xml_buffer = xml;
    o.xml_length = len - 20; /* inside </object> */
    pl_topology *t = (pl_topology *)&t;
    assert_pl_status(pl_topology_load_hwloc(&o, &t), PL_EPARSE);
    assert_null(t);
    assert_non_null(strstr(pl_last_error(), "<buffer>:"));
    o.xml_length = len;
    xml[40] = '\0';
    assert_pl_status(pl_topology_load_hwloc(&o, &t), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "<buffer>:2: a NUL byte"));
    free(xml);

    xml = nested_machine(0, "");
    char *more = malloc(strlen(xml) + 32);
    assert_non_null(more);
    sprintf(more, "%s<object type=\"Misc\"/>\n", xml);
    expect_refused(more, "<buffer>:", "an element after the root element has closed");
    free(more);
    free(xml);
}

/* A distance matrix whose size cannot be in the text: hwloc would compute its
 * size with a wrapping multiply and write past a malloc(0). */
static void test_distance_matrix_size(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "<distances2 type=\"NUMANode\" nbobjs=\"65536\" kind=\"5\" indexing=\"os\">",
        "<distances nbobjs=\"2147483648\" relative_depth=\"1\" latency_base=\"1\">",
        "<distances2 type=\"NUMANode\" nbobjs=\"-1\" kind=\"5\" indexing=\"os\">",
        "<distances2 type=\"NUMANode\" nbobjs=\"99999999999999999999\" kind=\"5\" indexing=\"os\">",
        "<distances2 type=\"NUMANode\" nbobjs=\"1000\" kind=\"5\" indexing=\"os\">",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char xml[1024];
        snprintf(xml, sizeof xml, "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n"
                 "<object type=\"Machine\"" SETS("0x1") ">\n%s\n<latency value=\"1\"/>\n"
                 "</distances2>\n</object>\n</topology>\n", bad[i]);
        expect_refused(xml, "<buffer>:4: ", "a distance matrix of nbobjs=");
    }
}

/* The real fixtures, distance matrices included, pass the guard under
 * either importer and load as before. */
static void test_real_exports_pass(void **state)
{
    (void)state;
    static const char *const files[] = {
        "topologies/power8gpudistances.xml", "topologies/nvidiaDGX2.xml",
        "topologies/16amd64-4distances.xml", "topologies/16intel64-manyVFs.xml",
        "topologies/cxlmem+dax.v2.xml", "topologies/96em64t-4n4d3ca2co-pci.xml",
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[PL_PATH_MAX];
        pl_topology *t = NULL;
        if (pl_topology_load_xml(pl_test_data(path, files[i]), &t) != PL_OK)
            fail_msg("%s: %s", files[i], pl_last_error());
        assert_true(packages(t) >= 1);
        pl_topology_free(t);
    }
}

int main(void)
{
    const char *imp = getenv("HWLOC_LIBXML_IMPORT");
    printf("# HWLOC_LIBXML_IMPORT=%s\n", imp ? imp : "(unset)");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_limit_boundary),
        cmocka_unit_test(test_hundred_thousand_levels),
        cmocka_unit_test(test_depth_counts_elements_only),
        cmocka_unit_test(test_attribute_grammar),
        cmocka_unit_test(test_bitmap_values),
        cmocka_unit_test(test_text_outside_tags),
        cmocka_unit_test(test_prolog_and_markup),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_distance_matrix_size),
        cmocka_unit_test(test_real_exports_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
