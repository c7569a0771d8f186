--[[
  Change an endpoint and move it between subscription sets in one step, if nobody changed it since the
  caller read it: the caller computed the sets from what it read, so a concurrent change would leave the
  indexes wrong. Every write bumps the record's revision; a caller that gets -1 reads again and retries.
  The change's operational facts (updated, disabled, enabled) are recorded in the same step.

  KEYS[1]          endpoint record (hash)
  KEYS[2..R+1]     subscription sets to leave
  KEYS[R+2..]      subscription sets to join (after leaving, so a set in both ends up joined), then F
                   fact keys
  ARGV[1], ARGV[2] the facts and F (see endpoint-facts.lua)
  ARGV[3]          endpoint id
  ARGV[4]          revision the caller read
  ARGV[5]          R, the number of sets to leave
  ARGV[6]          P, the number of field, value pairs to set
  ARGV[7..6+2P]    the pairs
  ARGV[7+2P..]     fields to delete

  Returns 1 if updated, 0 if there is no such endpoint, -1 if its revision is no longer ARGV[4].
]]
-- @include store/lua/endpoint-revision.lua
-- @include store/lua/endpoint-facts.lua
local refusal = revisionRefusal(KEYS[1], ARGV[4])
if refusal then
  return refusal
end
local leave = tonumber(ARGV[5])
for i = 2, leave + 1 do
  redis.call('SREM', KEYS[i], ARGV[3])
end
for i = leave + 2, factKeys() do
  redis.call('SADD', KEYS[i], ARGV[3])
end
local count = tonumber(ARGV[6])
if count > 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 7, 6 + 2 * count))
end
if #ARGV >= 7 + 2 * count then
  redis.call('HDEL', KEYS[1], unpack(ARGV, 7 + 2 * count))
end
redis.call('HINCRBY', KEYS[1], 'rev', 1)
recordFacts()
return 1
