--[[
  Finish one replay step atomically: unindex the DLQ entries it moved, add to the counters, advance
  the durable cursor and clear the in-flight batch; optionally end the replay. Fenced by the replay
  job's BullMQ lock, so a runner that lost its lock can never count a batch twice.

  An entry is unindexed only while it is still the death the replay saw (dead_at <= snapshot): a job
  that was moved and died again has a newer entry, which stays in the DLQ.

  KEYS[1] replay record (hash)
  KEYS[2] the replay job's BullMQ lock key
  ARGV[1] lock token of the caller
  ARGV[2] snapshot: the replay's creation time (ms)
  ARGV[3] cursor JSON after this step
  ARGV[4] matched increment
  ARGV[5] moved increment
  ARGV[6] failed increment
  ARGV[7] now (ms)
  ARGV[8] final state: '' (keep going), 'done' or 'cancelled'
  ARGV[9] seconds a finished replay record is kept
  ARGV[10] number of entries to unindex; then per entry: id, entry key, n, n index keys

  Returns 1 if committed, 0 if the caller no longer holds the lock.
]]
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
local snapshot = tonumber(ARGV[2])
local i = 11
for _ = 1, tonumber(ARGV[10]) do
  local id, entryKey, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local deadAt = tonumber(redis.call('HGET', entryKey, 'dead_at'))
  if deadAt and deadAt <= snapshot then
    redis.call('DEL', entryKey)
    for k = 1, n do
      redis.call('ZREM', ARGV[i + 2 + k], id)
    end
  end
  i = i + 3 + n
end
redis.call('HINCRBY', KEYS[1], 'matched', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'moved', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'failed', ARGV[6])
redis.call('HSET', KEYS[1], 'cursor', ARGV[3], 'updated_at', ARGV[7])
redis.call('HDEL', KEYS[1], 'inflight')
if ARGV[8] ~= '' then
  -- A cancel that raced the last step wins over 'done'.
  if redis.call('HGET', KEYS[1], 'state') ~= 'cancelled' then
    redis.call('HSET', KEYS[1], 'state', ARGV[8])
  end
  redis.call('HSET', KEYS[1], 'finished_at', ARGV[7])
  redis.call('EXPIRE', KEYS[1], ARGV[9])
end
return 1
