/** The one reader of `deprecated`, `x-deprecated-at`, `x-sunset`, `x-successor`, `x-stability-level`. */
import { describe, expect, it } from 'vitest'
import { lifecycleDate, lifecycleOf, stabilityLevels } from '../src/openapi.js'

describe('lifecycleDate', () => {
  it('reads an RFC 3339 date as midnight UTC and a date-time with its offset', () => {
    expect(lifecycleDate('2030-12-05')?.toISOString()).toBe('2030-12-05T00:00:00.000Z')
    expect(lifecycleDate('2030-12-05T00:00:00Z')?.toISOString()).toBe('2030-12-05T00:00:00.000Z')
    expect(lifecycleDate('2030-12-05T01:30:00+01:30')?.toISOString()).toBe(
      '2030-12-05T00:00:00.000Z',
    )
    expect(lifecycleDate(new Date('2030-12-05T00:00:00Z'))?.toISOString()).toBe(
      '2030-12-05T00:00:00.000Z',
    )
  })

  it('refuses what Date.parse would stretch into a date', () => {
    for (const value of ['soon', '2030', '2030-02-30', '2030-13-01', '05 Dec 2030', 20301205]) {
      expect(lifecycleDate(value), String(value)).toBeUndefined()
    }
    expect(lifecycleDate(new Date(Number.NaN))).toBeUndefined()
  })
})

describe('lifecycleOf', () => {
  it('reads a deprecated operation with its dates, successor and level', () => {
    expect(
      lifecycleOf({
        deprecated: true,
        'x-deprecated-at': '2026-01-01T00:00:00Z',
        'x-sunset': '2030-12-05T00:00:00Z',
        'x-successor': 'listPets',
        'x-stability-level': 'beta',
      }),
    ).toEqual({
      deprecated: true,
      deprecatedAt: new Date('2026-01-01T00:00:00Z'),
      sunset: new Date('2030-12-05T00:00:00Z'),
      successor: 'listPets',
      stability: 'beta',
      problems: [],
    })
  })

  it('is stable and current when nothing is said', () => {
    expect(lifecycleOf({})).toEqual({ deprecated: false, stability: 'stable', problems: [] })
  })

  it('names every extension it cannot read, and leaves it out', () => {
    const lifecycle = lifecycleOf({
      deprecated: true,
      'x-deprecated-at': 'yesterday',
      'x-sunset': 'soon',
      'x-successor': 42,
      'x-stability-level': 'experimental',
    })
    expect(lifecycle).toMatchObject({ deprecated: true, stability: undefined })
    expect(lifecycle.sunset).toBeUndefined()
    expect(lifecycle.problems.map((p) => p.message)).toEqual([
      'x-deprecated-at "yesterday" is not an RFC 3339 date or date-time',
      'x-sunset "soon" is not an RFC 3339 date or date-time',
      'x-successor 42 is not an operationId',
      `x-stability-level "experimental" is not one of ${stabilityLevels.join(', ')}`,
    ])
  })

  it('refuses a sunset before the deprecation (RFC 9745 §4)', () => {
    const lifecycle = lifecycleOf({
      deprecated: true,
      'x-deprecated-at': '2031-01-01',
      'x-sunset': '2030-12-05',
    })
    expect(lifecycle.sunset).toBeUndefined()
    expect(lifecycle.problems).toEqual([
      {
        extension: 'x-sunset',
        value: '2030-12-05',
        message: 'x-sunset "2030-12-05" is earlier than x-deprecated-at',
      },
    ])
  })
})
