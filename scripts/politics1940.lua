-- The political rules of the 1940 second-edition games that have conditions (000 · The
-- Political Situation; Global: Political Situation, National Objectives, and Bonus Income).
--
-- The engine knows who starts at peace (scenario `at_peace`), where declarations are made
-- (`[politics] phases`) and who goes to war together (`[politics] groups`). What the rulebooks
-- make conditional is here: a restriction is a power that may not declare war (on some powers)
-- unless something has happened. An edition's politics.lua calls `restrict` once per rule:
--
--   politics.restrict({
--     rule = "E40-POL-USSR",                 -- the rule id; the handler is LAYER.RULE
--     power = "Soviet Union",                -- who is restricted
--     targets = { "Germany", "Italy" },      -- on whom (absent: on every power)
--     from_round = 4,                        -- free from this turn on (absent: never)
--     round_phase = "collect_income",        -- ... and then only in this phase, which is for
--                                            --     that alone (absent: in any phase)
--     provoked_by = { "Germany", "Italy" },  -- free once at war with one of them (it declared)
--     captured = { spaces = { "United Kingdom" }, by = { "Germany", "Italy" } },
--                                            -- free once one of them has taken one of these
--     declared = { by = { "Japan" }, on = { "United Kingdom", "ANZAC" } },
--                                            -- free once one of them has declared war on one
--                                            --   of these
--     entered = { spaces = { ... } },        -- free on a target once that target has moved
--                                            --   units into one of these spaces
--     refusal = "the Soviet Union may not ...",  -- what the player is told
--   })
--
-- A power is its own turn counter: each power plays once a round, so "its 4th turn" is round 4.
-- What has happened is remembered in this layer's `warroom.store.politics` (saved with the
-- game): `enabled[power]` = why, and `entered[power][target]` = where.

local M = {}

local function contains(list, x)
  for _, v in ipairs(list or {}) do
    if v == x then
      return true
    end
  end
  return false
end

local function memory()
  local s = warroom.store.politics
  if s == nil then
    s = { enabled = {}, entered = {} }
    warroom.store.politics = s
  end
  s.enabled = s.enabled or {}
  s.entered = s.entered or {}
  return s
end

-- Whether `power` is at war with one of `list` (nil: with any power).
local function at_war_with_any(game, power, list)
  for _, p in ipairs(list or game:powers()) do
    if p ~= power and game:relation(power, p) == "war" then
      return true
    end
  end
  return false
end

function M.restrict(cfg)
  local id = warroom.layer .. "." .. cfg.rule

  warroom.on("validate_declaration", { id = id, filter = { power = cfg.power } }, function(ev, game)
    if cfg.targets and not contains(cfg.targets, ev.target) then
      return
    end
    local in_round_phase = cfg.round_phase ~= nil and ev.phase == cfg.round_phase
    if cfg.from_round and ev.round >= cfg.from_round and (cfg.round_phase == nil or in_round_phase) then
      return
    end
    if in_round_phase then
      return { veto = string.format("%s may declare war at the start of this phase only from its turn %d (this is turn %d)",
        cfg.power, cfg.from_round, ev.round) }
    end
    for _, p in ipairs(cfg.provoked_by or {}) do
      if game:relation(cfg.power, p) == "war" then
        return
      end
    end
    local s = memory()
    if s.enabled[cfg.power] then
      return
    end
    if s.entered[cfg.power] and s.entered[cfg.power][ev.target] then
      return
    end
    return { veto = string.format("%s (this is its turn %d)", cfg.refusal, ev.round) }
  end)

  if cfg.captured then
    warroom.on("territory_captured", { id = id .. ".captured", filter = { space = cfg.captured.spaces } },
      function(ev, game)
        local s = memory()
        if contains(cfg.captured.by, ev.power) and not s.enabled[cfg.power] then
          s.enabled[cfg.power] = string.format("%s took %s in round %d", ev.power, ev.space, game.round)
        end
      end)
  end

  if cfg.declared then
    warroom.on("war_declared", { id = id .. ".declared", filter = { power = cfg.declared.by } },
      function(ev, game)
        local s = memory()
        for _, t in ipairs(ev.targets) do
          if contains(cfg.declared.on, t) and not s.enabled[cfg.power] then
            s.enabled[cfg.power] = string.format("%s declared war on %s in round %d", ev.power, t, ev.round)
          end
        end
      end)
  end

  if cfg.entered then
    warroom.on("validate_move", { id = id .. ".entered", filter = { power = cfg.targets } }, function(ev, game)
      for _, space in ipairs(ev.path) do
        if space ~= ev.from and contains(cfg.entered.spaces, space) then
          local s = memory()
          s.entered[cfg.power] = s.entered[cfg.power] or {}
          s.entered[cfg.power][ev.power] = s.entered[cfg.power][ev.power] or space
        end
      end
    end)
  end
end

