/* Lua-side conveniences, run when the module loads (the module table is the
 * global `placement` at that point). Ids stay 0-based as in C; lists are
 * ordinary 1-based sequences of them. */
%luacode {
local P = placement

local function names(count, at)
  local t = {}
  for i = 0, count() - 1 do t[#t + 1] = at(i) end
  return t
end

--- Names of the solvers, policies and builtin machines.
function P.solvers() return names(P.solver_count, P.solver_name) end
function P.policies() return names(P.policy_count, P.policy_name) end
function P.builtin_topologies() return names(P.topology_builtin_count, P.topology_builtin_name) end

--- A job of `gpus` one-GPU tasks talking all-to-all with `traffic` (default 1).
function P.job(name, gpus, traffic, workload, size)
  if type(gpus) ~= "number" or gpus ~= math.floor(gpus) or gpus < 1 then
    error("PL_EINVAL: placement.job: gpus must be an integer >= 1, got " .. tostring(gpus), 2)
  end
  local j = P.Job(name)
  for _ = 1, gpus do j:add_task() end
  if gpus > 1 then j:add_all_to_all(traffic or 1) end
  if workload then j:set_workload(workload, size or "1") end
  return j
end

-- The __disown of SWIG asserts (aborting the interpreter) when it is given
-- anything but an object; nothing in this module disowns, so it raises.
for _, class in pairs(P) do
  local mt = type(class) == "table" and getmetatable(class)
  local inst = mt and rawget(mt, ".instance")
  local fn = inst and rawget(inst, ".fn")
  local disown = fn and rawget(fn, "__disown")
  if disown then
    fn.__disown = function(self, ...)
      if type(self) ~= "userdata" then
        error("PL_EINVAL: __disown: self is not an object", 2)
      end
      return disown(self, ...)
    end
  end
end

-- Methods written in Lua are added to a SWIG class's instance function
-- table, where the generated ones live, so objects from factories have them too.
local function methods(class) return getmetatable(class)[".instance"][".fn"] end

local topology_methods = methods(P.Topology)

--- t:attrs(v): the attributes of vertex v as a table key -> value.
function topology_methods.attrs(self, v)
  local t = {}
  for i = 0, self:attr_count(v) - 1 do t[self:attr_key(v, i)] = self:attr_value(v, i) end
  return t
end

--- t:machines(): the machine vertices in preorder.
function topology_methods.machines(self) return self:descendants(-1, P.VK_MACHINE) end

local job_methods = methods(P.Job)

--- job:node_constraints(): {task=, must_not=, key=, value=} in the order
--- added; task is nil for a constraint on the whole job.
function job_methods.node_constraints(self)
  local out = {}
  for i = 0, self:node_constraint_count() - 1 do
    local task = self:node_constraint_task(i)
    out[#out + 1] = { task = task ~= P.JOB_ALL_TASKS and task or nil,
                      must_not = self:node_constraint_must_not(i),
                      key = self:node_constraint_key(i), value = self:node_constraint_value(i) }
  end
  return out
end

function job_methods.labels(self) return names(function() return self:label_count() end,
                                               function(i) return self:label(i) end) end
function job_methods.anti_affinity(self)
  return names(function() return self:anti_affinity_count() end,
               function(i) return self:anti_affinity_label(i) end)
end

--- job:conflicts(topo): {kind="NO_NODE"|"SELF_ANTI"|"TOO_BIG", cls=, task_a=,
--- task_b=} per conflict of the job's constraints on topo (task_b nil
--- unless SELF_ANTI); empty when they can be met.
function job_methods.conflicts(self, topo)
  local flat, out = self:conflicts_flat(topo), {}
  for i = 1, #flat, 4 do
    out[#out + 1] = { kind = P.conflict_kind_name(flat[i]), cls = flat[i + 1], task_a = flat[i + 2],
                      task_b = flat[i + 3] >= 0 and flat[i + 3] or nil }
  end
  return out
end

--- A JobSet holding copies of the Jobs in a sequence (a JobSet is returned as is).
function P.jobset(jobs)
  if type(jobs) == "userdata" then return jobs end
  local s = P.JobSet()
  for _, j in ipairs(jobs) do s:add(j) end
  return s
end

--- Solve a FlowNetwork: returns {cost=, flows={...}, potentials={...}, solver=}
--- (a snapshot; flows[a + 1] is the flow of arc a, or use result:flow(a)).
function P.solve(net, solver)
  solver = solver or "network-simplex"
  local r = { cost = net:solve_cost(solver), flows = net:flows(),
              potentials = net:potentials(), solver = solver }
  function r:flow(arc) return self.flows[arc + 1] end
  function r:potential(node) return self.potentials[node + 1] end
  return r
end

local kinds = { [0] = "placed", "postponed", "waiting", "rejected" }

-- Options of the policies that have their own, by the PolicyOptions setter
-- taking each (PolicyOptions refuses another policy's option).
local option_setters = { mode = "set_mode", iterations = "set_iterations",
  initial_temperature = "set_initial_temperature", cooling = "set_cooling",
  model = "set_model", qos = "set_qos", pairing = "set_pairing",
  share_factor = "set_share_factor", usage_traces = "set_usage_traces" }

--- The PolicyOptions of `policy` from a table of its options, or nil when
--- it is empty: sa-placement mode ("batch" | "online"), iterations,
--- initial_temperature, cooling, model ("lookup" | "tree"); two-level task_runtime_s
--- ({workload = {platform = seconds}}); gpu-qos qos, pairing ("mmp",
--- "mmp-stuck", "greedy", "optimal"), share_factor (>= 1, default 1), model
--- ("profiles" | "usage": the GPU usage patterns of the pair, doc/policies.md 4e),
--- usage_traces (a usage-pattern CSV path for model "usage"; read when the
--- policy is created: PL_EIO, PL_EPARSE). Unknown options raise PL_EINVAL.
function P.policy_options(policy, options)
  if not options or next(options) == nil then return nil end
  local o = P.PolicyOptions(policy)
  for key, value in pairs(options) do
    if key == "task_runtime_s" then
      local workloads, platforms, cells = {}, {}, {}
      for w in pairs(value) do workloads[#workloads + 1] = w end
      table.sort(workloads)
      if #workloads > 0 then
        for p in pairs(value[workloads[1]]) do platforms[#platforms + 1] = p end
        table.sort(platforms)
      end
      for _, w in ipairs(workloads) do
        local n = 0
        for _ in pairs(value[w]) do n = n + 1 end
        for _, p in ipairs(platforms) do
          local v = value[w][p]
          if n ~= #platforms or v == nil then
            error(string.format("PL_EINVAL: task_runtime_s: workload %q lacks platform %q or has others", w, p), 2)
          end
          cells[#cells + 1] = v
        end
      end
      o:set_task_runtimes(platforms, workloads, cells)
    elseif option_setters[key] then
      o[option_setters[key]](o, value)
    else
      error(string.format("PL_EINVAL: policy %q: unknown option %q", policy, tostring(key)), 2)
    end
  end
  return o
end

local common_policy_keys = { profiles = true, seed = true, max_placed = true, network_load = true }

--- A policy by name; opts: profiles, seed, max_placed, network_load, and
--- the policy's own options (placement.policy_options()).
--- policy:place(topology, jobs [, apply]) returns a sequence of decisions
--- {job=, kind=, gpus={...}, machine=, utility=, comm_cost=, slowdown=, reason=}
--- with an apply(topology) function that allocates the placed jobs.
function P.Policy(name, opts)
  opts = opts or {}
  name = name or "topo-aware"
  local own = {}
  for k, v in pairs(opts) do
    if not common_policy_keys[k] then own[k] = v end
  end
  local policy = { name = name, opts = opts, options = P.policy_options(name, own) }
  function policy:place(topo, jobs, apply)
    local set = P.jobset(jobs)
    local d = P.place(self.name, topo, set, opts.profiles, opts.seed or 1,
                      opts.max_placed or 0, opts.network_load or 0, self.options)
    local out = {}
    for i = 0, d:count() - 1 do
      local job = set:get(i)
      out[#out + 1] = { job = job:name(), kind = kinds[d:kind(i)], gpus = d:gpus(i),
                        machine = d:machine(i), utility = d:utility(i),
                        comm_cost = d:comm_cost(i), slowdown = d:slowdown(i),
                        reason = d:reason(i) or "", hosts = d:hosts(i) }
    end
    -- The closure keeps the decisions and the queue alive for apply().
    function out.apply(t) d:apply(t, set, opts.profiles) end
    if apply then out.apply(topo) end
    return out
  end
  return policy
end
--- Names accepted by placement.scenario().
function P.scenario_names() return names(P.sim_scenario_count, P.sim_scenario_name) end

--- A built-in simulator scenario: returns topology, jobs (see scenario_names():
--- sc17-proto, sc17-table1, sc17-s1, sc17-s2, drmaestro; opts: machines, jobs, seed, 0
--- keeping its default size).
function P.scenario(name, opts)
  opts = opts or {}
  local sc = P.Scenario(name, opts.machines or 0, opts.jobs or 0, opts.seed or 1)
  return sc:take_topology(), sc:take_jobs()
end

local summary_fields = { "jobs", "done", "rejected", "unfinished", "makespan", "mean_wait",
  "max_wait", "mean_turnaround", "mean_slowdown", "max_slowdown", "slower_than_ideal",
  "below_min_utility", "slo_violations", "rounds", "decision_mean", "decision_p50",
  "decision_p90", "decision_p99", "decision_max", "wall_time", "mean_gpu_util", "mean_core_util",
  "mean_nvme_util", "mean_fragmentation", "failures", "jobs_killed", "lost_gpu_seconds",
  "remote_jobs", "shared_jobs", "qos_violations" }
local record_fields = { "job", "name", "state", "ngpus", "arrival", "start", "finish", "wait",
  "run_time", "ideal_time", "slowdown", "utility", "min_utility", "below_min_utility",
  "cross_socket", "machine", "placed", "restarts", "priority", "remote_gpus", "shared_gpu" }
local sample_fields = { "time", "running", "queued", "gpus_used", "gpus_failed", "gpu_util",
  "core_util", "nvme_util", "fragmentation", "remote_gpus" }
local runtimes = { progress = P.SIM_RUNTIME_PROGRESS, artifact = P.SIM_RUNTIME_ARTIFACT }

local function copy_fields(obj, fields)
  local t = {}
  for _, f in ipairs(fields) do t[f] = obj[f] end
  return t
end

--- A CSV failure trace (time,gpu,repair; gpu a vertex or a path of names
--- resolved in topo) as a sequence of {time=, gpu=, repair=}.
function P.load_failures(path, topo)
  local o, out = P.SimOptions(), {}
  o:load_failures(path, topo)
  for i = 0, o:failure_count() - 1 do out[#out + 1] = copy_fields(o:failure(i), { "time", "gpu", "repair" }) end
  return out
end

-- The SimOptions of the options added after the first release, or nil.
local function sim_options(topo, opts)
  if not opts.startup_delay and not opts.startup_delays and not opts.priorities
     and not opts.failures and opts.gpu_share_factor == nil and opts.gpu_share_model == nil
     and opts.usage_traces == nil then
    return nil
  end
  local o = P.SimOptions()
  o:set_startup_delay(opts.startup_delay or 0)
  if opts.gpu_share_factor ~= nil then o:set_gpu_share_factor(opts.gpu_share_factor) end
  if opts.gpu_share_model ~= nil then o:set_gpu_share_model(opts.gpu_share_model) end
  if opts.usage_traces ~= nil then o:set_usage_traces(opts.usage_traces) end
  if opts.startup_delays then o:set_job_startup_delays(opts.startup_delays) end
  if opts.priorities then o:set_priorities(opts.priorities) end
  for _, f in ipairs(opts.failures or {}) do
    local gpu = f.gpu or f[2]
    if type(gpu) == "string" then gpu = topo:find(gpu) end
    o:add_failure(f.time or f[1], gpu, f.repair or f[3] or 0)
  end
  return o
end

--- Trace-driven simulator: jobs (a JobSet, a sequence of Jobs, or a Trace;
--- copied) on topology (copied); opts: policy (default "topo-aware-p"),
--- seed, interval, runtime ("progress" or "artifact"), profiles (kept
--- alive), max_placed, network_load, policy_options (a table, see
--- placement.policy_options()), startup_delay (s, every job),
--- startup_delays and priorities (one per job; a Trace gives its own unless
--- these are set, or startup_delay for the delays), failures (sequence of
--- {time=, gpu=, repair=} or {time, gpu, repair}; gpu a vertex or a path;
--- repair 0 or absent: never), progress (function(settled, total, sim_time);
--- an error in it is raised again by run() once the run is over),
--- gpu_share_model ("constant", default, or "usage"), gpu_share_factor
--- (>= 1; default 1.2737), usage_traces (a usage-pattern CSV path, with
--- "usage"): how co-tenants of a shared GPU slow each other (doc/simulator.md 3c).
--- sim:run() returns {policy=, summary={makespan=, ...}, jobs={{name=,
--- state=, wait=, ...}, ...}} with result:to_csv([path]),
--- result:timeline() (sequence of {time=, running=, gpu_util=, ...}) and
--- result:timeline_csv([path]).
function P.Simulator(topo, jobs, opts)
  opts = opts or {}
  local runtime = runtimes[opts.runtime or "progress"]
  if not runtime then error(string.format("PL_EINVAL: unknown runtime model %q", tostring(opts.runtime)), 2) end
  local policy = opts.policy or "topo-aware-p"
  if type(jobs) == "userdata" and swig_type(jobs) == "Trace *" then
    local trace = jobs
    jobs = trace:jobs()
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.priorities = o.priorities or trace:priorities()
    if not o.startup_delays and (o.startup_delay or 0) == 0 then o.startup_delays = trace:startup_delays() end
    opts = o
  end
  local handle = P.Sim(topo, P.jobset(jobs), policy, opts.seed or 1, opts.interval or 1.0,
                       runtime, opts.profiles, opts.max_placed or 0, opts.network_load or 0,
                       P.policy_options(policy, opts.policy_options), sim_options(topo, opts))
  if opts.progress ~= nil then
    if type(opts.progress) ~= "function" then
      error("PL_EINVAL: progress must be a function, got a " .. type(opts.progress), 2)
    end
    handle:set_progress(opts.progress)
  end
  local sim = { policy = policy, profiles = opts.profiles, handle = handle }
  function sim:run()
    local res = self.handle:run()
    local out = { policy = self.policy, summary = copy_fields(res:summary(), summary_fields), jobs = {} }
    for i = 0, res:count() - 1 do out.jobs[#out.jobs + 1] = copy_fields(res:record(i), record_fields) end
    -- The closures keep the C result (and the jobs its CSV names) alive.
    function out:to_csv(path)
      if path == nil then return res:csv() end
      res:write_csv(path)
    end
    function out:timeline()
      local t = {}
      for i = 0, res:timeline_count() - 1 do t[#t + 1] = copy_fields(res:timeline(i), sample_fields) end
      return t
    end
    function out:timeline_csv(path)
      if path == nil then return res:timeline_csv() end
      res:write_timeline_csv(path)
    end
    return out
  end
  return sim
end
}
