/**
 * The one suite every RateLimiter passes (memory now, Redis later): give it a factory, get the
 * tests. Each test gets a fresh limiter and closes it. Windows that must end are 1 or 2 seconds
 * long (whole seconds, as a Redis TTL needs), so a few tests wait about a second; they run
 * concurrently to keep the suite short.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type {
  BanPolicy,
  LimitDecision,
  RateLimiter,
  WindowQuota,
} from '../../src/rate-limit/limiter.js'

export type LimiterFactory = () => RateLimiter | Promise<RateLimiter>

const minute = (limit: number, seconds = 60): WindowQuota => ({ name: 'minute', limit, seconds })
const day = (limit: number, seconds = 86_400): WindowQuota => ({ name: 'day', limit, seconds })

/** A bit more than a window of `seconds`, so that it has surely ended. */
export const past = (seconds: number) => sleep(seconds * 1000 + 150)

export function limiterConformance(name: string, factory: LimiterFactory): void {
  describe.concurrent(`limiter conformance: ${name}`, () => {
    async function withLimiter(run: (limiter: RateLimiter) => Promise<void>): Promise<void> {
      const limiter = await factory()
      try {
        await run(limiter)
      } finally {
        await limiter.close()
      }
    }

    async function sequence(
      limiter: RateLimiter,
      subject: string,
      windows: readonly WindowQuota[],
      count: number,
      ban?: BanPolicy,
    ): Promise<LimitDecision[]> {
      const decisions: LimitDecision[] = []
      for (let i = 0; i < count; i++) decisions.push(await limiter.consume(subject, windows, ban))
      return decisions
    }

    const outcomes = (decisions: LimitDecision[]) => decisions.map((d) => d.outcome)
    const remaining = (decisions: LimitDecision[], window: number) =>
      decisions.map((d) => d.windows[window]?.remaining)

    it('counts down every window and reports each one in the order given', () =>
      withLimiter(async (limiter) => {
        const windows = [minute(3), day(5)]
        const decisions = await sequence(limiter, 'k', windows, 3)
        expect(outcomes(decisions)).toEqual(['allowed', 'allowed', 'allowed'])
        expect(remaining(decisions, 0)).toEqual([2, 1, 0])
        expect(remaining(decisions, 1)).toEqual([4, 3, 2])
        for (const decision of decisions) {
          expect(decision.windows.map((w) => w.quota)).toEqual(windows)
          expect(decision.banStarted).toBe(false)
        }
      }))

    it('reports how long each window has left, no more than its length and at least 1 ms', () =>
      withLimiter(async (limiter) => {
        const [first, second] = await sequence(limiter, 'k', [minute(3), day(5)], 2)
        for (const decision of [first, second]) {
          const [m, d] = decision?.windows ?? []
          expect(m?.resetInMs).toBeGreaterThanOrEqual(1)
          expect(m?.resetInMs).toBeLessThanOrEqual(60_000)
          expect(d?.resetInMs).toBeGreaterThan(60_000)
          expect(d?.resetInMs).toBeLessThanOrEqual(86_400_000)
        }
        // Fixed windows: the second request does not move the window's end.
        expect(second?.windows[0]?.resetInMs).toBeLessThanOrEqual(first?.windows[0]?.resetInMs ?? 0)
      }))

    it('limits a request over the minute limit until the minute ends', () =>
      withLimiter(async (limiter) => {
        const decisions = await sequence(limiter, 'k', [minute(2), day(100)], 4)
        expect(outcomes(decisions)).toEqual(['allowed', 'allowed', 'limited', 'limited'])
        const limited = decisions[2] as LimitDecision
        expect(limited.windows[0]?.remaining).toBe(0)
        expect(limited.retryInMs).toBe(limited.windows[0]?.resetInMs)
        expect(limited.retryInMs).toBeLessThanOrEqual(60_000)
      }))

    it('limits a request over the day limit, even when the day is below the minute', () =>
      withLimiter(async (limiter) => {
        const decisions = await sequence(limiter, 'k', [minute(10), day(3)], 5)
        expect(outcomes(decisions)).toEqual(['allowed', 'allowed', 'allowed', 'limited', 'limited'])
        expect(remaining(decisions, 0)).toEqual([9, 8, 7, 6, 5])
        expect(remaining(decisions, 1)).toEqual([2, 1, 0, 0, 0])
        expect(decisions[3]?.retryInMs).toBeGreaterThan(60_000)
      }))

    it('waits for the latest window with nothing left: a full day outlasts the minute', () =>
      withLimiter(async (limiter) => {
        const decisions = await sequence(limiter, 'k', [minute(2), day(3)], 3)
        const limited = decisions[2] as LimitDecision
        expect(limited.outcome).toBe('limited')
        // The minute is over its limit, but the day is used up too: only its end lets one pass.
        expect(limited.windows[1]?.remaining).toBe(0)
        expect(limited.retryInMs).toBe(limited.windows[1]?.resetInMs)
      }))

    it('counts every request, refused ones included, so the day fills while limited', () =>
      withLimiter(async (limiter) => {
        const decisions = await sequence(limiter, 'k', [minute(1), day(10)], 4)
        expect(outcomes(decisions)).toEqual(['allowed', 'limited', 'limited', 'limited'])
        expect(remaining(decisions, 1)).toEqual([9, 8, 7, 6])
      }))

    it('refuses every request when a limit is 0', () =>
      withLimiter(async (limiter) => {
        const decisions = await sequence(limiter, 'k', [minute(0), day(10)], 2)
        expect(outcomes(decisions)).toEqual(['limited', 'limited'])
        expect(decisions[0]?.retryInMs).toBeGreaterThanOrEqual(1)
      }))

    it('keeps subjects apart', () =>
      withLimiter(async (limiter) => {
        const windows = [minute(1), day(10)]
        expect((await limiter.consume('a', windows)).outcome).toBe('allowed')
        expect((await limiter.consume('b', windows)).outcome).toBe('allowed')
        expect((await limiter.consume('a', windows)).outcome).toBe('limited')
        expect((await limiter.consume('ip:127.0.0.1', windows)).outcome).toBe('allowed')
      }))

    it('allows exactly the limit of 100 concurrent requests on a fresh subject', () =>
      withLimiter(async (limiter) => {
        const windows = [minute(60), day(1000)]
        const decisions = await Promise.all(
          Array.from({ length: 100 }, () => limiter.consume('k', windows)),
        )
        expect(decisions.filter((d) => d.outcome === 'allowed')).toHaveLength(60)
        expect(decisions.filter((d) => d.outcome === 'limited')).toHaveLength(40)
        const left = decisions
          .map((d) => d.windows[1]?.remaining)
          .sort((a, b) => (b ?? 0) - (a ?? 0))
        expect(left[0]).toBe(999)
        expect(left[99]).toBe(900)
      }))

    it('allows exactly the smaller limit under concurrency when the day is below the minute', () =>
      withLimiter(async (limiter) => {
        const windows = [minute(10), day(3)]
        const decisions = await Promise.all(
          Array.from({ length: 20 }, () => limiter.consume('k', windows)),
        )
        expect(decisions.filter((d) => d.outcome === 'allowed')).toHaveLength(3)
      }))

    it('starts a new window with the first request after one ended, counting from 1', () =>
      withLimiter(async (limiter) => {
        const windows = [minute(2, 1), day(10, 60)]
        expect(outcomes(await sequence(limiter, 'k', windows, 3))).toEqual([
          'allowed',
          'allowed',
          'limited',
        ])
        await past(1)
        const after = await sequence(limiter, 'k', windows, 3)
        expect(outcomes(after)).toEqual(['allowed', 'allowed', 'limited'])
        expect(remaining(after, 0)).toEqual([1, 0, 0])
        // The day counts across minute windows: 3 before, 3 after.
        expect(remaining(after, 1)).toEqual([6, 5, 4])
      }))

    describe('bans', () => {
      const ban = (threshold: number, seconds = 60): BanPolicy => ({ threshold, seconds })

      it('bans on the request that brings the refused count to the threshold, and after', () =>
        withLimiter(async (limiter) => {
          const decisions = await sequence(limiter, 'k', [minute(1), day(100)], 6, ban(3, 60))
          expect(outcomes(decisions)).toEqual([
            'allowed',
            'limited',
            'limited',
            'banned',
            'banned',
            'banned',
          ])
          expect(decisions.map((d) => d.banStarted)).toEqual([
            false,
            false,
            false,
            true,
            false,
            false,
          ])
          const started = decisions[3] as LimitDecision
          expect(started.retryInMs).toBe(60_000)
          for (const banned of decisions.slice(4)) {
            expect(banned.retryInMs).toBeGreaterThan(0)
            expect(banned.retryInMs).toBeLessThanOrEqual(60_000)
          }
        }))

      it('bans on the first refused request with a threshold of 1', () =>
        withLimiter(async (limiter) => {
          const decisions = await sequence(limiter, 'k', [minute(1), day(100)], 2, ban(1))
          expect(outcomes(decisions)).toEqual(['allowed', 'banned'])
          expect(decisions[1]?.banStarted).toBe(true)
        }))

      it('never bans without a ban policy', () =>
        withLimiter(async (limiter) => {
          const decisions = await sequence(limiter, 'ip:10.0.0.1', [minute(1), day(100)], 30)
          expect(new Set(outcomes(decisions.slice(1)))).toEqual(new Set(['limited']))
        }))

      it('starts exactly one ban among concurrent requests', () =>
        withLimiter(async (limiter) => {
          const decisions = await Promise.all(
            Array.from({ length: 30 }, () => limiter.consume('k', [minute(5), day(100)], ban(4))),
          )
          expect(decisions.filter((d) => d.outcome === 'allowed')).toHaveLength(5)
          expect(decisions.filter((d) => d.outcome === 'limited')).toHaveLength(3)
          expect(decisions.filter((d) => d.outcome === 'banned')).toHaveLength(22)
          expect(decisions.filter((d) => d.banStarted)).toHaveLength(1)
        }))

      it('still counts banned requests in the windows', () =>
        withLimiter(async (limiter) => {
          const decisions = await sequence(limiter, 'k', [minute(1), day(100)], 5, ban(2))
          expect(outcomes(decisions)).toEqual(['allowed', 'limited', 'banned', 'banned', 'banned'])
          expect(remaining(decisions, 1)).toEqual([99, 98, 97, 96, 95])
        }))

      it('keeps a ban past the end of the window, and lifts it after its length', () =>
        withLimiter(async (limiter) => {
          const windows = [minute(1, 1), day(100, 60)]
          const policy = ban(1, 2)
          expect(outcomes(await sequence(limiter, 'k', windows, 2, policy))).toEqual([
            'allowed',
            'banned',
          ])
          await past(1)
          const during = await limiter.consume('k', windows, policy)
          expect(during.outcome).toBe('banned')
          expect(during.banStarted).toBe(false)
          expect(during.retryInMs).toBeLessThanOrEqual(1000)
          await past(1)
          expect((await limiter.consume('k', windows, policy)).outcome).toBe('allowed')
        }))

      it('restarts the refused count once the limit that caused it ends', () =>
        withLimiter(async (limiter) => {
          const windows = [minute(1, 1), day(100, 60)]
          const policy = ban(3)
          expect(outcomes(await sequence(limiter, 'k', windows, 3, policy))).toEqual([
            'allowed',
            'limited',
            'limited',
          ])
          await past(1)
          expect(outcomes(await sequence(limiter, 'k', windows, 4, policy))).toEqual([
            'allowed',
            'limited',
            'limited',
            'banned',
          ])
        }))

      it('keeps the refused count while a window that ran out later still limits', () =>
        withLimiter(async (limiter) => {
          const windows = [minute(1, 1), day(3, 60)]
          const policy = ban(3)
          // The minute limits the second request; the third uses up the day as well.
          expect(outcomes(await sequence(limiter, 'k', windows, 3, policy))).toEqual([
            'allowed',
            'limited',
            'limited',
          ])
          await past(1)
          // The minute has ended but the day still limits: no request passed, so the count goes on.
          expect((await limiter.consume('k', windows, policy)).outcome).toBe('banned')
        }))
    })
  })
}
