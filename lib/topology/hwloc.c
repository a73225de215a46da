/* hwloc loader: the live machine or an hwloc XML export becomes a one-machine
 * topology. What becomes a vertex and a link is specified in
 * doc/topology-hwloc.md; the comments here say why, the doc says what. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hwloc.h>
#include <numa.h>
#include "topology_impl.h"

#define PCI_VENDOR_NVIDIA 0x10de
#define PCI_VENDOR_AMD 0x1002

/* State of one load. hwloc objects we turned into vertices carry vertex + 1
 * in their userdata (we own the hwloc topology, so nobody else uses it). */
typedef struct hw_load {
    hwloc_topology_t h;
    pl_topology *t;
    const pl_hwloc_opts *o;
    int from_xml;
    hwloc_obj_type_t core_type;   /* Core, or PU when hwloc found no cores */
    int32_t machine;
    int32_t npkg;
    int32_t *pkg_v;               /* [npkg] package vertex by logical index */
    hwloc_obj_t *pkg_obj;         /* [npkg], NULL entries for the synthetic package */
    int32_t nics;                 /* running counts for unnamed devices */
    int32_t nvmes;
} hw_load;

static void set_vertex_of(hwloc_obj_t obj, int32_t v)
{
    obj->userdata = (void *)(intptr_t)(v + 1);
}

static int32_t vertex_of(hwloc_obj_t obj)
{
    return obj ? (int32_t)((intptr_t)obj->userdata - 1) : -1;
}

/* ---- error reporting ------------------------------------------------------ */

/* hwloc 2.x refuses hwloc 3 exports with a bare EINVAL; say so plainly, since
 * the file is not malformed. */
static int is_hwloc3_xml(const char *head)
{
    const char *p = strstr(head, "<topology");
    return p && strncmp(p, "<topology version=\"3.", 21) == 0;
}

static pl_status parse_error(const char *what, const char *head, int err)
{
    if (head && is_hwloc3_xml(head))
        return pl_err(PL_EPARSE,
                      "%s is an hwloc 3 XML export, which hwloc 2 (API %u.%u here) cannot import: "
                      "export it in the hwloc 2 (v2) XML format", what,
                      hwloc_get_api_version() >> 16, (hwloc_get_api_version() >> 8) & 0xff);
    return pl_err(PL_EPARSE, "hwloc could not parse %s as topology XML%s%s", what,
                  err ? ": " : "", err ? strerror(err) : "");
}

/* Read the whole file ourselves: hwloc reports every failure as EINVAL, so
 * this is the only way to tell an unreadable file (EIO) from a bad one, and
 * the text must be checked by pl_hwloc_xml_guard() before hwloc sees it. */
