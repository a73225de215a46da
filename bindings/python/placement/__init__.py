"""libplacement for Python: topology- and interference-aware placement,
min-cost flow and the trace-driven simulator (doc/bindings.md).

The classes are SWIG proxies of the C handles: each object owns its handle
and frees it when collected. Failures raise a subclass of placement.Error
named after the library status (ParseError for PL_EPARSE, ...), whose text
is the library's message (pl_last_error()) and whose .status is the code.
"""
import collections
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _core
from .core import (  # noqa: F401  (re-exported API)
    ArcInfo, Decisions as _Decisions, FlowNetwork, Job, JobSet, LinkInfo, ProfileSet, Topology,
    CAP_INF, DEFAULT_SOLVER, VERSION, last_error, status_name, status_string,
    link_kind_name, resource_name, vertex_kind_name, place as _place,
    policy_count, policy_name, solver_count, solver_name,
    topology_builtin_count, topology_builtin_name, decision_kind_name,
    Sim as _Sim, Scenario as _Scenario, sim_scenario_count, sim_scenario_name,
    SIM_RUNTIME_PROGRESS, SIM_RUNTIME_ARTIFACT,
    PolicyOptions, SimOptions as _SimOptions, Trace, NodeConstraint, ConstraintConflict, Sched,
    conflict_kind_name, JOB_ALL_TASKS, _Matrix, _Vector, _array,
)
from .core import *  # noqa: F401,F403  (enum constants VK_GPU, RES_UNITS, LK_NVLINK, ...)

__version__ = VERSION

Error = _core.Error
InvalidArgumentError = _core.InvalidArgumentError
NoMemoryError = _core.NoMemoryError
ParseError = _core.ParseError
InfeasibleError = _core.InfeasibleError
UnboundedError = _core.UnboundedError
OverflowError = _core.OverflowError  # noqa: A001  (also a builtins.OverflowError)
NotFoundError = _core.NotFoundError
IOError = _core.IOError  # noqa: A001  (also a builtins.OSError)
VerifyError = _core.VerifyError
StateError = _core.StateError
LimitError = _core.LimitError
InternalError = _core.InternalError


def solvers() -> List[str]:
    """Names of the min-cost-flow solvers, built-in first."""
    return [solver_name(i) for i in range(solver_count())]


def policies() -> List[str]:
    """Names of the placement policies, built-in first."""
    return [policy_name(i) for i in range(policy_count())]


def builtin_topologies() -> List[str]:
    """Names accepted by Topology.builtin()."""
    return [topology_builtin_name(i) for i in range(topology_builtin_count())]


class FlowResult:
    """A solved flow: a snapshot taken when FlowNetwork.solve.__annotations__["return"] = FlowResult


class Decision:() returned, so
    it stays valid whatever happens to the network afterwards."""

    def __init__(self, cost: int, flows: List[int], potentials: List[int], solver: Optional[str]) -> None:
        self.cost = cost
        self.flows = flows
        self.potentials = potentials
        self.solver = solver

    def flow(self, arc: int) -> int:
        """Flow on arc `arc`."""
        return self.flows[arc]

    def potential(self, node: int) -> int:
        """Potential (dual value) of `node`."""
        return self.potentials[node]

    def flow_dict(self, g: Any) -> Dict[Any, Dict[Any, Any]]:
        """The flows shaped like networkx's min_cost_flow() result, for the
        graph g this network was made from with FlowNetwork.from_networkx():
        {u: {v: flow}} for a DiGraph, {u: {v: {key: flow}}} for a
        MultiDiGraph (arc j is the j-th edge of g.edges())."""
        out = {u: {} for u in g.nodes}
        if g.is_multigraph():
            for j, (u, v, k) in enumerate(g.edges(keys=True)):
                out[u].setdefault(v, {})[k] = self.flows[j]
        else:
            for j, (u, v) in enumerate(g.edges()):
                out[u][v] = self.flows[j]
        return out

    def flows_array(self) -> _Vector:
        """The flows (index = arc id) as a numpy int64 array; a list when
        numpy cannot be imported."""
        return _array(self.flows)

    def potentials_array(self) -> _Vector:
        """The potentials (index = node id) as a numpy int64 array; a list
        when numpy cannot be imported."""
        return _array(self.potentials)

    def __repr__(self) -> str:
        return "<placement.FlowResult cost=%d solver=%s>" % (self.cost, self.solver)


