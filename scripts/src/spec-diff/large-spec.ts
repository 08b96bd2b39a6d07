/**
 * A large generated OpenAPI 3.1 document and a copy with one change, for the speed of spec:diff
 * on a spec the size of a big public one (`bench.ts`, `pnpm bench --spec-diff`) and the test that
 * the diff of the two finds that one change and nothing else.
 */
import { stringify } from 'yaml'
import type { Json } from './load.js'

export interface LargeSpecSize {
  operations: number
  schemas: number
}

export const LARGE_SPEC: LargeSpecSize = { operations: 1000, schemas: 2000 }

const schemaName = (i: number) => `Resource${i}`

/**
 * Each schema is an object of a dozen properties (strings with bounds and patterns, enums,
 * numbers, arrays, a nested object); each even one holds a `$ref` to the next. Each path has a
 * `GET` with query, header and path parameters and a `PUT` with a body, each returning a schema.
 */
export function largeSpec({ operations, schemas }: LargeSpecSize = LARGE_SPEC): Json {
  const components: Json = {}
  for (let i = 0; i < schemas; i++) {
    components[schemaName(i)] = {
      type: 'object',
      description: `Resource number ${i}.`,
      required: ['id', 'name', 'status'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        name: { type: 'string', minLength: 1, maxLength: 100 + (i % 7) },
        code: { type: 'string', pattern: `^R${i}-[A-Z]{3}$` },
        status: { type: 'string', enum: ['active', 'pending', 'retired'] },
        weight: { type: ['number', 'null'], minimum: 0, maximum: 1000 },
        count: { type: 'integer', minimum: 0 },
        tags: { type: 'array', items: { type: 'string', maxLength: 32 }, maxItems: 20 },
        createdAt: { type: 'string', format: 'date-time', readOnly: true },
        notes: { type: 'string', deprecated: i % 10 === 0 },
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
        ...(i % 2 === 0 && i + 1 < schemas
          ? { child: { $ref: `#/components/schemas/${schemaName(i + 1)}` } }
          : {}),
      },
    }
  }
  const paths: Json = {}
  for (let i = 0; i < operations / 2; i++) {
    const schema = (offset: number) => ({
      $ref: `#/components/schemas/${schemaName((2 * i + offset) % schemas)}`,
    })
    const ok = (offset: number) => ({
      description: 'OK',
      headers: { 'X-Request-Id': { required: true, schema: { type: 'string' } } },
      content: { 'application/json': { schema: schema(offset) } },
    })
    paths[`/resources${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: `getResource${i}`,
        parameters: [
          { name: 'fields', in: 'query', schema: { type: 'string', maxLength: 200 } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: { '200': ok(0), '404': { description: 'Not found' } },
      },
      put: {
        operationId: `putResource${i}`,
        requestBody: { required: true, content: { 'application/json': { schema: schema(1) } } },
        responses: { '200': ok(1), '400': { description: 'Bad request' } },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Large generated API', version: '1.0.0' },
    paths,
    components: { schemas: components },
  }
}

/** The same document with one breaking change: a property of one schema becomes required. */
export function withOneChange(doc: Json, at = 1): Json {
  const copy = structuredClone(doc) as { components: { schemas: Record<string, Json> } }
  const schema = copy.components.schemas[schemaName(at)] as { required: string[] }
  schema.required = [...schema.required, 'count']
  return copy as unknown as Json
}

export const toYaml = (doc: Json) => stringify(doc, { aliasDuplicateObjects: false })