static pl_status read_file(const char *path, char **text, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return pl_err(PL_EIO, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = pl_alloc(cap, 1);
    pl_status st = buf ? PL_OK : PL_ENOMEM;
    while (st == PL_OK) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (ferror(f)) {
            st = pl_err(PL_EIO, "cannot read %s: %s", path, strerror(errno));
        } else if (feof(f)) {
            break;
        } else if (n == cap - 1) {
            char *bigger = cap > (size_t)INT32_MAX / 2 ? NULL : pl_realloc_array(buf, cap * 2, 1);
            if (!bigger)
                st = cap > (size_t)INT32_MAX / 2
                         ? pl_err(PL_EINVAL, "%s: XML file too large", path) : PL_ENOMEM;
            else
                buf = bigger, cap *= 2;
        }
    }
    fclose(f);
    if (st != PL_OK) {
        free(buf);
        return st;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return PL_OK;
}

/* ---- hwloc life cycle ------------------------------------------------------ */

static pl_status open_hwloc(const pl_hwloc_opts *o, hwloc_topology_t *out)
{
    char head[512];
    char *copy = NULL;
    const char *what = o->xml_path ? o->xml_path : "the XML buffer";
    size_t len = 0;
    pl_status st;

    if (o->xml_path) {
        if ((st = read_file(o->xml_path, &copy, &len)) != PL_OK)
            return st;
    } else if (o->xml_buffer) {
        len = o->xml_length ? o->xml_length : strlen(o->xml_buffer);
        if (len > (size_t)INT32_MAX - 1)
            return pl_err(PL_EINVAL, "pl_topology_load_hwloc: XML buffer of %zu bytes is too large", len);
        /* hwloc wants a NUL-terminated buffer whose size counts the NUL;
         * callers may hand us a slice of a larger text. */
        if (!(copy = pl_alloc(len + 1, 1)))
            return PL_ENOMEM;
        memcpy(copy, o->xml_buffer, len);
    }
    const char *xml = copy;
    if (copy && len >= 3 && memcmp(copy, "\xef\xbb\xbf", 3) == 0) {
        /* A UTF-8 byte order mark: libxml2 skips it, hwloc's own parser
         * refuses the text, so it is skipped here for both. */
        xml += 3;
        len -= 3;
    }
    if (copy) {
        size_t hl = len < sizeof head - 1 ? len : sizeof head - 1;
        memcpy(head, xml, hl);
        head[hl] = '\0';
        if ((st = pl_hwloc_xml_guard(o->xml_path ? o->xml_path : "<buffer>", xml, len)) != PL_OK) {
            free(copy);
            return st;
        }
    }

    hwloc_topology_t h;
    if (hwloc_topology_init(&h) < 0) {
        free(copy);
        return pl_err(PL_EINTERNAL, "hwloc_topology_init failed: %s", strerror(errno));
    }
    errno = 0;
    int rc = 0;
    if (copy)
        rc = hwloc_topology_set_xmlbuffer(h, xml, (int)len + 1);
    if (rc == 0)
        rc = hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (rc == 0) {
        errno = 0;
        rc = hwloc_topology_load(h);
    }
    int err = errno;
    free(copy);
    if (rc < 0) {
        hwloc_topology_destroy(h);
        if (o->xml_path || o->xml_buffer)
            return parse_error(what, head, err);
        return pl_err(PL_EINTERNAL, "hwloc could not read this machine's topology: %s",
                      strerror(err));
    }
    *out = h;
    return PL_OK;
}

/* ---- small helpers ---------------------------------------------------------- */

/* hwloc sizes are "<n>KiB" (or a bare number of KiB); 0 when absent or odd. */
static int64_t info_kib_bytes(hwloc_obj_t obj, const char *name)
{
    const char *s = obj ? hwloc_obj_get_info_by_name(obj, name) : NULL;
    if (!s)
        return 0;
    char *end;
    errno = 0;
    long long kib = strtoll(s, &end, 10);
    if (errno || kib <= 0 || end == s || kib > INT64_MAX / 1024)
        return 0;
    return (int64_t)kib * 1024;
}

static int64_t link_speed_bps(hwloc_obj_t pci)
{
    double gbps = pci && pci->type == HWLOC_OBJ_PCI_DEVICE ? pci->attr->pcidev.linkspeed : 0.0;
    if (!(gbps > 0) || gbps > 9e9)
        return 0;
    /* hwloc keeps a float: round to whole MB/s rather than keep its noise. */
    return (int64_t)llround(gbps * 1e6) * 1000;
}

/* Index N of an OS device named <prefix>N, or -1. */
static int32_t osdev_index(hwloc_obj_t osdev, const char *prefix)
{
    size_t n = strlen(prefix);
    if (!osdev->name || strncmp(osdev->name, prefix, n) != 0)
        return -1;
    char *end;
    long v = strtol(osdev->name + n, &end, 10);
    if (end == osdev->name + n || *end || v < 0 || v > INT32_MAX)
        return -1;
    return (int32_t)v;
}

static int osdev_is(hwloc_obj_t c, hwloc_obj_osdev_type_t a, hwloc_obj_osdev_type_t b)
{
    return c->type == HWLOC_OBJ_OS_DEVICE && (c->attr->osdev.type == a || c->attr->osdev.type == b);
}

/* Block devices that are really memory (DAX, CXL) or removable media are not
 * places to put data sets. */
static int osdev_is_storage(hwloc_obj_t c)
{
    if (c->type != HWLOC_OBJ_OS_DEVICE || c->attr->osdev.type != HWLOC_OBJ_OSDEV_BLOCK)
        return 0;
    static const char *const not_storage[] = {"CXLMem", "SPM", "NVDIMM", "Removable Media Device"};
    for (size_t i = 0; c->subtype && i < sizeof not_storage / sizeof *not_storage; i++)
        if (strcmp(c->subtype, not_storage[i]) == 0)
            return 0;
    return 1;
}

static hwloc_obj_t first_osdev(hwloc_obj_t pci, hwloc_obj_osdev_type_t a, hwloc_obj_osdev_type_t b)
{
    for (hwloc_obj_t c = pci->io_first_child; c; c = c->next_sibling)
        if (osdev_is(c, a, b))
            return c;
    return NULL;
}

/* Package vertex of the CPU side of obj: its Package ancestor, else the first
 * package sharing CPUs with it (a device or NUMA node attached above the
 * packages, e.g. to a Group of four, is local to all of them). */
static int32_t package_of(const hw_load *L, hwloc_obj_t obj)
{
    hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(L->h, obj);
    for (hwloc_obj_t p = anc; p; p = p->parent)
        if (p->type == HWLOC_OBJ_PACKAGE && p->logical_index < (unsigned)L->npkg)
            return L->pkg_v[p->logical_index];
    for (int32_t i = 0; anc && anc->cpuset && i < L->npkg; i++)
        if (L->pkg_obj[i] && hwloc_bitmap_intersects(L->pkg_obj[i]->cpuset, anc->cpuset))
            return L->pkg_v[i];
    return L->pkg_v[0];
}

static int64_t count_cores(const hw_load *L, hwloc_const_cpuset_t set)
{
    return set ? hwloc_get_nbobjs_inside_cpuset_by_type(L->h, set, L->core_type) : 0;
}

/* ---- CPU side -------------------------------------------------------------------- */

static pl_status add_packages(hw_load *L)
{
    int n = hwloc_get_nbobjs_by_type(L->h, HWLOC_OBJ_PACKAGE);
    /* Some platforms report no package; one synthetic package keeps the
     * machine -> package -> device shape every consumer relies on. */
    L->npkg = n > 0 ? n : 1;
    L->pkg_v = pl_alloc((size_t)L->npkg, sizeof *L->pkg_v);
    L->pkg_obj = pl_alloc((size_t)L->npkg, sizeof *L->pkg_obj);
    if (!L->pkg_v || !L->pkg_obj)
        return PL_ENOMEM;
    hwloc_obj_t root = hwloc_get_root_obj(L->h);
    for (int32_t i = 0; i < L->npkg; i++) {
        hwloc_obj_t p = n > 0 ? hwloc_get_obj_by_type(L->h, HWLOC_OBJ_PACKAGE, (unsigned)i) : NULL;
        int32_t os = p && p->os_index != HWLOC_UNKNOWN_INDEX ? (int32_t)p->os_index : i;
        char name[32];
        snprintf(name, sizeof name, "package%" PRId32, os);
        pl_status st = pl_topology_add_vertex(L->t, PL_VK_PACKAGE, L->machine, name, os, &L->pkg_v[i]);
        if (st == PL_OK)
            st = pl_topology_set_capacity(L->t, L->pkg_v[i], PL_RES_CORES,
                                          count_cores(L, p ? p->cpuset : root->cpuset));
        if (st != PL_OK)
            return st;
        L->pkg_obj[i] = p;
        if (p)
            set_vertex_of(p, L->pkg_v[i]);
    }
    return PL_OK;
}

static pl_status add_numa_node(hw_load *L, hwloc_obj_t numa)
{
    int32_t parent = -1;
    for (hwloc_obj_t p = numa->parent; p; p = p->parent)
        if (p->type == HWLOC_OBJ_PACKAGE && p->logical_index < (unsigned)L->npkg)
            parent = L->pkg_v[p->logical_index];
    if (parent < 0 && L->npkg == 1)
        parent = L->pkg_v[0];
    int32_t os = numa->os_index != HWLOC_UNKNOWN_INDEX ? (int32_t)numa->os_index : -1;
    char name[32];
    snprintf(name, sizeof name, "numa%" PRId32, os < 0 ? (int32_t)numa->logical_index : os);
    int32_t v;
    pl_status st = pl_topology_add_vertex(L->t, PL_VK_NUMA, parent >= 0 ? parent : L->machine, name,
                                          os, &v);
    if (st == PL_OK)
        st = pl_topology_set_capacity(L->t, v, PL_RES_MEMORY, (int64_t)numa->attr->numanode.local_memory);
    if (st == PL_OK)
        st = pl_topology_set_capacity(L->t, v, PL_RES_CORES, count_cores(L, numa->cpuset));
    if (st != PL_OK)
        return st;
    set_vertex_of(numa, v);
    if (parent >= 0)
        return pl_topology_add_link(L->t, parent, v, PL_LK_MEMORY, 0, 0, 0, NULL);
    /* A node spanning several packages (or none: CPU-less memory) is reached
     * from each package it serves, or from the machine. */
    int linked = 0;
    for (int32_t i = 0; i < L->npkg && st == PL_OK; i++)
        if (L->pkg_obj[i] && numa->cpuset && hwloc_bitmap_intersects(L->pkg_obj[i]->cpuset, numa->cpuset)) {
            st = pl_topology_add_link(L->t, L->pkg_v[i], v, PL_LK_MEMORY, 0, 0, 0, NULL);
            linked = 1;
        }
    if (st == PL_OK && !linked)
        st = pl_topology_add_link(L->t, L->machine, v, PL_LK_MEMORY, 0, 0, 0, NULL);
    return st;
}

static pl_status add_cores(hw_load *L)
{
    hwloc_obj_t c = NULL;
    while ((c = hwloc_get_next_obj_by_type(L->h, L->core_type, c))) {
        int32_t pkg = package_of(L, c);
        int32_t os = c->os_index != HWLOC_UNKNOWN_INDEX ? (int32_t)c->os_index : (int32_t)c->logical_index;
        char name[32];
        snprintf(name, sizeof name, "core%" PRId32, os);
        int32_t v;
        pl_status st = pl_topology_add_vertex(L->t, PL_VK_CORE, pkg, name, os, &v);
        if (st == PL_OK)
            st = pl_topology_set_capacity(L->t, v, PL_RES_CORES, 1);
        if (st == PL_OK)
            st = pl_topology_add_link(L->t, pkg, v, PL_LK_BOARD, 0, 0, 0, NULL);
        if (st != PL_OK)
            return st;
    }
    return PL_OK;
}

/* ---- NUMA distances -> inter-socket weights --------------------------------------- */

/* Relative NUMA distance (SLIT: 10 local) between the first NUMA nodes of two
 * packages, from hwloc's NUMALatency matrix or, on the live machine, libnuma.
 * 0 when unknown. */
static hwloc_obj_t numa_of_package(const hw_load *L, int32_t i)
{
    hwloc_obj_t n = NULL;
    while (L->pkg_obj[i] && (n = hwloc_get_next_obj_by_type(L->h, HWLOC_OBJ_NUMANODE, n)))
        if (n->cpuset && hwloc_bitmap_intersects(n->cpuset, L->pkg_obj[i]->cpuset))
            return n;
    return NULL;
}

static uint64_t slit(const hw_load *L, struct hwloc_distances_s *d, hwloc_obj_t a, hwloc_obj_t b)
{
    if (d) {
        hwloc_uint64_t ab = 0, ba = 0;
        if (hwloc_distances_obj_pair_values(d, a, b, &ab, &ba) == 0)
            return ab > ba ? ab : ba;
        return 0;
    }
    if (L->from_xml || a->os_index == HWLOC_UNKNOWN_INDEX || b->os_index == HWLOC_UNKNOWN_INDEX ||
        numa_available() < 0)
        return 0;
    int ab = numa_distance((int)a->os_index, (int)b->os_index);
    int ba = numa_distance((int)b->os_index, (int)a->os_index);
    int m = ab > ba ? ab : ba;
    return m > 0 ? (uint64_t)m : 0;
}

/* Weights of the inter-socket links, [npkg * npkg]: the default package
 * weight scaled by the pair's NUMA distance above local, relative to the
 * nearest remote pair, so a pair two hops apart weighs about twice one hop
 * apart. Uniform (or unknown) distances keep the default everywhere. */
static pl_status intersocket_weights(const hw_load *L, int64_t *w)
{
    int64_t base = pl_link_default_weight(PL_VK_PACKAGE, PL_VK_PACKAGE);
    int32_t n = L->npkg;
    for (int64_t i = 0; i < (int64_t)n * n; i++)
        w[i] = base;
    hwloc_obj_t *numa = pl_alloc((size_t)n, sizeof *numa);
    uint64_t *excess = pl_alloc((size_t)n * (size_t)n, sizeof *excess);
    if (!numa || !excess) {
        free(numa);
        free(excess);
        return PL_ENOMEM;
    }
    struct hwloc_distances_s *d = NULL;
    unsigned nr = 1;
    if (hwloc_distances_get_by_name(L->h, "NUMALatency", &nr, &d, 0) < 0 || nr == 0)
        d = NULL;
    for (int32_t i = 0; i < n; i++)
        numa[i] = numa_of_package(L, i);
    uint64_t min_excess = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++) {
            excess[i * n + j] = 0;
            if (!numa[i] || !numa[j] || numa[i] == numa[j])
                continue;
            uint64_t dij = slit(L, d, numa[i], numa[j]);
            uint64_t li = slit(L, d, numa[i], numa[i]), lj = slit(L, d, numa[j], numa[j]);
            uint64_t local = li < lj ? li : lj;
            if (dij > local && local > 0) {
                excess[i * n + j] = dij - local;
                if (!min_excess || dij - local < min_excess)
                    min_excess = dij - local;
            }
        }
    for (int32_t i = 0; i < n && min_excess; i++)
        for (int32_t j = i + 1; j < n; j++)
            if (excess[i * n + j]) {
                double s = (double)base * (double)excess[i * n + j] / (double)min_excess;
                w[i * n + j] = w[j * n + i] = s > 1e15 ? (int64_t)1e15 : (int64_t)llround(s);
            }
    if (d)
        hwloc_distances_release(L->h, d);
    free(numa);
    free(excess);
    return PL_OK;
}

