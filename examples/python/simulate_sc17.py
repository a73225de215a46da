#!/usr/bin/env python3
"""Replay the SC17 paper's scenario 1 (workloads-100.json on 5 Minsky
machines) under four policies and print one line per policy, like
`placement demo` does (doc/simulator.md).

    PYTHONPATH=build/bindings/python python3 examples/python/simulate_sc17.py \
        [--scenario sc17-s1] [--csv-dir DIR]
"""
import argparse
import os

import placement

POLICIES = ("topo-aware", "topo-aware-p", "fcfs", "bf")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="sc17-s1", choices=placement.scenario_names())
    ap.add_argument("--csv-dir", help="also write <scenario>-<policy>.csv per run here")
    args = ap.parse_args()

    topology, jobs = placement.scenario(args.scenario)
    print("%s: %d jobs on %d GPUs" % (args.scenario, len(jobs), len(topology.gpus())))
    print("%-13s %10s %10s %9s %9s %7s %8s" % ("policy", "makespan_s", "turnaround", "mean_wait",
                                            "mean_slow", "slower", "below_u"))
    for policy in POLICIES:
        result = placement.Simulator(topology, jobs, policy=policy).run()
        s = result.summary
        print("%-13s %10.1f %10.1f %9.1f %9.3f %7d %8d" % (
            policy, s.makespan, s.mean_turnaround, s.mean_wait, s.mean_slowdown,
            s.slower_than_ideal, s.below_min_utility))
        if args.csv_dir:
            os.makedirs(args.csv_dir, exist_ok=True)
            result.to_csv(os.path.join(args.csv_dir, "%s-%s.csv" % (args.scenario, policy)))


if __name__ == "__main__":
    main()
