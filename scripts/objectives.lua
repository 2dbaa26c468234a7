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
-- Conditions (plain tables, built by these functions; `by` is "power": the power itself, or
-- "side": any power of its side, the default):
--
--   O.controls({ by = "side", all = { A, B, ... } })               -- every one of them
--   O.controls({ by = "side", at_least = 3, of = { A, B, ... } })  -- at least N of them
--   O.controls({ by = "side", at_least = 1, originally_of = "Japan" })
--                            -- at least N territories whose printed owner (the board's owner,
--                            --   not a scenario's control overlay) is that power
--   O.no_enemy_units({ tag = "surface_warship", label = "surface warships",
--                      spaces = { "SZ 13", "SZ 14" } })
--                            -- no unit with that tag (any unit if no tag) of a power at war
--                            --   with the objective's power in those spaces
--   O.no_allied_units()      -- no unit of another power of its side in a land territory the
--                            --   objective's power controls
--   O.all_of({ c1, c2, ... }), O.any_of({ c1, c2, ... })
--
-- `register` adds ONE `collect_income` handler (id "national_objectives.bonus" unless
-- `opts.id` says otherwise) that asks for one `add_ipcs` per objective met, in list order, with
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
  if by ~= "side" and by ~= "power" then
    fail(string.format("by must be \"side\" or \"power\", not %q", tostring(by)))
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
  if cfg.all ~= nil then
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
  local label = cfg.label or (cfg.tag and (string.gsub(cfg.tag, "_", " ") .. " units")) or "units"
  return { kind = "no_enemy_units", spaces = cfg.spaces, tag = cfg.tag, label = label }
end

function M.no_allied_units()
  return { kind = "no_allied_units" }
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

local function holds(ctx, by, space)
  local owner = ctx.game:owner(space)
  if owner == nil then
    return false
  end
  if by == "power" then
    return owner == ctx.power
  end
  return ctx.side_of(owner) == ctx.side
end

-- The territories the board prints as `owner`'s (`capitals`: only its capitals), in board
-- order.
local function printed(game, owner, capitals)
  local key = (capitals and "capitals of " or "territories of ") .. owner
  local list = cache.spaces[key]
  if list == nil then
    list = {}
    for _, name in ipairs(game:spaces()) do
      local s = game:space(name)
      if s and not s.sea and s.original_owner == owner and (s.capital or not capitals) then
        table.insert(list, name)
      end
    end
    cache.spaces[key] = list
  end
  return list
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

local tests = {
  controls = function(c, ctx)
    local spaces = c.spaces or printed(ctx.game, c.originally_of, false)
    local n = 0
    for _, s in ipairs(spaces) do
      if holds(ctx, c.by, s) then
        n += 1
        if n >= c.at_least then
          return true
        end
      end
    end
    return false
  end,
  no_enemy_units = function(c, ctx)
    for _, s in ipairs(c.spaces) do
      for _, u in ipairs(ctx.game:units(s)) do
        if ctx.game:relation(ctx.power, u.owner) == "war" and (c.tag == nil or has_tag(ctx.game, u.unit, c.tag)) then
          return false
        end
      end
    end
    return true
  end,
  no_allied_units = function(_, ctx)
    for _, s in ipairs(ctx.game:spaces()) do
      if ctx.game:owner(s) == ctx.power then
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
  if by == "power" then
    return ctx.power .. " controls"
  end
  return "the " .. (ctx.side or ctx.power) .. " control"
end

local texts = {
  controls = function(c, ctx)
    local who = subject(c.by, ctx)
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
    return string.format("no enemy %s in %s", c.label, join(c.spaces, "or"))
  end,
  no_allied_units = function(_, ctx)
    return string.format("no units of other %s powers in territories %s controls", ctx.side or "allied", ctx.power)
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
  end
end

-- The objectives of `list` that `power` meets in `game` now, in list order.
function M.met(list, game, power)
  local ctx = context(game, power)
  local out = {}
  for _, o in ipairs(list) do
    if o.power == power and evaluate(o.condition, ctx) then
      table.insert(out, o)
    end
  end
  return out
end

-- What the log says of an objective met by its power.
function M.reason(o, game)
  local text = o.text or describe(o.condition, context(game, o.power))
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
      game:request({ command = "add_ipcs", power = o.power, amount = o.bonus, reason = M.reason(o, game) })
    end
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
    if c.kind == "controls" then
      if c.originally_of then
        power(id, c.originally_of)
      end
      for _, s in ipairs(c.spaces or {}) do
        space(id, s, false)
      end
    elseif c.kind == "no_enemy_units" then
      for _, s in ipairs(c.spaces) do
        space(id, s, nil)
      end
    elseif c.conditions then
      for _, x in ipairs(c.conditions) do
        walk(id, x)
      end
    end
  end
  for _, o in ipairs(list) do
    power(o.id, o.power)
    walk(o.id, o.condition)
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
  if opts.replace then
    warroom.replace_handler(id, pay)
    warroom.replace_handler(id .. ".check", check)
  else
    warroom.on("collect_income", { id = id }, pay)
    warroom.on("game_setup", { id = id .. ".check" }, check)
  end
end

return M
