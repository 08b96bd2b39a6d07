/**
 * The in-process rate limiter: every subject's window counts, strikes and ban live in one Map of
 * plain records, and a decision is made synchronously, so it is atomic among concurrent requests
 * with nothing to lock. Every end is a timestamp compared with the clock, never a timer. One
 * process only: several instances need the Redis limiter to share counts.
 */
import type { BanPolicy, LimitDecision, RateLimiter, WindowQuota, WindowState } from './limiter.js'

/** A memory limiter, with how much it holds: what its memory bound is about. */
export interface MemoryRateLimiter extends RateLimiter {
  /** Subjects held right now, expired ones not yet swept included. */
  readonly subjects: number
}

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
export function createMemoryRateLimiter(): MemoryRateLimiter {
  return new MemoryLimiter()
}

/** A subject's count in one window, started again in place once the window has ended. */
interface Counter {
  count: number
  /** Unix milliseconds at which the window ends; a request at or after it starts a new one. */
  endsAtMs: number
}

/** Everything known of one subject; each part is void once its end has passed. */
interface Subject {
  readonly id: string
  /** One counter per window name, at the slot the limiter gave that name. */
  readonly counters: Counter[]
  /** Requests refused while limited, towards a ban. */
  strikes: number
  strikesEndAtMs: number
  bannedUntilMs: number
  /** The latest end above: from then on the subject can be forgotten. */
  expiresAtMs: number
}

/**
 * Entries the sweep looks at for each subject added. More than one, so that the sweep goes round
 * the map faster than it grows: the map holds at most about twice the subjects alive during one
 * round, whatever the traffic.
 */
const SWEEP_STEP = 2

class MemoryLimiter implements MemoryRateLimiter {
  readonly #subjects = new Map<string, Subject>()
  /** Window name to slot in `Subject.counters`: a name keeps one length per limiter. */
  readonly #slots = new Map<string, number>()
  /**
   * Where the sweep stands. The map grows only when a subject is added, so the sweep moves on
   * then, a few entries at a time: a constant, small cost on that request alone, where a timer
   * going over the whole map would stall every request behind it when many addresses are seen
   * (an attack), and would be one more thing to release. An idle limiter keeps what it holds,
   * which is bounded by the traffic it saw.
   */
  #sweep: MapIterator<Subject> = this.#subjects.values()

  get subjects(): number {
    return this.#subjects.size
  }

  // Decided at once: counts in one Map need no waiting, and nothing can interleave.
  consume(subject: string, windows: readonly WindowQuota[], ban?: BanPolicy): LimitDecision {
    const atMs = Date.now()
    const entry = this.#subjects.get(subject) ?? this.#add(subject, atMs)

    const states: WindowState[] = []
    let over = false
    let retryInMs = 0
    for (const quota of windows) {
      const counter = this.#counter(entry, quota)
      if (atMs >= counter.endsAtMs) {
        counter.count = 0
        counter.endsAtMs = atMs + quota.seconds * 1000
        if (counter.endsAtMs > entry.expiresAtMs) entry.expiresAtMs = counter.endsAtMs
      }
      const counted = ++counter.count
      const resetInMs = counter.endsAtMs - atMs
      // A fresh state per decision: the hook reads it after the await, so none is reused.
      states.push({ quota, remaining: Math.max(quota.limit - counted, 0), resetInMs })
      if (counted > quota.limit) over = true
      if (counted >= quota.limit && resetInMs > retryInMs) retryInMs = resetInMs
    }

    if (ban !== undefined && atMs < entry.bannedUntilMs) {
      return decide('banned', atMs, states, entry.bannedUntilMs - atMs, false)
    }
    if (!over) return decide('allowed', atMs, states, 0, false)
    if (ban === undefined) return decide('limited', atMs, states, retryInMs, false)
    return strike(entry, ban, atMs, states, retryInMs)
  }

  async close(): Promise<void> {
    this.#subjects.clear()
  }

  #add(id: string, atMs: number): Subject {
    this.#forgetExpired(atMs)
    const entry: Subject = {
      id,
      counters: [],
      strikes: 0,
      strikesEndAtMs: 0,
      bannedUntilMs: 0,
      expiresAtMs: 0,
    }
    this.#subjects.set(id, entry)
    return entry
  }

  /** Moves the sweep on by a few entries, dropping those whose every end has passed. */
  #forgetExpired(atMs: number): void {
    for (let i = 0; i < SWEEP_STEP; i++) {
      const next = this.#sweep.next()
      if (next.done === true) {
        this.#sweep = this.#subjects.values()
        return
      }
      if (next.value.expiresAtMs <= atMs) this.#subjects.delete(next.value.id)
    }
  }

  #counter(entry: Subject, quota: WindowQuota): Counter {
    let slot = this.#slots.get(quota.name)
    if (slot === undefined) {
      slot = this.#slots.size
      this.#slots.set(quota.name, slot)
    }
    let counter = entry.counters[slot]
    if (counter === undefined) {
      counter = { count: 0, endsAtMs: 0 }
      entry.counters[slot] = counter
    }
    return counter
  }
}

/** Counts a refused request towards a ban, and starts the ban on the threshold-th one. */
function strike(
  entry: Subject,
  ban: BanPolicy,
  atMs: number,
  states: WindowState[],
  retryInMs: number,
): LimitDecision {
  if (atMs >= entry.strikesEndAtMs) entry.strikes = 0
  entry.strikes++
  // A window with nothing left stays so until it ends, so this end never moves earlier: the
  // strikes last exactly while the subject stays limited, and restart once a request passes.
  entry.strikesEndAtMs = atMs + retryInMs
  if (entry.strikes < ban.threshold) return decide('limited', atMs, states, retryInMs, false)
  entry.strikes = 0
  entry.bannedUntilMs = atMs + ban.seconds * 1000
  if (entry.bannedUntilMs > entry.expiresAtMs) entry.expiresAtMs = entry.bannedUntilMs
  return decide('banned', atMs, states, ban.seconds * 1000, true)
}

function decide(
  outcome: LimitDecision['outcome'],
  atMs: number,
  windows: readonly WindowState[],
  retryInMs: number,
  banStarted: boolean,
): LimitDecision {
  return { outcome, atMs, windows, retryInMs, banStarted }
}
