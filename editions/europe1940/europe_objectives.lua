-- Europe 1940's national objectives (seed 000, "National Objectives and Bonus Income", and each
-- power's page; rule ids of shared/rules/special.md). A standard rule of the edition: the layer
-- `--with no-objectives` switches them off. Paid by scripts/objectives.lua in the Collect Income
-- phase, one `add_ipcs` per objective met; a power whose capital an enemy holds collects none.
-- "the side" = any power of the Axis or the Allies; "power" = the power itself. France has none
-- (E40-NO-FRA): only its liberation troops (E40-FRANCE-LIBERATION). Germany's and Italy's are
-- the Global game's too: scripts/objectives1940.lua.
--
-- A house rule may drop, change or add objectives: see the top of scripts/objectives.lua.
local O = require("objectives")
local NO = require("objectives1940")

local USSR, US, UK = "Soviet Union", "United States", "United Kingdom"

O.register(NO.join(NO.germany("E40"), {
  -- The Soviet Union: "The Great Patriotic War"
  { id = "E40-NO-USSR-1", power = USSR, bonus = 9, name = "Siberian reserves",
    condition = O.all_of({ O.at_war(), O.controls({ by = "power", all = { "Novosibirsk" } }) }) },
  { id = "E40-NO-USSR-2", power = USSR, bonus = 5, name = "Lend-Lease",
    condition = O.all_of({
      O.at_war(),
      O.no_enemy_units({ spaces = { "SZ 125" }, tag = "surface_warship", label = "Axis surface warships", of = "side" }),
      O.no_enemy_units({ spaces = { "SZ 125" }, tag = "submarine", label = "Axis submarines", of = "side" }),
      O.controls({ by = "power", all = { "Archangel" } }),
      O.no_allied_units({ originally_of = USSR }),
    }) },
  { id = "E40-NO-USSR-3", power = USSR, bonus = 3, name = "Spreading communism",
    condition = O.at_war(),
    per = O.each({ by = "power", originally_of = { "Germany", "Italy" }, originally_neutral = "pro_axis" }) },
  { id = "E40-NO-USSR-4", power = USSR, bonus = 10, name = "The capture of Berlin", once = true,
    condition = O.controls({ by = "power", all = { "Germany" } }) },

  -- The United States: "The Sleeping Giant"
  { id = "E40-NO-US-1", power = US, bonus = 20, name = "The arsenal of democracy",
    condition = O.all_of({ O.at_war(), O.controls({ by = "power", all = { "Eastern United States", "Central United States" } }) }) },
  { id = "E40-NO-US-2", power = US, bonus = 5, name = "The backyard",
    condition = O.all_of({ O.at_war(), O.controls({ by = "power", all = { "Southeastern Mexico", "Central America", "West Indies" } }) }) },

  -- The United Kingdom: "The British Empire"
  { id = "E40-NO-UK-1", power = UK, bonus = 5, name = "The British Empire",
    condition = O.all_of({ O.at_war(), O.controls({ by = "power", all_originally_of = UK }) }) },
}, NO.italy("E40")))
