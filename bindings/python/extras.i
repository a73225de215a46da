/* Python-only methods on the SWIG classes (so that objects coming back from
 * static factories such as FlowNetwork.from_dimacs() have them too). */

%rename(_add_arc) FlowNetwork::add_arc;
%rename(_add_node_must) Job::add_node_must;
%rename(_add_node_must_not) Job::add_node_must_not;
%rename(_check_constraints) Job::check_constraints;
%rename(_set_node_filter) Job::set_node_filter;
%rename(_place) Sched::place;
%rename(_place) place;

%pythoncode %{
import collections as _collections

NodeConstraint = _collections.namedtuple("NodeConstraint", ["task", "must_not", "key", "value"])
NodeConstraint.__doc__ = """A node constraint of a Job: task None for the whole job;
must_not False for a Must (the machine's attribute key equals value), True
for a MustNot (absent or different)."""

ConstraintConflict = _collections.namedtuple("ConstraintConflict", ["kind", "cls", "task_a", "task_b"])
ConstraintConflict.__doc__ = """A conflict of a Job's constraints on a topology
(Kim's thesis): kind "NO_NODE", "SELF_ANTI" or "TOO_BIG"; cls the class of
tasks that must share a machine; task_a, task_b the tasks involved (task_b
None unless SELF_ANTI)."""
%}

%pythoncode %{
import typing as _typing

# Bulk results: numpy arrays when numpy can be imported (not imported before
# a call asks for one), lists otherwise.
_Matrix = "numpy.ndarray | list[list[int]]"
_Vector = "numpy.ndarray | list[int]"


def _array(values, shape=None):
    """values (ints) as a numpy int64 array of the given shape when numpy can
    be imported; otherwise as they are, rows of a list for a 2-D shape."""
    try:
        import numpy
    except ImportError:
        if shape is None:
            return list(values)
        k = shape[1]
        return [list(values[i * k:(i + 1) * k]) for i in range(shape[0])]
    a = numpy.array(values, dtype=numpy.int64)
    return a.reshape(shape) if shape is not None else a


def _paths(names, vertices):
    """Path of each vertex (None for -1, a CPU-only task's GPU)."""
    return [None if v < 0 else names.path_name(v) for v in vertices]


def _whole(x, what, where):
    """x as an int when it is a whole number; ValueError otherwise."""
    import numbers
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise ValueError("%s of %r: %r is not a number" % (what, where, x))
    if isinstance(x, numbers.Integral):
        return int(x)
    f = float(x)
    if f != f or f in (float("inf"), float("-inf")) or not f.is_integer():
        raise ValueError("%s of %r: %r is not a whole number (the solvers use integers: "
                         "scale the graph first)" % (what, where, x))
    return int(f)
%}

