"""A kube-scheduler extender that places GPU pods with libplacement (doc/k8s.md).

    python3 -m placement.k8s --listen 0.0.0.0:8888 --cluster CLUSTER.json [--policy topo-aware]
                             [--kube-api in-cluster|URL]

It serves the scheduler extender protocol of k8s.io/kube-scheduler/extender/v1
(JSON over HTTP POST) for pods that ask for whole GPUs (``nvidia.com/gpu``)
or a share of one GPU (the extended resource ``libplacement/gpu-milli``,
thousandths of a GPU, 1..999):

- ``/filter``     ExtenderArgs -> ExtenderFilterResult: the nodes that can
  hold the pod now;
- ``/prioritize`` ExtenderArgs -> HostPriorityList: the policy's predicted
  utility of the pod on each node, 0..10;
- ``/bind``       ExtenderBindingArgs -> ExtenderBindingResult: commits the
  pod on the node (placement.Sched) and records the GPU indices it got;
  with ``--kube-api``, annotates the pod with them and creates its Binding;
- ``/release``    {"podUID": ...} -> {"error": ""}: gives back what a bound
  pod took, once it has finished (the extender watches nothing itself);
- ``GET /pods``, ``GET /pods/UID``, ``GET /nodes``, ``GET /healthz``: what
  is bound where, and what is free.

The cluster is the library's JSON description (doc/topology-json.md); node
names are machine names. One lock serialises every request, so concurrent
calls of kube-scheduler (or of anyone else) see one consistent state.
"""
from __future__ import annotations

import argparse
import collections
import http.server
import json
import logging
import re
import signal
import sys
import threading
from typing import Any, Dict, List, Optional, Tuple

import placement

__all__ = ["Extender", "ExtenderError", "KubeAPI", "PodDemand", "make_server", "main",
           "GPU_RESOURCE", "SHARE_RESOURCE", "GPU_ANNOTATION", "MAX_PRIORITY"]

GPU_RESOURCE = "nvidia.com/gpu"
SHARE_RESOURCE = "libplacement/gpu-milli"
# What a device plugin or the pod's start-up reads to expose the chosen GPUs.
GPU_ANNOTATION = "libplacement/gpu-indices"
MODEL_ANNOTATION = "libplacement/gpu-model"
MAX_PRIORITY = 10                # extenderv1.MaxExtenderPriority
MAX_BODY = 64 << 20              # a NodeList of thousands of nodes fits
# Pods seen by /filter or /prioritize but not bound yet: /bind's arguments
# carry no pod spec, so its demand is looked up here. Bounded, because
# kube-scheduler may never bind a pod it filtered (another node won, the pod
# was deleted).
MAX_PENDING = 10000

log = logging.getLogger("placement.k8s")


