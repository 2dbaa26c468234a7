-- The Anniversary Edition's China rules that have logic (001 · China Rules), as parts a layer
-- puts together: editions/anniversary/china.lua registers the edition's handlers with them, and
-- a house rule replacing one of those handlers (editions/house/burma-road) reuses them rather
-- than copying them. (Named china_rules, not china: a layer's own china.lua would hide it.)
--
--   local C = require("china_rules")
--   C.free(game)                   -- free, all: the Chinese territories not under Axis control
--                                  --   now, and all of them
--   C.stacking_veto(ev, game)      -- for validate_placement: a veto if the territory already
--                                  --   held 3 or more units before China's new units of this
--                                  --   turn, else nil (and the placement is remembered)
--
-- What is remembered goes in the requiring layer's `warroom.store` (a module runs once per
-- layer, in that layer's environment).

local M = {}

M.POWER = "China"

-- "Chinese territories on the game board have a Nationalist Chinese national control symbol
-- on them" — the territories printed as China's (board.toml `owner`), Kiangsu and Manchuria
-- included: the rulebook calls them "Japanese occupied" and says China "can take control of
-- these territories and have them count toward their new infantry placements".
local function chinese_territories(game)
  local out = {}
  for _, name in ipairs(game:spaces()) do
    local sp = game:space(name)
    if not sp.sea and sp.original_owner == M.POWER then
      table.insert(out, sp)
    end
  end
  return out
end

-- "not under Axis control": held by no power of another side than China's. (Kiangsu and
-- Manchuria taken back by an ally are liberated to China, so "not Axis-held" and "China
-- holds it" never differ for them.)
local function axis_held(game, sp)
  if sp.owner == "" then
    return false
  end
  return game:power_info(sp.owner).side ~= game:power_info(M.POWER).side
end

function M.free(game)
  local all = chinese_territories(game)
  local free = 0
  for _, sp in ipairs(all) do
    if not axis_held(game, sp) then
      free += 1
    end
  end
  return free, #all
end

-- Units China has placed this turn, by territory (rounds identify China's turns: one a round).
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

-- "The U.S. player places the new Chinese units ... on any Chinese-controlled territories,
-- however those units cannot be placed on any territory that already contains three or more
-- units." Read as: the units there before China's new units of this turn are placed — of any
-- power — must be fewer than three; such a territory takes any number of them.
function M.stacking_veto(ev, game)
  local placing = 0
  for _, u in ipairs(ev.units) do
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
  return nil
end

return M
