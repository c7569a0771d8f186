--[[
  Include (spliced into a script by LuaScript at `-- @include queue/bullmq/add-standard-job.lua`): the
  BullMQ adapter's one piece of Lua. Defines addStandardJob, which stores a BullMQ standard job with only
  its id set exactly as BullMQ's own add script (addStandardJob-*.lua with its includes storeJob,
  addJobInTargetList, getTargetQueueList, handleDuplicatedJob, getOrSetMaxEvents, addBaseMarkerIfNeeded)
  stores one, for the release LAYOUT_BULLMQ_VERSION names (version.ts): the id counter, the events cap,
  the hash and 'added', the wait (or paused) list, the marker that wakes a worker unless the queue is
  paused or at its global concurrency, and 'waiting'. For an id that exists: the counter
  and a 'duplicated' event, nothing else.

  addStandardJob(jk, wait, paused, meta, counter, active, events, marker, id, name, data, opts, ts)
    jk       the job hash (<queue base><id>)
    wait .. marker  the queue's keys, in job-layout.ts's QUEUE_KEYS order
    id, name, data, opts  the job id, name, data JSON and opts JSON
    ts       the job's timestamp (ms)
  Returns nothing.
]]
local function addStandardJob(jk, wait, paused, meta, counter, active, events, marker, id, name, data, opts, ts)
  redis.call('INCR', counter)
  local maxEvents = redis.call('HGET', meta, 'opts.maxLenEvents')
  if not maxEvents then
    maxEvents = 10000
    redis.call('HSET', meta, 'opts.maxLenEvents', maxEvents)
  end
  if redis.call('EXISTS', jk) == 1 then
    redis.call('XADD', events, 'MAXLEN', '~', maxEvents, '*', 'event', 'duplicated', 'jobId', id)
    return
  end
  redis.call('HMSET', jk, 'name', name, 'data', data, 'opts', opts, 'timestamp', ts, 'delay', 0, 'priority', 0)
  redis.call('XADD', events, '*', 'event', 'added', 'jobId', id, 'name', name)
  local queue = redis.call('HMGET', meta, 'paused', 'concurrency')
  local list, held = wait, false
  if queue[1] then
    list, held = paused, true
  elseif queue[2] and redis.call('LLEN', active) >= tonumber(queue[2]) then
    held = true
  end
  redis.call('LPUSH', list, id)
  if not held then
    redis.call('ZADD', marker, 0, '0')
  end
  redis.call('XADD', events, 'MAXLEN', '~', maxEvents, '*', 'event', 'waiting', 'jobId', id)
end
