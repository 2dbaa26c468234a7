-- Kamikaze attacks of the 1940 second-edition games (003 · Kamikaze; 004 · Kamikazes; Pacific
-- 1940 and Global 1940). The engine gives the means: the board's kamikaze zones (sea zones with
-- `tags = ["kamikaze"]`), Japan's tokens (`[powers.Japan] counters = { kamikaze = 6 }`), the
-- `strike` request (a die at a unit, outside any battle) and `no_bombardment`. The rule is here:
--
-- "At the end of Japan's enemy's combat-move phase, Japan may target any surface warship in a
-- Kamikaze zone for one or more Kamikaze attacks, ONLY if the enemy is attacking Japanese units
-- there or is conducting an Amphibious Assault from that sea zone. For each attack, a die is
-- rolled, and a 2 or less is considered a hit. Casualties are removed immediately, and do not
-- participate in any battles. Kamikaze attacks prevent bombardment as well." (003) One token an
-- attack; a single attack in a zone stops all bombardment from it this turn, hit or miss (004).
--
-- Japan's player is asked when the enemy orders its first battle (`battles_begin`: after the
-- scrambles, before any die; that `fight` waits and is given again once the kamikazes are
-- done), zone by zone, one attack at a time: `answer "battleship #12"` or
-- `answer done`, and after each die `answer another` or `answer done` (a ship the die sank is
-- no target any more; with none left the zone is over, and in the last zone nothing more is
-- asked). The tokens spent are kept in the layer's store (so in saves).
--
--   require("kamikaze1940").register({ rule = "P40-KAMIKAZE", japan = "Japan" })
--   -- optional: token = "kamikaze" (the counter), zone_tag = "kamikaze", hit = 2,
--   --           target_tag = "surface_warship"
local M = {}

