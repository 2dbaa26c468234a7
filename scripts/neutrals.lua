-- Neutral territories' policy, shared by the 1940 second-edition games (000 · Neutral
-- Territories, Strict Neutrals). The engine does the mechanism (game/neutrals.rs): entering a
-- neutral, its army, the side it joins when attacked, friendly neutrals taken in noncombat
-- move. What the attack does to the *other* neutrals is policy, here:
--
--   local neutrals = require("neutrals")
--   neutrals.strict_turn({ rule = "E40-NEUTRAL-STRICT" })
--
-- "An attack by either alliance on a strict neutral territory (whether successful or not) will
-- result in all remaining strict neutrals immediately becoming pro-Allies or pro-Axis, depending
-- on who violated the strict neutral's neutrality." (000 · Strict Neutrals) They stay neutral:
-- friendly to the side they now lean to, unfriendly to the other, never overflown.
-- `never = { Axis = { spaces } }`: those strict neutrals never turn to that side (Mongolia
-- "will never become pro-Axis unless one or more of them is attacked by the Soviet Union"; 000 ·
-- Soviet-Mongolian Defense Pact): `unless = { Axis = "Soviet Union" }` — unless that power's
-- attack on one of them is what turns the neutrals.
local M = {}

function M.strict_turn(cfg)
  assert(type(cfg) == "table" and type(cfg.rule) == "string",
    "neutrals.strict_turn expects { rule = ID, never = { SIDE = { spaces } }?, unless = { SIDE = POWER }? }")
  local never = {}
  for side, spaces in pairs(cfg.never or {}) do
    never[side] = {}
    for _, name in ipairs(spaces) do
      never[side][name] = true
    end
  end
  warroom.on("neutral_attacked", { id = cfg.rule }, function(ev, game)
    if ev.was ~= "" then
      return
    end
    local kept = never[ev.joined] or {}
    local unless = (cfg.unless or {})[ev.joined]
    if unless ~= nil and ev.power == unless and kept[ev.space] then
      kept = {}
    end
    for _, name in ipairs(game:spaces()) do
      local s = game:space(name)
      if s.leaning == "strict" and not s.attacked and not kept[name] then
        game:request({
          command = "set_leaning",
          space = name,
          leaning = ev.joined,
          reason = ev.power .. " attacked " .. ev.space .. ", a strict neutral",
        })
      end
    end
  end)
end

return M
