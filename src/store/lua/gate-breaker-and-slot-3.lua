--[[
  An outbound attempt's admission in one call: may it run by the endpoint's shared circuit breaker, and
  if so, one of the endpoint's in-flight slots for its holder. The breaker and the slots share the
  endpoint's hash tag, so one script decides both. An endpoint that gets a delivery less often than the
  breaker cache's refresh (most endpoints of a fanout) would otherwise pay two script calls per attempt.
  When the breaker says no, no slot is taken. When the breaker hands out the probe and the slot is
  refused, the caller gives the probe back (record-breaker-result-n.lua, `ignored`), as it does with
  the two scripts apart.

  KEYS[1] the endpoint's breaker (hash; gate-breaker-1.lua)
  KEYS[2] the endpoint's slot holders (zset; acquire-inflight-slot-2.lua)
  KEYS[3] the endpoint's slot waiters (zset)
  ARGV[1..4]  as gate-breaker-1.lua takes them: target, probe lease ms, change channel, keep ms
  ARGV[5..10] as acquire-inflight-slot-2.lua takes them: holder, max, lease ms, shortest retry hint ms,
              longest wait ms, waiter grace ms

  Returns gate-breaker-1.lua's reply, followed, when it passes, by acquire-inflight-slot-2.lua's.
]]
-- gateBreaker(...) and acquireSlot(...): the same rules as the two scripts apart.
-- @include store/lua/breaker/gate.lua
-- @include store/lua/inflight/acquire.lua

local gate = gateBreaker(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
if gate[1] == 1 then
  local slot = acquireSlot(KEYS[2], KEYS[3], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10])
  for _, v in ipairs(slot) do
    gate[#gate + 1] = v
  end
end
return gate
