--[[
  May an attempt on a target run now, by its shared circuit breaker? Closed: yes. Open: no, until the open
  period ends. After that (half-open) exactly one caller cluster-wide gets the probe, on a lease: a probe
  whose process died is handed to the next caller once its deadline passes.

  The breaker (one hash per target; no field means closed with no failures, so no key is needed then):
    state        'open' while open or half-open, else 'closed' or absent
    failures     consecutive countable failures while closed
    opens        consecutive opens (the open period doubles with each)
    period       the current open period, ms
    open_until   end of the open period, ms of Redis time
    probe_until  deadline of the probe out, ms of Redis time (absent: no probe out)
    ver          bumped on every change that is published, so readers can order what they hear

  Time is Redis's own clock (TIME): every process must agree when the period ends and when a probe's lease
  runs out, or two probes could be out at once.
  The hash expires ARGV[4] ms after its open period and probe lease end, the expiry pushed back by every
  call here and in record-breaker-result-n.lua: a target nobody uses any more (a sink removed from the
  config, an endpoint deleted while an attempt was in flight) leaves no breaker behind for good.

  KEYS[1] the target's breaker (hash)
  ARGV[1] target name, for the change message
  ARGV[2] probe lease, ms
  ARGV[3] pub/sub channel for changes. A channel is not a key: in a Redis Cluster PUBLISH reaches every
          node's subscribers, whichever slot the script ran on.
  ARGV[4] how long the breaker is kept past its open period and probe lease once unused, ms

  Returns {pass, probe, ver, state, open_left_ms, probe_left_ms, failing, period_ms}: pass and probe are
  1|0; state is 'closed' | 'open' (half-open when open_left_ms is 0); failing is 1 if failures > 0.
  A probe handed out publishes cjson [target, ver, state, open_left_ms, probe_left_ms, failing, period_ms].
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'state', 'open_until', 'probe_until', 'ver', 'failures', 'period')
local open = h[1] == 'open'
local open_until = tonumber(h[2]) or 0
local probe_until = tonumber(h[3]) or 0
local ver = tonumber(h[4]) or 0
local pass, probe = 0, 0
if not open then
  pass = 1
elseif now >= open_until and probe_until <= now then
  pass, probe = 1, 1
  probe_until = now + tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'probe_until', probe_until)
  ver = redis.call('HINCRBY', KEYS[1], 'ver', 1)
end
redis.call('PEXPIRE', KEYS[1], math.max(0, open_until - now, probe_until - now) + tonumber(ARGV[4]))
local snap = {
  ver,
  open and 'open' or 'closed',
  math.max(0, open_until - now),
  math.max(0, probe_until - now),
  (tonumber(h[5]) or 0) > 0 and 1 or 0,
  tonumber(h[6]) or 0,
}
if probe == 1 then
  redis.call('PUBLISH', ARGV[3], cjson.encode({ARGV[1], unpack(snap)}))
end
return {pass, probe, unpack(snap)}
