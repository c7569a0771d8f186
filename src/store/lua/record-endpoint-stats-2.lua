--[[
  Count one outbound attempt in its endpoint's health buckets: the minute's and the hour's (each a hash
  with n attempts, ok successes, d<bin> per duration bin), each expiring once its window has passed; the
  hour's also keeps the newest attempt's outcome (ls: status code or error class, lt: when).

  KEYS[1]  the minute's bucket      KEYS[2]  the hour's bucket
  ARGV[1]  1 if the attempt succeeded, else 0
  ARGV[2]  its duration bin
  ARGV[3]  its outcome (status code, or error class when there was no answer)
  ARGV[4]  when it was sent, ms
  ARGV[5]  the minute bucket's expiry, s     ARGV[6]  the hour bucket's expiry, s
]]
for i = 1, 2 do
  redis.call('HINCRBY', KEYS[i], 'n', 1)
  if ARGV[1] == '1' then
    redis.call('HINCRBY', KEYS[i], 'ok', 1)
  end
  redis.call('HINCRBY', KEYS[i], 'd' .. ARGV[2], 1)
end
local lt = redis.call('HGET', KEYS[2], 'lt')
if not lt or tonumber(lt) <= tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[2], 'ls', ARGV[3], 'lt', ARGV[4])
end
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[6])
return 1
