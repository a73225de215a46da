--[[
For Slurm itself use examples/slurm/job_submit.lua (doc/slurm.md): it
chooses the node too, pins Slurm to the chosen GPUs, reads the live state
from Slurm and is tested against a real slurmctld (tests/slurm/run.sh).
This file stays as a minimal single-machine illustration of the Lua API.

Slurm-style job_submit hook that picks GPUs for a job with libplacement.

Slurm's job_submit/lua plugin calls slurm_job_submit(job_desc, part_list,
submit_uid) for every submitted job. This hook reads the GPU count the job
asks for ("gpu:N" in job_desc.tres_per_node or job_desc.gres), asks the
topology-aware policy for the best GPUs on the node's topology, and records
them in job_desc.comment ("gpus=0,1") and job_desc.admin_comment (the
placement's communication cost and utility) for a prolog to turn into
CUDA_VISIBLE_DEVICES. Jobs without GPUs pass through untouched; a request
no machine can hold is refused with a message.

The topology is the local machine (hwloc) unless PLACEMENT_TOPOLOGY names a
builtin ("minsky", "dgx1", ...) or a JSON cluster file. Run directly
(outside slurmctld) it submits a few sample jobs against a stub `slurm`:

  LUA_CPATH="build/bindings/lua/?.so" PLACEMENT_TOPOLOGY=dgx1 lua5.4 examples/lua/job_submit.lua
]]
local placement = require "placement"

-- Outside slurmctld: a stand-in for the tables and functions it provides.
local standalone = (slurm == nil)
if standalone then
  slurm = { SUCCESS = 0, ERROR = -1 }
  function slurm.log_info(fmt, ...) print("info: " .. string.format(fmt, ...)) end
  function slurm.log_user(fmt, ...) print("user: " .. string.format(fmt, ...)) end
end

local function load_topology()
  local spec = os.getenv("PLACEMENT_TOPOLOGY")
  if spec == nil or spec == "" then
    local t = placement.Topology.from_hwloc()
    if #t:gpus() > 0 then return t end
    spec = "dgx1"  -- no local GPU: demonstrate on a reference machine
  end
  if spec:match("%.json$") then return placement.Topology.from_json(spec) end
  return placement.Topology.builtin(spec)
end

-- The topology lives as long as the plugin; GPUs handed out stay allocated
-- in it (a real deployment would release them from a job-completion hook).
local topology = load_topology()

-- "gpu:4", "gres/gpu:tesla:2", "gpu" (= 1); nil when the job wants no GPU.
local function gpus_requested(job_desc)
  local spec = job_desc.tres_per_node or job_desc.gres
  if spec == nil or spec == "" then return nil end
  for item in spec:gmatch("[^,]+") do
    if item:match("gpu") then
      return tonumber(item:match(":(%d+)$")) or 1
    end
  end
  return nil
end

function slurm_job_submit(job_desc, part_list, submit_uid)
  local n = gpus_requested(job_desc)
  if n == nil then return slurm.SUCCESS end
  local job = placement.job(job_desc.name or "job", n, 1)
  local ok, decisions = pcall(function()
    return placement.Policy("topo-aware"):place(topology, { job }, true)
  end)
  if not ok then
    slurm.log_info("placement failed for %s: %s", job_desc.name or "?", decisions)
    return slurm.SUCCESS  -- never block submission on our own failure
  end
  local d = decisions[1]
  if d.kind == "rejected" then
    slurm.log_user("no node can hold %d GPUs: %s", n, d.reason)
    return slurm.ESLURM_INVALID_GRES or slurm.ERROR
  end
  if d.kind ~= "placed" then
    slurm.log_info("%s: %d GPUs not free now (%s); left to the scheduler", job_desc.name or "?", n, d.reason)
    return slurm.SUCCESS
  end
  local ids = {}
  for i, g in ipairs(d.gpus) do
    ids[i] = topology:vertex_os_index(g)  -- the CUDA device number
  end
  job_desc.comment = "gpus=" .. table.concat(ids, ",")
  job_desc.admin_comment = string.format("placement comm_cost=%d utility=%.3f", d.comm_cost, d.utility)
  slurm.log_info("%s: %s (%s)", job_desc.name or "?", job_desc.comment, job_desc.admin_comment)
  return slurm.SUCCESS
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  return slurm.SUCCESS
end

if standalone then
  for _, req in ipairs({ { name = "train-a", tres_per_node = "gres/gpu:2" },
                         { name = "train-b", gres = "gpu:tesla:4" },
                         { name = "cpu-only" },
                         { name = "huge", tres_per_node = "gres/gpu:64" } }) do
    local rc = slurm_job_submit(req, {}, 1000)
    print(string.format("%-8s rc=%d comment=%s", req.name, rc, tostring(req.comment)))
  end
end
return slurm.SUCCESS
