--[[
job_submit/lua hook that places GPU jobs with libplacement (doc/slurm.md).

slurmctld calls slurm_job_submit(job_desc, part_list, submit_uid) for every
job. For a job asking for GPUs (--gres=gpu:N, --gpus=N, --gpus-per-node=N)
this hook

  1. rebuilds the cluster's live state from slurmctld's own job records
     (slurm.jobs: every running job's node and GPU indices, every pending
     job this hook pinned), so finished jobs free their GPUs by themselves;
  2. asks the policy (default topo-aware-p) where the job goes: now, or, when
     nothing fits now or only below its minimal utility, on the GPUs that
     will fit it first as the known jobs end (their time limits);
  3. pins the job there: job_desc.req_nodes = the node, and the request
     rewritten to the chosen GPUs by their per-GPU types (gres.conf from
     `placement slurm-conf` gives GPU K of a node Type=idxK), so cons_tres
     can only give it those GPUs and `scontrol show job -d` shows the same
     IDX; the decision is recorded in job_desc.admin_comment.

A request that no node can ever hold is refused with a message; a job that
asks to be held (comment postponed=hold) when only a placement below its
minimal utility is free now is pinned to the GPUs it would wait for and held
(priority 0, the reason in admin_comment) until `scontrol release`; CPU-only jobs and jobs naming a GPU type or nodes
themselves pass through untouched. If the module or the cluster cannot be
loaded, every job passes through and slurmctld logs why: this hook never
stops the controller.

Per-job options, in --comment (space or comma separated):
  min_utility=U   postpone rather than place below utility U in [0, 1]
  comm=no         the job's GPUs do not talk to each other
  postponed=hold  below min_utility now: held (on the GPUs it would wait for)

Run outside slurmctld (a stub `slurm`, a sample cluster) it places a few jobs:
  LUA_CPATH='build/bindings/lua/lua51/?.so' PLACEMENT_CLUSTER=tests/data/... lua5.1 examples/slurm/job_submit.lua
]]

-- Site configuration. The environment of slurmctld overrides each entry.
local config = {
  cluster = os.getenv("PLACEMENT_CLUSTER") or "/etc/slurm/cluster.json", -- same JSON as slurm-conf
  policy = os.getenv("PLACEMENT_POLICY") or "topo-aware-p",
  module_path = os.getenv("PLACEMENT_LUA_CPATH"),  -- e.g. "/usr/local/lib/lua/5.1/?.so"
  min_utility = tonumber(os.getenv("PLACEMENT_MIN_UTILITY") or "0"),
  postponed = "wait",          -- "wait": pin to later, better GPUs; "hold": priority 0
  max_horizons = 64,           -- future instants looked at when nothing fits now
  default_limit_min = 60,      -- assumed run time of a job without a time limit
}

local standalone = (slurm == nil)
if standalone then
  slurm = { SUCCESS = 0, ERROR = -1, jobs = {} }
  function slurm.log_info(fmt, ...) print("info: " .. string.format(fmt, ...)) end
  function slurm.log_error(fmt, ...) print("error: " .. string.format(fmt, ...)) end
  function slurm.log_user(fmt, ...) print("user: " .. string.format(fmt, ...)) end
end
local ESLURM_INVALID_GRES = slurm.ESLURM_INVALID_GRES or 2072 -- nil in Slurm 22.05's Lua
local NO_VAL, INFINITE = 4294967294, 4294967295
local JOB_PENDING, JOB_RUNNING, JOB_SUSPENDED, JOB_COMPLETING = 0, 1, 2, 32768

if config.module_path then package.cpath = config.module_path .. ";" .. package.cpath end

-- A failure to load must not take slurmctld down: log it, let jobs through.
local P, cluster, broken
do
  local ok, mod = pcall(require, "placement")
  if not ok then
    broken = "cannot load the placement module: " .. tostring(mod)
  else
    P = mod
    local ok2, t = pcall(P.Topology.from_json, config.cluster)
    if ok2 then cluster = t else broken = "cannot load " .. config.cluster .. ": " .. tostring(t) end
  end
  if broken then slurm.log_error("placement hook: %s; every job passes through unplaced", broken) end
end