static pl_status add_cpu_links(hw_load *L)
{
    int32_t n = L->npkg;
    int64_t *w = pl_alloc((size_t)n * (size_t)n, sizeof *w);
    if (!w)
        return PL_ENOMEM;
    pl_status st = intersocket_weights(L, w);
    for (int32_t i = 0; i < n && st == PL_OK; i++)
        for (int32_t j = i + 1; j < n && st == PL_OK; j++)
            st = pl_topology_add_link(L->t, L->pkg_v[i], L->pkg_v[j], PL_LK_INTERSOCKET,
                                      L->o->intersocket_bw, 0, w[i * n + j], NULL);
    /* The board link is the socket's way out of the machine (to its NICs and
     * the network): PCIe-class bandwidth, as in the builtin machines. */
    for (int32_t i = 0; i < n && st == PL_OK; i++)
        st = pl_topology_add_link(L->t, L->machine, L->pkg_v[i], PL_LK_BOARD, L->o->board_bw,
                                  0, 0, NULL);
    free(w);
    return st;
}

/* ---- devices ------------------------------------------------------------------------ */

static pl_status add_device(hw_load *L, hwloc_obj_t anchor, hwloc_obj_t pci, pl_vertex_kind kind,
                            const char *name, int32_t os, int32_t *out)
{
    int32_t pkg = package_of(L, anchor);
    int32_t v;
    pl_status st = pl_topology_add_vertex(L->t, kind, pkg, name, os, &v);
    if (st == PL_OK && kind != PL_VK_NVSWITCH)
        st = pl_topology_set_capacity(L->t, v, PL_RES_UNITS, 1);
    /* An NVSwitch's PCIe function is for management only; data reaches it
     * over NVLink, so it gets no PCIe link. */
    if (st == PL_OK && kind != PL_VK_NVSWITCH)
        st = pl_topology_add_link(L->t, pkg, v, pci ? PL_LK_PCIE : PL_LK_BOARD, link_speed_bps(pci),
                                  0, 0, NULL);
    if (st != PL_OK)
        return st;
    set_vertex_of(anchor, v);
    if (out)
        *out = v;
    return PL_OK;
}

