--[[
  Finish one replay step atomically: add to the counters, advance the durable cursor and clear the
  in-flight batch; optionally end the replay. Fenced by the replay job's BullMQ lock, so a runner that
  lost its lock can never count a step twice. (The rows themselves were moved, idempotently, by the
  ledger before this commit.) The step that ends the replay records its operational fact
  (switchyard.replay.finished) in the same step, once: a replay already finished records none.

  KEYS[1] replay record (hash)
  KEYS[2] the replay job's BullMQ lock key
  KEYS[3] the replay's tenant's live replays (set of ids, against its cap): an ended replay leaves it,
          and the set goes with its last member
  KEYS[4] (facts only) the outbox of the replays' hash tag
  KEYS[5] (facts on a single Redis only) the drainer's dirty set (see ops/append-fact.lua)
  ARGV[1] lock token of the caller
  ARGV[2] cursor JSON after this step
  ARGV[3] matched increment
  ARGV[4] moved increment
  ARGV[5] failed increment
  ARGV[6] now (ms)
  ARGV[7] final state: '' (keep going), 'done' or 'cancelled'
  ARGV[8] seconds a finished replay record is kept
  ARGV[9] the replay's id

  Returns 1 if committed, 2 if committed and its fact recorded, 0 if the caller no longer holds the lock.
]]
-- @include store/lua/ops/append-fact.lua

-- The replay's end as its fact's payload: the record's counters, and its filter as the API shows it.
local function finishedFact(state)
  local r = redis.call('HMGET', KEYS[1], 'tenant', 'filter', 'matched', 'moved', 'failed', 'total_estimate',
    'created_at')
  local tenant = r[1] or nil
  local filter = r[2] and cjson.decode(r[2]) or {}
  if type(filter) ~= 'table' then
    filter = {}
  end
  for _, k in ipairs({ 'since', 'until' }) do
    if tonumber(filter[k]) then
      filter[k] = isoTime(filter[k])
    end
  end
  if type(filter.ids) == 'table' and #filter.ids == 0 then
    filter.ids = nil
  end
  local factType = 'switchyard.replay.finished'
  local data = {
    replay_id = ARGV[9], tenant = tenant, state = state, filter = filter,
    matched = tonumber(r[3]) or 0, moved = tonumber(r[4]) or 0, failed = tonumber(r[5]) or 0,
    total_estimate = tonumber(r[6]) or 0, created_at = isoTime(tonumber(r[7]) or 0),
    finished_at = isoTime(ARGV[6]),
  }
  appendFact(KEYS[4], KEYS[5] or '', opsEventId(factType, ARGV[9]), opsEntry(factType, tenant, ARGV[6], nil, data))
end
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'matched', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'moved', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'failed', ARGV[5])
redis.call('HSET', KEYS[1], 'cursor', ARGV[2], 'updated_at', ARGV[6])
redis.call('HDEL', KEYS[1], 'inflight')
local recorded = false
if ARGV[7] ~= '' then
  -- A cancel that raced the last step wins over 'done'.
  local state = redis.call('HGET', KEYS[1], 'state')
  if state ~= 'cancelled' then
    state = ARGV[7]
    redis.call('HSET', KEYS[1], 'state', state)
  end
  if KEYS[4] and redis.call('HEXISTS', KEYS[1], 'finished_at') == 0 then
    finishedFact(state)
    recorded = true
  end
  redis.call('HSET', KEYS[1], 'finished_at', ARGV[6])
  redis.call('EXPIRE', KEYS[1], ARGV[8])
  redis.call('SREM', KEYS[3], ARGV[9])
end
return recorded and 2 or 1
