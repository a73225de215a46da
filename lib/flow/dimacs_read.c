/* DIMACS `min` reader. The whole input is read into memory first so that
 * files, streams and strings share one parser. Ids are collected raw and the
 * id base (0 or 1) is settled once every id has been seen. Every rejection
 * names the file and line; nothing is silently skipped or truncated. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal/columns.h"
#include "internal/flownet_impl.h"

#define MAX_FIELDS 8

typedef struct node_rec {
    int32_t id;        /* raw id as written */
    int64_t supply;
    char *name;        /* from the preceding `c nd` line, owned */
} node_rec;

typedef struct parser {
    char *buf;         /* owned, NUL-terminated copy of the input */
    size_t len;
    long line;         /* number of the current line, from 1 */
    const char *name;  /* file name for messages */
    char *field[MAX_FIELDS];
    int nfield;

    long problem_line; /* 0 until the `p` line */
    int64_t n_nodes, n_arcs;
    long *node_line;   /* [n+1] line of each raw id's `n` line, 0 if none */
    long line_id0;     /* first line using raw id 0 */
    long line_idn;     /* first line using raw id n */
    char *pending_name;
    node_rec *nodes;
    int64_t n_recs, cap_recs;
    pl_flownet *net;   /* arcs go straight in, with raw ids */
} parser;

static pl_status fail(const parser *ps, const char *fmt, const char *a, const char *b)
{
    char msg[600];
    snprintf(msg, sizeof msg, fmt, a, b);
    return pl_err(PL_EPARSE, "%s:%ld: %s", ps->name, ps->line, msg);
}

static pl_status split(parser *ps, char *s)
{
    char *save = NULL;
    ps->nfield = 0;
    for (char *t = strtok_r(s, " \t\r\v\f", &save); t; t = strtok_r(NULL, " \t\r\v\f", &save)) {
        if (ps->nfield == MAX_FIELDS)
            return fail(ps, "too many fields (at '%s')%s", t, "");
        ps->field[ps->nfield++] = t;
    }
    return PL_OK;
}

static pl_status number(const parser *ps, int i, const char *what, int64_t *out)
{
    const char *s = ps->field[i];
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0')
        return fail(ps, "expected an integer %s, got '%s'", what, s);
    if (errno == ERANGE)
        return fail(ps, "%s '%s' does not fit in 64 bits", what, s);
    *out = v;
    return PL_OK;
}

static pl_status expect_fields(const parser *ps, int want, const char *form)
{
    if (ps->nfield < want)
        return fail(ps, "missing fields: expected '%s'%s", form, "");
    if (ps->nfield > want)
        return fail(ps, "unexpected '%s' after '%s'", ps->field[want], form);
    return PL_OK;
}

/* A raw id must lie in 0..n: both bases stay possible until the end. */
static pl_status node_id(parser *ps, int i, const char *what, int32_t *out)
{
    int64_t id = 0;
    pl_status st = number(ps, i, what, &id);
    if (st)
        return st;
    if (id < 0 || id > ps->n_nodes)
        return pl_err(PL_EPARSE, "%s:%ld: %s %" PRId64 " out of range (the problem line on line %ld "
                      "declares %" PRId64 " nodes)", ps->name, ps->line, what, id, ps->problem_line,
                      ps->n_nodes);
    if (id == 0 && !ps->line_id0)
        ps->line_id0 = ps->line;
    if (id == ps->n_nodes && !ps->line_idn)
        ps->line_idn = ps->line;
    *out = (int32_t)id;
    return PL_OK;
}

static pl_status need_problem(const parser *ps, const char *kind)
{
    if (!ps->problem_line)
        return fail(ps, "'%s' line before the problem line 'p min NODES ARCS'%s", kind, "");
    return PL_OK;
}

static pl_status parse_problem(parser *ps)
{
    static const char form[] = "p min NODES ARCS";
    pl_status st;
    if (ps->problem_line)
        return pl_err(PL_EPARSE, "%s:%ld: second problem line (the first is line %ld)", ps->name,
                      ps->line, ps->problem_line);
    if (ps->nfield >= 2 && strcmp(ps->field[1], "min") != 0)
        return fail(ps, "problem type '%s' is not supported: expected '%s'", ps->field[1], form);
    if ((st = expect_fields(ps, 4, form)) || (st = number(ps, 2, "NODES", &ps->n_nodes)) ||
        (st = number(ps, 3, "ARCS", &ps->n_arcs)))
        return st;
    if (ps->n_nodes < 0 || ps->n_nodes > PL_FLOWNET_MAX_SIZE || ps->n_arcs < 0 ||
        ps->n_arcs > PL_FLOWNET_MAX_SIZE)
        return pl_err(PL_EPARSE, "%s:%ld: node and arc counts must lie in 0..%d", ps->name,
                      ps->line, PL_FLOWNET_MAX_SIZE);
    ps->problem_line = ps->line;
    ps->node_line = pl_alloc((size_t)ps->n_nodes + 1, sizeof *ps->node_line);
    if (!ps->node_line)
        return PL_ENOMEM;
    /* Reserve only what the input can hold (an arc line takes >= 12 bytes),
     * so a lying header cannot make us allocate gigabytes up front. */
    int64_t fit = (int64_t)(ps->len / 12) + 1;
    return pl_flownet_reserve(ps->net, (int32_t)(ps->n_nodes < fit ? ps->n_nodes : fit),
                              (int32_t)(ps->n_arcs < fit ? ps->n_arcs : fit));
}

