--[[
  Include (spliced in by LuaScript at `-- @include store/lua/endpoint-revision.lua`): the optimistic
  check every endpoint change makes first. The caller computed its keys from the record it read, so a
  change made since would leave the indexes wrong: the script refuses, and the caller reads again.

  revisionRefusal(record, seen)   nil when the record exists at revision `seen`; otherwise the script's
                                  answer: 0 no such endpoint, -1 its revision moved on
]]
local function revisionRefusal(record, seen)
  local rev = redis.call('HGET', record, 'rev')
  if not rev then
    return 0
  end
  if rev ~= seen then
    return -1
  end
  return nil
end
