import type { Middleware } from 'openapi-fetch'
import { type Clock, systemClock } from '../clock.js'
import { type RateLimitInfo, rateLimitReader } from '../http/rate-limit-headers.js'

/** Where a rate-limit observation came from. */
export interface RateLimitContext {
  /** The key the limits belong to (by default the bearer token). */
  key: string
  request: Request
  response: Response
}

export interface RateLimitOptions {
  /**
   * Wait for the window's reset before sending when the last responses (and the requests sent
   * since) say it is spent, instead of earning a 429. Default `true`.
   */
  pace?: boolean
  /**
   * The longest pacing wait; when the reset is further away the request is sent at once and the
   * service's answer decides (a daily window is not worth blocking on). Default 60 000 ms.
   */
  maxWaitMs?: number
  /** Called with every response that reports rate limits. */
  onRateLimit?: (info: RateLimitInfo, context: RateLimitContext) => void
  /** Which limits a request counts against. Default: its bearer token (`anonymous` without one). */
  keyOf?: (request: Request) => string
  clock?: Clock
}

/** A rate-limit middleware that also lets other middleware pace and report their own attempts. */
export type RateLimitMiddleware = Middleware & {
  /** The limits last reported for `key` (default: the key seen last), reset as a `Date`. */
  get(key?: string): RateLimitInfo | undefined
  /** Waits until `request` may be sent without exceeding a known limit, then counts it. */
  acquire(request: Request): Promise<void>
  /** Records what `response` says about the limits of `request`'s key. */
  observe(request: Request, response: Response): void
}

interface Budget {
  limit: number | undefined
  remaining: number
  reset: number
  windowSeconds: number | undefined
}

/** Windows whose reset was within this much of each other are taken to be the same window. */
const sameWindowToleranceMs = 1500

/**
 * The bearer token of a request (`anonymous` without one). A client sends the same
 * `Authorization` on every call, so each middleware remembers the last value and its key: in
 * its own closure, never in module state, where every client of the process would share (and
 * keep) one raw key.
 */
function bearerKeys(): (request: Request) => string {
  let last = { authorization: '', key: 'anonymous' }
  return (request) => {
    const authorization = request.headers.get('Authorization') ?? ''
    if (authorization !== last.authorization) {
      const match = /^Bearer\s+(.+)$/i.exec(authorization)
      last = { authorization, key: match?.[1]?.trim() ?? 'anonymous' }
    }
    return last.key
  }
}

/**
 * Tracks the service's rate-limit headers per key and, unless `pace: false`, holds a request
 * back until the window resets when the budget is spent. Requests in flight are counted against
 * the budget as they leave, so parallel calls pace correctly too.
 *
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
 * @example
 * ```ts
 * const limits = rateLimit({ onRateLimit: (info) => console.log(info.remaining, info.reset) })
 * client.use(limits)
 * await client.GET('/pets')
 * console.log(limits.get()?.remaining)
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): RateLimitMiddleware {
  const { pace = true, maxWaitMs = 60_000, onRateLimit, keyOf = bearerKeys() } = options
  const clock = options.clock ?? systemClock
  const readRateLimit = rateLimitReader()
  const lastSeen = new Map<string, RateLimitInfo>()
  const budgets = new Map<string, Map<string, Budget>>()
  let lastKey: string | undefined

  /** Starts a new window where the old one has ended, if its length is known; else forgets it. */
  function rollOver(windows: Map<string, Budget>, now: number): void {
    for (const [name, budget] of windows) {
      if (budget.reset > now) continue
      if (budget.limit === undefined || budget.windowSeconds === undefined) windows.delete(name)
      else
        windows.set(name, {
          ...budget,
          remaining: budget.limit,
          reset: now + budget.windowSeconds * 1000,
        })
    }
  }

  function waitNeeded(windows: Map<string, Budget>, now: number): number {
    let wait = 0
    for (const budget of windows.values()) {
      if (budget.remaining <= 0) wait = Math.max(wait, budget.reset - now)
    }
    return wait
  }

  /**
   * Counts `request` against its key's windows once none is spent, or once the reset of a spent
   * one has been waited for; a promise only when there is a wait.
   */
  function take(request: Request): Promise<void> | undefined {
    const windows = budgets.get(keyOf(request))
    if (!windows) return undefined
    const now = clock.now()
    rollOver(windows, now)
    const wait = waitNeeded(windows, now)
    if (pace && wait > 0 && wait <= maxWaitMs) {
      return clock.sleep(wait, request.signal).then(() => take(request))
    }
    for (const budget of windows.values()) budget.remaining = Math.max(0, budget.remaining - 1)
    return undefined
  }

  const middleware: RateLimitMiddleware = {
    get(key = lastKey) {
      return key === undefined ? undefined : lastSeen.get(key)
    },

    async acquire(request) {
      await take(request)
    },

    observe(request, response) {
      const now = clock.now()
      const info = readRateLimit(response.headers, now)
      if (!info) return
      const key = keyOf(request)
      lastKey = key
      lastSeen.set(key, info)
      let windows = budgets.get(key)
      if (!windows) {
        windows = new Map()
        budgets.set(key, windows)
      }
      for (const window of info.windows) {
        const reset = window.reset.getTime()
        const known = windows.get(window.name)
        if (!known) {
          windows.set(window.name, {
            limit: window.limit,
            remaining: window.remaining,
            reset,
            windowSeconds: window.windowSeconds,
          })
          continue
        }
        // Responses to parallel requests arrive out of order: within one window, the lowest
        // count (ours, with requests still in flight) is the safe one.
        if (Math.abs(known.reset - reset) <= sameWindowToleranceMs) {
          known.remaining = Math.min(known.remaining, window.remaining)
        } else known.remaining = window.remaining
        known.limit = window.limit
        known.reset = reset
        known.windowSeconds = window.windowSeconds
      }
      onRateLimit?.(info, { key, request, response })
    },

    onRequest({ request }) {
      return take(request)
    },

    onResponse({ request, response }) {
      middleware.observe(request, response)
    },
  }
  return middleware
}
