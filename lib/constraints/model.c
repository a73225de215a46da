/* Constraint sets: units, filters, affinities; classes and conflicts
 * (thesis ch. 4 sec. 2.1-2.2); the assignment checker. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/constraints_impl.h"
#include "internal/columns.h"

/* Tolerance on capacity sums: demands are doubles (e.g. 0.1 cores). */
#define CAP_EPS 1e-9

/* Arrays per unit (one more, so that none is empty), and those resolve()
 * derives per unit and per class; invalidate() drops the derived ones. */
static const pl_column unit_cols[] = {PL_COLUMN(pl_constraints, cores), PL_COLUMN(pl_constraints, mem_gb)};
static const pl_column class_unit_cols[] = {PL_COLUMN(pl_constraints, class_of),
                                            PL_COLUMN(pl_constraints, first_unit)};
static const pl_column class_cols[] = {
    PL_COLUMN(pl_constraints, class_cores), PL_COLUMN(pl_constraints, class_mem),
    PL_COLUMN(pl_constraints, anti),        PL_COLUMN(pl_constraints, anti_n),
};

pl_status pl_constraints_create(int32_t units, pl_constraints **out)
{
    if (!out || units < 0)
        return pl_err(PL_EINVAL, "pl_constraints_create: NULL out or units %d < 0", units);
    pl_constraints *c = pl_alloc(1, sizeof *c);
    if (!c)
        return PL_ENOMEM;
    c->units = units;
    pl_status st = pl_columns_alloc(c, unit_cols, PL_NCOLUMNS(unit_cols), (int64_t)units + 1);
    return PL_HAND_OUT(st, c, pl_constraints_free, out);
}

void pl_constraints_invalidate(pl_constraints *c)
{
    for (int32_t k = 0; c->anti && k < c->nclasses; k++)
        free(c->anti[k]);
    pl_columns_free(c, class_unit_cols, PL_NCOLUMNS(class_unit_cols));
    pl_columns_free(c, class_cols, PL_NCOLUMNS(class_cols));
    free(c->allowed);
    free(c->conflicts);
    c->allowed = NULL;
    c->conflicts = NULL;
    c->nclasses = c->nconflicts = 0;
    c->resolved = 0;
}

/* The constraint lists (each its own length). */
static const pl_column list_cols[] = {PL_COLUMN(pl_constraints, filters), PL_COLUMN(pl_constraints, coloc),
                                      PL_COLUMN(pl_constraints, sep)};

void pl_constraints_free(pl_constraints *c)
{
    if (!c)
        return;
    pl_constraints_invalidate(c);
    for (int64_t i = 0; i < c->nfilters; i++) {
        free(c->filters[i].key);
        free(c->filters[i].value);
        free(c->filters[i].set);
    }
    pl_columns_free(c, list_cols, PL_NCOLUMNS(list_cols));
    pl_columns_free(c, unit_cols, PL_NCOLUMNS(unit_cols));
    free(c);
}

int32_t pl_constraints_unit_count(const pl_constraints *c)
{
    return c ? c->units : 0;
}

static int bad_unit(const pl_constraints *c, int32_t u)
{
    return !c || u < 0 || u >= c->units;
}

pl_status pl_constraints_set_demand(pl_constraints *c, int32_t unit, double cores, double mem_gb)
{
    if (bad_unit(c, unit))
        return pl_err(PL_EINVAL, "pl_constraints_set_demand: bad unit %d", unit);
    if (!(cores >= 0) || !(mem_gb >= 0) || !isfinite(cores) || !isfinite(mem_gb))
        return pl_err(PL_EINVAL, "pl_constraints_set_demand: unit %d demand %g cores, %g GB "
                      "must be finite and >= 0", unit, cores, mem_gb);
    pl_constraints_invalidate(c);
    c->cores[unit] = cores;
    c->mem_gb[unit] = mem_gb;
    return PL_OK;
}

static pl_status add_filter(pl_constraints *c, int32_t unit, const char *key, const char *value,
                            int negate)
{
    if (bad_unit(c, unit) || !key || !*key || !value || !*value)
        return pl_err(PL_EINVAL, "node filter: bad unit %d or empty key/value", unit);
    pl_status st = pl_grow((void **)&c->filters, &c->cap_filters, c->nfilters + 1, sizeof *c->filters);
    if (st != PL_OK)
        return st;
    cfilter f = { unit, negate, pl_strdup(key), pl_strdup(value), NULL, 0 };
    if (!f.key || !f.value) {
        free(f.key);
        free(f.value);
        return PL_ENOMEM;
    }
    pl_constraints_invalidate(c);
    c->filters[c->nfilters++] = f;
    return PL_OK;
}

