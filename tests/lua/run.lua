-- Lua suite of the placement module: plain asserts, one block per case.
-- Prints "lua: N passed, N failed" last (read by tests/summarize.py) and
-- exits non-zero on any failure.
local placement = require "placement"

local DATA = os.getenv("PL_TEST_DATA") or "tests/data"
local passed, failed = 0, 0

local function check(name, fn)
  local ok, err = pcall(fn)
  if ok then
    passed = passed + 1
    print("ok   " .. name)
  else
    failed = failed + 1
    print("FAIL " .. name .. ": " .. tostring(err))
  end
end

-- Runs fn expecting a Lua error whose message contains each of `parts`.
local function raises(fn, ...)
  local ok, msg = pcall(fn)
  assert(not ok, "no error raised")
  for _, part in ipairs({ ... }) do
    assert(string.find(msg, part, 1, true), "error '" .. msg .. "' lacks '" .. part .. "'")
  end
  return msg
end

local function rss_kib()
  local f = assert(io.open("/proc/self/statm"))
  local pages = f:read("n")
  pages = f:read("n")
  f:close()
  return pages * 4
end

-- The DIMACS fixtures give the costs of EXPECTED.txt.
local expected = {}
for line in io.lines(DATA .. "/flow/EXPECTED.txt") do
  local name, cost, nodes, arcs = line:match("^(%S+) cost=(%-?%d+) nodes=(%d+) arcs=(%d+)")
  if name then
    expected[#expected + 1] = { name = name, cost = tonumber(cost), nodes = tonumber(nodes), arcs = tonumber(arcs) }
  end
end
check("EXPECTED.txt lists 17 fixtures", function() assert(#expected == 17) end)
for _, e in ipairs(expected) do
  check("fixture " .. e.name, function()
    local net = placement.FlowNetwork.from_dimacs(DATA .. "/flow/" .. e.name)
    assert(net:node_count() == e.nodes and net:arc_count() == e.arcs)
    local r = placement.solve(net, "network-simplex")
    assert(r.cost == e.cost, "cost " .. r.cost .. " expected " .. e.cost)
    assert(math.type(r.cost) == "integer")
    assert(#r.flows == e.arcs and #r.potentials == e.nodes)
  end)
end

for _, solver in ipairs(placement.solvers()) do
  check("solver " .. solver .. " on small_graph", function()
    local net = placement.FlowNetwork.from_dimacs(DATA .. "/flow/small_graph.in")
    assert(placement.solve(net, solver).cost == 38)
  end)
end

check("certificate of small_graph_neg_costs recomputed in Lua", function()
  local net = placement.FlowNetwork.from_dimacs(DATA .. "/flow/small_graph_neg_costs.in")
  local r = placement.solve(net)
  assert(r.cost == 12)
  local out, total = {}, 0
  for v = 0, net:node_count() - 1 do out[v] = 0 end
  for a = 0, net:arc_count() - 1 do
    local arc, f = net:arc(a), r:flow(a)
    assert(arc.lower <= f and f <= arc.upper)
    out[arc.tail] = out[arc.tail] + f
    out[arc.head] = out[arc.head] - f
    total = total + f * arc.cost
    local rc = arc.cost + r:potential(arc.tail) - r:potential(arc.head)
    if f < arc.upper then assert(rc >= 0) end
    if f > arc.lower then assert(rc <= 0) end
  end
  for v = 0, net:node_count() - 1 do assert(out[v] == net:supply(v)) end
  assert(total == r.cost)
  net:verify()
  assert(net:lp_check() == 12)
end)

check("network built by hand", function()
  local net = placement.FlowNetwork()
  local s, a, t = net:add_node(3, "s"), net:add_node(), net:add_node(-3, "t")
  local sa = net:add_arc(s, a, 0, 2, 1)
  local at = net:add_arc(a, t, 0, placement.CAP_INF, 1)
  local st = net:add_arc(s, t, 0, 1, 3)
  local r = placement.solve(net)
  assert(r.cost == 7)
  assert(r:flow(sa) == 2 and r:flow(at) == 2 and r:flow(st) == 1)
  assert(net:find_node("t") == t)
end)

-- Random graphs: every solver agrees with GLPK's LP optimum (networkx is
-- Python only; pl_flow_lp_check solves the same network as an LP).
for seed = 1, 8 do
  check("random graph " .. seed .. ": solvers agree with the LP", function()
    math.randomseed(seed)
    local n = math.random(4, 20)
    local net = placement.FlowNetwork()
    net:add_nodes(n)
    for v = 0, n - 2 do net:add_arc(v, v + 1, 0, placement.CAP_INF, math.random(0, 20)) end
    for _ = 1, math.random(n, 3 * n) do
      local u, v = math.random(0, n - 1), math.random(0, n - 1)
      if u ~= v then net:add_arc(u, v, 0, math.random(1, 15), math.random(0, 20)) end
    end
    local amount = math.random(1, 30)
    net:set_supply(0, amount)
    net:set_supply(n - 1, -amount)
    local cost = placement.solve(net, "network-simplex").cost
    assert(net:lp_check() == cost)
    for _, s in ipairs({ "ssp", "cost-scaling", "cycle-canceling" }) do
      assert(placement.solve(net, s).cost == cost, s)
    end
  end)
end

-- Errors become Lua errors carrying the status name and library message.
check("parse error names the line", function()
  raises(function() placement.FlowNetwork.from_dimacs_string("p min 2 1\nn 1 1\nx 3\n") end,
         "PL_EPARSE", "<string>:3")
end)
check("missing file is PL_EIO", function()
  raises(function() placement.FlowNetwork.from_dimacs(DATA .. "/nope.in") end, "PL_EIO", "nope.in")
end)
check("infeasible and unbounded", function()
  local net = placement.FlowNetwork()
  local a, b = net:add_node(4), net:add_node(-4)
  net:add_arc(a, b, 0, 3, 1)
  raises(function() net:solve_cost() end, "PL_EINFEASIBLE")
  raises(function() net:cost() end, "PL_ESTATE")
  local u = placement.FlowNetwork()
  u:add_nodes(2)
  u:add_arc(0, 1, 0, placement.CAP_INF, -1)
  u:add_arc(1, 0, 0, placement.CAP_INF, 0)
  raises(function() u:solve_cost() end, "PL_EUNBOUNDED")
end)
check("unknown solver, builtin and policy", function()
  local net = placement.FlowNetwork()
  net:add_node()
  raises(function() net:solve_cost("magic") end, "PL_ENOTFOUND", "network-simplex")
  raises(function() placement.Topology.builtin("cray-1") end, "PL_ENOTFOUND", "minsky")
  local t = placement.Topology.builtin("minsky")
  raises(function() placement.Policy("nope"):place(t, { placement.job("j", 1) }) end, "PL_ENOTFOUND")
end)
check("invalid arguments", function()
  local net = placement.FlowNetwork()
  net:add_node()
  raises(function() net:add_arc(0, 7, 0, 1, 1) end, "PL_EINVAL")
  raises(function() net:flow(0) end, "PL_E")
  raises(function() net:flow(1.5) end, "integer")
end)
check("bad JSON inputs", function()
  raises(function() placement.Topology.from_json(DATA .. "/topologies/bad-syntax.json") end,
         "PL_EPARSE", "bad-syntax.json")
  raises(function() placement.JobSet.from_json_string('{"jobs": [{"gpus": -1}]}') end,
         "PL_EPARSE", "$.jobs[0]")
end)

-- Topology.
check("minsky GPU distances", function()
  local t = placement.Topology.builtin("minsky")
  local g = t:gpus()
  assert(#g == 4)
  local flat = t:gpu_distance_flat()
  local want = { 0, 1, 22, 22, 1, 0, 22, 22, 22, 22, 0, 1, 22, 22, 1, 0 }
  for i = 1, 16 do assert(flat[i] == want[i], "entry " .. i) end
  assert(t:path_name(g[3]) == "machine/package1/gpu2")
  assert(t:find("machine/package1/gpu2") == g[3])
  assert(placement.vertex_kind_name(t:vertex_kind(g[1])) == "gpu")
end)
check("hwloc XML, JSON and cluster", function()
  local x = placement.Topology.from_xml(DATA .. "/topologies/power8gpudistances.xml")
  assert(#x:gpus() == 4 and #x:descendants(-1, placement.VK_PACKAGE) == 2)
  local g = x:gpus()
  assert(x:distance(g[1], g[2]) == 1 and x:distance(g[1], g[3]) == 22)
  local j = placement.Topology.from_json(DATA .. "/topologies/cluster-small.json")
  assert(#j:gpus() == 12)
  local c = placement.Topology.cluster(placement.Topology.builtin("minsky"), 4, 2)
  collectgarbage()
  assert(#c:gpus() == 16)
  assert(c:to_dot():find("^graph topology"))
  assert(#placement.Topology.from_hwloc():descendants(-1, placement.VK_MACHINE) == 1)
end)

-- Placement on the Minsky builtin.
check("placement on minsky", function()
  local t = placement.Topology.builtin("minsky")
  local r = placement.Policy("topo-aware"):place(t, { placement.job("a", 2, 4), placement.job("b", 3),
                                                     placement.job("huge", 5) })
  assert(r[1].kind == "placed" and r[2].kind == "waiting" and r[3].kind == "rejected")
  assert(#r[1].gpus == 2 and t:distance(r[1].gpus[1], r[1].gpus[2]) == 1)
  assert(r[1].comm_cost == 1 and r[1].machine == t:find("machine"))
  r.apply(t)
  local free = 0
  for _, g in ipairs(t:gpus()) do free = free + t:amount(g, placement.RES_UNITS)[3] end
  assert(free == 2)
  local p = placement.Policy("pack"):place(placement.Topology.builtin("minsky"), { placement.job("big", 4) })
  assert(p[1].comm_cost == 90)
end)
check("jobs from JSON", function()
  local s = placement.JobSet.from_json(DATA .. "/jobs/example.json")
  assert(s:count() == 3)
  local j = s:get(1)
  assert(j:name() == "pipeline" and j:traffic(0, 1) == 4.5 and not j:single_node())
end)

-- Lifetime: 10,000 create/free cycles of every class; the collector frees
-- each handle exactly once.
check("no leak over 10000 cycles", function()
  local function cycle(i)
    local t = placement.Topology.cluster(placement.Topology.builtin("minsky"), 2)
    local net = placement.FlowNetwork()
    local a, b = net:add_node(2), net:add_node(-2)
    net:add_arc(a, b, 0, placement.CAP_INF, 3)
    assert(net:solve_cost() == 6)
    local r = placement.Policy():place(t, { placement.job("j" .. i, 2) })
    assert(r[1].kind == "placed")
    pcall(placement.FlowNetwork.from_dimacs_string, "p min x")
    local _ = t:to_dot() .. net:to_dimacs()
  end
  for i = 1, 1000 do cycle(i) end
  collectgarbage("collect")
  local before = rss_kib()
  for i = 1, 10000 do
    cycle(i)
    if i % 500 == 0 then collectgarbage("step") end
  end
  collectgarbage("collect")
  collectgarbage("collect")
  local grown = rss_kib() - before
  print("  RSS growth over 10000 cycles: " .. grown .. " KiB")
  assert(grown < 4096, "RSS grew by " .. grown .. " KiB")
end)

-- The simulator: the SC17 prototype as `placement demo` prints it.
local function proto(policy)
  local t, j = placement.scenario("sc17-proto")
  return placement.Simulator(t, j, { policy = policy }):run()
end
local function near(a, b, tol) return math.abs(a - b) <= tol end

check("simulator scenario names", function()
  local n = placement.scenario_names()
  assert(#n == 4 and n[1] == "sc17-proto" and n[2] == "sc17-s1" and n[3] == "sc17-s2" and n[4] == "drmaestro")
  local t, j = placement.scenario("sc17-s1")
  assert(j:count() == 100 and #t:gpus() == 20)
end)
check("simulator sc17-proto topo-aware-p", function()
  local s = proto("topo-aware-p").summary
  assert(near(s.makespan, 392.9, 0.1), "makespan " .. s.makespan)
  assert(near(s.mean_wait, 74.6, 0.1))
  assert(s.jobs == 6 and s.done == 6 and s.slower_than_ideal == 0 and s.below_min_utility == 0)
  assert(math.type(s.rounds) == "integer")
end)
check("simulator sc17-proto fcfs", function()
  local s = proto("fcfs").summary
  assert(near(s.makespan, 467.2, 0.1), "makespan " .. s.makespan)
  assert(s.slower_than_ideal == 5 and s.below_min_utility == 4)
end)
check("simulator records", function()
  local r = proto("topo-aware-p")
  assert(#r.jobs == 6)
  local first = r.jobs[1]
  assert(first.job == 0 and first.name == "job0" and first.state == "done")
  assert(near(first.arrival, 0.513, 1e-3) and first.start == 1.0 and first.machine == 0)
  assert(near(first.run_time, first.ideal_time, 1e-9) and first.cross_socket == false)
end)
check("simulator determinism", function()
  local t, j = placement.scenario("sc17-s1")
  local a = placement.Simulator(t, j, { policy = "topo-aware" }):run()
  local b = placement.Simulator(t, j, { policy = "topo-aware" }):run()
  assert(near(a.summary.makespan, 1383.7, 0.1) and a.summary.makespan == b.summary.makespan)
  assert(a:to_csv() == b:to_csv())
  for i, rec in ipairs(a.jobs) do assert(rec.finish == b.jobs[i].finish and rec.start == b.jobs[i].start) end
  local path = os.tmpname()
  a:to_csv(path)
  local f = assert(io.open(path))
  local text = f:read("a")
  f:close()
  os.remove(path)
  assert(text == a:to_csv())
end)
check("simulator errors", function()
  raises(function() placement.scenario("sc17-s9") end, "PL_ENOTFOUND", "sc17-proto")
  local t, j = placement.scenario("sc17-proto")
  raises(function() placement.Simulator(t, j, { policy = "nope" }):run() end, "PL_ENOTFOUND")
  raises(function() placement.Simulator(t, j, { interval = 0 }) end, "PL_EINVAL")
  raises(function() placement.Simulator(t, j, { runtime = "fast" }) end, "PL_EINVAL")
end)
check("simulator result outlives its inputs", function()
  local r
  do
    local t, j = placement.scenario("sc17-proto")
    r = placement.Simulator(t, j, { policy = "fcfs" }):run()
  end
  collectgarbage("collect")
  collectgarbage("collect")
  local csv = r:to_csv()
  assert(select(2, csv:gsub("\n", "")) == 7 and csv:find("\n5,job5,done", 1, false))
end)
check("simulator: no leak over 1000 runs", function()
  local s1 = placement.Simulator(placement.scenario("sc17-s1"))
  local function cycle()
    local t, j = placement.scenario("sc17-proto")
    local r = placement.Simulator(t, j):run()
    assert(#r.jobs == 6 and #r:to_csv() > 0)
    assert(#s1:run().jobs == 100)
    pcall(placement.scenario, "nope")
  end
  for _ = 1, 100 do cycle() end
  collectgarbage("collect")
  local before = rss_kib()
  for i = 1, 1000 do
    cycle()
    if i % 100 == 0 then collectgarbage("step") end
  end
  collectgarbage("collect")
  collectgarbage("collect")
  local grown = rss_kib() - before
  print("  RSS growth over 1000 simulator runs: " .. grown .. " KiB")
  assert(grown < 4096, "RSS grew by " .. grown .. " KiB")
end)

print(string.format("lua: %d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
