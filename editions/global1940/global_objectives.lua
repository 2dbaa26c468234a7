-- Global 1940's national objectives (000 · Political Situation, National Objectives, and Bonus
-- Income: they replace both maps' lists). Germany's, Italy's, Japan's, China's, ANZAC's and the
-- British Pacific one are shared (scripts/objectives1940.lua); the Soviet Union's, the United
-- States' and the British Europe one are the Global game's own. Each economy of the United
-- Kingdom collects its own (United Kingdom: London's; UK Pacific: Calcutta's), and an economy
-- whose capital an enemy holds collects none. `--with no-objectives` plays without them.
local O = require("objectives")
local NO = require("objectives1940")

local USSR, US, UK, UKP = "Soviet Union", "United States", "United Kingdom", "UK Pacific"
local BRITISH = { UK, UKP }

-- "When the Soviet Union is at war in Europe" / "the United Kingdom is at war in Europe".
local function at_war_in_europe()
  return O.at_war({ with_any = { "Germany", "Italy" } })
end

O.register(NO.join(NO.germany("G40"), {
  -- The Soviet Union: a security buffer of foreign territory.
  -- "Free of Axis warships": a German submarine there denies it even while the Soviet Union is
  -- at peace with Germany (004 · NOs: G40-QA-NO-USSR-125).
  { id = "G40-NO-USSR-1", power = USSR, bonus = 5, name = "Lend-Lease",
    condition = O.all_of({
      at_war_in_europe(),
      O.no_enemy_units({ spaces = { "SZ 125" }, tag = "surface_warship", label = "Axis surface warships", of = "side" }),
      O.no_enemy_units({ spaces = { "SZ 125" }, tag = "submarine", label = "Axis submarines", of = "side" }),
      O.controls({ by = "power", all = { "Archangel" } }),
      O.no_allied_units({ originally_of = USSR }),
    }) },
  -- "Originally pro-Axis neutral" is the map at the start: Sweden never counts (004 · NOs).
  { id = "G40-NO-USSR-2", power = USSR, bonus = 3, name = "Spreading communism",
    condition = at_war_in_europe(),
    per = O.each({ by = "power", originally_of = { "Germany", "Italy" }, originally_neutral = "pro_axis" }) },
  { id = "G40-NO-USSR-3", power = USSR, bonus = 10, name = "The capture of Berlin", once = true,
    condition = O.controls({ by = "power", all = { "Germany" } }) },
}, NO.japan("G40"), {
  -- The United States: "the Arsenal of Democracy", when at war.
  { id = "G40-NO-US-1", power = US, bonus = 10, name = "Basic national sovereignty",
    condition = O.all_of({ O.at_war(), O.controls({ by = "power", all = { "Eastern United States", "Central United States", "Western United States" } }) }) },
  { id = "G40-NO-US-2", power = US, bonus = 5, name = "The Pacific possessions",
    condition = O.all_of({ O.at_war(),
      O.controls({ by = "power", all = { "Alaska", "Aleutian Islands", "Hawaiian Islands", "Johnston Island", "Line Islands" } }) }) },
  { id = "G40-NO-US-3", power = US, bonus = 5, name = "Defense treaties and trade",
    condition = O.all_of({ O.at_war(),
      O.controls({ by = "power", all = { "Mexico", "Southeastern Mexico", "Central America", "West Indies" } }) }) },
  { id = "G40-NO-US-4", power = US, bonus = 5, name = "The Philippines",
    condition = O.all_of({ O.at_war(), O.controls({ by = "power", all = { "Philippines" } }) }) },
  { id = "G40-NO-US-5", power = US, bonus = 5, name = "The Great Alliance",
    condition = O.all_of({ O.at_war(), O.units_in({ space = "France", domain = "land", by = "power" }) }) },
}, NO.china("G40"), {
  -- The United Kingdom's Europe economy: "all of its original territories in its European
  -- economy" (West India is the Pacific economy's: 004 · UK Economy).
  { id = "G40-NO-UK-1", power = UK, bonus = 5, name = "The British Empire",
    condition = O.all_of({ at_war_in_europe(), O.controls({ by = BRITISH, all_originally_of = UK }) }) },
}, NO.uk_pacific("G40", UKP, BRITISH), NO.italy("G40"), NO.anzac("G40", "Netherlands")))
