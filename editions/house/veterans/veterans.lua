-- HOUSE-VETERANS. A tag kept on each unit (`mark`) says it is a veteran; the battle's payload
-- lists every unit with its tags (`ev.combatants`), so the first round's attack can raise
-- exactly those units (`combat_value` naming them) and spend their tag (`clear_mark`).
warroom.on("battle_end", { id = "house.veterans", filter = { outcome = "attacker_won" } }, function(ev, game)
  local survivors = {}
  for _, c in ipairs(ev.combatants) do
    if c.side == "attacker" and c.status == "fighting" and game:unit_type(c.unit).domain == "land" then
      table.insert(survivors, c.id)
    end
  end
  if #survivors > 0 then
    game:request({ command = "mark", units = survivors, tag = "veteran", reason = "won in " .. ev.space })
  end
end)

warroom.on("before_combat_step", { id = "house.veterans.attack", filter = { step = "attacker_fires" } },
  function(ev, game)
    if ev.combat_round ~= 1 then
      return
    end
    local spent = {}
    for _, c in ipairs(ev.combatants) do
      if c.side == "attacker" and c.status == "fighting" and (c.tags.veteran or 0) > 0 then
        local attack = game:unit_type(c.unit).attack
        game:request({ command = "combat_value", side = "attacker", units = { c.id },
          value = math.min(attack + 1, 6), lasts = "round" })
        table.insert(spent, c.id)
      end
    end
    if #spent > 0 then
      game:request({ command = "clear_mark", units = spent, tag = "veteran", reason = "veterans attack" })
    end
  end)
