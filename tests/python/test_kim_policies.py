"""The seed-003 policies (sa-placement, two-level, gpu-qos) with their own
options as keyword arguments, and constraint-energy / constraint-balance,
on the hand-worked instances of doc/policies.md sec. 4d-4e."""
import math

import pytest

import placement


# ---- sa-placement: instance A of tests/policy/test_sa_placement.c -------------
# Two Minsky machines, hog/quiet 1-GPU jobs and 2-GPU pairs filling 8 GPUs.
# Quiet next to a hog x2, hog next to hog x1.3, pair next to a hog x1.5,
# pair next to pair x1.2, quiet next to pair x1.1; a pair across sockets 13 s
# instead of 10 s. The optimum (by hand): 6 log 10 + 2 log 1.3.
SLOW = {("quiet", "hog"): 2.0, ("hog", "hog"): 1.3, ("pair", "hog"): 1.5, ("pair", "pair"): 1.2,
        ("quiet", "pair"): 1.1}
QUEUE_A = [("H1", "hog"), ("Q1", "quiet"), ("H2", "hog"), ("Q2", "quiet"), ("P1", "pair"), ("P2", "pair")]


def profiles_a():
    ps = placement.ProfileSet()
    for w in ("hog", "quiet"):
        ps.add_solo(w, "1", 1, placement.SPREAD_INTRA_SOCKET, 10.0)
    ps.add_solo("pair", "1", 2, placement.SPREAD_INTRA_SOCKET, 10.0)
    ps.add_solo("pair", "1", 2, placement.SPREAD_INTER_SOCKET, 13.0)
    for (a, b), s in SLOW.items():
        ps.add_colocated(a, "1", 2 if a == "pair" else 1, b, "1", 2 if b == "pair" else 1, 10.0 * s)
    return ps


def queue_a():
    return [placement.Job.data_parallel(n, 2 if w == "pair" else 1, workload=w) for n, w in QUEUE_A]


def two_minsky():
    return placement.Topology.cluster(placement.Topology.builtin("minsky"), 2, 2)


def socket_index(t, gpu):
    """0-3: machine * 2 + package, from the vertex's path."""
    parts = t.path_name(gpu).split("/")
    return int(parts[2][4:]) * 2 + int(parts[3][7:])


def objective(t, decisions):
    """The policy's objective recomputed here: sum of log(solo of the job's
    spread x its largest slowdown against a job on one of its sockets)."""
    sockets = [{socket_index(t, g) for g in d.gpus} for d in decisions]
    total = 0.0
    for a, (_, wa) in enumerate(QUEUE_A):
        solo = 13.0 if wa == "pair" and len(sockets[a]) == 2 else 10.0
        worst = max([SLOW.get((wa, wb), 1.0) for b, (_, wb) in enumerate(QUEUE_A)
                     if b != a and sockets[a] & sockets[b]] + [1.0])
        total += math.log(solo * worst)
    return total


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sa_batch_reaches_the_optimum(seed):
    t = two_minsky()
    res = placement.Policy("sa-placement", profiles=profiles_a(), seed=seed).place(t, queue_a())
    assert all(d.placed for d in res)
    assert objective(t, res) == pytest.approx(6 * math.log(10) + 2 * math.log(1.3))