static int is_gpu(hwloc_obj_t pci)
{
    unsigned cls = pci->attr->pcidev.class_id;
    if (cls != 0x0300 && cls != 0x0302)
        return 0;
    unsigned vendor = pci->attr->pcidev.vendor_id;
    return vendor == PCI_VENDOR_NVIDIA || vendor == PCI_VENDOR_AMD ||
           first_osdev(pci, HWLOC_OBJ_OSDEV_GPU, HWLOC_OBJ_OSDEV_COPROC) != NULL;
}

static pl_status add_gpu(hw_load *L, hwloc_obj_t pci)
{
    int32_t idx = -1;
    int64_t mem = 0;
    /* The CUDA index is what jobs see in CUDA_VISIBLE_DEVICES; NVML numbers
     * the same devices in the same order when CUDA is absent. */
    for (hwloc_obj_t c = pci->io_first_child; c; c = c->next_sibling) {
        if (c->type != HWLOC_OBJ_OS_DEVICE)
            continue;
        int32_t k = osdev_index(c, "cuda");
        if (k >= 0) {
            idx = k;
            mem = info_kib_bytes(c, "CUDAGlobalMemorySize");
        } else if (idx < 0) {
            idx = osdev_index(c, "nvml");
        }
    }
    char name[64];
    if (idx >= 0)
        snprintf(name, sizeof name, "gpu%" PRId32, idx);
    else
        snprintf(name, sizeof name, "gpu-pci%04x:%02x:%02x.%x", pci->attr->pcidev.domain,
                 pci->attr->pcidev.bus, pci->attr->pcidev.dev, pci->attr->pcidev.func);
    int32_t v;
    pl_status st = add_device(L, pci, pci, PL_VK_GPU, name, idx, &v);
    if (st == PL_OK && mem > 0)
        st = pl_topology_set_capacity(L->t, v, PL_RES_GPU_MEMORY, mem);
    return st;
}

