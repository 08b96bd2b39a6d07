import { operationsOf } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { expect, it } from 'vitest'
import { dereference } from '../../src/spec/document.js'
import {
  componentSchema,
  operationById,
  specBasePath,
  specOperations,
} from '../../src/spec/operations.js'

it('reads every operation but OPTIONS, with Fastify paths, the public ones marked', () => {
  const expected = operationsOf<{ operationId: string; security?: unknown[] }>(openapiDocument)
    .filter(({ method }) => method !== 'options')
    .map(({ path, method, operation }) => [
      operation.operationId,
      method.toUpperCase(),
      path.replace(/\{([^}]+)\}/g, ':$1'),
      operation.security?.length === 0,
    ])
  expect(specOperations.map((op) => [op.operationId, op.method, op.routePath, op.public])).toEqual(
    expected,
  )
  expect(specOperations.some((op) => op.public)).toBe(true)
  expect(specOperations.some((op) => op.routePath.includes(':'))).toBe(true)
  expect(specBasePath()).toBe('/v1')
})

it('inlines $ref and keeps sibling keywords (NewPet.status default)', () => {
  const newPet = componentSchema('NewPet') as {
    properties: Record<string, Record<string, unknown>>
  }
  expect(newPet.properties.status).toMatchObject({
    enum: ['available', 'pending', 'sold'],
    default: 'available',
  })
  expect(JSON.stringify(operationById('getPet'))).not.toContain('$ref')
  expect(() => dereference({ $ref: '#/a' }, { a: { $ref: '#/a' } })).toThrow('cycle')
})

it('takes parameters with their schemas from the spec', () => {
  const params = operationById('listPets').parameters.filter((p) => p.in === 'query')
  expect(params.map((p) => p.name)).toEqual(['limit', 'status', 'cursor'])
  expect(params[0]?.schema).toMatchObject({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
  })
})
