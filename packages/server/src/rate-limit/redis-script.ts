/**
 * The one Lua script a Redis-limited request runs: it counts the request in every window, checks
 * the ban, counts the refusal towards a ban and starts it, atomically (Redis runs a script alone),
 * so N concurrent requests on any number of instances allow exactly the limit. The clock is
 * Redis's (TIME), so instances with skewed clocks agree on every window.
 *
 * KEYS: the ban, the refused count, then one counter per window, all of one subject (one hash
 * tag, so Redis Cluster keeps them on one slot). ARGV: ban threshold (0: never ban), ban length
 * in ms, then each window's limit and length in ms.
 * Returns: outcome (0 allowed, 1 limited, 2 banned), now (ms), retry-in ms, ban started (0/1),
 * then each window's remaining and reset-in ms.
 * @see https://redis.io/docs/latest/develop/interact/programmability/eval-intro/
 */
export const consumeScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local result = {0, now, 0, 0}
local over = false
local retry = 0
for i = 3, #KEYS do
  local limit = tonumber(ARGV[(i - 3) * 2 + 3])
  local length = tonumber(ARGV[(i - 3) * 2 + 4])
  local count = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    -- A new window starts with its first request.
    redis.call('SET', KEYS[i], 1, 'PX', length)
    count = 1
    ttl = length
  elseif ttl == 0 then
    ttl = 1
  end
  result[#result + 1] = math.max(limit - count, 0)
  result[#result + 1] = ttl
  if count > limit then over = true end
  if count >= limit and ttl > retry then retry = ttl end
end
local threshold = tonumber(ARGV[1])
if threshold > 0 then
  local banned = redis.call('PTTL', KEYS[1])
  if banned > 0 then
    result[1] = 2
    result[3] = banned
    return result
  end
end
if not over then return result end
result[1] = 1
result[3] = retry
if threshold == 0 then return result end
-- Refusals count while the subject stays limited, that is until the window that holds it ends.
local strikes = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], retry)
if strikes < threshold then return result end
redis.call('DEL', KEYS[2])
redis.call('SET', KEYS[1], 1, 'PX', ARGV[2])
result[1] = 2
result[3] = tonumber(ARGV[2])
result[4] = 1
return result
`
