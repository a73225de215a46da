#!/usr/bin/env python3
"""Placement constraints: jobs that must (not) run on machines with given
attributes, tasks that must (not) share a machine, and jobs that keep off
each other's machines, placed on a four-machine cluster by a policy.

    PYTHONPATH=build/bindings/python python3 examples/python/constrained_placement.py [--policy fcfs]
"""
import argparse

import placement

# Machine attributes, as a cluster owner would tag them (doc/topology.md).
MACHINES = [{"arch": "x86", "zone": "a"}, {"arch": "power", "zone": "a"},
            {"arch": "power", "zone": "b"}, {"arch": "power", "zone": "b", "gpu": "p100-nvlink"}]


def cluster():
    t = placement.Topology.cluster(placement.Topology.builtin("minsky"), len(MACHINES), 2)
    for m, attrs in zip(t.machines(), MACHINES):
        for key, value in attrs.items():
            t.set_attr(m, key, value)
    return t


def jobs():
    train = placement.Job.data_parallel("train", 4, traffic=4)
    train.add_node_must("gpu", "p100-nvlink")            # the only NVLink machine

    db = placement.Job.data_parallel("db", 2)
    db.add_node_must("zone", "a")
    db.add_node_must_not("arch", "x86")                  # zone a, not x86: node1

    web = []
    for i in range(3):                                   # one replica per machine
        w = placement.Job.data_parallel("web%d" % i, 1)
        w.add_label("web")
        w.add_anti_affinity("web")
        web.append(w)

    split = placement.Job.data_parallel("split", 2)      # task 0 in zone a, task 1 in b:
    split.add_node_must("zone", "a", task=0)             # no machine has both, so a
    split.add_node_must("zone", "b", task=1)             # single-node job conflicts
    return [train, db] + web + [split]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="topo-aware", choices=placement.policies())
    args = ap.parse_args()

    topo = cluster()
    for m in topo.machines():
        print("%-6s %s" % (topo.vertex_name(m), topo.attrs(m)))
    queue = jobs()
    for job in queue:
        for c in job.conflicts(topo):
            print("conflict in %s: %s (class %d, task %d)" % (job.name(), c.kind, c.cls, c.task_a))
    print()
    placed = placement.Policy(args.policy).place(topo, queue, apply=True)
    for d in placed:
        machines = sorted({topo.vertex_name(topo.ancestor(g, placement.VK_MACHINE)) for g in d.gpus})
        print("%-6s %-9s %s" % (d.job, d.kind, ",".join(machines) if d.placed else d.reason))


if __name__ == "__main__":
    main()