%extend FlowNetwork {
%pythoncode %{
def add_arc(self, tail: int, head: int, cost: int = 0, capacity: _typing.Optional[int] = None,
            lower: int = 0) -> int:
    """Add an arc tail -> head; capacity None means unbounded. Returns its id."""
    return self._add_arc(tail, head, lower, CAP_INF if capacity is None else capacity, cost)

def solve(self, solver: _typing.Optional[str] = "network-simplex", verify: bool = False,
          max_iterations: int = 0, cold_start: bool = False) -> "FlowResult":
    """Find a minimum-cost flow; returns a placement.FlowResult snapshot.

    Raises InfeasibleError, UnboundedError, NotFoundError (unknown solver), ...
    """
    from placement import FlowResult
    cost = self.solve_cost(solver, verify, max_iterations, cold_start)
    return FlowResult(cost, self.flows(), self.potentials(), solver)

def arcs(self) -> _typing.List[_typing.Tuple[int, ArcInfo]]:
    """ArcInfo of every live arc, as (id, ArcInfo) pairs."""
    return [(a, self.arc(a)) for a in range(self.arc_count()) if not self.arc_removed(a)]

def flows_array(self) -> _Vector:
    """Every arc's flow (index = arc id) as a numpy int64 array; a list
    when numpy cannot be imported."""
    return _array(self.flows())

def potentials_array(self) -> _Vector:
    """Every node's potential (index = node id) as a numpy int64 array; a
    list when numpy cannot be imported."""
    return _array(self.potentials())

def to_networkx(self) -> _typing.Any:
    """A networkx.MultiDiGraph of the network: node attribute 'demand' (=
    -supply, networkx's sign), edge attributes 'weight' (cost), 'capacity'
    (absent when unbounded), 'lower' and 'arc' (the arc id). Nodes are the
    node ids; removed nodes and arcs are left out. networkx's flow
    algorithms ignore 'lower'."""
    import networkx as nx
    g = nx.MultiDiGraph()
    for v in range(self.node_count()):
        if not self.node_removed(v):
            attrs = {"demand": -self.supply(v)}
            name = self.node_name(v)
            if name is not None:
                attrs["name"] = name
            g.add_node(v, **attrs)
    for a, info in self.arcs():
        attrs = {"weight": info.cost, "lower": info.lower, "arc": a}
        if info.upper != CAP_INF:
            attrs["capacity"] = info.upper
        g.add_edge(info.tail, info.head, key=a, **attrs)
    return g

@staticmethod
def from_networkx(g: _typing.Any, demand: str = "demand", capacity: str = "capacity",
                  weight: str = "weight", lower: str = "lower") -> "FlowNetwork":
    """A FlowNetwork from a networkx DiGraph or MultiDiGraph with networkx's
    min-cost-flow conventions: node i is the i-th node of g (named str(node)),
    supply = -demand, an edge without 'capacity' is unbounded, 'weight' is
    the cost (default 0). Arc j is the j-th edge of g.edges().

    The solvers work in integers: a demand, capacity, weight or lower bound
    that is not a whole number raises ValueError (scale the graph first, e.g.
    weights by 100) instead of being truncated. An undirected graph raises
    networkx.NetworkXNotImplemented, as networkx's own min_cost_flow does."""
    if not g.is_directed():
        import networkx
        raise networkx.NetworkXNotImplemented("not implemented for undirected type")
    net = FlowNetwork()
    index = {}
    for node, data in g.nodes(data=True):
        index[node] = net.add_node(-_whole(data.get(demand, 0), demand, node), str(node))
    for u, v, data in g.edges(data=True):
        cap = data.get(capacity)
        net.add_arc(index[u], index[v], cost=_whole(data.get(weight, 0), weight, (u, v)),
                    capacity=None if cap is None else _whole(cap, capacity, (u, v)),
                    lower=_whole(data.get(lower, 0), lower, (u, v)))
    return net

def __repr__(self) -> str:
    return "<placement.FlowNetwork: %d nodes, %d arcs>" % (self.node_count(), self.arc_count())
%}
}

%extend Topology {
%pythoncode %{
def gpu_distance_matrix(self, v: int = -1, numpy: bool = False) -> _Matrix:
    """Shortest-path weights between the GPUs under v (-1: all), in gpus(v)
    order: a list of rows, or with numpy=True a k x k numpy int64 array
    (still a list of rows when numpy cannot be imported)."""
    flat = self.gpu_distance_flat(v)
    k = len(self.gpus(v))
    if numpy:
        return _array(flat, (k, k))
    return [flat[i * k:(i + 1) * k] for i in range(k)]

def distance_matrix(self, vertices: _typing.Optional[_typing.Sequence[_typing.Union[int, str]]] = None,
                    numpy: bool = True) -> _Matrix:
    """Shortest-path weights between every pair of vertices (ids, or paths
    as path() gives them; None: every GPU, in gpus() order): a k x k numpy
    int64 array, 0 on the diagonal and -1 where there is no path. A list of
    rows with numpy=False or when numpy cannot be imported."""
    if vertices is None:
        ids = self.gpus()
    elif isinstance(vertices, (str, bytes)):
        raise TypeError("distance_matrix takes a list of vertices, not one path")
    else:
        ids = [self.find(v) if isinstance(v, str) else v for v in vertices]
    flat = self.distance_flat(ids)
    k = len(ids)
    if numpy:
        return _array(flat, (k, k))
    return [flat[i * k:(i + 1) * k] for i in range(k)]

def path(self, v: int) -> str:
    """The path of names of vertex v from its root
    ("cluster/rack0/node0/package0/gpu1"), as find() accepts it (same as
    path_name())."""
    return self.path_name(v)

def name(self, v: int) -> str:
    """The name of vertex v ("gpu1", "node0"; same as vertex_name())."""
    return self.vertex_name(v)

def vertex_kind_name(self, v: int) -> str:
    """Kind of vertex v as a short name ("gpu", "package", ...)."""
    return vertex_kind_name(self.vertex_kind(v))

def free(self, v: int, res: int = RES_UNITS) -> int:
    """Free amount of a resource on v."""
    return self.amount(v, res)[2]

def attrs(self, v: int) -> _typing.Dict[str, str]:
    """The attributes of vertex v as a dict, in the order the keys were first set."""
    return {self.attr_key(v, i): self.attr_value(v, i) for i in range(self.attr_count(v))}

def machines(self) -> _typing.List[int]:
    """The machine vertices, in preorder."""
    return self.descendants(-1, VK_MACHINE)

def __len__(self) -> int:
    return self.vertex_count()

def __repr__(self) -> str:
    return "<placement.Topology: %d vertices, %d links, %d GPUs>" % (
        self.vertex_count(), self.link_count(), len(self.gpus()))
%}
}

