/**
 * The generators keep their word: for schemas exercising every keyword they understand, and for
 * every request schema of the spec, what `valid*` makes the validator accepts (mostly by
 * construction, not by filtering) and what `invalid*` makes it refuses; a keyword they do not
 * understand is refused up front, named with its place and what to extend.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dereference, type JsonSchema, specDocument } from '../../src/spec/document.js'
import { requestBodySchema, specOperations } from '../../src/spec/operations.js'
import {
  accepts,
  acceptsText,
  constructedValue,
  invalidObject,
  invalidText,
  invalidValue,
  validText,
  validValue,
} from './schema-arbitraries.js'
import { checkKeywords } from './schema-keywords.js'

const options = { numRuns: 200, seed: 42 }

/** Share of built values the validator accepts: well above a half, so filtering stays cheap. */
function constructedShare(schema: JsonSchema): number {
  const values = fc.sample(constructedValue(schema), { numRuns: 200, seed: 7 })
  return values.filter((value) => accepts(schema, value)).length / values.length
}

/** Schemas that exercise each keyword the generators understand (not the spec's schemas). */
const fixtures: Record<string, JsonSchema> = {
  'type array with null': { type: ['string', 'null'], maxLength: 3 },
  enum: { enum: ['a', 1, null, { b: [true] }] },
  'enum narrowed by type': { type: 'string', enum: ['a', 1, 'b'] },
  const: { const: { kind: 'cat' } },
  'integer bounds, exclusive bounds and multipleOf': {
    type: 'integer',
    minimum: -50,
    exclusiveMinimum: -45,
    maximum: 1000,
    exclusiveMaximum: 990,
    multipleOf: 7,
  },
  'integer int32': { type: 'integer', format: 'int32' },
  'integer int64 in JSON': { type: 'integer', format: 'int64', minimum: 1 },
  'number bounds': { type: 'number', exclusiveMinimum: 0, maximum: 1 },
  'number multipleOf': { type: 'number', minimum: -10, maximum: 10, multipleOf: 0.25 },
  'string lengths': { type: 'string', minLength: 3, maxLength: 5 },
  'string pattern and lengths': { type: 'string', pattern: '^[a-z]+(-[a-z]+)*$', maxLength: 12 },
  boolean: { type: 'boolean' },
  'array items, sizes, unique': {
    type: 'array',
    items: { type: 'string', pattern: '^[a-z]{1,6}$' },
    minItems: 1,
    maxItems: 5,
    uniqueItems: true,
  },
  'array prefixItems, closed': {
    type: 'array',
    prefixItems: [{ type: 'integer' }, { type: 'string' }],
    items: false,
    minItems: 1,
  },
  'array prefixItems, then items': {
    type: 'array',
    prefixItems: [{ const: 'head' }],
    items: { type: 'boolean' },
    maxItems: 3,
  },
  'array contains': {
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 9 },
    contains: { const: 7 },
    maxItems: 4,
  },
  'array of objects': {
    type: 'array',
    maxItems: 3,
    items: {
      type: 'object',
      required: ['id'],
      additionalProperties: false,
      properties: { id: { type: 'integer', minimum: 1 }, note: { type: 'string', maxLength: 4 } },
    },
  },
  'object closed, required and optional, nested': {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'owner'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 100, pattern: '^\\S' },
      tags: {
        type: 'array',
        maxItems: 10,
        uniqueItems: true,
        items: { type: 'string', pattern: '^[a-z0-9-]{1,20}$' },
      },
      owner: {
        type: 'object',
        additionalProperties: false,
        required: ['id'],
        properties: { id: { type: 'integer', minimum: 1 }, email: { type: ['string', 'null'] } },
      },
      status: { enum: ['available', 'pending', 'sold'], default: 'available' },
    },
  },
  'object additionalProperties schema and size': {
    type: 'object',
    properties: { a: { type: 'integer' } },
    additionalProperties: { type: 'string', maxLength: 2 },
    minProperties: 2,
    maxProperties: 4,
  },
  'object closed with minProperties': {
    type: 'object',
    additionalProperties: false,
    properties: { a: { type: 'null' }, b: { type: 'null' }, c: { type: 'null' } },
    minProperties: 2,
  },
  'object required beyond properties': {
    type: 'object',
    required: ['free'],
    additionalProperties: { type: 'integer' },
  },
  allOf: {
    allOf: [
      { type: 'object', required: ['a'], properties: { a: { type: 'integer', minimum: 0 } } },
      { required: ['b'], properties: { a: { maximum: 10 }, b: { type: 'string' } } },
    ],
  },
  anyOf: {
    anyOf: [
      { type: 'integer', minimum: 10 },
      { type: 'string', maxLength: 2 },
    ],
  },
  oneOf: {
    type: 'object',
    required: ['kind'],
    oneOf: [
      { properties: { kind: { const: 'dog' }, barks: { type: 'boolean' } }, required: ['barks'] },
      { properties: { kind: { const: 'cat' } } },
    ],
  },
  not: { type: 'string', maxLength: 4, not: { enum: ['', 'a', 'b'] } },
  'annotations ignored': {
    type: 'integer',
    minimum: 1,
    title: 'T',
    description: 'D',
    examples: [1],
    example: 1,
    default: 1,
    deprecated: true,
    readOnly: false,
    writeOnly: false,
    'x-internal': true,
  },
  'boolean subschemas': {
    type: 'object',
    properties: { anything: true },
    additionalProperties: false,
  },
}