pl_status pl_constraints_node_set(pl_constraints *c, int32_t unit, const uint8_t *set, int32_t nset,
                                  const char *label)
{
    if (bad_unit(c, unit) || nset < 0 || (nset > 0 && !set) || !label || !*label)
        return pl_err(PL_EINVAL, "node set: bad unit %d, set or label", unit);
    pl_status st = pl_grow((void **)&c->filters, &c->cap_filters, c->nfilters + 1, sizeof *c->filters);
    if (st != PL_OK)
        return st;
    cfilter f = { unit, 0, pl_strdup(label), pl_strdup(""), pl_alloc((size_t)nset + 1, 1), nset };
    if (!f.key || !f.value || !f.set) {
        free(f.key);
        free(f.value);
        free(f.set);
        return PL_ENOMEM;
    }
    if (nset > 0)
        memcpy(f.set, set, (size_t)nset);
    pl_constraints_invalidate(c);
    c->filters[c->nfilters++] = f;
    return PL_OK;
}

pl_status pl_constraints_node_must(pl_constraints *c, int32_t unit, const char *key, const char *value)
{
    return add_filter(c, unit, key, value, 0);
}

pl_status pl_constraints_node_must_not(pl_constraints *c, int32_t unit, const char *key,
                                       const char *value)
{
    return add_filter(c, unit, key, value, 1);
}

static pl_status add_pair(pl_constraints *c, cpair **v, int64_t *n, int64_t *cap, int32_t a, int32_t b)
{
    if (bad_unit(c, a) || bad_unit(c, b))
        return pl_err(PL_EINVAL, "unit pair (%d, %d): bad unit", a, b);
    pl_status st = pl_grow((void **)v, cap, *n + 1, sizeof **v);
    if (st != PL_OK)
        return st;
    pl_constraints_invalidate(c);
    (*v)[(*n)++] = (cpair){ a, b };
    return PL_OK;
}

pl_status pl_constraints_colocate(pl_constraints *c, int32_t a, int32_t b)
{
    return add_pair(c, &c->coloc, &c->ncoloc, &c->cap_coloc, a, b);
}

pl_status pl_constraints_separate(pl_constraints *c, int32_t a, int32_t b)
{
    return add_pair(c, &c->sep, &c->nsep, &c->cap_sep, a, b);
}

/* ---- resolve ------------------------------------------------------------------ */

static int32_t uf_find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Classes numbered in order of their lowest unit; returns the class count. */
static int32_t build_classes(pl_constraints *c, int32_t *parent)
{
    for (int32_t u = 0; u < c->units; u++)
        parent[u] = u;
    for (int64_t i = 0; i < c->ncoloc; i++) {
        int32_t ra = uf_find(parent, c->coloc[i].a), rb = uf_find(parent, c->coloc[i].b);
        /* The smaller root wins, so each root is its class's lowest unit. */
        if (ra < rb)
            parent[rb] = ra;
        else if (rb < ra)
            parent[ra] = rb;
    }
    int32_t k = 0;
    for (int32_t u = 0; u < c->units; u++) {
        int32_t r = uf_find(parent, u);
        if (r == u) {
            c->first_unit[k] = u;
            c->class_of[u] = k++;
        } else {
            c->class_of[u] = c->class_of[r];
        }
    }
    return k;
}

static pl_status add_anti(pl_constraints *c, int32_t k, int32_t other)
{
    for (int32_t i = 0; i < c->anti_n[k]; i++)
        if (c->anti[k][i] == other)
            return PL_OK;
    int32_t *v = pl_realloc_array(c->anti[k], (size_t)c->anti_n[k] + 1, sizeof *v);
    if (!v)
        return PL_ENOMEM;
    v[c->anti_n[k]++] = other;
    c->anti[k] = v;
    return PL_OK;
}

static pl_status add_conflict(pl_constraints *c, pl_conflict_kind kind, int32_t k, int32_t a, int32_t b)
{
    pl_conflict *v = pl_realloc_array(c->conflicts, (size_t)c->nconflicts + 1, sizeof *v);
    if (!v)
        return PL_ENOMEM;
    v[c->nconflicts++] = (pl_conflict){ kind, k, a, b };
    c->conflicts = v;
    return PL_OK;
}

