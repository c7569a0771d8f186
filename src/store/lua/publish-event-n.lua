--[[
  Record a published event and one pending delivery row per matching endpoint, before anything is
  enqueued, atomically. Rows are unique on (endpoint, event): a row that exists is a duplicate — except
  one whose enqueue failed, which this call takes back (compare-and-set on its enqueue-failed mark), so
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
  KEYS[4..] one delivery row per endpoint (hash)

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
  ARGV[11..] per row, in KEYS order: delivery id, target

  Returns {'conflict'} or one status per row: 'created', 'duplicate' or 'reclaimed' (an enqueue-failed
  row this caller must enqueue again).
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  local known = redis.call('HMGET', KEYS[1], 'type', 'tn')
  if known[1] ~= ARGV[2] or (known[2] or '') ~= ARGV[3] then
    return {'conflict'}
  end
else
  redis.call('HSET', KEYS[1], 'meta', ARGV[4], 'payload', ARGV[5], 'type', ARGV[2], 'tn', ARGV[3], 'live', 0)
end
local out = {}
for i = 1, #KEYS - 3 do
  local row = KEYS[3 + i]
  local id, target = ARGV[9 + 2 * i], ARGV[10 + 2 * i]
  if redis.call('EXISTS', row) == 1 then
    if redis.call('HGET', row, 'ef') == '1' and redis.call('HGET', row, 'st') == 'pending' then
      redis.call('HDEL', row, 'ef', 'ee')
      out[i] = 'reclaimed'
    else
      out[i] = 'duplicate'
    end
  else
    redis.call('HSET', row, 'p', ARGV[1], 't', target, 'st', 'pending', 'a', 0, 'f', 0, 'c', ARGV[6], 's', ARGV[2])
    if ARGV[3] ~= '' then
      redis.call('HSET', row, 'tn', ARGV[3])
    end
    redis.call('HSET', KEYS[1], 'r:' .. id, 1)
    redis.call('HINCRBY', KEYS[1], 'live', 1)
    redis.call('PERSIST', KEYS[1])
    redis.call('ZADD', KEYS[2], ARGV[7], id)
    out[i] = 'created'
  end
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
