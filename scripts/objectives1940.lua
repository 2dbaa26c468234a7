-- The national objectives the 1940 second-edition games share (seed 000: each power's page in
-- Europe 1940, and "Political Situation, National Objectives, and Bonus Income" of the Global
-- rules). Germany's and Italy's are the same in Europe 1940 and Global 1940 (G40-NO-GER-1..6,
-- G40-NO-ITA-1..4); Japan's, China's, ANZAC's and the British Pacific one are the Global rules',
-- which Pacific 1940 plays too (its own list is not among the seeds: P40-NO-MISSING, README).
--
-- Each function returns a list for scripts/objectives.lua; an edition joins the lists it
-- needs and registers them once:
--
--   local O, NO = require("objectives"), require("objectives1940")
--   O.register(NO.join(NO.germany("E40"), NO.italy("E40"), { ...its own... }))
--
-- `prefix` makes the ids ("E40" → "E40-NO-GER-1"): the id names the rule in the log and in
-- `report objectives`. A house rule changes them as any objectives: see scripts/objectives.lua.
local O = require("objectives")

local M = {}

local GERMANY, USSR, US, UK, ITALY, FRANCE, JAPAN, ANZAC, CHINA =
  "Germany", "Soviet Union", "United States", "United Kingdom", "Italy", "France", "Japan", "ANZAC", "China"

-- The lists given, one after the other.
function M.join(...)
  local out = {}
  for _, list in ipairs({ ... }) do
    for _, o in ipairs(list) do
      table.insert(out, o)
    end
  end
  return out
end

-- Germany: "Lebensraum".
function M.germany(prefix)
  return {
    { id = prefix .. "-NO-GER-1", power = GERMANY, bonus = 5, name = "Soviet wheat and oil",
      condition = O.not_at_war({ with = { USSR } }) },
    { id = prefix .. "-NO-GER-2", power = GERMANY, bonus = 5, name = "Lebensraum",
      condition = O.at_war({ with = { USSR } }),
      per = O.each({ by = "power", of = { "Novgorod", "Volgograd", "Russia" } }) },
    { id = prefix .. "-NO-GER-3", power = GERMANY, bonus = 5, name = "Caucasus oil",
      condition = O.all_of({ O.at_war({ with = { USSR } }), O.controls({ by = "side", all = { "Caucasus" } }) }) },
    { id = prefix .. "-NO-GER-4", power = GERMANY, bonus = 5, name = "Afrika Korps",
      condition = O.all_of({
        O.at_war({ with = { UK, FRANCE } }),
        O.controls({ by = "side", all = { "Egypt" } }),
        -- A land unit with a combat value: "an AAA unit alone does not meet it" (004 · NOs).
        O.units_in({ space = "Egypt", domain = "land", by = "power", fighting = true }),
      }) },
    -- "Sweden is not pro-Allies or Allied-controlled": it turns pro-Allies when the Axis attack
    -- another strict neutral, or joins the Allies when a German attack on it fails.
    { id = prefix .. "-NO-GER-5", power = GERMANY, bonus = 5, name = "Iron ore",
      condition = O.all_of({
        O.at_war({ with = { UK, FRANCE } }),
        O.controls({ by = "power", all = { "Denmark", "Norway" } }),
        O.unless(O.any_of({ O.controls({ by = "enemy", all = { "Sweden" } }), O.leans({ space = "Sweden", by = "enemy" }) })),
      }) },
    { id = prefix .. "-NO-GER-6", power = GERMANY, bonus = 2, name = "Middle East oil",
      condition = O.at_war({ with = { UK, FRANCE } }),
      per = O.each({ by = "power", of = { "Iraq", "Persia", "Northwest Persia" } }) },
  }
end

-- Italy: "Mare Nostrum".
function M.italy(prefix)
  return {
    { id = prefix .. "-NO-ITA-1", power = ITALY, bonus = 5, name = "Mare Nostrum",
      condition = O.all_of({
        O.at_war(),
        O.no_enemy_units({
          spaces = { "SZ 92", "SZ 93", "SZ 94", "SZ 95", "SZ 96", "SZ 97", "SZ 98", "SZ 99" },
          tag = "surface_warship", label = "Allied surface warships", of = "side" }),
      }) },
    { id = prefix .. "-NO-ITA-2", power = ITALY, bonus = 5, name = "The Roman Empire",
      condition = O.all_of({ O.at_war(), O.controls({ by = "side", at_least = 3, of = { "Gibraltar", "Southern France", "Greece", "Egypt" } }) }) },
    { id = prefix .. "-NO-ITA-3", power = ITALY, bonus = 5, name = "North Africa",
      condition = O.all_of({ O.at_war(), O.controls({ by = "side", all = { "Morocco", "Algeria", "Tunisia", "Libya", "Tobruk", "Alexandria" } }) }) },
    { id = prefix .. "-NO-ITA-4", power = ITALY, bonus = 2, name = "Middle East oil",
      condition = O.at_war(),
      per = O.each({ by = "power", of = { "Iraq", "Persia", "Northwest Persia" } }) },
  }
