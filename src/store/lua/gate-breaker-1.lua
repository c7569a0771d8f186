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
-- gateBreaker(...): the decision, in one place for both scripts that gate.
-- @include store/lua/breaker/gate.lua

return gateBreaker(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
