/**
 * Which windows a caller is counted in: its key's plan (enterprise keys carry their own
 * numbers), or the free plan for requests without a valid key. Each distinct set of quotas is
 * built once, with its `RateLimit-Policy` value, so a request only looks it up.
 *
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/ RateLimit-Policy
 */
import type { Plan } from '@petstore/types'
import { planLimits } from '@petstore/types/spec'
import { keyLimits } from '../auth/api-key.js'
import type { Caller } from '../auth/caller.js'
import type { WindowLengths } from '../config.js'
import type { WindowQuota } from './limiter.js'

/** The minute and day quotas of one caller, with their `RateLimit-Policy` field value. */
export interface QuotaSet {
  readonly windows: readonly [minute: WindowQuota, day: WindowQuota]
  /** E.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. */
  readonly policy: string
}

/** Finds the quota set a caller is counted in. */
export type QuotaLookup = (caller: Caller) => QuotaSet

/** Distinct enterprise quota pairs kept before the cache starts over (a bound, not a tuning). */
const MAX_CUSTOM_SETS = 10_000

/**
 * @example
 * ```ts
 * const quotasFor = createQuotaLookup(productionWindows)
 * quotasFor({ kind: 'ip', ip: '127.0.0.1' }).policy // '"minute";q=60;w=60, "day";q=1000;w=86400'
 * ```
 */
export function createQuotaLookup(lengths: WindowLengths): QuotaLookup {
  const byPlan = new Map<Plan, QuotaSet>()
  for (const plan of Object.keys(planLimits) as Plan[]) {
    const { perMinute, perDay } = planLimits[plan]
    if (perMinute !== null && perDay !== null)
      byPlan.set(plan, quotaSet(lengths, perMinute, perDay))
  }
  const free = byPlan.get('free') as QuotaSet
  const custom = new Map<string, QuotaSet>()
  // A key's record is one object while it is cached (the stores cache found keys), so its own
  // numbers are read and looked up once rather than on each of its requests.
  const byKey = new WeakMap<object, QuotaSet>()

  return function quotasFor(caller) {
    if (caller.kind === 'ip') return free
    const planned = byPlan.get(caller.key.plan)
    if (planned !== undefined) return planned
    const known = byKey.get(caller.key)
    if (known !== undefined) return known
    const { perMinute, perDay } = keyLimits(caller.key)
    const id = `${perMinute}/${perDay}`
    let set = custom.get(id)
    if (set === undefined) {
      if (custom.size >= MAX_CUSTOM_SETS) custom.clear()
      set = quotaSet(lengths, perMinute, perDay)
      custom.set(id, set)
    }
    byKey.set(caller.key, set)
    return set
  }
}

function quotaSet(lengths: WindowLengths, perMinute: number, perDay: number): QuotaSet {
  const minute: WindowQuota = { name: 'minute', limit: perMinute, seconds: lengths.minuteSeconds }
  const day: WindowQuota = { name: 'day', limit: perDay, seconds: lengths.daySeconds }
  return { windows: [minute, day], policy: formatPolicy([minute, day]) }
}

/** The `RateLimit-Policy` field: one `"name";q=<quota>;w=<seconds>` item per window. */
export function formatPolicy(windows: readonly WindowQuota[]): string {
  return windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', ')
}
