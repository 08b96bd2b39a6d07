import { operationIds } from '@petstore/types'
import { describe, expect, it } from 'vitest'
import { listOperations, type OpenApiDocument, parameterExample, resolve } from '../src/openapi.js'
import { spec } from './helpers.js'

const tiny: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/a/{id}': {
      parameters: [{ $ref: '#/components/parameters/Id' }],
      get: { operationId: 'getA', parameters: [{ name: 'q', in: 'query', example: 'x' }] },
      post: {
        operationId: 'postA',
        parameters: [{ name: 'id', in: 'path', required: true, example: 9 }],
        requestBody: { $ref: '#/components/requestBodies/A' },
      },
    },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true, schema: { examples: [7] } } },
    requestBodies: {
      A: { content: { 'application/json': { schema: { examples: [{ n: 1 }] } } } },
    },
    schemas: { 'a/b': { type: 'string' }, 'c~d': { type: 'integer' } },
  },
}

describe('resolve', () => {
  it('follows local JSON pointers, with ~1 and ~0 escapes', () => {
    expect(resolve(tiny, { $ref: '#/components/schemas/a~1b' })).toEqual({ type: 'string' })
    expect(resolve(tiny, { $ref: '#/components/schemas/c~0d' })).toEqual({ type: 'integer' })
  })

  it('refuses remote and dangling references', () => {
    expect(() => resolve(tiny, { $ref: 'other.yaml#/x' })).toThrow(/only local/)
    expect(() => resolve(tiny, { $ref: '#/components/schemas/nope' })).toThrow(/does not resolve/)
  })
})

describe('listOperations', () => {
  it('merges path-level parameters, letting the operation override them', () => {
    const [getA, postA] = listOperations(tiny)
    expect(getA?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id', 'query:q'])
    expect(postA?.parameters).toEqual([{ name: 'id', in: 'path', required: true, example: 9 }])
  })

  it('collects the JSON body examples, falling back to the schema', () => {
    expect(listOperations(tiny)[1]?.bodyExamples).toEqual([{ n: 1 }])
    expect(listOperations(tiny)[1]?.bodyMediaType).toBe('application/json')
    expect(listOperations(tiny)[0]?.bodyMediaType).toBeUndefined()
  })

  it('reads the body of the first JSON media type declared, merge patches included', () => {
    const patch = structuredClone(tiny)
    patch.components = {
      ...patch.components,
      requestBodies: {
        A: {
          content: {
            'text/plain': { example: 'no' },
            'application/merge-patch+json': { examples: { one: { value: { n: 2 } } } },
          },
        },
      },
    }
    const [, postA] = listOperations(patch)
    expect(postA?.bodyMediaType).toBe('application/merge-patch+json')
    expect(postA?.bodyExamples).toEqual([{ n: 2 }])
  })

  it('refuses, naming the operation, a body it could not send as JSON, when read', () => {
    const plain = structuredClone(tiny)
    plain.components = {
      ...plain.components,
      requestBodies: { A: { content: { 'text/plain': { example: 'x' } } } },
    }
    const [getA, postA] = listOperations(plain)
    expect(getA?.bodyExamples).toEqual([])
    expect(() => postA?.bodyMediaType).toThrow(
      /^postA: .*no JSON media type \(declared: text\/plain\)/,
    )
  })

  it('lists the spec’s operations, each with the media type and examples of its body', () => {
    const operations = listOperations(spec)
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual(
      Object.keys(operationIds),
    )
    const withBody = operations.filter(({ operation }) => operation.requestBody !== undefined)
    expect(withBody.length, 'the spec has operations with a request body').toBeGreaterThan(0)
    for (const { operation, bodyMediaType, bodyExamples } of operations) {
      const body = operation.requestBody && resolve(spec, operation.requestBody)
      const declared = Object.keys(body?.content ?? {})
      if (declared.length === 0) {
        expect(bodyMediaType, operation.operationId).toBeUndefined()
        continue
      }
      expect(declared, operation.operationId).toContain(bodyMediaType)
      expect(bodyExamples.length, `body examples of ${operation.operationId}`).toBeGreaterThan(0)
    }
  })
})

describe('parameterExample', () => {
  it('prefers example, then examples, then the schema’s examples and default', () => {
    expect(parameterExample(tiny, { name: 'a', in: 'query', example: 1 })).toBe(1)
    expect(
      parameterExample(tiny, { name: 'a', in: 'query', examples: { one: { value: 2 } } }),
    ).toBe(2)
    expect(parameterExample(tiny, { name: 'a', in: 'query', schema: { examples: [3] } })).toBe(3)
    expect(parameterExample(tiny, { name: 'a', in: 'query', schema: { default: 4 } })).toBe(4)
  })
})
