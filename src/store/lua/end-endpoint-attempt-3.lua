--[[
  End one outbound attempt that the endpoint answered (or failed to): give its concurrency slot back and
  count it in the endpoint's health buckets, in one call (every key is in the endpoint's hash tag).
  The buckets: the minute's and the hour's (each a hash with n attempts, ok successes, d<bin> per
  duration bin), each expiring once its window has passed; the hour's also keeps the newest attempt's
  outcome (ls: status code or error class, lt: when).

  KEYS[1]  the endpoint's concurrency slots (zset: holder -> lease expiry)
  KEYS[2]  the minute's bucket      KEYS[3]  the hour's bucket
  ARGV[1]  the holder whose slot is given back
  ARGV[2]  1 if the attempt succeeded, else 0
  ARGV[3]  its duration bin
  ARGV[4]  its outcome (status code, or error class when there was no answer)
  ARGV[5]  when it was sent, ms
  ARGV[6]  the minute bucket's expiry, s     ARGV[7]  the hour bucket's expiry, s

  Returns 1 if the holder had a slot (0: already given back, or its lease lapsed and it was dropped).
]]
local released = redis.call('ZREM', KEYS[1], ARGV[1])
for i = 2, 3 do
  redis.call('HINCRBY', KEYS[i], 'n', 1)
  if ARGV[2] == '1' then
    redis.call('HINCRBY', KEYS[i], 'ok', 1)
  end
  redis.call('HINCRBY', KEYS[i], 'd' .. ARGV[3], 1)
end
local lt = redis.call('HGET', KEYS[3], 'lt')
if not lt or tonumber(lt) <= tonumber(ARGV[5]) then
  redis.call('HSET', KEYS[3], 'ls', ARGV[4], 'lt', ARGV[5])
end
redis.call('EXPIRE', KEYS[2], ARGV[6])
redis.call('EXPIRE', KEYS[3], ARGV[7])
return released
