-- Advances whose effect is a rule, not a unit value (000 · Breakthrough Chart 1).

-- "5. War Bonds. During your Collect Income phase, roll a die and collect that many additional
-- IPCs" (G40-RD-WARBONDS). See scripts/war_bonds.lua.
require("war_bonds").register({ id = "research.war_bonds", tech = "war_bonds" })
