--[[
  Mark a pending delivery whose job could not be added, and make it due for reconcile at once. Only a
  row still pending is marked: one a worker has picked up meanwhile has its job.

  KEYS[1] delivery row (hash)
  KEYS[2] the bucket's watch set
  ARGV[1] delivery id
  ARGV[2] the enqueue error (bounded)
  ARGV[3] now, ms

  Returns 1 if marked, 0 if the row is not pending.
]]
if redis.call('HGET', KEYS[1], 'st') ~= 'pending' then
  return 0
end
redis.call('HSET', KEYS[1], 'ef', 1, 'ee', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
