-- Pacific 1940's national objectives. The Pacific 1940 rulebook's own list is not among the
-- seeds (P40-NO-MISSING): the edition plays the Global 1940 objectives of the Pacific powers
-- (000 · Political Situation, National Objectives, and Bonus Income), which replace it in the
-- Global game, with the Global rule ids. Where a Global objective reaches off this map:
-- - G40-NO-US-1 counts the United States' mainland on this map: Western United States;
-- - G40-NO-US-3 (Mexico with three territories of the Europe map) and G40-NO-US-5 (a land unit
--   in France), G40-NO-UK-1 (the Europe economy) and the Soviet Union's (at war in Europe) are
--   not played.
-- The shared lists are scripts/objectives1940.lua; README.md says the reading. A house layer
-- changes them as any objectives (scripts/objectives.lua).
local O = require("objectives")
local NO = require("objectives1940")

local US = "United States"

O.register(NO.join(NO.japan("G40"), {
  -- The United States: "the Arsenal of Democracy", when at war.
  { id = "G40-NO-US-1", power = US, bonus = 10, name = "National sovereignty",
    condition = O.all_of({ O.at_war(), O.controls({ by = "power", all = { "Western United States" } }) }) },
  { id = "G40-NO-US-2", power = US, bonus = 5, name = "The Pacific possessions",
    condition = O.all_of({ O.at_war(),
      O.controls({ by = "power", all = { "Alaska", "Aleutian Islands", "Hawaiian Islands", "Johnston Island", "Line Islands" } }) }) },
  { id = "G40-NO-US-4", power = US, bonus = 5, name = "The Philippines",
    condition = O.all_of({ O.at_war(), O.controls({ by = "power", all = { "Philippines" } }) }) },
}, NO.china("G40"), NO.uk_pacific("G40", "United Kingdom", { "United Kingdom" }), NO.anzac("G40", "Netherlands")))
