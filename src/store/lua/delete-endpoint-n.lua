--[[
  Delete an endpoint and take it out of every index in one step, if nobody changed it since the caller
  read it (the caller computed the indexes from what it read). Its `switchyard.endpoint.deleted` fact
  is recorded in the same step.

  KEYS[1]          endpoint record (hash)
  KEYS[2..L+1]     list indexes (zsets) it is in
  KEYS[L+2..]      subscription sets it is in, then F fact keys
  ARGV[1], ARGV[2] the facts and F (see endpoint-facts.lua)
  ARGV[3]          endpoint id
  ARGV[4]          revision the caller read
  ARGV[5]          L, the number of list indexes

  Returns 1 if deleted, 0 if there is no such endpoint, -1 if its revision is no longer ARGV[4].
]]
-- @include store/lua/endpoint-revision.lua
-- @include store/lua/endpoint-facts.lua
local refusal = revisionRefusal(KEYS[1], ARGV[4])
if refusal then
  return refusal
end
local lists = tonumber(ARGV[5])
for i = 2, lists + 1 do
  redis.call('ZREM', KEYS[i], ARGV[3])
end
for i = lists + 2, factKeys() do
  redis.call('SREM', KEYS[i], ARGV[3])
end
redis.call('DEL', KEYS[1])
recordFacts()
return 1
