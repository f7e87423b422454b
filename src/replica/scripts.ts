/**
 * The Lua scripts that write the shared log. Each runs whole inside Redis, so an entry, its count,
 * the trim and the snapshot it updates change together: a replica that reads a snapshot and then
 * the log after count N misses nothing and sees nothing twice.
 *
 * Every write takes KEYS log, count, bytes, marks and ARGV replica, log entries, log bytes, entry
 * bytes, kind, data, then its own.
 */

/** Refuses an entry over `entry-bytes`, then adds it with the next count and trims the log. */
const ADD = `
local function oversized()
  if #ARGV[6] > tonumber(ARGV[4]) then
    return redis.error_reply('ENTRY_TOO_BIG ' .. #ARGV[6] .. ' bytes, over entry-bytes ' .. ARGV[4])
  end
  return nil
end

local function before(mark)
  return tonumber(string.match(mark, '%d+$'))
end

-- Trims by count (MAXLEN, about) and by bytes: a mark every 1/32 of the budget says how many bytes
-- were added before its entry; the log is cut at the oldest mark that leaves at most the budget.
local function add()
  local n = redis.call('INCR', KEYS[2])
  local size = #ARGV[6] + #ARGV[1] + #ARGV[5] + 64
  local total = redis.call('INCRBY', KEYS[3], size)
  local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*',
    'r', ARGV[1], 'k', ARGV[5], 'n', n, 'd', ARGV[6])
  local budget = tonumber(ARGV[3])
  local newest = redis.call('LINDEX', KEYS[4], -1)
  if not newest or total - size - before(newest) >= budget / 32 then
    redis.call('RPUSH', KEYS[4], id .. ' ' .. (total - size))
  end
  local cut = false
  local oldest = redis.call('LINDEX', KEYS[4], 0)
  while oldest and total - before(oldest) > budget do
    redis.call('LPOP', KEYS[4])
    oldest = redis.call('LINDEX', KEYS[4], 0)
    cut = true
  end
  if cut then
    redis.call('XTRIM', KEYS[1], 'MINID', string.match(oldest or id, '^%S+'))
  end
  return n
end
`;

/**
 * Makes the caller the holder of each lease that is free or already its own, for `ARGV[2]` ms,
 * unless the task has ended. KEYS: lease and task of each task, in pairs. ARGV: replica, lease ms.
 * Answers per task 1 (held now), 0 (another replica holds it) or -1 (ended: no one plays it again).
 */
const HOLD = `
local held = {}
for i = 1, #KEYS, 2 do
  if redis.call('HEXISTS', KEYS[i + 1], 'ended') == 1 then
    held[#held + 1] = -1
  else
    local holder = redis.call('GET', KEYS[i])
    if holder == false or holder == ARGV[1] then
      redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
      held[#held + 1] = 1
    else
      held[#held + 1] = 0
    end
  end
end
return held`;

/**
 * Adds an entry about a task's play, only if the caller holds the task's lease: a replica that lost
 * a task (or never took it) can no longer write for it, and an ended task takes nothing more. Keeps
 * the task's snapshot: its event entries, its turn, pause and end; an end gives the lease up.
 * KEYS: (common), lease, task, events, tasks. ARGV: (common), task id, "1" for the task's creation.
 */
const APPEND_HELD = `${ADD}
local refused = oversized()
if refused then return refused end
if redis.call('HEXISTS', KEYS[6], 'ended') == 1 then
  return redis.error_reply('LEASE_LOST the task has ended')
end
local holder = redis.call('GET', KEYS[5])
if holder == false then return redis.error_reply('LEASE_LOST no replica holds it') end
if holder ~= ARGV[1] then return redis.error_reply('LEASE_LOST held by ' .. holder) end
local n = add()
local kind = ARGV[5]
if kind == 'event' then
  redis.call('RPUSH', KEYS[7], ARGV[6])
  if ARGV[8] == '1' then redis.call('ZADD', KEYS[8], n, ARGV[7]) end
elseif kind == 'turn' then
  redis.call('HSET', KEYS[6], 'turn', ARGV[6], 'player', ARGV[1])
  redis.call('HDEL', KEYS[6], 'pause', 'cancel')
elseif kind == 'pause' then
  redis.call('HSET', KEYS[6], 'pause', ARGV[6])
elseif kind == 'end' then
  redis.call('HDEL', KEYS[6], 'turn', 'player', 'pause', 'cancel')
  redis.call('HSET', KEYS[6], 'ended', '1')
  redis.call('DEL', KEYS[5])
end
return n`;

/**
 * Adds an entry any replica may write, and keeps what it changes in the snapshots: a cancel asked
 * for, a push config, the global chaos. KEYS: (common), task, events (of the task the entry is
 * about, else any key), chaos. ARGV: (common), push config id.
 */
const PUBLISH = `${ADD}
local refused = oversized()
if refused then return refused end
local n = add()
local kind = ARGV[5]
local known = redis.call('EXISTS', KEYS[6]) == 1
if kind == 'cancel' and known and redis.call('HEXISTS', KEYS[5], 'ended') == 0 then
  redis.call('HSET', KEYS[5], 'cancel', '1')
elseif kind == 'push-config' and known then
  redis.call('HSET', KEYS[5], 'push:' .. ARGV[7], ARGV[6])
elseif kind == 'push-config-deleted' then
  redis.call('HDEL', KEYS[5], 'push:' .. ARGV[7])
elseif kind == 'chaos' then
  redis.call('SET', KEYS[7], ARGV[6])
end
return n`;

/** Gives a lease up if the caller holds it. KEYS: lease. ARGV: replica. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export const SCRIPTS = {
  hold: HOLD,
  appendHeld: APPEND_HELD,
  publish: PUBLISH,
  release: RELEASE,
} as const;

export type ScriptName = keyof typeof SCRIPTS;
