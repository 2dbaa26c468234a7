-- Japan's kamikaze attacks (003 · Kamikaze; P40-KAMIKAZE-*): the zones are the board's
-- (`tags = ["kamikaze"]`: the sea zones around Japan, Okinawa, Iwo Jima, Formosa and the
-- Marianas), the tokens Japan's data (`counters`), the rule scripts/kamikaze1940.lua.
require("kamikaze1940").register({ rule = "P40-KAMIKAZE", japan = "Japan" })
