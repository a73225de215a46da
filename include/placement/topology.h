/**
 * \file placement/topology.h
 * \brief Physical topology graphs: clusters, racks, machines, sockets, NUMA
 *        nodes, switches, GPUs, NICs, storage and disaggregated pools, joined
 *        by links (NVLink, PCIe, inter-socket, network, ...) with bandwidth,
 *        latency and a qualitative distance weight; allocation state on top.
 *
 * Model (seed 002 sec. 4.1 / Fig. 7, seed 004's server and rack nodes). A
 * topology holds two structures over the same vertices:
 *  - a containment forest: every vertex has at most one parent (a GPU's
 *    parent is its switch or socket, a socket's is its machine, a machine's
 *    its rack, ...). It answers "which GPUs are in this machine";
 *  - an undirected multigraph of links: the physical connections data moves
 *    over. Distances and bandwidths are computed on links only; containment
 *    alone does not connect two vertices.
 *
 * Link weights (seed 002: "each level right after the GPU level has weight
 * 1, whilst at higher levels, such as the socket level, the edges have weight
 * 20"): a link's default weight is the level weight of the lower of its two
 * ends' levels (see ::pl_vertex_kind for levels). Defaults: device level 1,
 * switch/NUMA level 1, socket level 20, machine level 40, rack level 80,
 * cluster/pool level 160; so GPU-GPU NVLink and GPU-socket links weigh 1,
 * socket-socket and socket-machine links 20, machine-rack links 40. Every
 * weight is settable per link.
 *
 * Ids: vertices and links are numbered 0, 1, 2, ... in creation order and are
 * never removed. Quantities are int64_t: bytes, bytes per second,
 * nanoseconds, counts.
 *
 * Allocation: every vertex has a capacity and an allocated amount per
 * ::pl_resource; pl_topology_alloc() refuses over-allocation without changing
 * anything. Snapshots save and restore the allocated amounts cheaply, so a
 * policy can try a placement and roll it back.
 *
 * Life cycle: pl_topology_create() or a loader (pl_topology_load_xml(),
 * pl_topology_load_hwloc(), pl_topology_load_json(), pl_topology_builtin(),
 * pl_topology_cluster()) -> add vertices/links, set capacities -> queries and
 * allocations -> pl_topology_free().
 *
 * Thread-safety: read-only queries (every function taking a const
 * pl_topology *) may run concurrently on one handle; a call that modifies a
 * handle must not run concurrently with any other call on it. Distinct
 * handles are independent.
 */
