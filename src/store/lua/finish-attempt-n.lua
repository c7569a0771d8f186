--[[
  Record the outcome of attempts, several rows per call (workers batch what finishes within one tick).
  Each write is fenced: a worker's lands only while the row is `sending` under the caller's fencing
  token, so a worker that lost its lease can never overwrite what the new holder wrote. The writers
  that hold no attempt (recovery) land only on a live row no attempt holds: pending, retrying, or
  sending under a lease that has lapsed; recovery's also only while its stale claim is the row's. A final outcome starts
  the row's retention, and the parent's once none of its deliveries is live; a death lists the row in
  its bucket's DLQ indexes in the same step.

  ARGV[1]  number of updates; then per update 12 values:
             nkeys, delivery id, fence (a worker's fencing token; 'ek:<token>': recovery's stale claim;
             '*': unfenced), outcome, now, retention_s,
             next_attempt_at, watch score, reason, error class, status code, uncount (1: the claim
             sent nothing, take its attempt back)
           outcome: delivered | retrying | dead | release (hand back unattempted: the attempt is not
           counted, the row is pending or retrying again)
           then (attempt history) the history's max count and max bytes, and per update one encoded
           attempt ('' when nothing was sent), appended to the row's history with the outcome
           then (operational facts, see ops/delivery-facts.lua) failing_after (0: record no fact), and
           '1' when the last KEY is the dirty set of outboxes (a single Redis), else '0'
  KEYS     per update, nkeys of them: row, parent record, watch set, the bucket's outbox of operational
           facts, then (dead only) the DLQ index keys followed by the bucket's index registry set; then,
           on a single Redis with facts on, the dirty set of outboxes

  Returns one integer per update: 2 written with an operational fact, 1 written, 0 refused (fenced off,
  or the row is not live).
]]
-- isUnheld(st, leaseUntil, now): no live lease holds the row.
-- @include store/lua/ledger/row-lease.lua
-- withAttempt(...): the row's bounded attempt history with one more attempt.
-- @include store/lua/append-attempt.lua
-- deliveryFacts(f): the operational facts an outcome decides, into the bucket's outbox.
-- @include store/lua/ops/delivery-facts.lua

local out = {}
-- Attempt history: its bounds and entries follow the updates' values (see append-attempt.lua).
local historyAt = 2 + 12 * tonumber(ARGV[1])
local historyCount, historyBytes = tonumber(ARGV[historyAt]), tonumber(ARGV[historyAt + 1])
local opsAt = historyAt + 2 + tonumber(ARGV[1])
local failingAfter = tonumber(ARGV[opsAt] or '0') or 0
local dirty = ARGV[opsAt + 1] == '1' and KEYS[#KEYS] or ''
local k, a = 1, 2
for u = 1, tonumber(ARGV[1]) do
  local nkeys = tonumber(ARGV[a])
  local id, fence, outcome, now = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  local retention, nextAt, score = ARGV[a + 5], ARGV[a + 6], ARGV[a + 7]
  local reason, class, status = ARGV[a + 8], ARGV[a + 9], ARGV[a + 10]
  local uncount = ARGV[a + 11] == '1'
  local row, parent, watch, outbox = KEYS[k], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
  -- The fence check's fields, the two that say whether this outcome decides a fact (the rest of what a
  -- fact names is read only then: a delivery that succeeds first time costs no more commands), and the
  -- attempt history the outcome appends to.
  local cur = redis.call('HMGET', row, 'st', 'f', 'lu', 'ek', 'a', 'of', 'ah')
  local st = cur[1]
  local ok
  local byClaim = string.sub(fence, 1, 3) == 'ek:'
  if fence == '*' or byClaim then
    ok = isUnheld(st, cur[3], tonumber(now)) and (not byClaim or cur[4] == string.sub(fence, 4))
  else
    ok = st == 'sending' and cur[2] == fence
  end
  if ok then
    -- One HDEL and one HSET carry every field the outcome changes: each command a script makes costs
    -- Redis about as much as the work it does on a small hash.
    local final = outcome == 'delivered' or outcome == 'dead'
    local gone = {'lo', 'lu'}
    if final then
      gone[#gone + 1] = 'na'
    end
    if byClaim then
      gone[#gone + 1] = 'ek'
    end
    redis.call('HDEL', row, unpack(gone))
    local set = {}
    local function put(field, value)
      set[#set + 1] = field
      set[#set + 1] = value
    end
    if reason ~= '' then
      put('le', reason)
      put('ec', class)
    end
    if status ~= '' then
      put('sc', status)
    end
    if outcome ~= 'release' and historyCount then
      local history = withAttempt(cur[7], ARGV[historyAt + 1 + u], historyCount, historyBytes)
      if history then
        put('ah', history)
      end
    end
    if outcome == 'release' then
      local attempts = redis.call('HINCRBY', row, 'a', -1)
      put('st', attempts <= 0 and 'pending' or 'retrying')
      redis.call('ZADD', watch, score, id)
    elseif outcome == 'retrying' then
      put('st', 'retrying')
      put('la', now)
      put('na', nextAt)
      redis.call('ZADD', watch, score, id)
    else
      if outcome == 'delivered' then
        put('st', 'delivered')
        put('la', now)
        put('da', now)
      else
        put('st', 'dead')
        put('xa', now)
        if uncount then
          redis.call('HINCRBY', row, 'a', -1)
        elseif st == 'sending' then
          put('la', now)
        end
        local registry = KEYS[k + nkeys - 1]
        for i = k + 4, k + nkeys - 2 do
          redis.call('ZADD', KEYS[i], now, id)
          redis.call('SADD', registry, KEYS[i])
        end
      end
      redis.call('ZREM', watch, id)
    end
    redis.call('HSET', row, unpack(set))
    if final then
      redis.call('EXPIRE', row, retention)
      if redis.call('HINCRBY', parent, 'live', -1) <= 0 then
        redis.call('EXPIRE', parent, retention)
      end
    end
    out[u] = 1
    local attempts = tonumber(cur[5] or '0')
    if outcome == 'dead' and uncount then
      attempts = attempts - 1
    end
    local markedFailing = cur[6] == '1'
    if failingAfter > 0 and (outcome == 'dead' or (outcome == 'retrying' and attempts == failingAfter)
        or (outcome == 'delivered' and markedFailing)) then
      -- After this outcome's writes: 'la' and 'sc' are still the last attempt's when none was made now.
      local more = redis.call('HMGET', row, 't', 'p', 'tn', 's', 'la', 'sc')
      local wrote = deliveryFacts({
        outcome = outcome, id = id, now = now, fence = cur[2], attempts = attempts,
        attempted = st == 'sending' and not uncount and not byClaim and fence ~= '*', failingAfter = failingAfter,
        markedFailing = markedFailing, target = more[1] or '', parent = more[2] or '', tenant = more[3],
        source = more[4] or '', reason = reason, class = class, status = status, lastAt = more[5],
        lastStatus = more[6], nextAt = nextAt, row = row, outbox = outbox, dirty = dirty,
      })
      if wrote then
        out[u] = 2
      end
    end
  else
    out[u] = 0
  end
  k = k + nkeys
  a = a + 12
end
return out
