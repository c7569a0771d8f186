--[[
  Whose turn is it to take a cluster-wide sample (queue depths, say)? The first caller in each interval
  takes the turn, by a lock that lapses with the interval; every other caller gets the latest sample
  instead, so one process reads the queues per interval however many processes want the numbers.

  KEYS[1] the turn lock (string, expires after the interval)
  KEYS[2] the latest sample (string, written by whoever took the turn)
  ARGV[1] the caller's token
  ARGV[2] the interval, ms

  Returns {1} when the caller has the turn, else {0, sample} (sample absent when none is published).
]]
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {1}
end
return {0, redis.call('GET', KEYS[2])}
