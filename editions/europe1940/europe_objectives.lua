-- Europe 1940's national objectives (seed 000, "National Objectives and Bonus Income", and each
-- power's page; rule ids of shared/rules/special.md). A standard rule of the edition: the layer
-- `--with no-objectives` switches them off. Paid by scripts/objectives.lua in the Collect Income
-- phase, one `add_ipcs` per objective met; a power whose capital an enemy holds collects none.
-- "the side" = any power of the Axis or the Allies; "power" = the power itself. France has none
-- (E40-NO-FRA): only its liberation troops (E40-FRANCE-LIBERATION).
--
-- A house rule may drop, change or add objectives: see the top of scripts/objectives.lua.
local O = require("objectives")

local GERMANY, USSR, US, UK, ITALY, FRANCE = "Germany", "Soviet Union", "United States", "United Kingdom", "Italy", "France"

O.register({
  -- Germany: "Lebensraum"
  { id = "E40-NO-GER-1", power = GERMANY, bonus = 5, name = "Soviet wheat and oil",
    condition = O.not_at_war({ with = { USSR } }) },
  { id = "E40-NO-GER-2", power = GERMANY, bonus = 5, name = "Lebensraum",
    condition = O.at_war({ with = { USSR } }),
    per = O.each({ by = "power", of = { "Novgorod", "Volgograd", "Russia" } }) },
  { id = "E40-NO-GER-3", power = GERMANY, bonus = 5, name = "Caucasus oil",
    condition = O.all_of({ O.at_war({ with = { USSR } }), O.controls({ by = "side", all = { "Caucasus" } }) }) },
  { id = "E40-NO-GER-4", power = GERMANY, bonus = 5, name = "Afrika Korps",
    condition = O.all_of({
      O.at_war({ with = { UK, FRANCE } }),
      O.controls({ by = "side", all = { "Egypt" } }),
      -- A land unit with a combat value: "an AAA unit alone does not meet it" (004 · NOs).
      O.units_in({ space = "Egypt", domain = "land", by = "power", fighting = true }),
    }) },
  -- "Sweden is not pro-Allies or Allied-controlled": it turns pro-Allies when the Axis attack
  -- another strict neutral, or joins the Allies when a German attack on it fails.
  { id = "E40-NO-GER-5", power = GERMANY, bonus = 5, name = "Iron ore",
    condition = O.all_of({
      O.at_war({ with = { UK, FRANCE } }),
      O.controls({ by = "power", all = { "Denmark", "Norway" } }),
      O.unless(O.any_of({ O.controls({ by = "enemy", all = { "Sweden" } }), O.leans({ space = "Sweden", by = "enemy" }) })),
    }) },
  { id = "E40-NO-GER-6", power = GERMANY, bonus = 2, name = "Middle East oil",
    condition = O.at_war({ with = { UK, FRANCE } }),
    per = O.each({ by = "power", of = { "Iraq", "Persia", "Northwest Persia" } }) },

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
    per = O.each({ by = "power", originally_of = { GERMANY, ITALY }, originally_neutral = "pro_axis" }) },
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

  -- Italy: "Mare Nostrum"
  { id = "E40-NO-ITA-1", power = ITALY, bonus = 5, name = "Mare Nostrum",
    condition = O.all_of({
      O.at_war(),
      O.no_enemy_units({
        spaces = { "SZ 92", "SZ 93", "SZ 94", "SZ 95", "SZ 96", "SZ 97", "SZ 98", "SZ 99" },
        tag = "surface_warship", label = "Allied surface warships", of = "side" }),
    }) },
  { id = "E40-NO-ITA-2", power = ITALY, bonus = 5, name = "The Roman Empire",
    condition = O.all_of({ O.at_war(), O.controls({ by = "side", at_least = 3, of = { "Gibraltar", "Southern France", "Greece", "Egypt" } }) }) },
  { id = "E40-NO-ITA-3", power = ITALY, bonus = 5, name = "North Africa",
    condition = O.all_of({ O.at_war(), O.controls({ by = "side", all = { "Morocco", "Algeria", "Tunisia", "Libya", "Tobruk", "Alexandria" } }) }) },
  { id = "E40-NO-ITA-4", power = ITALY, bonus = 2, name = "Middle East oil",
    condition = O.at_war(),
    per = O.each({ by = "power", of = { "Iraq", "Persia", "Northwest Persia" } }) },
})
