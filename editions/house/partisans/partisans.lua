-- HOUSE-PARTISANS. A territory rises when the board prints it as Soviet, a power of the other
-- side holds it, and no land unit of that side stands in it (air units do not hold ground);
-- `set_control` hands it back, and the occupiers' aircraft there are lost (`remove_units`).
local SOVIET = "Soviet Union"

local function garrisoned(game, space, side)
  for _, u in ipairs(game:units(space)) do
    if game:power_info(u.owner).side == side and game:unit_type(u.unit).domain == "land" then
      return true
    end
  end
  return false
end

warroom.on("turn_begin", { id = "house.partisans", filter = { power = SOVIET } }, function(ev, game)
  local soviet_side = game:power_info(SOVIET).side
  for _, name in ipairs(game:spaces()) do
    local space = game:space(name)
    if space.original_owner == SOVIET and space.owner ~= "" then
      local holder = game:power_info(space.owner).side
      if holder ~= soviet_side and not garrisoned(game, name, holder) then
        game:request({ command = "set_control", space = name, power = SOVIET, reason = "partisans" })
        -- Aircraft of the occupiers there are caught on the ground (none may stay in a
        -- territory of the other side).
        for _, u in ipairs(game:units(name)) do
          if game:power_info(u.owner).side == holder then
            game:request({ command = "remove_units", power = u.owner, unit = u.unit, count = u.count,
              space = name, reason = "partisans" })
          end
        end
      end
    end
  end
end)
