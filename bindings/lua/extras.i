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
}
