/* Readable text form of a topology (pl_topology_write_text), and the output
 * helpers shared with the DOT writer. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "topology_impl.h"

/* ---- shared helpers ---------------------------------------------------------------- */

/* value / unit with at most 2 decimals, trailing zeros dropped: 40, 38.4,
 * 15.75, 12345 (never an exponent). */
static void fmt_scaled(char *buf, size_t size, int64_t value, double unit, const char *name)
{
    char num[48];
    snprintf(num, sizeof num, "%.2f", (double)value / unit);
    size_t n = strlen(num);
    while (num[n - 1] == '0')
        num[--n] = '\0';
    if (num[n - 1] == '.')
        num[--n] = '\0';
    snprintf(buf, size, "%s %s", num, name);
}

void pl_topo_fmt_bw(char *buf, size_t size, int64_t bw)
{
    if (bw >= 1000000000)
        fmt_scaled(buf, size, bw, 1e9, "GB/s");
    else if (bw >= 1000000)
        fmt_scaled(buf, size, bw, 1e6, "MB/s");
    else
        snprintf(buf, size, "%" PRId64 " B/s", bw);
}

void pl_topo_fmt_bytes(char *buf, size_t size, int64_t bytes)
{
    if (bytes >= ((int64_t)1 << 30))
        fmt_scaled(buf, size, bytes, (double)((int64_t)1 << 30), "GiB");
    else if (bytes >= ((int64_t)1 << 20))
        fmt_scaled(buf, size, bytes, (double)((int64_t)1 << 20), "MiB");
    else if (bytes >= 1024)
        fmt_scaled(buf, size, bytes, 1024.0, "KiB");
    else
        snprintf(buf, size, "%" PRId64 " B", bytes);
}

