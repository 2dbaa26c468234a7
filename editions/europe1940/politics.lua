-- The political situation of Europe 1940 (000 · The Political Situation): the conditions on
-- declarations of war. Germany and Italy may declare war on the United States or the Soviet
-- Union at the start of any Combat Move (no condition: data alone, politics.toml); the United
-- Kingdom and France start at war with both. See scripts/politics1940.lua.
local politics = require("politics1940")

local axis = { "Germany", "Italy" }

-- "the Soviet Union may not declare war on any Axis power before its fourth turn unless an Axis
-- power declares war on it first. However, if London is captured by an Axis power, the Soviet
-- Union may declare war on its following turn." (000 · The Soviet Union)
politics.restrict({
  rule = "E40-POL-USSR",
  power = "Soviet Union",
  from_round = 4,
  provoked_by = axis,
  captured = { spaces = { "United Kingdom" }, by = axis },
  refusal = "the Soviet Union may not declare war on an Axis power before its 4th turn, unless an "
    .. "Axis power has declared war on it or captured London",
})

-- North America on this map (the continent, with Greenland and the West Indies), and London.
local north_america_and_london = {
  "Alberta/Saskatchewan/Manitoba", "Central America", "Central United States",
  "Eastern United States", "Greenland", "New Brunswick Nova Scotia", "Newfoundland Labrador",
  "Ontario", "Quebec", "Southeastern Mexico", "West Indies",
  "United Kingdom",
}

-- "The United States may not declare war on any Axis power unless an Axis power either declares
-- war on it first or captures London or any territory in North America, after which it may
-- declare war on any or all Axis powers on its following turn. However, on turn 3 ... the United
-- States may declare war on any or all Axis powers at the beginning of the Collect Income phase
-- of that turn" (000 · The United States)
politics.restrict({
  rule = "E40-POL-US",
  power = "United States",
  from_round = 3,
  round_phase = "collect_income",
  provoked_by = axis,
  captured = { spaces = north_america_and_london, by = axis },
  refusal = "the United States may not declare war until an Axis power has declared war on it or "
    .. "captured London or a territory in North America, or from its 3rd turn at the start of "
    .. "Collect Income",
})

-- "While the United States is not at war, its sea units may end their movement only in sea
-- zones adjacent to territories it controls. United States warships (not transports) may also
-- move into sea zone 102 (the neutral patrol zone)" (000 · The United States; E40-POL-US-NAVAL).
-- See scripts/politics1940.lua.
politics.neutral_navy({
  id = "e40_politics.us_neutral_navy",
  rule = "E40-POL-US-NAVAL",
  power = "United States",
  patrol_zone = "SZ 102",
})

-- An attack on a strict neutral turns every other strict neutral against the attacker's side
-- (000 · Strict Neutrals; E40-NEUTRAL-STRICT). See scripts/neutrals.lua.
require("neutrals").strict_turn({ rule = "E40-NEUTRAL-STRICT" })
