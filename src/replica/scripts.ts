/**
 * The Lua scripts that write the shared log. Each runs whole inside Redis, so an entry, its count,
 * the trim and the snapshot it updates change together: a replica that reads a snapshot and then
 * the log after count N misses nothing and sees nothing twice.
 */

/**
 * Writes a batch of a replica's entries in order, each as if alone: one refused does not stop the
 * others. Answers, per entry, its count `n`, or why it was refused (`LEASE_LOST …`,
 * `ENTRY_TOO_BIG …`). The entries taken go into the log as one stream entry: fields `r` (the
 * replica), `n` (the count of its first entry), `c` (how many) and `b` (their texts, as a JSON
 * array). One stream entry a batch, not one an entry: the counts, trims and reads a send's entries
 * cost Redis and every replica are paid once for the batch.
 *
 * KEYS: log, count, bytes, marks, chaos, tasks, then lease, task and events of each entry's task
 * (any key for an entry about no task). ARGV: replica, log entries, log bytes, entry bytes, lease
 * ms, then per entry its op, kind, data and its own argument:
 * - `create` and `append`: an entry about a task's play, only by the holder of the task's lease (a
 *   replica that lost a task, or never took it, can no longer write for it; an ended task takes
 *   nothing more). `create` first takes the lease if it is free or its own; `append` never takes
 *   one. Keeps the task's snapshot: its event entries, its turn, pause and end; an end gives the
 *   lease up. Argument: the task id.
 * - `publish`: an entry any replica may write; keeps what it changes in the snapshots: a cancel
 *   asked for, a push config, the global chaos. Argument: the push config id.
 * - `release`: gives the task's lease up if the replica holds it; logs nothing. Argument: the task
 *   id.
 * - `forget`: removes the task's snapshot (the task left the replica's store); logs nothing.
 *   Argument: the task id.
 *
 * In three steps: which entries are taken (and the leases they take and give up), then the log's
 * entry with the count, then the snapshots, in the entries' order. A script that fails halfway
 * keeps what it wrote: a snapshot is never ahead of the log and its count.
 */
