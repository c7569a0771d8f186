--[[
  Extend a holder's in-flight lease, for an attempt that runs longer than its lease. Only a live lease is
  renewed: once it has run out the slot may already be someone else's, so the holder has lost it.

  Time is Redis's own clock (TIME), the same one acquire-inflight-slot-1.lua expires leases by.

  KEYS[1] the target's holders (zset: holder id -> lease expiry, ms of Redis time)
  ARGV[1] holder id
  ARGV[2] lease from now, ms

  Returns 1 if renewed, 0 if the holder has no live slot (never had one, released, or expired).
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expiry = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if not expiry then
  return 0
end
if expiry <= now then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[1], tonumber(last[2]) - now)
return 1