-- Machines by name; their GPUs in Slurm's order (os_index, as slurm-conf
-- writes them), so position k of a machine's list is Slurm's IDX k.
local machines, machine_of_gpu = {}, {}
if cluster then
  for _, m in ipairs(cluster:machines()) do
    local gpus = cluster:descendants(m, P.VK_GPU)
    table.sort(gpus, function(a, b)
      local oa, ob = cluster:vertex_os_index(a), cluster:vertex_os_index(b)
      if oa ~= ob then return oa < ob end
      return a < b
    end)
    machines[cluster:vertex_name(m)] = { vertex = m, gpus = gpus }
    for k, g in ipairs(gpus) do machine_of_gpu[g] = { name = cluster:vertex_name(m), idx = k - 1 } end
  end
end

local function log(fmt, ...) slurm.log_info("placement hook: " .. fmt, ...) end

-- GPUs per node in a tres string ("gres:gpu:2", "gres/gpu:tesla:2", "gpu");
-- typed is true when the request names a GPU type.
local function gpu_request(spec)
  if spec == nil or spec == "" then return nil end
  for item in string.gmatch(spec, "[^,]+") do
    local rest = item:gsub("^gres[:/]", "")
    if rest == "gpu" or rest:match("^gpu:") then
      local parts = {}
      for p in string.gmatch(rest, "[^:]+") do parts[#parts + 1] = p end
      local n = tonumber(parts[#parts]) or 1
      local typed = #parts == 3 or (#parts == 2 and tonumber(parts[2]) == nil)
      return n, typed
    end
  end
  return nil
end

local function options_of(comment)
  local o = {}
  for k, v in string.gmatch(comment or "", "([%w_]+)=([^%s,;]+)") do o[k] = v end
  return o
end

-- A job that names one node and its GPUs by their per-GPU types
-- (-w n0 --gres=gpu:idx0:1,gpu:idx2:1): {node, idx}, else nil.
local function pinned_by_user(j)
  local spec = (j.tres_per_node or "") .. "," .. (j.tres_per_job or "")
  if not machines[j.req_nodes or ""] or spec:match("gpu:[^i,][^,]*:%d") then return nil end
  local idx = {}
  for k in string.gmatch(spec, "gpu:idx(%d+):1") do idx[#idx + 1] = tonumber(k) end
  return #idx > 0 and { node = j.req_nodes, idx = idx } or nil
end

-- What a job asks for: {n=GPUs on its one node, min_utility, comm, hold}, or
-- nil (no GPU) or a string (why it passes through untouched).
local function request_of(j)
  local n, typed = gpu_request(j.tres_per_node)
  local total, ttyped = gpu_request(j.tres_per_job)
  if n == nil and total == nil then
    if gpu_request(j.tres_per_socket) or gpu_request(j.tres_per_task) then
      return "GPUs per socket or per task are left to Slurm"
    end
    return nil
  end
  if typed or ttyped then return "it names a GPU type", pinned_by_user(j) end
  if j.req_nodes ~= nil and j.req_nodes ~= "" then return "it names its nodes" end
  local nodes = tonumber(j.min_nodes)
  local o = options_of(j.comment)
  local r = { n = n or total, multi = nodes ~= nil and nodes > 1 and nodes < NO_VAL,
              min_utility = tonumber(o.min_utility) or config.min_utility,
              comm = o.comm ~= "no", hold = (o.postponed or config.postponed) == "hold",
              limit = tonumber(j.time_limit), per_node = n ~= nil, per_job = total ~= nil }
  if r.limit == nil or r.limit >= NO_VAL then r.limit = config.default_limit_min end
  return r
end

-- "placement: node=n0 gpus=0,2 ... id=T" -> {node, gpus = {0, 2}, id}
local function parse_record(text)
  if text == nil or not text:match("^placement: node=") then return nil end
  local rec = { node = text:match("node=(%S+)"), id = text:match("id=(%S+)"), gpus = {} }
  for g in string.gmatch(text:match("gpus=([%d,]+)") or "", "%d+") do rec.gpus[#rec.gpus + 1] = tonumber(g) end
  return rec
end

-- GPU indices Slurm gave a running job, from gres_used: per-GPU types
-- ("gpu:idx0:1,gpu:idx1:0,...") or untyped IDX lists ("gpu:2(IDX:0-1)").
local function used_indices(text)
  local idx = {}
  for k, c in string.gmatch(text or "", "gpu:idx(%d+):(%d+)") do
    if tonumber(c) > 0 then idx[#idx + 1] = tonumber(k) end
  end
  for list in string.gmatch(text or "", "IDX:([%d,%-]+)") do
    for a, b in string.gmatch(list, "(%d+)%-?(%d*)") do
      for k = tonumber(a), tonumber(b ~= "" and b or a) do idx[#idx + 1] = k end
    end
  end
  return idx
end

-- Placements made in the last minute. slurm.jobs is refreshed at most once a
-- second (slurmctld compares whole seconds), so a job submitted a moment ago
-- may be missing from it; its record here stands in until it shows up.
local recent, seq, load_time = {}, 0, os.time()

-- Every GPU someone holds or is pinned to, as holders {node, idx = {...},
-- finish (running) or limit (pending), order}.
local function live_holders(now)
  local holders, seen = {}, {}
  for id, j in pairs(slurm.jobs or {}) do
    local state = tonumber(j.job_state) or -1
    local base, completing = state % 256, math.floor(state / JOB_COMPLETING) % 2 == 1
    local rec = parse_record(j.admin_comment)
    if rec and rec.id then seen[rec.id] = true end
    if base == JOB_RUNNING or base == JOB_SUSPENDED or completing then
      local idx = used_indices(j.gres_used)
      if #idx == 0 and rec then idx = rec.gpus end
      local node = machines[j.nodes or ""] and j.nodes or (rec and rec.node)
      local finish = tonumber(j.end_time) or 0
      if completing or finish <= now then finish = now + 1 end
      if node and machines[node] and #idx > 0 then
        holders[#holders + 1] = { node = node, idx = idx, finish = finish, order = -1 }
      end
    elseif base == JOB_PENDING and rec and #rec.gpus > 0 and tonumber(j.priority) ~= 0 then
      local limit = tonumber(j.time_limit) or NO_VAL
      if limit >= NO_VAL then limit = config.default_limit_min end
      holders[#holders + 1] = { node = rec.node, idx = rec.gpus, limit = limit, order = tonumber(id) or 0 }
    end
  end
  local keep = {}
  for _, r in ipairs(recent) do
    if not seen[r.id] and now - r.t < 60 then
      keep[#keep + 1] = r
      holders[#holders + 1] = { node = r.node, idx = r.idx, limit = r.limit, order = 1e12 + r.t }
    end
  end
  recent = keep
  return holders
end

-- When each GPU ("node:idx") is free: running jobs end at their end time;
-- pending pinned jobs, in submission order, start when all their GPUs are.
local function timeline(holders, now)
  local free_at = {}
  table.sort(holders, function(a, b) return a.order < b.order end)
  for _, h in ipairs(holders) do
    if machines[h.node] then
      local start = now
      if h.finish == nil then
        for _, k in ipairs(h.idx) do start = math.max(start, free_at[h.node .. ":" .. k] or now) end
      end
      local finish = h.finish or (start + 60 * h.limit)
      for _, k in ipairs(h.idx) do
        local key = h.node .. ":" .. k
        free_at[key] = math.max(free_at[key] or now, finish)
      end
    end
  end
  return free_at
end

-- Decide for request r at instant T: the cluster with every GPU busy at T taken.
local function place_at(r, free_at, T)
  local s = P.Sched(cluster)
  local busy = P.job("busy", 1)
  local k = 0
  for name, m in pairs(machines) do
    for i, g in ipairs(m.gpus) do
      if (free_at[name .. ":" .. (i - 1)] or 0) > T then
        k = k + 1
        s:commit_gpus("busy" .. k, busy, { g })
      end
    end
  end
  local job = P.job("job", r.n, r.comm and 1 or 0)
  job:set_single_node(true)
  job:set_min_utility(r.min_utility)
  local set = P.JobSet()
  set:add(job)
  local d = s:place(set, config.policy)
  return { kind = d:kind(0), gpus = d:gpus(0), utility = d:utility(0), reason = d:reason(0) or "" }
end

-- The decision for r: {action = "pin"|"hold"|"refuse", node, idx, start, utility, why}.
local function decide(r, now)
  if r.multi then
    return { action = "refuse", why = "GPU jobs spanning several nodes are not placed by this cluster's hook; ask for one node" }
  end
  local free_at = timeline(live_holders(now), now)
  local horizons, seen = { now }, { [now] = true }
  for _, t in pairs(free_at) do
    if t > now and not seen[t] then seen[t] = true; horizons[#horizons + 1] = t end
  end
  table.sort(horizons)
  local low
  for h = 1, math.min(#horizons, config.max_horizons) do
    local d = place_at(r, free_at, horizons[h])
    if d.kind == P.DECISION_REJECTED then return { action = "refuse", why = d.reason } end
    if d.kind == P.DECISION_PLACED then
      local node, idx = nil, {}
      for i, g in ipairs(d.gpus) do
        node = machine_of_gpu[g].name
        idx[i] = machine_of_gpu[g].idx
      end
      table.sort(idx)
      return { action = "pin", node = node, idx = idx, start = horizons[h], utility = d.utility, low = low,
               held = r.hold and low }
    end
    if d.kind == P.DECISION_POSTPONED then low = low or d.reason end
  end
  return { action = "hold", why = low or "no placement found within the known jobs' time limits" }
end

-- Record in the job (admin_comment, read back from slurm.jobs) and here
-- (until slurm.jobs shows the job) that it holds GPUs idx of node.
local function remember(u, node, idx, limit, now, what)
  seq = seq + 1
  local id = load_time .. "-" .. seq
  u.admin_comment = string.format("placement: node=%s gpus=%s %s id=%s", node, table.concat(idx, ","), what, id)
  recent[#recent + 1] = { id = id, node = node, idx = idx, limit = limit, t = now }
  log("%s", u.admin_comment)
end

-- Write decision d into the job update u (a job_desc).
local function apply(u, r, d, now)
  if d.action == "hold" then
    u.priority = 0
    u.admin_comment = "placement: held: " .. d.why
    slurm.log_user("placement: job held: %s", d.why)
    return slurm.SUCCESS
  end
  if d.held then
    -- Held on the GPUs it would wait for: `scontrol release` lets it run
    -- there (Slurm 22.05 refuses to retype a pending job's GPUs in an update).
    u.priority = 0
    slurm.log_user("placement: job held: %s; scontrol release runs it on %s GPUs %s", d.held, d.node,
                   table.concat(d.idx, ","))
  end
  local want = {}
  for i, k in ipairs(d.idx) do want[i] = "gres:gpu:idx" .. k .. ":1" end
  -- The request keeps its field (an update cannot empty the other one, and
  -- typed and untyped GPUs in one job are refused): on one node, GPUs per
  -- job and per node are the same thing.
  if r.per_node then u.tres_per_node = table.concat(want, ",") end
  if r.per_job then u.tres_per_job = table.concat(want, ",") end
  u.req_nodes = d.node
  remember(u, d.node, d.idx, r.limit, now, string.format("policy=%s utility=%.3f start=%s%s",
    config.policy, d.utility, d.start > now and ("+" .. (d.start - now) .. "s") or "now",
    d.held and (" held: " .. d.held) or d.low and (" (waits: " .. d.low .. ")") or ""))
  return slurm.SUCCESS
end

local function handle(view, update)
  local r, pinned = request_of(view)
  if r == nil then return slurm.SUCCESS end
  local now = os.time()
  if type(r) == "string" then
    log("job %s passes through: %s", tostring(view.name), r)
    if pinned then remember(update, pinned.node, pinned.idx, 60, now, "set by the user") end
    return slurm.SUCCESS
  end
  local d = decide(r, now)
  if d.action == "refuse" then
    slurm.log_user("placement: %d GPUs on one node cannot be given: %s", r.n, d.why)
    return ESLURM_INVALID_GRES
  end
  return apply(update, r, d, now)
end

function slurm_job_submit(job_desc, part_list, submit_uid)
  if broken then return slurm.SUCCESS end
  local ok, rc = pcall(handle, job_desc, job_desc)
  if ok then return rc end
  slurm.log_error("placement hook: %s; job passes through unplaced", tostring(rc))
  return slurm.SUCCESS
end

-- A held job already carries its GPUs (apply()); a release only lets it run.
function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  return slurm.SUCCESS
end

if standalone and cluster then
  for _, j in ipairs({ { name = "pair", tres_per_node = "gres:gpu:2", comment = "min_utility=0.7" },
                       { name = "single", tres_per_job = "gres:gpu:1" },
                       { name = "cpu-only" },
                       { name = "huge", tres_per_node = "gres:gpu:64" } }) do
    local rc = slurm_job_submit(j, {}, 0)
    print(string.format("%-8s rc=%s req_nodes=%s tres_per_node=%s", j.name, tostring(rc),
                        tostring(j.req_nodes), tostring(j.tres_per_node)))
  end
end
return slurm.SUCCESS
