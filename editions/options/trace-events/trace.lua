-- One log line per event: `event NAME field=value; field=value`, fields in name order so the
-- line is the same on every run. The highest priority, so it logs before any rule acts.

local render

local function is_list(t)
  local n = 0
  for _ in pairs(t) do
    n = n + 1
  end
  for i = 1, n do
    if t[i] == nil then
      return false
    end
  end
  return true
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do
    table.insert(keys, tostring(k))
  end
  table.sort(keys)
  return keys
end

render = function(v)
  if type(v) ~= "table" then
    return tostring(v)
  end
  if is_list(v) then
    local parts = {}
    for _, x in ipairs(v) do
      table.insert(parts, render(x))
    end
    return "[" .. table.concat(parts, ", ") .. "]"
  end
  -- A unit count reads as the game says it: "2 infantry".
  if v.unit ~= nil and v.count ~= nil then
    return tostring(v.count) .. " " .. tostring(v.unit)
  end
  local parts = {}
  for _, k in ipairs(sorted_keys(v)) do
    table.insert(parts, k .. "=" .. render(v[k]))
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

for _, name in ipairs(warroom.events) do
  warroom.on(name, { id = "trace." .. name, priority = 1000000 }, function(ev, game)
    local parts = {}
    for _, k in ipairs(sorted_keys(ev)) do
      table.insert(parts, k .. "=" .. render(ev[k]))
    end
    warroom.log("event " .. name .. " " .. table.concat(parts, "; "))
  end)
end
