/**
 * What the service does while Redis is lost (`PETSTORE_LIMITS_ON_REDIS_ERROR`):
 * - `closed` (default): requests are refused with 503 `service_unavailable` and `Retry-After`,
 *   since limits and bans could not be enforced as promised;
 * - `local`: each instance limits with its own memory counters (so N instances allow up to N
 *   times a limit, and bans are per instance) until Redis answers again.
 * Either way every failure and success is reported to the outage log (backend-failure.ts), which
 * logs the loss once and the return once, and `readiness` tells `/readyz`. Redis is tried
 * again by itself (redis.ts), so recovery needs no restart, and every try fails fast while it
 * is lost or stalled, so no request hangs.
 */
import { isBackendUnavailable, type Outages } from '../backend-failure.js'
import type { RateLimiter } from './limiter.js'
import { createMemoryRateLimiter } from './memory.js'
import type { RedisRateLimiter } from './redis.js'

export type RedisErrorMode = 'closed' | 'local'

const lostMessage: Record<RedisErrorMode, string> = {
  closed: 'Redis is not reachable: refusing /v1 requests with 503 until it is back',
  local: "Redis is not reachable: limiting with this instance's memory until it is back",
}

export function withRedisFallback(
  redis: RedisRateLimiter,
  mode: RedisErrorMode,
  outages: Outages,
): RateLimiter {
  const local = createMemoryRateLimiter()
  const noteLost = (error: unknown) => outages.failed('limits', error, lostMessage[mode])
  const noteRecovered = () =>
    outages.recovered('limits', 'Redis is reachable again: limits are shared again')
  return {
    async consume(subject, windows, ban) {
      try {
        const decision = await redis.consume(subject, windows, ban)
        noteRecovered()
        return decision
      } catch (error) {
        if (!isBackendUnavailable(error)) throw error
        noteLost(error)
        if (mode === 'closed') throw error
        return local.consume(subject, windows, ban)
      }
    },
    async readiness() {
      try {
        await redis.ping()
        noteRecovered()
        return 'shared'
      } catch (error) {
        noteLost(error)
        if (mode === 'closed') throw error
        return 'local'
      }
    },
    async close() {
      await Promise.all([redis.close(), local.close()])
    },
  }
}
