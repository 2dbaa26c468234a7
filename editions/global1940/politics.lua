-- The political situation of Global 1940 (000 · Political Situation, National Objectives, and
-- Bonus Income): the conditions on declarations of war. Declarations without a condition
-- (Germany and Italy on the United States, the Soviet Union or China; Japan on the United
-- Kingdom, ANZAC, the United States, France or the Soviet Union; the United Kingdom, ANZAC and
-- France on Japan; the Soviet Union on Japan) are data alone (politics.toml). See
-- scripts/politics1940.lua.
local politics = require("politics1940")

local european_axis = { "Germany", "Italy" }
local axis = { "Germany", "Italy", "Japan" }

-- "The Soviet Union may not declare war on any European Axis power before turn 4 unless first
-- declared war upon by a European Axis power or London is captured by an Axis power. It may
-- declare war on Japan at the beginning of the Combat Move phase of any of its turns."
politics.restrict({
  rule = "G40-POL-USSR",
  power = "Soviet Union",
  targets = european_axis,
  from_round = 4,
  provoked_by = european_axis,
  captured = { spaces = { "United Kingdom" }, by = axis },
  refusal = "the Soviet Union may not declare war on Germany or Italy before turn 4, unless one "
    .. "of them has declared war on it or an Axis power has captured London",
})

-- North America (the continent, with Greenland, the West Indies and the Aleutians), and London.
local north_america_and_london = {
  "Alaska", "Aleutian Islands", "Alberta/Saskatchewan/Manitoba", "Central America",
  "Central United States", "Eastern United States", "Greenland", "Mexico",
  "New Brunswick Nova Scotia", "Newfoundland Labrador", "Ontario", "Quebec",
  "Southeastern Mexico", "West Indies", "Western Canada", "Western United States",
  "United Kingdom",
}

-- "The United States may not declare war on any Axis power unless an Axis power either declares
-- war on it first or captures London or any territory in North America, or Japan makes an
-- unprovoked declaration of war against the UK or ANZAC, after which it may declare war on any
-- or all Axis powers on its following turn. However, if it's not yet at war by the Collect
-- Income phase of its third turn, the United States may declare war on any or all Axis powers
-- at the beginning of that phase." A Japanese declaration on the United Kingdom or ANZAC is
-- always unprovoked here: they cannot attack Japan without declaring war first, and their
-- moves into China (which Japan would take as an act of war) are refused before the war.
politics.restrict({
  rule = "G40-POL-US",
  power = "United States",
  from_round = 3,
  round_phase = "collect_income",
  provoked_by = axis,
  captured = { spaces = north_america_and_london, by = axis },
  declared = { by = { "Japan" }, on = { "United Kingdom", "ANZAC" } },
  refusal = "the United States may not declare war until an Axis power has declared war on it or "
    .. "captured London or a territory in North America, or Japan has declared war on the United "
    .. "Kingdom or ANZAC, or from its 3rd turn at the start of Collect Income",
})

-- The territories Chinese units may enter: China's own, Kwangtung and Burma (003 ¶"While being
-- invaded by Japan, China is also fighting a civil war"; P40-CHINA-MOVE).
local china = {
  "Anhwe", "Chahar", "Hopei", "Hunan", "Jehol", "Kansu", "Kiangsi", "Kiangsu", "Kwangsi",
  "Kweichow", "Manchuria", "Shantung", "Shensi", "Sikang", "Suiyuyan", "Szechwan", "Tsinghai",
  "Yunnan", "Kwangtung", "Burma",
}

-- "China can't declare war on a European Axis power unless one of those powers first either
-- declares war on China or moves units into a territory into which Chinese units are allowed
-- to move. A state of war between China and one Axis power won't affect its relations with the
-- other Axis powers." (A power that declared war on China is at war with it already.)
politics.restrict({
  rule = "G40-POL-CHN",
  power = "China",
  targets = european_axis,
  entered = { spaces = china },
  refusal = "China may declare war on Germany or Italy only once that power has moved units into "
    .. "a territory Chinese units may enter",
})

-- An attack on a strict neutral turns every other strict neutral against the attacker's side
-- (000 · Strict Neutrals), except that Mongolia never turns pro-Axis that way unless the Soviet
-- Union attacks one of its territories (G40-MONGOLIA-NOAXIS; 004 · Mongolia › Strict-Neutrals).
local MONGOLIA = { "Olgiy", "Dzavhan", "Tsagaan-Olom", "Central Mongolia", "Ulaanbaatar", "Buyant-Uhaa" }
require("neutrals").strict_turn({
  rule = "G40-NEUTRAL-STRICT",
  never = { Axis = MONGOLIA },
  unless = { Axis = "Soviet Union" },
})

-- The Soviet-Mongolian Defense Pact (G40-MONGOLIA-PACT): see scripts/mongolia.lua.
require("mongolia").register({
  rule = "G40-MONGOLIA-PACT",
  mongolia = MONGOLIA,
  protector = "Soviet Union",
  aggressor = "Japan",
  korea = "Korea",
})

-- The limits of peace on the Pacific map: Japan's ships kept from the American mainland, the
-- United States' ships from Japanese shores, and Allied units at peace with Japan out of China
-- (G40-QA-JPN-NOGO, G40-POL-US, G40-POL-JPN). See scripts/politics1940.lua.
politics.pacific_peace({ prefix = "G40", allies = { "United Kingdom", "UK Pacific", "ANZAC", "France", "Soviet Union" } })

-- The Dutch territories (the Pacific 1940 rule the Global rules keep, 000 · Political Situation:
-- "except for the rules on Dutch territories on page 9 of the Pacific 1940 rulebook"; G40-POL-UK,
-- G40-POL-ANZ): the United Kingdom and ANZAC take one by moving land units into it in
-- noncombat move (a Pacific one falls under UK Pacific). See scripts/dutch.lua.
require("dutch").register({ rule = "G40-DUTCH", dutch = "Netherlands", takers = { "United Kingdom", "ANZAC" } })

-- "While not at war with Germany or Italy, the United States may end the movement of its sea
-- units on the Europe map only in sea zones that are adjacent to U.S. territories, with one
-- exception: U.S. warships (not transports) may also conduct long-range patrols into sea zone
-- 102" (000 · United States; G40-POL-US). See scripts/politics1940.lua.
politics.neutral_navy({
  id = "G40-POL-US.neutral_navy",
  rule = "G40-POL-US",
  power = "United States",
  patrol_zone = "SZ 102",
  until_war_with = { "Germany", "Italy" },
  map = "europe",
})

-- The Soviet Union at war on one map only stays a neutral power on the other (G40-POL-USSR-
-- THEATRE; 004 · Entering Territories). See scripts/politics1940.lua.
politics.theatre_neutrality({
  rule = "G40-POL-USSR-THEATRE",
  power = "Soviet Union",
  theatres = { europe = { "Germany", "Italy" }, pacific = { "Japan" } },
})
