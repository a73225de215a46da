"""The Python face of the package: help() without SWIG's C view, a stub
that matches the run-time signatures, names next to vertex ids, numpy
arrays for bulk results and ValueError for bad sizes. Values by hand on
the Minsky builtin (NVLink pair 1, across the X-Bus 1 + 20 + 1 = 22)."""
import ast
import inspect
import pathlib
import pydoc
import re
import sys

import pytest

import placement
import _stubcheck as sc

MINSKY = [[0, 1, 22, 22], [1, 0, 22, 22], [22, 22, 0, 1], [22, 22, 1, 0]]
# What SWIG shows of C when a docstring or annotation is left to it.
C_TYPES = re.compile(r"Proxy of C|\bu?int(32|64)_t\b|char const|char \*|\bplb_\w+|\bpl_\w+|\w+ \*")


@pytest.mark.parametrize("name", sorted(sc.public_classes()))
def test_help_reads_like_python(name):
    cls = getattr(placement, name)
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    # "pl_" may appear in prose about the C API in a few docstrings, never as a type.
    signatures = "\n".join(l for l in text.splitlines() if "(" in l and ")" in l and not l.strip().startswith("|     "))
    assert not C_TYPES.search(signatures), C_TYPES.search(signatures).group(0)
    assert "Proxy of C" not in text
    assert (cls.__doc__ or "").strip(), name + " has no docstring"
    for member, (kind, fn) in sc.public_members(cls).items():
        if kind == "property":
            assert (fn.__doc__ or "").strip(), "%s.%s" % (name, member)
            continue
        # __init__, __len__, ...: the class's docstring describes them.
        assert member in sc.SPECIAL or (fn.__doc__ or "").strip(), "%s.%s has no docstring" % (name, member)
        for p in list(inspect.signature(fn).parameters.values())[1 if kind == "method" else 0:]:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and member == "__init__":
                continue      # the classes that cannot be constructed
            assert p.annotation is not p.empty, "%s.%s(%s) has no type" % (name, member, p.name)
            assert not (isinstance(p.annotation, str) and C_TYPES.search(p.annotation))
        assert inspect.signature(fn).return_annotation is not inspect.Signature.empty, \
            "%s.%s has no result type" % (name, member)


def test_help_of_flow_network_shows_python_types():
    text = pydoc.render_doc(placement.FlowNetwork, renderer=pydoc.plaintext)
    assert "add_node(self, supply: int = 0, name: Optional[str] = None) -> int" in text
    assert "flows(self) -> List[int]" in text
    assert "from_dimacs(path: str) -> placement.FlowNetwork" in text
    assert text.splitlines()[2].startswith("class FlowNetwork")
    assert "A min-cost flow network" in text


def test_public_functions_documented():
    for name, f in vars(placement).items():
        if inspect.isfunction(f) and not name.startswith("_"):
            assert (f.__doc__ or "").strip(), name
            assert not C_TYPES.search(str(inspect.signature(f))), name


def _stub():
    pkg = pathlib.Path(placement.__file__).parent
    return ast.parse((pkg / "__init__.pyi").read_text())


def _stub_text(fn, is_method):
    args = fn.args
    parts = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for i, (a, d) in enumerate(zip(positional, defaults)):
        text = a.arg if (i == 0 and is_method) else a.arg + (": " + ast.unparse(a.annotation) if a.annotation else "")
        parts.append(text + (" = ..." if d is not None else ""))
    if args.vararg:
        parts.append("*" + args.vararg.arg + (": " + ast.unparse(args.vararg.annotation) if args.vararg.annotation else ""))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        parts.append(a.arg + ": " + ast.unparse(a.annotation) + (" = ..." if d is not None else ""))
    if args.kwarg:
        parts.append("**" + args.kwarg.arg + (": " + ast.unparse(args.kwarg.annotation) if args.kwarg.annotation else ""))
    return "(%s)%s" % (", ".join(parts), " -> " + ast.unparse(fn.returns) if fn.returns else "")


