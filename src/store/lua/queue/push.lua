--[[
  Include (spliced in by LuaScript at `-- @include store/lua/queue/push.lua`): put a delivery on its
  ledger queue once. The members set says which deliveries the queue holds (ready or later), so a
  second push of one (recovery, replay, a retried write) changes nothing. A push that makes the ready
  list non-empty rings the doorbell, where idle workers block; the doorbell keeps one ring at most.

  pushEntry(ready, bell, members, id, entry)   1 when queued now, 0 when it was queued already
  ring(bell)                                   wake one idle worker
]]
local function ring(bell)
  redis.call('LPUSH', bell, '1')
  redis.call('LTRIM', bell, 0, 0)
end

local function pushEntry(ready, bell, members, id, entry)
  if redis.call('SADD', members, id) == 0 then
    return 0
  end
  if redis.call('LPUSH', ready, entry) == 1 then
    ring(bell)
  end
  return 1
end
