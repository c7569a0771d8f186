--[[
  Take one of a target's in-flight slots for a holder, so at most `max` attempts run at once across every
  worker process. Holders are a sorted set scored by lease expiry; expired ones (a process that died
  without releasing) are dropped first, so a lost slot comes back once its lease runs out. A holder that
  already has a live slot keeps it with a fresh lease: a call retried after a lost reply must not take two.

  Time is Redis's own clock (TIME), so a worker whose clock runs ahead cannot expire others' leases early.

  KEYS[1] the target's holders (zset: holder id -> lease expiry, ms of Redis time)
  ARGV[1] holder id
  ARGV[2] max holders
  ARGV[3] lease, ms
  ARGV[4] longest retry hint, ms

  Returns {1} when the holder has a slot, or {0, retry_in_ms}: until the earliest lease runs out, at most
  ARGV[4] (a release can free a slot sooner).
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  -- The set lapses with its longest lease, so a target nobody uses leaves nothing behind.
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  redis.call('PEXPIRE', KEYS[1], tonumber(last[2]) - now)
  return {1}
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, math.max(1, math.min(tonumber(first[2]) - now, tonumber(ARGV[4])))}
