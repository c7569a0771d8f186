--[[
  Record one `switchyard.dlq.threshold` fact for a DLQ index, unless one was recorded for that index
  within the interval: the guard and the outbox entry are written in one step, so concurrent recovery
  ticks (or a tick retried after a crash) record at most one per interval. Every key is in the drainer's
  own hash tag (Keys#opsTag), so the dirty mark is written here on a cluster too.

  KEYS[1] the index's guard (string, expiring: Keys#opsDlqThreshold)
  KEYS[2] the outbox of the drainer's tag
  KEYS[3] the drainer's dirty set
  ARGV[1] the interval, ms
  ARGV[2] the fact's event id
  ARGV[3] its outbox entry (JSON)

  Returns 1 if recorded, 0 if one was recorded within the interval.
]]
-- @include store/lua/ops/append-fact.lua
if not redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1]) then
  return 0
end
appendFact(KEYS[2], KEYS[3], ARGV[2], ARGV[3])
return 1
