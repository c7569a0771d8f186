--[[
  List new deliveries in their endpoints' delivery indexes (written as their rows are), and keep each
  index bounded: entries older than the oldest row that can still exist, and the oldest past the count
  cap, go. An id already listed keeps its first time (a re-published event lists its row once). One
  call covers the indexes of one slot of a page of a fanout, on a cluster (on a single Redis the publish
  script lists them itself, see publish-event-n.lua).

  KEYS     one endpoint's delivery index per delivery (zset: delivery id -> created at, ms)
  ARGV[1]  created at, ms
  ARGV[2]  the oldest time a listed row can have (older entries are trimmed)
  ARGV[3]  the most entries one index keeps
  ARGV[4..] per key, in KEYS order: the delivery id
]]
-- @include store/lua/endpoint/list-delivery.lua
for i = 1, #KEYS do
  listEndpointDelivery(KEYS[i], ARGV[1], ARGV[3 + i], ARGV[2], ARGV[3])
end
return 1
