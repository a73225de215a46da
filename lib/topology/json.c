/* pl_topology_load_json(): a cluster described in JSON (schema and a full
 * example: doc/topology-json.md), built from machine templates with the
 * public building calls. Every object's keys are checked, so a misspelt key
 * is an error rather than a silently ignored setting, and every error names
 * the JSON path of the bad field ("$.racks[0].machines[1].count: ..."). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "topology_impl.h"
#include "internal/json.h"


/* A machine template kept apart from its root so that each copy's root can
 * be added under its own name ("node3") and the rest grafted below it:
 * vertex v > 0 of the template is vertex v - 1 of body, and the links that
 * touch the root (vertex 0) are kept in root_links with template ids. */
typedef struct tmpl {
    const char *name;            /* key in $.templates, owned by the document */
    int32_t root_os_index;
    int64_t root_cap[PL_RES_COUNT];
    pl_topology *body;           /* the root's children are its roots */
    pl_topology *root_attrs;     /* one vertex holding the root's attributes */
    pl_link_info *root_links;
    int32_t nroot_links;
} tmpl;

/* Next number of each machine name prefix, so names are unique cluster-wide. */
typedef struct counter {
    const char *prefix;          /* owned by the document */
    int64_t next;
} counter;

typedef struct netopts {
    int64_t machine_bw, rack_bw, machine_lat, rack_lat, machine_weight, rack_weight;
} netopts;

typedef struct loader {
    pl_topology *t;
    int32_t root;                /* the PL_VK_CLUSTER vertex */
    const char *dir;             /* directory of the JSON file, NULL: current directory */
    tmpl *tmpls;
    int64_t ntmpl, tmpl_cap;
    counter *counters;
    int64_t ncounters, counter_cap;
    netopts net;
    int64_t max_vertices;
} loader;

/* Whether adding `count` copies of `each` vertices stays within the limit;
 * checked before building them, so a huge count costs nothing. */
static pl_status room_for(const loader *L, int64_t count, int64_t each, const char *path,
                          const char *what)
{
    int64_t have = pl_topology_vertex_count(L->t);
    if (count <= (L->max_vertices - have) / (each > 0 ? each : 1))
        return PL_OK;
    char sub[PL_JSON_PATH];
    pl_json_key(sub, path, "count");
    return pl_json_fail(sub, "%lld %s of %lld vertices each would take the cluster past %lld "
                        "vertices (pl_topology_json_opts.max_vertices; about 230 bytes each)",
                        (long long)count, what, (long long)each, (long long)L->max_vertices);
}

/* ---- typed access (shared helpers: lib/core/json.h) ---------------------------- */

/* obj[key] into *out (NULL when absent and optional); its path into sub. */
static pl_status member(const json_t *obj, const char *path, const char *key, json_type type,
                        int required, const json_t **out, char *sub)
{
    pl_json_key(sub, path, key);
    *out = json_object_get(obj, key);
    if (!*out)
        return required ? pl_json_fail(sub, "missing (%s is required)", pl_json_type_name(type)) : PL_OK;
    return pl_json_expect(*out, type, sub);
}

static pl_status opt_int(const json_t *obj, const char *path, const char *key, int64_t min,
                         int64_t max, int64_t dflt, int64_t *out)
{
    char sub[PL_JSON_PATH];
    pl_json_key(sub, path, key);
    const json_t *v = json_object_get(obj, key);
    *out = dflt;
    return v ? pl_json_int(v, sub, min, max, out) : PL_OK;
}

static pl_status get_string(const json_t *obj, const char *path, const char *key, int required,
                            const char *dflt, const char **out)
{
    char sub[PL_JSON_PATH];
    const json_t *v;
    pl_status st = member(obj, path, key, JSON_STRING, required, &v, sub);
    *out = v ? json_string_value(v) : dflt;
    return st;
}

/* A vertex name: non-empty and without '/' (pl_topology_find() splits on it). */
static pl_status get_name(const json_t *obj, const char *path, const char *key, const char *dflt,
                          const char **out)
{
    pl_status st = get_string(obj, path, key, 0, dflt, out);
    if (st || !*out)
        return st;
    if (**out == '\0' || strchr(*out, '/')) {
        char sub[PL_JSON_PATH];
        pl_json_key(sub, path, key);
        return pl_json_fail(sub, "a name must be non-empty and may not contain '/', got \"%.40s\"", *out);
    }
    return PL_OK;
}

