#!/usr/bin/env python3
"""Place a few data-parallel jobs on the GPUs of this machine (discovered by
hwloc), or on a builtin machine when this one has no GPU.

    PYTHONPATH=build/bindings/python python3 examples/python/place_local.py [--builtin minsky]
"""
import argparse

import placement


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builtin", choices=placement.builtin_topologies(),
                    help="use a reference machine instead of the local one")
    ap.add_argument("--policy", default="topo-aware", choices=placement.policies())
    args = ap.parse_args()

    topo = placement.Topology.builtin(args.builtin) if args.builtin else placement.Topology.from_hwloc()
    if not topo.gpus():
        print("this machine has no GPU visible to hwloc; using the builtin 'minsky'")
        topo = placement.Topology.builtin("minsky")
    print(topo)
    for row in topo.gpu_distance_matrix():
        print("  ", " ".join("%3d" % d for d in row))

    jobs = [placement.Job.data_parallel("alexnet-2", 2, traffic=4, workload="bvlc_alexnet", size="1"),
            placement.Job.data_parallel("googlenet-1", 1, workload="bvlc_googlenet", size="64"),
            placement.Job.data_parallel("wide-4", 4, traffic=1)]
    placed = placement.Policy(args.policy).place(topo, jobs, apply=True)
    for d in placed:
        where = ", ".join(topo.path_name(g) for g in d.gpus) or d.reason
        print("%-12s %-9s %s" % (d.job, d.kind, where))


if __name__ == "__main__":
    main()
