--[[
  List a new delivery in its endpoint's delivery index (written as its row is), and keep the index
  bounded: entries older than the oldest row that can still exist, and the oldest past the count cap,
  go. An id already listed keeps its first time (a re-published event lists its row once).

  KEYS[1]  the endpoint's delivery index (zset: delivery id -> created at, ms)
  ARGV[1]  created at, ms
  ARGV[2]  the oldest time a listed row can have (older entries are trimmed)
  ARGV[3]  the most entries kept
  ARGV[4..] delivery ids
]]
for i = 4, #ARGV do
  redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[i])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
return 1