def test_stub_matches_the_runtime_signatures():
    """Every public method and function is in the stub with the parameters,
    defaults and types it has at run time (the run-time types come from the
    C types, so a changed .i shows up here)."""
    stub = _stub()
    classes = {n.name: n for n in stub.body if isinstance(n, ast.ClassDef)}
    functions = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    problems = []
    for name, cls in sc.public_classes().items():
        if name not in classes:
            problems.append("class %s missing" % name)
            continue
        stubbed = {n.name: n for n in classes[name].body if isinstance(n, ast.FunctionDef)}
        for member, (kind, fn) in sc.public_members(cls).items():
            if member not in stubbed:
                problems.append("%s.%s missing" % (name, member))
            elif kind != "property":
                want = sc.signature_text(fn, kind == "method").replace("*args, **kwargs", "*args: Any, **kwargs: Any")
                got = _stub_text(stubbed[member], kind == "method")
                if want != got:
                    problems.append("%s.%s: runtime %s, stub %s" % (name, member, want, got))
        for extra in set(stubbed) - set(sc.public_members(cls)):
            problems.append("%s.%s is in the stub only" % (name, extra))
    for name, fn in vars(placement).items():
        if inspect.isfunction(fn) and not name.startswith("_"):
            if name not in functions:
                problems.append("function %s missing" % name)
            elif sc.signature_text(fn, False) != _stub_text(functions[name], False):
                problems.append("%s: runtime %s, stub %s" % (name, sc.signature_text(fn, False),
                                                             _stub_text(functions[name], False)))
    assert problems == []


def test_stub_has_no_any_where_the_type_is_known():
    # networkx graphs (optional dependency), policy options (**options) and
    # the arguments of classes that cannot be constructed are the only Any.
    allowed = {"from_networkx", "to_networkx", "flow_dict", "__init__", "policy_options"}
    for node in ast.walk(_stub()):
        if isinstance(node, ast.FunctionDef) and "Any" in ast.unparse(node):
            assert node.name in allowed, ast.unparse(node)


def test_distance_matrix_numpy_and_lists():
    np = pytest.importorskip("numpy")
    t = placement.Topology.builtin("minsky")
    m = t.distance_matrix()
    assert isinstance(m, np.ndarray) and m.dtype == np.int64 and m.shape == (4, 4)
    assert m.tolist() == MINSKY == t.distance_matrix(numpy=False) == t.gpu_distance_matrix()
    assert (t.gpu_distance_matrix(numpy=True) == m).all()
    # Any vertices, by id or path: GPU 0 to package 1 is 1 (PCIe) + 20 (X-Bus).
    g0, p1 = t.gpus()[0], t.find("machine/package1")
    assert t.distance_matrix([g0, "machine/package1"]).tolist() == [[0, 21], [21, 0]]
    assert t.distance(g0, p1) == 21
    c = placement.Topology.cluster(t, 2)
    big = c.distance_matrix()
    # Across machines: 1 + 20 + 40 (machine-rack) ... as test_topology's cluster case.
    assert big.shape == (8, 8) and int(big[0, 4]) == c.distance(c.gpus()[0], c.gpus()[4])
    assert (big[:4, :4] == m).all() and (big[4:, 4:] == m).all()


def test_bulk_results_fall_back_to_lists_without_numpy(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)    # import numpy now raises ImportError
    t = placement.Topology.builtin("minsky")
    assert t.distance_matrix() == MINSKY
    assert t.gpu_distance_matrix(numpy=True) == MINSKY
    net = placement.FlowNetwork()
    s, d = net.add_node(3), net.add_node(-3)
    net.add_arc(s, d, cost=2, capacity=5)
    res = net.solve()
    assert res.flows_array() == [3] and net.flows_array() == [3]
    assert isinstance(res.potentials_array(), list)


def test_flows_and_potentials_arrays(data):
    np = pytest.importorskip("numpy")
    net = placement.FlowNetwork.from_dimacs(data("flow/small_graph.in"))
    res = net.solve()
    f, p = res.flows_array(), res.potentials_array()
    assert f.dtype == np.int64 and f.tolist() == res.flows and p.tolist() == res.potentials
    assert (net.flows_array() == f).all()
    costs = np.array([net.arc(a).cost for a in range(net.arc_count())])
    assert int(costs @ f) == res.cost == 38


