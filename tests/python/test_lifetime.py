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


def test_progress_callback_reference_is_dropped():
    import sys
    t = placement.Topology.cluster(placement.Topology.builtin("minsky"), 1)
    job = placement.Job.data_parallel("j", 1)
    job.set_duration(5)

    def progress(settled, total, sim_time):
        pass
    before = sys.getrefcount(progress)
    sims = [placement.Simulator(t, [job], policy="fcfs", progress=progress) for _ in range(10)]
    assert sys.getrefcount(progress) == before + 10  # each simulator holds one
    sims[0].run()
    sims[1]._sim.set_progress(None)  # replaced: its reference is dropped at once
    assert sys.getrefcount(progress) == before + 9
    del sims
    gc.collect()
    assert sys.getrefcount(progress) == before


# Twenty jobs, so that a leaked trace or simulator is large enough to show.
TRACE_20 = "arrival,gpus,duration\n" + "".join("%d,%d,5\n" % (i, 1 + i % 2) for i in range(20))


def new_objects_cycle(t):
    tr = placement.Trace.from_string(TRACE_20)
    sim = placement.Simulator(t, tr, policy="sa-placement", policy_options={"iterations": 5},
                              failures=[(2, "cluster/rack0/node0/package0/gpu0", 1)],
                              progress=lambda *a: None)
    r = sim.run()
    assert r.timeline() and r.timeline_csv()
    j = placement.Job.data_parallel("j", 2)
    j.add_node_must("zone", "a")
    j.add_label("x")
    j.set_node_filter(["node0"])
    assert len(j.conflicts(t)) == 1 and j.node_constraints()
    try:
        j.check_constraints(t)
    except placement.InfeasibleError:
        pass
    placement.Policy("two-level", task_runtime_s={"A": {"p": 1.0}})
    try:
        placement.Policy("two-level", iterations=1)
    except placement.InvalidArgumentError:
        pass


def test_no_leak_over_1000_cycles_of_the_new_objects():
    t = placement.Topology.cluster(placement.Topology.builtin("minsky"), 1)
    t.set_attr(t.machines()[0], "zone", "b")
    for _ in range(200):
        new_objects_cycle(t)
    gc.collect()
    before = rss_kib()
    for _ in range(1000):
        new_objects_cycle(t)
    gc.collect()
    grown = rss_kib() - before
    print("RSS growth over 1000 cycles of the new objects: %d KiB" % grown)
    assert grown < 2048, "RSS grew by %d KiB" % grown
