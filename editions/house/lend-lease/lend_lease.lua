-- HOUSE-NO-LEND-LEASE, an objective beside the Anniversary Edition's (registered by the
-- national-objectives option, which this layer extends). scripts/objectives.lua pays it in the
-- Soviet Collect Income phase with a handler of its own, "house.lend_lease", after the
-- rulebook's ("national_objectives.bonus", registered by an earlier layer); its game_setup
-- check, "house.lend_lease.check", fails the game's start if a name below is not on the board.
local O = require("objectives")

O.register({
  { id = "HOUSE-NO-LEND-LEASE", power = "Soviet Union", bonus = 5, name = "Lend-Lease",
    condition = O.all_of({
      O.controls({ by = "side", all = { "Persia" } }),
      O.controls({ by = "power", all = { "Caucasus" } }),
    }) },
}, { id = "house.lend_lease" })
