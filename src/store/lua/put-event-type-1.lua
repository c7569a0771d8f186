--[[
  Declare (or redeclare) one event type in the catalog's API half, within its cap.

  KEYS[1]  the catalog (hash: name -> JSON)
  ARGV[1]  name    ARGV[2]  JSON    ARGV[3]  the most entries the hash may hold

  Returns 'created', 'replaced' or 'full'.
]]
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  return 'replaced'
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return 'full'
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 'created'
