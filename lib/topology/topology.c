/* pl_topology: life cycle, building, names, allocation and snapshots. The
 * graph queries are in query.c, loaders and writers in their own files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "topology_impl.h"

static const char *const vk_names[PL_VK_COUNT] = {
    "cluster", "rack", "machine", "package", "numa", "pci-switch",
    "nvswitch", "core", "gpu", "nic", "storage", "pool",
};
static const int vk_level[PL_VK_COUNT] = {5, 4, 3, 2, 1, 1, 1, 0, 0, 0, 0, 5};
static const int64_t level_weight[6] = {1, 1, 20, 40, 80, 160};
static const char *const lk_names[PL_LK_COUNT] = {
    "nvlink", "nvswitch", "pcie", "intersocket", "memory", "network", "nvmeof", "board",
};
static const char *const res_names[PL_RES_COUNT] = {
    "units", "cores", "memory", "gpu-memory", "bandwidth", "storage", "gpu-milli",
};

const char *pl_vertex_kind_name(pl_vertex_kind kind)
{
    return (unsigned)kind < PL_VK_COUNT ? vk_names[kind] : "?";
}

const char *pl_link_kind_name(pl_link_kind kind)
{
    return (unsigned)kind < PL_LK_COUNT ? lk_names[kind] : "?";
}

const char *pl_resource_name(pl_resource res)
{
    return (unsigned)res < PL_RES_COUNT ? res_names[res] : "?";
}

static pl_status parse_name(const char *name, const char *const *names, int count, int *out,
                            const char *what)
{
    if (!name || !out)
        return pl_err(PL_EINVAL, "parsing a %s name: NULL argument", what);
    for (int i = 0; i < count; i++)
        if (!strcmp(name, names[i])) {
            *out = i;
            return PL_OK;
        }
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; i < count && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
    return pl_err(PL_ENOTFOUND, "unknown %s '%s' (expected one of: %s)", what, name, list);
}

pl_status pl_vertex_kind_parse(const char *name, pl_vertex_kind *kind)
{
    int k = 0;
    pl_status st = parse_name(name, vk_names, PL_VK_COUNT, &k, "vertex kind");
    if (st == PL_OK)
        *kind = (pl_vertex_kind)k;
    return st;
}

pl_status pl_link_kind_parse(const char *name, pl_link_kind *kind)
{
    int k = 0;
    pl_status st = parse_name(name, lk_names, PL_LK_COUNT, &k, "link kind");
    if (st == PL_OK)
        *kind = (pl_link_kind)k;
    return st;
}

pl_status pl_resource_parse(const char *name, pl_resource *res)
{
    int k = 0;
    pl_status st = parse_name(name, res_names, PL_RES_COUNT, &k, "resource");
    if (st == PL_OK)
        *res = (pl_resource)k;
    return st;
}

int pl_vertex_kind_level(pl_vertex_kind kind)
{
    return (unsigned)kind < PL_VK_COUNT ? vk_level[kind] : -1;
}

int64_t pl_link_default_weight(pl_vertex_kind a, pl_vertex_kind b)
{
    int la = pl_vertex_kind_level(a), lb = pl_vertex_kind_level(b);
    if (la < 0 || lb < 0)
        return -1;
    return level_weight[la < lb ? la : lb];
}

/* ---- life cycle ------------------------------------------------------------ */

pl_status pl_topology_create(pl_topology **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_topology_create: out is NULL");
    *out = NULL;
    pl_topology *t = pl_alloc(1, sizeof *t);
    if (!t)
        return PL_ENOMEM;
    t->first_root = t->last_root = -1;
    *out = t;
    return PL_OK;
}

void pl_topology_free(pl_topology *t)
{
    if (!t)
        return;
    pl_columns_free(t, pl_topo_vertex_cols, pl_topo_nvertex_cols);
    pl_columns_free(t, pl_topo_link_cols, pl_topo_nlink_cols);
    free(t->names);
    pl_topo_free_attrs(t);
    free(t);
}

