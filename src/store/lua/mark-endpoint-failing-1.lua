--[[
  Note when an endpoint started failing, unless it already is, without recreating a deleted endpoint (a
  bare HSETNX would leave a one-field hash behind).

  KEYS[1]          endpoint record (hash)
  ARGV[1]          now (ms)

  Returns failing_since (ms, the earlier value if it was already set), or nil if there is no such endpoint.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
redis.call('HSETNX', KEYS[1], 'failing_since', ARGV[1])
return redis.call('HGET', KEYS[1], 'failing_since')
