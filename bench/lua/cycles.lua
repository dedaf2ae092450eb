-- bench/cycles.py's client: each wrk thread holds one connection and plays
-- its own games, one after the other: GET the legal commands of the seat to
-- act, POST the first of them. bench/cycles.py fills in the games (each
-- {id, seat, token, seat, token}), the game where the last round left each
-- thread, how many threads there are and this run's part of every
-- Idempotency-Key.
local games = @GAMES@
local resume = @RESUME@
local threads, next_id = {}, 0

setup = function(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

-- per thread
local mine, at, seat, tried = {}, 1, 0, 0  -- seat: 1 or 2 (of the game's pair), 0 while not known
local phase, command, sent = "legal", nil, 0
cycles, failed_list, position = 0, "", ""
local failures = {}

local function note()
  position = string.format("%d %d", id, at)
end

init = function(args)
  for n = id + 1, #games, @THREADS@ do table.insert(mine, n) end  -- a thread's own list is empty here
  -- Which seat is to act is found again: the round may have ended on a
  -- command the server carried out but whose answer was never read.
  at = resume[id] or 1
  note()
end

local function fail(cause)
  failures[cause] = (failures[cause] or 0) + 1
  local parts = {}
  for name, count in pairs(failures) do table.insert(parts, name .. " = " .. count) end
  failed_list = table.concat(parts, "\n")
end

local function next_game()
  at, seat, tried = at + 1, 0, 0
end

-- The first element of the "commands" array, as its JSON text (nil if empty).
local function first_command(body)
  local _, open = body:find('"commands"%s*:%s*%[')
  if not open then return nil end
  local i, n = open + 1, #body
  while i <= n and body:sub(i, i):match("%s") do i = i + 1 end
  if body:sub(i, i) ~= "{" then return nil end
  local depth, in_string, j = 0, false, i
  while j <= n do
    local c = body:byte(j)
    if in_string then
      if c == 92 then j = j + 1 elseif c == 34 then in_string = false end  -- \ escapes, " ends
    elseif c == 34 then in_string = true
    elseif c == 123 then depth = depth + 1
    elseif c == 125 then
      depth = depth - 1
      if depth == 0 then return body:sub(i, j) end
    end
    j = j + 1
  end
  return nil
end

request = function()
  local game = games[mine[at]]
  if game == nil then
    fail("out of games (create more with --games)")
    game = games[mine[#mine]]
  end
  local token = game[1 + 2 * (seat == 0 and 1 + tried or seat)]
  if phase == "command" then
    sent = sent + 1
    return wrk.format("POST", "/v1/games/" .. game[1] .. "/commands",
      {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json",
       ["Idempotency-Key"] = string.format("cycle-@NONCE@-%d-%d", id, sent)}, command)
  end
  return wrk.format("GET", "/v1/games/" .. game[1] .. "/legal-commands", {["Authorization"] = "Bearer " .. token})
end

local function on_legal(status, body)
  if status ~= 200 then
    fail("GET legal-commands answered " .. status .. " " .. (body:match('"type"%s*:%s*"([^"]*)"') or ""))
    return
  end
  command = first_command(body)
  if command ~= nil then
    if seat == 0 then seat = 1 + tried end
    tried, phase = 0, "command"
  elseif seat ~= 0 then
    fail("the seat named to act listed no command")
    seat, tried = 0, 0
  elseif tried == 0 then
    tried = 1  -- the other seat may be the one to act
  else
    next_game()  -- neither seat may act: the game is over
  end
end

local function on_command(status, headers, body)
  phase = "legal"
  if status ~= 200 then
    fail("POST command answered " .. status .. " " .. (body:match('"type"%s*:%s*"([^"]*)"') or ""))
    seat, tried = 0, 0
    return
  end
  if headers["Idempotent-Replayed"] then
    fail("a command answered again for its key")
    return
  end
  cycles = cycles + 1
  -- Keys come sorted: the answer's own status and to_act are the last ones.
  local game_status = body:match('.*"status"%s*:%s*"([%a-]+)"')
  local to_act = body:match('.*"to_act"%s*:%s*%[%s*"([^"]*)"')
  local game = games[mine[at]]
  if game_status ~= "active" then
    next_game()
  elseif to_act == game[2] then seat = 1
  elseif to_act == game[4] then seat = 2
  else seat, tried = 0, 0
  end
end

response = function(status, headers, body)
  if phase == "legal" then on_legal(status, body) else on_command(status, headers, body) end
  note()
end

done = function(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("cycles")
    local failed = thread:get("failed_list")
    if failed ~= "" then
      for line in failed:gmatch("[^\n]+") do io.write("failed: " .. line .. "\n") end
    end
    io.write("at: " .. thread:get("position") .. "\n")
  end
  io.write(string.format("cycles: %d\nduration_us: %d\n", total, summary.duration))
end
