-- HOUSE-BLITZKRIEG. The battle's units come one by one in `ev.combatants`, each with what it
-- did this turn (`did`): the attacking tanks that blitzed fire at 4, for this round only.
local function has(list, word)
  for _, w in ipairs(list) do
    if w == word then
      return true
    end
  end
  return false
end

warroom.on("before_combat_step", { id = "house.blitzkrieg", filter = { step = "attacker_fires" } },
  function(ev, game)
    if ev.combat_round ~= 1 then
      return
    end
    local tanks = {}
    for _, c in ipairs(ev.combatants) do
      if c.side == "attacker" and c.unit == "tank" and c.status == "fighting" and has(c.did, "blitzed") then
        table.insert(tanks, c.id)
      end
    end
    if #tanks > 0 then
      game:request({ command = "combat_value", side = "attacker", units = tanks, value = 4, lasts = "round" })
    end
  end)
