--[[
  Include (`-- @include store/lua/endpoint-facts.lua`, by the endpoint scripts): the operational facts
  an endpoint change is (switchyard.endpoint.*), decided by the caller from the record it read and
  written here, in the same step as the change, so they are recorded exactly when the change lands.

  Every endpoint script takes the same two leading arguments and the same trailing keys:
    ARGV[1]  the facts, JSON: [[event id, outbox entry JSON], …] ('[]' for none)
    ARGV[2]  F, the number of fact keys at the end of KEYS: 0 (no facts), 1 (the outbox of the
             endpoints' tag) or 2 (the outbox, then the drainer's dirty set: single Redis only)

  factKeys()        the index of the last key that is not a fact key
  recordFacts()     write ARGV[1]'s facts; returns how many it wrote
]]
-- @include store/lua/ops/append-fact.lua

local function factKeys()
  return #KEYS - tonumber(ARGV[2])
end

local function recordFacts()
  local f = tonumber(ARGV[2])
  if f == 0 then
    return 0
  end
  local outbox = KEYS[#KEYS - f + 1]
  local dirty = f == 2 and KEYS[#KEYS] or ''
  local facts = cjson.decode(ARGV[1])
  for _, fact in ipairs(facts) do
    appendFact(outbox, dirty, fact[1], fact[2])
  end
  return #facts
end
