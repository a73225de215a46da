"""sa-placement's predictor from Python: policy option model = "lookup"
(default) or "tree" (doc/policies.md sec. 4e), on the hand case of
tests/policy/test_sa_tree.c and in the simulator on sc17-proto."""
import pytest

import placement

SIZES = ("1", "2", "4", "8")


def hand_profiles(mem_mem=200.0):
    """mem and cpu in four sizes: 100 s solo on 1 GPU; on 2 GPUs 60 s on one
    socket, across sockets mem 90 s, cpu 61 s. On 1 GPU each: mem next to
    mem mem_mem s, mem next to cpu 110 s, cpu 100 s next to anything;
    mem-4 next to mem-4 not measured."""
    ps = placement.ProfileSet()
    for t in ("mem", "cpu"):
        for z in SIZES:
            ps.add_solo(t, z, 1, placement.SPREAD_INTRA_SOCKET, 100.0)
            ps.add_solo(t, z, 2, placement.SPREAD_INTRA_SOCKET, 60.0)
            ps.add_solo(t, z, 2, placement.SPREAD_INTER_SOCKET, 61.0 if t == "cpu" else 90.0)
    for t in ("mem", "cpu"):
        for z in SIZES:
            for u in ("mem", "cpu"):
                for w in SIZES:
                    if t == u == "mem" and z == w == "4":
                        continue
                    secs = 100.0 if t == "cpu" else 110.0 if u == "cpu" else mem_mem
                    ps.add_colocated(t, z, 1, u, w, 1, secs)
    return ps


def queue():
    return [placement.Job.data_parallel(n, 1, workload=w, size="4")
            for n, w in (("M1", "mem"), ("M2", "mem"), ("C1", "cpu"), ("C2", "cpu"))]


def sockets(res):
    return [d.gpu_paths[0].split("/")[3] for d in res]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tree_separates_the_bad_pair(seed):
    """The lookup sees M1 next to M2 as x1 (unmeasured) and next to a cpu job
    as x1.1, so it keeps M1, M2 on one socket; the tree learns that mem next
    to mem doubles the time and separates them (each mem job then runs next
    to a cpu job: x1.1)."""
    t = placement.Topology.cluster(placement.Topology.builtin("minsky"), 1)
    ps = hand_profiles()
    lookup = placement.Policy("sa-placement", profiles=ps, seed=seed).place(t, queue())
    explicit = placement.Policy("sa-placement", profiles=ps, seed=seed, model="lookup").place(t, queue())
    assert [d.gpus for d in explicit] == [d.gpus for d in lookup]
    s = sockets(lookup)
    assert s[0] == s[1] and s[2] == s[3]
    assert lookup[0].slowdown == 1.0
    tree = placement.Policy("sa-placement", profiles=ps, seed=seed, model="tree").place(t, queue())
    s = sockets(tree)
    assert s[0] != s[1] and s[2] != s[3]
    assert tree[0].slowdown == pytest.approx(1.1, abs=0.01)


def test_model_in_the_simulator():
    """sc17-proto (doc/policies.md 4e, as `placement simulate --scenario
    sc17-proto --policy sa-placement --sa-model lookup|tree`): the lookup
    leaves the 2-GPU jobs spread (478.66 s), the model packs them (350.90 s)."""
    topo, jobs = placement.scenario("sc17-proto")
    got = {m: placement.Simulator(topo, jobs, policy="sa-placement", policy_options={"model": m}).run()
           for m in ("lookup", "tree")}
    assert got["lookup"].summary.makespan == pytest.approx(478.66, abs=0.01)
    assert got["tree"].summary.makespan == pytest.approx(350.90, abs=0.01)
    default = placement.Simulator(topo, jobs, policy="sa-placement").run()
    assert default.to_csv() == got["lookup"].to_csv()


def test_model_errors():
    t = placement.Topology.cluster(placement.Topology.builtin("minsky"), 1)
    with pytest.raises(placement.InvalidArgumentError, match="'forest'.*lookup or tree") as e:
        placement.Policy("sa-placement", model="forest")
    assert isinstance(e.value, ValueError)
    with pytest.raises(placement.InvalidArgumentError, match="no option 'model'"):
        placement.Policy("two-level", model="tree")
    # gpu-qos has a model of its own (test_gpu_qos_usage.py), with other names
    with pytest.raises(placement.InvalidArgumentError, match="gpu-qos: model 'tree'.*profiles or usage"):
        placement.Policy("gpu-qos", model="tree")
    with pytest.raises(placement.InvalidArgumentError, match="no measured pair"):
        placement.Policy("sa-placement", profiles=placement.ProfileSet(), model="tree").place(t, queue())
    o = placement.policy_options("sa-placement", model="tree")
    with pytest.raises(placement.InvalidArgumentError, match="lookup or tree"):
        o.set_model(None)