/* Node sets by intersection; the filter that empties a set is the one reported. */
static pl_status apply_filters(pl_constraints *c, const pl_cnodes *nodes)
{
    int32_t nn = c->nnodes;
    int32_t *emptied_by = pl_alloc((size_t)c->nclasses + 1, sizeof *emptied_by);
    if (!emptied_by)
        return PL_ENOMEM;
    for (int32_t k = 0; k < c->nclasses; k++)
        emptied_by[k] = -1;
    memset(c->allowed, 1, (size_t)c->nclasses * (size_t)nn);
    for (int64_t i = 0; i < c->nfilters; i++) {
        int32_t k = c->class_of[c->filters[i].unit];
        int any = 0;
        for (int32_t n = 0; n < nn; n++) {
            char *a = &c->allowed[(size_t)k * (size_t)nn + (size_t)n];
            if (*a && !pl_cfilter_matches(nodes, n, &c->filters[i]))
                *a = 0;
            any |= *a;
        }
        if (!any && emptied_by[k] < 0)
            emptied_by[k] = (int32_t)i;
    }
    pl_status st = PL_OK;
    for (int32_t k = 0; k < c->nclasses && st == PL_OK; k++)
        if (emptied_by[k] >= 0 || nn == 0)
            st = add_conflict(c, PL_CONFLICT_NO_NODE, k,
                              emptied_by[k] >= 0 ? c->filters[emptied_by[k]].unit : c->first_unit[k], -1);
    free(emptied_by);
    return st;
}

static pl_status find_too_big(pl_constraints *c, const pl_cnodes *nodes)
{
    for (int32_t k = 0; k < c->nclasses; k++) {
        int has_node = 0, fits = 0;
        for (int32_t n = 0; n < c->nnodes; n++) {
            if (!c->allowed[(size_t)k * (size_t)c->nnodes + (size_t)n])
                continue;
            has_node = 1;
            if (c->class_cores[k] <= nodes->v[n].cores + CAP_EPS &&
                c->class_mem[k] <= nodes->v[n].mem_gb + CAP_EPS)
                fits = 1;
        }
        if (has_node && !fits) {
            pl_status st = add_conflict(c, PL_CONFLICT_TOO_BIG, k, c->first_unit[k], -1);
            if (st != PL_OK)
                return st;
        }
    }
    return PL_OK;
}

/* Names the constraints behind each conflict: the class's filters, the
 * separated pair, or the demand against the largest allowed node. */
static void describe_conflicts(const pl_constraints *c, const pl_cnodes *nodes, char *buf, size_t cap)
{
    size_t len = 0;
    pl_appendf(buf, cap, &len, "%d constraint conflict(s):", c->nconflicts);
    for (int32_t i = 0; i < c->nconflicts; i++) {
        const pl_conflict *f = &c->conflicts[i];
        int32_t k = f->cls;
        pl_appendf(buf, cap, &len, " [class %d (unit %d)", k, c->first_unit[k]);
        if (f->kind == PL_CONFLICT_NO_NODE) {
            pl_appendf(buf, cap, &len, " no node satisfies:");
            for (int64_t q = 0; q < c->nfilters; q++)
                if (c->class_of[c->filters[q].unit] == k && c->filters[q].set)
                    pl_appendf(buf, cap, &len, " unit %d %s;", c->filters[q].unit, c->filters[q].key);
                else if (c->class_of[c->filters[q].unit] == k)
                    pl_appendf(buf, cap, &len, " unit %d %s %s=%s;", c->filters[q].unit,
                            c->filters[q].negate ? "must-not" : "must", c->filters[q].key,
                            c->filters[q].value);
        } else if (f->kind == PL_CONFLICT_SELF_ANTI) {
            pl_appendf(buf, cap, &len, " units %d and %d must share a node (affinity) and must not "
                    "(anti-affinity)", f->unit_a, f->unit_b);
        } else {
            double best = -1;
            for (int32_t n = 0; n < c->nnodes; n++)
                if (c->allowed[(size_t)k * (size_t)c->nnodes + (size_t)n] && nodes->v[n].cores > best)
                    best = nodes->v[n].cores;
            pl_appendf(buf, cap, &len, " demand %g cores, %g GB exceeds every allowed node "
                    "(largest %g cores)", c->class_cores[k], c->class_mem[k], best);
        }
        pl_appendf(buf, cap, &len, "]");
    }
}

