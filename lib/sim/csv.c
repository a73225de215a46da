/* The simulator's CSV reader (csv.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "csv.h"

pl_status pl_csv_open_text(pl_csv *c, const char *text, size_t len, const char *source)
{
    memset(c, 0, sizeof *c);
    snprintf(c->source, sizeof c->source, "%s", source ? source : "<string>");
    if (memchr(text, '\0', len))
        return pl_err(PL_EPARSE, "%s: NUL byte in the text (not a CSV file?)", c->source);
    /* A UTF-8 byte order mark (spreadsheets write one) is not part of the
     * first column's name. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
    }
    if (!(c->text = pl_alloc(len + 1, 1)))
        return PL_ENOMEM;
    memcpy(c->text, text, len);
    c->len = len;
    return PL_OK;
}

pl_status pl_csv_open_file(pl_csv *c, const char *path)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f)
        return pl_err(PL_EIO, "cannot open '%s': %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    pl_status st = PL_OK;
    for (;;) {
        if (len + 65536 > cap) {
            size_t nc = cap ? 2 * cap : 65536;
            char *p = pl_realloc_array(buf, nc, 1);
            if (!p) {
                st = PL_ENOMEM;
                break;
            }
            buf = p;
            cap = nc;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (!st && ferror(f))
        st = pl_err(PL_EIO, "reading '%s' failed", path);
    fclose(f);
    if (!st)
        st = pl_csv_open_text(c, buf ? buf : "", len, path);
    free(buf);
    return st;
}

void pl_csv_close(pl_csv *c)
{
    free(c->text);
    free(c->field);
    free(c->col);
    memset(c, 0, sizeof *c);
}

pl_status pl_csv_fail(const pl_csv *c, const char *column, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (column)
        return pl_err(PL_EPARSE, "%s:%lld: column '%s': %s", c->source, (long long)c->line, column, msg);
    return pl_err(PL_EPARSE, "%s:%lld: %s", c->source, (long long)c->line, msg);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Split the next non-blank, non-comment line into fields. */
static int read_line(pl_csv *c, pl_status *st)
{
    *st = PL_OK;
    while (c->pos < c->len) {
        char *line = c->text + c->pos;
        char *nl = memchr(line, '\n', c->len - c->pos);
        size_t n = nl ? (size_t)(nl - line) : c->len - c->pos;
        c->pos += n + (nl != NULL);
        line[n] = '\0';
        c->line++;
        char *t = trim(line);
        if (!*t || *t == '#')
            continue;
        c->nfield = 0;
        for (char *p = t;;) {
            char *comma = strchr(p, ',');
            if (comma)
                *comma = '\0';
            if (c->nfield == c->capfield) {
                int32_t nc = c->capfield ? 2 * c->capfield : 16;
                char **f = pl_realloc_array(c->field, (size_t)nc, sizeof *f);
                if (!f) {
                    *st = PL_ENOMEM;
                    return 0;
                }
                c->field = f;
                c->capfield = nc;
            }
            c->field[c->nfield++] = trim(p);
            if (strchr(c->field[c->nfield - 1], '"')) {
                *st = pl_csv_fail(c, NULL, "quoted fields are not supported (field %d)", (int)c->nfield);
                return 0;
            }
            if (!comma)
                break;
            p = comma + 1;
        }
        return 1;
    }
    return 0;
}

pl_status pl_csv_header(pl_csv *c, const char *const *known, int32_t *col_of)
{
    pl_status st;
    int32_t nk = 0;
    while (known[nk])
        col_of[nk++] = -1;
    if (!read_line(c, &st))
        return st ? st : pl_err(PL_EPARSE, "%s: empty (no header line)", c->source);
    if (!(c->col = pl_alloc((size_t)c->nfield, sizeof *c->col)))
        return PL_ENOMEM;
    c->ncol = c->nfield;
    for (int32_t i = 0; i < c->ncol; i++) {
        c->col[i] = c->field[i];
        int32_t k = 0;
        while (k < nk && strcmp(known[k], c->col[i]))
            k++;
        if (k == nk) {
            char list[512] = "";
            for (int32_t q = 0; q < nk; q++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", q ? ", " : "", known[q]);
            return pl_csv_fail(c, NULL, "unknown column '%s' (known: %s)", c->col[i], list);
        }
        if (col_of[k] >= 0)
            return pl_csv_fail(c, NULL, "column '%s' appears twice", c->col[i]);
        col_of[k] = i;
    }
    return PL_OK;
}

int pl_csv_next(pl_csv *c, pl_status *st)
{
    if (!read_line(c, st))
        return 0;
    if (c->nfield != c->ncol) {
        *st = pl_csv_fail(c, NULL, "%d fields, the header has %d", (int)c->nfield, (int)c->ncol);
        return 0;
    }
    return 1;
}

const char *pl_csv_field(const pl_csv *c, int32_t col)
{
    return col >= 0 && col < c->nfield ? c->field[col] : "";
}

pl_status pl_csv_number(const pl_csv *c, int32_t col, const char *name, double min, double max,
                        int allow_empty, double dflt, double *out)
{
    const char *f = pl_csv_field(c, col);
    if (!*f) {
        if (allow_empty) {
            *out = dflt;
            return PL_OK;
        }
        return pl_csv_fail(c, name, "missing value");
    }
    char *end;
    errno = 0;
    double v = strtod(f, &end);
    if (*end || end == f || isnan(v))
        return pl_csv_fail(c, name, "expected a number, got '%s'", f);
    if (v < min || v > max)
        return pl_csv_fail(c, name, "expected a number in [%g, %g], got '%s'", min, max, f);
    *out = v;
    return PL_OK;
}
