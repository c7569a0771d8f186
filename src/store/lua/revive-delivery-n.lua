--[[
  Move a dead delivery back to `pending` for a replay (the one way a dead delivery comes back) with a
  fresh attempt budget, take it off its DLQ indexes, and make it and its parent live again (no
  expiry). Idempotent per replay: a row this replay already moved answers 'already'.

  KEYS[1]   delivery row (hash)
  KEYS[2]   parent record
  KEYS[3]   the bucket's watch set
  KEYS[4..] the DLQ index keys the row is listed in

  ARGV[1]   delivery id
  ARGV[2]   replay id
  ARGV[3]   snapshot: only a row dead at or before this instant (ms) is moved
  ARGV[4]   watch score of the revived row

  Returns 'moved', 'already', 'missing', 'newer' (it died again after the snapshot), 'gone' (its parent
  expired) or the row's state when it is not dead.
]]
local st = redis.call('HGET', KEYS[1], 'st')
if not st then
  return 'missing'
end
if ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'rp') == ARGV[2] then
  if st ~= 'dead' or tonumber(redis.call('HGET', KEYS[1], 'xa') or '0') > tonumber(ARGV[3]) then
    return 'already'
  end
end
if st ~= 'dead' then
  return st
end
if tonumber(redis.call('HGET', KEYS[1], 'xa') or '0') > tonumber(ARGV[3]) then
  return 'newer'
end
if redis.call('EXISTS', KEYS[2]) == 0 then
  return 'gone'
end
redis.call('HDEL', KEYS[1], 'fa', 'la', 'na', 'xa', 'da', 'lo', 'lu', 'rp', 'le', 'ec', 'sc', 'purged', 'of')
redis.call('HSET', KEYS[1], 'st', 'pending', 'a', 0)
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'rp', ARGV[2])
end
for i = 4, #KEYS do
  redis.call('ZREM', KEYS[i], ARGV[1])
end
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
redis.call('HINCRBY', KEYS[2], 'live', 1)
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return 'moved'
