"""Placement constraints and vertex attributes from Python (doc/jobs.md,
doc/policies.md sec. 4c), on three Minsky machines whose attributes make
each node constraint point at one machine:

    node0  arch=x86    zone=a
    node1  arch=power  zone=b
    node2  arch=power  zone=a
"""
import pytest

import placement

ATTRS = [{"arch": "x86", "zone": "a"}, {"arch": "power", "zone": "b"}, {"arch": "power", "zone": "a"}]


@pytest.fixture
def cluster():
    t = placement.Topology.cluster(placement.Topology.builtin("minsky"), 3)
    for m, attrs in zip(t.machines(), ATTRS):
        for k, v in attrs.items():
            t.set_attr(m, k, v)
    return t


def node(t, i):
    return t.machines()[i]


def machine_of(t, gpu):
    return t.ancestor(gpu, placement.VK_MACHINE)


def test_attributes(cluster):
    m1 = node(cluster, 1)
    assert cluster.vertex_name(m1) == "node1"
    assert cluster.attrs(m1) == {"arch": "power", "zone": "b"}
    assert list(cluster.attrs(m1)) == ["arch", "zone"]  # order of first set
    assert cluster.attr(m1, "arch") == "power" and cluster.attr(m1, "gpu") is None
    # Only the vertex itself: its GPUs and the cluster root have none.
    assert cluster.attrs(cluster.gpus(m1)[0]) == {} and cluster.attrs(0) == {}
    cluster.set_attr(m1, "arch", "power9")  # replace keeps the position
    cluster.set_attr(m1, "zone", None)      # None removes
    assert cluster.attrs(m1) == {"arch": "power9"}
    cluster.set_attr(m1, "zone", None)      # removing an absent key is no error
    with pytest.raises(placement.InvalidArgumentError):
        cluster.set_attr(10_000, "arch", "x")
    with pytest.raises(placement.InvalidArgumentError):
        cluster.set_attr(m1, "", "x")
    with pytest.raises(placement.InvalidArgumentError):
        cluster.attrs(-1)


def test_attributes_are_copied_and_loaded():
    m = placement.Topology.builtin("minsky")
    m.set_attr(0, "arch", "power8")
    c = placement.Topology.cluster(m, 2)
    assert [c.attrs(v) for v in c.machines()] == [{"arch": "power8"}] * 2
    assert c.copy().attrs(c.machines()[1]) == {"arch": "power8"}
    t = placement.Topology.from_json_string("""{"templates": {"m": {"builtin": "minsky", "attrs": {"arch": "power8"}}},
        "machines": [{"template": "m", "count": 2, "name": "gene", "attrs": {"zone": "b"}}]}""")
    assert [t.attrs(v) for v in t.machines()] == [{"arch": "power8", "zone": "b"}] * 2


@pytest.mark.parametrize("must,must_not,want", [
    ({"arch": "x86"}, {}, 0),
    ({}, {"zone": "a"}, 1),
    ({"arch": "power", "zone": "a"}, {}, 2),
    ({"arch": "power"}, {"zone": "b"}, 2),
])
def test_node_constraints_pick_the_only_machine(cluster, must, must_not, want):
    job = placement.Job.data_parallel("j", 2)
    for k, v in must.items():
        job.add_node_must(k, v)
    for k, v in must_not.items():
        job.add_node_must_not(k, v)
    # Every registered policy honours them (doc/policies.md sec. 4c).
    for name in placement.policies():
        [d] = placement.Policy(name).place(cluster, [job])
        assert d.placed, (name, d.reason)
        assert {machine_of(cluster, g) for g in d.gpus} == {node(cluster, want)}, name


def test_must_waits_when_its_machine_is_full(cluster):
    for g in cluster.gpus(node(cluster, 0)):
        cluster.alloc(g, placement.RES_UNITS, 1)
    job = placement.Job.data_parallel("x86-only", 1)
    job.add_node_must("arch", "x86")
    [d] = placement.Policy("topo-aware").place(cluster, [job])
    assert d.kind == "waiting"
    # Without the constraint it goes elsewhere.
    [d] = placement.Policy("topo-aware").place(cluster, [placement.Job.data_parallel("any", 1)])
    assert d.placed and machine_of(cluster, d.gpus[0]) != node(cluster, 0)


