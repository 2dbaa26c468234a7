-- The political situation of Pacific 1940: the condition on the United States' declarations.
-- The Pacific 1940 rulebook is not among the seeds; the rule is the 1940 second edition text of
-- the excerpts (003 ¶"The United States may not declare war on any Axis power unless"), the same
-- as Global's. See scripts/politics1940.lua.
local politics = require("politics1940")

-- North America on this map.
local north_america = { "Alaska", "Aleutian Islands", "Mexico", "Western Canada", "Western United States" }

politics.restrict({
  rule = "G40-POL-US",
  power = "United States",
  from_round = 3,
  round_phase = "collect_income",
  provoked_by = { "Japan" },
  captured = { spaces = north_america, by = { "Japan" } },
  declared = { by = { "Japan" }, on = { "United Kingdom", "ANZAC" } },
  refusal = "the United States may not declare war until Japan has declared war on it, on the "
    .. "United Kingdom or on ANZAC, or captured a territory in North America, or from its 3rd "
    .. "turn at the start of Collect Income",
})

-- "The first attack by either side on a neutral territory, successful or not, makes all the
-- remaining neutrals friendly to the other side" (003; P40-NEUTRALS): every neutral of this map
-- is strict, so it is the strict neutrals' turn of scripts/neutrals.lua.
require("neutrals").strict_turn({ rule = "P40-NEUTRALS" })

-- The United Kingdom and ANZAC take Dutch territories by moving land units into them in
-- noncombat move (003; P40-DUTCH). See scripts/dutch.lua. Attacks on them are acts of war on the
-- United Kingdom and ANZAC: the Netherlands go to war with them (politics.toml groups).
require("dutch").register({ rule = "P40-DUTCH", dutch = "Netherlands", takers = { "United Kingdom", "ANZAC" } })

-- The limits of peace on the Pacific map: Japan's ships kept from the American mainland, the
-- United States' ships from Japanese shores, and Allied units at peace with Japan out of China
-- (G40-QA-JPN-NOGO, G40-POL-US, G40-POL-JPN). See scripts/politics1940.lua.
politics.pacific_peace({ prefix = "P40", allies = { "United Kingdom", "ANZAC", "France", "Soviet Union" } })