static pl_status get_vertex_kind(const json_t *obj, const char *path, pl_vertex_kind *kind)
{
    const char *s;
    char sub[PL_JSON_PATH];
    pl_status st = get_string(obj, path, "kind", 1, NULL, &s);
    if (st)
        return st;
    pl_json_key(sub, path, "kind");
    return pl_vertex_kind_parse(s, kind) ? pl_json_prefixed(PL_EPARSE, sub) : PL_OK;
}

/* Resolve a '/'-separated path of names below base ("." is base itself),
 * siblings of equal name resolved to the first as pl_topology_find() does. */
static pl_status find_under(const pl_topology *t, int32_t base, const char *rel, const char *path,
                            int32_t *out)
{
    int32_t cur = base;
    if (strcmp(rel, ".") != 0) {
        for (const char *p = rel;;) {
            const char *slash = strchr(p, '/');
            size_t len = slash ? (size_t)(slash - p) : strlen(p);
            int32_t c = t->first_child[cur];
            while (c >= 0 && (strlen(pl_topo_name(t, c)) != len || strncmp(pl_topo_name(t, c), p, len)))
                c = t->next_sibling[c];
            if (c < 0)
                return pl_json_fail(path, "no vertex \"%.200s\": nothing named \"%.*s\" under \"%s\"", rel,
                            (int)len, p, pl_topo_name(t, cur));
            cur = c;
            if (!slash)
                break;
            p = slash + 1;
        }
    }
    *out = cur;
    return PL_OK;
}

/* ---- links and capacities ---------------------------------------------------------- */

typedef struct lparams {
    pl_link_kind kind;
    int64_t bw, lat, weight;
} lparams;

/* kind, bw, latency_ns and weight of a link object (kind defaults to dflt). */
static pl_status link_params(const json_t *obj, const char *path, pl_link_kind dflt, lparams *p)
{
    const char *ks;
    pl_status st;
    p->kind = dflt;
    if ((st = get_string(obj, path, "kind", 0, NULL, &ks)) ||
        (st = opt_int(obj, path, "bw", 0, INT64_MAX, 0, &p->bw)) ||
        (st = opt_int(obj, path, "latency_ns", 0, INT64_MAX, 0, &p->lat)) ||
        (st = opt_int(obj, path, "weight", 1, INT64_MAX, 0, &p->weight)))
        return st;
    if (ks && pl_link_kind_parse(ks, &p->kind)) {
        char sub[PL_JSON_PATH];
        pl_json_key(sub, path, "kind");
        return pl_json_prefixed(PL_EPARSE, sub);
    }
    return PL_OK;
}

/* What each() does with one element of an array: v is the vertex the
 * array hangs from (the links' base, the machines' parent). */
typedef pl_status (*item_fn)(loader *L, int32_t v, const json_t *item, size_t index, const char *path);

/* Each element of obj[key] (an optional array) through fn. */
static pl_status each(loader *L, int32_t v, const json_t *obj, const char *path, const char *key, item_fn fn)
{
    char sub[PL_JSON_PATH], item[PL_JSON_PATH];
    const json_t *arr;
    pl_status st = member(obj, path, key, JSON_ARRAY, 0, &arr, sub);
    for (size_t i = 0; !st && arr && i < json_array_size(arr); i++) {
        pl_json_pathf(item, "%s[%zu]", sub, i);
        st = fn(L, v, json_array_get(arr, i), i, item);
    }
    return st;
}

/* An explicit link {"a", "b", "kind", ...} between two paths below base. */
static pl_status add_link_obj(loader *L, int32_t base, const json_t *l, size_t index, const char *path)
{
    (void)index;
    pl_topology *t = L->t;
    static const char *const keys[] = {"a", "b", "kind", "bw", "latency_ns", "weight", NULL};
    const char *a, *b;
    char pa[PL_JSON_PATH], pb[PL_JSON_PATH];
    int32_t va, vb;
    lparams p;
    pl_status st;
    if ((st = pl_json_expect(l, JSON_OBJECT, path)) || (st = pl_json_check_keys(l, path, keys)) ||
        (st = get_string(l, path, "a", 1, NULL, &a)) || (st = get_string(l, path, "b", 1, NULL, &b)))
        return st;
    if (!json_object_get(l, "kind")) {
        pl_json_key(pa, path, "kind");
        return pl_json_fail(pa, "missing (a string is required)");
    }
    if ((st = link_params(l, path, PL_LK_NETWORK, &p)))
        return st;
    pl_json_key(pa, path, "a");
    pl_json_key(pb, path, "b");
    if ((st = find_under(t, base, a, pa, &va)) || (st = find_under(t, base, b, pb, &vb)))
        return st;
    if (va == vb)
        return pl_json_fail(pb, "both ends of the link are \"%.200s\"", b);
    return pl_topology_add_link(t, va, vb, p.kind, p.bw, p.lat, p.weight, NULL);
}