class ExtenderError(Exception):
    """A request the extender cannot serve; .status is the HTTP status it
    answers with (400 for a malformed payload, 404 for an unknown pod)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


_WHOLE = re.compile(r"^[0-9]+$")


def _quantity(value: Any, resource: str) -> int:
    """An extended resource's quantity: Kubernetes allows only whole numbers
    for them ("2", or 2 in hand-written JSON)."""
    if isinstance(value, bool):
        raise ExtenderError("%s: quantity %r is not a whole number" % (resource, value))
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and _WHOLE.match(value.strip()):
        return int(value.strip())
    raise ExtenderError("%s: quantity %r is not a whole number" % (resource, value))


def _container_amount(container: Any, resource: str) -> int:
    if not isinstance(container, dict):
        raise ExtenderError("pod: a container is not an object")
    res = container.get("resources") or {}
    if not isinstance(res, dict):
        raise ExtenderError("pod: container resources is not an object")
    # Extended resources must have equal requests and limits when both are
    # given; either says the amount.
    for kind in ("limits", "requests"):
        table = res.get(kind) or {}
        if not isinstance(table, dict):
            raise ExtenderError("pod: container resources.%s is not an object" % kind)
        if resource in table:
            return _quantity(table[resource], resource)
    return 0


def _pod_amount(spec: dict, resource: str) -> int:
    """What the pod asks of resource: the sum over its containers, or the
    largest init container if that is more (Kubernetes' effective request)."""
    containers = spec.get("containers") or []
    inits = spec.get("initContainers") or []
    if not isinstance(containers, list) or not isinstance(inits, list):
        raise ExtenderError("pod: spec.containers and spec.initContainers must be lists")
    total = sum(_container_amount(c, resource) for c in containers)
    return max([total] + [_container_amount(c, resource) for c in inits])


class PodDemand:
    """What one pod asks for: ``gpus`` whole GPUs, or ``milli`` thousandths
    of one GPU (never both), under the pod's UID, namespace and name. Built
    from a v1.Pod object by :meth:`from_pod`."""

    __slots__ = ("uid", "namespace", "name", "gpus", "milli", "model")

    def __init__(self, uid: str, namespace: str, name: str, gpus: int = 0, milli: int = 0,
                 model: Optional[str] = None):
        self.uid = uid
        self.namespace = namespace
        self.name = name
        self.gpus = gpus
        self.milli = milli
        self.model = model

    @classmethod
    def from_pod(cls, pod: Any, share_resource: str = SHARE_RESOURCE) -> "PodDemand":
        """Read a v1.Pod (as JSON). Raises ExtenderError for a pod that is
        not an object, has no metadata.uid, asks for a quantity that is not
        a whole number, for both whole GPUs and a share, or for a share
        outside 1..999."""
        if not isinstance(pod, dict):
            raise ExtenderError("ExtenderArgs: 'pod' is missing or not an object")
        meta = pod.get("metadata") or {}
        spec = pod.get("spec") or {}
        if not isinstance(meta, dict) or not isinstance(spec, dict):
            raise ExtenderError("pod: metadata and spec must be objects")
        uid = meta.get("uid")
        if not isinstance(uid, str) or not uid:
            raise ExtenderError("pod: metadata.uid is missing")
        gpus = _pod_amount(spec, GPU_RESOURCE)
        milli = _pod_amount(spec, share_resource)
        if gpus and milli:
            raise ExtenderError("pod asks for both %s and %s: a pod takes whole GPUs or one share"
                                % (GPU_RESOURCE, share_resource))
        if milli >= 1000:
            raise ExtenderError("%s is %d: a share is 1..999 thousandths of one GPU (ask %s for whole GPUs)"
                                % (share_resource, milli, GPU_RESOURCE))
        annotations = meta.get("annotations") or {}
        model = annotations.get(MODEL_ANNOTATION) if isinstance(annotations, dict) else None
        return cls(uid, str(meta.get("namespace") or "default"), str(meta.get("name") or uid),
                   gpus, milli, model if isinstance(model, str) and model else None)

    @property
    def wants_gpus(self) -> bool:
        """True when the pod asks for whole GPUs or a share."""
        return bool(self.gpus or self.milli)

    def job(self, node: Optional[str] = None) -> placement.Job:
        """The pod as a placement Job (one task per whole GPU, talking
        all-to-all; or one fractional task), restricted to machine `node`."""
        label = "%s/%s" % (self.namespace, self.name)
        if self.milli:
            job = placement.Job(label)
            job.add_task(gpus=0, gpu_milli=self.milli)
        else:
            job = placement.Job.data_parallel(label, self.gpus)
        if self.model:
            job.set_gpu_model(self.model)
        if node is not None:
            job.set_node_filter([node])
        return job

    def describe(self) -> str:
        what = "%d GPU(s)" % self.gpus if self.gpus else "%d milli-GPU" % self.milli
        return "%s/%s (%s)" % (self.namespace, self.name, what)


def _node_names(args: dict) -> Tuple[List[str], Optional[dict]]:
    """Candidate node names of ExtenderArgs, and its NodeList when the
    scheduler sent whole Node objects (nodeCacheCapable: false)."""
    nodes = args.get("nodes")
    if nodes is not None:
        if not isinstance(nodes, dict) or not isinstance(nodes.get("items") or [], list):
            raise ExtenderError("ExtenderArgs: 'nodes' must be a NodeList with an 'items' list")
        names = []
        for item in nodes.get("items") or []:
            name = item.get("metadata", {}).get("name") if isinstance(item, dict) else None
            if not isinstance(name, str):
                raise ExtenderError("ExtenderArgs: a node has no metadata.name")
            names.append(name)
        return names, nodes
    names = args.get("nodenames")
    if names is None:
        return [], None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ExtenderError("ExtenderArgs: 'nodenames' must be a list of strings")
    return list(names), None


class Extender:
    """The extender's state and verbs, without HTTP: a placement.Sched on
    the cluster, the pods bound on it by UID, and the pods seen but not
    bound yet. Every public method takes the one lock, so it may be called
    from many threads.

    cluster: a placement.Topology (copied) whose machines are the nodes.
    policy: the placement policy deciding which GPUs of a node a pod gets
    (placement.policies(); default topo-aware). api: a KubeAPI that /bind
    writes the annotation and the Binding to; None: /bind only records
    (tests, dry runs)."""

    def __init__(self, cluster: placement.Topology, policy: str = "topo-aware",
                 share_resource: str = SHARE_RESOURCE, api: Optional["KubeAPI"] = None):
        self.api = api
        if policy not in placement.policies():
            raise ValueError("unknown policy %r (expected one of %s)"
                             % (policy, ", ".join(placement.policies())))
        self.policy = policy
        self.share_resource = share_resource
        self.sched = placement.Sched(cluster)
        self._lock = threading.Lock()
        self._bound: Dict[str, dict] = {}
        self._pending: "collections.OrderedDict[str, PodDemand]" = collections.OrderedDict()
        topo = self.sched.topology()
        self._machines: Dict[str, int] = {}
        self._gpu_index: Dict[int, int] = {}
        self._gpu_path: Dict[int, str] = {}
        # The machine of every vertex under one: where a decision's hosts are.
        self._machine_of: Dict[int, int] = {}
        for m in topo.descendants(-1, placement.VK_MACHINE):
            name = topo.vertex_name(m)
            if name in self._machines:
                raise ValueError("two machines are named %r: node names must be unique" % name)
            self._machines[name] = m
            self._machine_of.update((v, m) for v in topo.descendants(m))
            for pos, g in enumerate(topo.gpus(m)):
                self._gpu_path[g] = topo.path_name(g)
                # The device index a device plugin knows the GPU by: its
                # os_index where the description gives one.
                os_index = topo.vertex_os_index(g)
                self._gpu_index[g] = os_index if os_index >= 0 else pos

    @classmethod
    def from_json(cls, path: str, policy: str = "topo-aware", share_resource: str = SHARE_RESOURCE,
                  api: Optional["KubeAPI"] = None) -> "Extender":
        """An extender on the cluster of a JSON description (doc/topology-json.md)."""
        return cls(placement.Topology.from_json(str(path)), policy, share_resource, api)

    @property
    def nodes(self) -> List[str]:
        """Node (machine) names, in the description's order."""
        return list(self._machines)

    # -- the verbs ---------------------------------------------------------

    def filter(self, args: Any) -> dict:
        """/filter: ExtenderArgs -> ExtenderFilterResult. Nodes not in the
        cluster description are failedAndUnresolvableNodes (preempting pods
        there would not help), nodes without room failedNodes. A pod the
        extender cannot serve gets an ``error``; a malformed payload raises
        ExtenderError."""
        args = self._args(args)
        names, node_list = _node_names(args)
        try:
            demand = PodDemand.from_pod(args.get("pod"), self.share_resource)
        except ExtenderError as e:
            if not isinstance(args.get("pod"), dict):
                raise
            return {"failedNodes": {}, "failedAndUnresolvableNodes": {}, "error": str(e)}
        passed, failed, unresolvable = [], {}, {}
        with self._lock:
            self._remember(demand)
            for name in names:
                if not demand.wants_gpus:
                    passed.append(name)
                    continue
                why = self._fits(demand, name)
                if why is None:
                    passed.append(name)
                elif name not in self._machines:
                    unresolvable[name] = why
                else:
                    failed[name] = why
        result: Dict[str, Any] = {"failedNodes": failed, "failedAndUnresolvableNodes": unresolvable,
                                  "error": ""}
        if node_list is not None:
            keep = set(passed)
            out = dict(node_list)
            out["items"] = [n for n in node_list.get("items") or [] if n["metadata"]["name"] in keep]
            result["nodes"] = out
        else:
            result["nodenames"] = passed
        return result

    def prioritize(self, args: Any) -> List[dict]:
        """/prioritize: ExtenderArgs -> HostPriorityList. Each node's score
        is the policy's utility of the pod placed there alone,
        round(10 * utility); 0 where it does not fit or for a pod that asks
        no GPU. Raises ExtenderError for a pod it cannot read (the list has
        no error field)."""
        args = self._args(args)
        names, _ = _node_names(args)
        demand = PodDemand.from_pod(args.get("pod"), self.share_resource)
        out = []
        with self._lock:
            self._remember(demand)
            for name in names:
                score = 0
                if demand.wants_gpus and name in self._machines:
                    d, why = self._place(demand, name)
                    if why is None:
                        score = int(MAX_PRIORITY * max(0.0, min(1.0, d.utility(0))) + 0.5)
                out.append({"host": name, "score": score})
        return out

    def bind(self, args: Any) -> dict:
        """/bind: ExtenderBindingArgs -> ExtenderBindingResult. Commits the
        pod (seen earlier by /filter or /prioritize) on the node under its
        UID and records its GPUs; binding a bound pod to the same node again
        is a success that changes nothing."""
        args = self._args(args)
        uid, node = args.get("podUID"), args.get("node")
        if not isinstance(uid, str) or not uid or not isinstance(node, str) or not node:
            raise ExtenderError("ExtenderBindingArgs: 'podUID' and 'node' must be non-empty strings")
        with self._lock:
            rec = self._bound.get(uid)
            if rec is not None:
                if rec["node"] == node:
                    return {"error": ""}
                return {"error": "pod %s is already bound to %s" % (uid, rec["node"])}
            demand = self._pending.get(uid)
            if demand is None:
                return {"error": "pod %s/%s (%s) was not seen by filter or prioritize: its demand is unknown"
                        % (args.get("podNamespace"), args.get("podName"), uid)}
            if node not in self._machines:
                return {"error": "node %s is not in the cluster description" % node}
            if isinstance(args.get("podName"), str):
                demand.name = args["podName"]
            if isinstance(args.get("podNamespace"), str):
                demand.namespace = args["podNamespace"]
            rec = self._commit(demand, node)
            if isinstance(rec, str):
                return {"error": rec}
            del self._pending[uid]
            self._bound[uid] = rec
        if self.api is not None:
            # Network calls outside the lock: the GPUs are already ours, so
            # no other request can take them meanwhile.
            try:
                self.api.bind(rec)
            except Exception as e:
                with self._lock:
                    if self._bound.pop(uid, None) is not None and rec["gpus"]:
                        self.sched.release(uid)
                    self._pending[uid] = demand
                log.warning("binding %s to %s failed: %s", demand.describe(), node, e)
                return {"error": "binding pod %s/%s to %s: %s" % (demand.namespace, demand.name, node, e)}
        log.info("bound %s to %s, GPUs %s", demand.describe(), node,
                 rec["annotations"][GPU_ANNOTATION] or "none")
        return {"error": ""}

    def release(self, args: Any) -> dict:
        """/release: {"podUID": UID} -> {"error": ""}: gives back exactly
        what the pod's bind took. Raises ExtenderError (404) for a UID that
        is not bound."""
        args = self._args(args)
        uid = args.get("podUID")
        if not isinstance(uid, str) or not uid:
            raise ExtenderError("'podUID' must be a non-empty string")
        with self._lock:
            rec = self._bound.pop(uid, None)
            if rec is None:
                raise ExtenderError("no bound pod has UID %s" % uid, 404)
            if rec["gpus"]:
                self.sched.release(uid)
        log.info("released %s/%s from %s", rec["podNamespace"], rec["podName"], rec["node"])
        return {"error": ""}

    # -- queries -----------------------------------------------------------

    def pods(self) -> List[dict]:
        """The bound pods' records, in bind order: podUID, podName,
        podNamespace, node, gpus (device indices), gpuPaths, gpuMilli
        (the share, 0 for whole GPUs) and annotations."""
        with self._lock:
            return [dict(r) for r in self._bound.values()]

    def pod(self, uid: str) -> dict:
        """One bound pod's record; ExtenderError (404) if none has uid."""
        with self._lock:
            rec = self._bound.get(uid)
            if rec is None:
                raise ExtenderError("no bound pod has UID %s" % uid, 404)
            return dict(rec)

    def node_state(self) -> Dict[str, List[dict]]:
        """Per node, its GPUs in order: index, path, free (a whole-GPU pod
        may take it: no unit and no share of it is taken) and milliFree
        (thousandths left for shares)."""
        with self._lock:
            topo = self.sched.topology()
        out = {}
        for name, m in self._machines.items():
            gpus = []
            for g in topo.gpus(m):
                units = topo.amount(g, placement.RES_UNITS)
                milli = topo.amount(g, placement.RES_GPU_MILLI)
                gpus.append({"index": self._gpu_index[g], "path": topo.path_name(g),
                             "free": units[2] > 0 and milli[1] == 0, "milliFree": milli[2]})
            out[name] = gpus
        return out

    # -- internals (called with the lock held) -------------------------------

    @staticmethod
    def _args(args: Any) -> dict:
        if not isinstance(args, dict):
            raise ExtenderError("the request body must be a JSON object")
        return args

    def _remember(self, demand: PodDemand) -> None:
        if demand.uid in self._bound:
            return
        self._pending[demand.uid] = demand
        self._pending.move_to_end(demand.uid)
        while len(self._pending) > MAX_PENDING:
            self._pending.popitem(last=False)

    def _place(self, demand: PodDemand, node: str, job: Optional[placement.Job] = None):
        """The policy's decision for the pod restricted to node: (decisions,
        why not placed there or None)."""
        d = self.sched.place(placement.JobSet.of([job or demand.job(node)]), policy=self.policy)
        if d.kind(0) != placement.DECISION_PLACED:
            return d, d.reason(0) or placement.decision_kind_name(d.kind(0))
        m = self._machines[node]
        # A policy that ignored the node filter would have the pod bound on
        # one node and its GPUs taken on another.
        if any(h >= 0 and self._machine_of.get(h) != m for h in d.hosts(0)):
            return d, "policy %s placed the pod outside node %s (it does not honour node filters)" % (
                self.policy, node)
        return d, None

    def _fits(self, demand: PodDemand, node: str) -> Optional[str]:
        """None if the pod fits on node now, else why not."""
        if node not in self._machines:
            return "not in the cluster description"
        why = self._place(demand, node)[1]
        return None if why is None else "cannot hold %s now: %s" % (demand.describe(), why)

    def _commit(self, demand: PodDemand, node: str):
        """Commit demand on node; the pod's record, or why it failed."""
        gpus: List[int] = []
        if demand.wants_gpus:
            job = demand.job(node)
            d, why = self._place(demand, node, job)
            if why is not None:
                return "node %s cannot hold %s now: %s" % (node, demand.describe(), why)
            try:
                self.sched.commit(demand.uid, job, d, 0)
            except placement.Error as e:
                return "node %s: commit failed: %s" % (node, e)
            gpus = list(self.sched.gpus(demand.uid))
        indices = [self._gpu_index[g] for g in gpus]
        return {"podUID": demand.uid, "podName": demand.name, "podNamespace": demand.namespace,
                "node": node, "gpus": indices, "gpuPaths": [self._gpu_path[g] for g in gpus],
                "gpuMilli": demand.milli,
                "annotations": {GPU_ANNOTATION: ",".join(str(i) for i in indices)}}


class KubeAPI:
    """The two API server calls a binding extender makes: annotate the pod
    with its GPU indices (a JSON merge patch), then create its Binding.
    url: the API server ("https://10.96.0.1:443"); token and ca_file: the
    service account's (KubeAPI.in_cluster() reads them from the pod)."""

    SA = "/var/run/secrets/kubernetes.io/serviceaccount"

    def __init__(self, url: str, token: Optional[str] = None, ca_file: Optional[str] = None,
                 timeout: float = 10.0):
        import ssl
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self._ssl = ssl.create_default_context(cafile=ca_file) if url.startswith("https:") else None

    @classmethod
    def in_cluster(cls) -> "KubeAPI":
        """The API server of the cluster this pod runs in, with its service
        account's token and CA. Raises OSError outside a pod."""
        import os
        host, port = os.environ.get("KUBERNETES_SERVICE_HOST"), os.environ.get("KUBERNETES_SERVICE_PORT")
        if not host or not port:
            raise OSError("KUBERNETES_SERVICE_HOST/PORT are not set: not running in a pod")
        with open(cls.SA + "/token") as f:
            token = f.read().strip()
        host = "[%s]" % host if ":" in host else host
        return cls("https://%s:%s" % (host, port), token, cls.SA + "/ca.crt")

    def _call(self, method: str, path: str, body: dict, content_type: str) -> None:
        import urllib.error
        import urllib.request
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": content_type, "Accept": "application/json"})
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout, context=self._ssl) as r:
                r.read()
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace")
            try:
                detail = json.loads(detail).get("message", detail)
            except (ValueError, AttributeError):
                pass
            raise OSError("%s %s: HTTP %d: %s" % (method, path, e.code, detail)) from None

    def bind(self, record: dict) -> None:
        """Annotate and bind the pod of an Extender record (raises OSError)."""
        ns, name = record["podNamespace"], record["podName"]
        base = "/api/v1/namespaces/%s/pods/%s" % (ns, name)
        self._call("PATCH", base, {"metadata": {"annotations": record["annotations"]}},
                   "application/merge-patch+json")
        self._call("POST", base + "/binding",
                   {"apiVersion": "v1", "kind": "Binding",
                    "metadata": {"name": name, "namespace": ns, "uid": record["podUID"]},
                    "target": {"apiVersion": "v1", "kind": "Node", "name": record["node"]}},
                   "application/json")