const pl_column pl_topo_vertex_cols[] = {
    PL_COLUMN(pl_topology, kind),        PL_COLUMN(pl_topology, parent),
    PL_COLUMN(pl_topology, depth),       PL_COLUMN(pl_topology, os_index),
    PL_COLUMN(pl_topology, first_child), PL_COLUMN(pl_topology, last_child),
    PL_COLUMN(pl_topology, next_sibling), PL_COLUMN(pl_topology, name_off),
    PL_COLUMN_N(pl_topology, cap, PL_RES_COUNT), PL_COLUMN_N(pl_topology, used, PL_RES_COUNT),
    PL_COLUMN(pl_topology, first_inc),   PL_COLUMN(pl_topology, last_inc),
};
const size_t pl_topo_nvertex_cols = PL_NCOLUMNS(pl_topo_vertex_cols);

const pl_column pl_topo_link_cols[] = {
    PL_COLUMN_N(pl_topology, end, 2), PL_COLUMN_N(pl_topology, next_inc, 2),
    PL_COLUMN(pl_topology, lkind),    PL_COLUMN(pl_topology, bw),
    PL_COLUMN(pl_topology, lat),      PL_COLUMN(pl_topology, weight),
};
const size_t pl_topo_nlink_cols = PL_NCOLUMNS(pl_topo_link_cols);

/* Per vertex too, but attrs.c owns it and a clone rebuilds it. */
static const pl_column attr_head_col[] = {PL_COLUMN(pl_topology, attr_head)};
static const pl_column names_col[] = {PL_COLUMN(pl_topology, names)};

pl_status pl_topo_reserve(pl_topology *t, int64_t vertices, int64_t links, int64_t name_bytes)
{
    pl_status st = PL_OK;
    int64_t nv = (int64_t)t->n + vertices, nl = (int64_t)t->nl + links;
    if (nv > PL_TOPO_MAX || nl > PL_TOPO_MAX / 2)
        return pl_err(PL_EINVAL, "topology: more than %d vertices or %d links", PL_TOPO_MAX,
                      PL_TOPO_MAX / 2);
    /* Arrays grown before a failure stay larger: harmless, the capacity is unchanged. */
    if (nv > t->vcap) {
        int64_t c = pl_next_cap(t->vcap, nv);
        if ((st = pl_columns_grow(t, pl_topo_vertex_cols, pl_topo_nvertex_cols, t->vcap, c)) ||
            (st = pl_columns_grow(t, attr_head_col, 1, t->vcap, c)))
            return st;
        t->vcap = c;
    }
    if (nl > t->lcap) {
        int64_t c = pl_next_cap(t->lcap, nl);
        if ((st = pl_columns_grow(t, pl_topo_link_cols, pl_topo_nlink_cols, t->lcap, c)))
            return st;
        t->lcap = c;
    }
    if (t->names_len + name_bytes > t->names_cap) {
        int64_t c = pl_next_cap(t->names_cap, t->names_len + name_bytes);
        if ((st = pl_columns_grow(t, names_col, 1, t->names_cap, c)))
            return st;
        t->names_cap = c;
    }
    return PL_OK;
}

pl_status pl_topo_check_vertex(const pl_topology *t, int32_t v, const char *fn)
{
    if (!t)
        return pl_err(PL_EINVAL, "%s: topology is NULL", fn);
    if (v < 0 || v >= t->n)
        return pl_err(PL_EINVAL, "%s: vertex %d out of range (topology has %d)", fn, v, t->n);
    return PL_OK;
}

/* ---- building ------------------------------------------------------------------ */

