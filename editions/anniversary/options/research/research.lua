-- Advances whose effect is a rule, not a unit value (001 · Breakthrough Chart 1).

-- "5. War Bonds. During your Collect Income phase, roll 1d6 and collect that many additional
-- IPCs." See scripts/war_bonds.lua.
require("war_bonds").register({ id = "research.war_bonds", tech = "war_bonds" })
