--[[
  Include (`-- @include store/lua/ops/append-fact.lua`): record one operational fact in the outbox of
  the calling script's own hash tag, in the same atomic step as the change it reports, so the fact can
  be neither lost nor invented by a crash (the drainer, src/operational/, publishes and removes it).

  opsEventId(type, subject, n)      the fact's event id, as operationalEventId() in
                                    src/domain/operational-events.ts makes it (n may be nil)
  opsEntry(type, tenant, at, budget, data)
                                    an OutboxEntry as JSON; tenant and budget '' or nil for none, data a
                                    table of the payload's fields (nil fields are left out)
  appendFact(outbox, dirty, eventId, entry)
                                    HSET the entry under its event id in `outbox` (`<tag>:ops`, one of the
                                    script's KEYS), and on a single Redis SADD the outbox to `dirty` (the
                                    drainer's set of outboxes to read). `dirty` is '' on a cluster, where
                                    it is another slot: the calling process marks the outbox after.
  isoTime(ms)                       see iso-time.lua
]]
-- @include store/lua/ops/iso-time.lua

local function opsEventId(type, subject, n)
  local short = string.sub(type, string.len('switchyard.') + 1)
  if n == nil then
    return 'op:' .. short .. ':' .. subject
  end
  return 'op:' .. short .. ':' .. subject .. ':' .. n
end

local function opsEntry(type, tenant, at, budget, data)
  local entry = { type = type, at = tonumber(at), data = data }
  if tenant and tenant ~= '' then
    entry.tenant = tenant
  end
  if budget and budget ~= '' then
    entry.budget = budget
  end
  return cjson.encode(entry)
end

local function appendFact(outbox, dirty, eventId, entry)
  redis.call('HSET', outbox, eventId, entry)
  if dirty ~= '' then
    redis.call('SADD', dirty, outbox)
  end
end