/* The OS device's name when it has a usable one, else prefix + number. */
static void device_name(char *name, size_t size, hwloc_obj_t osdev, const char *prefix, int32_t number)
{
    if (osdev && osdev->name && !strchr(osdev->name, '/'))
        snprintf(name, size, "%s", osdev->name);
    else
        snprintf(name, size, "%s%" PRId32, prefix, number);
}

static pl_status add_nic(hw_load *L, hwloc_obj_t anchor, hwloc_obj_t pci, hwloc_obj_t osdev)
{
    char name[64];
    device_name(name, sizeof name, osdev, "nic", L->nics);
    L->nics++;
    return add_device(L, anchor, pci, PL_VK_NIC, name, -1, NULL);
}

static pl_status add_storage(hw_load *L, hwloc_obj_t anchor, hwloc_obj_t pci, hwloc_obj_t osdev)
{
    char name[64];
    device_name(name, sizeof name, osdev, "nvme", L->nvmes);
    if (!osdev)
        L->nvmes++;
    int32_t v;
    pl_status st = add_device(L, anchor, pci, PL_VK_STORAGE, name, -1, &v);
    int64_t size = info_kib_bytes(osdev, "Size");
    if (st == PL_OK && size > 0)
        st = pl_topology_set_capacity(L->t, v, PL_RES_STORAGE, size);
    return st;
}

