"""The allocation lifecycle from Python (placement.Sched, placement/sched.h):
place (a what-if), commit, release, score, checked against the free GPUs of
a two-Minsky cluster."""
import pytest

import placement


def cluster(machines=2):
    return placement.Topology.cluster(placement.Topology.builtin("minsky"), machines, machines)


def free_gpus(sched, path):
    """Free GPU units under path, from a copy of the live topology."""
    t = sched.topology()
    return sum(t.amount(g, placement.RES_UNITS)[2] for g in t.gpus(t.find(path)))


def test_place_commit_release():
    s = placement.Sched(cluster())
    job = placement.Job.data_parallel("pair", 2)
    jobs = placement.JobSet.of([job])
    d = s.place(jobs, policy="topo-aware")
    assert s.job_count() == 0                     # a what-if
    s.commit("job-1", job, d, 0)
    assert s.job_count() == 1 and s.id_at(0) == "job-1"
    gpus = s.gpus("job-1")
    assert len(gpus) == 2
    left = free_gpus(s, "cluster/rack0/node0") + free_gpus(s, "cluster/rack0/node1")
    assert left == 6
    with pytest.raises(placement.InvalidArgumentError, match="already committed"):
        s.commit("job-1", job, d, 0)
    s.release("job-1")
    assert s.job_count() == 0
    assert free_gpus(s, "cluster/rack0/node0") + free_gpus(s, "cluster/rack0/node1") == 8
    with pytest.raises(placement.NotFoundError, match='no job "job-1"'):
        s.release("job-1")


def test_commit_gpus_and_score():
    c = cluster()
    s = placement.Sched(c)
    t = s.topology()
    g0 = t.find("cluster/rack0/node0/package0/gpu0")
    g2 = t.find("cluster/rack0/node0/package1/gpu2")
    one = placement.Job.data_parallel("one", 1)
    s.commit_gpus("a", one, [g0])
    s.commit_gpus("b", one, [g2])
    with pytest.raises(placement.InvalidArgumentError, match="does not fit"):
        s.commit_gpus("c", one, [g0])
    with pytest.raises(placement.InvalidArgumentError, match="not a vertex id"):
        s.commit_gpus("c", one, [1.5])
    m = [t.find("cluster/rack0/node0"), t.find("cluster/rack0/node1")]
    two = placement.Job.data_parallel("two", 2)
    score = s.score(two, m)
    # node0's two free GPUs are on different sockets, node1 has an NVLink pair
    assert 0 <= score[0] < score[1] <= 1
    assert s.score(placement.Job.data_parallel("five", 5), m) == [-1.0, -1.0]
    assert sorted(s.id_at(k) for k in range(s.job_count())) == ["a", "b"]


def test_every_policy_through_the_lifecycle():
    """A queue of 1- to 4-GPU jobs with every policy: commit what is placed,
    release all, and the cluster is as it was."""
    for name in placement.policies():
        s = placement.Sched(cluster())
        jobs = [placement.Job.data_parallel("j%d" % i, 1 + i % 4) for i in range(6)]
        d = s.place(placement.JobSet.of(jobs), policy=name)
        ids = []
        for i, job in enumerate(jobs):
            if d.kind(i) == placement.DECISION_PLACED:
                s.commit("id%d" % i, job, d, i)
                ids.append("id%d" % i)
        assert ids, name
        for i in ids:
            s.release(i)
        assert free_gpus(s, "cluster/rack0/node0") + free_gpus(s, "cluster/rack0/node1") == 8, name


def test_demands_cpu_fractional_model():
    """A CPU-only task takes no GPU (its host is a package), two 500-milli
    tasks share one GPU, a GPU model steers the job (placement/job.h)."""
    t = placement.Topology.builtin("minsky")
    s = placement.Sched(t)
    job = placement.Job("mixed")
    job.add_task(gpus=1, cores=2)
    job.add_task(gpus=0, cores=3, memory=1 << 30)
    job.add_edge(0, 1, 5.0)
    assert job.task_demand(1) == [0, 3, 1 << 30, 0, 0, 0, 0]
    d = s.place(placement.JobSet.of([job]), policy="topo-aware")
    live = s.topology()
    assert d.gpus(0) == [live.find("machine/package0/gpu0"), -1]
    assert d.hosts(0) == [live.find("machine/package0/gpu0"), live.find("machine/package0")]
    s.commit("mixed", job, d, 0)
    assert s.hosts("mixed")[1] == live.find("machine/package0")
    s.release("mixed")
    halves = [placement.Job("h%d" % i) for i in range(3)]
    for h in halves:
        h.add_task(gpu_milli=500, cpu_milli=500)
        assert h.task_demand(0)[5:] == [500, 500]
    p = placement.Policy("topo-aware").place(t, halves)
    assert [x.gpus for x in p] == [[t.find("machine/package0/gpu0")]] * 2 + [[t.find("machine/package0/gpu1")]]
    k80 = placement.Job.data_parallel("k80", 1)
    k80.set_gpu_model("K80")
    assert k80.gpu_model() == "K80"
    r = placement.Policy("fcfs").place(t, [k80])[0]
    assert r.kind == "rejected" and "model K80" in r.reason


def test_idle_rounds_follow_the_policy():
    """The Sched keeps an instance of the policy last placed with: DRMaestro
    asks to be called every interval (max_postpone + 1 = 11 idle rounds),
    topo-aware only after a change."""
    s = placement.Sched(cluster())
    jobs = placement.JobSet.of([placement.Job.data_parallel("one", 1)])
    assert s.idle_rounds() == 0
    s.place(jobs, policy="drmaestro-na")
    assert s.idle_rounds() == 11
    s.place(jobs, policy="topo-aware")
    assert s.idle_rounds() == 0


def test_device_down():
    """A GPU marked down is not placed on until marked up; it cannot go down
    while a job holds it."""
    s = placement.Sched(cluster(1))
    t = s.topology()
    g0 = t.find("cluster/rack0/node0/package0/gpu0")
    one = placement.Job.data_parallel("one", 1)
    s.commit_gpus("a", one, [g0])
    with pytest.raises(placement.InvalidArgumentError, match='held by job "a"'):
        s.device_down(g0)
    s.release("a")
    s.device_down(g0)
    assert free_gpus(s, "cluster/rack0/node0") == 3
    with pytest.raises(placement.InvalidArgumentError, match="already down"):
        s.device_down(g0, True)
    d = s.place(placement.JobSet.of([placement.Job.data_parallel("four", 4)]), policy="topo-aware")
    assert d.kind(0) != placement.DECISION_PLACED
    s.device_down(g0, False)
    assert free_gpus(s, "cluster/rack0/node0") == 4
