-- How Europe 1940 is won (000 · How the War Is Won; Winning the Game; Capturing and Liberating
-- Capitals): the Axis hold at least 8 of the 11 victory cities continuously for a complete round,
-- with Berlin or Rome at the end of it; the Allies hold Berlin and Rome for a complete round,
-- with Washington, London, Paris or Moscow at the end of it. The round, the checks and the
-- capital taken back in time are scripts/victory1940.lua's.
require("victory1940").register({
  id = "e40_victory",
  turn_order = { "Germany", "Soviet Union", "United States", "United Kingdom", "Italy", "France" },
  cities = 11,
  axis = { cities = 8, capitals = { "Berlin", "Rome" } },
  allies = { targets = { "Berlin", "Rome" }, capitals = { "Washington", "London", "Paris", "Moscow" } },
})