%extend Job {
%pythoncode %{
@staticmethod
def data_parallel(name: str, gpus: int, traffic: float = 1.0, workload: _typing.Optional[str] = None,
                  size: str = "1") -> "Job":
    """A job of `gpus` one-GPU tasks talking all-to-all with `traffic`.
    gpus must be an integer >= 1 (ValueError otherwise)."""
    import numbers
    if isinstance(gpus, bool) or not isinstance(gpus, numbers.Integral) or gpus < 1:
        raise ValueError("data_parallel: gpus must be an integer >= 1, got %r" % (gpus,))
    j = Job(name)
    for _ in range(gpus):
        j.add_task()
    if gpus > 1:
        j.add_all_to_all(traffic)
    if workload is not None:
        j.set_workload(workload, size)
    return j

def add_node_must(self, key: str, value: str, task: _typing.Optional[int] = None) -> None:
    """Node Must: `task` (None: every task) runs only on a machine whose
    attribute `key` equals `value`. Several Musts intersect."""
    self._add_node_must(key, value, JOB_ALL_TASKS if task is None else task)

def add_node_must_not(self, key: str, value: str, task: _typing.Optional[int] = None) -> None:
    """Node MustNot: `task` (None: every task) does not run on a machine
    whose attribute `key` equals `value` (one without it qualifies)."""
    self._add_node_must_not(key, value, JOB_ALL_TASKS if task is None else task)

def node_constraints(self) -> _typing.List[NodeConstraint]:
    """The node constraints in the order added, as NodeConstraint tuples."""
    out = []
    for i in range(self.node_constraint_count()):
        task = self.node_constraint_task(i)
        out.append(NodeConstraint(None if task == JOB_ALL_TASKS else task,
                                  self.node_constraint_must_not(i), self.node_constraint_key(i),
                                  self.node_constraint_value(i)))
    return out

def set_node_filter(self, names: _typing.Optional[_typing.Sequence[str]]) -> None:
    """Restrict the job to machines with these names (empty or None: no filter)."""
    if isinstance(names, (str, bytes)):
        raise TypeError("set_node_filter takes a list of machine names, not one string")
    self._set_node_filter(list(names) if names is not None else [])

def labels(self) -> _typing.List[str]:
    """The job's labels (which other jobs' anti-affinity may name)."""
    return [self.label(i) for i in range(self.label_count())]

def anti_affinity(self) -> _typing.List[str]:
    """The labels whose jobs must not share a machine with this one."""
    return [self.anti_affinity_label(i) for i in range(self.anti_affinity_count())]

def conflicts(self, topology: Topology) -> _typing.List[ConstraintConflict]:
    """The conflicts of the job's constraints on `topology`
    (ConstraintConflict tuples; empty when the constraints can be met)."""
    flat = self.conflicts_flat(topology)
    return [ConstraintConflict(conflict_kind_name(flat[i]), flat[i + 1], flat[i + 2],
                               None if flat[i + 3] < 0 else flat[i + 3])
            for i in range(0, len(flat), 4)]

def check_constraints(self, topology: Topology) -> None:
    """Raise InfeasibleError when the job's constraints conflict on
    `topology`; the message names each conflict and its .conflicts
    attribute lists them (ConstraintConflict tuples)."""
    try:
        self._check_constraints(topology)
    except _core.InfeasibleError as e:
        e.conflicts = self.conflicts(topology)
        raise

def __repr__(self) -> str:
    return "<placement.Job %r: %d tasks>" % (self.name(), self.task_count())
%}
}