pl_status pl_constraints_resolve(pl_constraints *c, const pl_cnodes *nodes)
{
    if (!c || !nodes)
        return pl_err(PL_EINVAL, "pl_constraints_resolve: NULL argument");
    pl_constraints_invalidate(c);
    size_t U = (size_t)c->units + 1;
    c->nnodes = (int32_t)nodes->n;
    int32_t *parent = pl_alloc(U, sizeof *parent);
    if (!parent || pl_columns_alloc(c, class_unit_cols, PL_NCOLUMNS(class_unit_cols), (int64_t)U))
        goto nomem;
    c->nclasses = build_classes(c, parent);
    free(parent);
    parent = NULL;
    size_t K = (size_t)c->nclasses + 1;
    if (pl_columns_alloc(c, class_cols, PL_NCOLUMNS(class_cols), (int64_t)K) ||
        !(c->allowed = pl_alloc(K * ((size_t)c->nnodes + 1), 1)))
        goto nomem;
    for (int32_t u = 0; u < c->units; u++) {
        c->class_cores[c->class_of[u]] += c->cores[u];
        c->class_mem[c->class_of[u]] += c->mem_gb[u];
    }
    if (apply_filters(c, nodes) != PL_OK)
        goto nomem;
    for (int64_t i = 0; i < c->nsep; i++) {
        int32_t ka = c->class_of[c->sep[i].a], kb = c->class_of[c->sep[i].b];
        pl_status st = ka == kb ? add_conflict(c, PL_CONFLICT_SELF_ANTI, ka, c->sep[i].a, c->sep[i].b)
                                : add_anti(c, ka, kb);
        if (st == PL_OK && ka != kb)
            st = add_anti(c, kb, ka);
        if (st != PL_OK)
            goto nomem;
    }
    if (find_too_big(c, nodes) != PL_OK)
        goto nomem;
    c->resolved = 1;
    if (c->nconflicts > 0) {
        char buf[2048];
        describe_conflicts(c, nodes, buf, sizeof buf);
        return pl_err(PL_EINFEASIBLE, "%s", buf);
    }
    return PL_OK;
nomem:
    free(parent);
    pl_constraints_invalidate(c);
    return PL_ENOMEM;
}

int32_t pl_constraints_class_count(const pl_constraints *c)
{
    return c && c->resolved ? c->nclasses : -1;
}

int32_t pl_constraints_class_of(const pl_constraints *c, int32_t unit)
{
    return c && c->resolved && !bad_unit(c, unit) ? c->class_of[unit] : -1;
}

int pl_constraints_node_allowed(const pl_constraints *c, int32_t unit, int32_t node)
{
    if (!c || !c->resolved || bad_unit(c, unit) || node < 0 || node >= c->nnodes)
        return 0;
    return c->allowed[(size_t)c->class_of[unit] * (size_t)c->nnodes + (size_t)node];
}

int32_t pl_constraints_conflict_count(const pl_constraints *c)
{
    return c && c->resolved ? c->nconflicts : -1;
}

pl_status pl_constraints_conflict(const pl_constraints *c, int32_t i, pl_conflict *out)
{
    if (!c || !out)
        return pl_err(PL_EINVAL, "pl_constraints_conflict: NULL argument");
    if (!c->resolved)
        return pl_err(PL_ESTATE, "pl_constraints_conflict: no resolve yet");
    if (i < 0 || i >= c->nconflicts)
        return pl_err(PL_EINVAL, "pl_constraints_conflict: index %d of %d", i, c->nconflicts);
    *out = c->conflicts[i];
    return PL_OK;
}

/* ---- checker ------------------------------------------------------------------------ */

