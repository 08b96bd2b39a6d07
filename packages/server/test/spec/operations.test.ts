import { expect, it } from 'vitest'
import { dereference } from '../../src/spec/document.js'
import {
  componentSchema,
  operationById,
  specBasePath,
  specOperations,
} from '../../src/spec/operations.js'

it('reads the operations with Fastify paths, the public one marked', () => {
  expect(specOperations.map((op) => [op.operationId, op.method, op.routePath, op.public])).toEqual([
    ['listPets', 'GET', '/pets', false],
    ['createPet', 'POST', '/pets', false],
    ['getPet', 'GET', '/pets/:petId', false],
    ['getOpenApiDocument', 'GET', '/openapi.json', true],
  ])
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