class _Handler(http.server.BaseHTTPRequestHandler):
    """HTTP front of an Extender (self.server.extender)."""

    protocol_version = "HTTP/1.1"
    server_version = "placement-k8s/" + placement.__version__

    _POST = {"/filter": "filter", "/prioritize": "prioritize", "/bind": "bind", "/release": "release"}

    def _send(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _route(self, path: str) -> str:
        # urlPrefix may carry a path ("http://host:port/scheduler"): the verb
        # is the last component.
        return "/" + path.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]

    def do_POST(self) -> None:  # noqa: N802  (http.server's name)
        verb = self._POST.get(self._route(self.path))
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            self.close_connection = True
            self._send(413 if length > MAX_BODY else 400,
                       {"error": "Content-Length must be 0..%d" % MAX_BODY})
            return
        raw = self.rfile.read(length)
        if verb is None:
            self._send(404, {"error": "no such verb %s (expected %s)" % (self.path, ", ".join(self._POST))})
            return
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, ValueError) as e:
            self._send(400, {"error": "%s: the body is not JSON: %s" % (verb, e)})
            return
        try:
            self._send(200, getattr(self.server.extender, verb)(body))
        except ExtenderError as e:
            self._send(e.status, {"error": "%s: %s" % (verb, e)})
        except Exception as e:  # a bug must not take the scheduler's extender down
            log.exception("%s failed", verb)
            self._send(500, {"error": "%s: internal error: %s: %s" % (verb, type(e).__name__, e)})

    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?", 1)[0].rstrip("/")
        ext = self.server.extender
        try:
            if path == "/healthz":
                self._send(200, {"status": "ok", "policy": ext.policy, "nodes": len(ext.nodes)})
            elif path == "/pods":
                self._send(200, {"pods": ext.pods()})
            elif path.startswith("/pods/"):
                self._send(200, ext.pod(path[len("/pods/"):]))
            elif path == "/nodes":
                self._send(200, {"nodes": ext.node_state()})
            else:
                self._send(404, {"error": "no such path %s (GET /healthz, /pods, /pods/UID, /nodes)" % path})
        except ExtenderError as e:
            self._send(e.status, {"error": str(e)})

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        log.debug("%s %s", self.address_string(), format % args)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    # Many short requests from one scheduler: reuse the port at once after a restart.
    allow_reuse_address = True
    # socketserver's default backlog of 5 resets connections when a
    # scheduler (or the concurrency test) opens dozens at once.
    request_queue_size = 128

    def __init__(self, address: Tuple[str, int], extender: Extender):
        self.extender = extender
        if ":" in address[0]:
            self.address_family = __import__("socket").AF_INET6
        super().__init__(address, _Handler)


