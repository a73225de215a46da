/* Reading the Kim-thesis fixtures of tests/data/kim (CSV: '#' comments, a
 * header row, comma-separated fields without quoting). Any problem fails
 * the calling test. */
#ifndef PL_PICK_CSV_H
#define PL_PICK_CSV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"

#define KIM_CSV_MAXCOLS 16

typedef struct kim_csv {
    char *text;                       /* the file, split in place */
    int ncols, nrows;
    char *head[KIM_CSV_MAXCOLS];
    char **cell;                      /* [nrows * ncols] */
    char name[64];
} kim_csv;

static inline void kim_csv_load(kim_csv *t, const char *rel)
{
    char path[PL_PATH_MAX];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", rel);
    FILE *f = fopen(pl_test_data(path, rel), "rb");
    if (!f)
        fail_msg("cannot open fixture %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    t->text = malloc((size_t)n + 1);
    assert_non_null(t->text);
    assert_int_equal(fread(t->text, 1, (size_t)n, f), (size_t)n);
    t->text[n] = 0;
    fclose(f);
    int cap = 0;
    for (char *line = strtok(t->text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r')
            line[len - 1] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char *fields[KIM_CSV_MAXCOLS];
        int nf = 0;
        for (char *p = line;; p++) {
            if (nf == KIM_CSV_MAXCOLS)
                fail_msg("%s: more than %d columns", rel, KIM_CSV_MAXCOLS);
            fields[nf++] = p;
            p = strchr(p, ',');
            if (!p)
                break;
            *p = 0;
        }
        if (t->ncols == 0) {
            t->ncols = nf;
            memcpy(t->head, fields, sizeof fields[0] * (size_t)nf);
            continue;
        }
        if (nf != t->ncols)
            fail_msg("%s: a row has %d fields, the header %d", rel, nf, t->ncols);
        if (t->nrows == cap) {
            cap = cap ? 2 * cap : 16;
            t->cell = realloc(t->cell, sizeof *t->cell * (size_t)cap * (size_t)t->ncols);
            assert_non_null(t->cell);
        }
        memcpy(t->cell + (size_t)t->nrows * (size_t)t->ncols, fields, sizeof fields[0] * (size_t)nf);
        t->nrows++;
    }
    if (t->ncols == 0 || t->nrows == 0)
        fail_msg("%s: no header or no rows", rel);
}

static inline void kim_csv_free(kim_csv *t)
{
    free(t->text);
    free(t->cell);
}

static inline int kim_csv_col(const kim_csv *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->head[c], name) == 0)
            return c;
    fail_msg("%s: no column %s", t->name, name);
    return -1;
}

static inline const char *kim_csv_str(const kim_csv *t, int row, const char *col)
{
    return t->cell[(size_t)row * (size_t)t->ncols + (size_t)kim_csv_col(t, col)];
}

static inline double kim_csv_num(const kim_csv *t, int row, const char *col)
{
    const char *s = kim_csv_str(t, row, col);
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end)
        fail_msg("%s: row %d column %s: \"%s\" is not a number", t->name, row, col, s);
    return v;
}

/* The value of column col in the row whose key columns hold k1 (and k2 when
 * key2 is not NULL); fails when there is none. */
static inline double kim_csv_lookup(const kim_csv *t, const char *key1, const char *k1, const char *key2,
                                    const char *k2, const char *col)
{
    for (int r = 0; r < t->nrows; r++)
        if (strcmp(kim_csv_str(t, r, key1), k1) == 0 && (!key2 || strcmp(kim_csv_str(t, r, key2), k2) == 0))
            return kim_csv_num(t, r, col);
    fail_msg("%s: no row %s=%s%s%s", t->name, key1, k1, key2 ? " and " : "", key2 ? k2 : "");
    return 0;
}

#endif
