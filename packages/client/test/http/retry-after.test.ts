import { describe, expect, it } from 'vitest'
import { parseRetryAfter } from '../../src/http/retry-after.js'

const now = Date.parse('Thu, 05 Dec 2030 00:00:00 GMT')

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('18', now)).toBe(18_000)
    expect(parseRetryAfter(' 0 ', now)).toBe(0)
  })

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Thu, 05 Dec 2030 00:01:00 GMT', now)).toBe(60_000)
    expect(parseRetryAfter('Wed, 04 Dec 2030 00:00:00 GMT', now)).toBe(0)
  })

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
  })
})
