-- HOUSE-TEN-CITIES. `victory_check` fires after each power's turn; the round is complete when
-- the power whose turn ended is the last of the turn order, which the game view does not give,
-- so the rule names it (the Anniversary Edition's order ends with the United States).
local NEEDED = 10
local SIDE = "Axis"
local LAST = "United States"

warroom.on("victory_check", { id = "house.ten_cities", filter = { power = LAST } }, function(ev, game)
  local held = 0
  for _, name in ipairs(game:spaces()) do
    local space = game:space(name)
    if space.victory_city ~= "" and space.owner ~= "" and game:power_info(space.owner).side == SIDE then
      held = held + 1
    end
  end
  if held >= NEEDED then
    game:request({ command = "declare_winner", side = SIDE,
      reason = string.format("%d victory cities at the end of round %d", held, ev.round) })
  end
end)