class Decision:
    """What a policy decided for one job."""

    __slots__ = ("job", "kind", "gpus", "machine", "utility", "comm_cost", "slowdown", "reason", "hosts",
                 "gpu_paths", "machine_name", "storage")

    def __init__(self, job: str, kind: str, gpus: List[int], machine: int, utility: float,
                 comm_cost: int, slowdown: float, reason: str, hosts: Sequence[int] = (),
                 gpu_paths: Optional[List[Optional[str]]] = None,
                 machine_name: Optional[str] = None, storage: Sequence[int] = ()) -> None:
        self.job = job              # the job's name
        self.kind = kind            # "placed", "postponed", "waiting" or "rejected"
        self.gpus = gpus            # GPU vertex of each entry (empty unless placed): one per task,
        #                             k for a task of k GPUs
        self.machine = machine      # machine vertex, -1 if none or several
        self.utility = utility
        self.comm_cost = comm_cost
        self.slowdown = slowdown
        self.reason = reason        # why not placed ("" when placed)
        self.hosts = hosts          # where each entry runs: its GPU, or a CPU-only task's package
        #                             (its gpus entry is -1); equals gpus for GPU tasks only
        # gpus and machine by name: "cluster/rack0/node0/package0/gpu1" (None for a CPU-only
        # task), "node0" (None if none or several)
        self.gpu_paths = gpu_paths if gpu_paths is not None else []
        # storage vertex of each entry's NVMe demand (-1: none); empty for a job without one
        self.storage = storage
        self.machine_name = machine_name

    @property
    def placed(self) -> bool:
        """Whether the job was placed."""
        return self.kind == "placed"

    def __repr__(self) -> str:
        if self.placed:
            return "<Decision %s: placed on %s (utility %.3f)>" % (
                self.job, ", ".join(p or "cpu" for p in self.gpu_paths) or self.gpus, self.utility)
        return "<Decision %s: %s (%s)>" % (self.job, self.kind, self.reason)


class Placement(list):
    """The decisions of one Policy.place() call, one per job in queue order.
    apply() allocates the placed jobs on a topology; the object keeps the
    C decisions and the queue it needs for that alive itself."""

    def __init__(self, decisions: _Decisions, jobs: JobSet, profiles: Optional[ProfileSet],
                 topology: Optional[Topology] = None) -> None:
        """The decisions of Policy.place(); topology (the one they were made
        on, default the one decisions remember) names their GPUs and
        machines."""
        self._decisions = decisions
        self._jobs = jobs
        self._profiles = profiles
        names = [j.name() for j in jobs]
        named = topology is not None or getattr(decisions, "_names", None) is not None
        super().__init__(
            Decision(names[i], decision_kind_name(decisions.kind(i)), decisions.gpus(i),
                     decisions.machine(i), decisions.utility(i), decisions.comm_cost(i),
                     decisions.slowdown(i), decisions.reason(i) or "", decisions.hosts(i),
                     decisions.gpu_paths(i, topology) if named else None,
                     decisions.machine_name(i, topology) if named else None,
                     decisions.storage(i))
            for i in range(decisions.count()))

    def placed(self) -> List[Decision]:
        """The decisions that placed their job."""
        return [d for d in self if d.placed]

    def apply(self, topology: Topology) -> None:
        """Allocate every placed job's resources on `topology` (all or nothing)."""
        self._decisions.apply(topology, self._jobs, self._profiles)


