--[[
  Take a dead delivery off its DLQ indexes (an operator purged it); the row stays dead until it
  expires with its record.

  KEYS[1]   delivery row (hash)
  KEYS[2..] the DLQ index keys the row is listed in
  ARGV[1]   delivery id

  Returns 1 if the row was dead and is now unlisted, 0 otherwise.
]]
if redis.call('HGET', KEYS[1], 'st') ~= 'dead' then
  return 0
end
for i = 2, #KEYS do
  redis.call('ZREM', KEYS[i], ARGV[1])
end
redis.call('HSET', KEYS[1], 'purged', 1)
return 1
