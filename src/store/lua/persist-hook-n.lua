--[[
  Persist a new hook record and one pending delivery row per sink, unless its dedup identity was seen
  within the TTL, atomically: two concurrent copies of one hook make one record, and a record never
  exists without its rows. Nothing here expires: a record lives while any of its deliveries is live.

  KEYS[1]    dedup key            (string: first hook id, with the dedup TTL)
  KEYS[2]    hook record          (hash)
  KEYS[3]    the bucket's watch set (zset: delivery id -> when recovery should look at it)
  KEYS[4..]  one delivery row per sink (hash)

  ARGV[1]    hook id
  ARGV[2]    dedup TTL, seconds
  ARGV[3]    received_at, ms
  ARGV[4]    meta JSON
  ARGV[5]    headers JSON
  ARGV[6]    body bytes
  ARGV[7]    watch score of the new rows (received_at + recovery.stale_after_ms)
  ARGV[8]    source
  ARGV[9]    tenant ('' for none)
  ARGV[10..] per row, in KEYS order: delivery id, target

  Returns {1} when written, {0, first_id} for a duplicate.
]]
local first = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
if not first then
  return {0, redis.call('GET', KEYS[1])}
end
local rows = #KEYS - 3
redis.call('HSET', KEYS[2], 'meta', ARGV[4], 'hdr', ARGV[5], 'body', ARGV[6], 'live', rows)
if rows == 0 then
  -- Nothing will ever deliver it (a quarantined hook): it lives as long as its dedup key.
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
for i = 1, rows do
  local id, target = ARGV[8 + 2 * i], ARGV[9 + 2 * i]
  local row = KEYS[3 + i]
  redis.call('HSET', row, 'p', ARGV[1], 't', target, 'st', 'pending', 'a', 0, 'f', 0, 'c', ARGV[3], 's', ARGV[8])
  if ARGV[9] ~= '' then
    redis.call('HSET', row, 'tn', ARGV[9])
  end
  redis.call('ZADD', KEYS[3], ARGV[7], id)
end
return {1}
