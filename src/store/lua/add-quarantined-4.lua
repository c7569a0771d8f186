--[[
  Keep one hook that failed verification, within caps: entries older than the TTL leave first, then
  the oldest until both the count and the byte cap hold. The store never grows past its caps, however
  many bad requests arrive. An entry larger than the whole byte cap is refused before anything is
  evicted: one large request must not empty the quarantine. The index, sizes and byte count expire
  with the newest entry (each add pushes their expiry out to its TTL), so a quarantine nobody adds to
  leaves nothing behind. An evicted entry leaves the index, the sizes and the byte count here; its
  own hash is not a key of this call, so the caller deletes it (it also expires with the TTL).

  KEYS[1] the index (zset: id -> received_at ms)
  KEYS[2] the byte counter (string)
  KEYS[3] the sizes (hash: id -> bytes counted against the cap)
  KEYS[4] the new entry's key (hash)
  ARGV[1] id
  ARGV[2] received_at ms
  ARGV[3] ttl s
  ARGV[4] max entries
  ARGV[5] max bytes
  ARGV[6] size of the entry (bytes counted against the cap)
  ARGV[7..] field, value pairs of the entry

  Returns {kept (1, or 0 when the entry alone is over the byte cap: nothing evicted), evicted id...}.
]]
local now, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])
local maxEntries, maxBytes, size = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if size > maxBytes then
  return {0}
end
local evicted = {0}
local function evict(id)
  local bytes = tonumber(redis.call('HGET', KEYS[3], id) or '0')
  redis.call('HDEL', KEYS[3], id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('DECRBY', KEYS[2], bytes)
  evicted[#evicted + 1] = id
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - ttl * 1000)) do
  evict(id)
end
while redis.call('ZCARD', KEYS[1]) >= maxEntries or tonumber(redis.call('GET', KEYS[2]) or '0') + size > maxBytes do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)
  if #oldest == 0 then
    break
  end
  evict(oldest[1])
end
local fields = {}
for i = 7, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[4], unpack(fields))
redis.call('EXPIRE', KEYS[4], ttl)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], size)
redis.call('INCRBY', KEYS[2], size)
for i = 1, 3 do
  redis.call('EXPIRE', KEYS[i], ttl)
end
evicted[1] = 1
return evicted
