-- Heard before and after every step of every battle; changes nothing.
warroom.on("before_combat_step", { id = "idle.before" }, function(ev, game) end)
warroom.on("after_combat_step", { id = "idle.after" }, function(ev, game) end)