#ifndef PLACEMENT_TOPOLOGY_H
#define PLACEMENT_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <placement/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_topology Physical topology
 *  @{ */

/** Opaque topology handle. */
typedef struct pl_topology pl_topology;

/** Saved allocation state of a topology (see pl_topology_snapshot()). */
typedef struct pl_topology_snapshot pl_topology_snapshot;

/** Kind of a vertex, with its level (for default link weights) in brackets. */
typedef enum pl_vertex_kind {
    PL_VK_CLUSTER = 0,   /**< Cluster or network fabric [5]. */
    PL_VK_RACK = 1,      /**< Rack (seed 004's rack node RN) [4]. */
    PL_VK_MACHINE = 2,   /**< Machine / server node (SN) [3]. */
    PL_VK_PACKAGE = 3,   /**< Processor package (socket) [2]. */
    PL_VK_NUMA = 4,      /**< NUMA node (memory) [1]. */
    PL_VK_PCI_SWITCH = 5,/**< PCIe switch or host bridge [1]. */
    PL_VK_NVSWITCH = 6,  /**< NVLink switch (NVSwitch) [1]. */
    PL_VK_CORE = 7,      /**< CPU core [0]. */
    PL_VK_GPU = 8,       /**< GPU [0]. */
    PL_VK_NIC = 9,       /**< Network interface [0]. */
    PL_VK_STORAGE = 10,  /**< NVMe or other storage device [0]. */
    PL_VK_POOL = 11,     /**< Pool of disaggregated devices [5]. */
    PL_VK_COUNT = 12     /**< Number of kinds (not a kind). */
} pl_vertex_kind;

/** Kind of a link. */
typedef enum pl_link_kind {
    PL_LK_NVLINK = 0,     /**< NVLink point to point (GPU-GPU, GPU-CPU). */
    PL_LK_NVSWITCH = 1,   /**< NVLink through an NVSwitch (GPU-NVSwitch). */
    PL_LK_PCIE = 2,       /**< PCI Express. */
    PL_LK_INTERSOCKET = 3,/**< X-Bus / QPI / UPI / Infinity Fabric between sockets. */
    PL_LK_MEMORY = 4,     /**< Socket to its NUMA memory. */
    PL_LK_NETWORK = 5,    /**< Network or fabric (machine-rack, rack-cluster, ...). */
    PL_LK_NVMEOF = 6,     /**< NVMe over fabrics (storage pools). */
    PL_LK_BOARD = 7,      /**< Other on-board connection (e.g. socket to its machine's I/O). */
    PL_LK_COUNT = 8       /**< Number of kinds (not a kind). */
} pl_link_kind;

/** Resources a vertex can offer and a placement can allocate. */
typedef enum pl_resource {
    PL_RES_UNITS = 0,      /**< The device itself: 1 for a GPU, NIC or storage device; devices in a pool. */
    PL_RES_CORES = 1,      /**< CPU cores. */
    PL_RES_MEMORY = 2,     /**< Main memory, bytes. */
    PL_RES_GPU_MEMORY = 3, /**< GPU memory, bytes. */
    PL_RES_BANDWIDTH = 4,  /**< Device bandwidth, bytes per second. */
    PL_RES_STORAGE = 5,    /**< Storage, bytes. */
    PL_RES_GPU_MILLI = 6,  /**< Thousandths of a GPU, for GPU sharing (Kubernetes style: 1000 = one GPU).
                                Every GPU vertex gets capacity 1000 when it is created; a task on a whole
                                GPU takes its share of them (all 1000 of a 1-unit GPU), a fractional task
                                only its milli (placement/policy.h). Capacity 0: the GPU is never shared. */
    PL_RES_COUNT = 7       /**< Number of resources (not a resource). */
} pl_resource;

/** Description of a vertex, filled by pl_topology_vertex(). */
typedef struct pl_vertex_info {
    pl_vertex_kind kind; /**< What the vertex is (::pl_vertex_kind: machine, package, GPU, ...). */
    int32_t parent;      /**< Containing vertex, or -1 for a root. */
    int32_t depth;       /**< 0 for a root, parent's depth + 1 otherwise. */
    int32_t os_index;    /**< OS / physical index (e.g. CUDA device number), -1 if none. */
    const char *name;    /**< Owned by the topology; valid until it is freed. Never NULL. */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_vertex_info;

/** Description of a link, filled by pl_topology_link(). */
typedef struct pl_link_info {
    int32_t a;               /**< One end (a link is undirected). */
    int32_t b;               /**< The other end. */
    pl_link_kind kind;       /**< Technology of the link (::pl_link_kind). */
    int64_t bw_bytes_per_s;  /**< Bandwidth in each direction; 0 = unknown (treated as unlimited). */
    int64_t latency_ns;      /**< 0 = unknown. */
    int64_t weight;          /**< Qualitative distance weight, > 0. */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_link_info;

/* ---- names -------------------------------------------------------------- */

/** \brief Short name of a vertex kind ("gpu", "package", ...); "?" if out of range. */
const char *pl_vertex_kind_name(pl_vertex_kind kind);
/** \brief Short name of a link kind ("nvlink", "pcie", ...); "?" if out of range. */
const char *pl_link_kind_name(pl_link_kind kind);
/** \brief Short name of a resource ("units", "cores", "memory", ...); "?" if out of range. */
const char *pl_resource_name(pl_resource res);
/**
 * \brief Parse a vertex kind, link kind or resource name (as printed by the
 *        functions above).
 * \return ::PL_OK, ::PL_ENOTFOUND (unknown name; the message lists the valid
 *         ones), ::PL_EINVAL (NULL argument).
 */
pl_status pl_vertex_kind_parse(const char *name, pl_vertex_kind *kind);
/** \copydoc pl_vertex_kind_parse */
pl_status pl_link_kind_parse(const char *name, pl_link_kind *kind);
/** \copydoc pl_vertex_kind_parse */
pl_status pl_resource_parse(const char *name, pl_resource *res);

/**
 * \brief Level of a vertex kind (device 0 ... cluster 5), see ::pl_vertex_kind.
 * \return the level, or -1 if \p kind is out of range.
 */
int pl_vertex_kind_level(pl_vertex_kind kind);

/**
 * \brief Default weight of a link between two vertex kinds: the level weight
 *        of the lower level of the two (1, 1, 20, 40, 80, 160 for levels 0..5).
 * \return the weight, or -1 if a kind is out of range.
 */
int64_t pl_link_default_weight(pl_vertex_kind a, pl_vertex_kind b);

/* ---- life cycle ------------------------------------------------------------ */

/**
 * \brief Create an empty topology.
 * \param[out] out the new topology, released with pl_topology_free().
 * \return ::PL_OK, ::PL_EINVAL (\p out NULL), ::PL_ENOMEM.
 */
pl_status pl_topology_create(pl_topology **out);

/** \brief Release a topology and everything it owns. NULL is a no-op. */
void pl_topology_free(pl_topology *topo);

/**
 * \brief Deep copy: vertices, links, capacities, allocations and attributes.
 * \param[out] out the copy, released with pl_topology_free().
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_topology_copy(const pl_topology *topo, pl_topology **out);

/* ---- building -------------------------------------------------------------- */

/**
 * \brief Add a vertex.
 * \param parent containing vertex, or -1 for a new root.
 * \param name label (copied); NULL gives "<kind><os_index>" or "<kind>" .
 *        Names need not be unique; pl_topology_find() resolves paths of names.
 *        A name may not contain '/'.
 * \param os_index OS / physical index, or -1.
 * \param[out] id the new vertex's id (may be NULL).
 * \return ::PL_OK; ::PL_EINVAL (bad kind or parent, '/' in name, more than
 *         2^31 - 2 vertices); ::PL_ENOMEM (nothing added).
 */
pl_status pl_topology_add_vertex(pl_topology *topo, pl_vertex_kind kind, int32_t parent,
                                 const char *name, int32_t os_index, int32_t *id);

/**
 * \brief Set a vertex's capacity of a resource. What is already allocated
 *        stays allocated.
 * \return ::PL_OK; ::PL_EINVAL (bad id or resource, negative amount, or an
 *         amount below what is allocated: nothing changed).
 */
pl_status pl_topology_set_capacity(pl_topology *topo, int32_t v, pl_resource res, int64_t amount);

/**
 * \brief Add an undirected link between two distinct vertices.
 * \param bw_bytes_per_s bandwidth, >= 0 (0 = unknown).
 * \param latency_ns latency, >= 0 (0 = unknown).
 * \param weight distance weight > 0, or 0 for pl_link_default_weight() of the ends' kinds.
 * \param[out] id the new link's id (may be NULL).
 * \return ::PL_OK; ::PL_EINVAL (bad ids, a == b, bad kind, negative values);
 *         ::PL_ENOMEM (nothing added).
 */
pl_status pl_topology_add_link(pl_topology *topo, int32_t a, int32_t b, pl_link_kind kind,
                               int64_t bw_bytes_per_s, int64_t latency_ns, int64_t weight,
                               int32_t *id);

/** \brief Change a link's weight (> 0). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_topology_set_link_weight(pl_topology *topo, int32_t link, int64_t weight);

/** \brief Change a link's bandwidth (>= 0). \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_topology_set_link_bandwidth(pl_topology *topo, int32_t link, int64_t bw_bytes_per_s);

/**
 * \brief Copy the whole of \p src (all its vertices, links, capacities,
 *        allocations and attributes) into \p dst, its roots becoming children of \p parent
 *        (or roots of \p dst when \p parent is -1). Vertex i of \p src
 *        becomes vertex (*first_vertex + i) of \p dst. Used to build clusters
 *        from machine templates.
 * \param src may not be \p dst.
 * \param[out] first_vertex id in \p dst of src's vertex 0 (may be NULL).
 * \return ::PL_OK; ::PL_EINVAL; ::PL_ENOMEM (\p dst unchanged).
 */
pl_status pl_topology_graft(pl_topology *dst, int32_t parent, const pl_topology *src,
                            int32_t *first_vertex);

/* ---- vertex attributes (lib/topology/attrs.c) ------------------------------------- */

/**
 * \brief Set a key/value string attribute on vertex \p v ("arch" =
 *        "power8", "zone" = "a"): what the node constraints of a job test
 *        (placement/job.h, doc/topology.md). Setting an existing key replaces
 *        its value; a NULL \p value removes the key (no error if absent).
 *        Both strings are copied. Attributes are copied by pl_topology_copy(),
 *        pl_topology_graft() and pl_topology_cluster(), and loaded from the
 *        "attrs" objects of a JSON description (doc/topology-json.md).
 * \return ::PL_OK; ::PL_EINVAL (bad vertex, NULL or empty key, empty
 *         value); ::PL_ENOMEM (nothing changed).
 */
pl_status pl_topology_set_attr(pl_topology *topo, int32_t v, const char *key, const char *value);

/**
 * \brief Value of attribute \p key on vertex \p v, owned by the topology
 *        (valid until the attribute is set again or removed, or the topology
 *        freed); NULL when absent, or for a bad vertex or NULL key. Only \p v
 *        itself is looked at, not its ancestors.
 */
const char *pl_topology_attr(const pl_topology *topo, int32_t v, const char *key);

/** \brief Number of attributes of vertex \p v (0 for a bad vertex). */
int32_t pl_topology_attr_count(const pl_topology *topo, int32_t v);

/**
 * \brief Attribute \p i (0 .. pl_topology_attr_count() - 1, in the order the
 *        keys were first set) of vertex \p v.
 * \param[out] key, value owned by the topology, as for pl_topology_attr(); either may be NULL.
 * \return ::PL_OK or ::PL_EINVAL (bad vertex or index).
 */
pl_status pl_topology_attr_at(const pl_topology *topo, int32_t v, int32_t i, const char **key,
                              const char **value);

/* ---- queries ------------------------------------------------------------------ */

/** \brief Number of vertices (0 for NULL). */
int32_t pl_topology_vertex_count(const pl_topology *topo);
/** \brief Number of links (0 for NULL). */
int32_t pl_topology_link_count(const pl_topology *topo);

/** \brief Describe vertex \p v. \return ::PL_OK or ::PL_EINVAL (bad id, NULL). */
pl_status pl_topology_vertex(const pl_topology *topo, int32_t v, pl_vertex_info *info);
/** \brief Describe link \p link. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_topology_link(const pl_topology *topo, int32_t link, pl_link_info *info);

/**
 * \brief Capacity, allocated and free amount of a resource on a vertex.
 * \param[out] capacity, allocated, free_amount any may be NULL.
 * \return ::PL_OK or ::PL_EINVAL.
 */
pl_status pl_topology_amount(const pl_topology *topo, int32_t v, pl_resource res,
                             int64_t *capacity, int64_t *allocated, int64_t *free_amount);

/**
 * \brief Sum of a resource's capacity and free amount over \p v and every
 *        vertex under it (e.g. the free GPUs of a machine: ::PL_RES_UNITS
 *        summed over its ::PL_VK_GPU descendants is
 *        pl_topology_subtree_amount(t, m, PL_VK_GPU, PL_RES_UNITS, ...)).
 * \param kind count only vertices of this kind, or -1 for all.
 * \return ::PL_OK, ::PL_EINVAL, ::PL_EOVERFLOW.
 */
pl_status pl_topology_subtree_amount(const pl_topology *topo, int32_t v, int kind,
                                     pl_resource res, int64_t *capacity, int64_t *free_amount);

/**
 * \brief Find a vertex by its path of names from a root, '/'-separated
 *        ("node3/package1/gpu2"). Among siblings of equal name the first
 *        added wins.
 * \return ::PL_OK; ::PL_ENOTFOUND (the message names the first component
 *         not found); ::PL_EINVAL.
 */
pl_status pl_topology_find(const pl_topology *topo, const char *path, int32_t *v);

/**
 * \brief Write the path of names of \p v (as accepted by pl_topology_find())
 *        into \p buf. Never truncates silently.
 * \return ::PL_OK; ::PL_ELIMIT (\p buf too small: it holds the truncated,
 *         NUL-terminated path and the message gives the size needed);
 *         ::PL_EINVAL.
 */
pl_status pl_topology_path_name(const pl_topology *topo, int32_t v, char *buf, size_t size);

/**
 * \brief Vertices of kind \p kind in the subtree of \p v (\p v included),
 *        in preorder (parents before children, siblings in creation order).
 *        Pass \p v = -1 for the whole topology, \p kind = -1 for all kinds.
 *
 * Array protocol shared by the list queries: \p out may be NULL (or \p cap
 * too small); *count always receives the full number of results and at most
 * \p cap are written.
 * \return ::PL_OK; ::PL_ELIMIT when \p cap < *count and \p out is not NULL
 *         (the first \p cap results are written); ::PL_EINVAL.
 */
pl_status pl_topology_descendants(const pl_topology *topo, int32_t v, int kind,
                                  int32_t *out, int32_t cap, int32_t *count);

/** \brief Direct children of \p v in creation order (\p v = -1: the roots). Array protocol of pl_topology_descendants(). */
pl_status pl_topology_children(const pl_topology *topo, int32_t v, int32_t *out, int32_t cap,
                               int32_t *count);

/** \brief Links incident to \p v in creation order. Array protocol of pl_topology_descendants(). */
pl_status pl_topology_links_of(const pl_topology *topo, int32_t v, int32_t *out, int32_t cap,
                               int32_t *count);

/**
 * \brief Nearest vertex of kind \p kind among \p v and its ancestors (e.g.
 *        the machine or socket of a GPU).
 * \return ::PL_OK; ::PL_ENOTFOUND (none); ::PL_EINVAL.
 */
pl_status pl_topology_ancestor(const pl_topology *topo, int32_t v, pl_vertex_kind kind,
                               int32_t *out);

/**
 * \brief Weight of the shortest path between \p a and \p b over links
 *        (Dijkstra; 0 when a == b).
 * \return ::PL_OK; ::PL_ENOTFOUND (no path); ::PL_EINVAL; ::PL_EOVERFLOW.
 */
pl_status pl_topology_distance(const pl_topology *topo, int32_t a, int32_t b, int64_t *weight);

/**
 * \brief The links of one shortest path from \p a to \p b, in order.
 *        Array protocol of pl_topology_descendants().
 * \return as pl_topology_distance(), plus ::PL_ELIMIT.
 */
pl_status pl_topology_path(const pl_topology *topo, int32_t a, int32_t b, int32_t *links,
                           int32_t cap, int32_t *count);

/**
 * \brief Bottleneck bandwidth of the best path between \p a and \p b: the
 *        smallest link bandwidth along the shortest path by weight (of
 *        equally short paths, the one whose bottleneck is largest). Links of
 *        unknown bandwidth (0) do not limit it; INT64_MAX when no link of
 *        the path has a known bandwidth or a == b.
 * \note The shortest path rather than the widest one, because on-board
 *       connections of unknown bandwidth (e.g. ::PL_LK_BOARD socket-machine
 *       links) would otherwise make every detour through the machine vertex
 *       look unlimited.
 * \return ::PL_OK; ::PL_ENOTFOUND (no path); ::PL_EINVAL; ::PL_EOVERFLOW.
 */
pl_status pl_topology_bottleneck_bw(const pl_topology *topo, int32_t a, int32_t b,
                                    int64_t *bw_bytes_per_s);

/**
 * \brief Shortest-path distances between every pair of \p k vertices,
 *        row-major in \p matrix (k * k entries, 0 on the diagonal; -1 for a
 *        pair without a path).
 * \return ::PL_OK; ::PL_EINVAL; ::PL_ENOMEM; ::PL_EOVERFLOW.
 */
pl_status pl_topology_distance_matrix(const pl_topology *topo, const int32_t *verts, int32_t k,
                                      int64_t *matrix);

/**
 * \brief Split a set of vertices (typically free GPUs) into two groups for
 *        recursive bipartitioning, without cutting the deepest shared
 *        structure: the vertices are grouped by the child of their lowest
 *        common ancestor that contains them (by machine across machines, by
 *        socket inside a machine, ...), and whole groups are dealt to the
 *        two sides, largest first, each to the side with fewer vertices so
 *        far. When all of them hang directly under the common ancestor (or
 *        one group would hold them all), the first ceil(k/2) in the given
 *        order go to side 0.
 * \param[out] side k entries, 0 or 1; side 0 gets at least as many as side 1.
 * \return ::PL_OK; ::PL_EINVAL (bad or repeated ids, k < 2 is allowed: all 0);
 *         ::PL_ENOMEM.
 */
pl_status pl_topology_bipartition(const pl_topology *topo, const int32_t *verts, int32_t k,
                                  uint8_t *side);

/* ---- allocation ------------------------------------------------------------------ */

/**
 * \brief Allocate \p amount (> 0) of \p res on vertex \p v.
 * \return ::PL_OK; ::PL_EINVAL (bad arguments, or not enough free: nothing
 *         changed, the message gives capacity and free amount).
 */
pl_status pl_topology_alloc(pl_topology *topo, int32_t v, pl_resource res, int64_t amount);

/**
 * \brief Release \p amount (> 0) of \p res on \p v.
 * \return ::PL_OK; ::PL_EINVAL (bad arguments, or more than is allocated:
 *         nothing changed).
 */
pl_status pl_topology_release(pl_topology *topo, int32_t v, pl_resource res, int64_t amount);

/** \brief Release every allocation on every vertex. \return ::PL_OK or ::PL_EINVAL. */
pl_status pl_topology_release_all(pl_topology *topo);

/**
 * \brief Save the allocated amounts of every vertex.
 * \param[out] out released with pl_topology_snapshot_free().
 * \return ::PL_OK, ::PL_EINVAL, ::PL_ENOMEM.
 */
pl_status pl_topology_snapshot_take(const pl_topology *topo, pl_topology_snapshot **out);

/**
 * \brief Put back the allocated amounts saved in \p snap. Capacities are not
 *        saved: an amount above the current capacity is refused.
 * \return ::PL_OK; ::PL_EINVAL (snapshot of another topology shape, or it no
 *         longer fits the capacities: nothing changed).
 */
pl_status pl_topology_snapshot_restore(pl_topology *topo, const pl_topology_snapshot *snap);

/** \brief Release a snapshot. NULL is a no-op. */
void pl_topology_snapshot_free(pl_topology_snapshot *snap);

/* ---- loaders (lib/topology/hwloc.c, json.c, builtin.c, cluster.c) ---------------- */

/** Options of pl_topology_load_hwloc(); initialise with pl_hwloc_opts_init(). */
typedef struct pl_hwloc_opts {
    const char *xml_path;        /**< hwloc XML file to load, or NULL. */
    const char *xml_buffer;      /**< hwloc XML text (used when xml_path is NULL), or NULL for the live machine. */
    size_t xml_length;           /**< Length of xml_buffer in bytes (0: strlen). */
    int with_cores;              /**< Nonzero: add a ::PL_VK_CORE vertex per core (default: cores only counted). */
    int64_t intersocket_bw;      /**< Bandwidth of the links added between sockets, bytes/s (default 38.4e9, POWER8 X-Bus). */
    int64_t nvlink_bw_unit;      /**< Bytes/s per unit of the NVLinkBandwidth matrix (default 1e6: hwloc gives MB/s). */
    int64_t board_bw;            /**< Bandwidth of the socket-machine ::PL_LK_BOARD links, the path out of the machine, bytes/s (default 15.75e9, PCIe 3.0 x16, as the builtin machines). */
    uint64_t reserved[4];      /**< Room for members added later without changing the size (ABI): zero, unused. */
} pl_hwloc_opts;

/** \brief Fill \p opts with the defaults. */
void pl_hwloc_opts_init(pl_hwloc_opts *opts);

/**
 * \brief Build a one-machine topology with hwloc: the live machine (I/O
 *        devices enabled, so GPUs, NICs and NVMe appear; NUMA latencies from
 *        hwloc or libnuma) or an hwloc XML export. See doc/topology-hwloc.md for
 *        what becomes a vertex and a link.
 * \param opts NULL for the defaults (live machine).
 * \return ::PL_OK; ::PL_EPARSE (malformed XML: message from hwloc);
 *         ::PL_EIO (unreadable file); ::PL_EINTERNAL (hwloc failed);
 *         ::PL_ENOMEM.
 */
pl_status pl_topology_load_hwloc(const pl_hwloc_opts *opts, pl_topology **out);

/** \brief pl_topology_load_hwloc() of an XML file with default options. */
pl_status pl_topology_load_xml(const char *path, pl_topology **out);

/**
 * \brief Load a JSON cluster description (schema and example:
 *        doc/topology-json.md): machine templates (builtin, hwloc XML or an
 *        inline tree) copied into racks or directly under a cluster root,
 *        network links, extra links and pools of disaggregated devices.
 *        A relative XML template path is relative to the JSON file's directory.
 * \param[out] out the new topology (released with pl_topology_free()); NULL on error.
 * \return ::PL_OK; ::PL_EIO (unreadable file, or unreadable XML template);
 *         ::PL_EPARSE (syntax error: file:line:column; schema error: the
 *         message gives the JSON path of the bad field, e.g.
 *         "$.machines[2].count: expected an integer >= 1, got 0"; errors of a
 *         template's loader keep their status, the JSON path prepended);
 *         ::PL_ENOTFOUND (unknown builtin template); ::PL_EINVAL (NULL
 *         argument); ::PL_ENOMEM.
 */
pl_status pl_topology_load_json(const char *path, pl_topology **out);

/**
 * \brief pl_topology_load_json() from text in memory (\p length 0: strlen;
 *        otherwise the first \p length bytes, no NUL needed). Relative XML
 *        template paths are relative to the current directory; syntax errors
 *        name the source "<string>".
 */
pl_status pl_topology_load_json_string(const char *text, size_t length, pl_topology **out);

/**
 * Default of pl_topology_json_opts.max_vertices: 10,000,000 vertices, about
 * 2.3 GB (a Minsky machine is 9 vertices and 12 links, about 230 bytes per
 * vertex), so that a 90-byte file with "count": 2147483647 is refused
 * instead of growing without bound.
 */
#define PL_TOPO_JSON_MAX_VERTICES 10000000

/** Limits of pl_topology_load_json_opts(); initialise with pl_topology_json_opts_init(). */
typedef struct pl_topology_json_opts {
    int64_t max_vertices;    /**< Refuse a cluster of more vertices, counted before they are built
                                  (default ::PL_TOPO_JSON_MAX_VERTICES; 1 to 2^31 - 2). */
    int64_t reserved[4];     /**< Zero (set by the init function): room for more limits. */
} pl_topology_json_opts;

/** \brief Defaults for every field. NULL is a no-op. */
void pl_topology_json_opts_init(pl_topology_json_opts *opts);

/**
 * \brief pl_topology_load_json() (\p path) or pl_topology_load_json_string()
 *        (\p text, \p length), exactly one of the two, under the limits of
 *        \p opts (NULL: the defaults, which the other two loaders use).
 * \return as those loaders; ::PL_EPARSE naming the "count" that would take
 *         the cluster past max_vertices; ::PL_EINVAL (both or neither of
 *         path and text, max_vertices out of range).
 */
pl_status pl_topology_load_json_opts(const pl_topology_json_opts *opts, const char *path,
                                     const char *text, size_t length, pl_topology **out);

/**
 * \brief Build a reference machine by name: "minsky" (IBM S822LC: 2 POWER8
 *        sockets, 4 P100, NVLink pairs and GPU-socket NVLink), "dgx1"
 *        (8 V100, hybrid cube-mesh NVLink), "dgx2" (16 V100 on 12 NVSwitches),
 *        "2s4g-pcie" (2 sockets, 2 PCIe GPUs per socket, no NVLink).
 *        Vertex names are the defaults "<kind><os_index>" ("package0",
 *        "numa1", "pci-switch2", "nvswitch5", "gpu3") under a root named
 *        "machine"; doc/topology-builtin.md gives every part, link and number
 *        with its source.
 * \param[out] out the machine, released with pl_topology_free(); NULL on error.
 * \return ::PL_OK; ::PL_ENOTFOUND (the message lists the names); ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_topology_builtin(const char *name, pl_topology **out);

/** \brief NULL-terminated list of the builtin machine names (static). */
const char *const *pl_topology_builtin_names(void);

/**
 * \brief A homogeneous cluster: \p machines copies of \p machine_template
 *        (a topology with exactly one root, of kind ::PL_VK_MACHINE, e.g. a
 *        builtin), grouped into racks of \p machines_per_rack under one
 *        cluster root named "cluster". Machine i (the copy of the template's
 *        root, with everything under it: capacities, allocations and attributes too) is
 *        named "node<i>" and sits in rack i / machines_per_rack, named
 *        "rack<r>"; so "cluster/rack1/node2/package1/gpu3" with a Minsky
 *        template and 2 machines per rack. Each machine is linked to its
 *        rack and each rack to the cluster by ::PL_LK_NETWORK links of
 *        \p network_bw bytes/s (0: 12.5e9, 100 Gb/s) and default weights
 *        (40 machine-rack, 80 rack-cluster).
 * \param[out] out the cluster, released with pl_topology_free(); NULL on error.
 * \return ::PL_OK; ::PL_EINVAL (NULL argument, machines < 1,
 *         machines_per_rack < 1, network_bw < 0, a template that is empty,
 *         has several roots or a root that is not a machine, or a cluster
 *         beyond the vertex/link limits); ::PL_ENOMEM.
 */
pl_status pl_topology_cluster(const pl_topology *machine_template, int32_t machines,
                              int32_t machines_per_rack, int64_t network_bw, pl_topology **out);

/* ---- output (lib/topology/dot.c, text.c) ---------------------------------------- */

/**
 * \brief Write a Graphviz DOT picture: vertices grouped in clusters by
 *        machine and socket, links labelled with kind and bandwidth,
 *        vertices with allocations shaded.
 *
 * An undirected "graph topology"; vertex v is node "v<v>" labelled with
 * its name and kind on two lines; every machine and package opens a
 * "subgraph cluster_<v>" holding its subtree; links are edges labelled "kind BW" ("nvlink 40
 * GB/s"); a vertex with any allocated amount is style=filled, fillcolor=grey.
 * \return ::PL_OK; ::PL_EIO (write error); ::PL_EINVAL.
 */
pl_status pl_topology_write_dot(const pl_topology *topo, FILE *f);

/**
 * \brief Write a readable indented tree (kinds, names, capacities and free
 *        amounts), the links, and the GPU distance matrix of each machine.
 *
 * One line per vertex in preorder, indented by depth: "kind name [os N]"
 * then each resource with a non-zero capacity as "res CAP (FREE free)"
 * (bytes in GiB/MiB/KiB, bandwidth in GB/s). Then "links:" with one line
 * per link: "PATH -- PATH  kind BW [LAT ns]  weight W". Then, per machine
 * with GPUs, "gpu distances in PATH:" and the matrix of
 * pl_topology_distance_matrix() over its GPUs in preorder ("-": no path).
 * The matrices cost one bounded Dijkstra per GPU, each with scratch the
 * size of the whole topology: a few seconds for 10,000 machines.
 * \return ::PL_OK; ::PL_EIO; ::PL_EINVAL; ::PL_ENOMEM.
 */
pl_status pl_topology_write_text(const pl_topology *topo, FILE *f);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_TOPOLOGY_H */
