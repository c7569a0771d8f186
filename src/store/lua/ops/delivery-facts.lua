--[[
  Include (`-- @include store/lua/ops/delivery-facts.lua`, by finish-attempt-n.lua): the per-delivery
  operational facts an outcome decides, written into the row's bucket outbox in the same step as the
  outcome (so only when the fenced write lands, and never twice for one transition):

  - switchyard.delivery.failing    an outbound row's attempt count reaches exactly `failing_after` with
                                   a failed attempt (retrying or dead); the row is marked (`of`);
  - switchyard.delivery.exhausted  an outbound row goes dead;
  - switchyard.delivery.recovered  an outbound row marked failing is delivered;
  - switchyard.hook.dead           an inbound (sink) row goes dead.

  No delivery.* fact is ever decided for a row that delivers an operational event itself (its event
  type, the row's `s`, is in the `switchyard.` namespace): an endpoint failing to take operational
  events produces none about those deliveries, so there is no loop.

  deliveryFacts(f) returns true when it wrote a fact. `f` holds: outcome, id, now, fence, attempts (after
  this outcome), attempted (this outcome ends an attempt that was sent), failingAfter (0: no facts),
  markedFailing, target, parent, tenant, source, reason, class, status, lastAt, lastStatus (the row's
  before this outcome), nextAt, row, outbox, dirty.
]]
-- @include store/lua/ops/append-fact.lua

-- A row's last error, as a payload carries it: bounded, so a fact always fits an event.
local FACT_ERROR_MAX = 1024

local function lastAttemptOf(f)
  local at, status = f.lastAt, f.lastStatus
  if f.attempted then
    at = f.now
    status = f.status
  end
  return {
    at = (at and at ~= '') and isoTime(at) or nil,
    status_code = (status and status ~= '') and tonumber(status) or nil,
    error_class = f.class ~= '' and f.class or nil,
    error = f.reason ~= '' and string.sub(f.reason, 1, FACT_ERROR_MAX) or nil,
  }
end

local function deliveryFacts(f)
  if f.failingAfter <= 0 then
    return false
  end
  local tenant = (f.tenant and f.tenant ~= '') and f.tenant or nil
  local kind = string.sub(f.target, 1, 2)
  if kind == 's:' then
    if f.outcome ~= 'dead' then
      return false
    end
    local sink = string.sub(f.target, 3)
    local type = 'switchyard.hook.dead'
    local data = {
      delivery_id = f.id, hook_id = f.parent, source = f.source, sink = sink, tenant = tenant,
      attempts = f.attempts, last_attempt = lastAttemptOf(f), dead_at = isoTime(f.now),
    }
    appendFact(f.outbox, f.dirty, opsEventId(type, f.id, f.now), opsEntry(type, tenant, f.now, 'sink:' .. sink, data))
    return true
  end
  if kind ~= 'e:' or string.sub(f.source, 1, 11) == 'switchyard.' then
    return false
  end
  local endpoint = string.sub(f.target, 3)
  local slash = string.find(f.parent, '/', 1, true)
  local eventId = slash and string.sub(f.parent, slash + 1) or f.parent
  local budget = 'endpoint:' .. endpoint
  local function fact(type, n, extra)
    local data = {
      delivery_id = f.id, event_id = eventId, event_type = f.source, endpoint_id = endpoint, tenant = tenant,
      attempts = f.attempts,
    }
    for k, v in pairs(extra) do
      data[k] = v
    end
    appendFact(f.outbox, f.dirty, opsEventId(type, f.id, n), opsEntry(type, tenant, f.now, budget, data))
  end
  local wrote = false
  local failed = f.outcome == 'retrying' or f.outcome == 'dead'
  if failed and f.attempted and f.attempts == f.failingAfter then
    fact('switchyard.delivery.failing', f.fence, {
      state = f.outcome, last_attempt = lastAttemptOf(f),
      next_attempt_at = f.outcome == 'retrying' and isoTime(f.nextAt) or nil,
    })
    redis.call('HSET', f.row, 'of', 1)
    wrote = true
  end
  if f.outcome == 'dead' then
    fact('switchyard.delivery.exhausted', f.now, { last_attempt = lastAttemptOf(f), dead_at = isoTime(f.now) })
    wrote = true
  elseif f.outcome == 'delivered' and f.markedFailing then
    local status = (f.status ~= '') and tonumber(f.status) or nil
    fact('switchyard.delivery.recovered', f.fence, { status_code = status, delivered_at = isoTime(f.now) })
    wrote = true
  end
  return wrote
end