/* One "key": value entry of a map member onto vertex v; path names the entry. */
typedef pl_status (*entry_fn)(pl_topology *t, int32_t v, const char *key, const json_t *val,
                              const char *path);

/* Every entry of the optional object obj[name] onto vertex v. */
static pl_status read_map(pl_topology *t, int32_t v, const json_t *obj, const char *path, const char *name,
                          entry_fn entry)
{
    char sub[PL_JSON_PATH], ep[PL_JSON_PATH];
    const json_t *map, *val;
    const char *key;
    pl_status st = member(obj, path, name, JSON_OBJECT, 0, &map, sub);
    if (st || !map)
        return st;
    json_object_foreach((json_t *)map, key, val) {
        pl_json_key(ep, sub, key);
        if ((st = entry(t, v, key, val, ep)))
            return st;
    }
    return PL_OK;
}

static pl_status capacity_entry(pl_topology *t, int32_t v, const char *key, const json_t *val,
                                const char *path)
{
    pl_resource res;
    int64_t amount;
    pl_status st;
    if (pl_resource_parse(key, &res))
        return pl_json_prefixed(PL_EPARSE, path);
    if ((st = pl_json_int(val, path, 0, INT64_MAX, &amount)))
        return st;
    return pl_topology_set_capacity(t, v, res, amount);
}

/* {"<resource>": amount, ...} of obj["capacity"] onto vertex v. */
static pl_status read_capacity(pl_topology *t, int32_t v, const json_t *obj, const char *path)
{
    return read_map(t, v, obj, path, "capacity", capacity_entry);
}

/* Strings only (doc/topology.md), so that a constraint compares one spelling. */
static pl_status attr_entry(pl_topology *t, int32_t v, const char *key, const json_t *val, const char *path)
{
    pl_status st;
    if (!*key)
        return pl_json_fail(path, "an attribute key must be non-empty");
    if ((st = pl_json_expect(val, JSON_STRING, path)))
        return st;
    if (!*json_string_value(val))
        return pl_json_fail(path, "an attribute value must be a non-empty string");
    return pl_topology_set_attr(t, v, key, json_string_value(val));
}

/* {"key": "value", ...} of obj["attrs"] onto vertex v. */
static pl_status read_attrs(pl_topology *t, int32_t v, const json_t *obj, const char *path)
{
    return read_map(t, v, obj, path, "attrs", attr_entry);
}

/* Every attribute of vertex from (of src) onto vertex to (of dst). */
static pl_status copy_vertex_attrs(pl_topology *dst, int32_t to, const pl_topology *src, int32_t from)
{
    pl_status st = PL_OK;
    for (int32_t i = 0; !st && i < pl_topology_attr_count(src, from); i++) {
        const char *k, *v;
        if (!(st = pl_topology_attr_at(src, from, i, &k, &v)))
            st = pl_topology_set_attr(dst, to, k, v);
    }
    return st;
}

/* ---- templates --------------------------------------------------------------------- */

static pl_status build_node(pl_topology *t, int32_t parent, const json_t *node, const char *path,
                            int is_root)
{
    static const char *const root_keys[] = {"kind",     "name",  "os_index", "capacity",
                                            "children", "links", "attrs",    NULL};
    static const char *const keys[] = {"kind", "name", "os_index", "capacity", "children", "attrs", NULL};
    pl_vertex_kind kind;
    const char *name;
    int64_t os_index;
    int32_t v;
    char sub[PL_JSON_PATH], item[PL_JSON_PATH];
    const json_t *children;
    pl_status st;
    if ((st = pl_json_expect(node, JSON_OBJECT, path)) ||
        (st = pl_json_check_keys(node, path, is_root ? root_keys : keys)) ||
        (st = get_vertex_kind(node, path, &kind)) ||
        (st = get_name(node, path, "name", NULL, &name)) ||
        (st = opt_int(node, path, "os_index", 0, INT32_MAX, -1, &os_index)) ||
        (st = member(node, path, "children", JSON_ARRAY, 0, &children, sub)))
        return st;
    if (is_root && kind != PL_VK_MACHINE) {
        pl_json_key(sub, path, "kind");
        return pl_json_fail(sub, "a template's root must be a machine, got \"%s\"", pl_vertex_kind_name(kind));
    }
    /* A machine, rack, cluster or pool inside a machine made policies that
     * look for "the machine of a GPU" disagree (issue 25). */
    if (!is_root && pl_vertex_kind_level(kind) >= pl_vertex_kind_level(PL_VK_MACHINE)) {
        pl_json_key(sub, path, "kind");
        return pl_json_fail(sub, "inside a machine: packages, NUMA nodes, switches and devices, "
                            "not a \"%s\"", pl_vertex_kind_name(kind));
    }
    if ((st = pl_topology_add_vertex(t, kind, parent, name, (int32_t)os_index, &v)) ||
        (st = read_capacity(t, v, node, path)) || (st = read_attrs(t, v, node, path)))
        return st;
    for (size_t i = 0; children && i < json_array_size(children); i++) {
        pl_json_pathf(item, "%s[%zu]", sub, i);
        if ((st = build_node(t, v, json_array_get(children, i), item, 0)))
            return st;
    }
    return PL_OK;
}