static pl_status add_pci_device(hw_load *L, hwloc_obj_t pci)
{
    unsigned cls = pci->attr->pcidev.class_id;
    if (pci->subtype && strcmp(pci->subtype, "NVSwitch") == 0) {
        char name[32];
        snprintf(name, sizeof name, "nvswitch-pci%02x:%02x.%x", pci->attr->pcidev.bus,
                 pci->attr->pcidev.dev, pci->attr->pcidev.func);
        return add_device(L, pci, pci, PL_VK_NVSWITCH, name, -1, NULL);
    }
    if (is_gpu(pci))
        return add_gpu(L, pci);
    hwloc_obj_t net = first_osdev(pci, HWLOC_OBJ_OSDEV_NETWORK, HWLOC_OBJ_OSDEV_NETWORK);
    if (!net)
        net = first_osdev(pci, HWLOC_OBJ_OSDEV_OPENFABRICS, HWLOC_OBJ_OSDEV_OPENFABRICS);
    if ((cls >> 8) == 0x02 || net)
        return add_nic(L, pci, pci, net);
    if (cls == 0x0108) {
        hwloc_obj_t blk = NULL;
        for (hwloc_obj_t c = pci->io_first_child; c && !blk; c = c->next_sibling)
            if (osdev_is_storage(c))
                blk = c;
        return add_storage(L, pci, pci, blk);
    }
    /* Disk controllers: each disk is a place for data, the controller not. */
    for (hwloc_obj_t c = pci->io_first_child; c; c = c->next_sibling)
        if (osdev_is_storage(c)) {
            pl_status st = add_storage(L, c, pci, c);
            if (st != PL_OK)
                return st;
        }
    return PL_OK;
}