def test_per_task_constraints(cluster):
    job = placement.Job.data_parallel("split", 2)
    job.set_single_node(False)
    job.add_node_must("zone", "b", task=0)
    job.add_node_must("arch", "x86", task=1)
    assert job.node_constraints() == [(0, False, "zone", "b"), (1, False, "arch", "x86")]
    assert job.task_admits(0, cluster, node(cluster, 1)) and not job.task_admits(0, cluster, node(cluster, 0))
    assert job.task_admits(1, cluster, node(cluster, 0)) and not job.task_admits(1, cluster, node(cluster, 2))
    assert job.conflicts(cluster) == []
    job.check_constraints(cluster)  # no conflict: no error
    [d] = placement.Policy("topo-aware").place(cluster, [job])
    assert d.placed and [machine_of(cluster, g) for g in d.gpus] == [node(cluster, 1), node(cluster, 0)]
    # A one-machine policy cannot: both tasks on one machine meet no machine.
    [d] = placement.Policy("fcfs").place(cluster, [job])
    assert d.kind == "rejected" and "NO_NODE" in d.reason


def test_conflict_kinds(cluster):
    # NO_NODE: single-node (the default), the two tasks' Musts leave no
    # machine; task 1's constraint is the one that empties the set.
    j = placement.Job.data_parallel("no-node", 2)
    j.add_node_must("zone", "b", task=0)
    j.add_node_must("arch", "x86", task=1)
    assert j.conflicts(cluster) == [("NO_NODE", 0, 1, None)]
    with pytest.raises(placement.InfeasibleError) as e:
        j.check_constraints(cluster)
    assert "NO_NODE" in str(e.value) and "task 1 must arch=x86" in str(e.value)
    assert e.value.conflicts == [placement.ConstraintConflict("NO_NODE", 0, 1, None)]
    [d] = placement.Policy("bf").place(cluster, [j])
    assert d.kind == "rejected" and "NO_NODE" in d.reason

    # SELF_ANTI: tasks 0 and 2 must and must not share a machine.
    j = placement.Job.data_parallel("self-anti", 3)
    j.add_anti_collocation(0, 2)
    [c] = j.conflicts(cluster)
    assert (c.kind, c.cls, c.task_a, c.task_b) == ("SELF_ANTI", 0, 0, 2)

    # TOO_BIG: five tasks on one machine, machines have four GPUs.
    j = placement.Job.data_parallel("too-big", 5)
    assert j.conflicts(cluster) == [("TOO_BIG", 0, 0, None)]
    # ... but with a Must it is the machines allowed that count: 3 tasks on
    # the one x86 machine fit, 2 x 3 tasks of two classes too.
    j = placement.Job.data_parallel("fits", 3)
    j.add_node_must("arch", "x86")
    assert j.conflicts(cluster) == []


def test_classes_collocation_and_anti_collocation(cluster):
    j = placement.Job.data_parallel("classes", 5)
    j.set_single_node(False)
    assert j.task_classes() == [0, 1, 2, 3, 4]
    j.add_collocation(3, 1)
    j.add_collocation(1, 4)
    assert j.task_classes() == [0, 1, 2, 1, 1]
    assert j.collocated(3, 4) and not j.collocated(0, 1)
    j.add_anti_collocation(3, 4)
    assert j.anti_collocated(4, 3)
    assert j.conflicts(cluster) == [("SELF_ANTI", 1, 3, 4)]
    j.set_single_node(True)
    assert j.task_classes() == [0] * 5


def web(name):
    j = placement.Job.data_parallel(name, 1)
    j.add_label("web")
    j.add_anti_affinity("web")
    return j


def test_anti_affinity_labels():
    a, b = web("a"), web("b")
    assert a.labels() == ["web"] and a.anti_affinity() == ["web"] and a.has_label("web")
    assert a.anti_affine(b) and b.anti_affine(a) and not a.anti_affine(a)
    assert not a.anti_affine(placement.Job.data_parallel("plain", 1))


