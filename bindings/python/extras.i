/* Python-only methods on the SWIG classes (so that objects coming back from
 * static factories such as FlowNetwork.from_dimacs() have them too). */

%rename(_add_arc) FlowNetwork::add_arc;

%extend FlowNetwork {
%pythoncode %{
def add_arc(self, tail, head, cost=0, capacity=None, lower=0):
    """Add an arc tail -> head; capacity None means unbounded. Returns its id."""
    return self._add_arc(tail, head, lower, CAP_INF if capacity is None else capacity, cost)

def solve(self, solver="network-simplex", verify=False, max_iterations=0, cold_start=False):
    """Find a minimum-cost flow; returns a placement.FlowResult snapshot.

    Raises InfeasibleError, UnboundedError, NotFoundError (unknown solver), ...
    """
    from placement import FlowResult
    cost = self.solve_cost(solver, verify, max_iterations, cold_start)
    return FlowResult(cost, self.flows(), self.potentials(), solver)

def arcs(self):
    """ArcInfo of every live arc, as (id, ArcInfo) pairs."""
    return [(a, self.arc(a)) for a in range(self.arc_count()) if not self.arc_removed(a)]

def to_networkx(self):
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
def from_networkx(g, demand="demand", capacity="capacity", weight="weight", lower="lower"):
    """A FlowNetwork from a networkx (Multi)DiGraph with networkx's
    min-cost-flow conventions: node i is the i-th node of g (named str(node)),
    supply = -demand, an edge without 'capacity' is unbounded, 'weight' is
    the cost (default 0). Arc j is the j-th edge of g.edges()."""
    net = FlowNetwork()
    index = {}
    for node, data in g.nodes(data=True):
        index[node] = net.add_node(-int(data.get(demand, 0)), str(node))
    for u, v, data in g.edges(data=True):
        cap = data.get(capacity)
        net.add_arc(index[u], index[v], cost=int(data.get(weight, 0)),
                    capacity=None if cap is None else int(cap), lower=int(data.get(lower, 0)))
    return net

def __repr__(self):
    return "<placement.FlowNetwork: %d nodes, %d arcs>" % (self.node_count(), self.arc_count())
%}
}

%extend Topology {
%pythoncode %{
def gpu_distance_matrix(self, v=-1, numpy=False):
    """Shortest-path weights between the GPUs under v (-1: all), in gpus(v)
    order: a list of rows, or a numpy array with numpy=True."""
    flat = self.gpu_distance_flat(v)
    k = len(self.gpus(v))
    if numpy:
        import numpy as np
        return np.array(flat, dtype=np.int64).reshape(k, k)
    return [flat[i * k:(i + 1) * k] for i in range(k)]

def vertex_kind_name(self, v):
    """Kind of vertex v as a short name ("gpu", "package", ...)."""
    return vertex_kind_name(self.vertex_kind(v))

def free(self, v, res=RES_UNITS):
    """Free amount of a resource on v."""
    return self.amount(v, res)[2]

def __len__(self):
    return self.vertex_count()

def __repr__(self):
    return "<placement.Topology: %d vertices, %d links, %d GPUs>" % (
        self.vertex_count(), self.link_count(), len(self.gpus()))
%}
}

%extend Job {
%pythoncode %{
@staticmethod
def data_parallel(name, gpus, traffic=1.0, workload=None, size="1"):
    """A job of `gpus` one-GPU tasks talking all-to-all with `traffic`."""
    j = Job(name)
    for _ in range(gpus):
        j.add_task()
    if gpus > 1:
        j.add_all_to_all(traffic)
    if workload is not None:
        j.set_workload(workload, size)
    return j

def __repr__(self):
    return "<placement.Job %r: %d tasks>" % (self.name(), self.task_count())
%}
}

%extend JobSet {
%pythoncode %{
@staticmethod
def of(jobs):
    """A JobSet holding copies of the given Jobs."""
    s = JobSet()
    for j in jobs:
        s.add(j)
    return s

def __len__(self):
    return self.count()

def __getitem__(self, i):
    n = self.count()
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError("job index out of range")
    return self.get(i)

def __iter__(self):
    return (self.get(i) for i in range(self.count()))
%}
}