pl_status pl_topology_add_vertex(pl_topology *t, pl_vertex_kind kind, int32_t parent,
                                 const char *name, int32_t os_index, int32_t *id)
{
    if (!t)
        return pl_err(PL_EINVAL, "pl_topology_add_vertex: topology is NULL");
    if ((unsigned)kind >= PL_VK_COUNT)
        return pl_err(PL_EINVAL, "pl_topology_add_vertex: bad vertex kind %d", (int)kind);
    if (parent < -1 || parent >= t->n)
        return pl_err(PL_EINVAL, "pl_topology_add_vertex: parent %d out of range", parent);
    char buf[32];
    if (!name) {
        if (os_index >= 0)
            snprintf(buf, sizeof buf, "%s%d", vk_names[kind], os_index);
        else
            snprintf(buf, sizeof buf, "%s", vk_names[kind]);
        name = buf;
    }
    if (strchr(name, '/'))
        return pl_err(PL_EINVAL, "pl_topology_add_vertex: name '%s' contains '/'", name);
    int64_t len = (int64_t)strlen(name) + 1;
    pl_status st = pl_topo_reserve(t, 1, 0, len);
    if (st)
        return st;
    int32_t v = t->n++;
    t->kind[v] = (uint8_t)kind;
    t->parent[v] = parent;
    t->depth[v] = parent < 0 ? 0 : t->depth[parent] + 1;
    t->os_index[v] = os_index < -1 ? -1 : os_index;
    t->first_child[v] = t->last_child[v] = t->next_sibling[v] = -1;
    t->first_inc[v] = t->last_inc[v] = -1;
    t->attr_head[v] = 0;
    memset(pl_topo_cap(t, v), 0, PL_RES_COUNT * sizeof(int64_t));
    memset(pl_topo_used(t, v), 0, PL_RES_COUNT * sizeof(int64_t));
    /* Every GPU can be shared by thousandths unless its owner says not
     * (capacity 0): what a Kubernetes user of GPU sharing expects. */
    if (kind == PL_VK_GPU)
        pl_topo_cap(t, v)[PL_RES_GPU_MILLI] = 1000;
    t->name_off[v] = t->names_len;
    memcpy(t->names + t->names_len, name, (size_t)len);
    t->names_len += len;
    int32_t *first = parent < 0 ? &t->first_root : &t->first_child[parent];
    int32_t *last = parent < 0 ? &t->last_root : &t->last_child[parent];
    if (*last < 0)
        *first = v;
    else
        t->next_sibling[*last] = v;
    *last = v;
    if (id)
        *id = v;
    return PL_OK;
}

pl_status pl_topology_set_capacity(pl_topology *t, int32_t v, pl_resource res, int64_t amount)
{
    pl_status st = pl_topo_check_vertex(t, v, "pl_topology_set_capacity");
    if (st)
        return st;
    if ((unsigned)res >= PL_RES_COUNT)
        return pl_err(PL_EINVAL, "pl_topology_set_capacity: bad resource %d", (int)res);
    if (amount < 0)
        return pl_err(PL_EINVAL, "pl_topology_set_capacity: negative amount %lld", (long long)amount);
    if (amount < pl_topo_used(t, v)[res])
        return pl_err(PL_EINVAL,
                      "pl_topology_set_capacity: %s '%s': capacity %lld of %s is below the %lld allocated",
                      vk_names[t->kind[v]], pl_topo_name(t, v), (long long)amount, res_names[res],
                      (long long)pl_topo_used(t, v)[res]);
    pl_topo_cap(t, v)[res] = amount;
    return PL_OK;
}

static void link_half(pl_topology *t, int32_t h, int32_t v)
{
    t->end[h] = v;
    t->next_inc[h] = -1;
    if (t->last_inc[v] < 0)
        t->first_inc[v] = h;
    else
        t->next_inc[t->last_inc[v]] = h;
    t->last_inc[v] = h;
}

pl_status pl_topology_add_link(pl_topology *t, int32_t a, int32_t b, pl_link_kind kind,
                               int64_t bw, int64_t latency_ns, int64_t weight, int32_t *id)
{
    pl_status st;
    if ((st = pl_topo_check_vertex(t, a, "pl_topology_add_link")) ||
        (st = pl_topo_check_vertex(t, b, "pl_topology_add_link")))
        return st;
    if (a == b)
        return pl_err(PL_EINVAL, "pl_topology_add_link: both ends are vertex %d", a);
    if ((unsigned)kind >= PL_LK_COUNT)
        return pl_err(PL_EINVAL, "pl_topology_add_link: bad link kind %d", (int)kind);
    if (bw < 0 || latency_ns < 0 || weight < 0)
        return pl_err(PL_EINVAL, "pl_topology_add_link: negative bandwidth, latency or weight");
    if ((st = pl_topo_reserve(t, 0, 1, 0)))
        return st;
    int32_t l = t->nl++;
    t->lkind[l] = (uint8_t)kind;
    t->bw[l] = bw;
    t->lat[l] = latency_ns;
    t->weight[l] = weight ? weight
                          : pl_link_default_weight((pl_vertex_kind)t->kind[a], (pl_vertex_kind)t->kind[b]);
    link_half(t, 2 * l, a);
    link_half(t, 2 * l + 1, b);
    if (id)
        *id = l;
    return PL_OK;
}

