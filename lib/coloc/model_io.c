/* CSV training input and the text format of a trained model. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coloc_impl.h"

#define MAGIC "placement-coloc-model"
#define VERSION 1

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* Split line in place at commas; returns the field count (fields beyond cap are counted, not stored). */
static int32_t split(char *line, char **field, int32_t cap)
{
    int32_t n = 0;
    char *p = line;
    for (;;) {
        char *c = strchr(p, ',');
        if (c)
            *c = '\0';
        if (n < cap)
            field[n] = trim(p);
        n++;
        if (!c)
            return n;
        p = c + 1;
    }
}

static int blank_or_comment(const char *line)
{
    while (*line == ' ' || *line == '\t' || *line == '\r' || *line == '\n')
        line++;
    return *line == '\0' || *line == '#';
}

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && end != s && *end == '\0' && isfinite(*v);
}

typedef struct csv {
    int32_t cols;
    char **names;
    double *vals;       /* rows * cols */
    int64_t rows, cap;
} csv;

static void csv_free(csv *c)
{
    if (c->names)
        for (int32_t i = 0; i < c->cols; i++)
            free(c->names[i]);
    free(c->names);
    free(c->vals);
}

static pl_status read_csv(FILE *f, const char *path, csv *c)
{
    char *line = NULL;
    size_t lcap = 0;
    long lineno = 0;
    char **field = NULL;
    pl_status st = PL_OK;
    while (getline(&line, &lcap, f) != -1) {
        lineno++;
        if (blank_or_comment(line))
            continue;
        if (!c->names) {
            int32_t n = split(line, NULL, 0);
            if (n < 2) {
                st = pl_err(PL_EPARSE, "%s:%ld: header needs at least one feature and the target column", path, lineno);
                break;
            }
            field = pl_alloc((size_t)n, sizeof *field);
            c->names = pl_alloc((size_t)n, sizeof *c->names);
            if (!field || !c->names) {
                st = PL_ENOMEM;
                break;
            }
            /* the first split wrote NULs: re-read the header from the pieces */
            char *p = line;
            for (int32_t i = 0; i < n; i++) {
                size_t len = strlen(p);   /* before trim() shortens it */
                char *name = trim(p);
                if (!*name) {
                    st = pl_err(PL_EPARSE, "%s:%ld: column %d of the header has no name", path, lineno, (int)i + 1);
                    break;
                }
                if (!(c->names[i] = pl_strdup(name))) {
                    st = PL_ENOMEM;
                    break;
                }
                c->cols = i + 1;
                p += len + 1;
            }
            if (st != PL_OK)
                break;
            continue;
        }
        int32_t n = split(line, field, c->cols);
        if (n != c->cols) {
            st = pl_err(PL_EPARSE, "%s:%ld: expected %d comma-separated fields, got %d", path, lineno,
                        (int)c->cols, (int)n);
            break;
        }
        if (pl_grow((void **)&c->vals, &c->cap, (c->rows + 1) * c->cols, sizeof *c->vals) != PL_OK) {
            st = PL_ENOMEM;
            break;
        }
        for (int32_t i = 0; i < n; i++)
            if (!parse_double(field[i], &c->vals[c->rows * c->cols + i])) {
                st = pl_err(PL_EPARSE, "%s:%ld: field %d (%s) is not a finite number: '%s'", path, lineno,
                            (int)i + 1, c->names[i], field[i]);
                break;
            }
        if (st != PL_OK)
            break;
        c->rows++;
    }
    if (st == PL_OK && !c->names)
        st = pl_err(PL_EPARSE, "%s:%ld: no header row", path, lineno);
    else if (st == PL_OK && c->rows == 0)
        st = pl_err(PL_EPARSE, "%s:%ld: no samples after the header", path, lineno);
    free(line);
    free(field);
    return st;
}