/* An inline template: a tree of vertices, links between paths below its root. */
static pl_status load_tree(const json_t *tree, const char *path, pl_topology **out)
{
    pl_topology *t;
    pl_status st = pl_topology_create(&t);
    if (st)
        return st;
    loader links = {.t = t}; /* all that add_link_obj reads */
    if (!(st = build_node(t, -1, tree, path, 1)))
        st = each(&links, 0, tree, path, "links", add_link_obj);
    return PL_HAND_OUT(st, t, pl_topology_free, out);
}

/* An XML template path, relative to the JSON file's directory. */
static pl_status load_xml_template(const loader *L, const char *file, const char *path,
                                   pl_topology **out)
{
    char *full = NULL;
    if (L->dir && file[0] != '/') {
        size_t n = strlen(L->dir) + strlen(file) + 2;
        if (!(full = pl_alloc(n, 1)))
            return PL_ENOMEM;
        snprintf(full, n, "%s/%s", L->dir, file);
    }
    pl_status st = pl_topology_load_xml(full ? full : file, out);
    free(full);
    return st ? pl_json_prefixed(st, path) : PL_OK;
}

/* Split a loaded machine topology into root and body (see struct tmpl). */
static pl_status split_template(const pl_topology *src, const char *path, tmpl *tp)
{
    if (src->n == 0 || src->next_sibling[src->first_root] >= 0 || src->kind[0] != PL_VK_MACHINE)
        return pl_json_fail(path, "a template must have exactly one root, a machine (it has %d vertices, "
                          "root kind \"%s\")",
                    src->n, src->n ? pl_vertex_kind_name((pl_vertex_kind)src->kind[0]) : "none");
    /* Vertex 0 is the only root: a parent always precedes its children. */
    tp->root_os_index = src->os_index[0];
    memcpy(tp->root_cap, pl_topo_cap(src, 0), sizeof tp->root_cap);
    pl_status st = pl_topology_create(&tp->root_attrs);
    if (!st)
        st = pl_topology_add_vertex(tp->root_attrs, PL_VK_MACHINE, -1, NULL, -1, NULL);
    if (!st)
        st = copy_vertex_attrs(tp->root_attrs, 0, src, 0);
    if (!st)
        st = pl_topology_create(&tp->body);
    for (int32_t v = 1; !st && v < src->n; v++) {
        int32_t p = src->parent[v] == 0 ? -1 : src->parent[v] - 1;
        st = pl_topology_add_vertex(tp->body, (pl_vertex_kind)src->kind[v], p, pl_topo_name(src, v),
                                    src->os_index[v], NULL);
        if (!st)
            memcpy(pl_topo_cap(tp->body, v - 1), pl_topo_cap(src, v), PL_RES_COUNT * sizeof(int64_t));
        if (!st)
            st = copy_vertex_attrs(tp->body, v - 1, src, v);
    }
    if (!st && src->nl && !(tp->root_links = pl_alloc((size_t)src->nl, sizeof *tp->root_links)))
        st = PL_ENOMEM;
    for (int32_t l = 0; !st && l < src->nl; l++) {
        pl_link_info li;
        if ((st = pl_topology_link(src, l, &li)))
            break;
        if (li.a == 0 || li.b == 0)
            tp->root_links[tp->nroot_links++] = li;
        else
            st = pl_topology_add_link(tp->body, li.a - 1, li.b - 1, li.kind, li.bw_bytes_per_s,
                                      li.latency_ns, li.weight, NULL);
    }
    return st;
}

