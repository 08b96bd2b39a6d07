/** The one OpenAPI reader: pointers, references, the operations walk and the spec's rules. */
import { describe, expect, it } from 'vitest'
import {
  answeredMethods,
  dereference,
  httpMethods,
  isErrorStatus,
  isJsonMediaType,
  isSuccessStatus,
  operationsOf,
  parameterKey,
  parametersOf,
  resolvePointer,
  resolveRef,
  schemaProperties,
} from '../src/openapi.js'

const document = {
  openapi: '3.1.0',
  paths: {
    '/a/{id}': { $ref: '#/components/pathItems/A' },
    '/b': {
      parameters: [{ name: 'X-Trace', in: 'header', required: true }],
      get: { parameters: [{ name: 'x-trace', in: 'header', required: false }] },
      post: { parameters: [{ name: 'X-Trace', in: 'query' }] },
    },
  },
  components: {
    pathItems: {
      A: {
        parameters: [
          { $ref: '#/components/parameters/Id' },
          { name: 'limit', in: 'query', required: true, schema: { maximum: 5 } },
        ],
        get: {
          operationId: 'getA',
          parameters: [{ name: 'limit', in: 'query', required: false, schema: { maximum: 100 } }],
        },
        put: { operationId: 'putA' },
        'x-not-a-method': { operationId: 'nope' },
      },
    },
    parameters: { Id: { name: 'id', in: 'path', required: true } },
    schemas: {
      'a/b': { type: 'string' },
      'c~d': { type: 'integer' },
      '~1': { const: 'tilde-one' },
      '/': { const: 'slash' },
      Named: { $ref: '#/components/schemas/a~1b', description: 'wins over the target' },
    },
  },
}

describe('resolvePointer', () => {
  it('unescapes ~1 to / and ~0 to ~', () => {
    expect(resolvePointer(document, '#/components/schemas/a~1b')).toEqual({ type: 'string' })
    expect(resolvePointer(document, '#/components/schemas/c~0d')).toEqual({ type: 'integer' })
  })

  it('unescapes ~1 before ~0, so ~01 is the key "~1" and never "/"', () => {
    expect(resolvePointer(document, '#/components/schemas/~01')).toEqual({ const: 'tilde-one' })
    expect(resolvePointer(document, '#/components/schemas/~1')).toEqual({ const: 'slash' })
  })

  it('reads a path key written with ~1, as a $ref to an operation is', () => {
    expect(resolvePointer(document, '#/paths/~1b/get/parameters/0/name')).toBe('x-trace')
  })

  it('URI-decodes a token first, as a $ref is a URI fragment', () => {
    expect(resolvePointer(document, '#/components/schemas/c%7E0d')).toEqual({ type: 'integer' })
  })

  it('refuses remote, dangling and inherited targets', () => {
    expect(() => resolvePointer(document, 'other.yaml#/x')).toThrow(/only local/)
    expect(() => resolvePointer(document, '#/components/schemas/nope')).toThrow(/does not resolve/)
    expect(() => resolvePointer(document, '#/components/constructor')).toThrow(/does not resolve/)
  })
})

describe('resolveRef and dereference', () => {
  it('follows a $ref whose target has an escaped name', () => {
    expect(resolveRef(document, { $ref: '#/components/schemas/a~1b' })).toEqual({
      type: 'string',
    })
  })

  it('inlines with the keywords next to a $ref winning over its target', () => {
    expect(dereference({ $ref: '#/components/schemas/Named' }, document)).toEqual({
      type: 'string',
      description: 'wins over the target',
    })
  })

  it('throws at a cycle, or keeps the inner $ref when asked', () => {
    const tree = { node: { properties: { child: { $ref: '#/node' } } } }
    expect(() => dereference({ $ref: '#/node' }, tree)).toThrow(/cycle/)
    expect(dereference({ $ref: '#/node' }, tree, { cycles: 'keep' })).toEqual({
      properties: { child: { $ref: '#/node' } },
    })
  })

  it('records the $ref each inlined object stands for, when asked', () => {
    const refs = new WeakMap<object, string>()
    const list = { oneOf: [{ $ref: '#/components/schemas/Named' }, { type: 'null' }] }
    const [named, inline] = dereference(list, document, { refs }).oneOf
    expect(named && refs.get(named)).toBe('#/components/schemas/Named')
    expect(inline && refs.get(inline)).toBeUndefined()
  })
})