-- What a power may not do with its units while it is not at war with another (the limits of
-- peace the rulebooks add to "Powers Not at War with One Another"):
--
--   politics.peace_limits({
--     rule = "G40-QA-JPN-NOGO",              -- the rule id: the handler is RULE, the refusal names it
--     power = "Japan",                       -- who is limited
--     until_war_with = "United States",      -- free once at war with this power
--     ships_end_not_in = { "SZ 1", ... },    -- its sea units may not end a move in these zones
--     ships_end_not_next_to = "Japan",       -- ... nor in zones next to territories this power holds
--     units_not_through = { spaces },        -- no unit of it enters or passes these
--     units_not_through_of = "China",        -- ... nor the territories printed as this power's
--     refusal = "...",                       -- what the player is told
--   })
function M.peace_limits(cfg)
  assert(type(cfg) == "table" and type(cfg.rule) == "string" and type(cfg.power) == "string"
    and type(cfg.until_war_with) == "string" and type(cfg.refusal) == "string",
    "politics.peace_limits expects { rule, power, until_war_with, refusal, ships_end_not_in?, ships_end_not_next_to?, units_not_through? }")
  local forbidden = {}
  for _, z in ipairs(cfg.ships_end_not_in or {}) do
    forbidden[z] = true
  end
  local closed = nil -- read from the board at the first move
  local function closed_spaces(game)
    if closed == nil then
      closed = {}
      for _, s in ipairs(cfg.units_not_through or {}) do
        closed[s] = true
      end
      if cfg.units_not_through_of then
        for _, name in ipairs(game:spaces()) do
          local s = game:space(name)
          if s and s.original_owner == cfg.units_not_through_of then
            closed[name] = true
          end
        end
      end
    end
    return closed
  end
  warroom.on("validate_move", { id = cfg.rule, filter = { power = cfg.power } }, function(ev, game)
    if game:relation(cfg.power, cfg.until_war_with) == "war" then
      return
    end
    local closed = closed_spaces(game)
    for i, space in ipairs(ev.path) do
      if i > 1 and closed[space] then
        return { veto = `{cfg.rule}: {cfg.refusal} ({space})` }
      end
    end
    local to = game:space(ev.to)
    if to == nil or not to.sea then
      return
    end
    local ships = false
    for _, u in ipairs(ev.units) do
      local ut = game:unit_type(u.unit)
      ships = ships or (ut ~= nil and ut.domain == "sea")
    end
    if not ships then
      return
    end
    local barred = forbidden[ev.to]
    if not barred and cfg.ships_end_not_next_to then
      for _, name in ipairs(to.adjacent) do
        if game:owner(name) == cfg.ships_end_not_next_to then
          barred = true
        end
      end
    end
    if barred then
      return { veto = `{cfg.rule}: {cfg.refusal} ({ev.to})` }
    end
  end)
end

-- A neutral navy: while `power` is not at war (with anyone, or with `until_war_with`), its ships
-- end their moves only in sea zones next to territories it holds (on `map` only, if given),
-- but its warships (not transports) may also patrol `patrol_zone` (000 · The United States:
-- Europe 1940's E40-POL-US-NAVAL; Global 1940's G40-POL-US on the Europe map).
--
--   politics.neutral_navy({ id = HANDLER_ID, rule = "E40-POL-US-NAVAL", power = "United States",
--     patrol_zone = "SZ 102", until_war_with = { "Germany", "Italy" }?, map = "europe"? })
function M.neutral_navy(cfg)
  assert(type(cfg) == "table" and type(cfg.id) == "string" and type(cfg.rule) == "string"
    and type(cfg.power) == "string" and type(cfg.patrol_zone) == "string",
    "politics.neutral_navy expects { id, rule, power, patrol_zone, until_war_with?, map? }")
  local whom = cfg.until_war_with and ("at war with neither " .. table.concat(cfg.until_war_with, " nor ")) or "at war with no one"
  warroom.on("validate_move", { id = cfg.id, filter = { power = cfg.power } }, function(ev, game)
    if at_war_with_any(game, cfg.power, cfg.until_war_with) then
      return
    end
    local to = game:space(ev.to)
    if to == nil or not to.sea or (cfg.map ~= nil and to.map ~= cfg.map) then
      return
    end
    local ships, transports = false, false
    for _, u in ipairs(ev.units) do
      local t = game:unit_type(u.unit)
      if t and t.domain == "sea" then
        ships = true
        if t.attack == 0 and t.defense == 0 then
          transports = true
        end
      end
    end
    if not ships then
      return
    end
    for _, name in ipairs(to.adjacent) do
      if game:owner(name) == cfg.power then
        return
      end
    end
    if ev.to == cfg.patrol_zone and not transports then
      return
    end
    return {
      veto = string.format(
        "%s: while the %s is %s, its ships end their move only in sea zones next to its territories%s (warships, not transports, may also patrol %s); %s is not",
        cfg.rule, cfg.power, whom, cfg.map and (" on the " .. cfg.map .. " map") or "", cfg.patrol_zone, ev.to),
    }
  end)
end

