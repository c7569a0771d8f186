--[[
  Release a lock only if the caller still holds it: a runner whose lock expired must not delete the lock
  another runner has taken since.

  KEYS[1] lock key
  ARGV[1] holder token

  Returns 1 if released, 0 if the lock was not (or no longer) held by ARGV[1].
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
