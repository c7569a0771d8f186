--[[
  Record sink delivery states on several hook records in one call (the workers batch what finishes
  within one tick), never resurrecting a record that has expired: a bare HSET would recreate a partial
  hash with no TTL.

  KEYS[i]      hook key of the i-th update
  ARGV[2i-1]   its field (s:<sink>)
  ARGV[2i]     its state JSON

  Returns an array: 1 where written, 0 where the record no longer exists.
]]
local written = {}
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('HSET', KEYS[i], ARGV[2 * i - 1], ARGV[2 * i])
    written[i] = 1
  else
    written[i] = 0
  end
end
return written