void pl_topo_printf(pl_topo_out *o, const char *fmt, ...)
{
    if (o->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    if (vfprintf(o->f, fmt, ap) < 0)
        o->failed = errno ? errno : EIO;
    va_end(ap);
}

pl_status pl_topo_out_end(pl_topo_out *o, const char *fn)
{
    errno = 0;
    if (!o->failed && (fflush(o->f) != 0 || ferror(o->f)))
        o->failed = errno ? errno : EIO;
    if (o->failed)
        return pl_err(PL_EIO, "%s: write error: %s", fn, strerror(o->failed));
    return PL_OK;
}

/* ---- the text writer ---------------------------------------------------------------- */

static void fmt_amount(char *buf, size_t size, pl_resource res, int64_t amount)
{
    if (res == PL_RES_MEMORY || res == PL_RES_GPU_MEMORY || res == PL_RES_STORAGE)
        pl_topo_fmt_bytes(buf, size, amount);
    else if (res == PL_RES_BANDWIDTH)
        pl_topo_fmt_bw(buf, size, amount);
    else
        snprintf(buf, size, "%" PRId64, amount);
}

/* "kind name [os N]  res CAP (FREE free), ..." for one vertex. */
static void write_vertex(pl_topo_out *o, const pl_topology *t, int32_t v)
{
    pl_topo_printf(o, "%*s%s %s", 2 * t->depth[v], "", pl_vertex_kind_name((pl_vertex_kind)t->kind[v]),
                   pl_topo_name(t, v));
    if (t->os_index[v] >= 0)
        pl_topo_printf(o, " [os %d]", t->os_index[v]);
    const char *sep = "  ";
    for (int r = 0; r < PL_RES_COUNT; r++) {
        int64_t cap = pl_topo_cap(t, v)[r], free_amount = cap - pl_topo_used(t, v)[r];
        /* Every GPU has 1000 milli: shown only once some are taken or the
         * capacity differs, so that the text of an unshared GPU stays short. */
        if (cap == 0 || (r == PL_RES_GPU_MILLI && cap == 1000 && free_amount == cap))
            continue;
        char c[32], f[32];
        fmt_amount(c, sizeof c, (pl_resource)r, cap);
        fmt_amount(f, sizeof f, (pl_resource)r, free_amount);
        pl_topo_printf(o, "%s%s %s (%s free)", sep, pl_resource_name((pl_resource)r), c, f);
        sep = ", ";
    }
    pl_topo_printf(o, "\n");
}

static void write_tree(pl_topo_out *o, const pl_topology *t)
{
    /* Preorder by hand rather than through pl_topology_descendants(): no
     * allocation for a cluster of hundreds of thousands of vertices. */
    for (int32_t v = t->first_root; v >= 0 && !o->failed;) {
        write_vertex(o, t, v);
        if (t->first_child[v] >= 0) {
            v = t->first_child[v];
            continue;
        }
        while (v >= 0 && t->next_sibling[v] < 0)
            v = t->parent[v];
        if (v >= 0)
            v = t->next_sibling[v];
    }
}

/* Path name of v, or "#v" if it does not fit (a pathologically deep tree). */
static const char *path_of(const pl_topology *t, int32_t v, char *buf, size_t size)
{
    if (pl_topology_path_name(t, v, buf, size) != PL_OK)
        snprintf(buf, size, "#%d", v);
    return buf;
}

static void write_links(pl_topo_out *o, const pl_topology *t)
{
    if (t->nl == 0)
        return;
    pl_topo_printf(o, "links:\n");
    char a[512], b[512], bw[32];
    for (int32_t l = 0; l < t->nl && !o->failed; l++) {
        pl_topo_printf(o, "  %s -- %s  %s", path_of(t, t->end[2 * l], a, sizeof a),
                       path_of(t, t->end[2 * l + 1], b, sizeof b),
                       pl_link_kind_name((pl_link_kind)t->lkind[l]));
        if (t->bw[l]) {
            pl_topo_fmt_bw(bw, sizeof bw, t->bw[l]);
            pl_topo_printf(o, " %s", bw);
        }
        if (t->lat[l])
            pl_topo_printf(o, " %" PRId64 " ns", t->lat[l]);
        pl_topo_printf(o, "  weight %" PRId64 "\n", t->weight[l]);
    }
}

static int digits(int64_t x)
{
    int d = x < 0 ? 2 : 1;
    for (x = x < 0 ? -x : x; x >= 10; x /= 10)
        d++;
    return d;
}

/* The k x k matrix with the GPU names as row and column headers; "-" for no path. */
static void print_matrix(pl_topo_out *o, const pl_topology *t, const int32_t *gpus, int32_t k,
                         const int64_t *m)
{
    int w = 1;
    for (int32_t i = 0; i < k; i++) {
        int len = (int)strlen(pl_topo_name(t, gpus[i]));
        w = len > w ? len : w;
    }
    int namew = w;
    for (int64_t i = 0; i < (int64_t)k * k; i++)
        w = digits(m[i]) > w ? digits(m[i]) : w;
    pl_topo_printf(o, "  %*s", namew, "");
    for (int32_t j = 0; j < k; j++)
        pl_topo_printf(o, " %*s", w, pl_topo_name(t, gpus[j]));
    pl_topo_printf(o, "\n");
    for (int32_t i = 0; i < k && !o->failed; i++) {
        pl_topo_printf(o, "  %-*s", namew, pl_topo_name(t, gpus[i]));
        for (int32_t j = 0; j < k; j++) {
            int64_t d = m[(int64_t)i * k + j];
            if (d < 0)
                pl_topo_printf(o, " %*s", w, "-");
            else
                pl_topo_printf(o, " %*" PRId64, w, d);
        }
        pl_topo_printf(o, "\n");
    }
}

/* The GPU distance matrix of machine m (GPUs in preorder), if it has GPUs. */
static pl_status write_machine_matrix(pl_topo_out *o, const pl_topology *t, pl_topo_dist *dist,
                                      int32_t m)
{
    int32_t k = 0;
    pl_status st = pl_topology_descendants(t, m, PL_VK_GPU, NULL, 0, &k);
    if (st || k == 0)
        return st;
    int32_t *gpus = pl_alloc((size_t)k, sizeof *gpus);
    int64_t *mat = gpus ? pl_alloc((size_t)k * (size_t)k, sizeof *mat) : NULL;
    if (!mat) {
        free(gpus);
        return PL_ENOMEM;
    }
    if ((st = pl_topology_descendants(t, m, PL_VK_GPU, gpus, k, &k)) == PL_OK &&
        (st = pl_topo_dist_matrix(dist, gpus, k, mat)) == PL_OK) {
        char path[512];
        pl_topo_printf(o, "gpu distances in %s:\n", path_of(t, m, path, sizeof path));
        print_matrix(o, t, gpus, k, mat);
    }
    free(mat);
    free(gpus);
    return st;
}

static pl_status write_matrices(pl_topo_out *o, const pl_topology *t)
{
    int32_t k = 0;
    pl_status st = pl_topology_descendants(t, -1, PL_VK_MACHINE, NULL, 0, &k);
    if (st || k == 0)
        return st;
    int32_t *machines = pl_alloc((size_t)k, sizeof *machines);
    if (!machines)
        return PL_ENOMEM;
    /* One search context for every machine: a fresh one per machine cost
     * O(vertices) each, 17.6 s for 16,000 machines (issue 25). */
    pl_topo_dist *dist = NULL;
    st = pl_topology_descendants(t, -1, PL_VK_MACHINE, machines, k, &k);
    if (!st)
        st = pl_topo_dist_create(t, &dist);
    for (int32_t i = 0; i < k && st == PL_OK && !o->failed; i++)
        st = write_machine_matrix(o, t, dist, machines[i]);
    pl_topo_dist_free(dist);
    free(machines);
    return st;
}

pl_status pl_topology_write_text(const pl_topology *t, FILE *f)
{
    if (!t || !f)
        return pl_err(PL_EINVAL, "pl_topology_write_text: NULL argument");
    pl_topo_out o = {f, 0};
    write_tree(&o, t);
    write_links(&o, t);
    pl_status st = write_matrices(&o, t);
    pl_status io = pl_topo_out_end(&o, "pl_topology_write_text");
    return io ? io : st;
}
