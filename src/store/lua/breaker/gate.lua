--[[
  Include (spliced in by LuaScript at `-- @include store/lua/breaker/gate.lua`): may an attempt on a
  target run now, by its shared circuit breaker (the rules and the hash's fields: gate-breaker-1.lua).
  Shared by gate-breaker-1.lua and gate-breaker-and-slot-3.lua, so the two cannot drift.

  gateBreaker(key, target, probeLeaseMs, channel, keepMs)
    returns {pass, probe, ver, state, open_left_ms, probe_left_ms, failing, period_ms}
]]
local function gateBreaker(key, target, probeLeaseMs, channel, keepMs)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local h = redis.call('HMGET', key, 'state', 'open_until', 'probe_until', 'ver', 'failures', 'period')
  local open = h[1] == 'open'
  local open_until = tonumber(h[2]) or 0
  local probe_until = tonumber(h[3]) or 0
  local ver = tonumber(h[4]) or 0
  local pass, probe = 0, 0
  if not open then
    pass = 1
  elseif now >= open_until and probe_until <= now then
    pass, probe = 1, 1
    probe_until = now + tonumber(probeLeaseMs)
    redis.call('HSET', key, 'probe_until', probe_until)
    ver = redis.call('HINCRBY', key, 'ver', 1)
  end
  redis.call('PEXPIRE', key, math.max(0, open_until - now, probe_until - now) + tonumber(keepMs))
  local snap = {
    ver,
    open and 'open' or 'closed',
    math.max(0, open_until - now),
    math.max(0, probe_until - now),
    (tonumber(h[5]) or 0) > 0 and 1 or 0,
    tonumber(h[6]) or 0,
  }
  if probe == 1 then
    redis.call('PUBLISH', channel, cjson.encode({target, unpack(snap)}))
  end
  return {pass, probe, unpack(snap)}
end
