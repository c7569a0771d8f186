--[[
  Include (spliced in by LuaScript at `-- @include store/lua/ledger/create-row.lua`): the one place a
  delivery row is created, for ingest (persist-hooks-n.lua) and fanout (publish-event-n.lua) alike, and
  queued with it where the caller passes the queue's keys (the queue is then reachable from the
  script). A row is born pending, unattempted, fence 0, and in its bucket's watch set, so recovery
  finds it whatever becomes of its queueing.

  The write mode says how a row is queued here: '0' not (the caller does), '1' a BullMQ job, '2' an
  entry on a ledger queue (queue/push.lua).
  Per row, KEYS from k: the row (hash), then mode 1: the job's 8 keys (add-standard-job.lua's order),
  mode 2: the queue's ready, bell and members keys;
  ARGV from a: delivery id, target, then mode 1: job name, job data JSON, job opts JSON; mode 2: entry.

  rowKeyCount(mode), rowArgCount(mode)   how many KEYS and ARGV one row takes
  createRow(k, a, mode, parent, created, source, tenant, watch, score)
  addRowJob(k, a, ts, mode)               the row's queueing alone (a row taken back)
]]
-- @include queue/bullmq/add-standard-job.lua
-- @include store/lua/queue/push.lua

local ROW_KEYS = { ['0'] = 1, ['1'] = 9, ['2'] = 4 }
local ROW_ARGS = { ['0'] = 2, ['1'] = 5, ['2'] = 3 }

local function rowKeyCount(mode)
  return ROW_KEYS[mode]
end

local function rowArgCount(mode)
  return ROW_ARGS[mode]
end

local function addRowJob(k, a, ts, mode)
  if mode == '1' then
    addStandardJob(KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4], KEYS[k + 5], KEYS[k + 6], KEYS[k + 7],
      KEYS[k + 8], ARGV[a], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ts)
  elseif mode == '2' then
    pushEntry(KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], ARGV[a], ARGV[a + 2])
  end
end

local function createRow(k, a, mode, parent, created, source, tenant, watch, score)
  if tenant ~= '' then
    redis.call('HSET', KEYS[k], 'p', parent, 't', ARGV[a + 1], 'st', 'pending', 'a', 0, 'f', 0, 'c', created,
      's', source, 'tn', tenant)
  else
    redis.call('HSET', KEYS[k], 'p', parent, 't', ARGV[a + 1], 'st', 'pending', 'a', 0, 'f', 0, 'c', created,
      's', source)
  end
  redis.call('ZADD', watch, score, ARGV[a])
  addRowJob(k, a, created, mode)
end