end

-- Japan: "The Greater East Asia Co-Prosperity Sphere" (G40-NO-JPN-1..4).
function M.japan(prefix)
  -- "When Japan is at war with the Western Allies (United States, United Kingdom-ANZAC and/or
  -- France)".
  local western_war = O.at_war({ with_any = { US, UK, ANZAC, FRANCE } })
  return {
    -- "has not made an unprovoked declaration of war against United Kingdom-ANZAC": only the
    -- United Kingdom or ANZAC can provoke Japan, and always by declaring war on it (004 ·
    -- Entering Territories), after which Japan is at war with both and declares nothing: every
    -- Japanese declaration on them is unprovoked. French Indo-China attacked even by air alone
    -- costs the objective; sinking French ships elsewhere does not (004 · NOs).
    { id = prefix .. "-NO-JPN-1", power = JAPAN, bonus = 10, name = "Trade with the United States",
      condition = O.all_of({
        O.not_at_war({ with = { US } }),
        O.never({ attacked = { "French Indo-China" } }),
        O.never({ declared_war_on = { UK, ANZAC } }),
      }) },
    { id = prefix .. "-NO-JPN-2", power = JAPAN, bonus = 5, name = "The outer defense perimeter",
      condition = O.all_of({ western_war,
        O.controls({ by = "side", all = { "Guam", "Midway", "Wake Island", "Gilbert Islands", "Solomon Islands" } }) }) },
    { id = prefix .. "-NO-JPN-3", power = JAPAN, bonus = 5, name = "Allied power centers",
      condition = western_war,
      per = O.each({ by = "side", of = { "India", "New South Wales", "Hawaiian Islands", "Western United States" } }) },
    { id = prefix .. "-NO-JPN-4", power = JAPAN, bonus = 5, name = "Strategic resource centers",
      condition = O.all_of({ western_war, O.controls({ by = "side", all = { "Sumatra", "Java", "Borneo", "Celebes" } }) }) },
  }
end

-- China (G40-NO-CHN-1): "6 IPCs if the Burma Road is totally open. Allied powers must control
-- India, Burma, Yunnan, and Szechwan".
function M.china(prefix)
  return {
    { id = prefix .. "-NO-CHN-1", power = CHINA, bonus = 6, name = "The Burma Road",
      condition = O.all_of({ O.at_war(), O.controls({ by = "side", all = { "India", "Burma", "Yunnan", "Szechwan" } }) }) },
  }
end

-- The United Kingdom's Pacific objective (G40-NO-UK-2), paid to `power`: the United Kingdom's
-- Pacific economy. "Calcutta must also be in UK's hands" (004 · NOs: G40-QA-NO-UKPAC). `holders`:
-- the powers that are the United Kingdom (its economies).
function M.uk_pacific(prefix, power, holders)
  return {
    { id = prefix .. "-NO-UK-2", power = power, bonus = 5, name = "The Far East empire",
      condition = O.all_of({
        O.at_war({ with = { JAPAN } }),
        O.controls({ by = holders, all = { "Kwangtung", "Malaya", "India" } }),
      }) },
  }
end

-- ANZAC (G40-NO-ANZ-1, -2).
function M.anzac(prefix, dutch)
  return {
    { id = prefix .. "-NO-ANZ-1", power = ANZAC, bonus = 5, name = "Malaya",
      condition = O.all_of({
        O.at_war({ with = { JAPAN } }),
        O.controls({ by = "side", all = { "Malaya" } }),
        O.controls({ by = "power", all_originally_of = ANZAC }),
      }) },
    { id = prefix .. "-NO-ANZ-2", power = ANZAC, bonus = 5, name = "The outer defense perimeter",
      condition = O.all_of({
        O.at_war({ with = { JAPAN } }),
        O.controls({ by = "side", except = { dutch }, all = { "Dutch New Guinea", "New Guinea", "New Britain", "Solomon Islands" } }),
      }) },
  }
end

return M
