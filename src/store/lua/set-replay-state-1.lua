--[[
  Pause, resume or cancel a replay, unless it has already ended (done and cancelled are final).

  KEYS[1] replay record (hash)
  ARGV[1] requested state: running | paused | cancelled
  ARGV[2] now (ms)

  Returns 'ok' when the state is now the requested one, 'missing' when there is no such replay,
  or the final state ('done' | 'cancelled') that the replay is already in.
]]
local current = redis.call('HGET', KEYS[1], 'state')
if not current then
  return 'missing'
end
if current == ARGV[1] then
  return 'ok'
end
if current == 'done' or current == 'cancelled' then
  return current
end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'updated_at', ARGV[2])
return 'ok'
