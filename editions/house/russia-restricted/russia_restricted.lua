-- Russia Restricted (house rule HOUSE-RR): "The Soviet Union may not attack in its first turn."
-- Every move of the combat move phase is the start of an attack (the engine ends combat moves
-- only in hostile spaces, or loading for an amphibious assault), so the rule is one veto on the
-- Soviet Union's combat moves in round 1, the round of its first turn in both scenarios.

local SOVIET = "Soviet Union"
local FIRST_ROUND = 1

warroom.on("validate_move", { id = "house.russia_restricted", filter = { power = SOVIET, phase = "combat_move" } },
  function(ev, game)
    if game.round == FIRST_ROUND then
      return { veto = `Russia Restricted: the Soviet Union may not attack in its first turn (round {FIRST_ROUND}), `
        .. `and {ev.from} to {ev.to} is a combat move; move in noncombat move instead [HOUSE-RR]` }
    end
  end)

-- Said when the Soviet Union's first combat move begins, so the player knows before moving.
warroom.on("phase_begin", { id = "house.russia_restricted.notice", filter = { power = SOVIET, phase = "combat_move" } },
  function(ev, game)
    if ev.round == FIRST_ROUND then
      warroom.log("Russia Restricted: the Soviet Union may not attack in round 1 [HOUSE-RR]")
    end
  end)
