-- listEndpointDelivery(index, at, id, oldest, cap): list delivery `id` in its endpoint's delivery index
-- (zset: delivery id -> created at, ms) at `at`, keeping an id already listed at its first time, and
-- trim the index: entries older than `oldest` (no row that old can still exist) and the oldest past
-- `cap` entries go. Shared by index-endpoint-deliveries-n.lua and publish-event-n.lua.
local function listEndpointDelivery(index, at, id, oldest, cap)
  redis.call('ZADD', index, 'NX', at, id)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. oldest)
  redis.call('ZREMRANGEBYRANK', index, 0, -(tonumber(cap) + 1))
end
