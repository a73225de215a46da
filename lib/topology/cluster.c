/* Placeholder: being written (issue 4). */
#include "topology_impl.h"
pl_status pl_topology_cluster(const pl_topology *t, int32_t m, int32_t r, int64_t bw, pl_topology **out) { (void)t; (void)m; (void)r; (void)bw; (void)out; return pl_err(PL_EINTERNAL, "not implemented"); }
