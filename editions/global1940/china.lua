-- China in Global 1940: the Pacific 1940 rules stand (000 · Global Rules: "Consult the Pacific
-- 1940 rulebook when dealing with game systems unique to that game"): scripts/china1940.lua.
require("china1940").register({
  rule = "G40-CHINA",
  china = "China",
  burma_road = { "India", "Burma", "Yunnan", "Szechwan" },
  complexes = { "minor_industrial_complex", "major_industrial_complex" },
})
