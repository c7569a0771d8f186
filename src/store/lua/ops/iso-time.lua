--[[
  Include: isoTime(ms), the instant `ms` (milliseconds since the epoch) as JavaScript's toISOString
  writes it (`2026-12-06T00:33:11.123Z`), so a payload a script builds reads like one built in
  TypeScript. Civil-from-days (proleptic Gregorian), exact for every instant after 1970.
]]
local function isoTime(ms)
  ms = tonumber(ms)
  local s = math.floor(ms / 1000)
  local milli = ms - s * 1000
  local days = math.floor(s / 86400)
  local rem = s - days * 86400
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then
    y = y + 1
  end
  return string.format('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', y, m, d, math.floor(rem / 3600),
    math.floor((rem % 3600) / 60), rem % 60, milli)
end
