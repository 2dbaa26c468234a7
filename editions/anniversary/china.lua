-- China (001 · China Rules). What is data is in powers.toml and turn.toml: China's turn is
-- played within the United States' and has no purchase and no collect-income phase (it never
-- buys nor collects IPCs), its units move
-- only within China's border, Kiangsu, Manchuria and Kwangtung (`confined_to`), Kwangtung
-- taken by China goes to the United Kingdom (`cannot_control`), its units never board
-- transports (`board_transports`) and its new units need no factory (`mobilize_at`). What has
-- logic is here: the free infantry and where it may be placed.

local C = require("china_rules")
local CHINA = C.POWER

-- "China gets one new infantry unit per turn for every two Chinese territories that are not
-- under Axis control during the Purchase Units phase of the U.S. player's turn." China's turn
-- begins with the United States' (turn.toml), which opens with Purchase Units (or with Research
-- & Development, which takes no territory): the count is made then. Counting at the start of
-- the turn rather than in the purchase phase also counts when the United States skips its
-- purchase for want of Washington; China, a power of its own, still receives its infantry.
-- Odd counts round down.
warroom.on("turn_begin", { id = "anniversary.AA50-CHINA-INCOME", filter = { power = CHINA } },
  function(ev, game)
    local free, all = C.free(game)
    local count = free // 2
    if count > 0 then
      game:request({
        command = "grant",
        power = CHINA,
        unit = "infantry",
        count = count,
        reason = `{free} of the {all} Chinese territories free of Axis control, one per two`,
      })
    end
  end)

-- "The U.S. player places the new Chinese units ... on any Chinese-controlled territories,
-- however those units cannot be placed on any territory that already contains three or more
-- units" (scripts/china_rules.lua). China receives only infantry: the Flying Tigers fighter
-- cannot be replaced.
warroom.on("validate_placement", { id = "anniversary.AA50-CHINA-PLACE", filter = { power = CHINA } },
  function(ev, game)
    for _, u in ipairs(ev.units) do
      if u.unit ~= "infantry" then
        return { veto = `China receives only infantry; it never gets a {u.unit} (the Flying Tigers fighter cannot be replaced) [AA50-CHINA-TIGERS]` }
      end
    end
    return C.stacking_veto(ev, game)
  end)