# Keyword options of the policies that have their own (pl_policy_opts.policy_opts),
# by the PolicyOptions setter that takes each; PolicyOptions refuses an option
# of another policy (InvalidArgumentError).
_OPTION_SETTERS = {
    "mode": "set_mode",                                # sa-placement: "batch" or "online"
    "iterations": "set_iterations",                    # sa-placement
    "initial_temperature": "set_initial_temperature",  # sa-placement
    "cooling": "set_cooling",                          # sa-placement
    "model": "set_model",                              # sa-placement: "lookup" or "tree";
                                                       # gpu-qos: "profiles" or "usage"
    "qos": "set_qos",                                  # gpu-qos
    "pairing": "set_pairing",                          # gpu-qos: "mmp", "mmp-stuck", "greedy", "optimal"
    "share_factor": "set_share_factor",                # gpu-qos
    "usage_traces": "set_usage_traces",                # gpu-qos, model "usage": a CSV path
}


def _runtime_table(table):
    """two-level's task_runtime_s {workload: {platform: seconds}} as the
    (platforms, workloads, row-major run times) of the C struct."""
    workloads = list(table)
    platforms = list(table[workloads[0]]) if workloads else []
    cells = []
    for w in workloads:
        row = table[w]
        if set(row) != set(platforms):
            raise InvalidArgumentError("task_runtime_s: workload %r has platforms %s, expected %s"
                                       % (w, sorted(row), sorted(platforms)))
        cells.extend(float(row[p]) for p in platforms)
    return platforms, workloads, cells


def policy_options(policy: str, **options: Any) -> Optional[PolicyOptions]:
    """The PolicyOptions of `policy` with the given keyword options, or None
    when there are none. sa-placement: mode ("batch" | "online"),
    iterations, initial_temperature, cooling, model ("lookup": the
    profiles' measured slowdowns, default | "tree": a bagged REPTree
    learned from them, doc/policies.md 4e); two-level: task_runtime_s
    ({workload: {platform: seconds}}); gpu-qos: qos, pairing ("mmp",
    "mmp-stuck", "greedy", "optimal"), share_factor (the default
    predictor's cost of sharing the GPU itself, >= 1, default 1), model
    ("profiles": share_factor for every pair, default | "usage": the
    pair's GPU usage patterns, built-in Table 5.1 ones plus usage_traces,
    share_factor for pairs without; doc/policies.md 4e), usage_traces (a
    usage-pattern CSV path, doc/simulator.md 3c; read when the policy is
    created: IOError, ParseError). An option unknown to every policy is
    a TypeError; one of another policy, or any option for a policy without
    options, an InvalidArgumentError. Values are checked by the library
    when the policy runs."""
    return _make_options(policy, options)


def _make_options(policy, options):
    if not options:
        return None
    o = PolicyOptions(policy)
    for key, value in options.items():
        if key == "task_runtime_s":
            o.set_task_runtimes(*_runtime_table(value))
        elif key == "usage_traces":
            o.set_usage_traces(None if value is None else str(value))
        elif key in _OPTION_SETTERS:
            getattr(o, _OPTION_SETTERS[key])(value)
        else:
            raise TypeError("policy %r: unexpected option %r" % (policy, key))
    return o


class Policy:
    """A placement policy by name ("topo-aware", "fcfs", "bf", "pack",
    "spread", "random", "drmaestro", "sa-placement", "two-level", "gpu-qos",
    "constraint-energy", "constraint-balance", ...; see policies()).
    Keyword arguments beyond the common ones are the policy's own options
    (see policy_options()), e.g. Policy("sa-placement", seed=3,
    iterations=500, mode="online", model="tree")."""

    def __init__(self, name: str = "topo-aware", profiles: Optional[ProfileSet] = None, seed: int = 1,
                 max_placed: int = 0, network_load: float = 0.0, **options: Any) -> None:
        self.name = name
        self.profiles = profiles
        self.seed = seed
        self.max_placed = max_placed
        self.network_load = network_load
        self.options = dict(options)
        self._options = _make_options(name, options)

    def place(self, topology: Topology, jobs: Union[JobSet, Iterable[Job]], apply: bool = False) -> Placement:
        """Decide where each job of `jobs` (a JobSet or Jobs, in priority
        order) goes on `topology`; returns a Placement. The topology is only
        changed with apply=True (or Placement.apply())."""
        if not isinstance(jobs, JobSet):
            jobs = JobSet.of(jobs)
        d = _place(self.name, topology, jobs, self.profiles, self.seed, self.max_placed,
                   self.network_load, self._options)
        result = Placement(d, jobs, self.profiles, topology)
        if apply:
            result.apply(topology)
        return result

    def __repr__(self) -> str:
        opts = "".join(", %s=%r" % kv for kv in self.options.items())
        return "Policy(%r%s)" % (self.name, opts)