static pl_status parse_node(parser *ps)
{
    pl_status st;
    int32_t id = 0;
    int64_t supply = 0;
    if ((st = need_problem(ps, "n")) || (st = expect_fields(ps, 3, "n ID SUPPLY")) ||
        (st = node_id(ps, 1, "node id", &id)) || (st = number(ps, 2, "SUPPLY", &supply)))
        return st;
    if (ps->node_line[id])
        return pl_err(PL_EPARSE, "%s:%ld: node %d already has an 'n' line (line %ld)", ps->name,
                      ps->line, id, ps->node_line[id]);
    ps->node_line[id] = ps->line;
    if ((st = pl_grow((void **)&ps->nodes, &ps->cap_recs, ps->n_recs + 1, sizeof *ps->nodes)))
        return st;
    ps->nodes[ps->n_recs++] = (node_rec){.id = id, .supply = supply, .name = ps->pending_name};
    ps->pending_name = NULL;
    return PL_OK;
}

static pl_status parse_arc(parser *ps)
{
    pl_status st;
    int32_t t = 0, h = 0;
    int64_t lo = 0, cap = 0, cost = 0;
    if ((st = need_problem(ps, "a")) || (st = expect_fields(ps, 6, "a TAIL HEAD LOW CAP COST")) ||
        (st = node_id(ps, 1, "tail", &t)) || (st = node_id(ps, 2, "head", &h)) ||
        (st = number(ps, 3, "LOW", &lo)) || (st = number(ps, 4, "CAP", &cap)) ||
        (st = number(ps, 5, "COST", &cost)))
        return st;
    if (lo > cap)
        return pl_err(PL_EPARSE, "%s:%ld: lower bound %" PRId64 " exceeds capacity %" PRId64,
                      ps->name, ps->line, lo, cap);
    if (lo == PL_CAP_INF)
        return fail(ps, "lower bound cannot be infinite (%s)%s", ps->field[3], "");
    pl_flownet *net = ps->net;
    if (net->m >= ps->n_arcs)
        return pl_err(PL_EPARSE, "%s:%ld: more 'a' lines than the %" PRId64 " arcs declared on line %ld",
                      ps->name, ps->line, ps->n_arcs, ps->problem_line);
    /* Written directly: ids are still raw and are shifted in finish(). */
    if ((st = pl_flownet_reserve(net, 0, net->m + 1)))
        return st;
    int32_t a = net->m++;
    net->tail[a] = t;
    net->head[a] = h;
    net->lower[a] = lo;
    net->upper[a] = cap;
    net->cost[a] = cost;
    return PL_OK;
}

/* `c nd [TYPE] NAME`: Firmament names the node of the next `n` line. */
static pl_status parse_comment(parser *ps, char *rest)
{
    while (*rest == ' ' || *rest == '\t')
        rest++;
    if (strncmp(rest, "nd", 2) != 0 || (rest[2] != ' ' && rest[2] != '\t'))
        return PL_OK;
    rest += 2;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    char *end;
    strtoll(rest, &end, 10);
    if (end != rest && (*end == ' ' || *end == '\t'))
        rest = end; /* skip the numeric node-type field */
    while (*rest == ' ' || *rest == '\t')
        rest++;
    size_t n = strlen(rest);
    while (n && (rest[n - 1] == ' ' || rest[n - 1] == '\t' || rest[n - 1] == '\r'))
        rest[--n] = '\0';
    if (!n)
        return PL_OK;
    free(ps->pending_name);
    ps->pending_name = pl_strdup(rest);
    return ps->pending_name ? PL_OK : PL_ENOMEM;
}

static pl_status parse_line(parser *ps, char *s)
{
    char *p = s;
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    if (*p == '\0')
        return PL_OK;
    char kind = *p;
    if (p[1] != '\0' && p[1] != ' ' && p[1] != '\t' && p[1] != '\r')
        return fail(ps, "unknown line type '%.20s' (expected c, p, n or a)%s", p, "");
    if (kind == 'c')
        return parse_comment(ps, p + 1);
    if (kind != 'p' && kind != 'n' && kind != 'a')
        return fail(ps, "unknown line type '%.20s' (expected c, p, n or a)%s", p, "");
    pl_status st = split(ps, p);
    if (st)
        return st;
    return kind == 'p' ? parse_problem(ps) : kind == 'n' ? parse_node(ps) : parse_arc(ps);
}