const WRITE_ENTRIES = `
local replica, logSize, budget, entryBytes, leaseMs =
  ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]

local function before(mark)
  return mark and tonumber(string.match(mark, '%d+$'))
end

-- Adds the batch's entry and trims the log by count (MAXLEN, about) and by bytes: a mark every
-- 1/32 of the budget says how many bytes were added before its entry; the log is cut at the oldest
-- mark that leaves at most the budget.
local function add(first, texts, size)
  redis.call('SET', KEYS[2], first + #texts - 1)
  local total = redis.call('INCRBY', KEYS[3], size)
  local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', logSize, '*',
    'r', replica, 'n', first, 'c', #texts, 'b', '[' .. table.concat(texts, ',') .. ']')
  local newest = before(redis.call('LINDEX', KEYS[4], -1))
  local oldest = redis.call('LINDEX', KEYS[4], 0)
  if not newest or total - size - newest >= budget / 32 then
    local mark = id .. ' ' .. (total - size)
    redis.call('RPUSH', KEYS[4], mark)
    oldest = oldest or mark
  end
  local cut = false
  while oldest and total - before(oldest) > budget do
    redis.call('LPOP', KEYS[4])
    oldest = redis.call('LINDEX', KEYS[4], 0)
    cut = true
  end
  if cut then
    redis.call('XTRIM', KEYS[1], 'MINID', string.match(oldest or id, '^%S+'))
  end
end

-- The tasks this batch wrote about and whose lease it saw held by this replica: until their end or
-- release in the batch, nothing else can change that (a script runs whole, and a lease does not
-- expire while it runs).
local playing = {}
-- Whether each task the batch wrote about has ended, as the batch leaves it.
local ended = {}

local function hasEnded(task, taskId)
  if ended[taskId] == nil then ended[taskId] = redis.call('HEXISTS', task, 'ended') == 1 end
  return ended[taskId]
end

-- Whether this replica may write about the task now; why not, if it may not.
local function refusal(lease, task, taskId, creates)
  if playing[taskId] then return nil end
  if hasEnded(task, taskId) then return 'LEASE_LOST the task has ended' end
  local holder = redis.call('GET', lease)
  if creates and (holder == false or holder == replica) then
    redis.call('SET', lease, replica, 'PX', leaseMs)
    holder = replica
  end
  if holder == false then return 'LEASE_LOST no replica holds it' end
  if holder ~= replica then return 'LEASE_LOST held by ' .. holder end
  playing[taskId] = true
  return nil
end

local function keepPlay(task, events, kind, data, taskId, creates, n)
  if kind == 'event' then
    redis.call('RPUSH', events, data)
    if creates then redis.call('ZADD', KEYS[6], n, taskId) end
  elseif kind == 'turn' then
    redis.call('HSET', task, 'turn', data, 'player', replica)
    redis.call('HDEL', task, 'pause', 'cancel')
  elseif kind == 'pause' then
    redis.call('HSET', task, 'pause', data)
  elseif kind == 'end' then
    redis.call('HDEL', task, 'turn', 'player', 'pause', 'cancel')
    redis.call('HSET', task, 'ended', '1')
  end
end

local function keepPublished(task, events, kind, data, configId)
  local known = redis.call('EXISTS', events) == 1
  if kind == 'cancel' and known and redis.call('HEXISTS', task, 'ended') == 0 then
    redis.call('HSET', task, 'cancel', '1')
  elseif kind == 'push-config' and known then
    redis.call('HSET', task, 'push:' .. configId, data)
  elseif kind == 'push-config-deleted' then
    redis.call('HDEL', task, 'push:' .. configId)
  elseif kind == 'chaos' then
    redis.call('SET', KEYS[5], data)
  end
end

local first = tonumber(redis.call('GET', KEYS[2]) or '0') + 1
local answers, texts, keeps, size = {}, {}, {}, 0
for i = 0, (#ARGV - 5) / 4 - 1 do
  local op, kind, data, arg = ARGV[6 + i * 4], ARGV[7 + i * 4], ARGV[8 + i * 4], ARGV[9 + i * 4]
  local lease, task, events = KEYS[7 + i * 3], KEYS[8 + i * 3], KEYS[9 + i * 3]
  local answer
  if op == 'release' then
    if redis.call('GET', lease) == replica then redis.call('DEL', lease) end
    playing[arg] = nil
    answer = 0
  elseif op == 'forget' then
    keeps[#keeps + 1] = { 'forget', task, events, arg }
    ended[arg] = false
    answer = 0
  elseif #data > entryBytes then
    answer = 'ENTRY_TOO_BIG ' .. #data .. ' bytes, over entry-bytes ' .. entryBytes
  else
    local creates = op == 'create'
    if op ~= 'publish' then answer = refusal(lease, task, arg, creates) end
    if not answer then
      answer = first + #texts
      texts[#texts + 1] = data
      size = size + #data + #replica + #kind + 64
      if op == 'publish' then
        keeps[#keeps + 1] = { 'publish', task, events, kind, data, arg }
      else
        keeps[#keeps + 1] = { 'play', task, events, kind, data, arg, creates, answer }
        if kind == 'end' then
          redis.call('DEL', lease)
          playing[arg] = nil
          ended[arg] = true
        end
      end
    end
  end
  answers[#answers + 1] = answer
end

if #texts > 0 then add(first, texts, size) end
for _, keep in ipairs(keeps) do
  if keep[1] == 'play' then
    keepPlay(keep[2], keep[3], keep[4], keep[5], keep[6], keep[7], keep[8])
  elseif keep[1] == 'publish' then
    keepPublished(keep[2], keep[3], keep[4], keep[5], keep[6])
  else
    redis.call('DEL', keep[2], keep[3])
    redis.call('ZREM', KEYS[6], keep[4])
  end
end
return answers`;

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
 * Counts one more occurrence of each request base, answering the new counts. The counts are kept
 * in two generations: a base is counted in the current one, carrying on from the previous one's
 * count; once the current one holds `ARGV[1]` bases it becomes the previous one, and the oldest
 * generation goes. A base repeated in neither starts again at 1: the count only saves probing for a
 * free task id (task-seeds.ts), and distinct requests, which a client makes at will, never fill
 * Redis. KEYS: occurrences, previous occurrences. ARGV: bases kept per generation, then the bases.
 */
const COUNT_OCCURRENCES = `
local counts = {}
local most = tonumber(ARGV[1])
for i = 2, #ARGV do
  local base = ARGV[i]
  local n
  if redis.call('HEXISTS', KEYS[1], base) == 1 then
    n = redis.call('HINCRBY', KEYS[1], base, 1)
  else
    n = tonumber(redis.call('HGET', KEYS[2], base) or '0') + 1
    redis.call('HSET', KEYS[1], base, n)
    if redis.call('HLEN', KEYS[1]) >= most then redis.call('RENAME', KEYS[1], KEYS[2]) end
  end
  counts[#counts + 1] = n
end
return counts`;

export const SCRIPTS = {
  hold: HOLD,
  writeEntries: WRITE_ENTRIES,
  countOccurrences: COUNT_OCCURRENCES,
} as const;

export type ScriptName = keyof typeof SCRIPTS;
