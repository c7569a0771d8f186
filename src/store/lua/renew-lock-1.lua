--[[
  Extend a lock's expiry only if the caller still holds it: a holder that stalled past the expiry must
  not extend the lock another process has taken since.

  KEYS[1] lock key
  ARGV[1] holder token
  ARGV[2] new time to live, ms

  Returns 1 if extended, 0 if the lock was not (or no longer) held by ARGV[1].
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
