/**
 * The in-process rate limiter: rate-limiter-flexible's memory store does the counting (a fixed
 * window per subject that starts with its first request and ends by timer) and the bans (its
 * `block`). One process only: several instances need the Redis limiter to share counts.
 */
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible'
import type { BanPolicy, LimitDecision, RateLimiter, WindowQuota, WindowState } from './limiter.js'

/**
 * The limits differ per subject (each enterprise key has its own), so rate-limiter-flexible
 * counts without ever refusing and the quota is compared here.
 */
const UNLIMITED = Number.MAX_SAFE_INTEGER

/**
 * Creates a limiter that keeps its counters in this process's memory.
 *
 * @example
 * ```ts
 * const limiter = createMemoryRateLimiter()
 * const minute = { name: 'minute', limit: 60, seconds: 60 }
 * const { outcome } = await limiter.consume('ip:127.0.0.1', [minute])
 * ```
 */
export function createMemoryRateLimiter(): RateLimiter {
  return new MemoryRateLimiter()
}

class MemoryRateLimiter implements RateLimiter {
  /** One store per window name, its duration that window's length. */
  readonly #windows = new Map<string, RateLimiterMemory>()
  /** Requests refused while limited, per subject; each count lives as long as its limit. */
  readonly #strikes = new RateLimiterMemory({
    keyPrefix: 'strikes',
    points: UNLIMITED,
    duration: 1,
  })
  /** Subjects banned right now, blocked for the ban's length. */
  readonly #bans = new RateLimiterMemory({ keyPrefix: 'bans', points: 0, duration: 1 })

  async consume(
    subject: string,
    windows: readonly WindowQuota[],
    ban?: BanPolicy,
  ): Promise<LimitDecision> {
    // The memory store updates synchronously when called, so counting every window and reading
    // the ban before the first await makes the whole decision atomic among concurrent requests.
    const atMs = Date.now()
    const counting: Promise<RateLimiterRes>[] = []
    for (const quota of windows) counting.push(this.#counter(quota).consume(subject))
    const banning = ban === undefined ? undefined : this.#bans.get(subject)
    const counted = await Promise.all(counting)

    const states: WindowState[] = []
    let over = false
    let retryInMs = 0
    for (let i = 0; i < windows.length; i++) {
      const quota = windows[i] as WindowQuota
      const { consumedPoints, msBeforeNext } = counted[i] as RateLimiterRes
      const resetInMs = Math.max(msBeforeNext, 1)
      states.push({ quota, remaining: Math.max(quota.limit - consumedPoints, 0), resetInMs })
      if (consumedPoints > quota.limit) over = true
      if (consumedPoints >= quota.limit && resetInMs > retryInMs) retryInMs = resetInMs
    }

    const banned = await banning
    if (banned && banned.msBeforeNext > 0) {
      return decide('banned', atMs, states, banned.msBeforeNext)
    }
    if (!over) return decide('allowed', atMs, states, 0)
    if (ban === undefined) return decide('limited', atMs, states, retryInMs)
    return this.#strike(subject, ban, atMs, states, retryInMs)
  }

  async close(): Promise<void> {
    this.#windows.clear()
  }

  #counter(quota: WindowQuota): RateLimiterMemory {
    let counter = this.#windows.get(quota.name)
    if (counter === undefined) {
      counter = new RateLimiterMemory({
        keyPrefix: quota.name,
        points: UNLIMITED,
        duration: quota.seconds,
      })
      this.#windows.set(quota.name, counter)
    }
    return counter
  }

  /** Counts a refused request towards a ban, and starts the ban on the threshold-th one. */
  async #strike(
    subject: string,
    ban: BanPolicy,
    atMs: number,
    states: WindowState[],
    retryInMs: number,
  ): Promise<LimitDecision> {
    const { consumedPoints } = await this.#strikes.consume(subject, 1, {
      customDuration: retryInMs / 1000,
    })
    if (consumedPoints < ban.threshold) return decide('limited', atMs, states, retryInMs)
    if (consumedPoints > ban.threshold) {
      // A concurrent request reached the threshold first and is starting the ban.
      return decide('banned', atMs, states, ban.seconds * 1000)
    }
    await Promise.all([this.#bans.block(subject, ban.seconds), this.#strikes.delete(subject)])
    return { ...decide('banned', atMs, states, ban.seconds * 1000), banStarted: true }
  }
}

function decide(
  outcome: LimitDecision['outcome'],
  atMs: number,
  windows: readonly WindowState[],
  retryInMs: number,
): LimitDecision {
  return { outcome, atMs, windows, retryInMs, banStarted: false }
}
