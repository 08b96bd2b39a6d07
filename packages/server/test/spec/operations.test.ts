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

interface Parameter {
  name: string
  in: string
  required?: boolean
}

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
    enum: componentSchema('PetStatus').enum,
    default: 'available',
  })
  expect(JSON.stringify(operationById('getPet'))).not.toContain('$ref')
  expect(() => dereference({ $ref: '#/a' }, { a: { $ref: '#/a' } })).toThrow('cycle')
})

/** `in name`, and whether it is required: what a route must agree with the spec on. */
function label({ name, in: where, required }: Parameter): string {
  return `${where} ${name}${required === true ? ' (required)' : ''}`
}

it('takes every parameter of every operation, shared ones included, from the spec', () => {
  const declared = operationsOf<{ operationId: string }, Parameter>(openapiDocument)
    .filter(({ method }) => method !== 'options')
    .map(({ operation, parameters }) => ({
      operationId: operation.operationId,
      parameters: parameters.map(label),
    }))
  expect(
    declared.flatMap(({ parameters }) => parameters).length,
    'spec/openapi.yaml declares no parameter: this test checks nothing',
  ).toBeGreaterThan(0)
  expect(
    specOperations.map(({ operationId, parameters }) => ({
      operationId,
      parameters: parameters.map(label),
    })),
    'src/spec/operations.ts reads other parameters than spec/openapi.yaml declares',
  ).toEqual(declared)
})

it("gives listPets' limit the spec's schema: an integer from 1 to 100, 20 by default", () => {
  const limit = operationById('listPets').parameters.find((p) => p.name === 'limit')
  expect(limit, 'listPets has no limit parameter in spec/openapi.yaml').toBeDefined()
  expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
})
