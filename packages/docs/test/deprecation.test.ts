import { describe, expect, it } from 'vitest'
import { formatSunset, sunsetBadge, withSunsetBadges } from '../src/deprecation.js'
import { listOperations } from '../src/openapi.js'
import { spec } from './helpers.js'

describe('formatSunset', () => {
  it('formats in UTC, whatever the local zone', () => {
    expect(formatSunset('2030-12-05T00:00:00Z')).toBe('5 Dec 2030')
  })

  it('rejects a value that is not a date', () => {
    expect(() => formatSunset('soon')).toThrow(/not a date/)
  })
})

describe('withSunsetBadges', () => {
  it('badges deprecated operations with their sunset, and only those', () => {
    const operations = listOperations(spec)
    expect(operations.some(({ operation }) => operation.deprecated)).toBe(true)
    const badged = listOperations(withSunsetBadges(spec))
    operations.forEach(({ operation }, index) => {
      const sunset = (operation as { 'x-sunset'?: string })['x-sunset']
      const expected = operation.deprecated && sunset ? [sunsetBadge(sunset)] : undefined
      const badges = badged[index]?.operation['x-badges']?.map((badge) => badge.name)
      expect(badges, `badges of ${operation.operationId}`).toEqual(expected)
    })
  })
})
