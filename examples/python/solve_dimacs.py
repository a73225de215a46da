#!/usr/bin/env python3
"""Solve a DIMACS min-cost-flow file and print the cost and the flows.

    PYTHONPATH=build/bindings/python python3 examples/python/solve_dimacs.py \
        tests/data/flow/small_graph.in [--solver ssp] [--networkx]
"""
import argparse
import sys

import placement


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--solver", default="network-simplex", choices=placement.solvers())
    ap.add_argument("--networkx", action="store_true", help="also solve with networkx and compare")
    args = ap.parse_args()
    try:
        net = placement.FlowNetwork.from_dimacs(args.file)
        res = net.solve(args.solver, verify=True)
    except placement.Error as e:
        print("%s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1
    print("%s: %d nodes, %d arcs, cost %d (%s)" % (args.file, net.node_count(), net.arc_count(),
                                                   res.cost, res.solver))
    for arc, info in net.arcs():
        if res.flow(arc):
            print("  f %d -> %d : %d" % (info.tail, info.head, res.flow(arc)))
    if args.networkx:
        import networkx as nx
        print("networkx min_cost_flow_cost:", nx.min_cost_flow_cost(net.to_networkx()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
