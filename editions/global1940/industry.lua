-- G40-US-IC (000 · Additional Rules): "The industrial complexes in Eastern United States,
-- Central United States, and Western United States begin the game as minor complexes. They are
-- upgraded to major complexes at no cost when the United States enters a state of war and may
-- be used as such immediately." Any declaration that puts the United States at war does it (its
-- own, or an Axis power's on it); a complex upgraded before, or no longer American, is left.
local US = "United States"
local COMPLEXES = { "Eastern United States", "Central United States", "Western United States" }

local function names(list, name)
  for _, p in ipairs(list) do
    if p == name then
      return true
    end
  end
  return false
end

warroom.on("war_declared", { id = "global1940.G40-US-IC" }, function(ev, game)
  if not (names(ev.declarers, US) or names(ev.targets, US)) then
    return
  end
  for _, t in ipairs(COMPLEXES) do
    local space = game:space(t)
    if space.owner == US and names(space.facilities, "minor_industrial_complex") then
      game:request({ command = "replace_facility", space = t, facility = "minor_industrial_complex",
        to = "major_industrial_complex", reason = "the United States at war" })
    end
  end
end)
