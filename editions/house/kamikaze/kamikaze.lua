-- HOUSE-KAMIKAZE. Three moments: the end of an enemy's combat move asks Japan (`choose`); the
-- answer (`answer` event) takes the diving fighters off the board and remembers the strike;
-- the battle's `kamikaze` step rolls their dice (`fire` with `dice`: no fighter is there any
-- more). What the rule remembers is in warroom.store, saved with the game.
local JAPAN = "Japan"

local function fighters_in(game, space)
  local ids = {}
  for _, u in ipairs(game:each_unit(space)) do
    if u.owner == JAPAN and u.unit == "fighter" then
      table.insert(ids, u.id)
    end
  end
  return ids
end

local function state()
  warroom.store.kamikaze = warroom.store.kamikaze or { used = false, asked = {}, strikes = {} }
  return warroom.store.kamikaze
end

warroom.on("phase_end", { id = "house.kamikaze.ask", filter = { phase_kind = "CombatMove" } }, function(ev, game)
  local k = state()
  if k.used or game:relation(ev.power, JAPAN) ~= "war" then
    return
  end
  for _, b in ipairs(game:battles()) do
    local n = #fighters_in(game, b.space)
    if not b.raid and game:space(b.space).sea and n > 0 then
      table.insert(k.asked, b.space)
      game:request({ command = "choose", power = JAPAN, key = "kamikaze",
        question = "Kamikaze strike in " .. b.space .. "? Its " .. n .. " fighter(s) dive (once per game)",
        answers = { "strike", "hold" } })
    end
  end
end)

warroom.on("answer", { id = "house.kamikaze", filter = { key = "kamikaze" } }, function(ev, game)
  local k = state()
  -- Questions are answered in the order asked.
  local space = table.remove(k.asked, 1)
  if ev.answer ~= "strike" or k.used or space == nil then
    return
  end
  local ids = fighters_in(game, space)
  if #ids == 0 then
    return
  end
  k.used = true
  k.strikes[space] = #ids
  game:request({ command = "remove_units", units = ids, reason = "kamikaze" })
end)

warroom.on("before_combat_step", { id = "house.kamikaze.strike", filter = { step = "kamikaze" } }, function(ev, game)
  local dice = state().strikes[ev.space]
  if dice ~= nil and ev.combat_round == 1 then
    game:request({ command = "fire", side = "defender", unit = "fighter", value = 4, dice = dice })
  end
end)

warroom.on("battle_end", { id = "house.kamikaze.done" }, function(ev, game)
  state().strikes[ev.space] = nil
end)
