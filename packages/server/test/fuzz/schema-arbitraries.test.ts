/**
 * The generators keep their word: for schemas exercising every keyword they understand, and for
 * every request schema of the spec, what `valid*` makes the validator accepts (mostly by
 * construction, not by filtering) and what `invalid*` makes it refuses; a keyword they do not
 * understand is refused up front, named with its place and what to extend. Parameter texts are
 * held to it for a schema of every kind the support table allows (the spec has only some), by
 * the generators' own rules and by the server's parameter validator.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAjv } from '../../src/spec/ajv.js'
import { dereference, type JsonSchema, specDocument } from '../../src/spec/document.js'
import { requestBodySchema, specOperations } from '../../src/spec/operations.js'
import { createValidatorCompiler } from '../../src/spec/request-validation.js'
import {
  acceptsText,
  acceptsTexts,
  invalidText,
  invalidTexts,
  refusesSomeText,
  validText,
  validTexts,
} from './parameter-texts.js'
import {
  accepts,
  constructedValue,
  invalidObject,
  invalidValue,
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

/**
 * A parameter schema of each kind the support table allows (`parameter-type`): integers, numbers,
 * booleans and strings, enums of each with and without `type`, and arrays of those.
 */
const parameterFixtures: Record<string, JsonSchema> = {
  'integer, positive int64 (an id)': { type: 'integer', format: 'int64', minimum: 1 },
  'integer, signed, multipleOf': { type: 'integer', minimum: -20, maximum: 20, multipleOf: 5 },
  'integer int32': { type: 'integer', format: 'int32' },
  'integer enum': { type: 'integer', enum: [1, 2, 3] },
  'integer enum without type': { enum: [1, 5, 10] },
  'number, bounded': { type: 'number', minimum: 0, exclusiveMaximum: 100 },
  'number, multipleOf': { type: 'number', minimum: -5, maximum: 5, multipleOf: 0.5 },
  number: { type: 'number' },
  'number enum': { type: 'number', enum: [0.5, 1.5, 2] },
  'number enum without type': { enum: [0.25, 4.5] },
  boolean: { type: 'boolean' },
  'boolean enum': { type: 'boolean', enum: [true] },
  'boolean enum without type': { enum: [false] },
  'string, patterned and bounded': {
    type: 'string',
    minLength: 1,
    maxLength: 20,
    pattern: '^[a-z]+$',
  },
  'string enum': { type: 'string', enum: ['available', 'pending'] },
  'string enum without type': { enum: ['cat', 'dog'] },
  'array of strings, unique': {
    type: 'array',
    items: { type: 'string', pattern: '^[a-z]{1,8}$' },
    maxItems: 4,
    uniqueItems: true,
  },
  'array of integers, two to five': {
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: 100 },
    minItems: 2,
    maxItems: 5,
  },
  'array of numbers, unique': {
    type: 'array',
    items: { type: 'number', minimum: 0 },
    uniqueItems: true,
  },
  'array of booleans': { type: 'array', items: { type: 'boolean' }, maxItems: 2 },
  'array of an enum without type': {
    type: 'array',
    items: { enum: ['a', 'b', 'c'] },
    uniqueItems: true,
  },
}

const compileParameters = createValidatorCompiler(createAjv({ useDefaults: true }))
const serverValidators = new Map<JsonSchema, (data: unknown) => { error?: unknown }>()

/**
 * The server's verdict on a parameter sent as `texts` (a query parameter; `[]` is one left out):
 * its validator of request parameters, which reads each text strictly, then the schema.
 */
function serverTakes(schema: JsonSchema, texts: readonly string[]): boolean {
  let validate = serverValidators.get(schema)
  if (validate === undefined) {
    validate = compileParameters({
      schema: { type: 'object', properties: { p: schema }, required: [] },
      httpPart: 'querystring',
      method: 'GET',
      url: '/things',
    }) as (data: unknown) => { error?: unknown }
    serverValidators.set(schema, validate)
  }
  const raw = texts.length === 1 && schema.type !== 'array' ? texts[0] : [...texts]
  return validate(texts.length === 0 ? {} : { p: raw }).error === undefined
}

