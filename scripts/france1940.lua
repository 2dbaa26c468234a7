-- France's liberation troops, shared by Europe 1940 and Global 1940 (000 · France, "Troop
-- Bonus"; E40-FRANCE-LIBERATION, G40-FRA-BONUS): "If and when the territory France is liberated
-- by the Allies, the player controlling France immediately places his or her choice of up to 12
-- IPCs' worth of any French units on the France territory for free. This can happen only once
-- per game."
--
-- The choice is asked one unit at a time (a question to France: the unit types that still fit,
-- or `done`), so any mix of land and air units within 12 IPCs can be had. Kept in the layer's
-- store: whether it happened, and what is left to spend while France chooses.
--
--   require("france1940").register({ rule = "E40-FRANCE-LIBERATION", id = "e40_france" })
--     -- handlers ID.liberated and ID.troops; the question's key ID.troops

local M = {}

function M.register(cfg)
assert(type(cfg) == "table" and type(cfg.rule) == "string" and type(cfg.id) == "string",
  "france1940.register expects { rule = ID, id = HANDLER_PREFIX }")
local FRANCE, TERRITORY, BUDGET, KEY = "France", "France", 12, cfg.id .. ".troops"
-- Units that can stand in a territory, in the order offered.
local OFFER = { "infantry", "artillery", "mech_infantry", "tank", "aa_gun", "fighter", "tactical_bomber", "bomber" }

local function ask(game, left)
  local answers = {}
  for _, id in ipairs(OFFER) do
    local t = game:unit_type(id)
    if t and t.cost <= left then
      table.insert(answers, id)
    end
  end
  if #answers == 0 then
    return false
  end
  table.insert(answers, "done")
  game:request({
    command = "choose",
    power = FRANCE,
    key = KEY,
    question = string.format("France is liberated: a French unit placed free in France (%d IPCs left)?", left),
    answers = answers,
  })
  return true
end

warroom.on("territory_captured", { id = cfg.id .. ".liberated", filter = { space = TERRITORY } }, function(ev, game)
  local side = function(p)
    local info = p ~= "" and game:power_info(p) or nil
    return info and info.side
  end
  if warroom.store.troops_placed or side(ev.power) ~= "Allies" or side(ev.previous_owner) ~= "Axis" then
    return
  end
  warroom.store.troops_placed = true
  warroom.store.troops_left = BUDGET
  ask(game, BUDGET)
end)

warroom.on("answer", { id = cfg.id .. ".troops", filter = { key = KEY } }, function(ev, game)
  local left = warroom.store.troops_left or 0
  if ev.answer ~= "done" then
    local t = game:unit_type(ev.answer)
    game:request({ command = "add_units", power = FRANCE, unit = ev.answer, count = 1, space = TERRITORY,
      reason = "France's liberation troops (" .. cfg.rule .. ")" })
    left -= t.cost
    if ask(game, left) then
      warroom.store.troops_left = left
      return
    end
  end
  warroom.store.troops_left = nil
end)
end

return M