-- A power neutral on one map while at war on another (000 · Soviet Union, G40-POL-USSR-THEATRE:
-- "if the Soviet Union is at war with Axis powers on only one map, it is still under the
-- restrictions of being a neutral power ... on the other map"; 004 · Entering Territories:
-- "Russia loses its neutrality independently in each theater"). On a map where `power` is at
-- war with none of that map's powers (`theatres`), while it is at war elsewhere (at war with no
-- one, the engine's own neutral-power rules hold everywhere):
-- - its units enter no neutral territory and no territory another power holds there;
-- - no unit of another power of its side enters a territory it holds or held at the start
--   of the game there.
-- The enemies it is at peace with treat it as neutral anyway (the engine's powers at peace).
--
--   politics.theatre_neutrality({ rule = "G40-POL-USSR-THEATRE", power = "Soviet Union",
--     theatres = { europe = { "Germany", "Italy" }, pacific = { "Japan" } } })
function M.theatre_neutrality(cfg)
  assert(type(cfg) == "table" and type(cfg.rule) == "string" and type(cfg.power) == "string"
    and type(cfg.theatres) == "table", "politics.theatre_neutrality expects { rule, power, theatres = { MAP = { powers } } }")
  -- Facts of the board and the powers, read once (the handler runs on every move).
  local sides, spaces = {}, {}
  local function side_of(game, p)
    if sides[p] == nil then
      sides[p] = game:power_info(p).side
    end
    return sides[p]
  end
  local function board(game, name)
    local b = spaces[name]
    if b == nil then
      local s = game:space(name)
      b = { map = s.map, land = not s.sea, original_owner = s.original_owner }
      spaces[name] = b
    end
    return b
  end
  warroom.on("validate_move", { id = cfg.rule }, function(ev, game)
    if ev.power ~= cfg.power and side_of(game, ev.power) ~= side_of(game, cfg.power) then
      return
    end
    if not at_war_with_any(game, cfg.power, nil) then
      return
    end
    for i = 2, #ev.path do
      local name = ev.path[i]
      local b = board(game, name)
      local enemies = b.land and cfg.theatres[b.map] or nil
      if enemies and not at_war_with_any(game, cfg.power, enemies) then
        local owner = game:owner(name) or ""
        local why = nil
        local where = string.format("%s is neutral on the %s map (at war with none of %s there)",
          cfg.power, b.map, table.concat(enemies, ", "))
        if ev.power == cfg.power then
          if owner == "" and (game:space(name).leaning or "") ~= "" then
            why = string.format("%s: it enters no neutral territory (%s)", where, name)
          elseif owner ~= "" and owner ~= cfg.power then
            why = string.format("%s: it enters no territory of another power (%s, %s's)", where, name, owner)
          end
        elseif owner == cfg.power or b.original_owner == cfg.power then
          why = string.format("%s: no other power's units enter its territories (%s)", where, name)
        end
        if why then
          return { veto = cfg.rule .. ": " .. why }
        end
      end
    end
  end)
end

-- The limits of peace on the Pacific map, the same in Pacific 1940 and Global 1940 (000 · Japan,
-- The United States; 004 · Map › Sea Zones, China):
-- - while not at war with the United States, Japan "may not end the movement of its sea units
--   within 2 sea zones of the United States' mainland territories (Western United States and
--   Alaska)": sea zones 1, 2, 3, 8, 9, 10, 11 and 12 (G40-QA-JPN-NOGO);
-- - while not at war with Japan, the United States "may not move any units into or through China
--   or end the movement of its sea units in sea zones that are adjacent to Japan-controlled
--   territories" (G40-POL-US);
-- - "Japan considers movement of units into China by any other Allied power as an act of war
--   against it": while at peace with Japan no other Allied power moves a unit into or through a
--   Chinese territory (004 · China: "the restriction on UK units entering China while UK and
--   Japan are not at war"; "Allied planes can land on Chinese territories if--and only if--that
--   Allied power is at war with Japan").
--
--   politics.pacific_peace({ prefix = "P40", allies = { "United Kingdom", "ANZAC", ... } })
function M.pacific_peace(cfg)
  assert(type(cfg) == "table" and type(cfg.prefix) == "string" and type(cfg.allies) == "table",
    "politics.pacific_peace expects { prefix = ID, allies = { powers } }")
  M.peace_limits({
    rule = "G40-QA-JPN-NOGO",
    power = "Japan",
    until_war_with = "United States",
    ships_end_not_in = { "SZ 1", "SZ 2", "SZ 3", "SZ 8", "SZ 9", "SZ 10", "SZ 11", "SZ 12" },
    refusal = "while Japan is not at war with the United States its ships end no move within two sea zones of Western United States or Alaska",
  })
  M.peace_limits({
    rule = cfg.prefix .. "-US-PEACE",
    power = "United States",
    until_war_with = "Japan",
    ships_end_not_next_to = "Japan",
    units_not_through_of = "China",
    refusal = "while the United States is not at war with Japan it moves no unit into or through China and its ships end no move next to a territory Japan holds",
  })
  for _, p in ipairs(cfg.allies) do
    M.peace_limits({
      rule = cfg.prefix .. "-CHINA-ACT-OF-WAR." .. string.gsub(p, " ", "_"),
      power = p,
      until_war_with = "Japan",
      units_not_through_of = "China",
      refusal = p .. " is not at war with Japan, which counts Allied units entering China as an act of war against it",
    })
  end
end

return M
