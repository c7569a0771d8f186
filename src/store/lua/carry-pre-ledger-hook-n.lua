--[[
  Write one pre-ledger hook as the ledger holds it (layout 0 -> 1 migration): its record and a delivery
  row per sink, each live row in the bucket's watch set, each dead row in its DLQ indexes. All or
  nothing, and once: a record already there means an earlier run carried this hook (the migration was
  interrupted before it removed the old keys), and nothing is written again.

  KEYS[1]   new hook record (hash)
  KEYS[2]   the bucket's watch set (zset)
  KEYS[3]   the bucket's DLQ index registry (set)
  KEYS[4..] per row: its row (hash), then its DLQ index keys (dead rows only)

  ARGV[1]   meta JSON
  ARGV[2]   headers JSON
  ARGV[3]   body bytes
  ARGV[4]   live deliveries (the record's `live`)
  ARGV[5]   the record's time to live, ms (0: none, it has live deliveries)
  ARGV[6]   number of rows
  then per row: delivery id, number of field/value pairs n, the n pairs, watch score ('' for none),
            time to live ms (0: none), number of DLQ index keys, dead_at (the index score, '' if alive)

  Returns 1 when written, 0 when the record already existed (nothing written).
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'meta', ARGV[1], 'hdr', ARGV[2], 'body', ARGV[3], 'live', ARGV[4])
if tonumber(ARGV[5]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
local k, a = 4, 7
for _ = 1, tonumber(ARGV[6]) do
  local id, pairs = ARGV[a], tonumber(ARGV[a + 1])
  local row = KEYS[k]
  for i = 0, pairs - 1 do
    redis.call('HSET', row, ARGV[a + 2 + i * 2], ARGV[a + 3 + i * 2])
  end
  local at = a + 2 + pairs * 2
  local score, ttl, nidx, deadAt = ARGV[at], tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2]), ARGV[at + 3]
  if score ~= '' then
    redis.call('ZADD', KEYS[2], score, id)
  end
  if ttl > 0 then
    redis.call('PEXPIRE', row, ttl)
  end
  for i = 1, nidx do
    redis.call('ZADD', KEYS[k + i], deadAt, id)
    redis.call('SADD', KEYS[3], KEYS[k + i])
  end
  k = k + 1 + nidx
  a = at + 4
end
return 1