static pl_status check_link(const pl_topology *t, int32_t l, const char *fn)
{
    if (!t)
        return pl_err(PL_EINVAL, "%s: topology is NULL", fn);
    if (l < 0 || l >= t->nl)
        return pl_err(PL_EINVAL, "%s: link %d out of range (topology has %d)", fn, l, t->nl);
    return PL_OK;
}

pl_status pl_topology_set_link_weight(pl_topology *t, int32_t l, int64_t weight)
{
    pl_status st = check_link(t, l, "pl_topology_set_link_weight");
    if (st)
        return st;
    if (weight <= 0)
        return pl_err(PL_EINVAL, "pl_topology_set_link_weight: weight %lld is not > 0", (long long)weight);
    t->weight[l] = weight;
    return PL_OK;
}

pl_status pl_topology_set_link_bandwidth(pl_topology *t, int32_t l, int64_t bw)
{
    pl_status st = check_link(t, l, "pl_topology_set_link_bandwidth");
    if (st)
        return st;
    if (bw < 0)
        return pl_err(PL_EINVAL, "pl_topology_set_link_bandwidth: negative bandwidth");
    t->bw[l] = bw;
    return PL_OK;
}

pl_status pl_topology_graft(pl_topology *dst, int32_t parent, const pl_topology *src, int32_t *first)
{
    if (!dst || !src)
        return pl_err(PL_EINVAL, "pl_topology_graft: NULL topology");
    if (dst == src)
        return pl_err(PL_EINVAL, "pl_topology_graft: source and destination are the same topology");
    if (parent < -1 || parent >= dst->n)
        return pl_err(PL_EINVAL, "pl_topology_graft: parent %d out of range", parent);
    pl_status st = pl_topo_reserve(dst, src->n, src->nl, src->names_len);
    if (st)
        return st;
    /* Attributes first: they are the one part that can still fail, and
     * nothing of dst has changed yet. */
    if ((st = pl_topo_stage_attrs(dst, src)))
        return st;
    /* Copy vertex by vertex through add_vertex so the child and sibling lists
     * are built by the same code; src's parents precede their children. */
    const int32_t base = dst->n;
    for (int32_t v = 0; v < src->n; v++) {
        int32_t p = src->parent[v] < 0 ? parent : base + src->parent[v];
        st = pl_topology_add_vertex(dst, (pl_vertex_kind)src->kind[v], p, pl_topo_name(src, v),
                                    src->os_index[v], NULL);
        if (st) /* cannot fail after the reservation; kept for safety */
            return st;
        memcpy(pl_topo_cap(dst, base + v), pl_topo_cap(src, v), PL_RES_COUNT * sizeof(int64_t));
        memcpy(pl_topo_used(dst, base + v), pl_topo_used(src, v), PL_RES_COUNT * sizeof(int64_t));
    }
    pl_topo_link_staged_attrs(dst, base, src);
    for (int32_t l = 0; l < src->nl; l++) {
        st = pl_topology_add_link(dst, base + src->end[2 * l], base + src->end[2 * l + 1],
                                  (pl_link_kind)src->lkind[l], src->bw[l], src->lat[l],
                                  src->weight[l], NULL);
        if (st)
            return st;
    }
    if (first)
        *first = base;
    return PL_OK;
}

pl_status pl_topology_copy(const pl_topology *t, pl_topology **out)
{
    if (!t || !out)
        return pl_err(PL_EINVAL, "pl_topology_copy: NULL argument");
    *out = NULL;
    pl_topology *c;
    pl_status st = pl_topology_create(&c);
    if (st == PL_OK && (st = pl_topology_graft(c, -1, t, NULL)) != PL_OK) {
        pl_topology_free(c);
        return st;
    }
    if (st == PL_OK)
        *out = c;
    return st;
}

/* ---- plain queries ---------------------------------------------------------------- */

int32_t pl_topology_vertex_count(const pl_topology *t)
{
    return t ? t->n : 0;
}

int32_t pl_topology_link_count(const pl_topology *t)
{
    return t ? t->nl : 0;
}

