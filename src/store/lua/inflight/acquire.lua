--[[
  Include (spliced in by LuaScript at `-- @include store/lua/inflight/acquire.lua`): take one of a
  target's in-flight slots for a holder, or say when to ask again (the rules: acquire-inflight-slot-2.lua).
  Shared by acquire-inflight-slot-2.lua and gate-breaker-and-slot-3.lua, so the two cannot drift.

  acquireSlot(holders, waiters, holder, max, lease, retryMs, maxWaitMs, graceMs)
    returns {1} when the holder has a slot, or {0, retry_in_ms}
]]
local function acquireSlot(holders, waiters, holder, max, lease, retryMs, maxWaitMs, graceMs)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  max, lease = tonumber(max), tonumber(lease)
  redis.call('ZREMRANGEBYSCORE', holders, '-inf', now)
  if redis.call('ZSCORE', holders, holder) or redis.call('ZCARD', holders) < max then
    redis.call('ZADD', holders, now + lease, holder)
    redis.call('ZREM', waiters, holder)
    -- The set lapses with its longest lease, so a target nobody uses leaves nothing behind.
    local last = redis.call('ZRANGE', holders, -1, -1, 'WITHSCORES')
    redis.call('PEXPIRE', holders, tonumber(last[2]) - now)
    return {1}
  end
  local first = redis.call('ZRANGE', holders, 0, 0, 'WITHSCORES')
  local untilFree = math.max(1, tonumber(first[2]) - now)
  -- Leases are of one length per target, so the earliest to run out is the oldest attempt.
  local age = math.max(0, lease - untilFree)
  redis.call('ZREMRANGEBYSCORE', waiters, '-inf', now - tonumber(graceMs))
  local mine = redis.call('ZSCORE', waiters, holder)
  local ahead
  if mine then
    ahead = redis.call('ZCOUNT', waiters, '-inf', '(' .. mine)
  else
    ahead = redis.call('ZCARD', waiters)
  end
  local spread = math.min(math.floor((ahead + 1) * age / max), tonumber(maxWaitMs), untilFree)
  local wait = math.max(math.min(untilFree, tonumber(retryMs)), spread)
  redis.call('ZADD', waiters, now + wait, holder)
  redis.call('PEXPIRE', waiters, tonumber(maxWaitMs) + tonumber(graceMs))
  return {0, wait}
end
