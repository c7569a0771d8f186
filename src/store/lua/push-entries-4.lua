--[[
  Queue deliveries on one ledger queue, each once (see queue/push.lua).

  KEYS  ready (list), later (sorted set), bell (list), members (set): one queue's, one hash tag
  ARGV  per delivery: id, entry (queue-entry.ts)

  Returns how many were queued now.
]]
-- @include store/lua/queue/push.lua

local added = 0
for i = 1, #ARGV, 2 do
  added = added + pushEntry(KEYS[1], KEYS[3], KEYS[4], ARGV[i], ARGV[i + 1])
end
return added
