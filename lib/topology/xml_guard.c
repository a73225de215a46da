/* XML text refused before hwloc parses it (doc/topology-hwloc.md, "Text
 * hwloc never sees"). hwloc 2.9 has two importers: its own "nolibxml" parser
 * and the libxml2 one of libhwloc-plugins. They read different languages,
 * and hwloc crashes on some texts that one of them reads and the other does
 * not: a stack overflow on deep nesting (its own parser has no depth limit),
 * NULL bitmaps when its own parser stops reading a tag's attributes part-way,
 * a NULL dereference after a stray character or a bitmap it cannot read. So
 * the guard accepts only the dialect that hwloc's exporters write and both
 * importers read alike, and refuses the rest with "WHAT:LINE:". One pass
 * with bounded compares: a string search per tag would be quadratic on
 * hostile input. */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include "topology_impl.h"

/* hwloc imports objects recursively, one chain of stack frames per level:
 * 100,000 levels overflow an 8 MiB stack. Real exports nest at most 11
 * elements deep (tests/data/topologies); 64 leaves room for deep PCIe switch
 * chains. */
#define XML_MAX_DEPTH 64

typedef struct xml_scan {
    const char *what;   /* file name or "<buffer>" */
    const char *text, *stop;
    long line;
    long depth;         /* open elements */
    const char *name[XML_MAX_DEPTH + 1];  /* [depth] name of the open element */
    size_t namelen[XML_MAX_DEPTH + 1];
    unsigned char holds_text[XML_MAX_DEPTH + 1];
    int root_closed;
} xml_scan;

/* What a start tag says that matters here. */
typedef struct xml_tag {
    const char *name;
    size_t namelen;
    int sets;           /* how many of the four cpu/node sets it has */
    const char *nbobjs, *nbobjs_end; /* value of its nbobjs attribute, or NULL */
    int self_closing;
} xml_tag;

static int starts(const xml_scan *s, const char *p, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(s->stop - p) >= n && memcmp(p, lit, n) == 0;
}

/* The white space hwloc's own parser skips between tags and attributes. */
static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int name_is(const char *name, size_t len, const char *lit)
{
    return strlen(lit) == len && memcmp(name, lit, len) == 0;
}

static pl_status refuse(const xml_scan *s, long line, const char *why)
{
    return pl_err(PL_EPARSE, "%s:%ld: %s", s->what, line, why);
}

/* ---- attribute values ---------------------------------------------------- */

