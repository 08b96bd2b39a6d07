import { describe, expect, it } from 'vitest'
import { wholeSeconds, writeRateLimitHeaders } from '../../src/rate-limit/headers.js'
import type { LimitDecision, WindowQuota, WindowState } from '../../src/rate-limit/limiter.js'

const minute: WindowQuota = { name: 'minute', limit: 60, seconds: 60 }
const day: WindowQuota = { name: 'day', limit: 1000, seconds: 86_400 }
const policy = '"minute";q=60;w=60, "day";q=1000;w=86400'
/** 2026-01-01T00:00:00.000Z */
const now = 1_767_225_600_000

function headersOf(decision: LimitDecision): Record<string, string> {
  const written: Record<string, string> = {}
  writeRateLimitHeaders({ header: (name, value) => (written[name] = value) }, decision, policy)
  return written
}

function decision(
  windows: WindowState[],
  outcome: LimitDecision['outcome'] = 'allowed',
  retryInMs = 0,
): LimitDecision {
  return { outcome, atMs: now, windows, retryInMs, banStarted: false }
}

describe('writeRateLimitHeaders', () => {
  it('reports the window with the fewest requests left, and both in the IETF fields', () => {
    const headers = headersOf(
      decision([
        { quota: minute, remaining: 42, resetInMs: 17_200 },
        { quota: day, remaining: 981, resetInMs: 40_209_001 },
      ]),
    )
    expect(headers).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '42',
      'x-ratelimit-reset': String(1_767_225_600 + 18),
      'ratelimit-policy': policy,
      ratelimit: '"minute";r=42;t=18, "day";r=981;t=40210',
    })
  })

  it('reports the day when it has fewer left than the minute', () => {
    const headers = headersOf(
      decision([
        { quota: minute, remaining: 30, resetInMs: 60_000 },
        { quota: day, remaining: 5, resetInMs: 3_600_000 },
      ]),
    )
    expect(headers['x-ratelimit-limit']).toBe('1000')
    expect(headers['x-ratelimit-remaining']).toBe('5')
    expect(headers['x-ratelimit-reset']).toBe(String(1_767_225_600 + 3600))
  })

  it('breaks a tie with the later reset, so waiting for it is always enough', () => {
    const headers = headersOf(
      decision(
        [
          { quota: minute, remaining: 0, resetInMs: 12_000 },
          { quota: day, remaining: 0, resetInMs: 50_000 },
        ],
        'limited',
        50_000,
      ),
    )
    expect(headers['x-ratelimit-limit']).toBe('1000')
    expect(headers['x-ratelimit-remaining']).toBe('0')
    expect(headers['x-ratelimit-reset']).toBe(String(1_767_225_600 + 50))
    expect(headers.ratelimit).toBe('"minute";r=0;t=12, "day";r=0;t=50')
  })

  it('rounds a partial second up, in both Reset and t, never pointing before the end', () => {
    const headers = headersOf(
      decision([
        { quota: minute, remaining: 0, resetInMs: 1 },
        { quota: day, remaining: 7, resetInMs: 86_400_000 },
      ]),
    )
    expect(headers['x-ratelimit-reset']).toBe(String(1_767_225_600 + 1))
    expect(headers.ratelimit).toBe('"minute";r=0;t=1, "day";r=7;t=86400')
  })

  it('reads as nothing left until the ban ends while banned', () => {
    const headers = headersOf(
      decision(
        [
          { quota: minute, remaining: 55, resetInMs: 30_000 },
          { quota: day, remaining: 900, resetInMs: 80_000_000 },
        ],
        'banned',
        600_000,
      ),
    )
    expect(headers['x-ratelimit-limit']).toBe('60')
    expect(headers['x-ratelimit-remaining']).toBe('0')
    expect(headers['x-ratelimit-reset']).toBe(String(1_767_225_600 + 600))
    expect(headers.ratelimit).toBe('"minute";r=0;t=600, "day";r=0;t=600')
  })

  it('reports a used-up window that outlasts the ban by its own end while banned', () => {
    const headers = headersOf(
      decision(
        [
          { quota: minute, remaining: 0, resetInMs: 30_000 },
          { quota: day, remaining: 0, resetInMs: 80_000_000 },
        ],
        'banned',
        600_000,
      ),
    )
    expect(headers['x-ratelimit-limit']).toBe('1000')
    expect(headers['x-ratelimit-reset']).toBe(String(1_767_225_600 + 80_000))
    expect(headers.ratelimit).toBe('"minute";r=0;t=600, "day";r=0;t=80000')
  })

  it('writes nothing for a decision without windows', () => {
    expect(headersOf(decision([]))).toEqual({})
  })
})

describe('wholeSeconds', () => {
  it('rounds up to whole seconds, at least 1', () => {
    expect([0, 1, 999, 1000, 1001, 17_200, 60_000].map(wholeSeconds)).toEqual([
      1, 1, 1, 1, 2, 18, 60,
    ])
  })
})
