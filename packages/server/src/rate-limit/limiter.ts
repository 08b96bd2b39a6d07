/**
 * The rate-limit seam: one interface, a memory implementation now (rate-limiter-flexible),
 * a Redis one for several instances later. Both pass test/rate-limit/conformance.ts.
 */

/** One fixed window's quota. */
export interface WindowQuota {
  /** "minute" or "day": the name used in the RateLimit-Policy and RateLimit fields. */
  name: string
  /** Requests allowed in the window. */
  limit: number
  /** Window length in seconds (60 and 86400 in production, shorter in tests). */
  seconds: number
}

/** The state of one window after a request was counted. */
export interface WindowState extends WindowQuota {
  /** Requests left in the window after this one (0 when limited). */
  remaining: number
  /** Unix time, in milliseconds, at which the window ends. */
  resetAtMs: number
}

export interface LimitDecision {
  /** `allowed`: go on; `limited`: 429 rate_limited; `banned`: 429 api_key_banned. */
  outcome: 'allowed' | 'limited' | 'banned'
  /** Every window, in the order they were given. */
  windows: WindowState[]
  /** When `outcome` is not `allowed`: seconds until a request would pass, at least 1. */
  retryAfterSeconds?: number
  /** True only on the request that started a ban (so it is logged once). */
  banStarted?: boolean
}

export interface RateLimiter {
  /**
   * Counts one request by `subject` (an API key id or `ip:<address>`) against every window at
   * once, atomically: N concurrent calls on a fresh subject with limit L allow exactly min(N, L).
   * Every call counts, including those answered `limited` or `banned`.
   */
  consume(subject: string, windows: readonly WindowQuota[]): Promise<LimitDecision>
  /** Releases timers and connections. */
  close(): Promise<void>
}
