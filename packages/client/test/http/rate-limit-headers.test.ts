import { describe, expect, it } from 'vitest'
import { parseRateLimit } from '../../src/http/rate-limit-headers.js'

const now = Date.parse('2030-12-05T00:00:00Z')

describe('parseRateLimit', () => {
  it('reads both draft windows and the X-RateLimit summary', () => {
    const headers = new Headers({
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=42;t=18, "day";r=981;t=40210',
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '42',
      'X-RateLimit-Reset': String(now / 1000 + 18),
    })
    expect(parseRateLimit(headers, now)).toEqual({
      limit: 60,
      remaining: 42,
      reset: new Date(now + 18_000),
      windows: [
        {
          name: 'minute',
          limit: 60,
          remaining: 42,
          reset: new Date(now + 18_000),
          windowSeconds: 60,
        },
        {
          name: 'day',
          limit: 1000,
          remaining: 981,
          reset: new Date(now + 40_210_000),
          windowSeconds: 86400,
        },
      ],
    })
  })

  it('summarises the tightest draft window when X-RateLimit-* are absent', () => {
    const headers = new Headers({ RateLimit: '"minute";r=5;t=10, "day";r=2;t=100' })
    expect(parseRateLimit(headers, now)).toMatchObject({
      limit: undefined,
      remaining: 2,
      reset: new Date(now + 100_000),
    })
  })

  it('takes the summary from the draft fields when both are sent, a tie going to the later reset', () => {
    const headers = new Headers({
      RateLimit: '"minute";r=5;t=10, "day";r=5;t=100',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': String(now / 1000 + 10),
    })
    expect(parseRateLimit(headers, now)).toMatchObject({
      remaining: 5,
      reset: new Date(now + 100_000),
    })
  })

  it('reads each response by its own RateLimit-Policy', () => {
    const limits = (policy: string) =>
      parseRateLimit(new Headers({ 'RateLimit-Policy': policy, RateLimit: '"minute";r=1' }), now)
        ?.windows[0]
    expect(limits('"minute";q=60;w=60')).toMatchObject({ limit: 60, windowSeconds: 60 })
    expect(limits('"minute";q=300;w=30')).toMatchObject({ limit: 300, windowSeconds: 30 })
    expect(limits('"minute";q=60;w=60')).toMatchObject({ limit: 60, windowSeconds: 60 })
  })

  it('reads X-RateLimit-* alone as one window', () => {
    const headers = new Headers({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1924732800',
    })
    expect(parseRateLimit(headers, now)?.windows).toEqual([
      {
        name: 'default',
        limit: 10,
        remaining: 0,
        reset: new Date(1924732800_000),
        windowSeconds: undefined,
      },
    ])
  })

  it('returns undefined without rate-limit headers', () => {
    expect(parseRateLimit(new Headers(), now)).toBeUndefined()
  })
})