@pytest.mark.parametrize("name", placement.policies())
def test_anti_affinity_between_queued_jobs(cluster, name):
    res = placement.Policy(name).place(cluster, [web("a"), web("b"), web("c"), web("d")])
    placed = [machine_of(cluster, d.gpus[0]) for d in res if d.placed]
    # Never two on one machine; the engine policies place three, one per machine.
    assert len(placed) == len(set(placed))
    if name in ("topo-aware", "fcfs", "bf", "pack", "spread"):
        assert len(placed) == 3 and res[3].kind == "waiting"


def test_node_filter(cluster):
    j = placement.Job.data_parallel("filtered", 1)
    j.set_node_filter(["node2"])
    assert j.admits_node("node2") and not j.admits_node("node0") and j.has_constraints()
    [d] = placement.Policy("pack").place(cluster, [j])
    assert machine_of(cluster, d.gpus[0]) == node(cluster, 2)
    j.set_node_filter([])
    assert j.admits_node("node0")
    with pytest.raises(TypeError):
        j.set_node_filter("node2")  # one string is not a list of names


def test_constraints_from_json(cluster):
    # The example of doc/jobs.md; node constraints in file order.
    [j] = placement.JobSet.from_json_string("""{"jobs": [{"name": "db", "single_node": false,
        "tasks": [{"must": {"gpu": "v100"}}, {"must_not": {"zone": ["a", "b"]}}, {}],
        "must": {"arch": "x86"}, "must_not": {"gpu": "k80"},
        "collocation": [[0, 2]], "anti_collocation": [[1, 2]],
        "labels": ["db", "tenant-a"], "anti_affinity": ["web"]}]}""")
    assert j.node_constraints() == [(0, False, "gpu", "v100"), (1, True, "zone", "a"), (1, True, "zone", "b"),
                                    (None, False, "arch", "x86"), (None, True, "gpu", "k80")]
    assert j.task_classes() == [0, 1, 0]
    assert j.anti_collocated(1, 2) and j.labels() == ["db", "tenant-a"] and j.anti_affinity() == ["web"]
    # No machine has gpu=v100: class 0 (tasks 0, 2) has no node, task 0's
    # constraint empties it; task 1 (zone neither a nor b) has none either.
    kinds = {(c.kind, c.cls) for c in j.conflicts(cluster)}
    assert kinds == {("NO_NODE", 0), ("NO_NODE", 1)}
    copy = j.copy()
    assert copy.node_constraints() == j.node_constraints() and copy.labels() == j.labels()


def test_constraint_argument_errors():
    j = placement.Job.data_parallel("e", 2)
    with pytest.raises(placement.InvalidArgumentError):
        j.add_node_must("zone", "a", task=2)
    with pytest.raises(placement.InvalidArgumentError):
        j.add_node_must_not("zone", "")
    with pytest.raises(placement.InvalidArgumentError):
        j.add_collocation(0, 0)
    with pytest.raises(placement.InvalidArgumentError):
        j.add_label("")
    with pytest.raises(placement.InvalidArgumentError):
        j.label(0)
    assert not j.has_constraints()


def test_example_constrained_placement():
    import os
    import pathlib
    import subprocess
    import sys
    example = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "constrained_placement.py"
    out = subprocess.run([sys.executable, str(example)], check=True, capture_output=True, text=True,
                         env=dict(os.environ)).stdout.splitlines()
    rows = {line.split()[0]: line.split()[1:3] for line in out if line.split()[:1] and
            line.split()[0] in ("train", "db", "web0", "web1", "web2", "split")}
    # train needs the only NVLink machine, db zone a but not x86, the web
    # replicas one per machine, split conflicts (NO_NODE).
    assert rows["train"] == ["placed", "node3"] and rows["db"] == ["placed", "node1"]
    assert sorted(rows["web%d" % i][1] for i in range(3)) == ["node0", "node1", "node2"]
    assert rows["split"][0] == "rejected" and "conflict in split: NO_NODE (class 0, task 1)" in out