function M.register(cfg)
  assert(type(cfg) == "table" and type(cfg.rule) == "string" and type(cfg.japan) == "string",
    "kamikaze1940.register expects { rule = ID, japan = POWER }")
  local JAPAN = cfg.japan
  local TOKEN = cfg.token or "kamikaze"
  local ZONE_TAG = cfg.zone_tag or "kamikaze"
  local HIT = cfg.hit or 2
  local TARGET_TAG = cfg.target_tag or "surface_warship"
  local KEY = cfg.rule

  local zones = nil -- the kamikaze zones, read from the board once
  local function kamikaze_zones(game)
    if zones == nil then
      zones = {}
      for _, name in ipairs(game:spaces()) do
        local s = game:space(name)
        for _, t in ipairs(s and s.tags or {}) do
          if t == ZONE_TAG then
            zones[name] = true
          end
        end
      end
    end
    return zones
  end

  local target_kind = {}
  local function is_target_kind(game, unit)
    if target_kind[unit] == nil then
      local t = game:unit_type(unit)
      local yes = false
      for _, tag in ipairs(t and t.tags or {}) do
        if tag == TARGET_TAG then
          yes = true
        end
      end
      target_kind[unit] = yes
    end
    return target_kind[unit]
  end

  local function state()
    warroom.store.kamikaze = warroom.store.kamikaze or { used = 0, queue = {} }
    return warroom.store.kamikaze
  end

  local function tokens_left(game)
    local info = game:power_info(JAPAN)
    local have = info and info.counters[TOKEN] or 0
    return have - state().used
  end

  -- The surface warships of Japan's enemies in the zone: "battleship #12" -> id.
  local function targets(game, zone)
    local list, by_label = {}, {}
    for _, u in ipairs(game:each_unit(zone)) do
      if u.owner ~= JAPAN and game:relation(u.owner, JAPAN) == "war" and is_target_kind(game, u.unit) then
        local t = game:unit_type(u.unit)
        local label = string.format("%s%s #%d", u.damage > 0 and "damaged " or "", string.lower(t.name), u.id)
        table.insert(list, label)
        by_label[label] = u.id
      end
    end
    return list, by_label
  end

  -- Ask about the first zone of the queue that still has a target, while tokens are left.
  local function ask(game)
    local k = state()
    while #k.queue > 0 do
      local left = tokens_left(game)
      if left <= 0 then
        k.queue = {}
        return
      end
      local zone = k.queue[1]
      local list = targets(game, zone)
      if #list > 0 then
        local answers = {}
        for i = 1, math.min(#list, 9) do
          table.insert(answers, list[i])
        end
        table.insert(answers, "done")
        game:request({ command = "choose", power = JAPAN, key = KEY,
          question = string.format("Kamikaze attack in %s (%d token%s left): a die at which surface warship (a hit on %d or less)?",
            zone, left, left == 1 and "" or "s", HIT),
          answers = answers })
        return
      end
      table.remove(k.queue, 1)
    end
  end

  -- An enemy's battles begin (its combat move is over and the defenders' scrambles are
  -- declared: "Scrambling is announced first, then Kamikazes are announced, both before any dice
  -- are rolled", 004): the kamikaze zones where it attacks Japanese units, or from which it
  -- makes an amphibious assault.
  warroom.on("battles_begin", { id = KEY .. ".zones" }, function(ev, game)
    if ev.power == JAPAN or game:relation(ev.power, JAPAN) ~= "war" or tokens_left(game) <= 0 then
      return
    end
    local kz = kamikaze_zones(game)
    local found, seen = {}, {}
    local function add(zone)
      if kz[zone] and not seen[zone] then
        seen[zone] = true
        table.insert(found, zone)
      end
    end
    for _, b in ipairs(game:battles()) do
      if not b.raid then
        if kz[b.space] then
          for _, u in ipairs(game:units(b.space)) do
            if u.owner == JAPAN then
              add(b.space)
            end
          end
        end
        for _, z in ipairs(b.amphibious_from) do
          add(z)
        end
      end
    end
    if #found == 0 then
      return
    end
    table.sort(found)
    local k = state()
    k.queue = found
    k.stopped = {}
    ask(game)
  end)

  warroom.on("answer", { id = KEY, filter = { key = KEY } }, function(ev, game)
    local k = state()
    local zone = k.queue[1]
    if zone == nil then
      return
    end
    if ev.answer == "done" then
      table.remove(k.queue, 1)
      ask(game)
      return
    end
    if ev.answer == "another" then
      -- Asked after the last attack's die was rolled: the targets are read afresh (a ship sunk
      -- is gone; with none left the zone is done).
      ask(game)
      return
    end
    local _, by_label = targets(game, zone)
    local id = by_label[ev.answer]
    if id == nil or tokens_left(game) <= 0 then
      ask(game)
      return
    end
    k.used += 1
    local left = tokens_left(game)
    game:request({ command = "strike", power = JAPAN, units = { id }, value = HIT,
      reason = string.format("kamikaze attack in %s; %d token%s left", zone, left, left == 1 and "" or "s") })
    k.stopped = k.stopped or {}
    if not k.stopped[zone] then
      k.stopped[zone] = true
      game:request({ command = "no_bombardment", space = zone, reason = "a kamikaze attack" })
    end
    if left <= 0 then
      k.queue = {}
      return
    end
    -- The die is rolled once this handler returns: whether the ship survives is not known yet,
    -- so the next target is asked for after a yes. In the last zone queued the question stands
    -- only while a target is left (`while_units`); with more zones to come it is asked anyway, so
    -- that their turn comes (`done` or `another` with nothing left moves on).
    local question = { command = "choose", power = JAPAN, key = KEY,
      question = string.format("Kamikaze attacks in %s (%d token%s left): another?", zone, left, left == 1 and "" or "s"),
      answers = { "another", "done" } }
    if #k.queue == 1 then
      local ids = {}
      for _, target in pairs(by_label) do
        table.insert(ids, target)
      end
      table.sort(ids)
      question.while_units = ids
    end
    game:request(question)
  end)
end

return M
