-- How the 1940 second-edition games are won, shared by Europe, Pacific and Global 1940: a side
-- wins holding its victory cities continuously for a complete round (from the end of one of its
-- powers' turns to the start of its next), with a capital of its own at the end of it. "Checked
-- at the start of each power's turn": at the end of the turn before it (`victory_check`). A
-- side holding the cities for the round but no capital of its own may still win by taking one
-- back during that power's turn: checked again as the turn ends. A policy rule, so a script: the
-- engine's `[victory]` data holds a count at one moment, this one a count held for a round.
--
--   require("victory1940").register({
--     id = "e40_victory",                      -- handler ids: ID, ID.check, ID.report, ID.status
--     turn_order = { "Germany", ... },         -- the scenario's
--     cities = 11,                             -- victory cities on the board (checked)
--     axis = { cities = 8, capitals = { "Berlin", "Rome" } },
--     allies = { targets = { "Berlin", "Rome" }, capitals = { "Washington", ... } },
--   })
--
-- Global 1940 counts the Axis' cities per map (the spaces' `map`): `axis = { maps = { europe = 8,
-- pacific = 6 }, capitals = {...} }` — enough cities on either map, held for the round.
--
-- Kept in the layer's store (so in saves) under `victory`: how many turns have ended, and since
-- which one each side's cities have held.
local M = {}

function M.register(cfg)
  local TURN_ORDER = cfg.turn_order
  local AXIS_CITIES = cfg.axis.cities
  local AXIS_MAPS = cfg.axis.maps -- map name -> cities needed there (instead of `cities`)
  local MAP_NAMES = {} -- AXIS_MAPS' names, sorted
  for m in pairs(AXIS_MAPS or {}) do
    table.insert(MAP_NAMES, m)
  end
  table.sort(MAP_NAMES)
  local AXIS_CAPITALS = cfg.axis.capitals
  local ALLIED_TARGETS = cfg.allies.targets
  local ALLIED_CAPITALS = cfg.allies.capitals
  local TOTAL = cfg.cities
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

  -- The cities `side` holds (on `map` only, if given).
  local function count(game, side, map)
    local n = 0
    for city, space in pairs(city_spaces(game)) do
      if holds(game, side, city) and (map == nil or game:space(space).map == map) then
        n += 1
      end
    end
    return n
  end

  -- The maps whose count the Axis meets now (one entry, "", without per-map counts).
  local function axis_maps_met(game)
    local met = {}
    if AXIS_MAPS == nil then
      if count(game, "Axis") >= AXIS_CITIES then
        table.insert(met, "")
      end
      return met
    end
    for _, m in ipairs(MAP_NAMES) do
      if count(game, "Axis", m) >= AXIS_MAPS[m] then
        table.insert(met, m)
      end
    end
    return met
  end

  -- The cities' part of each side's condition, as it stands now.
  local function cities_held(game, side)
    if side == "Axis" then
      return #axis_maps_met(game) > 0
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

  -- "A, B and C".
  local function listed(list)
    if #list <= 2 then
      return table.concat(list, " and ")
    end
    return table.concat(list, ", ", 1, #list - 1) .. " and " .. list[#list]
  end

  local function reason(game, side)
    if side == "Axis" and AXIS_MAPS ~= nil then
      local m = axis_maps_met(game)[1]
      return string.format("%d victory cities of the %s map held for a complete round, with %s", count(game, "Axis", m), m, table.concat(AXIS_CAPITALS, " or "))
    end
    if side == "Axis" then
      return string.format("%d victory cities held for a complete round, with %s", count(game, "Axis"), table.concat(AXIS_CAPITALS, " or "))
    end
    return listed(ALLIED_TARGETS) .. " held for a complete round, with an Allied capital"
  end

  warroom.on("game_setup", { id = cfg.id .. ".check" }, function(_, game)
    for _, p in ipairs(TURN_ORDER) do
      if game:power_info(p) == nil then
        error(cfg.id .. " names " .. p .. ", not a power of this edition", 0)
      end
    end
    local n = 0
    for _ in pairs(city_spaces(game)) do
      n += 1
    end
    if n ~= TOTAL then
      error(string.format("%s: the board has %d victory cities, the rules %d", cfg.id, n, TOTAL), 0)
    end
  end)

  warroom.on("victory_check", { id = cfg.id }, function(ev, game)
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
    local line
    if AXIS_MAPS ~= nil then
      local parts = {}
      for _, m in ipairs(MAP_NAMES) do
        local total = 0
        for _, space in pairs(city_spaces(game)) do
          if game:space(space).map == m then
            total += 1
          end
        end
        table.insert(parts, string.format("%d of %d on the %s map (%d to win)", count(game, "Axis", m), total, m, AXIS_MAPS[m]))
      end
      line = "victory: the Axis hold " .. table.concat(parts, ", ")
      if v.axis_since_at then
        line = line .. ", enough since " .. v.axis_since_at
      end
    else
      line = string.format("victory: the Axis hold %d of %d victory cities (%d to win)", axis, TOTAL, AXIS_CITIES)
      if v.axis_since_at then
        line = line .. string.format(", %d or more since ", AXIS_CITIES) .. v.axis_since_at
      end
    end
    warroom.log(line .. ";")
    local held = {}
    for _, c in ipairs(ALLIED_TARGETS) do
      if holds(game, "Allies", c) then
        table.insert(held, c)
      end
    end
    local none = #ALLIED_TARGETS == 2 and "neither of" or "none of"
    local targets = listed(ALLIED_TARGETS)
    if #held == 0 and #ALLIED_TARGETS == 1 then
      line = "  the Allies do not hold " .. targets
    elseif #held == 0 then
      line = string.format("  the Allies hold %s %s", none, targets)
    elseif #ALLIED_TARGETS == 1 then
      line = "  the Allies hold " .. targets
    else
      line = string.format("  the Allies hold %s of %s", listed(held), targets)
    end
    if v.allies_since_at then
      line = line .. (#ALLIED_TARGETS == 1 and ", since " or (#ALLIED_TARGETS == 2 and ", both since " or ", all since ")) .. v.allies_since_at
    end
    warroom.log(line .. " (a complete round wins, with a capital of the side)")
  end

  warroom.on("report", { id = cfg.id .. ".report", filter = { report = "victory" } }, report)
  warroom.on("report", { id = cfg.id .. ".status", filter = { report = "status" } }, report)
end

return M
