-- China in the 1940 second-edition games (003 · China; 004 · China; Pacific 1940 and Global
-- 1940). What is data is the edition's powers.toml: China's units move only within the Chinese
-- territories, Kwangtung and Burma (`confined_to`; the Flying Tigers fighter too), never board
-- transports (`board_transports`), enter play in any territory China controls with no factory
-- (`mobilize_at`), and China suffers no convoy losses (`convoy_losses`). It has no capital, so
-- nobody takes its IPCs and it never skips a phase for want of one; Kwangtung and Burma it
-- retakes go back to the United Kingdom unless Calcutta is in enemy hands (the engine's
-- liberation rule). What has logic is here:
--
--   require("china1940").register({
--     rule = "P40-CHINA",                    -- handler ids: RULE-BUY, RULE-PLACE, RULE-IC
--     china = "China",
--     burma_road = { "India", "Burma", "Yunnan", "Szechwan" },  -- Allied-held: the road is open
--     complexes = { "minor_industrial_complex", "major_industrial_complex" },
--   })
local M = {}

function M.register(cfg)
  assert(type(cfg) == "table" and type(cfg.rule) == "string" and type(cfg.china) == "string"
    and type(cfg.burma_road) == "table" and type(cfg.complexes) == "table",
    "china1940.register expects { rule, china, burma_road = { spaces }, complexes = { facility ids } }")
  local CHINA = cfg.china
  local complex = {}
  for _, f in ipairs(cfg.complexes) do
    complex[f] = true
  end

  local function side_of(game, power)
    local info = power ~= nil and power ~= "" and game:power_info(power) or nil
    return info and info.side or nil
  end

  -- "Allied powers must control India, Burma, Yunnan, and Szechwan" (003: the Burma Road).
  local function road_open(game)
    local closed = {}
    for _, s in ipairs(cfg.burma_road) do
      if side_of(game, game:owner(s)) ~= "Allies" then
        table.insert(closed, s)
      end
    end
    return #closed == 0, closed
  end

  -- "China may spend IPCs only to purchase infantry units (with one exception, see below) and
  -- does not use industrial complexes"; "China is also permitted to purchase artillery" while
  -- the Burma Road is open (003). Nothing else: no facilities, no fighter (the Flying Tigers
  -- "cannot be replaced").
  warroom.on("validate_purchase", { id = cfg.rule .. "-BUY", filter = { power = CHINA } }, function(ev, game)
    for _, u in ipairs(ev.units) do
      if u.unit == "artillery" then
        local open, closed = road_open(game)
        if not open then
          return { veto = "China buys artillery only while the Burma Road is open: the Allies do not hold "
            .. table.concat(closed, ", ") }
        end
      elseif u.unit ~= "infantry" then
        return { veto = `China buys only infantry (and artillery while the Burma Road is open), never a {u.unit}` }
      end
    end
  end)

  -- "New Chinese units can be mobilized on any Chinese territory that is controlled by China,
  -- including those captured in the current turn" (003): not in Kwangtung or Burma.
  warroom.on("validate_placement", { id = cfg.rule .. "-PLACE", filter = { power = CHINA } }, function(ev, game)
    local sp = game:space(ev.space)
    if sp == nil or sp.original_owner ~= CHINA then
      return { veto = `China's new units enter play only in Chinese territories it controls; {ev.space} is not Chinese` }
    end
  end)

  -- "If a Japanese industrial complex is built on a Chinese territory and that territory is later
  -- recaptured by the Chinese or liberated by another Allied power, the industrial complex is
  -- removed from the game" (003; P40-IC-CHINA).
  warroom.on("territory_captured", { id = cfg.rule .. "-IC" }, function(ev, game)
    local sp = game:space(ev.space)
    if sp == nil or sp.original_owner ~= CHINA or side_of(game, ev.power) ~= "Allies" then
      return
    end
    for _, f in ipairs(sp.facilities) do
      if complex[f] then
        game:request({
          command = "remove_facility",
          space = ev.space,
          facility = f,
          reason = "a Japanese complex in a Chinese territory the Allies took back",
        })
      end
    end
  end)
end

return M
