--[[
  Take one of a target's in-flight slots for a holder, so at most `max` attempts run at once across every
  worker process. Holders are a sorted set scored by lease expiry; expired ones (a process that died
  without releasing) are dropped first, so a lost slot comes back once its lease runs out. A holder that
  already has a live slot keeps it with a fresh lease: a call retried after a lost reply must not take two.

  A refused holder is told when to ask again, and joins the target's waiters. Asking every few hundred
  ms whatever the target does would cost the workers and Redis a wake-up per waiter per interval: a
  target that hangs with thousands waiting would take the pool's time from every other target. So the
  wait grows with the holder's place among the waiters and with how long the attempts in flight have
  been running (a slot frees about every age / max): (place + 1) * age / max, at least the short hint
  (ARGV[4], or the earliest lease expiry if sooner), at most ARGV[5], and never past the earliest lease
  expiry, when a slot is sure to free. A holder that got a slot leaves the waiters; one that has not
  asked again within ARGV[6] of its time is dropped from them.

  Time is Redis's own clock (TIME), so a worker whose clock runs ahead cannot expire others' leases early.

  KEYS[1] the target's holders (zset: holder id -> lease expiry, ms of Redis time)
  KEYS[2] the target's waiters (zset: holder id -> when it was told to ask again, ms of Redis time)
  ARGV[1] holder id
  ARGV[2] max holders
  ARGV[3] lease, ms
  ARGV[4] shortest retry hint, ms
  ARGV[5] longest wait, ms
  ARGV[6] how late a waiter may ask again and keep its place, ms

  Returns {1} when the holder has a slot, or {0, retry_in_ms}.
]]
-- acquireSlot(...): the slot's rules, in one place for both scripts that take one.
-- @include store/lua/inflight/acquire.lua

return acquireSlot(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