def make_server(extender: Extender, host: str = "127.0.0.1", port: int = 0) -> http.server.ThreadingHTTPServer:
    """A ThreadingHTTPServer serving extender on (host, port); port 0 picks a
    free one (server.server_address[1]). Call serve_forever() to run it and
    shutdown() from another thread to stop it."""
    return _Server((host, port), extender)


def _listen(text: str) -> Tuple[str, int]:
    m = re.match(r"^\[?([^\[\]]*?)\]?:([0-9]+)$", text)
    if not m or int(m.group(2)) > 65535:
        raise argparse.ArgumentTypeError("expected HOST:PORT (e.g. 0.0.0.0:8888, [::]:8888), got %r" % text)
    return m.group(1) or "0.0.0.0", int(m.group(2))


def main(argv: Optional[List[str]] = None) -> int:
    """The command line: python3 -m placement.k8s --listen HOST:PORT
    --cluster CLUSTER.json [--policy NAME] [--share-resource NAME] [-v]."""
    ap = argparse.ArgumentParser(prog="python3 -m placement.k8s",
                                 description="kube-scheduler extender placing GPU pods with libplacement "
                                             "(doc/k8s.md)")
    ap.add_argument("--listen", type=_listen, required=True, metavar="HOST:PORT",
                    help="address to serve on (port 0: any free port, printed at start)")
    ap.add_argument("--cluster", required=True, metavar="CLUSTER.json",
                    help="the cluster as the library's JSON description; node names are machine names")
    ap.add_argument("--policy", default="topo-aware",
                    help="placement policy (default topo-aware; one of placement.policies())")
    ap.add_argument("--share-resource", default=SHARE_RESOURCE, metavar="NAME",
                    help="extended resource of GPU shares in thousandths (default %s)" % SHARE_RESOURCE)
    ap.add_argument("--kube-api", metavar="URL|in-cluster",
                    help="API server that /bind annotates and binds pods on ('in-cluster': this pod's "
                         "service account); without it /bind only records")
    ap.add_argument("-v", "--verbose", action="store_true", help="log every request")
    a = ap.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if a.verbose else logging.INFO,
                        format="placement.k8s: %(message)s", stream=sys.stderr)
    try:
        api = None
        if a.kube_api == "in-cluster":
            api = KubeAPI.in_cluster()
        elif a.kube_api:
            api = KubeAPI(a.kube_api)
        ext = Extender.from_json(a.cluster, a.policy, a.share_resource, api)
    except (ValueError, OSError, placement.Error) as e:
        print("placement.k8s: %s" % e, file=sys.stderr)
        return 2
    try:
        server = make_server(ext, *a.listen)
    except OSError as e:
        print("placement.k8s: cannot listen on %s:%d: %s" % (a.listen[0], a.listen[1], e), file=sys.stderr)
        return 2
    host, port = server.server_address[:2]
    print("placement.k8s: listening on http://%s:%d (policy %s, %d nodes)"
          % (host if ":" not in host else "[%s]" % host, port, ext.policy, len(ext.nodes)),
          file=sys.stderr, flush=True)
    # A Deployment stops the pod with SIGTERM: finish the requests being served.
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
