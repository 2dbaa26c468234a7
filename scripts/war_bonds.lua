-- War Bonds, the research advance of the Anniversary Edition and the 1940 games: "During your
-- Collect Income phase, roll a die and collect that many additional IPCs." The engine rolls
-- the die (typed at the table first, if any).
--
-- A power with two economies (the United Kingdom in Global 1940) collects the bonds once, in
-- the first of its economies that holds its capital: an economy whose capital the enemy holds
-- "can't collect income" (000 · Global United Kingdom Rules).
--
--   require("war_bonds").register({ id = "research.war_bonds", tech = "war_bonds" })
local M = {}

-- Whether `power`'s capital (spaces printed `capital` as its own) is in its side's hands; a
-- power without one never lost it.
local function holds_capital(game, power)
  local side = game:power_info(power).side
  for _, name in ipairs(game:spaces()) do
    local s = game:space(name)
    if s.capital and s.original_owner == power then
      local owner = s.owner ~= "" and game:power_info(s.owner) or nil
      return owner ~= nil and owner.side == side
    end
  end
  return true
end

function M.register(cfg)
  assert(type(cfg) == "table" and type(cfg.id) == "string" and type(cfg.tech) == "string",
    "war_bonds.register expects { id = HANDLER_ID, tech = TECH_ID }")
  warroom.on("collect_income", { id = cfg.id }, function(ev, game)
    local info = game:power_info(ev.power)
    local head = info.economy_of ~= "" and info.economy_of or ev.power
    local holds = false
    for _, tech in ipairs(game:power_info(head).techs) do
      holds = holds or tech == cfg.tech
    end
    if not holds then
      return
    end
    -- The power and its economies, in the order they collect (the power first).
    local economies = { head }
    for _, p in ipairs(game:powers()) do
      if game:power_info(p).economy_of == head then
        table.insert(economies, p)
      end
    end
    for _, p in ipairs(economies) do
      if holds_capital(game, p) then
        if p == ev.power then
          game:request({ command = "add_ipcs", power = ev.power, dice = 1, reason = "War Bonds" })
        end
        return
      end
    end
  end)
end

return M
