"""Automatic lifetime: objects outlive what made them, and 10,000
create/free cycles of every class do not grow the process."""
import gc

import placement


def rss_kib():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    import resource
    return pages * resource.getpagesize() // 1024


def cycle(i):
    t = placement.Topology.builtin("minsky")
    c = placement.Topology.cluster(t, 2)
    net = placement.FlowNetwork()
    a, b = net.add_node(2, "a"), net.add_node(-2, "b")
    net.add_arc(a, b, cost=3)
    assert net.solve().cost == 6
    s = placement.JobSet()
    s.add(placement.Job.data_parallel("j%d" % i, 2))
    res = placement.Policy("topo-aware").place(c, s)
    assert res[0].placed
    try:
        placement.FlowNetwork.from_dimacs_string("p min x")
    except placement.ParseError:
        pass
    _ = c.to_dot(), net.to_dimacs(), s[0]


def test_no_leak_over_10000_cycles():
    for i in range(1000):  # warm up allocator arenas and caches
        cycle(i)
    gc.collect()
    before = rss_kib()
    for i in range(10000):
        cycle(i)
    gc.collect()
    grown = rss_kib() - before
    # One leaked Minsky cluster alone is several KiB: 10,000 would be tens of MiB.
    assert grown < 2048, "RSS grew by %d KiB" % grown


def test_objects_outlive_their_sources(data):
    s = placement.JobSet()
    j = placement.Job.data_parallel("kept", 2)
    s.add(j)
    first = s[0]
    del s
    gc.collect()
    assert first.name() == "kept" and first.task_count() == 2
    # The job added was copied: the original stays the caller's.
    j.add_task()
    assert j.task_count() == 3 and first.task_count() == 2

    net = placement.FlowNetwork.from_dimacs(data("flow/small_graph.in"))
    res = net.solve()
    del net
    gc.collect()
    assert res.cost == 38 and res.flow(0) + res.flow(1) == 5

    t = placement.Topology.builtin("minsky")
    placed = placement.Policy().place(t, [placement.Job.data_parallel("p", 2)])
    gc.collect()
    placed.apply(t)
    assert sum(t.free(g) for g in t.gpus()) == 2


def test_ownership_flags():
    t = placement.Topology.builtin("minsky")
    assert t.thisown
    assert placement.Topology.cluster(t, 1).thisown
    assert placement.JobSet.from_json_string('{"jobs": [{"gpus": 1}]}').get(0).thisown
