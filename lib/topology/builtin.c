/* Placeholder: being written (issue 4). */
#include "topology_impl.h"
pl_status pl_topology_builtin(const char *p, pl_topology **out) { (void)p; (void)out; return pl_err(PL_EINTERNAL, "not implemented"); }
const char *const *pl_topology_builtin_names(void) { static const char *const n[] = {NULL}; return n; }
