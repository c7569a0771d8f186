--[[
  Persist new hook records, each with one pending delivery row per sink, unless its dedup identity was
  seen within the TTL. Ingest groups the hooks that arrive within one event-loop tick into one call (all
  of one bucket on a Redis Cluster, any on a single Redis): one command for many requests, each still
  judged on its own. Per hook it is atomic: two concurrent copies make one record, and a record never
  exists without its rows. Nothing here expires: a record lives while any of its deliveries is live.

  KEYS, per hook in order:
    dedup key            (string: first hook id, with the dedup TTL)
    hook record          (hash)
    the bucket's watch set (zset: delivery id -> when recovery should look at it)
    one delivery row per sink (hash)

  ARGV, per hook in the same order:
    number of rows
    hook id
    dedup TTL, seconds
    received_at, ms
    meta JSON
    headers JSON
    body bytes
    watch score of the new rows (received_at + recovery.stale_after_ms)
    source
    tenant ('' for none)
    per row: delivery id, target

  Returns, per hook: 1 when written, the first copy's id (a string) for a duplicate.
]]
local out = {}
local k, a = 0, 0
while a < #ARGV do
  local rows = tonumber(ARGV[a + 1])
  local id, ttl, received = ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  local dedup, record, watch = KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
  local first = redis.call('SET', dedup, id, 'NX', 'EX', ttl)
  if not first then
    out[#out + 1] = redis.call('GET', dedup)
  else
    local score, source, tenant = ARGV[a + 8], ARGV[a + 9], ARGV[a + 10]
    redis.call('HSET', record, 'meta', ARGV[a + 5], 'hdr', ARGV[a + 6], 'body', ARGV[a + 7], 'live', rows)
    if rows == 0 then
      -- Nothing will ever deliver it (a quarantined hook): it lives as long as its dedup key.
      redis.call('EXPIRE', record, ttl)
    end
    for i = 1, rows do
      local rid, target = ARGV[a + 9 + 2 * i], ARGV[a + 10 + 2 * i]
      local row = KEYS[k + 3 + i]
      redis.call('HSET', row, 'p', id, 't', target, 'st', 'pending', 'a', 0, 'f', 0, 'c', received, 's', source)
      if tenant ~= '' then
        redis.call('HSET', row, 'tn', tenant)
      end
      redis.call('ZADD', watch, score, rid)
    end
    out[#out + 1] = 1
  end
  k = k + 3 + rows
  a = a + 10 + 2 * rows
end
return out
