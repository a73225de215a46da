/* placement/topology.h: Topology. */

%rename(VertexKind) pl_vertex_kind;
%rename(LinkKind) pl_link_kind;
%rename(Resource) pl_resource;
typedef enum pl_vertex_kind {
    PL_VK_CLUSTER = 0, PL_VK_RACK = 1, PL_VK_MACHINE = 2, PL_VK_PACKAGE = 3, PL_VK_NUMA = 4,
    PL_VK_PCI_SWITCH = 5, PL_VK_NVSWITCH = 6, PL_VK_CORE = 7, PL_VK_GPU = 8, PL_VK_NIC = 9,
    PL_VK_STORAGE = 10, PL_VK_POOL = 11, PL_VK_COUNT = 12
} pl_vertex_kind;
typedef enum pl_link_kind {
    PL_LK_NVLINK = 0, PL_LK_NVSWITCH = 1, PL_LK_PCIE = 2, PL_LK_INTERSOCKET = 3,
    PL_LK_MEMORY = 4, PL_LK_NETWORK = 5, PL_LK_NVMEOF = 6, PL_LK_BOARD = 7, PL_LK_COUNT = 8
} pl_link_kind;
typedef enum pl_resource {
    PL_RES_UNITS = 0, PL_RES_CORES = 1, PL_RES_MEMORY = 2, PL_RES_GPU_MEMORY = 3,
    PL_RES_BANDWIDTH = 4, PL_RES_STORAGE = 5, PL_RES_GPU_MILLI = 6, PL_RES_COUNT = 7
} pl_resource;

/** Short name of a vertex kind (VK_GPU: "gpu", ...). */
const char *pl_vertex_kind_name(pl_vertex_kind kind);
/** Short name of a link kind (LK_NVLINK: "nvlink", ...). */
const char *pl_link_kind_name(pl_link_kind kind);
/** Short name of a resource (RES_UNITS: "units", ...). */
const char *pl_resource_name(pl_resource res);

%rename(LinkInfo) pl_link_info;
/** One link of a Topology, as Topology.link() returns it. */
typedef struct pl_link_info {
    /** The two vertices it joins (a, b). */
    int32_t a, b;
    /** Its kind (LK_NVLINK, LK_PCIE, ...). */
    pl_link_kind kind;
    /** Bandwidth in bytes per second. */
    int64_t bw_bytes_per_s;
    /** Latency in nanoseconds. */
    int64_t latency_ns;
    /** Weight in distances (seed 002's level weights). */
    int64_t weight;
} pl_link_info;

%inline %{
/* Names of the builtin machines ("minsky", "dgx1", ...). */
/** Number of builtin machines (see topology_builtin_name()). */
static int topology_builtin_count(void)
{
    int n = 0;
    for (const char *const *p = pl_topology_builtin_names(); *p; p++)
        n++;
    return n;
}
/** Name of builtin machine i ("minsky", "dgx1", ...). */
static const char *topology_builtin_name(int i)
{
    if (i < 0 || i >= topology_builtin_count())
        PLB_FAIL(PL_EINVAL, NULL, "builtin index %d out of range", i);
    return pl_topology_builtin_names()[i];
}
%}

%{
static pl_status plb_dot(const void *t, FILE *f) { return pl_topology_write_dot(t, f); }
static pl_status plb_text(const void *t, FILE *f) { return pl_topology_write_text(t, f); }

/* The path of names of v, malloc'ed (NULL and plb_status set on failure). */
static char *plb_path_name(const Topology *t, int32_t v)
{
    char small[8];
    pl_status st = pl_topology_path_name(t, v, small, sizeof small);
    size_t size = sizeof small;
    while (st == PL_ELIMIT && size < ((size_t)1 << 24)) {
        size *= 8;
        char *buf = malloc(size);
        if (!buf)
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        st = pl_topology_path_name(t, v, buf, size);
        if (st == PL_OK)
            return buf;
        free(buf);
    }
    PLB_CHECK(st, NULL);
    return strdup(small);
}

/* Name of vertex v (NULL and plb_status set for a bad id). */
static const char *plb_vertex_name(const Topology *t, int32_t v)
{
    pl_vertex_info i;
    PLB_CHECK(pl_topology_vertex(t, v, &i), NULL);
    return i.name;
}

/* Vertices of kind (or -1) under v (or -1: everywhere), in preorder. */
static plb_ints plb_descendants(const Topology *t, int32_t v, int kind)
{
    plb_ints r = { 0, NULL };
    int32_t n = 0;
    PLB_CHECK(pl_topology_descendants(t, v, kind, NULL, 0, &n), r);
    r = plb_ints_alloc(n);
    if (r.v && n > 0)
        PLB_CHECK(pl_topology_descendants(t, v, kind, r.v, n, &n), (free(r.v), (plb_ints){ 0, NULL }));
    return r;
}
%}

