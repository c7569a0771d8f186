--[[
  Layout 1 -> 2, one endpoint: an endpoint stored before payload_format existed delivered the bare
  payload, so it is stamped `raw` (what its receiver has been getting); a tenantless one joins the
  tenantless list the cap per tenant counts. Nothing is written for an endpoint deleted meanwhile.

  KEYS[1] endpoint record (hash)
  KEYS[2] the tenantless endpoints' list (zset, all scores 0)
  ARGV[1] endpoint id
  ARGV[2] '1' to write, '0' to only say what would be written

  Returns {stamped (0/1), listed (0/1)}.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {0, 0}
end
local write = ARGV[2] == '1'
local stamped, listed = 0, 0
if redis.call('HEXISTS', KEYS[1], 'payload_format') == 0 then
  stamped = 1
  if write then redis.call('HSET', KEYS[1], 'payload_format', 'raw') end
end
if not redis.call('HGET', KEYS[1], 'tenant') and redis.call('ZSCORE', KEYS[2], ARGV[1]) == false then
  listed = 1
  if write then redis.call('ZADD', KEYS[2], 0, ARGV[1]) end
end
return {stamped, listed}
