--[[
  Take one of a target's in-flight slots for a holder, so at most `max` attempts run at once across every
  worker process. Holders are a sorted set scored by lease expiry; expired ones (a process that died
  without releasing) are dropped first, so a lost slot comes back once its lease runs out. A holder that
  already has a live slot keeps it with a fresh lease: a call retried after a lost reply must not take two.

  A refused holder is told when to ask again, and joins the target's waiters. Asking every few hundred
  ms whatever the target does would cost the workers and Redis a wake-up per waiter per interval: a
  target that hangs with thousands waiting would take the pool's time from every other target. So the
  wait grows with the holder's place among the waiters and with how long the attempts in flight have
  been running (a slot frees about every age / max): (place + 1) * age / max, at least the short hint
  (ARGV[4], or the earliest lease expiry if sooner), at most ARGV[5], and never past the earliest lease
  expiry, when a slot is sure to free. A holder that got a slot leaves the waiters; one that has not
  asked again within ARGV[6] of its time is dropped from them.

  Time is Redis's own clock (TIME), so a worker whose clock runs ahead cannot expire others' leases early.

  KEYS[1] the target's holders (zset: holder id -> lease expiry, ms of Redis time)
  KEYS[2] the target's waiters (zset: holder id -> when it was told to ask again, ms of Redis time)
  ARGV[1] holder id
  ARGV[2] max holders
  ARGV[3] lease, ms
  ARGV[4] shortest retry hint, ms
  ARGV[5] longest wait, ms
  ARGV[6] how late a waiter may ask again and keep its place, ms

  Returns {1} when the holder has a slot, or {0, retry_in_ms}.
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local max, lease = tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < max then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  -- The set lapses with its longest lease, so a target nobody uses leaves nothing behind.
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  redis.call('PEXPIRE', KEYS[1], tonumber(last[2]) - now)
  return {1}
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local untilFree = math.max(1, tonumber(first[2]) - now)
-- Leases are of one length per target, so the earliest to run out is the oldest attempt.
local age = math.max(0, lease - untilFree)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[6]))
local mine = redis.call('ZSCORE', KEYS[2], ARGV[1])
local ahead
if mine then
  ahead = redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. mine)
else
  ahead = redis.call('ZCARD', KEYS[2])
end
local spread = math.min(math.floor((ahead + 1) * age / max), tonumber(ARGV[5]), untilFree)
local wait = math.max(math.min(untilFree, tonumber(ARGV[4])), spread)
redis.call('ZADD', KEYS[2], now + wait, ARGV[1])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[5]) + tonumber(ARGV[6]))
return {0, wait}