static pl_status load_template(loader *L, const char *name, const json_t *def, const char *path)
{
    static const char *const keys[] = {"builtin", "xml", "tree", "attrs", NULL};
    char sub[PL_JSON_PATH];
    const json_t *builtin, *xml, *tree;
    pl_topology *src = NULL;
    pl_status st;
    if ((st = pl_json_expect(def, JSON_OBJECT, path)) || (st = pl_json_check_keys(def, path, keys)) ||
        (st = member(def, path, "builtin", JSON_STRING, 0, &builtin, sub)) ||
        (st = member(def, path, "xml", JSON_STRING, 0, &xml, sub)) ||
        (st = member(def, path, "tree", JSON_OBJECT, 0, &tree, sub)))
        return st;
    if (!!builtin + !!xml + !!tree != 1)
        return pl_json_fail(path, "expected exactly one of \"builtin\", \"xml\", \"tree\"");
    if (builtin) {
        pl_json_key(sub, path, "builtin");
        if ((st = pl_topology_builtin(json_string_value(builtin), &src)))
            return pl_json_prefixed(st, sub);
    } else if (xml) {
        pl_json_key(sub, path, "xml");
        st = load_xml_template(L, json_string_value(xml), sub, &src);
    } else {
        pl_json_key(sub, path, "tree");
        st = load_tree(tree, sub, &src);
    }
    if (st) {
        pl_topology_free(src); /* in case a loader left something behind */
        return st;
    }
    if ((st = pl_grow((void **)&L->tmpls, &L->tmpl_cap, L->ntmpl + 1, sizeof *L->tmpls))) {
        pl_topology_free(src);
        return st;
    }
    tmpl *tp = &L->tmpls[L->ntmpl++];
    *tp = (tmpl){.name = name};
    st = split_template(src, sub, tp);
    pl_topology_free(src);
    /* The template's own "attrs" override those its source gave the root. */
    return st ? st : read_attrs(tp->root_attrs, 0, def, path);
}

static pl_status load_templates(loader *L, const json_t *doc)
{
    char sub[PL_JSON_PATH], item[PL_JSON_PATH];
    const json_t *tmpls, *def;
    const char *name;
    pl_status st = member(doc, "$", "templates", JSON_OBJECT, 0, &tmpls, sub);
    if (st || !tmpls)
        return st;
    json_object_foreach((json_t *)tmpls, name, def) {
        pl_json_key(item, sub, name);
        if ((st = load_template(L, name, def, item)))
            return st;
    }
    return PL_OK;
}

/* ---- machines, racks, pools -------------------------------------------------------- */

/* One copy of a template under parent, its root named name. */
static pl_status place_machine(pl_topology *t, int32_t parent, const tmpl *tp, const char *name,
                               int32_t *machine)
{
    int32_t m, first = 0;
    pl_status st = pl_topology_add_vertex(t, PL_VK_MACHINE, parent, name, tp->root_os_index, &m);
    if (!st)
        st = copy_vertex_attrs(t, m, tp->root_attrs, 0);
    for (int r = 0; !st && r < PL_RES_COUNT; r++)
        st = pl_topology_set_capacity(t, m, (pl_resource)r, tp->root_cap[r]);
    if (!st)
        st = pl_topology_graft(t, m, tp->body, &first);
    for (int32_t i = 0; !st && i < tp->nroot_links; i++) {
        const pl_link_info *li = &tp->root_links[i];
        st = pl_topology_add_link(t, li->a == 0 ? m : first + li->a - 1, li->b == 0 ? m : first + li->b - 1,
                                  li->kind, li->bw_bytes_per_s, li->latency_ns, li->weight, NULL);
    }
    *machine = m;
    return st;
}

static pl_status next_number(loader *L, const char *prefix, int64_t *n)
{
    for (int64_t i = 0; i < L->ncounters; i++)
        if (!strcmp(L->counters[i].prefix, prefix)) {
            *n = L->counters[i].next++;
            return PL_OK;
        }
    pl_status st = pl_grow((void **)&L->counters, &L->counter_cap, L->ncounters + 1, sizeof *L->counters);
    if (st)
        return st;
    L->counters[L->ncounters++] = (counter){.prefix = prefix, .next = 1};
    *n = 0;
    return PL_OK;
}

/* A group {"template", "count", "name", "attrs"}: count machines under
 * parent, each linked to it by the network link of a machine; the group's
 * attributes override the template's. */
