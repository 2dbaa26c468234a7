-- National objectives and bonus income, for any edition: a power that meets one of its
-- objectives when it collects income receives that objective's bonus.
--
-- An edition (or option layer) lists its objectives as data and registers them once (from a
-- script NOT named objectives.lua: `require` looks in the layer's folder first, and a layer
-- file of that name would hide this one):
--
--   local O = require("objectives")
--   O.register({
--     { id = "AA50-NO-GER-1",            -- the rule id; names the objective in the log
--       power = "Germany",               -- who collects the bonus
--       bonus = 5,                       -- IPCs, a whole number from 1 to 1000
--       name = "Lebensraum",             -- optional: the objective's title in the rulebook
--       text = "...",                    -- optional: what the log says is met (default:
--                                        --   written from the condition)
--       condition = O.controls({ by = "side", all = { "France", "Germany" } }) },
--     ...
--   })
--
-- Conditions (plain tables, built by these functions; `by` is "power": the power itself,
-- "side": any power of its side (the default), "enemy": a power of another side, or a list
-- of powers: one of them):
--
--   O.controls({ by = "side", all = { A, B, ... } })               -- every one of them
--   O.controls({ by = "side", at_least = 3, of = { A, B, ... } })  -- at least N of them
--   O.controls({ by = "side", at_least = 1, originally_of = "Japan" })
--   O.controls({ by = "power", all_originally_of = "United Kingdom" })
--   O.controls({ by = "side", except = { "Netherlands" }, all = { ... } })
--                            -- a power of the side but not one of those
--                            -- at least N territories whose printed owner (the board's owner,
--                            --   not a scenario's control overlay) is that power
--   O.no_enemy_units({ tag = "surface_warship", label = "surface warships",
--                      spaces = { "SZ 13", "SZ 14" } })
--                            -- no unit with that tag (any unit if no tag) of a power at war
--                            --   with the objective's power in those spaces
--   O.no_enemy_units({ ..., of = "side" })
--                            -- the same for units of any power of another side, at war or not
--   O.no_allied_units()      -- no unit of another power of its side in a land territory the
--                            --   objective's power controls
--   O.no_allied_units({ originally_of = "Soviet Union" })
--                            -- ... in a territory printed as that power's, whoever holds it
--   O.at_war()               -- the objective's power is at war with some power
--   O.at_war({ with = { A, B } }), O.not_at_war({ with = { A } })
--                            -- at war with each of them; with none of them
--   O.at_war({ with_any = { A, B } })
--                            -- at war with at least one of them
--   O.never({ attacked = { "French Indo-China" } })
--                            -- the objective's power has never attacked one of those
--                            --   territories (fought a battle or raid there as the attacker,
--                            --   or taken it by moving in), whoever held it
--   O.never({ declared_war_on = { "United Kingdom", "ANZAC" } })
--                            -- ... nor declared war on one of those powers (a declaration on
--                            --   a power of their `[politics]` group counts)
--                            -- What has happened is remembered from the moment the
--                            --   objectives are registered (this layer's store, saved).
--   O.units_in({ space = "Egypt", domain = "land", by = "power", fighting = true })
--                            -- at least one unit (of that domain, if given; with a combat
--                            --   value, with `fighting`: an AAA alone does not count) there
--   O.all_of({ c1, c2, ... }), O.any_of({ c1, c2, ... }), O.unless(c)
--
-- An objective may pay per territory: `per = O.each({ by = "power", of = { A, B, C } })` pays
-- its bonus once for each of them held (when its condition holds), or
-- `O.each({ by = "power", originally_of = { "Germany", "Italy" }, originally_neutral = "pro_axis" })`
-- for each territory printed as one of those powers' or as that kind of neutral. `once = true`
-- pays an objective the first time it is met only (remembered in this layer's `warroom.store`,
-- so in saves).
--
-- `register` adds ONE `collect_income` handler (id "national_objectives.bonus" unless
-- `opts.id` says otherwise), and a `report` handler (ID.report) answering `report objectives`
-- in the REPL: each objective of the power asked about, met or not, and what it pays now, that asks for one `add_ipcs` per objective met, in list order, with
-- the reason "ID NAME: TEXT"; the engine logs it as
--   [national_objectives.bonus] Germany receives 5 IPCs (AA50-NO-GER-1 Lebensraum: ...)
-- While an enemy holds the power's capital it pays nothing (the engine collects no income
-- then either; `opts.capital_required = false` turns this off). It also adds a `game_setup`
-- handler (id ID.check) that fails the game's start if an objective names a space or a power
-- the board does not have, so a typo is caught at once rather than never paying.
--
-- Changing objectives in a house rule (a layer loaded after the one that registered them):
--   warroom.remove_handler("national_objectives.bonus")   -- no bonus income at all
--   warroom.remove_handler("national_objectives.bonus.check")
--
--   O.register(my_list, { replace = true })                -- these objectives instead: copy the
--                                                          --   edition's list, edit, register
--   O.register(extra_list, { id = "myhouse.bonus" })       -- more objectives, beside the others
--
-- `O.met(list, game, power)` returns the objectives of `list` that `power` meets now (for a
-- handler of your own). Everything here reads the game through `game`; nothing is stored.

local M = {}

local DEFAULT_ID = "national_objectives.bonus"

-- Facts of the board and the unit types: constant for a game, so cached here (not game
-- state, nothing to save).
local cache = { spaces = {}, tags = {} }

local function fail(msg)
  error("objectives: " .. msg, 3)
end

local function is_list_of_strings(t)
  if type(t) ~= "table" or #t == 0 then
    return false
  end
  for _, v in ipairs(t) do
    if type(v) ~= "string" then
      return false
    end
  end
  return true
end

local function check_by(by)
  by = by or "side"
  if type(by) == "table" and is_list_of_strings(by) then
    return by
  end
  if by ~= "side" and by ~= "power" and by ~= "enemy" then
    fail(string.format("by must be \"side\", \"power\", \"enemy\" or a list of powers, not %q", tostring(by)))
  end
  return by
end

local function whole(n)
  return type(n) == "number" and n == math.floor(n)
end

-- Conditions ----------------------------------------------------------------------------------

function M.controls(cfg)
  if type(cfg) ~= "table" then
    fail("controls expects a table { by = ..., all = { ... } }")
  end
  local c = { kind = "controls", by = check_by(cfg.by) }
  if cfg.except ~= nil then
    if not is_list_of_strings(cfg.except) then
      fail("controls: except must be a list of powers")
    end
    c.except = cfg.except
  end
  if cfg.all_originally_of ~= nil then
    if type(cfg.all_originally_of) ~= "string" or cfg.all ~= nil or cfg.of ~= nil or cfg.originally_of ~= nil or cfg.at_least ~= nil then
      fail("controls: all_originally_of = POWER alone")
    end
    c.originally_of, c.all = cfg.all_originally_of, true
  elseif cfg.all ~= nil then
    if not is_list_of_strings(cfg.all) or cfg.of ~= nil or cfg.originally_of ~= nil or cfg.at_least ~= nil then
      fail("controls: all = { territories } alone, or at_least = N with of = { ... } or originally_of = POWER")
    end
    c.spaces, c.at_least = cfg.all, #cfg.all
    c.all = true
  else
    if not whole(cfg.at_least) or cfg.at_least < 1 then
      fail("controls: at_least must be a whole number from 1")
    end
    c.at_least = cfg.at_least
    if cfg.of ~= nil and cfg.originally_of == nil then
      if not is_list_of_strings(cfg.of) then
        fail("controls: of must be a list of territory names")
      end
      if cfg.at_least > #cfg.of then
        fail(string.format("controls: at_least %d of a list of %d", cfg.at_least, #cfg.of))
      end
      c.spaces = cfg.of
    elseif cfg.originally_of ~= nil and cfg.of == nil and type(cfg.originally_of) == "string" then
      c.originally_of = cfg.originally_of
    else
      fail("controls: at_least = N needs either of = { territories } or originally_of = POWER")
    end
  end
  return c
end

function M.no_enemy_units(cfg)
  if type(cfg) ~= "table" or not is_list_of_strings(cfg.spaces) then
    fail("no_enemy_units expects { spaces = { ... }, tag = ..., label = ... }")
  end
  if cfg.tag ~= nil and type(cfg.tag) ~= "string" then
    fail("no_enemy_units: tag must be a string")
  end
  if cfg.of ~= nil and cfg.of ~= "side" then
    fail("no_enemy_units: of must be \"side\" (any power of another side) or absent (powers at war)")
  end
  local label = cfg.label or (cfg.tag and (string.gsub(cfg.tag, "_", " ") .. " units")) or "units"
  return { kind = "no_enemy_units", spaces = cfg.spaces, tag = cfg.tag, label = label, of_side = cfg.of == "side" }
end

function M.no_allied_units(cfg)
  if cfg ~= nil and (type(cfg) ~= "table" or type(cfg.originally_of) ~= "string") then
    fail("no_allied_units expects nothing, or { originally_of = POWER }")
  end
  return { kind = "no_allied_units", originally_of = cfg and cfg.originally_of }
end

local function power_list(name, cfg)
  if cfg == nil then
    return nil
  end
  if type(cfg) ~= "table" or (cfg.with ~= nil and not is_list_of_strings(cfg.with)) then
    fail(name .. " expects nothing, or { with = { powers } }")
  end
  return cfg.with
end

function M.at_war(cfg)
  if cfg ~= nil and type(cfg) == "table" and cfg.with_any ~= nil then
    if not is_list_of_strings(cfg.with_any) or cfg.with ~= nil then
      fail("at_war expects { with = { powers } } or { with_any = { powers } }")
    end
    return { kind = "at_war", with = cfg.with_any, any = true }
  end
  return { kind = "at_war", with = power_list("at_war", cfg) }
end

-- Something the objective's power has never done (remembered by the handlers `register` adds).
function M.never(cfg)
  if type(cfg) ~= "table" or (cfg.attacked == nil) == (cfg.declared_war_on == nil) then
    fail("never expects { attacked = { territories } } or { declared_war_on = { powers } }")
  end
  if cfg.attacked ~= nil then
    if not is_list_of_strings(cfg.attacked) then
      fail("never: attacked must be a list of territory names")
    end
    return { kind = "never", attacked = cfg.attacked }
  end
  if not is_list_of_strings(cfg.declared_war_on) then
    fail("never: declared_war_on must be a list of powers")
  end
  return { kind = "never", declared_war_on = cfg.declared_war_on }
end

function M.not_at_war(cfg)
  local with = power_list("not_at_war", cfg)
  if with == nil then
    fail("not_at_war expects { with = { powers } }")
  end
  return { kind = "not_at_war", with = with }
end

function M.units_in(cfg)
  if type(cfg) ~= "table" or type(cfg.space) ~= "string" then
    fail("units_in expects { space = NAME, domain = ..., by = ... }")
  end
  if cfg.domain ~= nil and cfg.domain ~= "land" and cfg.domain ~= "sea" and cfg.domain ~= "air" then
    fail("units_in: domain must be \"land\", \"sea\" or \"air\"")
  end
  if cfg.fighting ~= nil and type(cfg.fighting) ~= "boolean" then
    fail("units_in: fighting must be true or false")
  end
  return { kind = "units_in", space = cfg.space, domain = cfg.domain, by = check_by(cfg.by), fighting = cfg.fighting }
end

-- A neutral territory no power holds that leans to (or, attacked, joined) the power's side
-- (`by = "side"`) or the other one (`by = "enemy"`): "Sweden is not pro-Allies" (E40-NO-GER-5).
function M.leans(cfg)
  if type(cfg) ~= "table" or type(cfg.space) ~= "string" or (cfg.by ~= "side" and cfg.by ~= "enemy") then
    fail("leans expects { space = NAME, by = \"side\" | \"enemy\" }")
  end
  return { kind = "leans", space = cfg.space, by = cfg.by }
end

function M.unless(c)
  if type(c) ~= "table" or c.kind == nil then
    fail("unless expects a condition (O.controls, O.no_enemy_units, ...)")
  end
  return { kind = "unless", conditions = { c } }
end

function M.each(cfg)
  if type(cfg) ~= "table" then
    fail("each expects { by = ..., of = { territories } } or { by = ..., originally_of = { powers }, originally_neutral = KIND }")
  end
  local e = { by = check_by(cfg.by) }
  if cfg.of ~= nil then
    if not is_list_of_strings(cfg.of) or cfg.originally_of ~= nil or cfg.originally_neutral ~= nil then
      fail("each: of = { territories } alone, or originally_of / originally_neutral")
    end
    e.spaces = cfg.of
  else
    if cfg.originally_of ~= nil and not is_list_of_strings(cfg.originally_of) then
      fail("each: originally_of must be a list of powers")
    end
    if cfg.originally_neutral ~= nil and type(cfg.originally_neutral) ~= "string" then
      fail("each: originally_neutral must be a kind of neutral (\"pro_axis\", \"pro_allies\", \"strict\")")
    end
    if cfg.originally_of == nil and cfg.originally_neutral == nil then
      fail("each needs of, originally_of or originally_neutral")
    end
    e.originally_of, e.originally_neutral = cfg.originally_of or {}, cfg.originally_neutral
  end
  return e
end

local function combine(kind, list)
  if type(list) ~= "table" or #list == 0 then
    fail(kind .. " expects a list of conditions")
  end
  for _, c in ipairs(list) do
    if type(c) ~= "table" or c.kind == nil then
      fail(kind .. ": each element must be a condition (O.controls, O.no_enemy_units, ...)")
    end
  end
  return { kind = kind, conditions = list }
end

function M.all_of(list)
  return combine("all_of", list)
end

function M.any_of(list)
  return combine("any_of", list)
end

-- Evaluation ----------------------------------------------------------------------------------

-- What one evaluation needs: the game, the power and its side, and the sides of the powers met.
local function context(game, power)
  local ctx = { game = game, power = power, sides = {} }
  function ctx.side_of(p)
    if p == nil or p == "" then
      return nil
    end
    local s = ctx.sides[p]
    if s == nil then
      local info = game:power_info(p)
      s = info and info.side or false
      ctx.sides[p] = s
    end
    return s or nil
  end
  ctx.side = ctx.side_of(power)
  return ctx
end

-- Whether `owner` counts for the objective's power as `by` says: the power itself, a power of
-- its side, or (`enemy`) a power of another side.
local function belongs(ctx, by, owner)
  if owner == nil or owner == "" then
    return false
  end
  if by == "power" then
    return owner == ctx.power
  end
  if type(by) == "table" then
    for _, p in ipairs(by) do
      if p == owner then
        return true
      end
    end
    return false
  end
  local side = ctx.side_of(owner)
  if by == "enemy" then
    return side ~= nil and side ~= ctx.side
  end
  return side == ctx.side
end

local function holds(ctx, by, space, except)
  local owner = ctx.game:owner(space)
  if except then
    for _, p in ipairs(except) do
      if p == owner then
        return false
      end
    end
  end
  return belongs(ctx, by, owner)
end

-- What the powers have done that a `never` condition asks about, remembered in this layer's
-- store: `attacked[power][territory]` and `declared[power][target]` = the round it happened.
local function history()
  local h = warroom.store.objectives_history
  if h == nil then
    h = { attacked = {}, declared = {} }
    warroom.store.objectives_history = h
  end
  return h
end

local function remember(kind, power, what, round)
  local h = history()
  h[kind][power] = h[kind][power] or {}
  if h[kind][power][what] == nil then
    h[kind][power][what] = round
  end
end

local function remembered(kind, power, what)
  local h = warroom.store.objectives_history
  return h ~= nil and h[kind][power] ~= nil and h[kind][power][what] ~= nil
end

-- The board's territories (not sea zones) that `keep` accepts, in board order, read once per
-- `key` (facts of the board: cached, nothing to save).
local function territories_where(game, key, keep)
  local list = cache.spaces[key]
  if list == nil then
    list = {}
    for _, name in ipairs(game:spaces()) do
      local s = game:space(name)
      if s and not s.sea and keep(s) then
        table.insert(list, name)
      end
    end
    cache.spaces[key] = list
  end
  return list
end

-- The territories the board prints as `owner`'s (`capitals`: only its capitals).
local function printed(game, owner, capitals)
  local key = (capitals and "capitals of " or "territories of ") .. owner
  return territories_where(game, key, function(s)
    return s.original_owner == owner and (s.capital or not capitals)
  end)
end

-- The territories `each` counts: its list, or those printed as one of its powers' or as its
-- kind of neutral.
local function each_spaces(game, e)
  if e.spaces then
    return e.spaces
  end
  local owners = {}
  for _, p in ipairs(e.originally_of) do
    owners[p] = true
  end
  local key = "each " .. table.concat(e.originally_of, "|") .. "/" .. tostring(e.originally_neutral)
  return territories_where(game, key, function(s)
    return owners[s.original_owner] or (e.originally_neutral ~= nil and s.neutral_kind == e.originally_neutral)
  end)
end

local function has_tag(game, unit, tag)
  local tags = cache.tags[unit]
  if tags == nil then
    tags = {}
    local t = game:unit_type(unit)
    for _, x in ipairs(t and t.tags or {}) do
      tags[x] = true
    end
    cache.tags[unit] = tags
  end
  return tags[tag] == true
end

local evaluate
local watch

local tests = {
  controls = function(c, ctx)
    local spaces = c.spaces or printed(ctx.game, c.originally_of, false)
    local need = c.all and #spaces or c.at_least
    local n = 0
    for _, s in ipairs(spaces) do
      if holds(ctx, c.by, s, c.except) then
        n += 1
      end
    end
    return n >= need
  end,
  never = function(c, ctx)
    for _, s in ipairs(c.attacked or {}) do
      if remembered("attacked", ctx.power, s) then
        return false
      end
    end
    for _, p in ipairs(c.declared_war_on or {}) do
      if remembered("declared", ctx.power, p) then
        return false
      end
    end
    return true
  end,
  no_enemy_units = function(c, ctx)
    for _, s in ipairs(c.spaces) do
      for _, u in ipairs(ctx.game:units(s)) do
        local enemy
        if c.of_side then
          local side = ctx.side_of(u.owner)
          enemy = side ~= nil and side ~= ctx.side
        else
          enemy = ctx.game:relation(ctx.power, u.owner) == "war"
        end
        if enemy and (c.tag == nil or has_tag(ctx.game, u.unit, c.tag)) then
          return false
        end
      end
    end
    return true
  end,
  at_war = function(c, ctx)
    local list = c.with or ctx.game:powers()
    local any = false
    for _, p in ipairs(list) do
      local war = p ~= ctx.power and ctx.game:relation(ctx.power, p) == "war"
      if c.with and not c.any and not war then
        return false
      end
      any = any or war
    end
    return any
  end,
  not_at_war = function(c, ctx)
    for _, p in ipairs(c.with) do
      if ctx.game:relation(ctx.power, p) == "war" then
        return false
      end
    end
    return true
  end,
  units_in = function(c, ctx)
    for _, u in ipairs(ctx.game:units(c.space)) do
      local t = ctx.game:unit_type(u.unit) or {}
      local fights = (t.attack or 0) > 0 or (t.defense or 0) > 0
      if belongs(ctx, c.by, u.owner) and (c.domain == nil or t.domain == c.domain) and (not c.fighting or fights) then
        return true
      end
    end
    return false
  end,
  unless = function(c, ctx)
    return not evaluate(c.conditions[1], ctx)
  end,
  leans = function(c, ctx)
    local sp = ctx.game:space(c.space)
    local side = sp and sp.leaning or ""
    if side == "" or side == "strict" then
      return false
    end
    if c.by == "side" then
      return side == ctx.side
    end
    return side ~= ctx.side
  end,
  no_allied_units = function(c, ctx)
    local originally = c.originally_of
    for _, s in ipairs(ctx.game:spaces()) do
      local where
      if originally then
        local sp = ctx.game:space(s)
        where = sp ~= nil and sp.original_owner == originally
      else
        where = ctx.game:owner(s) == ctx.power
      end
      if where then
        for _, u in ipairs(ctx.game:units(s)) do
          if u.owner ~= ctx.power and ctx.side_of(u.owner) == ctx.side then
            local sp = ctx.game:space(s)
            if sp and not sp.sea then
              return false
            end
          end
        end
      end
    end
    return true
  end,
  all_of = function(c, ctx)
    for _, x in ipairs(c.conditions) do
      if not evaluate(x, ctx) then
        return false
      end
    end
    return true
  end,
  any_of = function(c, ctx)
    for _, x in ipairs(c.conditions) do
      if evaluate(x, ctx) then
        return true
      end
    end
    return false
  end,
}

evaluate = function(c, ctx)
  return tests[c.kind](c, ctx)
end

-- Text ----------------------------------------------------------------------------------------

local function join(list, last)
  if #list == 1 then
    return list[1]
  end
  return table.concat(list, ", ", 1, #list - 1) .. " " .. last .. " " .. list[#list]
end

local describe

local function subject(by, ctx)
  if type(by) == "table" then
    return join(by, "or") .. (#by == 1 and " controls" or " control")
  end
  if by == "power" then
    return ctx.power .. " controls"
  end
  if by == "enemy" then
    return "an enemy of the " .. (ctx.side or ctx.power) .. " controls"
  end
  return "the " .. (ctx.side or ctx.power) .. " control"
end

local texts = {
  controls = function(c, ctx)
    local who = subject(c.by, ctx)
    if c.except then
      who = string.gsub(who, " control$", " (not " .. join(c.except, "or") .. ") control")
    end
    if c.originally_of and c.all then
      return string.format("%s all territories originally %s's", who, c.originally_of)
    end
    if c.originally_of then
      if c.at_least == 1 then
        return string.format("%s a territory originally %s's", who, c.originally_of)
      end
      return string.format("%s at least %d territories originally %s's", who, c.at_least, c.originally_of)
    end
    if #c.spaces == 1 then
      return who .. " " .. c.spaces[1]
    end
    if c.all then
      return who .. " all of " .. join(c.spaces, "and")
    end
    return string.format("%s at least %d of %s", who, c.at_least, join(c.spaces, "and"))
  end,
  no_enemy_units = function(c)
    return string.format("no %s%s in %s", c.of_side and "" or "enemy ", c.label, join(c.spaces, "or"))
  end,
  no_allied_units = function(c, ctx)
    if c.originally_of then
      return string.format("no units of other powers of the %s in territories originally %s's", ctx.side or "side", c.originally_of)
    end
    return string.format("no units of other %s powers in territories %s controls", ctx.side or "allied", ctx.power)
  end,
  at_war = function(c, ctx)
    if c.with then
      return string.format("%s at war with %s", ctx.power, join(c.with, c.any and "or" or "and"))
    end
    return ctx.power .. " at war"
  end,
  not_at_war = function(c, ctx)
    return string.format("%s not at war with %s", ctx.power, join(c.with, "or"))
  end,
  never = function(c, ctx)
    if c.attacked then
      return string.format("%s has not attacked %s", ctx.power, join(c.attacked, "or"))
    end
    return string.format("%s has declared no war on %s", ctx.power, join(c.declared_war_on, "or"))
  end,
  units_in = function(c, ctx)
    local whose = c.by == "power" and (ctx.power .. "'s") or (c.by == "enemy" and "an enemy" or ("the " .. (ctx.side or ctx.power) .. "'"))
    return string.format("%s %s%sunit in %s", whose, c.fighting and "fighting " or "", c.domain and (c.domain .. " ") or "", c.space)
  end,
  unless = function(c, ctx)
    return "not (" .. describe(c.conditions[1], ctx) .. ")"
  end,
  leans = function(c, ctx)
    if c.by == "side" then
      return string.format("%s is a neutral leaning to the %s", c.space, ctx.side or ctx.power)
    end
    return string.format("%s is a neutral leaning to the enemy of the %s", c.space, ctx.side or ctx.power)
  end,
  all_of = function(c, ctx)
    local parts = {}
    for _, x in ipairs(c.conditions) do
      table.insert(parts, describe(x, ctx))
    end
    return table.concat(parts, "; ")
  end,
  any_of = function(c, ctx)
    local parts = {}
    for _, x in ipairs(c.conditions) do
      table.insert(parts, describe(x, ctx))
    end
    return table.concat(parts, "; or ")
  end,
}

describe = function(c, ctx)
  return texts[c.kind](c, ctx)
end

-- Objectives ----------------------------------------------------------------------------------

local function check_list(list)
  if type(list) ~= "table" or #list == 0 then
    fail("register expects a list of objectives")
  end
  local seen = {}
  for i, o in ipairs(list) do
    if type(o) ~= "table" then
      fail(string.format("objective %d is not a table", i))
    end
    if type(o.id) ~= "string" or o.id == "" then
      fail(string.format("objective %d needs id = \"...\"", i))
    end
    if seen[o.id] then
      fail("two objectives have the id " .. o.id)
    end
    seen[o.id] = true
    if type(o.power) ~= "string" then
      fail(o.id .. " needs power = \"...\"")
    end
    if not whole(o.bonus) or o.bonus < 1 or o.bonus > 1000 then
      fail(o.id .. " needs bonus = a whole number of IPCs from 1 to 1000")
    end
    if type(o.condition) ~= "table" or tests[o.condition.kind] == nil then
      fail(o.id .. " needs condition = a condition (O.controls, O.all_of, ...)")
    end
    if o.name ~= nil and type(o.name) ~= "string" then
      fail(o.id .. ": name must be a string")
    end
    if o.text ~= nil and type(o.text) ~= "string" then
      fail(o.id .. ": text must be a string")
    end
    if o.per ~= nil and (type(o.per) ~= "table" or o.per.by == nil) then
      fail(o.id .. ": per must be O.each({ ... })")
    end
    if o.once ~= nil and type(o.once) ~= "boolean" then
      fail(o.id .. ": once must be true or false")
    end
  end
end

-- How many times `o` pays now: 0 when its condition fails; with `per`, once for each territory
-- of it held.
local function times(o, ctx)
  if not evaluate(o.condition, ctx) then
    return 0
  end
  if o.per == nil then
    return 1
  end
  local n = 0
  for _, s in ipairs(each_spaces(ctx.game, o.per)) do
    if holds(ctx, o.per.by, s) then
      n += 1
    end
  end
  return n
end

-- The territories of `o.per` held now, for the log.
local function held(o, ctx)
  local out = {}
  for _, s in ipairs(each_spaces(ctx.game, o.per)) do
    if holds(ctx, o.per.by, s) then
      table.insert(out, s)
    end
  end
  return out
end

local function paid_before(o)
  local paid = warroom.store.objectives_paid
  return o.once and paid ~= nil and paid[o.id] == true
end

-- The objectives of `list` that `power` meets in `game` now, in list order (with `per`: those
-- paying at least once; a `once` objective already paid is not met again).
function M.met(list, game, power)
  local ctx = context(game, power)
  local out = {}
  for _, o in ipairs(list) do
    if o.power == power and not paid_before(o) and times(o, ctx) > 0 then
      table.insert(out, o)
    end
  end
  return out
end

-- What the objective pays `power` now (0 if it is not met).
function M.amount(o, game)
  if paid_before(o) then
    return 0
  end
  return o.bonus * times(o, context(game, o.power))
end

-- What the log says of an objective met by its power.
function M.reason(o, game)
  local ctx = context(game, o.power)
  local text = o.text or describe(o.condition, ctx)
  if o.per then
    local h = held(o, ctx)
    text = string.format("%s; %d IPCs each for %s", text, o.bonus, join(h, "and"))
  end
  if o.once then
    text = text .. " (once a game)"
  end
  if o.name then
    return string.format("%s %s: %s", o.id, o.name, text)
  end
  return string.format("%s: %s", o.id, text)
end

-- Whether an enemy holds one of the power's capitals (spaces marked capital whose printed owner
-- is the power).
local function capital_lost(game, power)
  local ctx = context(game, power)
  for _, c in ipairs(printed(game, power, true)) do
    local owner = game:owner(c)
    if owner == nil or ctx.side_of(owner) ~= ctx.side then
      return true
    end
  end
  return false
end

-- The `collect_income` handler paying `list`'s bonuses.
function M.handler(list, opts)
  check_list(list)
  opts = opts or {}
  local capital_required = opts.capital_required ~= false
  return function(ev, game)
    if capital_required and capital_lost(game, ev.power) then
      return
    end
    for _, o in ipairs(M.met(list, game, ev.power)) do
      game:request({ command = "add_ipcs", power = o.power, amount = M.amount(o, game), reason = M.reason(o, game) })
      if o.once then
        warroom.store.objectives_paid = warroom.store.objectives_paid or {}
        warroom.store.objectives_paid[o.id] = true
      end
    end
  end
end

-- Logs `power`'s objectives of `list`, one line each: met (and what it pays now) or not, and
-- the condition (the `report objectives` view).
function M.report(list, game, power)
  local ctx = context(game, power)
  local any = false
  for _, o in ipairs(list) do
    if o.power == power then
      any = true
      local text = o.text or describe(o.condition, ctx)
      local pays = M.amount(o, game)
      local state
      if paid_before(o) then
        state = "paid once already"
      elseif pays > 0 then
        state = string.format("met: %d IPCs now", pays)
      else
        -- Why not: the parts of the condition that do not hold now.
        local parts = o.condition.kind == "all_of" and o.condition.conditions or { o.condition }
        local wanting = {}
        for _, c in ipairs(parts) do
          if not evaluate(c, ctx) then
            table.insert(wanting, describe(c, ctx))
          end
        end
        if #wanting > 0 and o.text == nil then
          state = "not met"
          text = "wanting: " .. table.concat(wanting, "; ")
        elseif #wanting > 0 then
          state = "not met"
        else
          state = "not met (nothing to count now)"
        end
      end
      local each = o.per and string.format("%d IPCs each", o.bonus) or string.format("%d IPCs", o.bonus)
      warroom.log(string.format("%s%s (%s%s): %s — %s", o.id, o.name and (" " .. o.name) or "", each,
        o.once and ", once a game" or "", state, text))
    end
  end
  if not any then
    warroom.log(power .. " has no national objectives")
  end
end

-- Fails (a clear error) if `list` names a power, space or unit tag the game does not have.
function M.check(list, game)
  local function space(id, name, want_sea)
    local s = game:space(name)
    if s == nil then
      error(string.format("objectives: %s names %q, which is not a space of this board", id, name), 0)
    end
    if want_sea ~= nil and s.sea ~= want_sea then
      error(string.format("objectives: %s names %q, which is not a %s", id, name, want_sea and "sea zone" or "territory"), 0)
    end
  end
  local function power(id, name)
    if game:power_info(name) == nil then
      error(string.format("objectives: %s names %q, which is not a power of this edition", id, name), 0)
    end
  end
  local function walk(id, c)
    if type(c.by) == "table" then
      for _, p in ipairs(c.by) do
        power(id, p)
      end
    end
    if c.kind == "controls" then
      if c.originally_of then
        power(id, c.originally_of)
      end
      for _, s in ipairs(c.spaces or {}) do
        space(id, s, false)
      end
      for _, p in ipairs(c.except or {}) do
        power(id, p)
      end
    elseif c.kind == "no_enemy_units" then
      for _, s in ipairs(c.spaces) do
        space(id, s, nil)
      end
    elseif c.kind == "units_in" then
      space(id, c.space, nil)
    elseif c.kind == "at_war" or c.kind == "not_at_war" then
      for _, p in ipairs(c.with or {}) do
        power(id, p)
      end
    elseif c.kind == "never" then
      for _, s in ipairs(c.attacked or {}) do
        space(id, s, false)
      end
      for _, p in ipairs(c.declared_war_on or {}) do
        power(id, p)
      end
    elseif c.kind == "no_allied_units" and c.originally_of then
      power(id, c.originally_of)
    elseif c.conditions then
      for _, x in ipairs(c.conditions) do
        walk(id, x)
      end
    end
  end
  for _, o in ipairs(list) do
    power(o.id, o.power)
    walk(o.id, o.condition)
    if o.per then
      for _, s in ipairs(o.per.spaces or {}) do
        space(o.id, s, false)
      end
      for _, p in ipairs(o.per.originally_of or {}) do
        power(o.id, p)
      end
    end
  end
end

-- What the `never` conditions of `list` ask about: the territories and the powers.
local function watched(list)
  local spaces, targets = {}, {}
  local function walk(c)
    for _, s in ipairs(c.attacked or {}) do
      spaces[s] = true
    end
    for _, p in ipairs(c.declared_war_on or {}) do
      targets[p] = true
    end
    for _, x in ipairs(c.conditions or {}) do
      walk(x)
    end
  end
  for _, o in ipairs(list) do
    walk(o.condition)
  end
  return spaces, targets
end

-- The handlers remembering what `never` conditions ask about. An attack is a battle or raid
-- step there (after it: a step vetoed by another rule is still an attack, and `after_` events
-- cannot be vetoed, so nothing is rolled back), or taking the territory by moving in.
watch = function(list, id)
  local spaces, targets = watched(list)
  local names = {}
  for s in pairs(spaces) do
    table.insert(names, s)
  end
  table.sort(names)
  if #names > 0 then
    warroom.on("after_combat_step", { id = id .. ".battles", filter = { space = names } }, function(ev, game)
      remember("attacked", ev.attacker, ev.space, game.round)
    end)
    warroom.on("territory_captured", { id = id .. ".captures", filter = { space = names } }, function(ev, game)
      -- A friendly neutral taken over (no holder before) or a territory handed to an ally is
      -- not an attack; a liberation is (the holder was an enemy at war).
      if ev.previous_owner ~= "" and game:relation(ev.power, ev.previous_owner) == "war" then
        remember("attacked", ev.power, ev.space, game.round)
      end
    end)
  end
  if next(targets) ~= nil then
    warroom.on("war_declared", { id = id .. ".declarations" }, function(ev, game)
      for _, t in ipairs(ev.targets) do
        if targets[t] then
          remember("declared", ev.power, t, ev.round)
        end
      end
    end)
  end
end

-- Registers the handlers (see the top of this file). `opts`: `id` (default
-- "national_objectives.bonus"), `replace` (true: replace the handlers registered under that id
-- by an earlier layer), `capital_required` (default true).
function M.register(list, opts)
  opts = opts or {}
  local id = opts.id or DEFAULT_ID
  local pay = M.handler(list, opts)
  local check = function(_, game)
    M.check(list, game)
  end
  local report = function(ev, game)
    M.report(list, game, ev.power)
  end
  if opts.replace then
    warroom.replace_handler(id, pay)
    warroom.replace_handler(id .. ".check", check)
    warroom.replace_handler(id .. ".report", report)
  else
    warroom.on("collect_income", { id = id }, pay)
    warroom.on("game_setup", { id = id .. ".check" }, check)
    warroom.on("report", { id = id .. ".report", filter = { report = "objectives" } }, report)
  end
  watch(list, id .. ".history" .. (opts.replace and ("." .. warroom.layer) or ""))
end

return M
