--[[
  Layout 1 -> 2, one event: an event no live row holds (every delivery finished, or nobody took it)
  was kept for good; it now expires as a finished one does, with its longest-kept row (rows of the
  event live in its bucket), or after retention_s when it has none left.

  KEYS[1] event record (hash: live, r:<delivery id> per row)
  ARGV[1] key prefix of the bucket's rows (prefix .. delivery id is a row; same hash tag as KEYS[1])
  ARGV[2] retention_s, in ms
  ARGV[3] '1' to write, '0' to only say

  Returns the expiry given in ms, or 0 when the event is live, already expiring, or gone.
]]
if redis.call('PTTL', KEYS[1]) ~= -1 or redis.call('HGET', KEYS[1], 'live') ~= '0' then
  return 0
end
local ttl = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 2) == 'r:' then
    local left = redis.call('PTTL', ARGV[1] .. string.sub(field, 3))
    if left > ttl then ttl = left end
  end
end
if ttl <= 0 then ttl = tonumber(ARGV[2]) end
if ARGV[3] == '1' then redis.call('PEXPIRE', KEYS[1], ttl) end
return ttl
