--[[
  Delete an endpoint and take it out of every index in one step, if nobody changed it since the caller
  read it (the caller computed the indexes from what it read).

  KEYS[1]          endpoint record (hash)
  KEYS[2..L+1]     list indexes (zsets) it is in
  KEYS[L+2..]      subscription sets it is in
  ARGV[1]          endpoint id
  ARGV[2]          revision the caller read
  ARGV[3]          L, the number of list indexes

  Returns 1 if deleted, 0 if there is no such endpoint, -1 if its revision is no longer ARGV[2].
]]
-- @include store/lua/endpoint-revision.lua
local refusal = revisionRefusal(KEYS[1], ARGV[2])
if refusal then
  return refusal
end
local lists = tonumber(ARGV[3])
for i = 2, lists + 1 do
  redis.call('ZREM', KEYS[i], ARGV[1])
end
for i = lists + 2, #KEYS do
  redis.call('SREM', KEYS[i], ARGV[1])
end
redis.call('DEL', KEYS[1])
return 1