pl_status pl_coloc_model_train_csv(const char *path, const pl_coloc_model_opts *opts, pl_coloc_model **out)
{
    if (!path || !out)
        return pl_err(PL_EINVAL, "pl_coloc_model_train_csv: NULL argument");
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return pl_err(PL_EIO, "%s: %s", path, strerror(errno));
    csv c = { 0 };
    pl_status st = read_csv(f, path, &c);
    fclose(f);
    if (st == PL_OK) {
        int32_t d = c.cols - 1;
        double *x = pl_alloc((size_t)c.rows * (size_t)d, sizeof *x);
        double *y = pl_alloc((size_t)c.rows, sizeof *y);
        if (!x || !y)
            st = PL_ENOMEM;
        else {
            for (int64_t r = 0; r < c.rows; r++) {
                memcpy(x + r * d, c.vals + r * c.cols, (size_t)d * sizeof *x);
                y[r] = c.vals[r * c.cols + d];
            }
            st = coloc_train_named(x, y, c.rows, d, (const char *const *)c.names, c.names[d], opts, out);
        }
        free(x);
        free(y);
    }
    csv_free(&c);
    return st;
}

pl_status pl_coloc_model_save(const pl_coloc_model *m, const char *path)
{
    if (!m || !path)
        return pl_err(PL_EINVAL, "pl_coloc_model_save: NULL argument");
    for (int32_t i = 0; i <= m->features; i++)
        if (strchr(m->names[i], '\n'))
            return pl_err(PL_EINVAL, "pl_coloc_model_save: column name %d contains a newline", (int)i);
    FILE *f = fopen(path, "w");
    if (!f)
        return pl_err(PL_EIO, "%s: %s", path, strerror(errno));
    fprintf(f, "%s %d\nfeatures %d\n", MAGIC, VERSION, (int)m->features);
    for (int32_t i = 0; i < m->features; i++)
        fprintf(f, "feature %s\n", m->names[i]);
    fprintf(f, "target %s\ntrees %d\n", m->names[m->features], (int)m->ntrees);
    for (int32_t t = 0; t < m->ntrees; t++) {
        const coloc_tree *tr = &m->trees[t];
        fprintf(f, "tree %d\n", (int)tr->nodes);
        for (int32_t k = 0; k < tr->nodes; k++)
            fprintf(f, "%d %.17g %d %d %.17g\n", (int)tr->feature[k], tr->threshold[k],
                    (int)tr->left[k], (int)tr->right[k], tr->value[k]);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return pl_err(PL_EIO, "%s: write failed: %s", path, strerror(errno));
    return PL_OK;
}

typedef struct reader {
    FILE *f;
    const char *path;
    char *line;
    size_t cap;
    long lineno;
} reader;

static pl_status next_line(reader *r, const char *what)
{
    if (getline(&r->line, &r->cap, r->f) == -1)
        return pl_err(PL_EPARSE, "%s:%ld: unexpected end of file, expected %s", r->path, r->lineno + 1, what);
    r->lineno++;
    size_t n = strlen(r->line);
    if (n && r->line[n - 1] == '\n')
        r->line[n - 1] = '\0';
    return PL_OK;
}

/* Read "key <int>" into *v, with v in [lo, hi]. */
static pl_status keyed_int(reader *r, const char *key, int32_t lo, int32_t hi, int32_t *v)
{
    pl_status st = next_line(r, key);
    if (st != PL_OK)
        return st;
    size_t kl = strlen(key);
    char *end;
    long x = 0;
    if (strncmp(r->line, key, kl) != 0 || r->line[kl] != ' ' ||
        (x = strtol(r->line + kl + 1, &end, 10), *end != '\0') || x < lo || x > hi)
        return pl_err(PL_EPARSE, "%s:%ld: expected '%s <integer in [%d, %d]>', got '%s'", r->path, r->lineno,
                      key, (int)lo, (int)hi, r->line);
    *v = (int32_t)x;
    return PL_OK;
}

static pl_status keyed_str(reader *r, const char *key, char **v)
{
    pl_status st = next_line(r, key);
    if (st != PL_OK)
        return st;
    size_t kl = strlen(key);
    if (strncmp(r->line, key, kl) != 0 || r->line[kl] != ' ')
        return pl_err(PL_EPARSE, "%s:%ld: expected '%s <name>', got '%s'", r->path, r->lineno, key, r->line);
    free(*v);
    *v = pl_strdup(r->line + kl + 1);
    return *v ? PL_OK : PL_ENOMEM;
}

static pl_status read_tree(reader *r, int32_t features, coloc_tree *t)
{
    int32_t nodes;
    pl_status st = keyed_int(r, "tree", 1, INT32_MAX / 2, &nodes);
    if (st != PL_OK)
        return st;
    t->feature = pl_alloc((size_t)nodes, sizeof *t->feature);
    t->threshold = pl_alloc((size_t)nodes, sizeof *t->threshold);
    t->left = pl_alloc((size_t)nodes, sizeof *t->left);
    t->right = pl_alloc((size_t)nodes, sizeof *t->right);
    t->value = pl_alloc((size_t)nodes, sizeof *t->value);
    if (!t->feature || !t->threshold || !t->left || !t->right || !t->value)
        return PL_ENOMEM;
    t->nodes = nodes;
    for (int32_t k = 0; k < nodes; k++) {
        if ((st = next_line(r, "a tree node")) != PL_OK)
            return st;
        int f, l, rt, used = 0;
        double th, v;
        if (sscanf(r->line, "%d %lf %d %d %lf%n", &f, &th, &l, &rt, &v, &used) != 5 || r->line[used] != '\0' ||
            !isfinite(th) || !isfinite(v))
            return pl_err(PL_EPARSE, "%s:%ld: expected '<feature> <threshold> <left> <right> <value>', got '%s'",
                          r->path, r->lineno, r->line);
        /* children after their parent (preorder) rules out cycles */
        int leaf = f == -1 && l == -1 && rt == -1;
        int inner = f >= 0 && f < features && l > k && l < nodes && rt > k && rt < nodes;
        if (!leaf && !inner)
            return pl_err(PL_EPARSE, "%s:%ld: node %d: feature %d or child index %d/%d out of range", r->path,
                          r->lineno, (int)k, f, l, rt);
        t->feature[k] = f;
        t->threshold[k] = th;
        t->left[k] = l;
        t->right[k] = rt;
        t->value[k] = v;
    }
    return PL_OK;
}

pl_status pl_coloc_model_load(const char *path, pl_coloc_model **out)
{
    if (!path || !out)
        return pl_err(PL_EINVAL, "pl_coloc_model_load: NULL argument");
    *out = NULL;
    reader r = { .path = path };
    r.f = fopen(path, "r");
    if (!r.f)
        return pl_err(PL_EIO, "%s: %s", path, strerror(errno));
    pl_coloc_model *m = NULL;
    int32_t version = 0, features = 0, ntrees = 0;
    char **names = NULL;
    pl_status st = keyed_int(&r, MAGIC, 0, INT32_MAX, &version);
    if (st == PL_OK && version != VERSION)
        st = pl_err(PL_EPARSE, "%s:%ld: unsupported model version %d (this library reads %d)", path, r.lineno,
                    (int)version, VERSION);
    if (st == PL_OK)
        st = keyed_int(&r, "features", 1, 1 << 20, &features);
    if (st == PL_OK) {
        names = pl_alloc((size_t)features + 1, sizeof *names);
        if (!names)
            st = PL_ENOMEM;
    }
    for (int32_t i = 0; st == PL_OK && i < features; i++)
        st = keyed_str(&r, "feature", &names[i]);
    if (st == PL_OK)
        st = keyed_str(&r, "target", &names[features]);
    if (st == PL_OK)
        st = keyed_int(&r, "trees", 1, 1 << 20, &ntrees);
    if (st == PL_OK)
        st = coloc_model_shell(features, (const char *const *)names, names[features], ntrees, &m);
    for (int32_t t = 0; st == PL_OK && t < ntrees; t++)
        st = read_tree(&r, features, &m->trees[t]);
    if (names)
        for (int32_t i = 0; i <= features; i++)
            free(names[i]);
    free(names);
    free(r.line);
    fclose(r.f);
    if (st == PL_ENOMEM)
        st = pl_err(PL_ENOMEM, "pl_coloc_model_load: out of memory");
    return PL_HAND_OUT(st, m, pl_coloc_model_free, out);
}