def scenario_names() -> List[str]:
    """Names accepted by scenario()."""
    return [sim_scenario_name(i) for i in range(sim_scenario_count())]


def scenario(name: str, machines: int = 0, jobs: int = 0, seed: int = 1) -> Tuple[Topology, JobSet]:
    """A built-in simulator scenario as (Topology, JobSet): "sc17-proto"
    (6 jobs on one Minsky), "sc17-table1" (the SC17 paper's Table 1, 6 jobs
    on one Minsky), "sc17-s1" (100 jobs on 5 Minsky machines), "sc17-s2"
    (generated, 10,000 jobs on 1,000 machines, 10 per second), "drmaestro"
    (512 Rodinia jobs on 16 Firestone machines, plus CPU-only warm-up
    jobs); jobs and seed apply to sc17-s2 and drmaestro only. machines=0
    keeps the scenario's own size. Raises NotFoundError for an unknown
    name."""
    sc = _Scenario(name, machines, jobs, seed)
    return sc.take_topology(), sc.take_jobs()


SimSummary = collections.namedtuple("SimSummary", [
    "jobs", "done", "rejected", "unfinished", "makespan", "mean_wait", "max_wait",
    "mean_turnaround", "mean_slowdown", "max_slowdown", "slower_than_ideal",
    "below_min_utility", "slo_violations", "rounds", "decision_mean", "decision_p50",
    "decision_p90", "decision_p99", "decision_max", "wall_time",
    "mean_gpu_util", "mean_core_util", "mean_nvme_util", "mean_fragmentation",
    "failures", "jobs_killed", "lost_gpu_seconds", "remote_jobs", "shared_jobs", "qos_violations"])
SimSummary.__doc__ = """Aggregates of a run (doc/simulator.md): times in seconds;
makespan = last finish - first arrival; decision_* and wall_time are wall-clock
measurements (the only fields that differ between two runs of the same inputs);
mean_* are time-weighted means of the time series over [first arrival, last
finish] (core and NVMe -1 when the topology does not model them); failures,
jobs_killed, lost_gpu_seconds count device failures; remote_jobs the done jobs
that used a GPU of another machine; shared_jobs the done jobs that shared a GPU
with another job (doc/simulator.md 3c); qos_violations the done jobs slower
than their ideal time by more than the library's QoS tolerance."""

SimJobRecord = collections.namedtuple("SimJobRecord", [
    "job", "name", "state", "ngpus", "arrival", "start", "finish", "wait", "run_time",
    "ideal_time", "slowdown", "utility", "min_utility", "below_min_utility", "cross_socket",
    "machine", "placed", "restarts", "priority", "remote_gpus", "shared_gpu"])
SimJobRecord.__doc__ = """What happened to one job: state is "done", "rejected" or
"unfinished"; start/finish are -1 when it did not run; machine is the machine
ordinal, -1 if several or not run; placed is the time of the decision that
placed it (start - its startup delay; -1 if not run); restarts the times a
device failure killed it; priority its queue priority; remote_gpus the GPUs it
used on another machine (drmaestro); shared_gpu whether another job held one of
its GPUs at the same time (a GPU of 2 or more units)."""

