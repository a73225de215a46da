/* Placeholder: being written (issue 4). */
#include "topology_impl.h"
pl_status pl_topology_write_dot(const pl_topology *t, FILE *f) { (void)t; (void)f; return pl_err(PL_EINTERNAL, "not implemented"); }