def test_sa_online_is_myopic():
    t = two_minsky()
    res = placement.Policy("sa-placement", profiles=profiles_a(), mode="online").place(t, queue_a())
    g = [t.find("cluster/rack0/node%d/package%d/gpu%d" % (i // 4, i % 4 // 2, i % 4)) for i in range(8)]
    # doc/policies.md: H1 node0 gpu0, Q1 node0 gpu2, H2 node1 gpu0, Q2 node0
    # gpu3, P1 node1 gpu2 + gpu3, P2 waits (no socket pair left).
    assert [d.gpus for d in res[:5]] == [[g[0]], [g[2]], [g[4]], [g[3]], [g[6], g[7]]]
    assert res[5].kind == "waiting"


def test_sa_seeded_is_deterministic():
    t, jobs = placement.scenario("sc17-s1")
    queue = list(jobs)[:30]

    def run(seed):
        return [d.gpus for d in placement.Policy("sa-placement", seed=seed, iterations=300,
                                                 initial_temperature=0.5).place(t, queue)]
    first = run(7)
    assert run(7) == first
    assert sum(1 for g in first if g) > 0
    # Without iterations the search keeps its first-fit start: no seed matters.
    start = [d.gpus for d in placement.Policy("sa-placement", seed=1, iterations=0).place(t, queue)]
    assert start == [d.gpus for d in placement.Policy("sa-placement", seed=99, iterations=0).place(t, queue)]


def test_sa_option_errors():
    t = two_minsky()
    q = queue_a()
    with pytest.raises(placement.InvalidArgumentError, match="iterations"):
        placement.Policy("sa-placement", iterations=-1).place(t, q)
    with pytest.raises(placement.InvalidArgumentError, match="cooling"):
        placement.Policy("sa-placement", cooling=1.5).place(t, q)
    with pytest.raises(placement.InvalidArgumentError, match="batch or online"):
        placement.Policy("sa-placement", mode="offline")
    with pytest.raises(placement.InvalidArgumentError, match="no option 'qos'"):
        placement.Policy("sa-placement", qos=0.1)
    with pytest.raises(placement.InvalidArgumentError, match="no options of its own"):
        placement.Policy("fcfs", iterations=10)
    with pytest.raises(TypeError, match="colour"):
        placement.Policy("sa-placement", colour="red")
    with pytest.raises(TypeError):
        placement.Policy("sa-placement", iterations="many")


# ---- two-level: two platforms by hand (tests/policy/test_two_level.c) ------------

def kim_cluster(groups):
    """Machines named <platform><i>: (name, sockets, gpus per socket, units)."""
    templates, machines = [], []
    for name, sockets, per, units in groups:
        children = ", ".join(
            '{"kind": "package", "os_index": %d, "children": [%s]}' % (
                s, ", ".join('{"kind": "gpu", "os_index": %d, "capacity": {"units": %d}}' % (s * per + k, units)
                             for k in range(per)))
            for s in range(sockets))
        links = ", ".join(['{"a": "package%d/gpu%d", "b": "package%d", "kind": "pcie"}' % (s, s * per + k, s)
                           for s in range(sockets) for k in range(per)]
                          + ['{"a": "package%d", "b": ".", "kind": "board"}' % s for s in range(sockets)])
        templates.append('"%s": {"tree": {"kind": "machine", "name": "m", "children": [%s], "links": [%s]}}'
                         % (name, children, links))
        machines.append('{"template": "%s", "count": 1, "name": "%s"}' % (name, name))
    return placement.Topology.from_json_string('{"name": "cluster", "templates": {%s}, "machines": [%s]}'
                                               % (", ".join(templates), ", ".join(machines)))


def test_two_level_platform_affinity():
    # A runs 1 s on fast and 4 s on slow, B 2 s on both: A gets fast and B
    # slow although the B jobs come first; without the table each platform
    # is split equally.
    t = kim_cluster([("fast", 2, 2, 1), ("slow", 2, 2, 1)])
    queue = [placement.Job.data_parallel("b", 1, workload="B") for _ in range(4)] + \
            [placement.Job.data_parallel("a", 1, workload="A") for _ in range(4)]
    table = {"A": {"fast": 1.0, "slow": 4.0}, "B": {"fast": 2.0, "slow": 2.0}}
    res = placement.Policy("two-level", task_runtime_s=table).place(t, queue)
    assert [t.vertex_name(d.machine) for d in res] == ["slow0"] * 4 + ["fast0"] * 4
    res = placement.Policy("two-level").place(t, queue)
    on_fast = [sum(t.vertex_name(d.machine) == "fast0" for d in res[i:i + 4]) for i in (0, 4)]
    assert on_fast == [2, 2]
    with pytest.raises(placement.InvalidArgumentError, match="lacks|platforms"):
        placement.Policy("two-level", task_runtime_s={"A": {"fast": 1.0}, "B": {"slow": 2.0}})
    with pytest.raises(placement.InvalidArgumentError):
        placement.Policy("two-level", task_runtime_s={"A": {"fast": -1.0, "slow": 1.0}}).place(t, queue)


# ---- gpu-qos: the profile predictor and the QoS threshold ------------------------

def test_gpu_qos_threshold():
    # lat 10 s alone, 11 s next to bat (LS slowdown 0.1); bat 20 s alone,
    # 26 s next to lat (0.3). QoS 0.2 pairs them on one GPU, QoS 0.1 does
    # not (strictly below). The topology's GPUs hold 2 units to be shared.
    t = kim_cluster([("node", 1, 4, 2)])
    ps = placement.ProfileSet()
    ps.add_solo("lat", "1", 1, placement.SPREAD_INTRA_SOCKET, 10.0)
    ps.add_solo("bat", "1", 1, placement.SPREAD_INTRA_SOCKET, 20.0)
    ps.add_colocated("lat", "1", 1, "bat", "1", 1, 11.0)
    ps.add_colocated("bat", "1", 1, "lat", "1", 1, 26.0)
    lat = placement.Job.data_parallel("l", 1, workload="lat")
    lat.set_slo(5)
    bat = placement.Job.data_parallel("b", 1, workload="bat")
    for pairing in ("mmp", "greedy", "optimal"):
        res = placement.Policy("gpu-qos", profiles=ps, pairing=pairing).place(t, [lat, bat])
        assert res[0].gpus == res[1].gpus, pairing
        assert res[0].slowdown == pytest.approx(1.1) and res[1].slowdown == pytest.approx(1.3)
    res = placement.Policy("gpu-qos", profiles=ps, qos=0.1).place(t, [lat, bat])
    assert res[0].placed and res[1].placed and res[0].gpus != res[1].gpus
    with pytest.raises(placement.InvalidArgumentError, match="pairing"):
        placement.Policy("gpu-qos", pairing="best")


# ---- constraint-energy and constraint-balance (doc/policies.md sec. 4d) -----------

@pytest.mark.parametrize("policy,machines", [
    ("constraint-energy", ["node1", "node1", "node0", "node0"]),
    ("constraint-balance", ["node0", "node2", "node1", "node2"]),
])
def test_constraint_policies_by_hand(policy, machines):
    # Three Minsky machines, one GPU of node1 taken (an allocation counts as
    # running work); queue A (2 GPUs), B (1), C (2), D (2).
    t = placement.Topology.cluster(placement.Topology.builtin("minsky"), 3)
    busy = t.gpus(t.machines()[1])[0]
    t.alloc(busy, placement.RES_UNITS, 1)
    queue = [placement.Job.data_parallel(n, k) for n, k in (("A", 2), ("B", 1), ("C", 2), ("D", 2))]
    res = placement.Policy(policy).place(t, queue)
    assert [t.vertex_name(d.machine) for d in res] == machines
