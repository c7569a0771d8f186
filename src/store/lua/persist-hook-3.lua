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
  ARGV[5] hook key prefix (to read a duplicate's record; same hash tag as KEYS)
  ARGV[6..] record field, value, field, value, ...

  Returns
    {1}                          the record was written
    {0, first_id, state|false}   a duplicate: the first hook's id and its enqueue state
]]
local first = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
if not first then
  local existing = redis.call('GET', KEYS[1])
  local state = redis.call('HGET', ARGV[5] .. existing, 'st')
  return {0, existing, state}
end
local fields = {}
for i = 6, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[2], unpack(fields))
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return {1}
