-- HOUSE-BURMA-ROAD: China's free units include one artillery while the Allies control India,
-- Burma and Yunnan. Two handlers of editions/anniversary/china.lua are replaced by id; a
-- replacement keeps the handler's id, priority, filter (power = China) and place in the order,
-- and only its code changes. Both do what the edition's do (AA50-CHINA-INCOME,
-- AA50-CHINA-PLACE, AA50-CHINA-TIGERS) with the edition's own parts (scripts/china_rules.lua),
-- plus the road.

local C = require("china_rules")
local CHINA = C.POWER
local ROAD = { "India", "Burma", "Yunnan" }

-- The road's territories not in Allied hands (none: the road is open), in ROAD order.
local function road_cut(game)
  local side = game:power_info(CHINA).side
  local cut = {}
  for _, name in ipairs(ROAD) do
    local owner = game:owner(name)
    if owner == nil then
      table.insert(cut, name)
    elseif game:power_info(owner).side ~= side then
      table.insert(cut, `{name} ({owner})`)
    end
  end
  return cut
end

-- The edition's count (one unit per two Chinese territories free of Axis control, odd counts
-- rounded down); with the road open, one of the units is an artillery.
warroom.replace_handler("anniversary.AA50-CHINA-INCOME", function(ev, game)
  local free, all = C.free(game)
  local count = free // 2
  if count == 0 then
    return
  end
  local why = `{free} of the {all} Chinese territories free of Axis control, one per two`
  local cut = road_cut(game)
  if #cut > 0 then
    game:request({ command = "grant", power = CHINA, unit = "infantry", count = count,
      reason = `{why}; the Burma Road is closed: {table.concat(cut, ", ")} not in Allied hands [HOUSE-BURMA-ROAD]` })
    return
  end
  if count > 1 then
    game:request({ command = "grant", power = CHINA, unit = "infantry", count = count - 1, reason = why })
  end
  game:request({ command = "grant", power = CHINA, unit = "artillery", count = 1,
    reason = `{why}; the Burma Road is open: the Allies control India, Burma and Yunnan [HOUSE-BURMA-ROAD]` })
end)

local PLACEABLE = { infantry = true, artillery = true }

-- The edition's placement (fewer than three units there before China's new units of the turn),
-- with artillery beside infantry. Artillery comes only by the road; the Flying Tigers fighter
-- is still never replaced. (What has been placed this turn is now kept in this layer's store.)
warroom.replace_handler("anniversary.AA50-CHINA-PLACE", function(ev, game)
  for _, u in ipairs(ev.units) do
    if not PLACEABLE[u.unit] then
      return { veto = `China receives only infantry, and artillery by the Burma Road; it never gets a {u.unit} (the Flying Tigers fighter cannot be replaced) [AA50-CHINA-TIGERS]` }
    end
  end
  return C.stacking_veto(ev, game)
end)
