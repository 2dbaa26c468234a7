-- How Pacific 1940 is won (003: "Japan wins the game by capturing and controlling 6 victory
-- cities ... continuously for one complete round of play, ... provided that he or she also
-- controls Tokyo at the end of the round"; P40-VC-JAPAN). The seeds give no Allied victory for
-- Pacific 1940 alone: the reading the Global rules imply (their Allies need Berlin, Rome and
-- Tokyo; this map has only Tokyo) is Tokyo held by the Allies for a complete round, with a
-- capital of theirs (Calcutta, Sydney or San Francisco) at the end of it. The round and the
-- checks are scripts/victory1940.lua's.
require("victory1940").register({
  id = "p40_victory",
  turn_order = { "Japan", "United States", "China", "United Kingdom", "ANZAC" },
  cities = 8,
  axis = { cities = 6, capitals = { "Tokyo" } },
  allies = { targets = { "Tokyo" }, capitals = { "Calcutta", "Sydney", "San Francisco" } },
})
