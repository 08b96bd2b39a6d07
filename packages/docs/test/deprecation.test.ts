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
    const badges = listOperations(withSunsetBadges(spec)).map(({ operation }) => [
      operation.operationId,
      operation['x-badges']?.map((b) => b.name),
    ])
    expect(badges).toEqual([
      ['listPets', undefined],
      ['createPet', undefined],
      ['getPet', [sunsetBadge('2030-12-05T00:00:00Z')]],
      ['getOpenApiDocument', undefined],
      ['getOpenApiDocumentOptions', undefined],
    ])
  })
})
