/* "constraint-energy": Kim's thesis ch. 4, energy saving (minimise the
 * active machines) by its best algorithm, activeness-aware first fit with
 * rearrangement (lib/constraints, doc/constraints.md); machines already
 * running jobs are active. The driver is constraint_policy.c. */
#include "policy_impl.h"

static pl_status place(const pl_policy_request *req, pl_decision *out)
{
    return pl_constraint_policy_run(req, out, "constraint-energy");
}

const pl_policy_ops pl_policy_constraint_energy = {
    "constraint-energy",
    "Kim ch. 4 energy saving: fewest active machines (activeness-aware first fit, rearrangement)",
    place,
};
