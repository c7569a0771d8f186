--[[
  Create an endpoint and index it in one step, so a subscription index never names an endpoint that does
  not exist and an endpoint never exists unindexed; refused when its scope (its tenant, or none) already
  has the most endpoints allowed, so one event's fanout stays bounded.

  KEYS[1]          endpoint record (hash)
  KEYS[2..L+1]     list indexes (zsets, every score 0): all endpoints, then its scope's (counted)
  KEYS[L+2..]      subscription sets to join (none when it is created disabled)
  ARGV[1]          endpoint id
  ARGV[2]          L, the number of list indexes
  ARGV[3]          the most endpoints its scope may have
  ARGV[4..]        field, value pairs of the record (its revision included)

  Returns 1 if created, 0 if the id is already taken, -1 if its scope is full.
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then
  return -1
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
local lists = tonumber(ARGV[2])
for i = 2, lists + 1 do
  redis.call('ZADD', KEYS[i], 0, ARGV[1])
end
for i = lists + 2, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[1])
end
return 1