/* Settle the base, shift ids, and place node supplies and names. */
static pl_status finish(parser *ps)
{
    pl_flownet *net = ps->net;
    if (!ps->problem_line)
        return fail(ps, "no problem line 'p min NODES ARCS' in the input%s%s", "", "");
    if (net->m != ps->n_arcs)
        return pl_err(PL_EPARSE, "%s:%ld: the problem line declares %" PRId64 " arcs but the input has %d",
                      ps->name, ps->problem_line, ps->n_arcs, net->m);
    if (ps->line_id0 && ps->line_idn)
        return pl_err(PL_EPARSE,
                      "%s:%ld: node ids 0 (line %ld) and %" PRId64 " (line %ld) both appear: ids must "
                      "be 1..%" PRId64 " (or 0..%" PRId64 ")", ps->name,
                      ps->line_id0 > ps->line_idn ? ps->line_id0 : ps->line_idn, ps->line_id0,
                      ps->n_nodes, ps->line_idn, ps->n_nodes, ps->n_nodes - 1);
    int shift = ps->line_id0 ? 0 : 1;
    pl_status st = pl_flownet_add_nodes(net, (int32_t)ps->n_nodes, NULL);
    if (st)
        return st;
    net->id_base = shift;
    for (int32_t a = 0; a < net->m; a++) {
        net->tail[a] -= shift;
        net->head[a] -= shift;
    }
    for (int64_t i = 0; i < ps->n_recs; i++) {
        int32_t v = ps->nodes[i].id - shift;
        net->supply[v] = ps->nodes[i].supply;
        if (ps->nodes[i].name && (st = pl_flownet_set_node_name(net, v, ps->nodes[i].name)))
            return st;
    }
    return PL_OK;
}

/* What a parser owns besides the node records' names. */
static const pl_column parser_owned[] = {PL_COLUMN(parser, nodes), PL_COLUMN(parser, node_line),
                                         PL_COLUMN(parser, pending_name), PL_COLUMN(parser, buf)};

static void parser_free(parser *ps)
{
    for (int64_t i = 0; i < ps->n_recs; i++)
        free(ps->nodes[i].name);
    pl_columns_free(ps, parser_owned, PL_NCOLUMNS(parser_owned));
}

/* Parse ps->buf (owned). Consumes the buffer in all cases. */
static pl_status parse(parser *ps, pl_flownet **out)
{
    pl_status st = pl_flownet_create(&ps->net);
    if (st) {
        parser_free(ps);
        return st;
    }
    char *s = ps->buf, *end = ps->buf + ps->len;
    ps->line = 0;
    while (st == PL_OK && s < end) {
        char *nl = memchr(s, '\n', (size_t)(end - s));
        char *eol = nl ? nl : end;
        ps->line++;
        if (memchr(s, '\0', (size_t)(eol - s))) {
            st = fail(ps, "NUL byte in the input (not a text file?)%s%s", "", "");
            break;
        }
        *eol = '\0';
        st = parse_line(ps, s);
        s = eol + 1;
    }
    if (st == PL_OK)
        st = finish(ps);
    parser_free(ps);
    if (st) {
        pl_flownet_free(ps->net);
        return st;
    }
    *out = ps->net;
    return PL_OK;
}

static pl_status slurp(FILE *f, const char *name, char **buf, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    if (!b)
        return pl_err(PL_ENOMEM, "out of memory reading %s", name);
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return pl_err(PL_ENOMEM, "out of memory reading %s (%zu bytes so far)", name, n);
            }
            b = nb;
            cap *= 2;
        }
        size_t got = fread(b + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        free(b);
        return pl_err(PL_EIO, "%s: read error: %s", name, strerror(e));
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return PL_OK;
}

pl_status pl_flownet_read_dimacs_stream(FILE *f, const char *name, pl_flownet **out)
{
    if (!f || !out)
        return pl_err(PL_EINVAL, "pl_flownet_read_dimacs_stream: NULL argument");
    parser ps = {.name = name ? name : "<stream>"};
    pl_status st = slurp(f, ps.name, &ps.buf, &ps.len);
    return st ? st : parse(&ps, out);
}

pl_status pl_flownet_read_dimacs(const char *path, pl_flownet **out)
{
    if (!path || !out)
        return pl_err(PL_EINVAL, "pl_flownet_read_dimacs: NULL argument");
    if (strcmp(path, "-") == 0)
        return pl_flownet_read_dimacs_stream(stdin, "<stdin>", out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return pl_err(PL_EIO, "%s: cannot open: %s", path, strerror(errno));
    pl_status st = pl_flownet_read_dimacs_stream(f, path, out);
    fclose(f);
    return st;
}

pl_status pl_flownet_read_dimacs_string(const char *text, size_t len, pl_flownet **out)
{
    if (!text || !out)
        return pl_err(PL_EINVAL, "pl_flownet_read_dimacs_string: NULL argument");
    parser ps = {.name = "<string>", .len = len};
    ps.buf = malloc(len + 1);
    if (!ps.buf)
        return pl_err(PL_ENOMEM, "out of memory copying %zu bytes of DIMACS text", len);
    memcpy(ps.buf, text, len);
    ps.buf[len] = '\0';
    return parse(&ps, out);
}