/* The escapes hwloc's own parser decodes; any other '&' stops it. */
static int is_known_escape(const xml_scan *s, const char *p)
{
    static const char *const known[] = {"&#10;", "&#13;", "&#9;", "&quot;", "&lt;", "&gt;",
                                        "&amp;"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (starts(s, p, known[i]))
            return 1;
    return 0;
}

/* Whether [v, end) is a bitmap as hwloc reads it: "0xf...f" (full), or an
 * optional "0xf...f," then words of 1-8 hex digits (hwloc writes them after
 * "0x") separated by commas, any but the first empty. hwloc_bitmap_sscanf()
 * zeroes a set it cannot read, and an object whose complete_cpuset was
 * zeroed that way crashed hwloc 2.9's libxml2 import (found by fuzzing). */
static int is_bitmap(const char *v, const char *end)
{
    if (end - v >= 7 && memcmp(v, "0xf...f", 7) == 0) {
        v += 7;
        if (v == end)
            return 1;
        if (*v++ != ',')
            return 0;
    }
    for (int first = 1;; first = 0) {
        const char *w = v;
        if (end - v >= 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
            v += 2;
        const char *digits = v;
        while (v < end && is_hex(*v))
            v++;
        if (v - digits > 8 || (v == digits && (v != w || first)))
            return 0;
        if (v == end)
            return 1;
        if (*v++ != ',')
            return 0;
    }
}

/* Note what attribute name="[v, vend)" says; 0 when it is a set that is not
 * a bitmap. */
static int note_attr(xml_tag *tag, const char *name, size_t nl, const char *v, const char *vend)
{
    static const char *const sets[] = {"cpuset", "complete_cpuset", "nodeset",
                                       "complete_nodeset", "allowed_cpuset", "allowed_nodeset"};
    for (int i = 0; i < 6; i++)
        if (name_is(name, nl, sets[i])) {
            tag->sets += i < 4;
            if (!is_bitmap(v, vend))
                return 0;
        }
    if (name_is(name, nl, "nbobjs")) {
        tag->nbobjs = v;
        tag->nbobjs_end = vend;
    }
    return 1;
}

/* ---- tags ---------------------------------------------------------------- */

/* One name="value" attribute at *pp (at its name); *pp moves past it. */
static pl_status read_attr(xml_scan *s, const char **pp, xml_tag *tag)
{
    const char *an = *pp, *p = an;
    long line = s->line;
    while (p < s->stop && ((*p >= 'a' && *p <= 'z') || *p == '_'))
        p++;
    if (an == p || s->stop - p < 2 || p[0] != '=' || p[1] != '"')
        return refuse(s, line, "an attribute that is not name=\"value\" with a name of a-z and _ "
                      "(hwloc's own parser would stop reading the tag there)");
    const char *v = p + 2;
    for (p = v; p < s->stop && *p != '"'; p++) {
        if (*p == '<' || *p == '>')
            return refuse(s, s->line, "a raw '<' or '>' in an attribute value (hwloc writes "
                          "&lt; and &gt;)");
        if (*p == '&' && !is_known_escape(s, p))
            return refuse(s, s->line, "an escape other than &#10; &#13; &#9; &quot; &lt; "
                          "&gt; &amp; (hwloc's own parser would stop reading the tag there)");
        s->line += *p == '\n';
    }
    if (p >= s->stop)
        return refuse(s, line, "the text ends inside an attribute value");
    if (!note_attr(tag, an, (size_t)(v - 2 - an), v, p))
        return pl_err(PL_EPARSE, "%s:%ld: %.*s=\"%.*s\" is not an hwloc bitmap (words of "
                      "1 to 8 hex digits, separated by commas)", s->what, line,
                      (int)(v - 2 - an), an, (int)(p - v < 64 ? p - v : 64), v);
    *pp = p + 1;
    return PL_OK;
}

/* The start tag at *pp (at its '<'), in the grammar both importers read
 * alike: a name of [a-z0-9_], then name="value" attributes each after white
 * space, then '>' or "/>". hwloc's own parser ends a tag at its first '>'
 * and stops reading attributes at the first one outside this grammar, where
 * libxml2 reads on: an object could then lose its sets in one importer
 * only. *pp moves past the tag. */
static pl_status read_start_tag(xml_scan *s, const char **pp, xml_tag *tag)
{
    const char *p = *pp + 1;
    long line = s->line;
    tag->name = p;
    while (p < s->stop && is_name_char(*p))
        p++;
    tag->namelen = (size_t)(p - tag->name);
    if (tag->namelen == 0 || (p < s->stop && *p != ' ' && *p != '>' && *p != '/'))
        return refuse(s, line, "a tag whose name is not of a-z, 0-9 and _ followed by a space, "
                      "'>' or \"/>\"");
    for (;;) {
        const char *gap = p;
        for (; p < s->stop && is_space(*p); p++)
            s->line += *p == '\n';
        if (p >= s->stop)
            return refuse(s, line, "the text ends inside a tag");
        if (*p == '>' || (*p == '/' && p + 1 < s->stop && p[1] == '>')) {
            tag->self_closing = *p == '/';
            *pp = p + 1 + tag->self_closing;
            return PL_OK;
        }
        pl_status st = p == gap ? refuse(s, s->line, "an attribute not separated from the one "
                                         "before it by white space")
                                : read_attr(s, &p, tag);
        if (st)
            return st;
    }
}

/* hwloc 2.9 dereferences a NULL bitmap (hwloc_bitmap_compare_first, fixed
 * upstream in hwloc PR #783) on an <object> with a cpuset but not all of the
 * four sets; its exporter always writes the four together. */
static pl_status check_sets(const xml_scan *s, long line, const xml_tag *tag)
{
    if (name_is(tag->name, tag->namelen, "object") && tag->sets != 0 && tag->sets != 4)
        return refuse(s, line, "an object needs all of cpuset, complete_cpuset, nodeset and "
                      "complete_nodeset, or none");
    return PL_OK;
}

/* hwloc allocates a distance matrix of nbobjs x nbobjs values before reading
 * them, computing the size in 32 bits for <distances2> (nbobjs="65536" wraps
 * to 0) and without an overflow check for v1 <distances>, so a few bytes of
 * text can ask for gigabytes. The values are in the text, at least two bytes
 * each, so a larger matrix cannot be genuine. */
static pl_status check_nbobjs(const xml_scan *s, long line, const xml_tag *tag)
{
    const char *v = tag->nbobjs, *end = tag->nbobjs_end;
    if (!v)
        return PL_OK;
    while (v < end && is_space(*v))
        v++;
    uint64_t n = 0;
    int neg = v < end && *v == '-';
    if (v < end && (*v == '+' || *v == '-'))
        v++;
    for (; v < end && *v >= '0' && *v <= '9' && n <= UINT32_MAX; v++)
        n = n * 10 + (uint64_t)(*v - '0');
    uint64_t room = ((uint64_t)(s->stop - s->text) + 1) / 2;
    if (n != 0 && (neg || n > 65535 || n * n > room))
        return pl_err(PL_EPARSE, "%s:%ld: a distance matrix of nbobjs=%s%" PRIu64 " objects "
                      "cannot be in a %zu-byte text (hwloc would allocate it before "
                      "reading it)", s->what, line, neg ? "-" : "", n,
                      (size_t)(s->stop - s->text));
    return PL_OK;
}

static pl_status open_element(xml_scan *s, const char **pp)
{
    xml_tag tag = {0};
    long line = s->line;
    if (s->root_closed)
        return refuse(s, line, "an element after the root element has closed");
    pl_status st = read_start_tag(s, pp, &tag);
    if (!st)
        st = check_sets(s, line, &tag);
    if (!st)
        st = check_nbobjs(s, line, &tag);
    if (st || tag.self_closing) {
        s->root_closed |= !st && s->depth == 0;
        return st;
    }
    if (s->depth == XML_MAX_DEPTH)
        return pl_err(PL_EPARSE, "%s:%ld: elements nested more than %d deep (hwloc exports nest "
                      "about 12)", s->what, line, XML_MAX_DEPTH);
    long d = ++s->depth;
    s->name[d] = tag.name;
    s->namelen[d] = tag.namelen;
    /* The only elements with text in hwloc XML. */
    s->holds_text[d] = (unsigned char)(name_is(tag.name, tag.namelen, "indexes") ||
                                       name_is(tag.name, tag.namelen, "u64values") ||
                                       name_is(tag.name, tag.namelen, "userdata"));
    return PL_OK;
}

/* "</name>" exactly, closing the open element of that name: hwloc's own
 * parser compares the text between "</" and '>' with the name. */
static pl_status close_element(xml_scan *s, const char **pp)
{
    const char *name = *pp + 2, *p = name;
    while (p < s->stop && is_name_char(*p))
        p++;
    long d = s->depth;
    if (d == 0 || p >= s->stop || *p != '>' ||
        (size_t)(p - name) != s->namelen[d] || memcmp(name, s->name[d], s->namelen[d]) != 0)
        return pl_err(PL_EPARSE, "%s:%ld: a closing tag that is not </%.*s>", s->what, s->line,
                      d ? (int)s->namelen[d] : 0, d ? s->name[d] : "");
    s->depth--;
    s->root_closed = s->depth == 0;
    *pp = p + 1;
    return PL_OK;
}

/* ---- the document ---------------------------------------------------------- */

/* hwloc's own parser skips whole lines that start with "<?xml " or
 * "<!DOCTYPE " and then wants the root element; each such line must hold its
 * declaration and nothing else (no internal DTD subset: that is where
 * libxml2's entity expansion lives, and hwloc never writes one). */
static pl_status read_prolog(xml_scan *s, const char **pp)
{
    const char *p = *pp;
    while (starts(s, p, "<?xml ") || starts(s, p, "<!DOCTYPE ")) {
        int decl = p[1] == '?';
        const char *eol = memchr(p, '\n', (size_t)(s->stop - p));
        const char *end = eol ? eol : s->stop;
        while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        int ok = end - p >= 3 && end[-1] == '>' && (!decl || end[-2] == '?');
        for (const char *q = p + 1; q < end - 1 && ok; q++)
            ok = *q != '<' && *q != '>' && *q != '[';
        if (!ok)
            return refuse(s, s->line, decl ? "the XML declaration must fill a line of its own, "
                                             "as hwloc writes it"
                                           : "the DOCTYPE must fill a line of its own, without "
                                             "declarations (hwloc writes <!DOCTYPE topology "
                                             "SYSTEM \"hwloc2.dtd\">)");
        if (!eol)
            return refuse(s, s->line, "the text ends before the root element");
        p = eol + 1;
        s->line++;
    }
    if (!starts(s, p, "<topology") && !starts(s, p, "<root"))
        return refuse(s, s->line, "expected the <topology> element at the start of this line "
                      "(after an optional XML declaration line and DOCTYPE line)");
    *pp = p;
    return PL_OK;
}

/* Text between tags: white space, except inside the elements that hold
 * text. libxml2 skips other text; hwloc's own parser fails part-way through
 * the import, and a stray '#' crashed hwloc 2.9 (found by fuzzing). */
static pl_status read_text(xml_scan *s, const char **pp)
{
    const char *p = *pp;
    for (; p < s->stop && *p != '<'; p++) {
        if (!is_space(*p) && !(s->depth > 0 && !s->root_closed && s->holds_text[s->depth]))
            return refuse(s, s->line, *p == '\r' ? "a carriage return (CRLF line end), which "
                                                   "hwloc's own parser does not read"
                                                 : "text outside a tag (in hwloc XML only "
                                                   "<indexes>, <u64values> and <userdata> "
                                                   "hold text)");
        s->line += *p == '\n';
    }
    *pp = p;
    return PL_OK;
}

pl_status pl_hwloc_xml_guard(const char *what, const char *text, size_t len)
{
    xml_scan s = {.what = what, .text = text, .stop = text + len, .line = 1};
    const char *p = text;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        for (const char *q = text; q < nul; q++)
            s.line += *q == '\n';
        return refuse(&s, s.line, "a NUL byte (hwloc's own parser would stop there)");
    }
    pl_status st = read_prolog(&s, &p);
    while (!st && p < s.stop) {
        if (*p != '<')
            st = read_text(&s, &p);
        else if (starts(&s, p, "</"))
            st = close_element(&s, &p);
        else if (p + 1 < s.stop && (p[1] == '!' || p[1] == '?'))
            st = refuse(&s, s.line, "a comment, CDATA section, declaration or processing "
                        "instruction inside the document (hwloc writes none, and its own "
                        "parser fails part-way on them)");
        else
            st = open_element(&s, &p);
    }
    if (!st && !s.root_closed)
        st = pl_err(PL_EPARSE, "%s:%ld: the text ends inside <%.*s> (truncated?)", what, s.line,
                    s.depth ? (int)s.namelen[s.depth] : 8, s.depth ? s.name[s.depth] : "topology");
    return st;
}
