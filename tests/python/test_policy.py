"""Policies from Python on the Minsky builtin (2 sockets, GPUs 0-1 and 2-3
paired by NVLink; a cross-socket GPU pair is 22 away, a paired one 1)."""
import pytest

import placement


@pytest.fixture
def minsky():
    return placement.Topology.builtin("minsky")


def test_two_gpu_job_gets_an_nvlink_pair(minsky):
    job = placement.Job.data_parallel("a", 2, traffic=4, workload="bvlc_alexnet")
    [d] = placement.Policy("topo-aware").place(minsky, [job])
    assert d.placed and d.job == "a"
    assert minsky.distance(*d.gpus) == 1
    assert d.comm_cost == 1
    assert d.machine == minsky.find("machine")
    assert minsky.ancestor(d.gpus[0], placement.VK_PACKAGE) == minsky.ancestor(d.gpus[1], placement.VK_PACKAGE)


def test_four_gpu_job_comm_cost(minsky):
    [d] = placement.Policy("pack").place(minsky, [placement.Job.data_parallel("big", 4)])
    # two NVLink pairs (1 + 1) and four cross-socket pairs (4 * 22)
    assert d.placed and sorted(d.gpus) == sorted(minsky.gpus())
    assert d.comm_cost == 90


def test_queue_waiting_rejected_and_apply(minsky):
    jobs = [placement.Job.data_parallel("a", 2), placement.Job.data_parallel("b", 3),
            placement.Job.data_parallel("huge", 5)]
    res = placement.Policy("topo-aware").place(minsky, jobs)
    assert [d.kind for d in res] == ["placed", "waiting", "rejected"]
    assert res[1].reason and res[1].gpus == []
    # Deciding does not allocate; apply() does.
    assert sum(minsky.free(g) for g in minsky.gpus()) == 4
    res.apply(minsky)
    assert sum(minsky.free(g) for g in minsky.gpus()) == 2
    assert all(minsky.free(g) == 0 for g in res[0].gpus)
    # The next call sees the allocation: the 3-GPU job is still waiting, 2 fit.
    again = placement.Policy("topo-aware").place(minsky, [placement.Job.data_parallel("c", 2)], apply=True)
    assert again[0].placed and not set(again[0].gpus) & set(res[0].gpus)
    assert sum(minsky.free(g) for g in minsky.gpus()) == 0


def test_task_of_several_gpus(minsky):
    # One entry per GPU: the 2-GPU task gets the NVLink pair (entries 0, 1),
    # the 1-GPU task a GPU of the other socket; Eq. 3: 1 + 22 + 22.
    job = placement.Job("pair")
    job.add_task(2)
    job.add_task(1)
    job.add_all_to_all(1)
    [d] = placement.Policy("topo-aware").place(minsky, [job])
    assert d.placed and len(d.gpus) == 3 and len(set(d.gpus)) == 3
    assert minsky.distance(d.gpus[0], d.gpus[1]) == 1
    assert d.comm_cost == 45


def test_spread_uses_both_sockets(minsky):
    [d] = placement.Policy("spread").place(minsky, [placement.Job.data_parallel("s", 2)])
    assert d.placed and minsky.distance(*d.gpus) == 22


def test_every_policy_places_one_gpu(minsky):
    for name in placement.policies():
        [d] = placement.Policy(name).place(minsky, [placement.Job.data_parallel("one", 1)])
        assert d.placed and len(d.gpus) == 1, name


def test_jobs_from_json(data):
    jobs = placement.JobSet.from_json(data("jobs/example.json"))
    assert len(jobs) == 3
    assert [j.name() for j in jobs][:2] == ["alexnet-2gpu", "pipeline"]
    assert jobs[0].task_count() == 2 and jobs[0].workload_type() == "bvlc_alexnet"
    # "traffic": 1 joins every pair, the edge adds 3.5 on top of it
    assert jobs[1].traffic(0, 1) == 4.5 and jobs[1].traffic(0, 2) == 1.0
    assert not jobs[1].single_node()
    assert jobs[-1].total_gpus() == 1


def test_profiles(minsky):
    ps = placement.ProfileSet.builtin()
    assert ps.solo_count() > 0 and ps.colocated_count() > 0
    custom = placement.ProfileSet()
    custom.add_solo("w", "1", 2, placement.SPREAD_INTRA_SOCKET, 10.0)
    custom.add_colocated("w", "1", 2, "w", "1", 2, 15.0)
    assert custom.slowdown("w", "1", 2, "w", "1", 2) == 1.5
    pol = placement.Policy("topo-aware", profiles=custom)
    res = pol.place(minsky, [placement.Job.data_parallel("x", 2, workload="w")])
    del pol, custom
    assert res[0].placed
    res.apply(minsky)


def test_nvme_storage_demand():
    # The Minsky with an NVMe of 2 GB/s attached to the machine and a pool
    # beside it holding one of 3 GB/s: a task asking 1.5 GB/s takes the
    # attached one (its machine's own first), the next one, asking 1 GB/s,
    # finds 0.5 GB/s left there and takes the pool's. Decision.storage names
    # the device per entry; apply() takes the bandwidth.
    gb = 1000000000
    minsky = placement.Topology.cluster(placement.Topology.builtin("minsky"), 1)
    [m] = minsky.machines()
    root = minsky.ancestor(m, placement.VK_CLUSTER)
    att = minsky.add_vertex(placement.VK_STORAGE, m, "nvme0")
    pool = minsky.add_vertex(placement.VK_POOL, root, "pool0")
    far = minsky.add_vertex(placement.VK_STORAGE, pool, "nvme1")
    for v, bw in ((att, 2 * gb), (far, 3 * gb)):
        minsky.set_capacity(v, placement.RES_UNITS, 1)
        minsky.set_capacity(v, placement.RES_BANDWIDTH, bw)
        minsky.set_capacity(v, placement.RES_STORAGE, 100 * gb)
    job = placement.Job("io")
    job.add_task(1, storage_bw=3 * gb // 2, storage_bytes=10 * gb)
    job.add_task(1, storage_bw=gb, storage_bytes=10 * gb)
    job.add_task(0, cores=1)
    job.add_all_to_all(1)
    [d] = placement.Policy("topo-aware").place(minsky, [job], apply=True)
    assert d.placed and list(d.storage) == [att, far, -1]
    assert minsky.free(att, placement.RES_BANDWIDTH) == gb // 2
    assert minsky.free(far, placement.RES_BANDWIDTH) == 2 * gb
    # Without a storage demand there is no storage list.
    [e] = placement.Policy("topo-aware").place(minsky, [placement.Job.data_parallel("plain", 1)])
    assert e.placed and list(e.storage) == []
