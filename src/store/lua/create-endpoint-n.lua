--[[
  Create an endpoint and index it in one step, so a subscription index never names an endpoint that does
  not exist and an endpoint never exists unindexed.

  KEYS[1]          endpoint record (hash)
  KEYS[2..L+1]     list indexes (zsets, every score 0): all endpoints, and its tenant's
  KEYS[L+2..]      subscription sets to join (none when it is created disabled)
  ARGV[1]          endpoint id
  ARGV[2]          L, the number of list indexes
  ARGV[3..]        field, value pairs of the record (its revision included)

  Returns 1 if created, 0 if the id is already taken.
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
local lists = tonumber(ARGV[2])
for i = 2, lists + 1 do
  redis.call('ZADD', KEYS[i], 0, ARGV[1])
end
for i = lists + 2, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[1])
end
return 1
