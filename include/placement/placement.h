/**
 * \file placement/placement.h
 * \brief Umbrella header: includes every public libplacement header.
 *
 * Errors: every fallible call returns a ::pl_status (::PL_OK is 0) and
 * leaves a message for pl_last_error(); the library never prints, exits or
 * aborts.
 *
 * Thread safety (doc/guide.md, "Threads"):
 *  - A handle (pl_flownet, pl_topology, pl_jobset, pl_sim, pl_decision, ...)
 *    is not shared between threads without external locking: one thread at
 *    a time, or the caller serialises the calls on it.
 *  - Distinct handles are independent: threads using handles of their own
 *    need no lock. A handle that every thread only reads (a job set, a
 *    profile set, a const topology) may be shared while nobody modifies it.
 *  - The solver and policy registries (pl_solver_register(), pl_solver_find(),
 *    pl_policy_register(), pl_policy_find(), ...) are safe to use from
 *    several threads at once (guarded by a mutex). Unregister an entry only
 *    when no thread still uses it.
 *  - pl_last_error() is thread-local: each thread sees its own last error.
 *  - The "glpk" solver and pl_flow_lp_check() are thread-safe only with a
 *    GLPK built with thread-local storage (Debian's libglpk40 5.0 is);
 *    otherwise serialise them.
 */
#ifndef PLACEMENT_H
#define PLACEMENT_H

#include <placement/version.h>
#include <placement/status.h>
#include <placement/solver.h>
#include <placement/flownet.h>
#include <placement/topology.h>
#include <placement/job.h>
#include <placement/interference.h>
#include <placement/policy.h>
#include <placement/sched.h>
#include <placement/sim.h>
#include <placement/constraints.h>

#endif
