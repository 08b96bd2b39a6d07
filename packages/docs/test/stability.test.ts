import { lifecycleOf } from '@petstore/types/openapi'
import { describe, expect, it } from 'vitest'
import { renderedSpec } from '../src/build.js'
import { listOperations, type OpenApiDocument } from '../src/openapi.js'
import { stabilityBadges, withStabilityBadges } from '../src/stability.js'
import { spec } from './helpers.js'

/** The spec with the first operations at each level, the next one without a level. */
function withLevels(levels: (string | undefined)[]): OpenApiDocument {
  const copy = structuredClone(spec)
  listOperations(copy).forEach(({ operation }, index) => {
    const level = levels[index]
    if (level !== undefined) operation['x-stability-level'] = level
  })
  return copy
}

const badgeNames = (document: OpenApiDocument) =>
  listOperations(document).map(({ operation }) => operation['x-badges']?.map((b) => b.name) ?? [])

describe('withStabilityBadges', () => {
  const levels = ['draft', 'alpha', 'beta', 'stable', undefined]

  it('shows draft, alpha and beta beside the operation; stable, declared or not, has no badge', () => {
    const [draft, alpha, beta, stable, none] = badgeNames(withStabilityBadges(withLevels(levels)))
    expect(draft).toEqual(['Draft'])
    expect(alpha).toEqual(['Alpha'])
    expect(beta).toEqual(['Beta'])
    expect(stable).toEqual([])
    expect(none).toEqual([])
  })

  it('is part of the page the build renders, after the sunset badge', () => {
    const [draft] = badgeNames(renderedSpec(withLevels(levels), 'https://api.example.test/v1'))
    expect(draft?.at(-1)).toBe('Draft')
  })

  it("marks the spec's own operations with their levels, and only those", () => {
    const names = Object.values(stabilityBadges).map((badge) => badge.name)
    const rendered = badgeNames(renderedSpec(spec, 'https://api.example.test/v1'))
    for (const [i, { operation }] of listOperations(spec).entries()) {
      const expected = stabilityBadges[lifecycleOf(operation).stability ?? 'stable']?.name
      expect(
        rendered[i]?.filter((name) => names.includes(name)),
        operation.operationId,
      ).toEqual(expected ? [expected] : [])
    }
  })
})
