/**
 * \file placement/placement.h
 * \brief Umbrella header: includes every public libplacement header.
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
#include <placement/disagg.h>
#include <placement/drmaestro.h>
#include <placement/sim.h>
#include <placement/gpuqos.h>
#include <placement/constraints.h>
#include <placement/coloc.h>

#endif