def test_names_next_to_vertex_ids():
    cluster = placement.Topology.cluster(placement.Topology.builtin("minsky"), 2)
    job = placement.Job.data_parallel("pair", 2)
    placed = placement.Policy("topo-aware").place(cluster, [job])
    d = placed[0]
    # The NVLink pair of the first machine, by id and by name.
    assert d.gpu_paths == ["cluster/rack0/node0/package0/gpu0", "cluster/rack0/node0/package0/gpu1"]
    assert [cluster.find(p) for p in d.gpu_paths] == d.gpus
    assert d.machine_name == "node0" and cluster.name(d.machine) == "node0"
    assert cluster.path(d.machine) == "cluster/rack0/node0"
    assert "cluster/rack0/node0/package0/gpu0" in repr(d)
    low = placement.place("topo-aware", cluster, placement.JobSet.of([job]))
    assert low.gpu_paths(0) == d.gpu_paths and low.machine_name(0) == "node0"

    s = placement.Sched(cluster)
    big = placement.Job.data_parallel("four", 4)
    dec = s.place(placement.JobSet.of([big]), policy="topo-aware")
    assert dec.gpu_paths(0) == [cluster.path(g) for g in dec.gpus(0)]
    s.commit("j4", big, dec, 0)
    assert s.gpu_paths("j4") == [cluster.path(g) for g in s.gpus("j4")]
    assert s.vertex_name(dec.machine(0)) == dec.machine_name(0)
    # The next pair avoids the full machine: node1.
    dec2 = s.place(placement.JobSet.of([job]), policy="topo-aware")
    assert dec2.machine_name(0) == "node1"
    assert dec2.gpu_paths(0) == ["cluster/rack1/node1/package0/gpu0", "cluster/rack1/node1/package0/gpu1"]


def test_decisions_without_a_topology_say_so():
    cluster = placement.Topology.builtin("minsky")
    d = placement.core._place("topo-aware", cluster, placement.JobSet.of([placement.Job.data_parallel("a", 1)]),
                              None, 1, 0, 0.0, None)
    with pytest.raises(placement.InvalidArgumentError):
        d.gpu_paths(0)
    assert d.gpu_paths(0, cluster) == ["machine/package0/gpu0"]


@pytest.mark.parametrize("call", [
    lambda: placement.FlowNetwork().add_nodes(-1),
    lambda: placement.Topology.builtin("minsky").add_vertex(placement.VK_GPU, 0, None, -5),
    lambda: placement.Simulator(*placement.scenario("sc17-proto"), max_placed=-1),
    lambda: placement.Policy("topo-aware", seed=-1).place(placement.Topology.builtin("minsky"),
                                                          [placement.Job.data_parallel("a", 1)]),
    lambda: placement.Simulator(*placement.scenario("sc17-proto"), seed=-3),
    lambda: placement.scenario("sc17-s2", machines=2, jobs=3, seed=-1),
    lambda: placement.Sched(placement.Topology.builtin("minsky")).place(
        placement.JobSet.of([placement.Job.data_parallel("a", 1)]), seed=-1),
    lambda: placement.Topology.cluster(placement.Topology.builtin("minsky"), -2),
    lambda: placement.Job("x").add_task(gpus=-1),
    lambda: placement.Job.data_parallel("x", -1),
    lambda: placement.scenario("sc17-proto", machines=-1),
], ids=["add_nodes", "os_index", "sim_max_placed", "policy_seed", "sim_seed", "scenario_seed",
        "sched_seed", "cluster", "add_task", "data_parallel", "scenario_machines"])
def test_negative_sizes_raise_value_error(call):
    with pytest.raises(ValueError) as e:
        call()
    # A library error class where the library or the binding checks it.
    assert isinstance(e.value, placement.Error) or "data_parallel" in str(e.value)
    assert "int32_t" not in str(e.value) and "uint64_t" not in str(e.value)
