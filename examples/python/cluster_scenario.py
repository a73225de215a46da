#!/usr/bin/env python3
"""Run a placement scenario on a builtin cluster: the same random queue
placed by several policies, comparing placed jobs, mean utility and mean
communication cost; plots them with matplotlib when it is installed.

    PYTHONPATH=build/bindings/python python3 examples/python/cluster_scenario.py \
        [--machines 8] [--jobs 40] [--plot scenario.png]
"""
import argparse
import random

import placement


def make_queue(n, seed):
    rng = random.Random(seed)
    workloads = [("bvlc_alexnet", "1"), ("bvlc_alexnet", "64"), ("bvlc_googlenet", "4"),
                 ("bvlc_googlenet", "128")]
    jobs = []
    for i in range(n):
        w, size = rng.choice(workloads)
        jobs.append(placement.Job.data_parallel("job%d" % i, rng.choice([1, 1, 2, 2, 3, 4]),
                                                traffic=rng.choice([1, 2, 3, 4]), workload=w, size=size))
    return placement.JobSet.of(jobs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--machine", default="minsky", choices=placement.builtin_topologies())
    ap.add_argument("--machines", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plot", help="write the chart to this file (needs python3-matplotlib)")
    args = ap.parse_args()

    template = placement.Topology.builtin(args.machine)
    queue = make_queue(args.jobs, args.seed)
    rows = []
    for name in ("topo-aware", "fcfs", "bf", "pack", "spread", "random"):
        cluster = placement.Topology.cluster(template, args.machines, 4)
        placed = placement.Policy(name).place(cluster, queue, apply=True).placed()
        util = sum(d.utility for d in placed) / max(len(placed), 1)
        comm = sum(d.comm_cost for d in placed) / max(len(placed), 1)
        rows.append((name, len(placed), util, comm))
    print("%-11s %6s %8s %9s" % ("policy", "placed", "utility", "comm"))
    for name, n, util, comm in rows:
        print("%-11s %6d %8.3f %9.1f" % (name, n, util, comm))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not installed: apt-get install python3-matplotlib to plot)")
        return
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.5))
    names = [r[0] for r in rows]
    for ax, col, title in zip(axes, (1, 2, 3), ("jobs placed", "mean job utility", "mean comm cost")):
        ax.bar(names, [r[col] for r in rows])
        ax.set_title(title)
        ax.tick_params(axis="x", rotation=45)
    fig.tight_layout()
    out = args.plot or "scenario.png"
    fig.savefig(out)
    print("chart written to", out)


if __name__ == "__main__":
    main()
