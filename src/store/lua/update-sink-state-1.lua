--[[
  Record one sink's delivery state on a hook record, but never resurrect a record that has expired
  (a bare HSET would recreate a partial hash with no TTL).

  KEYS[1] hook key
  ARGV[1] field (s:<sink>)
  ARGV[2] state JSON

  Returns 1 if written, 0 if the record no longer exists.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
