--[[
  Take one delivery slot of a target's rate limit, shared by every worker process. GCRA: the key holds
  the theoretical arrival time (TAT) of the next delivery, so deliveries are spaced 1/rate apart and at
  most `burst` extra may go early; any half-open window of W ms admits at most W·rate/1000 + burst.

  Time is Redis's own clock (TIME), not the caller's: with one clock for every process, a worker whose
  clock runs ahead cannot take early and one that runs behind cannot claim credit from the past.

  KEYS[1] the target's TAT (string: ms of Redis time, fractional)
  ARGV[1] emission interval, ms (1000 / rate; may be fractional)
  ARGV[2] burst tolerance, ms (burst × interval)

  Returns {1} when taken, or {0, retry_in_ms} when refused: the wait until a take would succeed if no one
  else takes first. A refusal writes nothing.
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then
  tat = now
end
local wait = tat - tonumber(ARGV[2]) - now
if wait > 0 then
  return {0, math.ceil(wait)}
end
local next_tat = tat + interval
-- Once the TAT is in the past it means the same as no key, so the key may lapse then.
redis.call('SET', KEYS[1], string.format('%.3f', next_tat), 'PX', math.ceil(next_tat - now))
return {1}
