--[[
  Extend the lease of an attempt that is still running, if the caller still holds it (its fencing
  token is the row's). Attempts longer than half a lease call this; short ones never do.

  KEYS[1] delivery row (hash)
  KEYS[2] the bucket's watch set
  ARGV[1] delivery id
  ARGV[2] the caller's fencing token
  ARGV[3] new lease expiry, ms

  Returns 1 if extended, 0 if the lease is no longer the caller's.
]]
if redis.call('HGET', KEYS[1], 'f') ~= ARGV[2] or redis.call('HGET', KEYS[1], 'st') ~= 'sending' then
  return 0
end
redis.call('HSET', KEYS[1], 'lu', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
