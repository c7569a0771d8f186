--[[
  Take the next deliveries of one ledger queue for a worker's free lanes. Deliveries whose wait is over
  move from later to the old end of ready first, so a due retry runs before newer first attempts.
  Entries are taken oldest first and leave the members set. When some stay behind, the doorbell rings
  for the next idle worker; when none was taken, the reply says when the earliest waiting one is due.
  Each row taken is due for recovery's look `hold` ms from now (if it is in its watch set at all): a
  worker that dies before it claims the row loses it no longer than a lapsed lease would.

  KEYS  ready (list), later (sorted set), bell (list), members (set): one queue's, one hash tag;
        then the watch sets: the 16 buckets' in bucket order, or one (a queue of one bucket)
  ARGV  how many to take (>= 1), now (ms), how many due entries to move at most, hold (ms)

  Returns {entries taken (oldest first), when the earliest later entry is due (ms) or ''}. The due time
  is given whenever the pop took fewer than asked: ready is empty then, and the worker waits on the
  doorbell (or until that time) instead of popping again to find out.
]]
-- ring(bell): wake one idle worker.
-- @include store/lua/queue/push.lua

local ready, later, bell, members = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

-- When the earliest later entry is due (ms), or '' when none waits.
local function nextDue()
  local first = redis.call('ZRANGE', later, 0, 0, 'WITHSCORES')
  return first[2] or ''
end

local max = tonumber(ARGV[1])
local due = redis.call('ZRANGEBYSCORE', later, '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
if #due > 0 then
  redis.call('ZREM', later, unpack(due))
  -- Pops take from the right: the earliest due goes last, so it is the first taken.
  local latestFirst = {}
  for i = #due, 1, -1 do
    latestFirst[#latestFirst + 1] = due[i]
  end
  redis.call('RPUSH', ready, unpack(latestFirst))
end
-- LRANGE + LTRIM, not RPOP with a count: Redis before 6.2 has no count.
local taken = redis.call('LRANGE', ready, -max, -1)
if #taken == 0 then
  return {{}, nextDue()}
end
redis.call('LTRIM', ready, 0, -max - 1)
local oldest = {}
local ids = {}
local lookAt = tonumber(ARGV[2]) + tonumber(ARGV[4])
local oneWatch = #KEYS == 5
for i = #taken, 1, -1 do
  local entry = taken[i]
  local id = string.match(entry, '^[^|]*')
  oldest[#oldest + 1] = entry
  ids[#ids + 1] = id
  -- A delivery id ends in its bucket's digit (ids.ts: bucketChar), 0-f.
  local watch = oneWatch and KEYS[5] or KEYS[5 + (tonumber(string.sub(id, -1), 16) or 0)]
  redis.call('ZADD', watch, 'XX', lookAt, id)
end
redis.call('SREM', members, unpack(ids))
if #taken < max then
  return {oldest, nextDue()}
end
if redis.call('LLEN', ready) > 0 then
  ring(bell)
end
return {oldest, ''}