describe.each(Object.entries(fixtures))('fixture %s', (_, schema) => {
  it('valid values pass, mostly by construction', () => {
    fc.assert(
      fc.property(validValue(schema), (value) => accepts(schema, value)),
      options,
    )
    expect(constructedShare(schema)).toBeGreaterThan(0.5)
  })

  it('invalid values fail', () => {
    fc.assert(
      fc.property(invalidValue(schema), (value) => !accepts(schema, value)),
      options,
    )
  })
})

it('generates every optional property, present and absent, and arrays up to maxItems', () => {
  const schema = fixtures['object closed, required and optional, nested'] as JsonSchema
  const properties = schema.properties as Record<string, JsonSchema>
  const required = schema.required as string[]
  const values = fc.sample(validValue(schema), { numRuns: 300, seed: 3 }) as Record<
    string,
    unknown
  >[]
  for (const name of Object.keys(properties)) {
    expect(
      values.some((value) => name in value),
      name,
    ).toBe(true)
    if (!required.includes(name))
      expect(
        values.some((value) => !(name in value)),
        name,
      ).toBe(true)
  }
  const lengths = values.flatMap((value) => (Array.isArray(value.tags) ? [value.tags.length] : []))
  expect(Math.max(...lengths)).toBe(properties.tags?.maxItems)
})

it('broken objects: a property broken, an unknown one added, a required one removed', () => {
  const schema = fixtures['object closed, required and optional, nested'] as JsonSchema
  fc.assert(
    fc.property(invalidObject(schema), ({ value }) => !accepts(schema, value)),
    options,
  )
})

describe('a keyword the generators do not understand', () => {
  const nested = (keyword: Record<string, unknown>): JsonSchema => ({
    type: 'object',
    properties: { tags: { type: 'array', items: { type: 'string' }, ...keyword } },
  })

  it('fails naming the keyword, its place and what to extend', () => {
    const schema = nested({ unevaluatedItems: false })
    for (const generate of [validValue, invalidValue, invalidObject, constructedValue]) {
      expect(() => generate(schema)).toThrow(
        'fuzz: schema keyword unevaluatedItems at #/properties/tags (of the schema given): ' +
          'not supported: add it to the support table (`schemaConstraints` in ' +
          'scripts/src/support/table.ts) and generate it in `validValue` (and `invalidValue`) in ' +
          'packages/server/test/fuzz/schema-arbitraries.ts',
      )
    }
  })

  it('is placed in the spec document when the schema comes from it', () => {
    const document = {
      paths: {},
      components: {
        schemas: {
          Tag: { type: 'string', maxLength: 20 },
          NewPet: {
            type: 'object',
            properties: {
              tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' }, maxContains: 3 },
            },
          },
        },
      },
    }
    const newPet = dereference(document.components.schemas.NewPet, document) as JsonSchema
    expect(() => checkKeywords(newPet, document)).toThrow(
      'keyword maxContains at #/components/schemas/NewPet/properties/tags:',
    )
  })

  it('names a format the server does not check, and where to add it', () => {
    expect(() => validValue(nested({ format: 'email' }))).toThrow(
      'keyword format at #/properties/tags (of the schema given): format "email" is not checked ' +
        "by the server's Ajv: add it in packages/server/src/spec/ajv.ts",
    )
  })

  it('asks for a dereferenced schema when given a $ref', () => {
    expect(() => validValue(nested({ $ref: '#/components/schemas/Tag' }))).toThrow(
      'keyword $ref at #/properties/tags (of the schema given): a reference: pass the schema ' +
        'through `dereference`',
    )
  })

  it('refuses draft-2019 tuple items', () => {
    expect(() => validValue({ type: 'array', items: [{ type: 'string' }] })).toThrow(
      'keyword items at # (of the schema given): an array',
    )
  })
})

const parameters = specOperations.flatMap((operation) =>
  operation.parameters.map(
    (parameter) => [`${operation.operationId} ${parameter.name}`, parameter] as const,
  ),
)
const bodies = specOperations.flatMap((operation) => {
  const schema = requestBodySchema(operation)
  return schema === undefined ? [] : [[operation.operationId, schema] as const]
})

it('the spec has request schemas to check', () => {
  expect(parameters.length).toBeGreaterThan(0)
  expect(bodies.length).toBeGreaterThan(0)
})

it.each(parameters)('parameter %s: valid texts pass, invalid ones fail', (_, parameter) => {
  fc.assert(
    fc.property(validText(parameter.schema), (text) => acceptsText(parameter.schema, text)),
    options,
  )
  fc.assert(
    fc.property(invalidText(parameter.schema), (text) => !acceptsText(parameter.schema, text)),
    options,
  )
})

it.each(bodies)('body of %s: valid values pass, broken ones fail', (_, schema) => {
  fc.assert(
    fc.property(validValue(schema), (value) => accepts(schema, value)),
    options,
  )
  expect(constructedShare(schema)).toBeGreaterThan(0.5)
  fc.assert(
    fc.property(invalidObject(schema), ({ value }) => !accepts(schema, value)),
    options,
  )
})

it.each(Object.keys((specDocument.components as { schemas: object }).schemas))(
  'component schema %s: every keyword is one the generators understand',
  (name) => {
    const schema = dereference({ $ref: `#/components/schemas/${name}` }) as JsonSchema
    expect(() => checkKeywords(schema)).not.toThrow()
  },
)
