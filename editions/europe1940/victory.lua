-- How Europe 1940 is won (000 · How the War Is Won; Winning the Game; Capturing and Liberating
-- Capitals). A policy rule, so a script: the engine's `[victory]` data holds a count at one
-- moment, this one a count held for a complete round.
--
-- The Axis win holding at least 8 of the 11 victory cities continuously for a complete round
-- (from the end of one Axis power's turn to the start of its next), with Berlin or Rome at the
-- end of it; the Allies win holding Berlin and Rome for a complete round, with Washington,
-- London, Paris or Moscow at the end of it. "Checked at the start of each Axis (resp. Allied)
-- power's turn": at the end of the turn before it (`victory_check`). A side holding the cities
-- for the round but no capital of its own may still win by taking one back during that
-- power's turn: checked again as the turn ends.
--
-- Kept in this layer's store (so in saves): how many turns have ended, and since which one
-- each side's cities have held.

local TURN_ORDER = { "Germany", "Soviet Union", "United States", "United Kingdom", "Italy", "France" }
local AXIS_CITIES = 8
local AXIS_CAPITALS = { "Berlin", "Rome" }
local ALLIED_TARGETS = { "Berlin", "Rome" }
local ALLIED_CAPITALS = { "Washington", "London", "Paris", "Moscow" }

local cities = nil -- victory city name -> territory, read from the board once

local function city_spaces(game)
  if cities == nil then
    cities = {}
    for _, name in ipairs(game:spaces()) do
      local s = game:space(name)
      if s and s.victory_city ~= "" then
        cities[s.victory_city] = name
      end
    end
  end
  return cities
end

local function side_of(game, power)
  local info = power ~= "" and game:power_info(power) or nil
  return info and info.side or nil
end

local function holds(game, side, city)
  local space = city_spaces(game)[city]
  return space ~= nil and side_of(game, game:owner(space) or "") == side
end

local function any_held(game, side, list)
  for _, c in ipairs(list) do
    if holds(game, side, c) then
      return true
    end
  end
  return false
end

local function count(game, side)
  local n = 0
  for city in pairs(city_spaces(game)) do
    if holds(game, side, city) then
      n += 1
    end
  end
  return n
end

-- The cities' part of each side's condition, as it stands now.
local function cities_held(game, side)
  if side == "Axis" then
    return count(game, "Axis") >= AXIS_CITIES
  end
  for _, c in ipairs(ALLIED_TARGETS) do
    if not holds(game, "Allies", c) then
      return false
    end
  end
  return true
end

local function capital_held(game, side)
  return any_held(game, side, side == "Axis" and AXIS_CAPITALS or ALLIED_CAPITALS)
end

local function next_power(power)
  for i, p in ipairs(TURN_ORDER) do
    if p == power then
      return TURN_ORDER[i % #TURN_ORDER + 1]
    end
  end
  return nil
end

local function reason(game, side)
  if side == "Axis" then
    return string.format("%d victory cities held for a complete round, with Berlin or Rome", count(game, "Axis"))
  end
  return "Berlin and Rome held for a complete round, with an Allied capital"
end

warroom.on("game_setup", { id = "e40_victory.check" }, function(_, game)
  for _, p in ipairs(TURN_ORDER) do
    if game:power_info(p) == nil then
      error("victory.lua names " .. p .. ", not a power of this edition", 0)
    end
  end
  local n = 0
  for _ in pairs(city_spaces(game)) do
    n += 1
  end
  if n ~= 11 then
    error(string.format("victory.lua: the board has %d victory cities, the rulebook 11", n), 0)
  end
end)

warroom.on("victory_check", { id = "e40_victory" }, function(ev, game)
  local v = warroom.store.victory or { checks = 0 }
  v.checks += 1
  for _, side in ipairs({ "Axis", "Allies" }) do
    local key = side == "Axis" and "axis_since" or "allies_since"
    if cities_held(game, side) then
      if v[key] == nil then
        v[key] = v.checks
        v[key .. "_at"] = string.format("the end of %s's turn in round %d", ev.power, ev.round)
      end
    else
      v[key] = nil
      v[key .. "_at"] = nil
    end
  end
  -- A side whose round was complete at the start of this power's turn but held no capital
  -- of its own: taken back during the turn, it wins now.
  if v.pending == ev.power then
    local side = side_of(game, ev.power)
    v.pending = nil
    if cities_held(game, side) and capital_held(game, side) then
      warroom.store.victory = v
      game:request({ command = "declare_winner", side = side, reason = reason(game, side) })
      return
    end
  end
  local nxt = next_power(ev.power)
  local side = nxt and side_of(game, nxt)
  local since = side == "Axis" and v.axis_since or (side == "Allies" and v.allies_since or nil)
  -- Held since the end of this power's last turn: #TURN_ORDER - 1 turns ago.
  if since ~= nil and since <= v.checks - (#TURN_ORDER - 1) then
    if capital_held(game, side) then
      warroom.store.victory = v
      game:request({ command = "declare_winner", side = side, reason = reason(game, side) })
      return
    end
    v.pending = nxt
  end
  warroom.store.victory = v
end)

-- `report victory` (and `status`): where each side stands.
local function report(_, game)
  local v = warroom.store.victory or {}
  local axis = count(game, "Axis")
  local line = string.format("victory: the Axis hold %d of 11 victory cities (8 to win)", axis)
  if v.axis_since_at then
    line = line .. ", 8 or more since " .. v.axis_since_at
  end
  warroom.log(line .. ";")
  local held = {}
  for _, c in ipairs(ALLIED_TARGETS) do
    if holds(game, "Allies", c) then
      table.insert(held, c)
    end
  end
  line = string.format("  the Allies hold %s of Berlin and Rome", #held == 0 and "neither" or table.concat(held, " and "))
  if v.allies_since_at then
    line = line .. ", both since " .. v.allies_since_at
  end
  warroom.log(line .. " (a complete round wins, with a capital of the side)")
end

warroom.on("report", { id = "e40_victory.report", filter = { report = "victory" } }, report)
warroom.on("report", { id = "e40_victory.status", filter = { report = "status" } }, report)
