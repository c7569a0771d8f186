--[[
  Include (spliced in by LuaScript at `-- @include store/lua/ledger/create-row.lua`): the one place a
  delivery row is created, for ingest (persist-hooks-n.lua) and fanout (publish-event-n.lua) alike, and
  its job with it where the caller passes one (a single Redis with the verified BullMQ: the queue is
  then reachable from the script). A row is born pending, unattempted, fence 0, and in its bucket's
  watch set, so recovery finds it whatever becomes of its job.

  Per row, KEYS from k: the row (hash), then with a job its 8 keys (add-standard-job.lua's order);
  ARGV from a: delivery id, target, then with a job: job name, job data JSON, job opts JSON.

  rowKeyCount(withJob), rowArgCount(withJob)   how many KEYS and ARGV one row takes
  createRow(k, a, withJob, parent, created, source, tenant, watch, score)
  addRowJob(k, a, ts)                           the row's job alone (a row taken back)
]]
-- @include queue/bullmq/add-standard-job.lua

local function rowKeyCount(withJob)
  return withJob and 9 or 1
end

local function rowArgCount(withJob)
  return withJob and 5 or 2
end

local function addRowJob(k, a, ts)
  addStandardJob(KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4], KEYS[k + 5], KEYS[k + 6], KEYS[k + 7],
    KEYS[k + 8], ARGV[a], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ts)
end

local function createRow(k, a, withJob, parent, created, source, tenant, watch, score)
  if tenant ~= '' then
    redis.call('HSET', KEYS[k], 'p', parent, 't', ARGV[a + 1], 'st', 'pending', 'a', 0, 'f', 0, 'c', created,
      's', source, 'tn', tenant)
  else
    redis.call('HSET', KEYS[k], 'p', parent, 't', ARGV[a + 1], 'st', 'pending', 'a', 0, 'f', 0, 'c', created,
      's', source)
  end
  redis.call('ZADD', watch, score, ARGV[a])
  if withJob then
    addRowJob(k, a, created)
  end
end
