-- HOUSE-AID. The engine reads `lend AMOUNT POWER` in the Lend-Lease phase and fires `command`;
-- this handler refuses what the rule does not allow (a veto, with the reason) and carries out
-- the rest with two `add_ipcs` requests. The round of the last aid is kept in the layer's
-- store, so the aid is once a turn (and `undo` takes it back with the command).
local DONOR = "United States"
local ALLOWED = { ["United Kingdom"] = true, ["Soviet Union"] = true }

warroom.on("command", { id = "house.aid", filter = { command = "lend" } }, function(ev, game)
  local amount, to = ev.args.amount, ev.args.to
  if not ALLOWED[to] then
    return { veto = "Lend-Lease aid goes to the United Kingdom or the Soviet Union, not " .. to }
  end
  if warroom.store.sent == game.round then
    return { veto = "the United States has sent its aid this turn" }
  end
  if game:treasury(DONOR) < amount then
    return { veto = string.format("the United States has %d IPCs, not %d", game:treasury(DONOR), amount) }
  end
  warroom.store.sent = game.round
  game:request({ command = "add_ipcs", power = DONOR, amount = -amount, reason = "Lend-Lease aid" })
  game:request({ command = "add_ipcs", power = to, amount = amount, reason = "Lend-Lease aid" })
end)
