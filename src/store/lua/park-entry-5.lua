--[[
  Put a delivery a worker took back on its ledger queue, to run again at a given time (a retry, or a
  wait that spent no attempt). An entry that becomes the earliest to run rings the doorbell, so a
  worker blocked until a later one shortens its wait. A delivery queued already (pushed again meanwhile,
  or moved from a BullMQ job twice) stays as it is: a delivery is on its queue once.

  The row is due for recovery's look `hold` ms after it may run (if it is in its watch set at all), so a
  wait longer than the pop's hold does not send recovery to a row that is queued and fine.

  KEYS  ready (list), later (sorted set), bell (list), members (set): one queue's, one hash tag;
        then the row's bucket's watch set
  ARGV  id, entry, when it may run (ms), hold (ms)

  Returns 1 when queued, 0 when it was queued already.
]]
-- ring(bell): wake one idle worker.
-- @include store/lua/queue/push.lua

if redis.call('SADD', KEYS[4], ARGV[1]) == 0 then
  return 0
end
redis.call('ZADD', KEYS[5], 'XX', tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
if redis.call('ZRANGE', KEYS[2], 0, 0)[1] == ARGV[2] then
  ring(KEYS[3])
end
return 1
