"""Topology from Python, checked against hand-computed values of the
Minsky (IBM S822LC) machine: GPU pairs on NVLink weigh 1, a path across
the X-Bus 1 + 20 + 1 = 22."""
import placement

MINSKY = [[0, 1, 22, 22], [1, 0, 22, 22], [22, 22, 0, 1], [22, 22, 1, 0]]


def test_builtin_minsky():
    t = placement.Topology.builtin("minsky")
    gpus = t.gpus()
    assert len(gpus) == 4
    assert [t.vertex_kind_name(g) for g in gpus] == ["gpu"] * 4
    assert t.path_name(gpus[2]) == "machine/package1/gpu2"
    assert t.find("machine/package1/gpu2") == gpus[2]
    assert t.gpu_distance_matrix() == MINSKY
    assert len(t.descendants(-1, placement.VK_PACKAGE)) == 2
    assert t.ancestor(gpus[3], placement.VK_PACKAGE) == t.find("machine/package1")


def test_distance_matrix_numpy():
    import pytest
    np = pytest.importorskip("numpy")
    m = placement.Topology.builtin("minsky").gpu_distance_matrix(numpy=True)
    assert m.shape == (4, 4) and int(m.sum()) == 4 * 1 + 8 * 22


def test_from_xml_minsky(data):
    t = placement.Topology.from_xml(data("topologies/power8gpudistances.xml"))
    gpus = t.gpus()
    assert len(gpus) == 4
    assert len(t.descendants(-1, placement.VK_PACKAGE)) == 2
    assert t.gpu_distance_matrix() == MINSKY
    # NVLinkBandwidth 40000 MB/s between the GPUs of a pair.
    assert t.bottleneck_bw(gpus[0], gpus[1]) == 40000 * 10**6


def test_from_json_cluster(data):
    t = placement.Topology.from_json(data("topologies/cluster-small.json"))
    assert len(t.gpus()) == 12
    assert len(t.descendants(-1, placement.VK_MACHINE)) == 3


def test_from_hwloc_local_machine():
    t = placement.Topology.from_hwloc()
    assert len(t.descendants(-1, placement.VK_MACHINE)) == 1
    assert len(t.descendants(-1, placement.VK_PACKAGE)) >= 1


def test_cluster_outlives_template():
    m = placement.Topology.builtin("minsky")
    c = placement.Topology.cluster(m, 4, 2)
    del m
    assert len(c.gpus()) == 16
    g = c.find("cluster/rack1/node3/package1/gpu3")
    assert c.distance(c.find("cluster/rack0/node0/package0/gpu0"), g) == 1 + 20 + 40 + 80 + 80 + 40 + 20 + 1


def test_dot_and_text():
    t = placement.Topology.builtin("minsky")
    dot = t.to_dot()
    assert dot.startswith("graph topology")
    assert dot.count("nvlink") >= 6
    assert "gpu distances" in t.to_text()


def test_build_and_allocate():
    t = placement.Topology()
    m = t.add_vertex(placement.VK_MACHINE, -1, "m")
    g0 = t.add_vertex(placement.VK_GPU, m, None, 0)
    g1 = t.add_vertex(placement.VK_GPU, m, None, 1)
    for g in (g0, g1):
        t.set_capacity(g, placement.RES_UNITS, 1)
    link = t.add_link(g0, g1, placement.LK_NVLINK, 25 * 10**9)
    assert t.link(link).weight == 1 and t.link(link).kind == placement.LK_NVLINK
    t.alloc(g0, placement.RES_UNITS, 1)
    assert t.amount(g0, placement.RES_UNITS) == [1, 1, 0]
    try:
        t.alloc(g0, placement.RES_UNITS, 1)
    except placement.InvalidArgumentError:
        pass
    else:
        raise AssertionError("over-allocation accepted")
    t.release_all()
    assert t.free(g0) == 1
