--[[
  List new deliveries in their endpoints' delivery indexes (written as their rows are), and keep each
  index bounded: entries older than the oldest row that can still exist, and the oldest past the count
  cap, go. An id already listed keeps its first time (a re-published event lists its row once). One
  call covers a page of a fanout: on a single Redis every endpoint's index at once, on a cluster the
  indexes of one slot.

  KEYS     one endpoint's delivery index per delivery (zset: delivery id -> created at, ms)
  ARGV[1]  created at, ms
  ARGV[2]  the oldest time a listed row can have (older entries are trimmed)
  ARGV[3]  the most entries one index keeps
  ARGV[4..] per key, in KEYS order: the delivery id
]]
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], 'NX', ARGV[1], ARGV[3 + i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', '(' .. ARGV[2])
  redis.call('ZREMRANGEBYRANK', KEYS[i], 0, -(tonumber(ARGV[3]) + 1))
end
return 1
