-- The Anniversary Edition's national objectives (seed 001, "National Objectives & Bonus
-- Income"; rule ids of shared/rules/special.md). The seed lost each objective's amount and
-- subject; they come from TripleA's Anniversary XMLs (README.md). "the side" = the Axis or the
-- Allies, any power of them; "power" = the power itself. Paid by scripts/objectives.lua in the
-- Collect Income phase, one `add_ipcs` per objective met.
--
-- A house rule may drop, change or add objectives: see the top of scripts/objectives.lua.
local O = require("objectives")

O.register({
  -- The United States: "The Arsenal of Democracy"
  { id = "AA50-NO-US-1", power = "United States", bonus = 5, name = "The Arsenal of Democracy",
    condition = O.controls({ by = "side", all = {
      "Western United States", "Central United States", "Eastern United States" } }) },
  { id = "AA50-NO-US-2", power = "United States", bonus = 5, name = "The Arsenal of Democracy",
    condition = O.controls({ by = "side", all = { "Philippine Islands" } }) },
  { id = "AA50-NO-US-3", power = "United States", bonus = 5, name = "The Arsenal of Democracy",
    condition = O.controls({ by = "side", all = { "France" } }) },
  { id = "AA50-NO-US-4", power = "United States", bonus = 5, name = "The Arsenal of Democracy",
    condition = O.controls({ by = "side", at_least = 3, of = {
      "Midway", "Wake Island", "Hawaiian Islands", "Solomon Islands" } }) },

  -- The United Kingdom: "The British Empire"
  { id = "AA50-NO-UK-1", power = "United Kingdom", bonus = 5, name = "The British Empire",
    condition = O.controls({ by = "side", all = {
      "Eastern Canada", "Western Canada", "Gibraltar", "Egypt", "Australia", "Union of South Africa" } }) },
  -- "originally under Japan's control": printed Japanese on the board (README.md).
  { id = "AA50-NO-UK-2", power = "United Kingdom", bonus = 5, name = "The British Empire",
    condition = O.controls({ by = "side", at_least = 1, originally_of = "Japan" }) },
  { id = "AA50-NO-UK-3", power = "United Kingdom", bonus = 5, name = "The British Empire",
    condition = O.controls({ by = "side", at_least = 1, of = { "France", "Balkans" } }) },

  -- The Soviet Union: "The Great Patriotic War"
  { id = "AA50-NO-USSR-1", power = "Soviet Union", bonus = 10, name = "The Great Patriotic War",
    condition = O.controls({ by = "side", at_least = 3, of = {
      "Norway", "Finland", "Poland", "Bulgaria/Romania", "Czechoslovakia/Hungary", "Balkans" } }) },
  { id = "AA50-NO-USSR-2", power = "Soviet Union", bonus = 5, name = "The Great Patriotic War",
    condition = O.all_of({
      O.no_allied_units(),
      O.controls({ by = "power", all = { "Archangel" } }),
    }) },

  -- Germany: "Lebensraum"
  { id = "AA50-NO-GER-1", power = "Germany", bonus = 5, name = "Lebensraum",
    condition = O.controls({ by = "side", all = {
      "France", "Northwestern Europe", "Germany", "Czechoslovakia/Hungary", "Bulgaria/Romania", "Poland" } }) },
  { id = "AA50-NO-GER-2", power = "Germany", bonus = 5, name = "Lebensraum",
    condition = O.controls({ by = "side", at_least = 3, of = {
      "Baltic States", "East Poland", "Ukraine", "Eastern Ukraine", "Belorussia" } }) },
  { id = "AA50-NO-GER-3", power = "Germany", bonus = 5, name = "Lebensraum",
    condition = O.controls({ by = "side", at_least = 1, of = { "Karelia S.S.R.", "Caucasus" } }) },

  -- Japan: "The Greater East Asia Co-Prosperity Sphere"
  { id = "AA50-NO-JPN-1", power = "Japan", bonus = 5, name = "The Greater East Asia Co-Prosperity Sphere",
    condition = O.controls({ by = "side", all = { "Manchuria", "Kiangsu", "French Indo-China/Thailand" } }) },
  { id = "AA50-NO-JPN-2", power = "Japan", bonus = 5, name = "The Greater East Asia Co-Prosperity Sphere",
    condition = O.controls({ by = "side", at_least = 4, of = {
      "Kwangtung", "East Indies", "Borneo", "Philippine Islands", "New Guinea", "Solomon Islands" } }) },
  { id = "AA50-NO-JPN-3", power = "Japan", bonus = 5, name = "The Greater East Asia Co-Prosperity Sphere",
    condition = O.controls({ by = "side", at_least = 1, of = { "Hawaiian Islands", "Australia", "India" } }) },

  -- Italy: "Mare Nostrum"
  { id = "AA50-NO-ITA-1", power = "Italy", bonus = 5, name = "Mare Nostrum",
    condition = O.all_of({
      O.controls({ by = "side", all = { "Italy", "Balkans", "Morocco/Algeria", "Libya" } }),
      -- battleships, carriers, cruisers and destroyers (001 · Sea Units), not submarines nor
      -- transports
      O.no_enemy_units({ tag = "surface_warship", label = "surface warships",
        spaces = { "SZ 13", "SZ 14", "SZ 15" } }),
    }) },
  { id = "AA50-NO-ITA-2", power = "Italy", bonus = 5, name = "Mare Nostrum",
    condition = O.controls({ by = "side", at_least = 3, of = { "Egypt", "Trans-Jordan", "France", "Gibraltar" } }) },
})
