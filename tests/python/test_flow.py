"""FlowNetwork from Python: the DIMACS fixtures, every solver, the
optimality certificate, and agreement with networkx on random graphs."""
import random

import networkx as nx
import pytest

import placement
from conftest import DATA


def expected_costs():
    rows = []
    for line in (DATA / "flow" / "EXPECTED.txt").read_text().splitlines():
        if not line.strip():
            continue
        name, *fields = line.split()
        kv = dict(f.split("=") for f in fields)
        rows.append((name, int(kv["cost"]), int(kv["nodes"]), int(kv["arcs"])))
    return rows


@pytest.mark.parametrize("name,cost,nodes,arcs", expected_costs())
def test_fixture_cost(data, name, cost, nodes, arcs):
    net = placement.FlowNetwork.from_dimacs(data("flow/" + name))
    assert (net.node_count(), net.arc_count()) == (nodes, arcs)
    res = net.solve("network-simplex")
    assert res.cost == cost
    assert len(res.flows) == arcs and len(res.potentials) == nodes


def test_expected_list_is_complete():
    assert len(expected_costs()) == 17


@pytest.mark.parametrize("solver", placement.solvers())
def test_every_solver_small_graph(data, solver):
    net = placement.FlowNetwork.from_dimacs(data("flow/small_graph.in"))
    assert net.solve(solver).cost == 38
    assert net.solve(solver, cold_start=True).cost == 38


def test_default_solver_is_network_simplex(data):
    # With no solver named, the library's default solves, and it is listed first.
    assert placement.DEFAULT_SOLVER == "network-simplex"
    assert placement.solvers()[0] == placement.DEFAULT_SOLVER
    net = placement.FlowNetwork.from_dimacs(data("flow/small_graph.in"))
    res = net.solve()
    assert res.solver == "network-simplex"
    assert res.cost == 38


def check_certificate(net, res):
    """Recompute cost, conservation and reduced-cost optimality in Python."""
    out = [0] * net.node_count()
    total = 0
    for a, arc in net.arcs():
        f = res.flow(a)
        assert arc.lower <= f <= arc.upper
        out[arc.tail] += f
        out[arc.head] -= f
        total += f * arc.cost
        rc = arc.cost + res.potential(arc.tail) - res.potential(arc.head)
        if f < arc.upper:
            assert rc >= 0
        if f > arc.lower:
            assert rc <= 0
    assert out == [net.supply(v) for v in range(net.node_count())]
    assert total == res.cost


def test_certificate_small_graph_neg_costs(data):
    net = placement.FlowNetwork.from_dimacs(data("flow/small_graph_neg_costs.in"))
    res = net.solve()
    assert res.cost == 12
    check_certificate(net, res)
    net.verify()
    assert net.lp_check() == 12


def test_build_by_hand():
    # s -> a -> t costs 1 + 1, s -> t costs 3 with capacity 1; 3 units.
    net = placement.FlowNetwork()
    s, a, t = net.add_node(3, "s"), net.add_node(), net.add_node(-3, "t")
    sa = net.add_arc(s, a, cost=1, capacity=2)
    at = net.add_arc(a, t, cost=1)
    st = net.add_arc(s, t, cost=3, capacity=1)
    res = net.solve()
    assert res.cost == 2 * 2 + 3
    assert (res.flow(sa), res.flow(at), res.flow(st)) == (2, 2, 1)
    assert net.find_node("t") == t and net.node_name(s) == "s"
    # The result is a snapshot: changing the network does not change it.
    net.set_arc_cost(st, 1)
    assert not net.has_solution()
    assert res.cost == 7
    assert net.solve().cost == 1 * 1 + 2 * 2


def test_numpy_arrays(data):
    np = pytest.importorskip("numpy")
    res = placement.FlowNetwork.from_dimacs(data("flow/small_graph.in")).solve()
    arr = res.flows_array()
    assert arr.dtype == np.int64 and arr.shape == (8,)
    assert int(arr.sum()) == sum(res.flows)


