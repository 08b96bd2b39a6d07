import { describe, expect, it } from 'vitest'
import { parseDeprecation, parseHttpDate } from '../../src/http/deprecation-headers.js'

describe('deprecation headers', () => {
  it('reads Deprecation as a Structured Field date and Sunset as an HTTP-date', () => {
    expect(parseDeprecation('@1767225600')?.toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(parseHttpDate('Thu, 05 Dec 2030 00:00:00 GMT')?.toISOString()).toBe(
      '2030-12-05T00:00:00.000Z',
    )
  })

  it('gives undefined for absent or unreadable values', () => {
    expect(parseDeprecation(null)).toBeUndefined()
    expect(parseDeprecation('yesterday')).toBeUndefined()
    expect(parseHttpDate(null)).toBeUndefined()
    expect(parseHttpDate('soon')).toBeUndefined()
  })
})