static pl_status check_capacity(const pl_constraints *c, const pl_cnodes *nodes, const int32_t *assign)
{
    int32_t nn = (int32_t)nodes->n;
    double *used = pl_alloc(2 * (size_t)nn + 1, sizeof *used);
    if (!used)
        return PL_ENOMEM;
    for (int32_t u = 0; u < c->units; u++)
        if (assign[u] >= 0) {
            used[2 * assign[u]] += c->cores[u];
            used[2 * assign[u] + 1] += c->mem_gb[u];
        }
    pl_status st = PL_OK;
    for (int32_t n = 0; n < nn && st == PL_OK; n++)
        if (used[2 * n] > nodes->v[n].cores + CAP_EPS || used[2 * n + 1] > nodes->v[n].mem_gb + CAP_EPS)
            st = pl_err(PL_EVERIFY, "capacity: node %d holds %g cores, %g GB; has %g cores, %g GB",
                        n, used[2 * n], used[2 * n + 1], nodes->v[n].cores, nodes->v[n].mem_gb);
    free(used);
    return st;
}

pl_status pl_constraints_check(const pl_constraints *c, const pl_cnodes *nodes, const int32_t *assign)
{
    if (!c || !nodes || !assign)
        return pl_err(PL_EINVAL, "pl_constraints_check: NULL argument");
    for (int32_t u = 0; u < c->units; u++)
        if (assign[u] < -1 || assign[u] >= nodes->n)
            return pl_err(PL_EINVAL, "pl_constraints_check: unit %d on node %d of %lld", u,
                          assign[u], (long long)nodes->n);
    for (int64_t i = 0; i < c->nfilters; i++) {
        const cfilter *f = &c->filters[i];
        if (assign[f->unit] >= 0 && !pl_cfilter_matches(nodes, assign[f->unit], f) && f->set)
            return pl_err(PL_EVERIFY, "unit %d: %s excludes node %d", f->unit, f->key, assign[f->unit]);
        if (assign[f->unit] >= 0 && !pl_cfilter_matches(nodes, assign[f->unit], f)) {
            const char *v = pl_cnodes_attr(nodes, assign[f->unit], f->key);
            return pl_err(PL_EVERIFY, "unit %d %s %s=%s but node %d has %s=%s", f->unit,
                          f->negate ? "must-not" : "must", f->key, f->value, assign[f->unit],
                          f->key, v ? v : "(absent)");
        }
    }
    for (int64_t i = 0; i < c->ncoloc; i++) {
        int32_t a = c->coloc[i].a, b = c->coloc[i].b;
        if (assign[a] >= 0 && assign[b] >= 0 && assign[a] != assign[b])
            return pl_err(PL_EVERIFY, "affinity: units %d and %d must share a node; on %d and %d",
                          a, b, assign[a], assign[b]);
    }
    for (int64_t i = 0; i < c->nsep; i++) {
        int32_t a = c->sep[i].a, b = c->sep[i].b;
        if (assign[a] >= 0 && assign[a] == assign[b])
            return pl_err(PL_EVERIFY, "anti-affinity: units %d and %d both on node %d", a, b, assign[a]);
    }
    return check_capacity(c, nodes, assign);
}

pl_status pl_constraints_metrics(const pl_constraints *c, const pl_cnodes *nodes,
                                 const int32_t *assign, int32_t *active_nodes, double *cpu_sigma)
{
    if (!c || !nodes || !assign)
        return pl_err(PL_EINVAL, "pl_constraints_metrics: NULL argument");
    int32_t nn = (int32_t)nodes->n;
    double *used = pl_alloc((size_t)nn + 1, sizeof *used);
    char *active = pl_alloc((size_t)nn + 1, 1);
    if (!used || !active) {
        free(used);
        free(active);
        return PL_ENOMEM;
    }
    pl_status st = PL_OK;
    for (int32_t u = 0; u < c->units && st == PL_OK; u++) {
        if (assign[u] < -1 || assign[u] >= nn)
            st = pl_err(PL_EINVAL, "pl_constraints_metrics: unit %d on node %d", u, assign[u]);
        else if (assign[u] >= 0) {
            used[assign[u]] += c->cores[u];
            active[assign[u]] = 1;
        }
    }
    if (st == PL_OK) {
        int32_t na = 0;
        double sum = 0, sq = 0;
        for (int32_t n = 0; n < nn; n++) {
            double util = nodes->v[n].cores > 0 ? used[n] / nodes->v[n].cores : 0;
            na += active[n];
            sum += util;
            sq += util * util;
        }
        double mean = nn ? sum / nn : 0;
        double var = nn ? sq / nn - mean * mean : 0;
        if (active_nodes)
            *active_nodes = na;
        if (cpu_sigma)
            *cpu_sigma = var > 0 ? sqrt(var) : 0;
    }
    free(used);
    free(active);
    return st;
}
