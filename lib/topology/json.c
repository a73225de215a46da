/* Placeholder: being written (issue 4). */
#include "topology_impl.h"
pl_status pl_topology_load_json(const char *p, pl_topology **out) { (void)p; (void)out; return pl_err(PL_EINTERNAL, "not implemented"); }
pl_status pl_topology_load_json_string(const char *p, size_t n, pl_topology **out) { (void)p; (void)n; (void)out; return pl_err(PL_EINTERNAL, "not implemented"); }
