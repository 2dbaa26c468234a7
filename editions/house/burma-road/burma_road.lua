-- HOUSE-BURMA-ROAD: China's free units include one artillery while the Allies control India,
-- Burma and Yunnan. Two handlers of editions/anniversary/china.lua are replaced by id; a
-- replacement keeps the handler's id, priority, filter (power = China) and place in the order,
-- and only its code changes. Both do what the edition's do (AA50-CHINA-INCOME,
-- AA50-CHINA-PLACE, AA50-CHINA-TIGERS), plus the road.

local CHINA = "China"
local ROAD = { "India", "Burma", "Yunnan" }

local function same_side(game, owner)
  return owner ~= "" and game:power_info(owner).side == game:power_info(CHINA).side
end

-- The road's territories not in Allied hands, in ROAD order (none: the road is open).
local function road_cut(game)
  local cut = {}
  for _, name in ipairs(ROAD) do
    local owner = game:owner(name) or ""
    if not same_side(game, owner) then
      table.insert(cut, owner == "" and name or `{name} ({owner})`)
    end
  end
  return cut
end

-- As the edition counts: the Chinese territories of the board (printed owner China, Kiangsu
-- and Manchuria included) not under Axis control, one unit per two, odd counts rounded down.
warroom.replace_handler("anniversary.AA50-CHINA-INCOME", function(ev, game)
  local all, free = 0, 0
  for _, name in ipairs(game:spaces()) do
    local sp = game:space(name)
    if not sp.sea and sp.original_owner == CHINA then
      all += 1
      if sp.owner == "" or same_side(game, sp.owner) then
        free += 1
      end
    end
  end
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

-- Units China has placed this turn, by territory (one China turn a round). This layer's store:
-- the edition's handler, replaced, no longer keeps its own.
local function placed_before(game, space)
  local p = warroom.store.placed
  if p == nil or p.round ~= game.round then
    return 0
  end
  return p.spaces[space] or 0
end

local function remember_placed(game, space, n)
  local p = warroom.store.placed
  if p == nil or p.round ~= game.round then
    p = { round = game.round, spaces = {} }
    warroom.store.placed = p
  end
  p.spaces[space] = (p.spaces[space] or 0) + n
end

local PLACEABLE = { infantry = true, artillery = true }

-- As the edition places (fewer than three units there before China's new units of the turn),
-- with artillery allowed beside infantry. Artillery comes only from the road; the Flying Tigers
-- fighter is still never replaced.
warroom.replace_handler("anniversary.AA50-CHINA-PLACE", function(ev, game)
  local placing = 0
  for _, u in ipairs(ev.units) do
    if not PLACEABLE[u.unit] then
      return { veto = `China receives only infantry, and artillery by the Burma Road; it never gets a {u.unit} (the Flying Tigers fighter cannot be replaced) [AA50-CHINA-TIGERS]` }
    end
    placing += u.count
  end
  -- `game` shows the board with this placement made.
  local there = 0
  for _, u in ipairs(game:units(ev.space)) do
    there += u.count
  end
  local already = there - placing - placed_before(game, ev.space)
  if already >= 3 then
    return { veto = `{ev.space} already contains {already} units; new Chinese units go only where there were fewer than 3 [AA50-CHINA-PLACE]` }
  end
  remember_placed(game, ev.space, placing)
end)