static pl_status add_machine_group(loader *L, int32_t parent, const json_t *g, size_t index, const char *path)
{
    (void)index;
    static const char *const keys[] = {"template", "count", "name", "attrs", NULL};
    const char *tname, *prefix;
    int64_t count;
    char sub[PL_JSON_PATH];
    pl_status st;
    if ((st = pl_json_expect(g, JSON_OBJECT, path)) || (st = pl_json_check_keys(g, path, keys)) ||
        (st = get_string(g, path, "template", 1, NULL, &tname)) ||
        (st = opt_int(g, path, "count", 1, INT32_MAX, 1, &count)) ||
        (st = get_name(g, path, "name", "node", &prefix)))
        return st;
    const tmpl *tp = NULL;
    for (int64_t i = 0; i < L->ntmpl && !tp; i++)
        if (!strcmp(L->tmpls[i].name, tname))
            tp = &L->tmpls[i];
    if (!tp) {
        pl_json_key(sub, path, "template");
        return pl_json_fail(sub, "unknown template \"%.100s\" (not a key of $.templates)", tname);
    }
    if ((st = room_for(L, count, (int64_t)pl_topology_vertex_count(tp->body) + 1, path, "machines")))
        return st;
    for (int64_t k = 0; k < count; k++) {
        int64_t n;
        int32_t m;
        char name[128];
        if ((st = next_number(L, prefix, &n)))
            return st;
        snprintf(name, sizeof name, "%.100s%lld", prefix, (long long)n);
        if ((st = place_machine(L->t, parent, tp, name, &m)) || (st = read_attrs(L->t, m, g, path)) ||
            (st = pl_topology_add_link(L->t, m, parent, PL_LK_NETWORK, L->net.machine_bw,
                                       L->net.machine_lat, L->net.machine_weight, NULL)))
            return st;
    }
    return PL_OK;
}

static pl_status add_rack(loader *L, int32_t root, const json_t *r, size_t index, const char *path)
{
    static const char *const keys[] = {"name", "machines", NULL};
    char dflt[32];
    const char *name;
    int32_t v;
    pl_status st;
    snprintf(dflt, sizeof dflt, "rack%zu", index);
    if ((st = pl_json_expect(r, JSON_OBJECT, path)) || (st = pl_json_check_keys(r, path, keys)) ||
        (st = get_name(r, path, "name", dflt, &name)) ||
        (st = pl_topology_add_vertex(L->t, PL_VK_RACK, root, name, (int32_t)index, &v)) ||
        (st = pl_topology_add_link(L->t, v, root, PL_LK_NETWORK, L->net.rack_bw, L->net.rack_lat,
                                   L->net.rack_weight, NULL)))
        return st;
    return each(L, v, r, path, "machines", add_machine_group);
}

static pl_status read_network(loader *L, const json_t *doc)
{
    static const char *const keys[] = {"machine_bw", "rack_bw", "machine_latency_ns", "rack_latency_ns",
                                       "machine_weight", "rack_weight", NULL};
    const int64_t dflt_bw = 12500000000; /* 100 Gb/s, as pl_topology_cluster() */
    char sub[PL_JSON_PATH];
    const json_t *n;
    netopts *o = &L->net;
    pl_status st = member(doc, "$", "network", JSON_OBJECT, 0, &n, sub);
    if (st)
        return st;
    if (!n) {
        *o = (netopts){.machine_bw = dflt_bw, .rack_bw = dflt_bw};
        return PL_OK;
    }
    if ((st = pl_json_check_keys(n, sub, keys)) ||
        (st = opt_int(n, sub, "machine_bw", 0, INT64_MAX, dflt_bw, &o->machine_bw)) ||
        (st = opt_int(n, sub, "rack_bw", 0, INT64_MAX, dflt_bw, &o->rack_bw)) ||
        (st = opt_int(n, sub, "machine_latency_ns", 0, INT64_MAX, 0, &o->machine_lat)) ||
        (st = opt_int(n, sub, "rack_latency_ns", 0, INT64_MAX, 0, &o->rack_lat)) ||
        (st = opt_int(n, sub, "machine_weight", 1, INT64_MAX, 0, &o->machine_weight)) ||
        (st = opt_int(n, sub, "rack_weight", 1, INT64_MAX, 0, &o->rack_weight)))
        return st;
    return PL_OK;
}

/* Device group {"kind", "count", "capacity", "link", "attrs"} of a pool;
 * devices are numbered per kind across the pool's groups. Each device gets
 * the group's attributes, so a lookup on one device (a GPU's vgpu_splits,
 * doc/disagg.md sec. 8) need not know which group it came from. */
