-- bench/cycles.py's baseline client: each wrk thread's one connection asks
-- the bare Flask app a GET, then POSTs a command-sized JSON body, in turn.
local threads = {}
setup = function(thread) table.insert(threads, thread) end

local asked = "POST"
cycles, failed_list = 0, ""
local failures = 0

request = function()
  if asked == "POST" then
    asked = "GET"
    return wrk.format("GET", "/ping", {["Authorization"] = "Bearer bare"})
  end
  asked = "POST"
  return wrk.format("POST", "/ping", {["Authorization"] = "Bearer bare", ["Content-Type"] = "application/json",
                                      ["Idempotency-Key"] = "bare"}, '{"type": "PlaceMember", "crossing": "X01"}')
end

response = function(status, headers, body)
  if status ~= 200 then
    failures = failures + 1
    failed_list = "bare Flask answered not 200 = " .. failures
  elseif asked == "POST" then
    cycles = cycles + 1
  end
end

done = function(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("cycles")
    if thread:get("failed_list") ~= "" then io.write("failed: " .. thread:get("failed_list") .. "\n") end
  end
  io.write(string.format("cycles: %d\nduration_us: %d\n", total, summary.duration))
end
