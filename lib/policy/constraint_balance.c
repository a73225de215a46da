/* "constraint-balance": Kim's thesis ch. 4, load balancing (minimise the
 * standard deviation of the machines' GPU utilisation) by its best
 * algorithm, worst fit with spot migration (lib/constraints,
 * doc/constraints.md). The driver is constraint_policy.c. */
#include "policy_impl.h"

static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    return pl_constraint_policy_run(req, out, "constraint-balance");
}

const pl_policy_ops pl_policy_constraint_balance = {
    "constraint-balance",
    "Kim ch. 4 load balancing: even GPU utilisation (worst fit, spot migration)",
    place,
};