pl_status pl_topology_vertex(const pl_topology *t, int32_t v, pl_vertex_info *info)
{
    pl_status st = pl_topo_check_vertex(t, v, "pl_topology_vertex");
    if (st)
        return st;
    if (!info)
        return pl_err(PL_EINVAL, "pl_topology_vertex: info is NULL");
    *info = (pl_vertex_info){.kind = (pl_vertex_kind)t->kind[v], .parent = t->parent[v],
                             .depth = t->depth[v], .os_index = t->os_index[v],
                             .name = pl_topo_name(t, v)};
    return PL_OK;
}

pl_status pl_topology_link(const pl_topology *t, int32_t l, pl_link_info *info)
{
    pl_status st = check_link(t, l, "pl_topology_link");
    if (st)
        return st;
    if (!info)
        return pl_err(PL_EINVAL, "pl_topology_link: info is NULL");
    *info = (pl_link_info){.a = t->end[2 * l], .b = t->end[2 * l + 1],
                           .kind = (pl_link_kind)t->lkind[l], .bw_bytes_per_s = t->bw[l],
                           .latency_ns = t->lat[l], .weight = t->weight[l]};
    return PL_OK;
}

pl_status pl_topology_amount(const pl_topology *t, int32_t v, pl_resource res, int64_t *capacity,
                             int64_t *allocated, int64_t *free_amount)
{
    pl_status st = pl_topo_check_vertex(t, v, "pl_topology_amount");
    if (st)
        return st;
    if ((unsigned)res >= PL_RES_COUNT)
        return pl_err(PL_EINVAL, "pl_topology_amount: bad resource %d", (int)res);
    int64_t c = pl_topo_cap(t, v)[res], u = pl_topo_used(t, v)[res];
    if (capacity)
        *capacity = c;
    if (allocated)
        *allocated = u;
    if (free_amount)
        *free_amount = c - u;
    return PL_OK;
}

pl_status pl_topology_find(const pl_topology *t, const char *path, int32_t *out)
{
    if (!t || !path || !out)
        return pl_err(PL_EINVAL, "pl_topology_find: NULL argument");
    int32_t cur = -1;
    const char *p = path;
    for (;;) {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        int32_t c = cur < 0 ? t->first_root : t->first_child[cur];
        for (; c >= 0; c = t->next_sibling[c]) {
            const char *nm = pl_topo_name(t, c);
            if (strlen(nm) == len && !strncmp(nm, p, len))
                break;
        }
        if (c < 0)
            return pl_err(PL_ENOTFOUND, "pl_topology_find: '%s': no vertex named '%.*s' %s%s", path,
                          (int)len, p, cur < 0 ? "among the roots" : "under ",
                          cur < 0 ? "" : pl_topo_name(t, cur));
        cur = c;
        if (!slash)
            break;
        p = slash + 1;
    }
    *out = cur;
    return PL_OK;
}

pl_status pl_topology_path_name(const pl_topology *t, int32_t v, char *buf, size_t size)
{
    pl_status st = pl_topo_check_vertex(t, v, "pl_topology_path_name");
    if (st)
        return st;
    if (!buf || size == 0)
        return pl_err(PL_EINVAL, "pl_topology_path_name: no buffer");
    /* Ancestors root first; depth + 1 of them. */
    int32_t nanc = t->depth[v] + 1;
    int32_t *anc = malloc((size_t)nanc * sizeof *anc);
    if (!anc)
        return pl_err(PL_ENOMEM, "pl_topology_path_name: out of memory");
    for (int32_t x = v, i = nanc - 1; x >= 0; x = t->parent[x])
        anc[i--] = x;
    size_t need = 1, len = 0;
    buf[0] = '\0';
    for (int32_t i = 0; i < nanc; i++) {
        const char *nm = pl_topo_name(t, anc[i]);
        size_t l = strlen(nm) + (i > 0);
        need += l;
        if (len + l < size && need == len + l + 1) { /* whole components only, in order */
            snprintf(buf + len, size - len, "%s%s", i > 0 ? "/" : "", nm);
            len += l;
        }
    }
    free(anc);
    if (need > size)
        return pl_err(PL_ELIMIT, "pl_topology_path_name: path needs %zu bytes, buffer has %zu", need, size);
    return PL_OK;
}

