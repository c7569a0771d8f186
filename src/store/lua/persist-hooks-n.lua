--[[
  Persist new hook records, each with one pending delivery row per sink, unless its dedup identity was
  seen within the TTL. Ingest groups the hooks that arrive within one event-loop tick into one call (all
  of one bucket on a Redis Cluster, any on a single Redis): one command for many requests, each still
  judged on its own. Per hook it is atomic: two concurrent copies make one record, a record never
  exists without its rows, and (jobs written here) a row never exists without its job. Nothing here
  expires: a record lives while any of its deliveries is live.

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
    write mode (create-row.lua): '1' a BullMQ job a row, '2' a ledger queue entry, '0' the caller queues
    per row: as create-row.lua takes it (delivery id, target, and what the mode writes)

  Per row, KEYS as create-row.lua takes them: the row, and the keys of its queue by the write mode (the
  queue in the row's slot: a single Redis, or a cluster whose queues are aligned with buckets).

  Returns, per hook: 1 when written, the first copy's id (a string) for a duplicate.
]]
-- createRow(...): a pending delivery row, and its job where one is passed.
-- @include store/lua/ledger/create-row.lua

local out = {}
local k, a = 0, 0
while a < #ARGV do
  local rows = tonumber(ARGV[a + 1])
  local id, ttl, received = ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  local mode = ARGV[a + 11]
  local keysPerRow, argsPerRow = rowKeyCount(mode), rowArgCount(mode)
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
    for i = 0, rows - 1 do
      createRow(k + 4 + i * keysPerRow, a + 12 + i * argsPerRow, mode, id, received, source, tenant, watch, score)
    end
    out[#out + 1] = 1
  end
  k = k + 3 + rows * keysPerRow
  a = a + 11 + rows * argsPerRow
end
return out
