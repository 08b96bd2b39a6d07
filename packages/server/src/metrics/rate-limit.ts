/**
 * `petstore_rate_limit_refusals_total`: the 429s of the rate-limit step, counted around the hook
 * (rate-limit/hook.ts) so the limiter stays unaware of metrics. `plan` is the key's plan, `none`
 * for a caller without a valid key (limited per client IP at the free plan's numbers).
 */
import { ApiProblem } from '../errors.js'
import { isPromise } from '../maybe-promise.js'
import type { RateLimitHook } from '../rate-limit/hook.js'
import type { Instruments } from './instruments.js'

const reasons = new Set(['rate_limited', 'api_key_banned'])

export function countRefusals(
  hook: RateLimitHook,
  refusals: Instruments['rateLimitRefusals'],
): RateLimitHook {
  return (request, reply, caller) => {
    const plan = caller.kind === 'key' ? caller.key.plan : 'none'
    const count = (error: unknown): never => {
      if (error instanceof ApiProblem && reasons.has(error.code)) {
        refusals.inc({ reason: error.code, plan })
      }
      throw error
    }
    try {
      const result = hook(request, reply, caller)
      return isPromise(result) ? result.catch(count) : result
    } catch (error) {
      return count(error)
    }
  }
}
