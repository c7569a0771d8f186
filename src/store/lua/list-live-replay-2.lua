--[[
  Layout 1 -> 2, one replay: a running or paused replay joins its tenant's live set (the cap per
  tenant counts it); an ended or expired one is left out.

  KEYS[1] replay record (hash)
  KEYS[2] the live replays of the record's tenant (set of ids; same hash tag)
  ARGV[1] replay id
  ARGV[2] '1' to write, '0' to only say

  Returns 1 when it joins (or would), 0 otherwise.
]]
local state = redis.call('HGET', KEYS[1], 'state')
if (state ~= 'running' and state ~= 'paused') or redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  return 0
end
if ARGV[2] == '1' then redis.call('SADD', KEYS[2], ARGV[1]) end
return 1
