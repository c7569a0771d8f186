--[[
  Create an endpoint and index it in one step, so a subscription index never names an endpoint that does
  not exist and an endpoint never exists unindexed; refused when its scope (its tenant, or none) already
  has the most endpoints allowed, so one event's fanout stays bounded. Its `switchyard.endpoint.created`
  fact is recorded in the same step (endpoint-facts.lua).

  KEYS[1]          endpoint record (hash)
  KEYS[2..L+1]     list indexes (zsets, every score 0): all endpoints, then its scope's (counted)
  KEYS[L+2..]      subscription sets to join (none when it is created disabled), then F fact keys
  ARGV[1], ARGV[2] the facts and F (see endpoint-facts.lua)
  ARGV[3]          endpoint id
  ARGV[4]          L, the number of list indexes
  ARGV[5]          the most endpoints its scope may have
  ARGV[6..]        field, value pairs of the record (its revision included)

  Returns 1 if created, 0 if the id is already taken, -1 if its scope is full.
]]
-- @include store/lua/endpoint-facts.lua
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) then
  return -1
end
redis.call('HSET', KEYS[1], unpack(ARGV, 6))
local lists = tonumber(ARGV[4])
for i = 2, lists + 1 do
  redis.call('ZADD', KEYS[i], 0, ARGV[3])
end
for i = lists + 2, factKeys() do
  redis.call('SADD', KEYS[i], ARGV[3])
end
recordFacts()
return 1
