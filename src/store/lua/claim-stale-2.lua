--[[
  Claim a live delivery that recovery found due in its watch set, for re-enqueueing: with its own
  enqueue token and a short enqueue lease (its watch score moves past the lease, so a concurrent or
  crashed sweep cannot claim it again before then). The row's delivery state, attempts, retry time and
  send lease are not touched.

  KEYS[1] delivery row (hash)
  KEYS[2] the bucket's watch set
  ARGV[1] delivery id
  ARGV[2] now, ms
  ARGV[3] enqueue token
  ARGV[4] enqueue lease, ms

  Returns
    {'claimed', state, target, parent id, enqueue_failed (0|1)}
    {'not_due'}        someone touched it since it was read (its score is in the future)
    {'leased'}         a worker's send lease is live (score moved to its expiry)
    {'final'}/{'missing'}  nothing to recover (dropped from the watch set)
]]
-- isUnheld(st, leaseUntil, now): no live lease holds the row.
-- @include store/lua/ledger/row-lease.lua

local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
local now = tonumber(ARGV[2])
if not score or tonumber(score) > now then
  return {'not_due'}
end
local row = redis.call('HMGET', KEYS[1], 'st', 't', 'p', 'lu', 'ef')
local st = row[1]
if not st then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return {'missing'}
end
if st == 'delivered' or st == 'dead' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return {'final'}
end
if not isUnheld(st, row[4], now) then
  redis.call('ZADD', KEYS[2], row[4], ARGV[1])
  return {'leased'}
end
redis.call('HSET', KEYS[1], 'ek', ARGV[3])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[1])
return {'claimed', st, row[2], row[3], row[5] and 1 or 0}
