--[[
  Record a published event and one pending delivery row per matching endpoint, atomically, with each
  new row's job where the caller passes the job writes (a single Redis with the verified BullMQ, as
  ingest's persist does: create-row.lua is the one row writer of both); otherwise the caller adds the
  jobs after this call. Rows are unique on (endpoint, event): a row that exists is a duplicate — except
  one whose enqueue failed (marked by a caller whose add failed, or by an older release), which this
  call takes back (compare-and-set on its enqueue-failed mark; with jobs, its job is written here), so
  that of several concurrent re-publishers exactly one enqueues it. Re-publishing an event id with
  another type is refused (ids are scoped by tenant: the record's key names it). An event left with no
  live row (nobody takes it) expires after retention_s, as a finished one does; a fanout is written a
  page of endpoints per call, each page atomic, so a re-publish completes one cut short.
  A fanout of several pages is marked unfinished by its first page, with the endpoints it is written to
  (field fo: their ids as JSON), and listed in the bucket's fanouts set; its last page clears both, so a
  fanout whose publisher died between pages is found and finished by recovery (fanout-resume.ts).

  KEYS[1]   event record (hash: meta, payload, live, r:<delivery id> per row, fo while unfinished)
  KEYS[2]   the bucket's watch set
  KEYS[3]   the bucket's unfinished fanouts (zset: event ref -> when recovery may finish it, ms)
  KEYS[4..] per endpoint, as create-row.lua takes them: its delivery row (hash), and the keys of its
            queue by the write mode (ARGV[11]; the queue in the row's slot)
  then, when ARGV[12] > 0 (a single Redis only), per endpoint in the same order: its delivery index

  ARGV[1]   event ref (`<tenant>/<id>`, or the bare id): what each row's `p` names
  ARGV[2]   event type
  ARGV[3]   tenant ('' for none)
  ARGV[4]   meta JSON
  ARGV[5]   payload bytes
  ARGV[6]   now, ms
  ARGV[7]   watch score of new rows (now + recovery.stale_after_ms)
  ARGV[8]   retention_s: the expiry of an event no live row holds
  ARGV[9]   this page of the fanout: 'first' (more follow: mark the fanout unfinished with ARGV[10]),
            'more' (more follow: push back when recovery may finish it, if still marked) or 'last'
            (clear the mark)
  ARGV[10]  with 'first', the ids of every endpoint of the fanout (JSON); else ''
  ARGV[11]  write mode (create-row.lua): '1' BullMQ jobs, '2' ledger queue entries, '0' the caller queues
  ARGV[12]  how many endpoint delivery indexes end KEYS (one per row: each row is listed in its
            endpoint's index here), or 0 when the caller lists them (a cluster: another slot)
  ARGV[13]  with indexes, the oldest time a listed row can have     ARGV[14]  the most an index keeps
  ARGV[15..] per row, in KEYS order, as create-row.lua takes them: delivery id, target, and what the
            write mode writes

  Returns {'conflict'} or one status per row: 'created', 'duplicate' or 'reclaimed' (an enqueue-failed
  row taken back: without jobs, this caller must enqueue it again).
]]
-- createRow(...): a pending delivery row, and its job where one is passed.
-- @include store/lua/ledger/create-row.lua
-- listEndpointDelivery(...): a row in its endpoint's delivery index.
-- @include store/lua/endpoint/list-delivery.lua

if redis.call('EXISTS', KEYS[1]) == 1 then
  local known = redis.call('HMGET', KEYS[1], 'type', 'tn')
  if known[1] ~= ARGV[2] or (known[2] or '') ~= ARGV[3] then
    return {'conflict'}
  end
else
  redis.call('HSET', KEYS[1], 'meta', ARGV[4], 'payload', ARGV[5], 'type', ARGV[2], 'tn', ARGV[3], 'live', 0)
end
local out = {}
local mode = ARGV[11]
local keysPerRow, argsPerRow = rowKeyCount(mode), rowArgCount(mode)
local created = 0
local indexes = tonumber(ARGV[12])
local k, a = 4, 15
local n = 0
while k <= #KEYS - indexes do
  local row = KEYS[k]
  n = n + 1
  if indexes > 0 then
    listEndpointDelivery(KEYS[#KEYS - indexes + n], ARGV[6], ARGV[a], ARGV[13], ARGV[14])
  end
  local status = 'created'
  if redis.call('EXISTS', row) == 1 then
    local mark = redis.call('HMGET', row, 'ef', 'st')
    if mark[1] == '1' and mark[2] == 'pending' then
      redis.call('HDEL', row, 'ef', 'ee')
      addRowJob(k, a, ARGV[6], mode)
      status = 'reclaimed'
    else
      status = 'duplicate'
    end
  else
    createRow(k, a, mode, ARGV[1], ARGV[6], ARGV[2], ARGV[3], KEYS[2], ARGV[7])
    redis.call('HSET', KEYS[1], 'r:' .. ARGV[a], 1)
    created = created + 1
  end
  out[#out + 1] = status
  k = k + keysPerRow
  a = a + argsPerRow
end
if created > 0 then
  redis.call('HINCRBY', KEYS[1], 'live', created)
  redis.call('PERSIST', KEYS[1])
end
-- Recovery finishes a marked fanout once the publisher has written no page for stale_after_ms.
if ARGV[9] == 'first' then
  redis.call('HSET', KEYS[1], 'fo', ARGV[10])
  redis.call('ZADD', KEYS[3], ARGV[7], ARGV[1])
elseif ARGV[9] == 'more' then
  redis.call('ZADD', KEYS[3], 'XX', ARGV[7], ARGV[1])
else
  redis.call('HDEL', KEYS[1], 'fo')
  redis.call('ZREM', KEYS[3], ARGV[1])
end
if redis.call('HGET', KEYS[1], 'live') == '0' and redis.call('TTL', KEYS[1]) == -1 then
  redis.call('EXPIRE', KEYS[1], ARGV[8])
end
return out
