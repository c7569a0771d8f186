--[[
  Layout 1 -> 2: the quarantine's index, sizes and byte count were kept for good; they now expire with
  the newest entry. Entries expire on their own, so the three get the longest time an entry has left,
  or go now when no entry is left.

  KEYS[1] the index (zset of ids)
  KEYS[2] the byte count (string)
  KEYS[3] the sizes (hash: id -> bytes)
  ARGV[1] key prefix of the entries (prefix .. id is one; same hash tag)
  ARGV[2] '1' to write, '0' to only say

  Returns {keys changed, ms given (0: deleted or nothing to do)}.
]]
local ttl = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local left = redis.call('PTTL', ARGV[1] .. id)
  if left > ttl then ttl = left end
end
local changed = 0
for i = 1, 3 do
  if redis.call('PTTL', KEYS[i]) == -1 then
    changed = changed + 1
    if ARGV[2] == '1' then
      if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) else redis.call('DEL', KEYS[i]) end
    end
  end
end
return {changed, ttl}
