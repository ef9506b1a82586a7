-- Compare-and-append for one game (events/redis_store.py). Every check runs before the first
-- write, because a script is atomic but never rolls back.
--
-- KEYS[1] game stream   KEYS[2] command-id hash   KEYS[3] partition feed (one hash tag)
-- ARGV[1] game id       ARGV[2] expected version
-- ARGV[3] hash of the entry at the expected version, as the client believes it
-- ARGV[4] command id ('' for none)
-- ARGV[5..] per event: canonical body, its hash, its type
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
if command_id ~= '' then
  local first = redis.call('HGET', cmds, command_id)
  if first then
    local a, b = string.match(first, '^(%d+),(%d+)$')
    return {'DUPLICATE', redis.call('XRANGE', stream, '0-' .. a, '0-' .. b)}
  end
end

-- The version is the top entry id, never XLEN.
local current, head = 0, string.rep('0', 64)
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

-- The feed position survives a feed trimmed to empty: fall back to its last generated id.
local position = 0
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

-- All checks passed: write.
for i = 1, n do
  local base, version = 4 + (i - 1) * 3, current + i
  redis.call('XADD', stream, '0-' .. version, 'body', ARGV[base + 1], 'hash', ARGV[base + 2])
  redis.call('XADD', feed, '0-' .. (position + i), 'game', game, 'version', version,
    'type', ARGV[base + 3])
end
if command_id ~= '' then
  redis.call('HSET', cmds, command_id, (current + 1) .. ',' .. (current + n))
end
return {'OK', current + n, '0-' .. (position + n)}
