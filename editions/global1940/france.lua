-- France's liberation troops (000 · France, Troop Bonus; G40-FRA-BONUS): up to 12 IPCs of French
-- units placed free in France the first time the Allies liberate it, once a game. The rule is
-- scripts/france1940.lua, as in Europe 1940.
require("france1940").register({ rule = "G40-FRA-BONUS", id = "g40_france" })