static pl_status add_device_group(const loader *L, int32_t pool, const json_t *g, const char *path,
                                  int32_t next[PL_VK_COUNT], int64_t *total)
{
    pl_topology *t = L->t;
    static const char *const keys[] = {"kind", "count", "capacity", "link", "attrs", NULL};
    pl_vertex_kind kind;
    int64_t count;
    char sub[PL_JSON_PATH];
    const json_t *lk;
    lparams lp = {.kind = PL_LK_PCIE};
    pl_status st;
    if ((st = pl_json_expect(g, JSON_OBJECT, path)) || (st = pl_json_check_keys(g, path, keys)) ||
        (st = get_vertex_kind(g, path, &kind)) ||
        (st = opt_int(g, path, "count", 1, INT32_MAX, 1, &count)) ||
        (st = member(g, path, "link", JSON_OBJECT, 0, &lk, sub)))
        return st;
    if (lk) {
        static const char *const lkeys[] = {"kind", "bw", "latency_ns", "weight", NULL};
        if ((st = pl_json_check_keys(lk, sub, lkeys)) || (st = link_params(lk, sub, PL_LK_PCIE, &lp)))
            return st;
    }
    if (pl_vertex_kind_level(kind) > 1) {
        pl_json_key(sub, path, "kind");
        return pl_json_fail(sub, "a pool holds devices (gpu, nic, storage, core, numa, pci-switch, nvswitch), "
                         "got \"%s\"", pl_vertex_kind_name(kind));
    }
    if (count > INT32_MAX - next[kind])
        return pl_json_fail(path, "too many devices of kind \"%s\"", pl_vertex_kind_name(kind));
    if ((st = room_for(L, count, 1, path, "devices")))
        return st;
    for (int64_t k = 0; k < count; k++) {
        int32_t d;
        if ((st = pl_topology_add_vertex(t, kind, pool, NULL, next[kind]++, &d)) ||
            (st = read_capacity(t, d, g, path)) || (st = read_attrs(t, d, g, path)) ||
            (st = pl_topology_add_link(t, d, pool, lp.kind, lp.bw, lp.lat, lp.weight, NULL)))
            return st;
    }
    *total += count;
    return PL_OK;
}

static pl_status add_pool(loader *L, int32_t root, const json_t *p, size_t index, const char *path)
{
    static const char *const keys[] = {"name", "attach", "link", "devices", "capacity", "attrs", NULL};
    static const char *const lkeys[] = {"kind", "bw", "latency_ns", "weight", NULL};
    char dflt[32], sub[PL_JSON_PATH], item[PL_JSON_PATH];
    const char *name, *attach;
    const json_t *lk, *devs;
    lparams lp = {.kind = PL_LK_NETWORK};
    int32_t at, pool, next[PL_VK_COUNT] = {0};
    int64_t total = 0;
    pl_status st;
    snprintf(dflt, sizeof dflt, "pool%zu", index);
    if ((st = pl_json_expect(p, JSON_OBJECT, path)) || (st = pl_json_check_keys(p, path, keys)) ||
        (st = get_name(p, path, "name", dflt, &name)) ||
        (st = get_string(p, path, "attach", 0, ".", &attach)) ||
        (st = member(p, path, "link", JSON_OBJECT, 0, &lk, sub)))
        return st;
    if (lk && ((st = pl_json_check_keys(lk, sub, lkeys)) || (st = link_params(lk, sub, PL_LK_NETWORK, &lp))))
        return st;
    pl_json_key(sub, path, "attach");
    if ((st = find_under(L->t, root, attach, sub, &at)) ||
        (st = pl_topology_add_vertex(L->t, PL_VK_POOL, at, name, (int32_t)index, &pool)) ||
        (st = pl_topology_add_link(L->t, pool, at, lp.kind, lp.bw, lp.lat, lp.weight, NULL)) ||
        (st = read_attrs(L->t, pool, p, path)) ||
        (st = member(p, path, "devices", JSON_ARRAY, 0, &devs, sub)))
        return st;
    for (size_t i = 0; devs && i < json_array_size(devs); i++) {
        pl_json_pathf(item, "%s[%zu]", sub, i);
        if ((st = add_device_group(L, pool, json_array_get(devs, i), item, next, &total)))
            return st;
    }
    /* The pool offers its devices as units unless "capacity" says otherwise. */
    if ((st = pl_topology_set_capacity(L->t, pool, PL_RES_UNITS, total)))
        return st;
    return read_capacity(L->t, pool, p, path);
}

/* ---- document ------------------------------------------------------------------------ */

