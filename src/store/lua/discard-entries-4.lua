--[[
  Take deliveries off a ledger queue before any worker took them (ingest discarding what it queued
  for a request that failed after all). A delivery a worker popped already is no longer a member, and
  is left to its worker.

  KEYS  ready (list), later (sorted set), bell (list), members (set): one queue's, one hash tag
  ARGV  per delivery: id, entry (queue-entry.ts)

  Returns how many were taken off.
]]
local removed = 0
for i = 1, #ARGV, 2 do
  if redis.call('SREM', KEYS[4], ARGV[i]) == 1 then
    redis.call('LREM', KEYS[1], 1, ARGV[i + 1])
    redis.call('ZREM', KEYS[2], ARGV[i + 1])
    removed = removed + 1
  end
end
return removed