SimSample = collections.namedtuple("SimSample", [
    "time", "running", "queued", "gpus_used", "gpus_failed", "gpu_util", "core_util",
    "nvme_util", "fragmentation", "remote_gpus"])
SimSample.__doc__ = """One point of the utilisation time series: the state from
`time` until the next point's time (doc/simulator.md sec. 5b)."""

SimFailure = collections.namedtuple("SimFailure", ["time", "gpu", "repair"])
SimFailure.__doc__ = """A device failure: GPU vertex `gpu` fails at `time` (s) and is
back `repair` seconds later (0: never)."""
SimFailure.__new__.__defaults__ = (0.0,)


def load_failures(path: str, topology: Topology) -> List[SimFailure]:
    """A CSV failure trace (header time,gpu,repair; gpu a vertex or a path
    of names resolved in `topology`) as a list of SimFailure."""
    o = _SimOptions()
    o.load_failures(str(path), topology)
    return [SimFailure(f.time, f.gpu, f.repair) for f in (o.failure(i) for i in range(o.failure_count()))]

_RUNTIMES = {"progress": SIM_RUNTIME_PROGRESS, "artifact": SIM_RUNTIME_ARTIFACT}


class SimulationResult:
    """One run of a Simulator: .summary (SimSummary), .jobs (SimJobRecord per
    job, workload order), timeline(), to_csv(), timeline_csv(). Valid on its
    own: it keeps the C result and the simulator's copy of the jobs alive,
    nothing else."""

    def __init__(self, result: SimResult, policy: str) -> None:
        """The results of Simulator.run() (not meant to be built by hand)."""
        self._result = result
        self.policy = policy
        s = result.summary()
        self.summary = SimSummary(*(getattr(s, f) for f in SimSummary._fields))
        self.jobs = [self._record(result.record(i)) for i in range(result.count())]
        self._timeline = None

    def timeline(self) -> List[SimSample]:
        """The utilisation time series: a list of SimSample, one point after
        every event that changed the state, in increasing time."""
        if self._timeline is None:
            r = self._result
            self._timeline = [SimSample(*(getattr(p, f) for f in SimSample._fields))
                              for p in (r.timeline(i) for i in range(r.timeline_count()))]
        return list(self._timeline)

    def timeline_csv(self, path: Optional[str] = None) -> Optional[str]:
        """The time series as CSV (byte-identical for identical inputs):
        written to path, or returned as a string when path is None."""
        if path is None:
            return self._result.timeline_csv()
        self._result.write_timeline_csv(str(path))
        return None

    @staticmethod
    def _record(r):
        return SimJobRecord(*(getattr(r, f) for f in SimJobRecord._fields))

    def to_csv(self, path: Optional[str] = None) -> Optional[str]:
        """The per-job records as CSV (byte-identical for identical inputs):
        written to path, or returned as a string when path is None."""
        if path is None:
            return self._result.csv()
        self._result.write_csv(str(path))
        return None

    def __repr__(self) -> str:
        return "<placement.SimulationResult %s: %d jobs, makespan %.1f s>" % (
            self.policy, len(self.jobs), self.summary.makespan)


def _sim_options(topology, startup_delay, startup_delays, priorities, failures,
                 gpu_share_factor=None, gpu_share_model="constant", usage_traces=None):
    """The SimOptions of the arguments beyond the first release, or None
    (SimOptions.set_gpu_share_model() refuses an unknown model)."""
    if (not startup_delay and startup_delays is None and priorities is None and not failures
            and gpu_share_factor is None and gpu_share_model == "constant" and usage_traces is None):
        return None
    o = _SimOptions()
    o.set_startup_delay(float(startup_delay))
    if gpu_share_factor is not None:
        o.set_gpu_share_factor(float(gpu_share_factor))
    o.set_gpu_share_model(gpu_share_model)
    if usage_traces is not None:
        o.set_usage_traces(str(usage_traces))
    if startup_delays is not None:
        o.set_job_startup_delays(list(startup_delays))
    if priorities is not None:
        o.set_priorities(list(priorities))
    for f in failures or ():
        f = tuple(f)
        time, gpu, repair = f[0], f[1], (f[2] if len(f) > 2 else 0.0)
        if isinstance(gpu, str):
            gpu = topology.find(gpu)
        o.add_failure(float(time), gpu, float(repair or 0.0))
    return o


