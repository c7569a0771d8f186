--[[
  Take an event off its bucket's unfinished fanouts when nothing is left to finish: its record is gone
  (expired) or no longer marked unfinished (its last page was written meanwhile). Checked in the script,
  so a fanout marked again by a re-publish in between stays listed.

  KEYS[1]   event record (hash; fo while its fanout is unfinished)
  KEYS[2]   the bucket's unfinished fanouts (zset of event refs)

  ARGV[1]   event ref

  Returns 1 if it was taken off, 0 if it is still unfinished (or was not listed).
]]
if redis.call('HEXISTS', KEYS[1], 'fo') == 1 then
  return 0
end
return redis.call('ZREM', KEYS[2], ARGV[1])
