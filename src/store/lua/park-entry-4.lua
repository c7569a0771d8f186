--[[
  Put a delivery a worker took back on its ledger queue, to run again at a given time (a retry, or a
  wait that spent no attempt). An entry that becomes the earliest to run rings the doorbell, so a
  worker blocked until a later one shortens its wait.

  KEYS  ready (list), later (sorted set), bell (list), members (set): one queue's, one hash tag
  ARGV  id, entry, when it may run (ms)
]]
-- ring(bell): wake one idle worker.
-- @include store/lua/queue/push.lua

redis.call('SADD', KEYS[4], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
if redis.call('ZRANGE', KEYS[2], 0, 0)[1] == ARGV[2] then
  ring(KEYS[3])
end
return 1
