--[[
  Claim a delivery for one attempt: take its lease, bump its fencing token and its attempt count,
  and read what the attempt sends from its parent record, all in one round trip. A row another
  worker is attempting (an unexpired lease) is not taken; a final row is reported as such.

  KEYS[1]   delivery row (hash)
  KEYS[2]   parent record (hook or event hash)
  KEYS[3]   the bucket's watch set

  ARGV[1]   delivery id
  ARGV[2]   lease owner (the worker's job token)
  ARGV[3]   now, ms
  ARGV[4]   lease, ms
  ARGV[5..] parent fields to return

  Returns
    {'ok', fence, attempts, first_attempt_at|'', replay_id|'', parent field values...}
    {'leased', lease_until}     another worker's lease is live
    {'missing', 0|1}            no such row; 1 when the parent record exists
    {'delivered'} | {'dead'}    final
]]
-- One read and one write of the row, one read of the parent: the claim is on every attempt's path.
local cur = redis.call('HMGET', KEYS[1], 'st', 'lu', 'fa', 'rp', 'f', 'a')
local st = cur[1]
if not st then
  return {'missing', redis.call('EXISTS', KEYS[2])}
end
if st == 'delivered' or st == 'dead' then
  return {st}
end
local now = tonumber(ARGV[3])
if st == 'sending' then
  local until_ = tonumber(cur[2] or '0')
  if until_ > now then
    return {'leased', tostring(until_)}
  end
end
local fence = tonumber(cur[5] or '0') + 1
local attempts = tonumber(cur[6] or '0') + 1
local leaseUntil = now + tonumber(ARGV[4])
local fa = cur[3] or ARGV[3]
redis.call('HSET', KEYS[1], 'st', 'sending', 'lo', ARGV[2], 'lu', leaseUntil, 'f', fence, 'a', attempts, 'fa', fa)
redis.call('ZADD', KEYS[3], leaseUntil, ARGV[1])
local out = {'ok', tostring(fence), tostring(attempts), fa, cur[4] or ''}
if #ARGV >= 5 then
  local parent = redis.call('HMGET', KEYS[2], unpack(ARGV, 5))
  for i = 1, #parent do
    out[#out + 1] = parent[i]
  end
end
return out