%extend JobSet {
%pythoncode %{
@staticmethod
def of(jobs: _typing.Iterable[Job]) -> "JobSet":
    """A JobSet holding copies of the given Jobs."""
    s = JobSet()
    for j in jobs:
        s.add(j)
    return s

def __len__(self) -> int:
    return self.count()

def __getitem__(self, i: int) -> Job:
    n = self.count()
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError("job index out of range")
    return self.get(i)

def __iter__(self) -> _typing.Iterator[Job]:
    return (self.get(i) for i in range(self.count()))
%}
}

%extend Trace {
%pythoncode %{
def __len__(self) -> int:
    return self.count()

def __repr__(self) -> str:
    return "<placement.Trace %s: %d jobs>" % (self.format(), self.count())
%}
}

%extend Decisions {
%pythoncode %{
def gpu_paths(self, i: int, topology: _typing.Optional[Topology] = None) -> _typing.List[_typing.Optional[str]]:
    """The path of each task's GPU of job i ("cluster/rack0/node0/package0/gpu1";
    None for a CPU-only task), gpus(i) by name. topology: the one the
    decisions were made on; needed only for decisions that do not come from
    place() or Sched.place(), which remember it."""
    return _paths(self._names_of(topology), self.gpus(i))

def machine_name(self, i: int, topology: _typing.Optional[Topology] = None) -> _typing.Optional[str]:
    """The name of job i's machine ("node0"; None if none or several),
    machine(i) by name; topology as for gpu_paths()."""
    m = self.machine(i)
    return None if m < 0 else self._names_of(topology).vertex_name(m)

def _names_of(self, topology):
    names = topology if topology is not None else getattr(self, "_names", None)
    if names is None:
        raise _core.InvalidArgumentError("Decisions: pass the topology the decisions were made on")
    return names
%}
}

%extend Sched {
%pythoncode %{
def place(self, jobs: JobSet, policy: _typing.Optional[str] = None, seed: int = 1,
          profiles: _typing.Optional[ProfileSet] = None,
          options: _typing.Optional[PolicyOptions] = None) -> Decisions:
    """Where jobs (in queue order) would go now; allocates nothing. The
    committed jobs are the running ones. One call is one round of the
    policy: the Sched keeps the policy's state (DRMaestro's waiting
    counters) from call to call while the policy stays the same. The
    decisions name GPUs and machines by the live topology
    (Decisions.gpu_paths(), machine_name())."""
    d = self._place(jobs, policy, seed, profiles, options)
    d._names = self
    return d

def gpu_paths(self, id: str) -> _typing.List[_typing.Optional[str]]:
    """The path of each task's GPU of the job committed under id
    ("cluster/rack0/node0/package0/gpu1"; None for a CPU-only task):
    gpus(id) by name."""
    return _paths(self, self.gpus(id))
%}
}

%pythoncode %{
def place(policy: str, topo: "Topology", jobs: "JobSet", profiles: "ProfileSet" = None,
          seed: int = 1, max_placed: int = 0, network_load: float = 0.0,
          options: "PolicyOptions" = None) -> "Decisions":
    """Decide placements of jobs (in queue order) on topo with a named policy.
    profiles None: the builtin SC17 profiles; options None: the policy's
    defaults. The topology is not modified; the decisions name GPUs and
    machines by it (Decisions.gpu_paths(), machine_name())."""
    d = _place(policy, topo, jobs, profiles, seed, max_placed, network_load, options)
    d._names = topo
    return d
%}
