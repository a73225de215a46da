"""The Kubernetes scheduler extender (placement.k8s, doc/k8s.md) over HTTP:
recorded-shape ExtenderArgs payloads against hand-computed answers, 100
pods bound in sequence, 50 concurrent requests, and the command line.

The cluster of most tests: three Minsky machines (node0..node2; GPUs 0 and 1
share socket 0 and an NVLink pair, 2 and 3 socket 1). node0 is partly used
(GPUs 0 and 2 taken, so its free GPUs 1 and 3 sit on different sockets),
node1 is empty, node2 is full."""
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest

import placement
from placement import k8s

MINSKY = "cluster/rack0/node%d/package%d/gpu%d"
SOURCE = pathlib.Path(__file__).resolve().parents[2]


def minsky_cluster(machines, taken=()):
    """machines Minsky machines named node0..; the GPUs (node, gpu) in
    taken are allocated as background load."""
    c = placement.Topology.cluster(placement.Topology.builtin("minsky"), machines, machines)
    for node, gpu in taken:
        c.alloc(c.find(MINSKY % (node, gpu // 2, gpu)), placement.RES_UNITS, 1)
    return c


PARTLY_USED = [(0, 0), (0, 2), (2, 0), (2, 1), (2, 2), (2, 3)]


class Server:
    """An extender served on 127.0.0.1, an ephemeral port, in a thread."""

    def __init__(self, extender):
        self.extender = extender
        self.httpd = k8s.make_server(extender, "127.0.0.1", 0)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)

    def request(self, method, path, body=None, raw=None):
        """(HTTP status, decoded JSON answer)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def post(self, path, body=None, raw=None):
        return self.request("POST", path, body, raw)

    def get(self, path):
        return self.request("GET", path)


def serve(extender):
    s = Server(extender)
    try:
        yield s
    finally:
        s.stop()  # also when the test failed


@pytest.fixture
def ext():
    """The extender on the partly used three-machine cluster."""
    yield from serve(k8s.Extender(minsky_cluster(3, PARTLY_USED)))


# -- payloads shaped like kube-scheduler's (a v1.Pod, a v1.NodeList) ---------

def pod(name, uid, gpus=None, milli=None, namespace="ml"):
    limits = {"cpu": "2", "memory": "8Gi"}
    if gpus is not None:
        limits["nvidia.com/gpu"] = str(gpus)
    if milli is not None:
        limits["libplacement/gpu-milli"] = str(milli)
    return {
        "kind": "Pod", "apiVersion": "v1",
        "metadata": {"name": name, "namespace": namespace, "uid": uid,
                     "resourceVersion": "48213", "creationTimestamp": "2026-11-30T09:12:44Z",
                     "labels": {"app": "trainer"}, "annotations": {}},
        "spec": {"containers": [{"name": "main", "image": "nvcr.io/nvidia/pytorch:24.01-py3",
                                 "resources": {"limits": limits, "requests": dict(limits)},
                                 "terminationMessagePath": "/dev/termination-log",
                                 "imagePullPolicy": "IfNotPresent"}],
                 "restartPolicy": "Never", "schedulerName": "default-scheduler",
                 "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
                 "priority": 0},
        "status": {"phase": "Pending", "qosClass": "Guaranteed"},
    }


def node(name):
    return {"metadata": {"name": name, "uid": "node-" + name, "labels": {"kubernetes.io/hostname": name}},
            "spec": {},
            "status": {"capacity": {"cpu": "160", "nvidia.com/gpu": "4"},
                       "allocatable": {"cpu": "158", "nvidia.com/gpu": "4"}}}


def node_list(*names):
    return {"kind": "NodeList", "apiVersion": "v1", "metadata": {"resourceVersion": "48213"},
            "items": [node(n) for n in names]}


ALL = ("node0", "node1", "node2", "ghost")


def filter_args(p, names=ALL, cached=False):
    return {"pod": p, "nodenames": list(names)} if cached else {"pod": p, "nodes": node_list(*names)}


def bind_args(p, node_name):
    m = p["metadata"]
    return {"podName": m["name"], "podNamespace": m["namespace"], "podUID": m["uid"], "node": node_name}


# -- filter ------------------------------------------------------------------

@pytest.mark.parametrize("gpus, passed", [
    (1, ["node0", "node1"]),
    (2, ["node0", "node1"]),      # node0: GPUs 1 and 3, across sockets, still two
    (4, ["node1"]),
])
def test_filter_whole_gpus(ext, gpus, passed):
    status, r = ext.post("/filter", filter_args(pod("p", "uid-%d" % gpus, gpus=gpus)))
    assert status == 200 and r["error"] == ""
    assert [n["metadata"]["name"] for n in r["nodes"]["items"]] == passed
    # the Node objects come back whole, as kube-scheduler sent them
    assert r["nodes"]["items"][0] == node(passed[0]) and r["nodes"]["kind"] == "NodeList"
    assert set(r["failedNodes"]) == {"node0", "node1", "node2"} - set(passed)
    assert "%d GPU(s)" % gpus in r["failedNodes"]["node2"]
    assert r["failedAndUnresolvableNodes"] == {"ghost": "not in the cluster description"}


@pytest.mark.parametrize("milli", [250, 500])
def test_filter_shares_by_name(ext, milli):
    status, r = ext.post("/filter", filter_args(pod("s", "share-%d" % milli, milli=milli), cached=True))
    assert status == 200 and r["error"] == ""
    assert r["nodenames"] == ["node0", "node1"] and "nodes" not in r
    assert list(r["failedNodes"]) == ["node2"]


def test_filter_pod_without_gpus_passes_every_node(ext):
    status, r = ext.post("/filter", filter_args(pod("web", "uid-web"), cached=True))
    assert (status, r["nodenames"], r["failedNodes"]) == (200, list(ALL), {})


# -- prioritize ----------------------------------------------------------------

@pytest.mark.parametrize("kind, scores", [
    # topo-aware's utility in the default (paper) form, doc/interference.md
    # sec. 5: U = 1 - (t / t_w + (I - 1) / (I_w - 1) + omega / omega_w) / 3,
    # no profiled neighbours here (I = 1). One GPU: node0's last but one
    # (omega after = (0/2 + 1/2) / 2 = 0.25): 1 - 0.25/3 = 0.92 -> 9; empty
    # node1 (omega after 0.75): 0.75 -> 8.
    ({"gpus": 1}, [9, 8, 0, 0]),
    # node0's two GPUs are across the X-Bus (t = 22 of the worst 22, omega
    # after 0): 2/3 -> 7; node1's NVLink pair: t = 1 of 22, omega after 0.5:
    # 1 - (1/22 + 0.5) / 3 = 0.82 -> 8.
    ({"gpus": 2}, [7, 8, 0, 0]),
    # All of node1: t = 90 = its worst, omega after 0: 2/3 -> 7.
    ({"gpus": 4}, [0, 7, 0, 0]),
    ({"milli": 250}, [10, 10, 0, 0]),
    ({"milli": 500}, [10, 10, 0, 0]),
])
def test_prioritize(ext, kind, scores):
    status, r = ext.post("/prioritize", filter_args(pod("p", "uid-p", **kind)))
    assert status == 200
    assert r == [{"host": h, "score": s} for h, s in zip(ALL, scores)]


def test_prioritize_matches_sched_score(ext):
    """The scaled score is Sched.score's utility (topo-aware)."""
    s = placement.Sched(minsky_cluster(3, PARTLY_USED))
    t = s.topology()
    util = s.score(placement.Job.data_parallel("x", 2), [t.find("cluster/rack0/node0")])[0]
    assert util == pytest.approx(2 / 3)
    _, r = ext.post("/prioritize", filter_args(pod("p", "uid-x", gpus=2), names=["node0"]))
    assert r == [{"host": "node0", "score": round(10 * util)}]


# -- bind, records, release ----------------------------------------------------

def test_bind_records_gpus(ext):
    a = pod("a", "uid-a", gpus=2)
    b = pod("b", "uid-b", gpus=2)
    for p in (a, b):
        assert ext.post("/filter", filter_args(p))[0] == 200
    assert ext.post("/bind", bind_args(a, "node1")) == (200, {"error": ""})
    status, rec = ext.get("/pods/uid-a")
    assert status == 200
    # topo-aware takes node1's first NVLink pair
    assert rec == {"podUID": "uid-a", "podName": "a", "podNamespace": "ml", "node": "node1",
                   "gpus": [0, 1], "gpuPaths": [MINSKY % (1, 0, 0), MINSKY % (1, 0, 1)],
                   "gpuMilli": 0, "annotations": {"libplacement/gpu-indices": "0,1"}}
    assert ext.post("/bind", bind_args(b, "node0")) == (200, {"error": ""})
    assert ext.get("/pods/uid-b")[1]["gpus"] == [1, 3]
    # binding again to the same node changes nothing; to another is refused
    assert ext.post("/bind", bind_args(a, "node1")) == (200, {"error": ""})
    assert ext.post("/bind", bind_args(a, "node0"))[1]["error"] == "pod uid-a is already bound to node1"
    assert [p["podUID"] for p in ext.get("/pods")[1]["pods"]] == ["uid-a", "uid-b"]
    # node0 is full now: a share no longer fits there
    s = pod("s", "uid-s", milli=500)
    _, r = ext.post("/filter", filter_args(s))
    assert [n["metadata"]["name"] for n in r["nodes"]["items"]] == ["node1"]
    err = ext.post("/bind", bind_args(s, "node0"))[1]["error"]
    assert err.startswith("node node0 cannot hold ml/s (500 milli-GPU) now")
    # a pod never filtered, a node not described
    assert "was not seen by filter or prioritize" in ext.post("/bind", bind_args(pod("z", "uid-z"), "node1"))[1]["error"]
    assert ext.post("/bind", bind_args(s, "ghost"))[1]["error"] == "node ghost is not in the cluster description"
    t = ext.extender.sched.topology()
    assert [t.amount(t.find(MINSKY % (1, g // 2, g)), placement.RES_UNITS)[2] for g in range(4)] == [0, 0, 1, 1]


def test_shares_best_fit_and_release(ext):
    """Shares go to the GPU with the least milli left that holds them (on
    node1: GPU 0 until it is full, then GPU 1), and never to a GPU a
    whole-GPU pod holds."""
    whole = pod("w", "uid-w", gpus=1)
    ext.post("/filter", filter_args(whole))
    assert ext.post("/bind", bind_args(whole, "node1"))[1]["error"] == ""
    assert ext.get("/pods/uid-w")[1]["gpus"] == [0]
    expected = [(250, 1), (500, 1), (250, 1), (250, 2), (500, 2)]
    for i, (milli, gpu) in enumerate(expected):
        p = pod("s%d" % i, "uid-s%d" % i, milli=milli)
        ext.post("/prioritize", filter_args(p, names=["node1"]))
        assert ext.post("/bind", bind_args(p, "node1"))[1]["error"] == ""
        rec = ext.get("/pods/uid-s%d" % i)[1]
        assert (rec["gpus"], rec["gpuMilli"], rec["annotations"]) == ([gpu], milli, {"libplacement/gpu-indices": str(gpu)})
    state = ext.get("/nodes")[1]["nodes"]["node1"]
    assert [(g["index"], g["free"], g["milliFree"]) for g in state] == [
        (0, False, 0), (1, False, 0), (2, False, 250), (3, True, 1000)]
    assert ext.post("/release", {"podUID": "uid-s1"}) == (200, {"error": ""})
    assert ext.post("/release", {"podUID": "uid-w"}) == (200, {"error": ""})
    state = ext.get("/nodes")[1]["nodes"]["node1"]
    assert [(g["free"], g["milliFree"]) for g in state] == [(True, 1000), (False, 500), (False, 250), (True, 1000)]
    status, r = ext.post("/release", {"podUID": "uid-w"})
    assert (status, r["error"]) == (404, "release: no bound pod has UID uid-w")
    assert ext.get("/pods/uid-w")[0] == 404
    assert sorted(p["podUID"] for p in ext.get("/pods")[1]["pods"]) == ["uid-s0", "uid-s2", "uid-s3", "uid-s4"]


# -- bad requests ----------------------------------------------------------------

def test_bad_payloads_are_answered_not_crashed(ext):
    bad_json = ext.post("/filter", raw=b"{not json")
    assert bad_json[0] == 400 and bad_json[1]["error"].startswith("filter: the body is not JSON")
    assert ext.post("/filter", [1, 2]) == (400, {"error": "filter: the request body must be a JSON object"})
    assert ext.post("/prioritize", {"nodenames": ["node0"]}) == (
        400, {"error": "prioritize: ExtenderArgs: 'pod' is missing or not an object"})
    assert ext.post("/filter", {"pod": pod("p", "u"), "nodenames": "node0"})[0] == 400
    assert ext.post("/bind", {"podUID": 7})[0] == 400
    assert ext.post("/release", {})[0] == 400
    assert ext.post("/evict", {})[0] == 404
    assert ext.get("/metrics")[0] == 404
    # a pod the extender cannot serve: an error in the filter result
    half = pod("h", "uid-h")
    half["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] = "0.5"
    status, r = ext.post("/filter", filter_args(half))
    assert status == 200 and r["error"] == "nvidia.com/gpu: quantity '0.5' is not a whole number"
    assert ext.post("/prioritize", filter_args(half))[0] == 400
    both = pod("b", "uid-b", gpus=1, milli=500)
    assert "both nvidia.com/gpu and libplacement/gpu-milli" in ext.post("/filter", filter_args(both))[1]["error"]
    whole_share = pod("t", "uid-t", milli=1000)
    assert "1..999" in ext.post("/filter", filter_args(whole_share))[1]["error"]
    no_uid = pod("n", "")
    assert ext.post("/filter", filter_args(no_uid))[1]["error"] == "pod: metadata.uid is missing"
    assert ext.get("/healthz") == (200, {"status": "ok", "policy": "topo-aware", "nodes": 3})


# -- 100 pods in sequence -----------------------------------------------------------

def check_consistent(extender, records):
    """No whole GPU shared, no shared GPU over 1000 milli, by the extender's
    records; and the Sched's live topology holds exactly what they say."""
    whole, shares = {}, {}
    for r in records:
        for g in r["gpus"]:
            key = (r["node"], g)
            if r["gpuMilli"]:
                shares[key] = shares.get(key, 0) + r["gpuMilli"]
            else:
                assert key not in whole, "GPU %s given to %s and %s" % (key, whole[key], r["podUID"])
                whole[key] = r["podUID"]
    assert not set(whole) & set(shares), "a whole GPU also holds shares"
    assert all(m <= 1000 for m in shares.values()), shares
    t = extender.sched.topology()
    for name in extender.nodes:
        m = t.find("cluster/rack0/" + name)
        for idx, g in enumerate(t.gpus(m)):
            units = t.amount(g, placement.RES_UNITS)[1]
            milli = t.amount(g, placement.RES_GPU_MILLI)[1]
            assert units == (1 if (name, idx) in whole else 0), (name, idx)
            assert milli == (1000 if (name, idx) in whole else shares.get((name, idx), 0)), (name, idx)


def test_100_pods_in_sequence():
    """kube-scheduler's cycle for 100 pods on an empty 4-machine cluster:
    filter, prioritize, bind to the best node; when nothing fits, the
    oldest bound pod finishes and is released."""
    server = Server(k8s.Extender(minsky_cluster(4)))
    try:
        rng = random.Random(21)
        nodes = ["node0", "node1", "node2", "node3"]
        bound, released = [], 0
        for i in range(100):
            kind = rng.choice([{"gpus": 1}, {"gpus": 2}, {"gpus": 4}, {"milli": 250}, {"milli": 500},
                               {"milli": 400}])
            p = pod("p%d" % i, "uid-%03d" % i, **kind)
            while True:
                status, r = server.post("/filter", filter_args(p, names=nodes, cached=True))
                assert status == 200 and r["error"] == ""
                if r["nodenames"]:
                    break
                assert server.post("/release", {"podUID": bound.pop(0)}) == (200, {"error": ""})
                released += 1
            _, scores = server.post("/prioritize", filter_args(p, names=r["nodenames"], cached=True))
            best = max(scores, key=lambda s: s["score"])["host"]
            assert server.post("/bind", bind_args(p, best)) == (200, {"error": ""})
            bound.append(p["metadata"]["uid"])
            records = server.get("/pods")[1]["pods"]
            assert [x["podUID"] for x in records] == bound
            rec = records[-1]
            assert len(rec["gpus"]) == kind.get("gpus", 1) and rec["gpuMilli"] == kind.get("milli", 0)
            check_consistent(server.extender, records)
        assert released > 0 and len(bound) + released == 100
        for uid in bound:
            server.post("/release", {"podUID": uid})
        t = server.extender.sched.topology()
        assert all(t.amount(g, placement.RES_GPU_MILLI)[1] == 0 for g in t.gpus())
    finally:
        server.stop()


# -- 50 requests at once -----------------------------------------------------------------

def test_50_concurrent_requests():
    """40 one-GPU pods bound at once to 4 machines of 4 GPUs (10 per
    machine), beside 10 filter/prioritize/list calls: exactly 16 binds
    succeed, 4 per machine, and no GPU is given twice. Three rounds (all
    released in between): a race shows in some rounds only."""
    server = Server(k8s.Extender(minsky_cluster(4)))
    # Switch threads as often as possible, so that a request may be cut off
    # anywhere, not only where the default 5 ms interval happens to fall.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for rnd in range(3):
            burst(server, rnd)
            for rec in server.get("/pods")[1]["pods"]:
                assert server.post("/release", {"podUID": rec["podUID"]}) == (200, {"error": ""})
    finally:
        sys.setswitchinterval(interval)
        server.stop()


def burst(server, rnd):
    nodes = ["node0", "node1", "node2", "node3"]
    pods = [pod("c%d" % i, "uid-%d-%02d" % (rnd, i), gpus=1) for i in range(40)]
    for p in pods:
        assert server.post("/filter", filter_args(p, names=nodes, cached=True))[0] == 200
    calls = [("POST", "/bind", bind_args(p, nodes[i % 4])) for i, p in enumerate(pods)]
    probe = pod("probe", "uid-probe", gpus=2)
    calls += [("POST", "/filter", filter_args(probe))] * 4
    calls += [("POST", "/prioritize", filter_args(probe))] * 4
    calls += [("GET", "/pods", None)] * 2
    assert len(calls) == 50
    answers = [None] * 50
    start = threading.Barrier(50)

    def call(k):
        start.wait()
        answers[k] = server.request(*calls[k])

    threads = [threading.Thread(target=call, args=(k,)) for k in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert all(a is not None and a[0] == 200 for a in answers), answers
    binds = answers[:40]
    ok = [i for i, a in enumerate(binds) if a[1] == {"error": ""}]
    assert len(ok) == 16
    for i, a in enumerate(binds):
        if i not in ok:
            assert re.match(r"node node[0-3] cannot hold ml/c\d+ \(1 GPU\(s\)\) now", a[1]["error"]), a
    for a in answers[40:44]:
        assert set(a[1]) >= {"nodes", "failedNodes", "failedAndUnresolvableNodes", "error"}
    for a in answers[44:48]:
        assert [h["host"] for h in a[1]] == list(ALL) and all(0 <= h["score"] <= 10 for h in a[1])
    for a in answers[48:]:
        assert isinstance(a[1]["pods"], list)
    records = server.get("/pods")[1]["pods"]
    assert sorted(r["podUID"] for r in records) == sorted("uid-%d-%02d" % (rnd, i) for i in ok)
    assert sorted(sum(1 for r in records if r["node"] == n) for n in nodes) == [4, 4, 4, 4]
    check_consistent(server.extender, records)


# -- the command line and the shipped example ------------------------------------------

def test_command_line(tmp_path):
    cluster = tmp_path / "cluster.json"
    cluster.write_text(json.dumps({"name": "cluster", "templates": {"minsky": {"builtin": "minsky"}},
                                   "racks": [{"machines": [{"template": "minsky", "count": 2}]}]}))
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-m", "placement.k8s", "--listen", "127.0.0.1:0",
                             "--cluster", str(cluster), "--policy", "fcfs"],
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stderr.readline()
        m = re.match(r"placement\.k8s: listening on http://127\.0\.0\.1:(\d+) \(policy fcfs, 2 nodes\)$", line.strip())
        assert m, line
        url = "http://127.0.0.1:%s" % m.group(1)
        with urllib.request.urlopen(url + "/healthz", timeout=30) as r:
            assert json.loads(r.read()) == {"status": "ok", "policy": "fcfs", "nodes": 2}
        req = urllib.request.Request(url + "/filter", method="POST",
                                     data=json.dumps(filter_args(pod("p", "u", gpus=4), ["node0", "node1"], True)).encode())
        with urllib.request.urlopen(req, timeout=30) as r:
            assert json.loads(r.read())["nodenames"] == ["node0", "node1"]
        proc.terminate()  # SIGTERM: a clean stop
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    bad = subprocess.run([sys.executable, "-m", "placement.k8s", "--listen", "127.0.0.1:0",
                          "--cluster", str(tmp_path / "missing.json")], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "missing.json" in bad.stderr
    bad = subprocess.run([sys.executable, "-m", "placement.k8s", "--listen", "8888", "--cluster", str(cluster)],
                         capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "expected HOST:PORT" in bad.stderr
    bad = subprocess.run([sys.executable, "-m", "placement.k8s", "--listen", "127.0.0.1:0", "--cluster", str(cluster),
                          "--policy", "nope"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "unknown policy 'nope'" in bad.stderr


def test_examples_match_the_extender():
    """examples/k8s: the scheduler configuration names the extender's verbs
    and both resources, and the ConfigMap's cluster loads."""
    conf = (SOURCE / "examples/k8s/scheduler-config.yaml").read_text()
    for line in ('filterVerb: filter', 'prioritizeVerb: prioritize', 'bindVerb: bind', 'ignorable: false',
                 '- name: ' + k8s.GPU_RESOURCE, '- name: ' + k8s.SHARE_RESOURCE):
        assert re.search(r"^\s*" + re.escape(line) + r"\s*$", conf, re.M), line
    deploy = (SOURCE / "examples/k8s/extender.yaml").read_text()
    m = re.search(r"^  cluster\.json: \|\n((?:    .*\n)+)", deploy, re.M)
    assert m, "no cluster.json in the ConfigMap"
    text = "".join(line[4:] + "\n" for line in m.group(1).splitlines())
    topo = placement.Topology.from_json_string(text)
    ext = k8s.Extender(topo)
    assert ext.nodes == ["gpu-node-0", "gpu-node-1", "gpu-node-2", "gpu-node-3"]
    assert "python3 -m placement.k8s" in " ".join(deploy.split()) or '"placement.k8s"' in deploy


# -- binding through an API server ---------------------------------------------

class FakeAPIServer:
    """Records the API calls /bind makes; answers `status` to the binding."""

    def __init__(self, binding_status=201):
        import http.server
        calls = self.calls = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                calls.append((self.command, self.path, self.headers["Content-Type"], body))
                status = binding_status if self.path.endswith("/binding") else 200
                data = json.dumps({"kind": "Status", "message": "pods \"x\" already bound"}
                                  if status >= 400 else {}).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_PATCH = do_POST = _answer

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("binding_status", [201, 409])
def test_bind_through_api_server(binding_status):
    api = FakeAPIServer(binding_status)
    extender = k8s.Extender(minsky_cluster(2), api=k8s.KubeAPI(api.url))
    server = Server(extender)
    try:
        p = pod("train", "uid-t", gpus=2)
        server.post("/filter", filter_args(p, names=["node0", "node1"], cached=True))
        _, r = server.post("/bind", bind_args(p, "node1"))
        base = "/api/v1/namespaces/ml/pods/train"
        assert api.calls[0] == ("PATCH", base, "application/merge-patch+json",
                                {"metadata": {"annotations": {"libplacement/gpu-indices": "0,1"}}})
        assert api.calls[1] == ("POST", base + "/binding", "application/json",
                                {"apiVersion": "v1", "kind": "Binding",
                                 "metadata": {"name": "train", "namespace": "ml", "uid": "uid-t"},
                                 "target": {"apiVersion": "v1", "kind": "Node", "name": "node1"}})
        if binding_status == 201:
            assert r == {"error": ""} and extender.sched.job_count() == 1
        else:
            # refused: nothing stays committed, and the pod may be bound again
            assert r["error"] == ("binding pod ml/train to node1: POST %s/binding: HTTP 409: "
                                  'pods "x" already bound' % base)
            assert extender.sched.job_count() == 0 and server.get("/pods")[1]["pods"] == []
            api.calls.clear()
            server.post("/bind", bind_args(p, "node0"))
            assert [c[1] for c in api.calls] == [base, base + "/binding"]
    finally:
        server.stop()
        api.stop()


def test_type_stub_covers_the_public_api():
    """placement/__init__.pyi (installed with py.typed) names every public
    class, function and constant of the package, and parses."""
    import ast
    pkg = pathlib.Path(placement.__file__).parent
    assert (pkg / "py.typed").exists()
    tree = ast.parse((pkg / "__init__.pyi").read_text())
    stubbed = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            stubbed.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            stubbed.add(node.target.id)
    import types
    public = {n for n in dir(placement)
              if not n.startswith("_") and not isinstance(getattr(placement, n), types.ModuleType)}
    public.add("__version__")
    assert sorted(public - stubbed) == []
