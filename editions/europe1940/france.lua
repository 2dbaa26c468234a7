-- France's liberation troops (000 · France; E40-FRANCE-LIBERATION): up to 12 IPCs of French units
-- placed free in France the first time the Allies liberate it. The rule is scripts/france1940.lua.
require("france1940").register({ rule = "E40-FRANCE-LIBERATION", id = "e40_france" })
