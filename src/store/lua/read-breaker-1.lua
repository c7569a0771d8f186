--[[
  Read a target's shared circuit breaker without changing it (fields: see gate-breaker-1.lua).

  Time is Redis's own clock (TIME), so the times left are on the clock the other breaker scripts use.

  KEYS[1] the target's breaker (hash)

  Returns {ver, state, open_left_ms, probe_left_ms, failing, period_ms}, as gate-breaker-1.lua does.
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'state', 'open_until', 'probe_until', 'ver', 'failures', 'period')
return {
  tonumber(h[4]) or 0,
  h[1] == 'open' and 'open' or 'closed',
  math.max(0, (tonumber(h[2]) or 0) - now),
  math.max(0, (tonumber(h[3]) or 0) - now),
  (tonumber(h[5]) or 0) > 0 and 1 or 0,
  tonumber(h[6]) or 0,
}
