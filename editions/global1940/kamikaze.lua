-- Japan's kamikaze attacks in Global 1940: the Pacific 1940 rule (scripts/kamikaze1940.lua), the
-- same zones (`tags = ["kamikaze"]` on SZ 6, 17, 19, 20, 22) and Japan's tokens (`counters`).
require("kamikaze1940").register({ rule = "G40-KAMIKAZE", japan = "Japan" })
