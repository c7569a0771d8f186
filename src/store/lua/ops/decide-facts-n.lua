--[[
  The drainer's one decision per budgeted fact (a per-delivery fact, counted against its target's
  budget per minute), so concurrent drainers agree: a fact decided `send` stays `send` (its decision is
  kept a day); one over the budget is `skip`, and deciding it again gives `skip` again while the
  minute's counter lives (it only grows), so a skip needs no record of its own: a storm of suppressed
  facts costs one counter per target and minute, not one key per fact. Facts without a budget are
  always sent and never come here. All keys are in the drainer's own hash tag (Keys#opsTag).

  KEYS     per fact: its decision (string), its target's counter of the fact's minute (string)
  ARGV[1]  the most facts a target may send in a minute (> 0)
  ARGV[2]  how long a `send` decision is kept, s
  ARGV[3]  how long a minute's counter is kept, s

  Returns 'send' or 'skip' per fact.
]]
local limit, ttl, budgetTtl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
for i = 1, #KEYS, 2 do
  local decided = redis.call('GET', KEYS[i])
  if decided then
    out[#out + 1] = decided
  else
    local n = redis.call('INCR', KEYS[i + 1])
    if n == 1 then
      redis.call('EXPIRE', KEYS[i + 1], budgetTtl)
    end
    if n <= limit then
      redis.call('SET', KEYS[i], 'send', 'EX', ttl)
      out[#out + 1] = 'send'
    else
      out[#out + 1] = 'skip'
    end
  end
end
return out
