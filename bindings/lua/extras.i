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
  local j = P.Job(name)
  for _ = 1, gpus do j:add_task() end
  if gpus > 1 then j:add_all_to_all(traffic or 1) end
  if workload then j:set_workload(workload, size or "1") end
  return j
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

--- A policy by name; opts: profiles, seed, max_placed, network_load.
--- policy:place(topology, jobs [, apply]) returns a sequence of decisions
--- {job=, kind=, gpus={...}, machine=, utility=, comm_cost=, slowdown=, reason=}
--- with an apply(topology) function that allocates the placed jobs.
function P.Policy(name, opts)
  opts = opts or {}
  local policy = { name = name or "topo-aware", opts = opts }
  function policy:place(topo, jobs, apply)
    local set = P.jobset(jobs)
    local d = P.place(self.name, topo, set, opts.profiles, opts.seed or 1,
                      opts.max_placed or 0, opts.network_load or 0)
    local out = {}
    for i = 0, d:count() - 1 do
      local job = set:get(i)
      out[#out + 1] = { job = job:name(), kind = kinds[d:kind(i)], gpus = d:gpus(i),
                        machine = d:machine(i), utility = d:utility(i),
                        comm_cost = d:comm_cost(i), slowdown = d:slowdown(i),
                        reason = d:reason(i) or "" }
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

--- A built-in simulator scenario: returns topology, jobs (see scenario_names();
--- opts: machines, jobs, seed, 0 keeping its default size).
function P.scenario(name, opts)
  opts = opts or {}
  local sc = P.Scenario(name, opts.machines or 0, opts.jobs or 0, opts.seed or 1)
  return sc:take_topology(), sc:take_jobs()
end

local summary_fields = { "jobs", "done", "rejected", "unfinished", "makespan", "mean_wait",
  "max_wait", "mean_turnaround", "mean_slowdown", "max_slowdown", "slower_than_ideal",
  "below_min_utility", "slo_violations", "rounds", "decision_mean", "decision_p50",
  "decision_p90", "decision_p99", "decision_max", "wall_time" }
local record_fields = { "job", "name", "state", "ngpus", "arrival", "start", "finish", "wait",
  "run_time", "ideal_time", "slowdown", "utility", "min_utility", "below_min_utility",
  "cross_socket", "machine" }
local runtimes = { progress = P.SIM_RUNTIME_PROGRESS, artifact = P.SIM_RUNTIME_ARTIFACT }

local function copy_fields(obj, fields)
  local t = {}
  for _, f in ipairs(fields) do t[f] = obj[f] end
  return t
end

--- Trace-driven simulator: jobs (a JobSet or a sequence of Jobs, copied) on
--- topology (copied); opts: policy (default "topo-aware-p"), seed, interval,
--- runtime ("progress" or "artifact"), profiles (kept alive), max_placed,
--- network_load. sim:run() returns {policy=, summary={makespan=, ...},
--- jobs={{name=, state=, wait=, ...}, ...}} with result:to_csv([path]).
function P.Simulator(topo, jobs, opts)
  opts = opts or {}
  local runtime = runtimes[opts.runtime or "progress"]
  if not runtime then error(string.format("PL_EINVAL: unknown runtime model %q", tostring(opts.runtime)), 2) end
  local policy = opts.policy or "topo-aware-p"
  local handle = P.Sim(topo, P.jobset(jobs), policy, opts.seed or 1, opts.interval or 1.0,
                       runtime, opts.profiles, opts.max_placed or 0, opts.network_load or 0)
  local sim = { policy = policy, profiles = opts.profiles, handle = handle }
  function sim:run()
    local res = self.handle:run()
    local out = { policy = self.policy, summary = copy_fields(res:summary(), summary_fields), jobs = {} }
    for i = 0, res:count() - 1 do out.jobs[#out.jobs + 1] = copy_fields(res:record(i), record_fields) end
    -- The closure keeps the C result (and the jobs its CSV names) alive.
    function out:to_csv(path)
      if path == nil then return res:csv() end
      res:write_csv(path)
    end
    return out
  end
  return sim
end
}
