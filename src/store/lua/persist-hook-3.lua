--[[
  Persist a new hook record unless its dedup key was seen within the TTL, atomically, so two concurrent
  copies of one hook make one record.

  KEYS[1] dedup key            (string: first hook id)
  KEYS[2] hook key             (hash: the record)
  KEYS[3] pending-enqueue set  (zset: hook id -> received_at ms)

  ARGV[1] hook id
  ARGV[2] dedup TTL, seconds
  ARGV[3] retention of the record, seconds
  ARGV[4] received_at, ms
  ARGV[5] meta JSON (source, tenant, received_at, content type, sha256, keys, sinks)
  ARGV[6] headers JSON
  ARGV[7] body bytes

  Returns
    {1}                   the record was written
    {0, first_id, 0|1}    a duplicate: the first hook's id, and 1 if its jobs are not yet known to exist
                          (it is still in the pending-enqueue set)
]]
local first = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
if not first then
  local existing = redis.call('GET', KEYS[1])
  local pending = redis.call('ZSCORE', KEYS[3], existing) and 1 or 0
  return {0, existing, pending}
end
redis.call('HSET', KEYS[2], 'meta', ARGV[5], 'hdr', ARGV[6], 'body', ARGV[7])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return {1}
