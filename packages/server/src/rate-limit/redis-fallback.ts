/**
 * What the service does while Redis is lost (`PETSTORE_LIMITS_ON_REDIS_ERROR`):
 * - `closed` (default): requests are refused with 503 `service_unavailable` and `Retry-After`,
 *   since limits and bans could not be enforced as promised;
 * - `local`: each instance limits with its own memory counters (so N instances allow up to N
 *   times a limit, and bans are per instance) until Redis answers again.
 * Either way the change is logged once when Redis is lost and once when it is back, and
 * `readiness` tells `/readyz`. Redis is tried again on every request, so recovery needs no
 * restart; each try fails fast (redis.ts), so no request hangs.
 */
import { BackendUnavailableError } from '../errors.js'
import type { RateLimiter } from './limiter.js'
import { createMemoryRateLimiter } from './memory.js'
import type { RedisRateLimiter } from './redis.js'

export type RedisErrorMode = 'closed' | 'local'

export interface FallbackEvents {
  /** Redis stopped answering (logged once per outage). */
  lost(mode: RedisErrorMode, error: unknown): void
  /** Redis answers again. */
  recovered(): void
}

export function withRedisFallback(
  redis: RedisRateLimiter,
  mode: RedisErrorMode,
  events: FallbackEvents,
): RateLimiter {
  const local = createMemoryRateLimiter()
  let lost = false
  const noteLost = (error: unknown) => {
    if (lost) return
    lost = true
    events.lost(mode, error)
  }
  const noteRecovered = () => {
    if (!lost) return
    lost = false
    events.recovered()
  }
  return {
    async consume(subject, windows, ban) {
      try {
        const decision = await redis.consume(subject, windows, ban)
        noteRecovered()
        return decision
      } catch (error) {
        if (!(error instanceof BackendUnavailableError)) throw error
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