describe.each(Object.entries(parameterFixtures))('parameter of %s', (_, schema) => {
  it('valid texts pass, by the rules and by the server', () => {
    fc.assert(
      fc.property(
        validTexts(schema),
        (texts) => acceptsTexts(schema, texts) && serverTakes(schema, texts),
      ),
      options,
    )
  })

  it('broken texts fail, by the rules and by the server', () => {
    fc.assert(
      fc.property(
        invalidTexts(schema),
        (texts) => texts.length > 0 && !acceptsTexts(schema, texts) && !serverTakes(schema, texts),
      ),
      options,
    )
  })
})

describe('parameter texts', () => {
  const sample = (arbitrary: fc.Arbitrary<string[]>) =>
    fc.sample(arbitrary, { numRuns: 500, seed: 11 })
  const texts = (name: string, valid: boolean) => {
    const schema = parameterFixtures[name] as JsonSchema
    return sample(valid ? validTexts(schema) : invalidTexts(schema))
  }

  it('spell booleans exactly, and try the near misses', () => {
    expect(new Set(texts('boolean', true).flat())).toEqual(new Set(['true', 'false']))
    const broken = texts('boolean', false).flat()
    for (const miss of ['TRUE', 'True', '1', '0', 'yes', '']) expect(broken).toContain(miss)
    expect(texts('boolean enum', false).flat()).toContain('false')
  })

  it('spell numbers in each JSON form, and try what JSON does not allow', () => {
    const valid = texts('number', true).flat()
    expect(valid.some((text) => /e[+-]/.test(text))).toBe(true)
    expect(valid.some((text) => /E/.test(text))).toBe(true)
    expect(valid.some((text) => /^-?[0-9]+\.[0-9]+$/.test(text))).toBe(true)
    const broken = texts('number, bounded', false).flat()
    for (const miss of ['.5', 'NaN', 'Infinity', '1e400']) expect(broken).toContain(miss)
    expect(broken.some((text) => text.startsWith('+'))).toBe(true)
  })

  it('send arrays as every count allowed, and break them by count, item and repetition', () => {
    const name = 'array of integers, two to five'
    const counts = new Set(texts(name, true).map((list) => list.length))
    expect([...counts].sort()).toEqual([2, 3, 4, 5])
    const broken = texts(name, false)
    expect(broken.some((list) => list.length === 1)).toBe(true)
    expect(broken.some((list) => list.length > 5)).toBe(true)
    expect(
      broken.some((list) =>
        list.some((text) => !acceptsText({ type: 'integer', minimum: 1, maximum: 100 }, text)),
      ),
    ).toBe(true)
    // The same value twice, in another spelling where it has one: still the same value.
    const repeated = texts('array of numbers, unique', false).filter(
      (list) => new Set(list).size === list.length,
    )
    expect(repeated.length).toBeGreaterThan(0)
  })

  it('know what cannot be broken: a bare string, and an array of them without bounds', () => {
    expect(refusesSomeText({ type: 'string' })).toBe(false)
    expect(refusesSomeText({ type: 'array', items: { type: 'string' } })).toBe(false)
    expect(refusesSomeText({ type: 'array', items: { type: 'string' }, minItems: 1 })).toBe(false)
    expect(refusesSomeText({ type: 'boolean' })).toBe(true)
  })

  it('refuse a kind the support table does not allow, naming where to add it', () => {
    for (const schema of [
      { type: 'object' },
      { type: ['integer', 'null'] },
      { type: 'array', items: { type: 'array', items: { type: 'string' } } },
      { enum: [1, 'a'] },
    ]) {
      expect(() => validTexts(schema)).toThrow(
        /support table allows .* \(scripts\/src\/support\/table\.ts `parameter-type`\); generate a new kind in packages\/server\/test\/fuzz\/parameter-texts\.ts/,
      )
    }
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
