--[[
  End outbound attempts that their endpoints answered (or failed to): give each one's concurrency slot
  back and count it in its endpoint's health buckets. The attempts that end within one event-loop tick
  go in one call (any endpoints on a single Redis; one endpoint's, one hash tag, on a Redis Cluster).
  The buckets: the minute's and the hour's (each a hash with n attempts, ok successes, d<bin> per
  duration bin), each expiring once its window has passed; the hour's also keeps the newest attempt's
  outcome (ls: status code or error class, lt: when).

  KEYS, per attempt in order (all in its endpoint's hash tag):
    the endpoint's concurrency slots (zset: holder -> lease expiry)
    the minute's bucket
    the hour's bucket
  ARGV[1]  the minute bucket's expiry, s     ARGV[2]  the hour bucket's expiry, s
  ARGV, then per attempt in the same order:
    the holder whose slot is given back
    1 if the attempt succeeded, else 0
    its duration bin
    its outcome (status code, or error class when there was no answer)
    when it was sent, ms

  Returns, per attempt, 1 if its holder had a slot (0: already given back, or its lease lapsed).
]]
local out = {}
local a = 3
for k = 1, #KEYS, 3 do
  local holder, ok, bin, outcome, at = ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  a = a + 5
  out[#out + 1] = redis.call('ZREM', KEYS[k], holder)
  for i = k + 1, k + 2 do
    redis.call('HINCRBY', KEYS[i], 'n', 1)
    if ok == '1' then
      redis.call('HINCRBY', KEYS[i], 'ok', 1)
    end
    redis.call('HINCRBY', KEYS[i], 'd' .. bin, 1)
  end
  local lt = redis.call('HGET', KEYS[k + 2], 'lt')
  if not lt or tonumber(lt) <= tonumber(at) then
    redis.call('HSET', KEYS[k + 2], 'ls', outcome, 'lt', at)
  end
  redis.call('EXPIRE', KEYS[k + 1], ARGV[1])
  redis.call('EXPIRE', KEYS[k + 2], ARGV[2])
end
return out
