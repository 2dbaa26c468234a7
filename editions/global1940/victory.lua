-- How Global 1940 is won (000 · Global Rules, How the War Is Won; G40-VC-AXIS, G40-VC-ALLIES):
-- the Axis control any 8 victory cities on the Europe map or any 6 on the Pacific map for a
-- complete round, with Berlin, Rome or Tokyo at the end of it; the Allies control Berlin, Rome
-- and Tokyo for a complete round, with Washington, London, Paris or Moscow at the end of it. The
-- round, the checks and the capital taken back in time are scripts/victory1940.lua's (004 ·
-- Victory: "8 or more western-hemisphere cities (or 6 or more in the Pacific) continuously").
require("victory1940").register({
  id = "g40_victory",
  turn_order = { "Germany", "Soviet Union", "Japan", "United States", "China", "United Kingdom", "Italy", "ANZAC", "France" },
  cities = 19,
  axis = { maps = { europe = 8, pacific = 6 }, capitals = { "Berlin", "Rome", "Tokyo" } },
  allies = { targets = { "Berlin", "Rome", "Tokyo" }, capitals = { "Washington", "London", "Paris", "Moscow" } },
})
