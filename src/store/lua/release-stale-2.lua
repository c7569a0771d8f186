--[[
  Release a recovery claim (claim-stale-2.lua) once its enqueue was attempted. A successful enqueue
  parks the row's watch score one horizon ahead (so sweeps within it leave the row alone) and clears
  the enqueue-failed mark; a failed one records the bounded error and leaves the row due at once. A
  row a worker has claimed meanwhile keeps the watch score its lease set.

  KEYS[1] delivery row (hash)
  KEYS[2] the bucket's watch set
  ARGV[1] delivery id
  ARGV[2] enqueue token
  ARGV[3] next watch score
  ARGV[4] '' on success, else the enqueue error

  Returns 1 if released, 0 if the claim was not (or no longer) the caller's.
]]
if redis.call('HGET', KEYS[1], 'ek') ~= ARGV[2] then
  return 0
end
redis.call('HDEL', KEYS[1], 'ek')
local st = redis.call('HGET', KEYS[1], 'st')
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[1], 'ef', 'ee')
else
  redis.call('HSET', KEYS[1], 'ef', 1, 'ee', ARGV[4])
end
if st == 'pending' or st == 'retrying' then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
end
return 1
