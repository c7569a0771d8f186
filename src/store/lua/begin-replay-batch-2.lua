--[[
  Record the batch a replay runner is about to move, before it touches any job, so a runner that
  takes over after a crash finishes exactly this batch first. Fenced by the replay job's BullMQ lock:
  a runner that lost its lock (stalled, taken over) writes nothing.

  KEYS[1] replay record (hash)
  KEYS[2] the replay job's BullMQ lock key
  ARGV[1] lock token of the caller
  ARGV[2] in-flight batch JSON ({ids, end})
  ARGV[3] now (ms)

  Returns 1 if recorded, 0 if the caller no longer holds the lock.
]]
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'inflight', ARGV[2], 'updated_at', ARGV[3])
return 1