/* ---- allocation -------------------------------------------------------------------- */

static pl_status check_amount(const pl_topology *t, int32_t v, pl_resource res, int64_t amount,
                              const char *fn)
{
    pl_status st = pl_topo_check_vertex(t, v, fn);
    if (st)
        return st;
    if ((unsigned)res >= PL_RES_COUNT)
        return pl_err(PL_EINVAL, "%s: bad resource %d", fn, (int)res);
    if (amount <= 0)
        return pl_err(PL_EINVAL, "%s: amount %lld is not > 0", fn, (long long)amount);
    return PL_OK;
}

pl_status pl_topology_alloc(pl_topology *t, int32_t v, pl_resource res, int64_t amount)
{
    pl_status st = check_amount(t, v, res, amount, "pl_topology_alloc");
    if (st)
        return st;
    int64_t c = pl_topo_cap(t, v)[res], *u = &pl_topo_used(t, v)[res];
    if (amount > c - *u)
        return pl_err(PL_EINVAL, "pl_topology_alloc: %s '%s' has %lld of %lld %s free, %lld requested",
                      vk_names[t->kind[v]], pl_topo_name(t, v), (long long)(c - *u), (long long)c,
                      res_names[res], (long long)amount);
    *u += amount;
    return PL_OK;
}

pl_status pl_topology_release(pl_topology *t, int32_t v, pl_resource res, int64_t amount)
{
    pl_status st = check_amount(t, v, res, amount, "pl_topology_release");
    if (st)
        return st;
    int64_t *u = &pl_topo_used(t, v)[res];
    if (amount > *u)
        return pl_err(PL_EINVAL, "pl_topology_release: %s '%s' has only %lld %s allocated, %lld released",
                      vk_names[t->kind[v]], pl_topo_name(t, v), (long long)*u, res_names[res],
                      (long long)amount);
    *u -= amount;
    return PL_OK;
}

pl_status pl_topology_release_all(pl_topology *t)
{
    if (!t)
        return pl_err(PL_EINVAL, "pl_topology_release_all: topology is NULL");
    if (t->n)
        memset(t->used, 0, (size_t)t->n * PL_RES_COUNT * sizeof *t->used);
    return PL_OK;
}

pl_status pl_topology_snapshot_take(const pl_topology *t, pl_topology_snapshot **out)
{
    if (!t || !out)
        return pl_err(PL_EINVAL, "pl_topology_snapshot_take: NULL argument");
    *out = NULL;
    pl_topology_snapshot *s = pl_alloc(1, sizeof *s);
    if (!s)
        return PL_ENOMEM;
    s->n = t->n;
    s->used = pl_alloc((size_t)t->n * PL_RES_COUNT, sizeof *s->used);
    if (!s->used) {
        free(s);
        return PL_ENOMEM;
    }
    if (t->n)
        memcpy(s->used, t->used, (size_t)t->n * PL_RES_COUNT * sizeof *s->used);
    *out = s;
    return PL_OK;
}

pl_status pl_topology_snapshot_restore(pl_topology *t, const pl_topology_snapshot *s)
{
    if (!t || !s)
        return pl_err(PL_EINVAL, "pl_topology_snapshot_restore: NULL argument");
    if (s->n != t->n)
        return pl_err(PL_EINVAL, "pl_topology_snapshot_restore: snapshot of %d vertices, topology has %d",
                      s->n, t->n);
    for (int64_t i = 0; i < (int64_t)t->n * PL_RES_COUNT; i++)
        if (s->used[i] > t->cap[i])
            return pl_err(PL_EINVAL,
                          "pl_topology_snapshot_restore: vertex %lld: saved %s allocation %lld exceeds "
                          "its capacity %lld now",
                          (long long)(i / PL_RES_COUNT), res_names[i % PL_RES_COUNT],
                          (long long)s->used[i], (long long)t->cap[i]);
    if (t->n)
        memcpy(t->used, s->used, (size_t)t->n * PL_RES_COUNT * sizeof *s->used);
    return PL_OK;
}

void pl_topology_snapshot_free(pl_topology_snapshot *s)
{
    if (!s)
        return;
    free(s->used);
    free(s);
}