def test_dimacs_round_trip(data):
    net = placement.FlowNetwork.from_dimacs(data("flow/graph_4m_2crs_6j.in"))
    again = placement.FlowNetwork.from_dimacs_string(net.to_dimacs())
    assert again.arc_count() == net.arc_count()
    assert again.solve().cost == 330


def random_graph(rng, n, m):
    """A random DiGraph with a feasible flow: demands routed along a
    Hamiltonian path of infinite capacity, plus random capacitated arcs."""
    g = nx.DiGraph()
    order = list(range(n))
    rng.shuffle(order)
    for v in range(n):
        g.add_node(v, demand=0)
    for u, v in zip(order, order[1:]):
        g.add_edge(u, v, weight=rng.randint(0, 20))
    m = min(m, n * (n - 1) // 2)
    while g.number_of_edges() < m:
        u, v = rng.sample(range(n), 2)
        if not g.has_edge(u, v):
            g.add_edge(u, v, weight=rng.randint(0, 20), capacity=rng.randint(1, 15))
    for _ in range(rng.randint(1, 4)):
        amount = rng.randint(1, 10)
        g.nodes[order[0]]["demand"] -= amount
        g.nodes[order[-1]]["demand"] += amount
    return g


@pytest.mark.parametrize("seed", range(12))
def test_agrees_with_networkx(seed):
    rng = random.Random(seed)
    g = random_graph(rng, rng.randint(4, 25), rng.randint(30, 80))
    expected = nx.min_cost_flow_cost(g)
    net = placement.FlowNetwork.from_networkx(g)
    for solver in ("network-simplex", "ssp", "cost-scaling"):
        assert net.solve(solver).cost == expected


def test_agrees_with_networkx_200_graphs():
    """Issue 21: 200 random integer digraphs, small enough for networkx to
    be quick; the flow_dict is networkx-shaped and costs the optimum."""
    for seed in range(200):
        rng = random.Random(1000 + seed)
        g = random_graph(rng, rng.randint(3, 9), rng.randint(4, 20))
        if rng.random() < 0.3:
            g = nx.MultiDiGraph(g)
            u, v = next(iter(g.edges()))
            g.add_edge(u, v, weight=0, capacity=rng.randint(1, 5))  # a parallel arc
        expected = nx.min_cost_flow_cost(g)
        res = placement.FlowNetwork.from_networkx(g).solve()
        assert res.cost == expected, seed
        flow = res.flow_dict(g)
        if g.is_multigraph():
            cost = sum(d.get("weight", 0) * flow[u][v][k] for u, v, k, d in g.edges(keys=True, data=True))
        else:
            cost = nx.cost_of_flow(g, flow)
        assert cost == expected, seed
        for node, data in g.nodes(data=True):  # conservation, networkx's sign
            out = sum(f for v in flow[node] for f in (flow[node][v].values() if g.is_multigraph() else [flow[node][v]]))
            into = sum(f for u in flow for v in flow[u] if v == node
                       for f in (flow[u][v].values() if g.is_multigraph() else [flow[u][v]]))
            assert into - out == data.get("demand", 0), seed


def test_from_networkx_refuses_what_it_cannot_solve_exactly():
    g = nx.DiGraph()
    g.add_node("s", demand=-1)
    g.add_node("t", demand=1)
    g.add_edge("s", "t", weight=1.5, capacity=1)
    with pytest.raises(ValueError, match="weight of .*1.5 is not a whole number"):
        placement.FlowNetwork.from_networkx(g)
    g["s"]["t"]["weight"] = 2.0  # a whole float is fine
    assert placement.FlowNetwork.from_networkx(g).solve().cost == 2
    g.nodes["t"]["demand"] = 0.5
    with pytest.raises(ValueError, match="demand"):
        placement.FlowNetwork.from_networkx(g)
    u = nx.Graph()
    u.add_edge("a", "b", weight=1)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.min_cost_flow_cost(u)
    with pytest.raises(nx.NetworkXNotImplemented):
        placement.FlowNetwork.from_networkx(u)


def test_version_and_job_validation():
    assert placement.__version__ == placement.VERSION
    with pytest.raises(ValueError, match="gpus must be an integer >= 1, got -1"):
        placement.Job.data_parallel("x", -1)
    with pytest.raises(ValueError):
        placement.Job.data_parallel("x", 2.5)
    assert placement.Job.data_parallel("x", 3).task_count() == 3


def test_networkx_round_trip(data):
    net = placement.FlowNetwork.from_dimacs(data("flow/graph_2m_1j_2t_2p.in"))
    g = net.to_networkx()
    assert g.number_of_nodes() == 51 and g.number_of_edges() == 68
    assert nx.min_cost_flow_cost(g) == 803
    assert placement.FlowNetwork.from_networkx(g).solve().cost == 803


def test_infeasible_agrees_with_networkx():
    g = nx.DiGraph()
    g.add_node("a", demand=-5)
    g.add_node("b", demand=5)
    g.add_edge("a", "b", capacity=3, weight=1)
    with pytest.raises(nx.NetworkXUnfeasible):
        nx.min_cost_flow_cost(g)
    with pytest.raises(placement.InfeasibleError):
        placement.FlowNetwork.from_networkx(g).solve()


@pytest.mark.parametrize("name,cost,nodes,arcs", expected_costs())
def test_relaxation_matches_network_simplex(data, name, cost, nodes, arcs):
    # The relaxation (RELAX dual ascent) solver, by name: the same optimal
    # cost as network simplex on every fixture, with a valid certificate.
    assert "relaxation" in placement.solvers()
    net = placement.FlowNetwork.from_dimacs(data("flow/" + name))
    res = net.solve("relaxation", verify=True)
    assert res.cost == net.solve("network-simplex").cost == cost
    check_certificate(net, net.solve("relaxation", cold_start=True))


def test_task_churn_relaxation_matches_cold():
    """A scheduler's loop: tasks leave (remove_node) and arrive (add_node +
    arcs) between solves. Relaxation re-solves each round from the last
    answer (the incremental path) and must match a from-scratch solve of a
    twin network given the same changes."""
    rng = random.Random(7)
    nets = [placement.FlowNetwork(), placement.FlowNetwork()]
    for net in nets:
        net.add_node(0, "sink")
        net.add_node(0, "X")
        net.add_node(0, "U")
        net.add_arc(2, 0, cost=0)
        for m in range(5):
            v = net.add_node()
            net.add_arc(1, v, cost=m, capacity=2)
            net.add_arc(v, 0, cost=0, capacity=2)
    tasks = []

    def add_task():
        ends = (rng.randint(3, 7), rng.randint(30, 40), rng.randint(5, 15), rng.randint(0, 4))
        ids = []
        for net in nets:
            t = net.add_node(1)
            net.set_supply(0, net.supply(0) - 1)
            net.add_arc(t, 2, cost=ends[1], capacity=1)
            net.add_arc(t, 1, cost=ends[2], capacity=1)
            net.add_arc(t, ends[0], cost=ends[3], capacity=1)
            ids.append(t)
        assert ids[0] == ids[1]
        tasks.append(ids[0])

    for _ in range(8):
        add_task()
    for rnd in range(25):
        for _ in range(rng.randint(0, 2)):
            t = tasks.pop(rng.randrange(len(tasks)))
            for net in nets:
                net.remove_node(t)
                net.set_supply(0, net.supply(0) + 1)
        for _ in range(rng.randint(0, 2)):
            add_task()
        warm = nets[0].solve("relaxation", verify=True).cost
        cold = nets[1].solve("network-simplex", verify=True, cold_start=True).cost
        assert warm == cold, rnd
