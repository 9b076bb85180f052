// Lua scripts run atomically in Redis and read Redis's own clock, so every instance shares one view of time.

/** `now` in milliseconds from Redis's clock. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** The bucket's tokens (KEYS[1]) refilled up to `now` at `rate`/s, capped at `capacity`; a new bucket is full. */
const REFILLED_TOKENS = `local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil then
  tokens = capacity
  ts = now
end
tokens = math.min(capacity, tokens + math.max(0, now - ts) * rate / 1000)
`;

/**
 * Token bucket. KEYS[1] bucket; ARGV: capacity, refill per second, cost.
 * A refused request takes nothing. Returns {allowed, remaining, now_ms, ms_until_full, ms_until_next}.
 */
export const TOKEN_BUCKET = `
${NOW}local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
if capacity <= 0 or rate <= 0 then
  return {0, 0, now, 0, 1000}
end
${REFILLED_TOKENS}local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
local until_full = math.ceil((capacity - tokens) / rate * 1000)
local until_next = 0
if tokens < cost then until_next = math.ceil((cost - tokens) / rate * 1000) end
return {allowed, math.floor(tokens), now, until_full, until_next}
`;

/**
 * Token bucket, n requests of cost 1 at once (coalesced by the caller): admits as many as whole tokens allow,
 * in order, exactly as n single takes in a row would. KEYS[1] bucket; ARGV: capacity, refill per second, n.
 * Returns {admitted, tokens before the takes (full precision, as a string), now_ms}.
 */
export const TOKEN_BUCKET_TAKE = `
${NOW}local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
if capacity <= 0 or rate <= 0 then
  return {0, '0', now}
end
${REFILLED_TOKENS}local admitted = math.max(0, math.min(n, math.floor(tokens)))
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens - admitted), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return {admitted, string.format('%.17g', tokens), now}
`;

/**
 * Several fixed windows checked and counted together (e.g. 20/s and 300/min). KEYS[1] one hash;
 * ARGV: cost, commit (0 only checks: a peek), then (limit, window_ms) pairs. Counts only when every window has
 * room.
 * Returns {allowed, index of the deciding window (1-based), count, now_ms, window_end_ms}.
 */
export const FIXED_WINDOWS = `
${NOW}local cost = tonumber(ARGV[1])
local commit = tonumber(ARGV[2])
local n = (#ARGV - 2) / 2
local counts = {}
local ids = {}
local longest = 0
local deciding = 1
local best = nil
local blocked = 0
for i = 1, n do
  local limit = tonumber(ARGV[2 * i + 1])
  local window = tonumber(ARGV[2 * i + 2])
  if window > longest then longest = window end
  local id = math.floor(now / window)
  ids[i] = id
  local state = redis.call('HMGET', KEYS[1], 'w' .. i, 'c' .. i)
  local count = 0
  if tonumber(state[1]) == id then count = tonumber(state[2]) end
  counts[i] = count
  local room = limit - count
  if blocked == 0 and room < cost then
    blocked = 1
    deciding = i
  elseif blocked == 0 and (best == nil or room < best) then
    best = room
    deciding = i
  end
end
if blocked == 0 and commit == 1 then
  for i = 1, n do
    counts[i] = counts[i] + cost
    redis.call('HSET', KEYS[1], 'w' .. i, ids[i], 'c' .. i, counts[i])
  end
  redis.call('PEXPIRE', KEYS[1], longest + 1000)
end
local window = tonumber(ARGV[2 * deciding + 2])
return {1 - blocked, deciding, counts[deciding], now, (ids[deciding] + 1) * window}
`;
