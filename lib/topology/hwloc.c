/* Placeholder: being written (issue 4). */
#include "topology_impl.h"
void pl_hwloc_opts_init(pl_hwloc_opts *o) { (void)o; }
pl_status pl_topology_load_hwloc(const pl_hwloc_opts *o, pl_topology **out) { (void)o; (void)out; return pl_err(PL_EINTERNAL, "not implemented"); }
pl_status pl_topology_load_xml(const char *p, pl_topology **out) { (void)p; (void)out; return pl_err(PL_EINTERNAL, "not implemented"); }
