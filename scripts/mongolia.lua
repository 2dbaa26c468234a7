-- The Soviet-Mongolian Defense Pact (000 · Global Rules, Additional Rules; G40-MONGOLIA-PACT;
-- 004 · Mongolia): "if Japan attacks any Soviet-controlled territory that is adjacent to any
-- Mongolian territory, all Mongolian territories that are still strict neutral or pro-Allies, or
-- have joined the Allies as a result of a failed Japanese attack, will be placed under the
-- control of the Soviet Union at the end of Japan's Conduct Combat phase ... as though the
-- Soviet Union had moved land units into a friendly neutral territory", whatever the relations
-- of the Soviet Union and Japan, "with one exception: If the Soviet Union has attacked Korea or
-- any Japanese-controlled territory bordering these Mongolian territories while Mongolia was
-- still a strict neutral, Mongolia will remain neutral".
--
-- An attack is a battle or a raid fought there (air alone counts: 004), or the territory taken
-- by moving in. Mongolia never turning pro-Axis save by a Soviet attack is the strict neutrals'
-- policy (scripts/neutrals.lua `never`/`unless`).
--
--   require("mongolia").register({
--     rule = "G40-MONGOLIA-PACT",
--     mongolia = { "Olgiy", ... }, protector = "Soviet Union", aggressor = "Japan", korea = "Korea",
--   })
--
-- Remembered in the layer's store under `mongolia`: `broken` (why the pact will never act),
-- `called` (the attack that calls it, until Japan's Conduct Combat ends), `done`.
local M = {}

function M.register(cfg)
  assert(type(cfg) == "table" and type(cfg.rule) == "string" and type(cfg.mongolia) == "table"
    and type(cfg.protector) == "string" and type(cfg.aggressor) == "string" and type(cfg.korea) == "string",
    "mongolia.register expects { rule, mongolia = { territories }, protector, aggressor, korea }")
  local mongolian = {}
  for _, m in ipairs(cfg.mongolia) do
    mongolian[m] = true
  end
  local bordering = nil -- territories next to Mongolia, not Mongolian: read from the board once
  local function borders(game, name)
    if bordering == nil then
      bordering = {}
      for _, m in ipairs(cfg.mongolia) do
        local s = game:space(m)
        for _, a in ipairs(s and s.adjacent or {}) do
          local as = game:space(a)
          if as and not as.sea and not mongolian[a] then
            bordering[a] = true
          end
        end
      end
    end
    return bordering[name] == true
  end
  local function memory()
    warroom.store.mongolia = warroom.store.mongolia or {}
    return warroom.store.mongolia
  end
  -- Mongolia still a strict neutral: one of its territories no power holds is.
  local function still_strict(game)
    for _, m in ipairs(cfg.mongolia) do
      local s = game:space(m)
      if s and s.leaning == "strict" and not s.attacked then
        return true
      end
    end
    return false
  end

  -- `attacker` attacks `space`, held by `holder` until now.
  local function attacked(game, attacker, space, holder)
    local mem = memory()
    if mem.done or mem.broken then
      return
    end
    if attacker == cfg.aggressor and holder == cfg.protector and borders(game, space) then
      mem.called = mem.called or string.format("%s attacked %s in round %d", attacker, space, game.round)
    elseif attacker == cfg.protector and holder == cfg.aggressor
      and (space == cfg.korea or borders(game, space)) and still_strict(game) then
      mem.broken = string.format("%s attacked %s in round %d while Mongolia was strict", attacker, space, game.round)
    end
  end

  warroom.on("after_combat_step", { id = cfg.rule .. ".battles" }, function(ev, game)
    -- Held by the defender until the battle is decided.
    attacked(game, ev.attacker, ev.space, game:owner(ev.space) or "")
  end)
  warroom.on("territory_captured", { id = cfg.rule .. ".captures" }, function(ev, game)
    attacked(game, ev.power, ev.space, ev.previous_owner)
  end)

  warroom.on("phase_end", { id = cfg.rule, filter = { power = cfg.aggressor, phase_kind = "ConductCombat" } }, function(ev, game)
    local mem = memory()
    if mem.done or mem.broken or not mem.called then
      return
    end
    mem.done = true
    for _, m in ipairs(cfg.mongolia) do
      local s = game:space(m)
      local side = game:power_info(cfg.protector).side
      -- Strict, leaning to the protector's side, or joined to it after a failed attack.
      if s and s.owner == "" and (s.leaning == "strict" or s.leaning == side) then
        game:request({ command = "take_neutral", space = m, power = cfg.protector,
          reason = "the Soviet-Mongolian pact: " .. mem.called })
      end
    end
  end)

  -- `report mongolia`: whether the pact stands.
  warroom.on("report", { id = cfg.rule .. ".report", filter = { report = "mongolia" } }, function(_, _)
    local mem = warroom.store.mongolia or {}
    if mem.done then
      warroom.log("the Soviet-Mongolian pact has acted: " .. (mem.called or ""))
    elseif mem.broken then
      warroom.log("the Soviet-Mongolian pact will never act: " .. mem.broken)
    elseif mem.called then
      warroom.log("the Soviet-Mongolian pact is called (" .. mem.called .. "): Mongolia joins at the end of Conduct Combat")
    else
      warroom.log("the Soviet-Mongolian pact stands: a Japanese attack on a Soviet territory bordering Mongolia brings Mongolia to the Soviet Union")
    end
  end)
end

return M
