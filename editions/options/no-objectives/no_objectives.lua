-- The edition registered its objectives under scripts/objectives.lua's default id.
warroom.remove_handler("national_objectives.bonus")
warroom.remove_handler("national_objectives.bonus.check")
