-- China (001 · China Rules). What is data is in powers.toml and turn.toml: China's turn is
-- played within the United States' and has no purchase and no collect-income phase (it never
-- buys nor collects IPCs), its units move
-- only within China's border, Kiangsu, Manchuria and Kwangtung (`confined_to`), Kwangtung
-- taken by China goes to the United Kingdom (`cannot_control`), its units never board
-- transports (`board_transports`) and its new units need no factory (`mobilize_at`). What has
-- logic is here: the free infantry and where it may be placed.

local CHINA = "China"

-- "Chinese territories on the game board have a Nationalist Chinese national control symbol
-- on them" — the territories printed as China's (board.toml `owner`), Kiangsu and Manchuria
-- included: the rulebook calls them "Japanese occupied" and says China "can take control of
-- these territories and have them count toward their new infantry placements".
local function chinese_territories(game)
  local out = {}
  for _, name in ipairs(game:spaces()) do
    local sp = game:space(name)
    if not sp.sea and sp.original_owner == CHINA then
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
  return game:power_info(sp.owner).side ~= game:power_info(CHINA).side
end

-- "China gets one new infantry unit per turn for every two Chinese territories that are not
-- under Axis control during the Purchase Units phase of the U.S. player's turn." China's turn
-- begins with the United States' (turn.toml), which opens with Purchase Units (or with Research
-- & Development, which takes no territory): the count is made then. Counting at the start of
-- the turn rather than in the purchase phase also counts when the United States skips its
-- purchase for want of Washington; China, a power of its own, still receives its infantry.
-- Odd counts round down.
warroom.on("turn_begin", { id = "anniversary.AA50-CHINA-INCOME", filter = { power = CHINA } },
  function(ev, game)
    local all = chinese_territories(game)
    local free = 0
    for _, sp in ipairs(all) do
      if not axis_held(game, sp) then
        free += 1
      end
    end
    local count = free // 2
    if count > 0 then
      game:request({
        command = "grant",
        power = CHINA,
        unit = "infantry",
        count = count,
        reason = `{free} of the {#all} Chinese territories free of Axis control, one per two`,
      })
    end
  end)

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
-- power — must be fewer than three; such a territory takes any number of them. China receives
-- only infantry: the Flying Tigers fighter cannot be replaced.
warroom.on("validate_placement", { id = "anniversary.AA50-CHINA-PLACE", filter = { power = CHINA } },
  function(ev, game)
    local placing = 0
    for _, u in ipairs(ev.units) do
      if u.unit ~= "infantry" then
        return { veto = `China receives only infantry; it never gets a {u.unit} (the Flying Tigers fighter cannot be replaced) [AA50-CHINA-TIGERS]` }
      end
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
  end)