%newobject Topology::builtin;
%newobject Topology::from_xml;
%newobject Topology::from_xml_string;
%newobject Topology::from_hwloc;
%newobject Topology::from_json;
%newobject Topology::from_json_string;
%newobject Topology::cluster;
%newobject Topology::copy;
%newobject Topology::to_dot;
%newobject Topology::to_text;
%newobject Topology::path_name;

/** A hardware topology: a tree of typed vertices (cluster, rack, machine, package, NUMA node,
 *  switch, GPU, NIC, storage, pool) joined by typed links with bandwidth, latency and weight;
 *  vertices carry capacities, allocations and attributes (doc/topology.md). Vertex ids are 0-based
 *  ints; path_name() and find() translate them to and from paths such as
 *  "cluster/rack0/node0/package0/gpu1". */
typedef struct {} Topology;

%extend Topology {
    /** An empty topology; add_vertex() and add_link() build it. */
    Topology()
    {
        Topology *t = NULL;
        PLB_CHECK(pl_topology_create(&t), NULL);
        return t;
    }
    ~Topology() { pl_topology_free($self); }

    /** A reference machine: "minsky", "dgx1", "dgx2", "2s4g-pcie". */
    static Topology *builtin(const char *name)
    {
        Topology *t = NULL;
        PLB_CHECK(pl_topology_builtin(name, &t), NULL);
        return t;
    }
    /** The machine this process runs on, discovered by hwloc. */
    static Topology *from_hwloc(bool with_cores = false)
    {
        pl_hwloc_opts o;
        pl_hwloc_opts_init(&o);
        o.with_cores = with_cores;
        Topology *t = NULL;
        PLB_CHECK(pl_topology_load_hwloc(&o, &t), NULL);
        return t;
    }
    /** An hwloc XML export. */
    static Topology *from_xml(const char *path)
    {
        Topology *t = NULL;
        PLB_CHECK(pl_topology_load_xml(path, &t), NULL);
        return t;
    }
    /** An hwloc XML export given as text. */
    static Topology *from_xml_string(const char *text)
    {
        pl_hwloc_opts o;
        pl_hwloc_opts_init(&o);
        /* A NULL buffer means the live machine to the library: refuse it. */
        if (!text)
            PLB_FAIL(PL_EINVAL, NULL, "from_xml_string: text is None/nil");
        o.xml_buffer = text;
        o.xml_length = strlen(text);
        Topology *t = NULL;
        PLB_CHECK(pl_topology_load_hwloc(&o, &t), NULL);
        return t;
    }
    /** A JSON cluster description (doc/topology-json.md). */
    static Topology *from_json(const char *path)
    {
        Topology *t = NULL;
        PLB_CHECK(pl_topology_load_json(path, &t), NULL);
        return t;
    }
    /** A JSON cluster description given as text (doc/topology-json.md). */
    static Topology *from_json_string(const char *text)
    {
        Topology *t = NULL;
        PLB_CHECK(pl_topology_load_json_string(text, 0, &t), NULL);
        return t;
    }
    /** machines copies of machine (a one-machine topology) in racks; the copy owns its data. */
    static Topology *cluster(const Topology *machine, int32_t machines,
                                int32_t machines_per_rack = 1, int64_t network_bw = 0)
    {
        Topology *t = NULL;
        PLB_CHECK(pl_topology_cluster(machine, machines, machines_per_rack, network_bw, &t), NULL);
        return t;
    }
    /** An independent copy, allocations included. */
    Topology *copy()
    {
        Topology *t = NULL;
        PLB_CHECK(pl_topology_copy($self, &t), NULL);
        return t;
    }

    /** Add a vertex of kind (VK_*) under parent (-1: a root) with an optional name and OS index;
     *  returns its id. */
    int32_t add_vertex(pl_vertex_kind kind, int32_t parent = -1, const char *name = NULL,
                       int32_t os_index = -1)
    {
        int32_t id = -1;
        /* The library takes any negative index for "unknown"; -5 is a mistake. */
        if (os_index < -1)
            PLB_FAIL(PL_EINVAL, -1, "add_vertex: os_index must be >= 0, or -1 for unknown, got %d",
                     (int)os_index);
        PLB_CHECK(pl_topology_add_vertex($self, kind, parent, name, os_index, &id), -1);
        return id;
    }
    /** Link vertices a and b with a link of kind (LK_*); bandwidth in bytes/s, latency in ns,
     *  weight 0: the kind's default. Returns its id. */
    int32_t add_link(int32_t a, int32_t b, pl_link_kind kind, int64_t bw_bytes_per_s = 0,
                     int64_t latency_ns = 0, int64_t weight = 0)
    {
        int32_t id = -1;
        PLB_CHECK(pl_topology_add_link($self, a, b, kind, bw_bytes_per_s, latency_ns, weight, &id), -1);
        return id;
    }
    /** Set the capacity of resource res (RES_*) on vertex v. */
    void set_capacity(int32_t v, pl_resource res, int64_t amount)
    {
        PLB_CHECK(pl_topology_set_capacity($self, v, res, amount), );
    }

    /* Vertex attributes (what node constraints test: doc/topology.md). */
    /** Set attribute key of vertex v to value (None / nil removes it). */
    void set_attr(int32_t v, const char *key, const char *value)
    {
        PLB_CHECK(pl_topology_set_attr($self, v, key, value), );
    }
    /** Value of attribute key on v itself (not its ancestors); None / nil when absent. */
    const char *attr(int32_t v, const char *key)
    {
        if (v < 0 || v >= pl_topology_vertex_count($self))
            PLB_FAIL(PL_EINVAL, NULL, "vertex %d out of range (%d vertices)", (int)v,
                     (int)pl_topology_vertex_count($self));
        return pl_topology_attr($self, v, key);
    }
    /** Number of attributes set on vertex v. */
    int32_t attr_count(int32_t v)
    {
        if (v < 0 || v >= pl_topology_vertex_count($self))
            PLB_FAIL(PL_EINVAL, -1, "vertex %d out of range (%d vertices)", (int)v,
                     (int)pl_topology_vertex_count($self));
        return pl_topology_attr_count($self, v);
    }
    /** Key of attribute i of v (in the order keys were first set). */
    const char *attr_key(int32_t v, int32_t i)
    {
        const char *k = NULL;
        PLB_CHECK(pl_topology_attr_at($self, v, i, &k, NULL), NULL);
        return k;
    }
    /** Value of attribute i of v (in the order keys were first set). */
    const char *attr_value(int32_t v, int32_t i)
    {
        const char *val = NULL;
        PLB_CHECK(pl_topology_attr_at($self, v, i, NULL, &val), NULL);
        return val;
    }

    /** Number of vertices. */
    int32_t vertex_count() { return pl_topology_vertex_count($self); }
    /** Number of links. */
    int32_t link_count() { return pl_topology_link_count($self); }
    /** Name of vertex v ("gpu1", "node0", ...). */
    const char *vertex_name(int32_t v) { return plb_vertex_name($self, v); }
    /** Kind of vertex v (VK_*). */
    pl_vertex_kind vertex_kind(int32_t v)
    {
        pl_vertex_info i;
        PLB_CHECK(pl_topology_vertex($self, v, &i), PL_VK_COUNT);
        return i.kind;
    }
    /** Parent of vertex v (-1 for a root). */
    int32_t vertex_parent(int32_t v)
    {
        pl_vertex_info i;
        PLB_CHECK(pl_topology_vertex($self, v, &i), -1);
        return i.parent;
    }
    /** OS index of vertex v (-1 when unknown). */
    int32_t vertex_os_index(int32_t v)
    {
        pl_vertex_info i;
        PLB_CHECK(pl_topology_vertex($self, v, &i), -1);
        return i.os_index;
    }
    /** "machine/package0/gpu1": the path find() accepts. */
    char *path_name(int32_t v) { return plb_path_name($self, v); }
    /** Link link as a LinkInfo. */
    pl_link_info link(int32_t link)
    {
        pl_link_info i;
        memset(&i, 0, sizeof i);
        PLB_CHECK(pl_topology_link($self, link, &i), i);
        return i;
    }
    /** Vertex at path (as path_name() gives it); NotFoundError if none. */
    int32_t find(const char *path)
    {
        int32_t v = -1;
        PLB_CHECK(pl_topology_find($self, path, &v), -1);
        return v;
    }
    /** Nearest ancestor of v (v itself included) of kind (VK_*); NotFoundError if none. */
    int32_t ancestor(int32_t v, pl_vertex_kind kind)
    {
        int32_t a = -1;
        PLB_CHECK(pl_topology_ancestor($self, v, kind, &a), -1);
        return a;
    }
    /** Vertices of kind (-1: all) under v (-1: the whole topology), preorder. */
    plb_ints descendants(int32_t v = -1, int kind = -1) { return plb_descendants($self, v, kind); }
    /** GPU vertices under v (-1: all), preorder. */
    plb_ints gpus(int32_t v = -1) { return plb_descendants($self, v, PL_VK_GPU); }
    /** Children of vertex v (-1: the roots). */
    plb_ints children(int32_t v = -1)
    {
        plb_ints r = { 0, NULL };
        int32_t n = 0;
        PLB_CHECK(pl_topology_children($self, v, NULL, 0, &n), r);
        r = plb_ints_alloc(n);
        if (r.v && n > 0)
            PLB_CHECK(pl_topology_children($self, v, r.v, n, &n), (free(r.v), (plb_ints){ 0, NULL }));
        return r;
    }
    /** Shortest-path weight between vertices a and b. */
    int64_t distance(int32_t a, int32_t b)
    {
        int64_t w = 0;
        PLB_CHECK(pl_topology_distance($self, a, b, &w), 0);
        return w;
    }
    /** Bandwidth in bytes/s of the narrowest link on the path between a and b. */
    int64_t bottleneck_bw(int32_t a, int32_t b)
    {
        int64_t bw = 0;
        PLB_CHECK(pl_topology_bottleneck_bw($self, a, b, &bw), 0);
        return bw;
    }
    /** Row-major k x k distances between the GPUs under v (-1: all), in gpus(v) order. */
    plb_i64s gpu_distance_flat(int32_t v = -1)
    {
        plb_i64s r = { 0, NULL };
        plb_ints g = plb_descendants($self, v, PL_VK_GPU);
        if (plb_status != PL_OK)
            return r;
        if ((int64_t)g.n * g.n > INT32_MAX) {
            free(g.v);
            PLB_FAIL(PL_ELIMIT, r, "%d GPUs: distance matrix too large", (int)g.n);
        }
        r = plb_i64s_alloc(g.n * g.n);
        if (r.v) {
            pl_status st = pl_topology_distance_matrix($self, g.v, g.n, r.v);
            if (st != PL_OK) {
                free(r.v);
                r.v = NULL;
                r.n = 0;
                plb_status = st;
            }
        }
        free(g.v);
        return r;
    }
    /** Row-major k x k shortest-path distances between the k given vertices
     *  (0 on the diagonal, -1 where there is no path). */
    plb_i64s distance_flat(plb_doubles_in vertices)
    {
        plb_i64s r = { 0, NULL };
        if ((int64_t)vertices.n * vertices.n > INT32_MAX)
            PLB_FAIL(PL_ELIMIT, r, "%d vertices: distance matrix too large", (int)vertices.n);
        int32_t *v = plb_vertex_ids(vertices, "Topology.distance_flat");
        if (!v)
            return r;
        r = plb_i64s_alloc(vertices.n * vertices.n);
        if (r.v && vertices.n > 0) {
            pl_status st = pl_topology_distance_matrix($self, v, vertices.n, r.v);
            if (st != PL_OK) {
                free(r.v);
                r = (plb_i64s){ 0, NULL };
                plb_status = st;
            }
        }
        free(v);
        return r;
    }
    /** (capacity, allocated, free) of a resource on v. */
    plb_i64s amount(int32_t v, pl_resource res)
    {
        plb_i64s r = { 0, NULL };
        int64_t c, a, f;
        PLB_CHECK(pl_topology_amount($self, v, res, &c, &a, &f), r);
        r = plb_i64s_alloc(3);
        if (r.v) {
            r.v[0] = c;
            r.v[1] = a;
            r.v[2] = f;
        }
        return r;
    }
    /** Allocate amount of resource res on v (InvalidArgumentError beyond its free amount). */
    void alloc(int32_t v, pl_resource res, int64_t amount) { PLB_CHECK(pl_topology_alloc($self, v, res, amount), ); }
    /** Release amount of resource res on v. */
    void release(int32_t v, pl_resource res, int64_t amount) { PLB_CHECK(pl_topology_release($self, v, res, amount), ); }
    /** Release every allocation. */
    void release_all() { PLB_CHECK(pl_topology_release_all($self), ); }

    /** Graphviz DOT text. */
    char *to_dot() { return plb_write_string(plb_dot, $self); }
    /** The readable tree, links and GPU distance matrices. */
    char *to_text() { return plb_write_string(plb_text, $self); }
}
