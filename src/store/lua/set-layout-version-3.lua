--[[
  Record that a layout migration finished: move the layout version from ARGV[2] to ARGV[3] and drop the
  migration's step markers, only while the caller holds the migration lock and the version is still the
  one it migrated from (a missing version counts as 0: pre-ledger data was never stamped).

  KEYS[1] layout version (string)
  KEYS[2] migration lock (string)
  KEYS[3] the migration's step markers (hash)
  ARGV[1] lock holder token
  ARGV[2] version migrated from
  ARGV[3] version migrated to

  Returns 1 when moved, -1 when the lock is not held by ARGV[1], -2 when the version is not ARGV[2].
]]
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return -1
end
local stored = redis.call('GET', KEYS[1]) or '0'
if stored ~= ARGV[2] then
  return -2
end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[3])
return 1
