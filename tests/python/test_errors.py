"""Each library status becomes its own placement.Error subclass carrying
pl_last_error()."""
import pytest

import placement


def test_parse_error_names_line():
    with pytest.raises(placement.ParseError) as e:
        placement.FlowNetwork.from_dimacs_string("p min 2 1\nn 1 1\nx 3\n")
    assert "<string>:3" in str(e.value)
    assert e.value.status == placement.EPARSE
    assert str(e.value) == placement.last_error()
    assert isinstance(e.value, ValueError) and isinstance(e.value, placement.Error)


def test_io_error_missing_file(tmp_path):
    with pytest.raises(placement.IOError) as e:
        placement.FlowNetwork.from_dimacs(str(tmp_path / "missing.in"))
    assert isinstance(e.value, OSError)
    assert "missing.in" in str(e.value)


def test_infeasible():
    net = placement.FlowNetwork()
    a, b = net.add_node(4), net.add_node(-4)
    net.add_arc(a, b, cost=1, capacity=3)
    with pytest.raises(placement.InfeasibleError):
        net.solve()
    with pytest.raises(placement.StateError):
        net.cost()


def test_unbounded():
    net = placement.FlowNetwork()
    a, b = net.add_node(), net.add_node()
    net.add_arc(a, b, cost=-1)
    net.add_arc(b, a, cost=0)
    with pytest.raises(placement.UnboundedError):
        net.solve()


def test_unknown_solver_lists_names():
    net = placement.FlowNetwork()
    net.add_node()
    with pytest.raises(placement.NotFoundError) as e:
        net.solve("simplex-magic")
    assert "network-simplex" in str(e.value)
    assert isinstance(e.value, LookupError)


def test_invalid_argument():
    net = placement.FlowNetwork()
    net.add_node()
    with pytest.raises(placement.InvalidArgumentError):
        net.add_arc(0, 7, cost=1)
    with pytest.raises(placement.InvalidArgumentError):
        net.add_arc(0, 0, capacity=1, lower=2)
    job = placement.Job("j")
    job.add_task()
    with pytest.raises(placement.InvalidArgumentError):
        job.add_edge(0, 0, 1.0)


def test_state_error_before_solve():
    net = placement.FlowNetwork()
    net.add_node()
    with pytest.raises(placement.StateError):
        net.flows()


def test_bad_topology_json(data):
    with pytest.raises(placement.ParseError) as e:
        placement.Topology.from_json(data("topologies/bad-syntax.json"))
    assert "bad-syntax.json" in str(e.value)


def test_bad_jobs_json(data):
    with pytest.raises(placement.ParseError):
        placement.JobSet.from_json(data("jobs/bad-syntax.json"))
    with pytest.raises(placement.ParseError) as e:
        placement.JobSet.from_json_string('{"jobs": [{"gpus": -1}]}')
    assert "$.jobs[0]" in str(e.value)


def test_unknown_builtin_and_policy():
    with pytest.raises(placement.NotFoundError) as e:
        placement.Topology.builtin("cray-1")
    assert "minsky" in str(e.value)
    t = placement.Topology.builtin("minsky")
    with pytest.raises(placement.NotFoundError):
        placement.Policy("no-such-policy").place(t, [placement.Job.data_parallel("j", 1)])


def test_wrong_python_type_is_type_error():
    with pytest.raises(TypeError):
        placement.Policy().place("minsky", [])


def test_every_status_has_a_class():
    names = ["InvalidArgumentError", "NoMemoryError", "ParseError", "InfeasibleError",
             "UnboundedError", "OverflowError", "NotFoundError", "IOError", "VerifyError",
             "StateError", "LimitError", "InternalError"]
    for status, name in enumerate(names, start=1):
        cls = getattr(placement, name)
        assert issubclass(cls, placement.Error) and cls.status == status


# Issue 25: the wrappers dereferenced self (SimResult.write_csv(None, "x"))
# or strlen'ed a None text before the library's own NULL checks. Every method
# of every class of placement.core is called unbound with self = None and 0
# to 3 more None arguments, in a child interpreter so that a crash fails the
# test instead of killing the suite: each call must raise, never crash.
SWEEP = r"""
import inspect, placement.core as core
calls = 0
for cname, cls in inspect.getmembers(core, inspect.isclass):
    for mname, meth in list(vars(cls).items()):
        if mname.startswith("__") or not callable(meth) or isinstance(meth, (staticmethod, classmethod)):
            continue
        for extra in range(4):
            calls += 1
            try:
                meth(None, *([None] * extra))
            except Exception:
                pass
print("calls", calls)
"""


def test_no_method_crashes_on_none_self():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", SWEEP], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert int(r.stdout.split()[-1]) > 400  # the sweep really reached the methods


def test_none_texts_raise():
    with pytest.raises(placement.InvalidArgumentError, match="text is None"):
        placement.FlowNetwork.from_dimacs_string(None)
    with pytest.raises(placement.InvalidArgumentError, match="text is None"):
        placement.Topology.from_xml_string(None)
    with pytest.raises(placement.InvalidArgumentError, match="self is None"):
        placement.core.SimResult.write_csv(None, "x")
