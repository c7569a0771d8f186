--[[
  Finish one replay step atomically: add to the counters, advance the durable cursor and clear the
  in-flight batch; optionally end the replay. Fenced by the replay job's BullMQ lock, so a runner that
  lost its lock can never count a step twice. (The rows themselves were moved, idempotently, by the
  ledger before this commit.)

  KEYS[1] replay record (hash)
  KEYS[2] the replay job's BullMQ lock key
  KEYS[3] the replay's tenant's live replays (set of ids, against its cap): an ended replay leaves it,
          and the set goes with its last member
  ARGV[1] lock token of the caller
  ARGV[2] cursor JSON after this step
  ARGV[3] matched increment
  ARGV[4] moved increment
  ARGV[5] failed increment
  ARGV[6] now (ms)
  ARGV[7] final state: '' (keep going), 'done' or 'cancelled'
  ARGV[8] seconds a finished replay record is kept
  ARGV[9] the replay's id

  Returns 1 if committed, 0 if the caller no longer holds the lock.
]]
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'matched', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'moved', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'failed', ARGV[5])
redis.call('HSET', KEYS[1], 'cursor', ARGV[2], 'updated_at', ARGV[6])
redis.call('HDEL', KEYS[1], 'inflight')
if ARGV[7] ~= '' then
  -- A cancel that raced the last step wins over 'done'.
  if redis.call('HGET', KEYS[1], 'state') ~= 'cancelled' then
    redis.call('HSET', KEYS[1], 'state', ARGV[7])
  end
  redis.call('HSET', KEYS[1], 'finished_at', ARGV[6])
  redis.call('EXPIRE', KEYS[1], ARGV[8])
  redis.call('SREM', KEYS[3], ARGV[9])
end
return 1
