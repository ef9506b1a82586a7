-- Compare-and-append for one game (events/redis_store.py). Every check runs before the first
-- write, because a script is atomic but never rolls back.
--
-- KEYS[1] game stream   KEYS[2] command-id hash   KEYS[3] partition feed (one hash tag)
-- ARGV[1] game id       ARGV[2] expected version
-- ARGV[3] hash of the entry at the expected version, as the client believes it
-- ARGV[4] command id ('' for none)
-- ARGV[5..] per event: canonical body, its hash, its type
--
-- The command-id hash also keeps the stream's head in its field named '' (no command id is
-- empty): '<version> <hash>', written by this script with every append, so the common case
-- reads the version and the head hash with the command id in one HMGET and checks them with
-- one XLEN, instead of reading the stream's top entry. Whenever they disagree with what the
-- client expects (a conflict, a stale head, a stream written before the head was kept there,
-- or changed behind the script's back), the top entry is read, as it always was, and decides.
--
-- Replies:
--   {'OK', version, last feed id}   appended (zero events: a version check, feed id '')
--   {'DUPLICATE', entries}          the command id was seen, or these very envelopes were
--                                   already written at these versions (a retried reply):
--                                   the entries written the first time; nothing written now
--   {'CONFLICT', current, hash}     the game is not at the expected version (hash: its head)
--   {'HEAD', current, hash}         the client's hash at the expected version is wrong
local stream, cmds, feed = KEYS[1], KEYS[2], KEYS[3]
local game, expected, prev_hash, command_id = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4]
local n = (#ARGV - 4) / 3
if expected == nil or expected < 0 or n ~= math.floor(n) then
  return redis.error_reply('ERR f45 append: bad arguments')
end

local function field(fields, name)
  for j = 1, #fields, 2 do
    if fields[j] == name then return fields[j + 1] end
  end
  return nil
end

-- A command id seen before returns what its first append wrote.
local kept
if command_id ~= '' then
  local got = redis.call('HMGET', cmds, command_id, '')
  if got[1] then
    local a, b = string.match(got[1], '^(%d+),(%d+)$')
    return {'DUPLICATE', redis.call('XRANGE', stream, '0-' .. a, '0-' .. b)}
  end
  kept = got[2]
else
  kept = redis.call('HGET', cmds, '')
end

-- The version is the top entry id. The common case, the head the client expects, is read
-- from the kept head and checked against the stream's length (its entries are never deleted
-- one by one, so a stream deleted or rewritten to another length disagrees); any other case
-- reads the top entry, which decides.
local current, head
if kept == ARGV[2] .. ' ' .. prev_hash and redis.call('XLEN', stream) == expected then
  current, head = expected, prev_hash
else
  current, head = 0, string.rep('0', 64)
  local top = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
  if #top > 0 then
    current = tonumber(string.match(top[1][1], '^0%-(%d+)$'))
    head = field(top[1][2], 'hash')
    if current == nil or head == nil then
      return redis.error_reply('ERR f45 append: foreign top entry ' .. top[1][1] .. ' in ' .. stream)
    end
  elseif redis.call('EXISTS', stream) == 1 then
    return redis.error_reply('ERR f45 append: ' .. stream .. ' exists but has no entries')
  end
end

if current ~= expected then
  -- The same envelopes already at these versions: a retry of an append whose reply was lost.
  if n > 0 and expected < current then
    local got = redis.call('XRANGE', stream, '0-' .. (expected + 1), '0-' .. (expected + n))
    local same = #got == n
    for i = 1, n do
      if not same then break end
      same = field(got[i][2], 'hash') == ARGV[4 + (i - 1) * 3 + 2]
    end
    if same then return {'DUPLICATE', got} end
  end
  return {'CONFLICT', current, head}
end
if n == 0 then return {'OK', current, ''} end
if head ~= prev_hash then return {'HEAD', current, head} end

-- The feed position. Redis 7 numbers a feed entry itself ('0-*': one past the feed's last
-- generated id, which survives a feed trimmed to empty) and refuses, before it writes, a feed
-- whose last id is not '0-<n>'. Redis 6 has no '0-*': read the position first.
local position = nil
if not redis.REDIS_VERSION_NUM then
  position = 0
  local feed_top = redis.call('XREVRANGE', feed, '+', '-', 'COUNT', 1)
  local last_id = nil
  if #feed_top > 0 then
    last_id = feed_top[1][1]
  elseif redis.call('EXISTS', feed) == 1 then
    last_id = field(redis.call('XINFO', 'STREAM', feed), 'last-generated-id')
  end
  if last_id then
    position = tonumber(string.match(last_id, '^0%-(%d+)$'))
    if position == nil then
      return redis.error_reply('ERR f45 append: foreign feed id ' .. last_id .. ' in ' .. feed)
    end
  end
end

-- All checks passed: write. The first feed entry goes first, so a foreign feed id refuses
-- the append before anything is written. The game's XADD then refuses only a stream that
-- holds an id at or past the new version while its length is the expected version: entries
-- written behind the script's back, after which the feed entry stands without its event.
-- Each version is turned into text once (Lua formats numbers with sprintf).
local feed_id, first, version = '', nil, nil
for i = 1, n do
  local base = 4 + (i - 1) * 3
  version = tostring(current + i)
  first = first or version
  feed_id = redis.call('XADD', feed, position and ('0-' .. (position + i)) or '0-*',
    'game', game, 'version', version, 'type', ARGV[base + 3])
  redis.call('XADD', stream, '0-' .. version, 'body', ARGV[base + 1], 'hash', ARGV[base + 2])
end
local top = version .. ' ' .. ARGV[4 + (n - 1) * 3 + 2]
if command_id ~= '' then
  redis.call('HSET', cmds, command_id, first .. ',' .. version, '', top)
else
  redis.call('HSET', cmds, '', top)
end
return {'OK', current + n, feed_id}
