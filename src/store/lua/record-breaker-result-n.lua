--[[
  Count one attempt's result on a target's shared circuit breaker (fields: see gate-breaker-1.lua).

  Closed: a failure adds to the consecutive count and opens the breaker at the threshold; a success resets
  the count; 'ignored' (a permanent failure: the hook's fault, not the sink's) neither counts nor resets.
  Half-open, the probe's result decides: success closes, failure re-opens for twice the last period (up to
  the cap), 'ignored' frees the probe for the next caller. Any other result while open comes from an attempt
  that started before the breaker opened, or is not the probe, and changes nothing. Probes are not named:
  a late result from a probe whose lease ran out decides just as the current probe's would (either is a
  fresh answer from the sink), and the first to arrive leaves the breaker open or closed, not half-open,
  so the second changes nothing.

  Time is Redis's own clock (TIME), the one gate-breaker-1.lua decides by.

  An open from closed and a close are operational facts (switchyard.breaker.opened / .closed), recorded
  here in the breaker's own outbox when the caller asks for facts, so each exists exactly when its change
  does: a result recorded twice changes the breaker once, so it records the fact once. A re-open after a
  failed probe is no new fact (one outage: one opened, one closed), so a target that stays down, an
  operational endpoint included, raises no stream of them.

  KEYS[1] the target's breaker (hash)
  KEYS[2] (facts only) the outbox of the breaker's hash tag
  KEYS[3] (facts on a single Redis only) the drainer's dirty set (see ops/append-fact.lua)
  ARGV[1] target name, for the change message
  ARGV[2] result: success | failure | ignored
  ARGV[3] 1 if the attempt was the probe, else 0
  ARGV[4] consecutive failures that open the breaker
  ARGV[5] first open period, ms
  ARGV[6] longest open period, ms
  ARGV[7] pub/sub channel for changes (not a key; see gate-breaker-1.lua)
  ARGV[8] how long the breaker is kept past its open period and probe lease once unused, ms (every
          write pushes its expiry back, see gate-breaker-1.lua)
  ARGV[9] (facts only) the target's kind, sink | endpoint
  ARGV[10] (facts only) the target's tenant, '' for none

  Returns {changed, ver, state, open_left_ms, probe_left_ms, failing, period_ms, fact}: changed is 1 when
  the breaker opened or closed, fact 1 when that change was recorded as a fact. Every change readers must hear of (opened, closed, probe freed, failures going
  from 0 to 1 or back) bumps ver and publishes cjson [target, ver, state, open_left, probe_left, failing,
  period].
]]
-- @include store/lua/ops/append-fact.lua
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key, result = KEYS[1], ARGV[2]
local h = redis.call('HMGET', key, 'state', 'open_until', 'probe_until', 'ver', 'failures', 'opens', 'period')
local open = h[1] == 'open'
local open_until = tonumber(h[2]) or 0
local probe_until = tonumber(h[3]) or 0
local ver = tonumber(h[4]) or 0
local failures = tonumber(h[5]) or 0
local opens = tonumber(h[6]) or 0
local period = tonumber(h[7]) or 0
local changed, notify, fact = 0, false, false
-- The period a close ends (what its fact reports).
local closed_from = period

-- Open for the n-th consecutive time: open_ms doubled n - 1 times, capped.
local function open_for(n)
  period = math.min(tonumber(ARGV[6]), tonumber(ARGV[5]) * 2 ^ (n - 1))
  open, open_until, probe_until, failures = true, now + period, 0, 0
  redis.call('HSET', key, 'state', 'open', 'opens', n, 'period', period, 'open_until', open_until,
    'failures', 0)
  redis.call('HDEL', key, 'probe_until')
  changed, notify = 1, true
end

if not open then
  if result == 'failure' then
    failures = redis.call('HINCRBY', key, 'failures', 1)
    if failures >= tonumber(ARGV[4]) then
      open_for(1)
      fact = true
    elseif failures == 1 then
      notify = true
    end
  elseif result == 'success' and failures > 0 then
    failures = 0
    redis.call('HSET', key, 'failures', 0)
    notify = true
  end
elseif ARGV[3] == '1' and now >= open_until and probe_until > 0 then
  if result == 'success' then
    open, open_until, probe_until, failures, period = false, 0, 0, 0, 0
    redis.call('HSET', key, 'state', 'closed', 'failures', 0, 'opens', 0)
    redis.call('HDEL', key, 'open_until', 'probe_until', 'period')
    changed, notify, fact = 1, true, true
  elseif result == 'failure' then
    open_for(opens + 1)
  else
    probe_until = 0
    redis.call('HDEL', key, 'probe_until')
    notify = true
  end
end

if notify then
  ver = redis.call('HINCRBY', key, 'ver', 1)
end
-- A no-op on a key that does not exist: nothing is created here that was not written above.
redis.call('PEXPIRE', key, math.max(0, open_until - now, probe_until - now) + tonumber(ARGV[8]))
local snap = {
  ver,
  open and 'open' or 'closed',
  math.max(0, open_until - now),
  math.max(0, probe_until - now),
  failures > 0 and 1 or 0,
  period,
}
if notify then
  redis.call('PUBLISH', ARGV[7], cjson.encode({ARGV[1], unpack(snap)}))
end
if fact and KEYS[2] then
  -- One event id per change: the breaker's change version, with the time (the hash, and so its version,
  -- can expire between two changes far apart).
  local factType = open and 'switchyard.breaker.opened' or 'switchyard.breaker.closed'
  local kind = ARGV[9]
  local tenant = ARGV[10] ~= '' and ARGV[10] or nil
  local target = { kind = kind }
  if kind == 'sink' then
    target.name = ARGV[1]
  else
    target.id = ARGV[1]
  end
  local data = {
    target = target, tenant = tenant, state = open and 'open' or 'closed',
    open_period_ms = open and period or closed_from, at = isoTime(now),
  }
  appendFact(KEYS[2], KEYS[3] or '', opsEventId(factType, kind .. ':' .. ARGV[1], now .. '-' .. ver),
    opsEntry(factType, tenant, now, nil, data))
end
local snapshot_reply = {changed, unpack(snap)}
snapshot_reply[#snapshot_reply + 1] = (fact and KEYS[2]) and 1 or 0
return snapshot_reply
