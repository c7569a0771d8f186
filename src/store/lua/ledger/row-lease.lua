--[[
  Include (spliced in by LuaScript at `-- @include store/lua/ledger/row-lease.lua`): the state table's
  `unheld` guard (src/domain/delivery-machine.ts), in one place for every script that must not touch
  a row an attempt holds: a worker's claim, recovery's stale claim, and the writers that hold no
  attempt (recovery's dead letter, the unfenced finish).

  isUnheld(st, leaseUntil, now)   a live row no lease holds: pending, retrying, or sending under a
                                  lease that has lapsed (leaseUntil: the row's `lu`, ms; now: a number)
]]
local function isUnheld(st, leaseUntil, now)
  return st == 'pending' or st == 'retrying' or (st == 'sending' and tonumber(leaseUntil or '0') <= now)
end