class Simulator:
    """Trace-driven simulator (doc/simulator.md): replays `jobs` (a JobSet,
    Jobs with arrival times, or a Trace) on `topology` under a named policy.
    Both are copied at construction; `profiles` (a ProfileSet, default the
    builtin SC17 profiles) is kept alive by the simulator. runtime is
    "progress" (default) or "artifact" (the SC17 artifact's model).

    policy_options: the policy's own options as a dict (see
    policy_options()). startup_delay: seconds from placement to the start of
    every job's tasks; startup_delays, priorities: one value per job (a
    Trace gives its own unless these are passed; a non-zero startup_delay
    replaces the trace's delays). failures: (time, gpu, repair) tuples or
    SimFailure (gpu a vertex or a path of names; repair 0 or omitted:
    never), e.g. from load_failures(). progress: called as
    progress(settled, total, sim_time) during run(); an exception it raises
    is re-raised by run() once the run is over.

    Shared GPUs (doc/simulator.md 3c): gpu_share_model "constant" (default)
    slows co-tenants of a GPU by gpu_share_factor (None: the library's
    1.2737; >= 1, else InvalidArgumentError), "usage" by their workloads'
    GPU usage patterns replayed together (the built-in Table 5.1 ones, plus
    or replaced by those of the usage_traces CSV, a path; IOError or
    ParseError when it cannot be read; only with "usage"). An unknown model
    is an InvalidArgumentError (a ValueError)."""

    def __init__(self, topology: Topology, jobs: Union[JobSet, Iterable[Job], Trace],
                 policy: str = "topo-aware-p", seed: int = 1, interval: float = 1.0,
                 runtime: str = "progress", profiles: Optional[ProfileSet] = None,
                 max_placed: int = 0, network_load: float = 0.0,
                 policy_options: Optional[Dict[str, Any]] = None, startup_delay: float = 0.0,
                 startup_delays: Optional[Sequence[float]] = None,
                 priorities: Optional[Sequence[float]] = None,
                 failures: Optional[Iterable[Union[SimFailure, Tuple[float, Union[int, str], float]]]] = None,
                 progress: Optional[Callable[[int, int, float], object]] = None,
                 gpu_share_factor: Optional[float] = None, gpu_share_model: str = "constant",
                 usage_traces: Optional[str] = None) -> None:
        if isinstance(jobs, Trace):
            trace = jobs
            jobs = trace.jobs()
            if priorities is None:
                priorities = trace.priorities()
            if startup_delays is None and not startup_delay:
                startup_delays = trace.startup_delays()
        elif not isinstance(jobs, JobSet):
            jobs = JobSet.of(jobs)
        if runtime not in _RUNTIMES:
            raise InvalidArgumentError("unknown runtime model %r (expected one of %s)"
                                       % (runtime, ", ".join(_RUNTIMES)))
        self.policy = policy
        self._profiles = profiles
        options = _make_options(policy, policy_options)
        more = _sim_options(topology, startup_delay, startup_delays, priorities, failures,
                            gpu_share_factor, gpu_share_model, usage_traces)
        self._sim = _Sim(topology, jobs, policy, seed, interval, _RUNTIMES[runtime], profiles,
                         max_placed, network_load, options, more)
        if progress is not None:
            self._sim.set_progress(progress)

    def run(self) -> SimulationResult:
        """Simulate from an idle state (each call starts over); returns a
        SimulationResult. Raises NotFoundError for an unknown policy."""
        return SimulationResult(self._sim.run(), self.policy)

    def __repr__(self) -> str:
        return "Simulator(policy=%r, %d jobs)" % (self.policy, self._sim.job_count())

# The typing names served the annotations above; they are not placement's API.
del Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union