describe('schemaProperties', () => {
  const schemas = {
    Status: { type: 'string', enum: ['a', 'b'] },
    NewThing: {
      type: 'object',
      properties: { name: { type: 'string' }, status: { $ref: '#/components/schemas/Status' } },
    },
    Thing: {
      allOf: [
        { type: 'object', properties: { id: { type: 'integer' } } },
        { $ref: '#/components/schemas/NewThing' },
      ],
      properties: { status: { default: 'a' }, tags: { type: 'array' } },
    },
    Loop: { allOf: [{ $ref: '#/components/schemas/Loop' }] },
  }
  const doc = { components: { schemas } }

  it('reads allOf branches and $refs in their place, each property dereferenced', () => {
    const found = schemaProperties({ $ref: '#/components/schemas/Thing' }, doc)
    expect([...found.keys()]).toEqual(['id', 'name', 'status', 'tags'])
    // Declared again: its first place, the later keywords merged over the earlier.
    expect(found.get('status')).toEqual({ type: 'string', enum: ['a', 'b'], default: 'a' })
  })

  it('reads a plain schema as it is written, and nothing from a schema without properties', () => {
    expect([...schemaProperties(schemas.NewThing, doc).keys()]).toEqual(['name', 'status'])
    expect(schemaProperties({ type: 'string' }, doc).size).toBe(0)
  })

  it('throws at a $ref cycle', () => {
    expect(() => schemaProperties({ $ref: '#/components/schemas/Loop' }, doc)).toThrow(/cycle/)
  })
})

describe('parametersOf', () => {
  const { A } = document.components.pathItems

  it("keeps the path's parameters and lets the operation's override one by name and location", () => {
    expect(parametersOf(A, A.get, document)).toEqual([
      { name: 'id', in: 'path', required: true },
      { name: 'limit', in: 'query', required: false, schema: { maximum: 100 } },
    ])
  })

  it("applies the path's parameters to an operation that declares none", () => {
    expect(parametersOf(A, A.put, document).map(parameterKey)).toEqual(['path:id', 'query:limit'])
  })

  it('matches header names case-insensitively, other locations exactly', () => {
    const b = document.paths['/b']
    expect(parametersOf(b, b.get)).toEqual([{ name: 'x-trace', in: 'header', required: false }])
    expect(parametersOf(b, b.post).map(parameterKey)).toEqual(['header:x-trace', 'query:X-Trace'])
  })
})

describe('operationsOf', () => {
  it('walks every path item, a referenced one included, in the order of httpMethods', () => {
    const found = operationsOf(document)
    expect(found.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'get /a/{id}',
      'put /a/{id}',
      'get /b',
      'post /b',
    ])
    expect(found[0]?.parameters).toEqual(
      parametersOf(document.components.pathItems.A, document.components.pathItems.A.get, document),
    )
  })

  it('knows the eight operation fields of a Path Item', () => {
    expect(httpMethods).toEqual([
      'get',
      'put',
      'post',
      'delete',
      'options',
      'head',
      'patch',
      'trace',
    ])
  })
})

describe('status and method rules', () => {
  it('counts 1XX-3XX codes and ranges as success, 4XX, 5XX and default as errors', () => {
    const success = ['100', '200', '201', '2XX', '304', '3XX']
    const errors = ['400', '4XX', '503', '5XX', 'default']
    expect(success.filter(isSuccessStatus)).toEqual(success)
    expect(errors.filter(isSuccessStatus)).toEqual([])
    expect(errors.filter(isErrorStatus)).toEqual(errors)
    expect(success.filter(isErrorStatus)).toEqual([])
    expect(
      ['2xx', '20', '2000', 'XX'].filter((s) => isSuccessStatus(s) || isErrorStatus(s)),
    ).toEqual([])
  })

  it('answers HEAD wherever GET', () => {
    expect(answeredMethods('get')).toEqual(['GET', 'HEAD'])
    expect(answeredMethods('POST')).toEqual(['POST'])
  })

  it('takes JSON and +json media types, in any case and with parameters', () => {
    const json = [
      'application/json',
      'application/merge-patch+json',
      'Application/JSON; charset=utf-8',
    ]
    const other = ['text/plain', 'application/jsonx', 'application/json-seq', 'text/json']
    expect(json.filter(isJsonMediaType)).toEqual(json)
    expect(other.filter(isJsonMediaType)).toEqual([])
  })
})
