--[[
  Drop emptied DLQ indexes from their bucket's registry, atomically with the emptiness check, so an
  index that a concurrent death has just added to stays registered (and trimmed later).

  KEYS[1]   the bucket's index registry (set)
  KEYS[2..] index keys to check

  Returns how many were dropped.
]]
local dropped = 0
for i = 2, #KEYS do
  if redis.call('ZCARD', KEYS[i]) == 0 then
    dropped = dropped + redis.call('SREM', KEYS[1], KEYS[i])
  end
end
return dropped
