-- Advances whose effect is a rule, not a unit value (001 · Breakthrough Chart 1).

-- "5. War Bonds. During your Collect Income phase, roll 1d6 and collect that many additional
-- IPCs." The engine rolls the die (typed at the table first, if any).
warroom.on("collect_income", { id = "research.war_bonds" }, function(ev, game)
  for _, tech in ipairs(game:power_info(ev.power).techs) do
    if tech == "war_bonds" then
      game:request({ command = "add_ipcs", power = ev.power, dice = 1, reason = "War Bonds" })
    end
  end
end)