static pl_status add_devices(hw_load *L)
{
    pl_status st = PL_OK;
    hwloc_obj_t o = NULL;
    while (st == PL_OK && (o = hwloc_get_next_pcidev(L->h, o)))
        st = add_pci_device(L, o);
    /* OS devices outside PCI (virtual NICs, some block devices). */
    o = NULL;
    while (st == PL_OK && (o = hwloc_get_next_osdev(L->h, o))) {
        if (o->parent && o->parent->type == HWLOC_OBJ_PCI_DEVICE)
            continue;
        if (osdev_is(o, HWLOC_OBJ_OSDEV_NETWORK, HWLOC_OBJ_OSDEV_OPENFABRICS))
            st = add_nic(L, o, NULL, o);
        else if (osdev_is_storage(o))
            st = add_storage(L, o, NULL, o);
    }
    return st;
}

/* ---- NVLink -------------------------------------------------------------------------- */

/* Vertex of an NVLinkBandwidth matrix object: OS devices (nvml*) stand for
 * the GPU of their PCI device; -1 for objects we did not keep. */
static int32_t nvlink_vertex(hwloc_obj_t obj)
{
    while (obj && obj->type == HWLOC_OBJ_OS_DEVICE)
        obj = obj->parent;
    if (!obj || (obj->type != HWLOC_OBJ_PCI_DEVICE && obj->type != HWLOC_OBJ_PACKAGE))
        return -1;
    return vertex_of(obj);
}

static int has_link(const pl_topology *t, int32_t a, int32_t b, pl_link_kind kind)
{
    for (int32_t h = t->first_inc[a]; h >= 0; h = t->next_inc[h])
        if (t->end[h ^ 1] == b && t->lkind[h >> 1] == kind)
            return 1;
    return 0;
}

static pl_status add_nvlink_pair(hw_load *L, int32_t a, int32_t b, uint64_t value)
{
    pl_vertex_kind ka = (pl_vertex_kind)L->t->kind[a], kb = (pl_vertex_kind)L->t->kind[b];
    int sw = ka == PL_VK_NVSWITCH || kb == PL_VK_NVSWITCH;
    /* Only links with a GPU or NVSwitch end move GPU data; sockets already
     * have their inter-socket link. */
    if (a == b || (!sw && ka != PL_VK_GPU && kb != PL_VK_GPU))
        return PL_OK;
    pl_link_kind kind = sw ? PL_LK_NVSWITCH : PL_LK_NVLINK;
    if (has_link(L->t, a, b, kind))
        return PL_OK;
    int64_t bw;
    if (value > (uint64_t)INT64_MAX || pl_mul_ovf((int64_t)value, L->o->nvlink_bw_unit, &bw))
        return pl_err(PL_EOVERFLOW, "NVLinkBandwidth value %" PRIu64 " overflows bytes/s", value);
    return pl_topology_add_link(L->t, a, b, kind, bw, 0, 0, NULL);
}

