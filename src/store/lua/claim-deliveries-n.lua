--[[
  Claim deliveries for one attempt each: take a row's lease, bump its fencing token and its attempt
  count, and read what the attempt sends from its parent record, all in one round trip. Claims made
  within one tick share the call (one per slot on a cluster). A row another worker is attempting (an
  unexpired lease) is not taken; a final row is reported as such.

  ARGV[1]  number of claims; then per claim: delivery id, lease owner (the worker's job token), now ms,
           lease ms, number of parent fields F, then the F parent fields to return
  KEYS     per claim 3: delivery row (hash), parent record (hook or event hash), the bucket's watch set

  Returns one reply per claim:
    {'ok', fence, attempts, first_attempt_at|'', replay_id|'', parent field values...}
    {'leased', lease_until}     another worker's lease is live
    {'missing', 0|1}            no such row; 1 when the parent record exists
    {'delivered'} | {'dead'}    final
]]
-- isUnheld(st, leaseUntil, now): no live lease holds the row.
-- @include store/lua/ledger/row-lease.lua

-- One read and one write of the row, one read of the parent: the claim is on every attempt's path.
local function claim(row, parent, watch, id, owner, nowArg, leaseMs, a, nfields)
  local now = tonumber(nowArg)
  local cur = redis.call('HMGET', row, 'st', 'lu', 'fa', 'rp', 'f', 'a')
  local st = cur[1]
  if not st then
    return {'missing', redis.call('EXISTS', parent)}
  end
  if st == 'delivered' or st == 'dead' then
    return {st}
  end
  if not isUnheld(st, cur[2], now) then
    return {'leased', tostring(tonumber(cur[2]))}
  end
  local fence = tonumber(cur[5] or '0') + 1
  local attempts = tonumber(cur[6] or '0') + 1
  local leaseUntil = now + leaseMs
  local fa = cur[3] or nowArg
  redis.call('HSET', row, 'st', 'sending', 'lo', owner, 'lu', leaseUntil, 'f', fence, 'a', attempts, 'fa', fa)
  redis.call('ZADD', watch, leaseUntil, id)
  local out = {'ok', tostring(fence), tostring(attempts), fa, cur[4] or ''}
  if nfields > 0 then
    local values = redis.call('HMGET', parent, unpack(ARGV, a, a + nfields - 1))
    for i = 1, nfields do
      out[5 + i] = values[i]
    end
  end
  return out
end

local replies = {}
local k, a = 1, 2
for c = 1, tonumber(ARGV[1]) do
  local nfields = tonumber(ARGV[a + 4])
  replies[c] = claim(KEYS[k], KEYS[k + 1], KEYS[k + 2], ARGV[a], ARGV[a + 1], ARGV[a + 2],
    tonumber(ARGV[a + 3]), a + 5, nfields)
  k = k + 3
  a = a + 5 + nfields
end
return replies
