--[[
  Create a replay record unless its tenant already has `cap` live replays (running or paused): the
  per-tenant bound that keeps one tenant from filling the replay runners. The tenant's live set is
  pruned first of ids whose record has ended (done, cancelled) or expired, so it never drifts (an ending
  replay also leaves it, in commit-replay-step-n.lua, so the set goes with its last live replay).

  KEYS[1] the new replay's record (hash)
  KEYS[2] the replay index (zset, all scores 0)
  KEYS[3] the tenant's live replays (set of ids)
  ARGV[1] cap: live replays the tenant may have
  ARGV[2] the new replay's id
  ARGV[3] the key prefix of replay records (prefix .. id is a record; same hash tag as KEYS)
  ARGV[4..] the record's fields and values, in pairs

  Returns {1, live} when created (live counts it), {0, live} when the tenant is at its cap.
]]
local live = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  local state = redis.call('HGET', ARGV[3] .. id, 'state')
  if state == 'running' or state == 'paused' then
    live = live + 1
  else
    redis.call('SREM', KEYS[3], id)
  end
end
if live >= tonumber(ARGV[1]) then
  return {0, live}
end
local fields = {}
for i = 4, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[2], 0, ARGV[2])
redis.call('SADD', KEYS[3], ARGV[2])
return {1, live + 1}
