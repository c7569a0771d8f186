--[[
  Include (spliced into finish-attempt-n.lua at `-- @include store/lua/append-attempt.lua`): the row's
  attempt history. Defines withAttempt(old, entry, maxCount, maxBytes), which returns the row's field
  'ah' with one encoded attempt (a line of JSON, see src/store/attempt-history.ts) appended, newest
  last, after dropping the oldest lines until at most maxCount lines and maxBytes bytes remain (the
  newest always stays); nil when an empty entry (nothing was sent) appends nothing. The caller reads
  the old value and writes the new one with the row's other fields, in the commands it makes anyway:
  the history costs no command of its own. It is a field of the row, so it expires and goes with it.
]]
local function withAttempt(old, entry, maxCount, maxBytes)
  if entry == nil or entry == '' then
    return nil
  end
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
  return all
end