static pl_status add_nvlinks(hw_load *L)
{
    struct hwloc_distances_s *d[8];
    unsigned nr = 8;
    if (hwloc_distances_get_by_name(L->h, "NVLinkBandwidth", &nr, d, 0) < 0)
        return PL_OK;
    if (nr > 8)
        nr = 8;
    pl_status st = PL_OK;
    for (unsigned m = 0; m < nr; m++) {
        unsigned n = d[m]->nbobjs;
        for (unsigned i = 0; i < n && st == PL_OK; i++)
            for (unsigned j = i + 1; j < n && st == PL_OK; j++) {
                uint64_t ij = d[m]->values[i * n + j], ji = d[m]->values[j * n + i];
                uint64_t v = ij > ji ? ij : ji;
                int32_t a = nvlink_vertex(d[m]->objs[i]), b = nvlink_vertex(d[m]->objs[j]);
                if (v > 0 && a >= 0 && b >= 0)
                    st = add_nvlink_pair(L, a, b, v);
            }
        hwloc_distances_release(L->h, d[m]);
    }
    return st;
}

/* ---- entry points ---------------------------------------------------------------------- */

static pl_status build(hw_load *L)
{
    pl_status st = pl_topology_add_vertex(L->t, PL_VK_MACHINE, -1, "machine", -1, &L->machine);
    if (st != PL_OK)
        return st;
    L->core_type = hwloc_get_nbobjs_by_type(L->h, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    if ((st = add_packages(L)) != PL_OK)
        return st;
    hwloc_obj_t numa = NULL;
    while ((numa = hwloc_get_next_obj_by_type(L->h, HWLOC_OBJ_NUMANODE, numa)))
        if ((st = add_numa_node(L, numa)) != PL_OK)
            return st;
    if (L->o->with_cores && (st = add_cores(L)) != PL_OK)
        return st;
    if ((st = add_cpu_links(L)) != PL_OK)
        return st;
    if ((st = add_devices(L)) != PL_OK)
        return st;
    return add_nvlinks(L);
}

void pl_hwloc_opts_init(pl_hwloc_opts *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->intersocket_bw = 38400000000LL;
    opts->nvlink_bw_unit = 1000000LL;
    opts->board_bw = 15750000000LL;
}

pl_status pl_topology_load_hwloc(const pl_hwloc_opts *opts, pl_topology **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_topology_load_hwloc: out is NULL");
    *out = NULL;
    pl_hwloc_opts defaults;
    pl_hwloc_opts_init(&defaults);
    const pl_hwloc_opts *o = opts ? opts : &defaults;
    if (o->intersocket_bw < 0 || o->nvlink_bw_unit < 0 || o->board_bw < 0)
        return pl_err(PL_EINVAL, "pl_topology_load_hwloc: negative bandwidth option");

    hw_load L = {.o = o, .from_xml = o->xml_path || o->xml_buffer};
    pl_status st = open_hwloc(o, &L.h);
    if (st != PL_OK)
        return st;
    st = pl_topology_create(&L.t);
    if (st == PL_OK)
        st = build(&L);
    hwloc_topology_destroy(L.h);
    free(L.pkg_v);
    free(L.pkg_obj);
    if (st != PL_OK) {
        pl_topology_free(L.t);
        return st;
    }
    *out = L.t;
    return PL_OK;
}

pl_status pl_topology_load_xml(const char *path, pl_topology **out)
{
    if (!path || !out)
        return pl_err(PL_EINVAL, "pl_topology_load_xml: NULL %s", path ? "out" : "path");
    pl_hwloc_opts o;
    pl_hwloc_opts_init(&o);
    o.xml_path = path;
    return pl_topology_load_hwloc(&o, out);
}
