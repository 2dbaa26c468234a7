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

-- The limits of peace between Japan and the United States (000 · Japan, The United States, the
-- Global rules for this map; 004 · Map › Sea Zones). While not at war with the United States,
-- Japan "may not end the movement of its sea units within 2 sea zones of the United States'
-- mainland territories (Western United States and Alaska)": sea zones 1, 2, 3, 8, 9, 10, 11 and
-- 12 (G40-QA-JPN-NOGO). While not at war with Japan, the United States "may not move any units
-- into or through China or end the movement of its sea units in sea zones that are adjacent to
-- Japan-controlled territories" (G40-POL-US).
politics.peace_limits({
  rule = "G40-QA-JPN-NOGO",
  power = "Japan",
  until_war_with = "United States",
  ships_end_not_in = { "SZ 1", "SZ 2", "SZ 3", "SZ 8", "SZ 9", "SZ 10", "SZ 11", "SZ 12" },
  refusal = "while Japan is not at war with the United States its ships end no move within two sea zones of Western United States or Alaska",
})
politics.peace_limits({
  rule = "P40-US-PEACE",
  power = "United States",
  until_war_with = "Japan",
  ships_end_not_next_to = "Japan",
  units_not_through = { "Anhwe", "Chahar", "Hopei", "Hunan", "Jehol", "Kansu", "Kiangsi", "Kiangsu", "Kwangsi", "Kweichow", "Manchuria", "Shantung", "Shensi", "Sikang", "Suiyuan", "Szechwan", "Tsinghai", "Yunnan" },
  refusal = "while the United States is not at war with Japan it moves no unit into or through China and its ships end no move next to a territory Japan holds",
})

-- "Japan considers movement of units into China by any other Allied power as an act of war
-- against it" (000 · Japan): while at peace with Japan, no other Allied power moves a unit into
-- or through a Chinese territory (004 · China: "the restriction on UK units entering China while
-- UK and Japan are not at war"; "Allied planes can land on Chinese territories if--and only
-- if--that Allied power is at war with Japan").
local chinese = { "Anhwe", "Chahar", "Hopei", "Hunan", "Jehol", "Kansu", "Kiangsi", "Kiangsu", "Kwangsi", "Kweichow", "Manchuria", "Shantung", "Shensi", "Sikang", "Suiyuan", "Szechwan", "Tsinghai", "Yunnan" }
for _, p in ipairs({ "United Kingdom", "ANZAC", "France", "Soviet Union" }) do
  politics.peace_limits({
    rule = "P40-CHINA-ACT-OF-WAR." .. string.gsub(p, " ", "_"),
    power = p,
    until_war_with = "Japan",
    units_not_through = chinese,
    refusal = p .. " is not at war with Japan, which counts Allied units entering China as an act of war against it",
  })
end