static pl_status build(loader *L, const json_t *doc)
{
    static const char *const keys[] = {"name", "templates", "racks", "machines", "network", "links",
                                       "pools", NULL};
    const char *name;
    pl_status st;
    if ((st = pl_json_expect(doc, JSON_OBJECT, "$")) || (st = pl_json_check_keys(doc, "$", keys)) ||
        (st = get_name(doc, "$", "name", "cluster", &name)) ||
        (st = pl_topology_create(&L->t)) ||
        (st = pl_topology_add_vertex(L->t, PL_VK_CLUSTER, -1, name, -1, &L->root)) ||
        (st = load_templates(L, doc)) || (st = read_network(L, doc)) ||
        (st = each(L, L->root, doc, "$", "racks", add_rack)) ||
        (st = each(L, L->root, doc, "$", "machines", add_machine_group)) ||
        (st = each(L, L->root, doc, "$", "pools", add_pool)))
        return st;
    /* Last, so that extra links can reach any vertex, pool devices included. */
    return each(L, L->root, doc, "$", "links", add_link_obj);
}

static void loader_free(loader *L)
{
    for (int64_t i = 0; i < L->ntmpl; i++) {
        pl_topology_free(L->tmpls[i].body);
        pl_topology_free(L->tmpls[i].root_attrs);
        free(L->tmpls[i].root_links);
    }
    free(L->tmpls);
    free(L->counters);
}

/* Build from a parsed document (consumed); dir resolves relative XML paths. */
static pl_status load_doc(json_t *doc, const char *dir, int64_t max_vertices, pl_topology **out)
{
    loader L = {.dir = dir, .max_vertices = max_vertices};
    pl_status st = build(&L, doc);
    loader_free(&L);
    json_decref(doc);
    if (st) {
        pl_topology_free(L.t);
        return st;
    }
    *out = L.t;
    return PL_OK;
}

static pl_status syntax_error(const char *source, const json_error_t *e)
{
    return pl_json_load_error(source, e);
}

void pl_topology_json_opts_init(pl_topology_json_opts *opts)
{
    if (opts)
        *opts = (pl_topology_json_opts){.max_vertices = PL_TOPO_JSON_MAX_VERTICES};
}

static pl_status load_text(const char *text, size_t length, int64_t max_vertices, pl_topology **out)
{
    json_error_t e = {0}; /* jansson leaves it untouched on some out-of-memory paths */
    json_t *doc = json_loadb(text, length ? length : strlen(text), JSON_REJECT_DUPLICATES, &e);
    if (!doc)
        return syntax_error("<string>", &e);
    return load_doc(doc, NULL, max_vertices, out);
}

static pl_status load_file(const char *path, int64_t max_vertices, pl_topology **out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return pl_err(PL_EIO, "pl_topology_load_json: cannot open '%s'", path);
    json_error_t e = {0}; /* jansson leaves it untouched on some out-of-memory paths */
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &e);
    int read_failed = ferror(f);
    fclose(f);
    if (!doc)
        return read_failed ? pl_err(PL_EIO, "pl_topology_load_json: cannot read '%s'", path)
                           : syntax_error(path, &e);
    /* Relative XML templates are relative to the JSON file's directory. */
    char *dir = NULL;
    const char *slash = strrchr(path, '/');
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        if (!(dir = pl_alloc(n + 1, 1))) {
            json_decref(doc);
            return PL_ENOMEM;
        }
        memcpy(dir, path, n);
    }
    pl_status st = load_doc(doc, dir, max_vertices, out);
    free(dir);
    return st;
}

pl_status pl_topology_load_json_opts(const pl_topology_json_opts *opts, const char *path,
                                     const char *text, size_t length, pl_topology **out)
{
    if (!out || !path == !text)
        return pl_err(PL_EINVAL, "pl_topology_load_json_opts: NULL out, or not exactly one of "
                      "path and text");
    *out = NULL;
    pl_topology_json_opts o;
    PL_OPTS_OR_DEFAULTS(o, opts, pl_topology_json_opts_init);
    if (o.max_vertices < 1 || o.max_vertices > PL_TOPO_MAX)
        return pl_err(PL_EINVAL, "pl_topology_load_json_opts: max_vertices must lie in 1..%d, "
                      "got %lld", PL_TOPO_MAX, (long long)o.max_vertices);
    return path ? load_file(path, o.max_vertices, out) : load_text(text, length, o.max_vertices, out);
}

pl_status pl_topology_load_json_string(const char *text, size_t length, pl_topology **out)
{
    if (!text || !out)
        return pl_err(PL_EINVAL, "pl_topology_load_json_string: NULL argument");
    return pl_topology_load_json_opts(NULL, NULL, text, length, out);
}

pl_status pl_topology_load_json(const char *path, pl_topology **out)
{
    if (!path || !out)
        return pl_err(PL_EINVAL, "pl_topology_load_json: NULL argument");
    return pl_topology_load_json_opts(NULL, path, NULL, 0, out);
}
