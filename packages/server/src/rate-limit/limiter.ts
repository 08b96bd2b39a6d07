/**
 * The rate-limit seam: one interface, implemented in memory (`memory.ts`, a Map of counters, one
 * process) and on Redis (`redis.ts`, shared by every instance; `redis-fallback.ts` decides what
 * happens while Redis is lost). Every implementation passes `test/rate-limit/conformance.ts`, so
 * the hook never knows which one it talks to.
 *
 * Times are relative: milliseconds from the moment the limiter decided (`atMs`), because the
 * limiter's store owns the clock (Redis's TTLs, the memory limiter's timestamps).
 */
import type { MaybePromise } from '../maybe-promise.js'

/** One fixed window's quota. */
export interface WindowQuota {
  /** `minute` or `day`: the counter's identity and the name in `RateLimit-Policy`/`RateLimit`. */
  readonly name: string
  /** Requests allowed in the window; 0 refuses every request. */
  readonly limit: number
  /**
   * Window length in whole seconds, at least 1 (60 and 86400 in production, shorter in tests).
   * A window starts with the first request counted in it; a name keeps one length per limiter.
   */
  readonly seconds: number
}

/** The state of one window once the request was counted. */
export interface WindowState {
  readonly quota: WindowQuota
  /** Requests left in the window after this one: `max(limit - counted, 0)`. */
  readonly remaining: number
  /** Milliseconds until the window ends (and its count restarts), at least 1. */
  readonly resetInMs: number
}

/** When a subject that keeps sending while limited is banned, and for how long. */
export interface BanPolicy {
  /**
   * Requests refused for being over a limit (the first one included) that make a ban: the
   * request that brings the count to `threshold` is the first one banned. At least 1. The count
   * lives while the subject is limited and restarts once a request passes again.
   */
  readonly threshold: number
  /** Length of a ban in whole seconds, at least 1. */
  readonly seconds: number
}

export interface LimitDecision {
  /** `allowed`: go on; `limited`: 429 rate_limited; `banned`: 429 api_key_banned. */
  readonly outcome: 'allowed' | 'limited' | 'banned'
  /**
   * Unix time in milliseconds at which the limiter decided, read with the counts: the relative
   * times below start there, so `atMs + resetInMs` is the same instant for every request of a
   * window.
   */
  readonly atMs: number
  /** Every window, in the order they were given, always counting this request. */
  readonly windows: readonly WindowState[]
  /**
   * When not `allowed`: milliseconds until a request would pass, at least 1. For `limited`, the
   * latest end among the windows with nothing left; for `banned`, the end of the ban.
   */
  readonly retryInMs: number
  /** True only on the request that started a ban, so that it is logged once. */
  readonly banStarted: boolean
}

export interface RateLimiter {
  /**
   * Counts one request by `subject` (an API key id or `ip:<address>`) in every window at once,
   * atomically: N concurrent calls on a fresh subject with limit L allow exactly min(N, L).
   * Every call counts, including those answered `limited` or `banned`. A request is `limited`
   * when any window's count goes over its limit. With a `ban` policy the subject can be banned
   * (see {@link BanPolicy}); while banned, every request is `banned` whatever the windows say.
   * Without one (per-IP limiting) it never is.
   *
   * @example
   * ```ts
   * const minute = { name: 'minute', limit: 60, seconds: 60 }
   * const decision = await limiter.consume('key_123', [minute], { threshold: 10, seconds: 900 })
   * if (decision.outcome !== 'allowed') console.log(decision.retryInMs)
   * ```
   */
  consume(
    subject: string,
    windows: readonly WindowQuota[],
    ban?: BanPolicy,
  ): MaybePromise<LimitDecision>
  /**
   * For limiters on another service (Redis), for `/readyz`: resolves with where counts are kept
   * now, `shared` (that service) or `local` (this process, while the service is lost), and
   * rejects when requests cannot be limited at all. In-process limiters leave it out.
   */
  readiness?(): Promise<'shared' | 'local'>
  /** Releases timers and connections; the limiter is not used afterwards. */
  close(): Promise<void>
}
