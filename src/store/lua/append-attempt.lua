--[[
  Include (spliced into finish-attempt-n.lua at `-- @include store/lua/append-attempt.lua`): the row's
  attempt history. Defines appendAttempt(row, entry, maxCount, maxBytes), which appends one encoded
  attempt (a line of JSON, see src/store/attempt-history.ts) to the row's field 'ah', newest last, and
  drops the oldest lines until at most maxCount lines and maxBytes bytes remain (the newest always
  stays). An empty entry (nothing was sent) appends nothing. The history is a field of the row, so it
  expires and goes with it.
]]
local function appendAttempt(row, entry, maxCount, maxBytes)
  if entry == nil or entry == '' then
    return
  end
  local old = redis.call('HGET', row, 'ah')
  local all = entry
  local n = 1
  if old then
    all = old .. '\n' .. entry
    n = 2
    for _ in string.gmatch(old, '\n') do
      n = n + 1
    end
  end
  while n > 1 and (n > maxCount or #all > maxBytes) do
    all = string.sub(all, string.find(all, '\n', 1, true) + 1)
    n = n - 1
  end
  redis.call('HSET', row, 'ah', all)
end
