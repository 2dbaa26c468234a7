-- The Dutch territories of the 1940 second-edition games (003: the United Kingdom "may move
-- units into Dutch territories as a noncombat movement at any time, as long as those territories
-- have not been captured by an Axis power. It may actually take control of Dutch territories
-- gaining their IPC income by moving land units into them"; ANZAC likewise; 004 · The Dutch).
-- The Dutch are a power of their own with no turn (`at_war_off_map` in Pacific 1940, so their
-- territories are friendly to the Allies at war); what this adds is the taking: at the end of
-- a taker's noncombat move, each territory the Dutch still hold with a land unit of the taker's
-- that captures territories in it becomes the taker's. Once a playable power holds one, it is
-- never Dutch again (a liberation returns it to no one: the Dutch have no capital on the board).
--
--   require("dutch").register({ rule = "P40-DUTCH", dutch = "Netherlands",
--                               takers = { "United Kingdom", "ANZAC" } })
local M = {}

function M.register(cfg)
  assert(type(cfg) == "table" and type(cfg.rule) == "string" and type(cfg.dutch) == "string"
    and type(cfg.takers) == "table", "dutch.register expects { rule = ID, dutch = POWER, takers = { POWERS } }")
  local takers = {}
  for _, p in ipairs(cfg.takers) do
    takers[p] = true
  end
  local captures = {}
  warroom.on("phase_end", { id = cfg.rule, filter = { phase_kind = "NoncombatMove" } }, function(ev, game)
    if not takers[ev.power] then
      return
    end
    for _, name in ipairs(game:spaces()) do
      if game:owner(name) == cfg.dutch then
        for _, u in ipairs(game:units(name)) do
          if captures[u.unit] == nil then
            local t = game:unit_type(u.unit)
            captures[u.unit] = t ~= nil and t.domain == "land" and t.can_capture
          end
          if u.owner == ev.power and captures[u.unit] then
            game:request({
              command = "set_control",
              space = name,
              power = ev.power,
              reason = ev.power .. " moved land units into a Dutch territory",
            })
            break
          end
        end
      end
    end
  end)
end

return M
