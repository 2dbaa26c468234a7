-- China in Pacific 1940 (003 · China): purchases, placement and Japanese complexes retaken are
-- scripts/china1940.lua's; the rest is China's data in powers.toml.
require("china1940").register({
  rule = "P40-CHINA",
  china = "China",
  burma_road = { "India", "Burma", "Yunnan", "Szechwan" },
  complexes = { "minor_industrial_complex", "major_industrial_complex" },
})
