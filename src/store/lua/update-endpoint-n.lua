--[[
  Change an endpoint and move it between subscription sets in one step, if nobody changed it since the
  caller read it: the caller computed the sets from what it read, so a concurrent change would leave the
  indexes wrong. Every write bumps the record's revision; a caller that gets -1 reads again and retries.

  KEYS[1]          endpoint record (hash)
  KEYS[2..R+1]     subscription sets to leave
  KEYS[R+2..]      subscription sets to join (after leaving, so a set in both ends up joined)
  ARGV[1]          endpoint id
  ARGV[2]          revision the caller read
  ARGV[3]          R, the number of sets to leave
  ARGV[4]          F, the number of field, value pairs to set
  ARGV[5..4+2F]    the pairs
  ARGV[5+2F..]     fields to delete

  Returns 1 if updated, 0 if there is no such endpoint, -1 if its revision is no longer ARGV[2].
]]
-- @include store/lua/endpoint-revision.lua
local refusal = revisionRefusal(KEYS[1], ARGV[2])
if refusal then
  return refusal
end
local leave = tonumber(ARGV[3])
for i = 2, leave + 1 do
  redis.call('SREM', KEYS[i], ARGV[1])
end
for i = leave + 2, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[1])
end
local count = tonumber(ARGV[4])
if count > 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 5, 4 + 2 * count))
end
if #ARGV >= 5 + 2 * count then
  redis.call('HDEL', KEYS[1], unpack(ARGV, 5 + 2 * count))
end
redis.call('HINCRBY', KEYS[1], 'rev', 1)
return 1
