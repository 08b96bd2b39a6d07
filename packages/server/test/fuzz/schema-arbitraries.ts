/**
 * fast-check arbitraries read from the spec's JSON Schemas (2020-12, dereferenced): values a
 * schema accepts and values it refuses, as JSON values (bodies; the text a parameter carries on
 * the wire is parameter-texts.ts's). Values are built to be valid (ranges, lengths, patterns, required and
 * optional properties, array sizes, a branch of a combinator), then checked by the spec's own
 * validator, so that what a `valid*` arbitrary gives is accepted by construction and by proof.
 * A keyword the generators do not understand fails loudly (schema-keywords.ts), so a spec edit
 * that the generator cannot honour is noticed instead of silently fuzzed wrong.
 */
import fc from 'fast-check'
import { createAjv } from '../../src/spec/ajv.js'
import type { JsonSchema } from '../../src/spec/document.js'
import { checkKeywords, constraints, integerFormats, type Subschema } from './schema-keywords.js'
import { canonical, merge } from './schema-merge.js'

const ajv = createAjv()
const validators = new Map<JsonSchema, (value: unknown) => boolean>()

/** The spec's own verdict on a JSON value, plus well-formed Unicode (JSON text is UTF-8). */
export function accepts(schema: Subschema, value: unknown): boolean {
  if (typeof schema === 'boolean') return schema && wellFormed(value)
  let validate = validators.get(schema)
  if (validate === undefined) {
    const compiled = ajv.compile(schema)
    validate = (candidate) => compiled(candidate) === true
    validators.set(schema, validate)
  }
  return validate(value) && wellFormed(value)
}

/**
 * Text the server takes (src/spec/request-validation.ts, `unstorable`): no lone surrogate (with
 * the `u` flag, a pair is one code point and never matches) and no U+0000.
 */
export function wellFormedText(text: string): boolean {
  return !text.includes('\0') && !/\p{Cs}/u.test(text)
}

function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return wellFormedText(value)
  if (value === null || typeof value !== 'object') return true
  return Object.entries(value).every(([key, child]) => wellFormedText(key) && wellFormed(child))
}

const jsonTypes = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const

/** The types a schema allows; without `type`, every JSON type (other keywords then filter). */
function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [...jsonTypes]
  return Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]
}

function without(schema: JsonSchema, keyword: string): JsonSchema {
  const { [keyword]: _dropped, ...rest } = schema
  return rest
}

/** Object keys a JSON body parser refuses (prototype pollution guards, as Fastify's). */
const guardedKeys = new Set(['__proto__', 'constructor', 'prototype'])
const propertyName = fc.string({ maxLength: 8 }).filter((name) => !guardedKeys.has(name))

/** -0 is written `0` in JSON: generate what survives a round trip through JSON text. */
const noNegativeZero = (value: number) => (Object.is(value, -0) ? 0 : value)

/** Any JSON value, small. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 2, depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(noNegativeZero),
    fc.string({ maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(propertyName, tie('value'), { maxKeys: 3 }),
  ),
})).value

// ---- numbers -----------------------------------------------------------------------------------

/**
 * int64 without `maximum` is bounded by its format (the spec's `PetId` parameter: above 2^63-1
 * is 400).
 */
const int64Max = 2n ** 63n - 1n

/**
 * The integers `schema` allows: its bounds, its format's range, and, in a JSON body, the range
 * every JSON parser reads exactly.
 */
export function integerBounds(schema: JsonSchema, json: boolean): { min: bigint; max: bigint } {
  const lows = [json ? BigInt(Number.MIN_SAFE_INTEGER) : -int64Max - 1n]
  const highs = [json ? BigInt(Number.MAX_SAFE_INTEGER) : int64Max]
  if (typeof schema.minimum === 'number') lows.push(BigInt(Math.ceil(schema.minimum)))
  if (typeof schema.exclusiveMinimum === 'number') {
    lows.push(BigInt(Math.floor(schema.exclusiveMinimum)) + 1n)
  }
  if (typeof schema.maximum === 'number') highs.push(BigInt(Math.floor(schema.maximum)))
  if (typeof schema.exclusiveMaximum === 'number') {
    highs.push(BigInt(Math.ceil(schema.exclusiveMaximum)) - 1n)
  }
  const format = integerFormats[String(schema.format)]
  if (format !== undefined) lows.push(format.min)
  if (format !== undefined) highs.push(format.max)
  // Math.min and Math.max take no bigint.
  const ascending = (values: bigint[]) => values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const [low] = ascending(lows).reverse()
  const [high] = ascending(highs)
  return { min: low ?? 0n, max: high ?? 0n }
}

export function integersBetween(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  const near = min + 100n < max ? min + 100n : max
  return fc.oneof(fc.bigInt({ min, max: near }), fc.bigInt({ min, max }), fc.constantFrom(min, max))
}

/** Integers in range, multiples of an integer `multipleOf` by construction. */
export function integers(schema: JsonSchema, json: boolean): fc.Arbitrary<bigint> {
  const { min, max } = integerBounds(schema, json)
  const step = schema.multipleOf
  if (typeof step !== 'number' || !Number.isInteger(step)) return integersBetween(min, max)
  const factor = BigInt(step)
  const ceil = (n: bigint) => (n >= 0n ? (n + factor - 1n) / factor : n / factor)
  const floor = (n: bigint) => (n >= 0n ? n / factor : (n - factor + 1n) / factor)
  return integersBetween(ceil(min), floor(max)).map((k) => k * factor)
}

export function numbers(schema: JsonSchema): fc.Arbitrary<number> {
  const step = schema.multipleOf
  if (typeof step === 'number') {
    const low = Math.ceil(lowest(schema) / step)
    const high = Math.floor(highest(schema) / step)
    const k = fc.integer({
      min: Math.max(low, Number.MIN_SAFE_INTEGER),
      max: Math.min(high, Number.MAX_SAFE_INTEGER),
    })
    return k.map((n) => noNegativeZero(n * step))
  }
  return fc.oneof(
    integers(schema, true).map(Number),
    fc
      .double({
        min: lowest(schema),
        max: highest(schema),
        minExcluded: typeof schema.exclusiveMinimum === 'number',
        maxExcluded: typeof schema.exclusiveMaximum === 'number',
        noNaN: true,
        noDefaultInfinity: true,
      })
      .map(noNegativeZero),
  )
}

function lowest(schema: JsonSchema): number {
  const bounds = [schema.minimum, schema.exclusiveMinimum].filter((b) => typeof b === 'number')
  return Math.max(-Number.MAX_VALUE, ...(bounds as number[]))
}

function highest(schema: JsonSchema): number {
  const bounds = [schema.maximum, schema.exclusiveMaximum].filter((b) => typeof b === 'number')
  return Math.min(Number.MAX_VALUE, ...(bounds as number[]))
}

// ---- strings -----------------------------------------------------------------------------------

/** RFC 3339 instants in UTC, as `Date.toISOString` writes them (a `date-time` string). */
const dateTimes = fc
  .date({
    min: new Date('1970-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString())

function strings(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') return dateTimes
  const minLength = (schema.minLength as number | undefined) ?? 0
  const maxLength = (schema.maxLength as number | undefined) ?? Math.max(300, minLength + 20)
  const free = fc.oneof(
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    fc.string({ unit: 'binary', minLength, maxLength }),
  )
  if (typeof schema.pattern !== 'string') return free
  // Ajv compiles patterns with the `u` flag (its `unicodeRegExp` default). A pattern's
  // repetitions grow with the size: short sizes keep most matches within a small maxLength.
  const pattern = new RegExp(schema.pattern, 'u')
  const matching = (size: fc.Size) => fc.stringMatching(pattern, { size })
  const sized =
    minLength > 10
      ? fc.oneof(matching('small'), matching('medium'))
      : fc.oneof(
          { weight: maxLength <= 30 ? 3 : 1, arbitrary: matching('xsmall') },
          { weight: 1, arbitrary: matching('small') },
        )
  // Free text too, now and then: a permissive pattern (a name's) then sees every kind of text.
  return fc.oneof({ weight: 4, arbitrary: sized }, { weight: 1, arbitrary: free })
}

// ---- arrays ------------------------------------------------------------------------------------

function arrays(schema: JsonSchema): fc.Arbitrary<unknown[]> {
  const prefix = ((schema.prefixItems ?? []) as Subschema[]).map((item) => valid(item))
  const minItems = (schema.minItems as number | undefined) ?? 0
  const contains = schema.contains === undefined ? undefined : valid(schema.contains as Subschema)
  const maxItems = (schema.maxItems as number | undefined) ?? Math.max(minItems, prefix.length) + 4
  const open = schema.items !== false
  const reserved = contains === undefined ? 0 : 1
  const restMin = Math.max(0, minItems - prefix.length - reserved)
  const restMax = open ? Math.max(restMin, maxItems - prefix.length - reserved) : 0
  // With `items: false` the rest is empty: its item arbitrary is never drawn.
  const item = open ? valid((schema.items ?? true) as Subschema) : fc.constant(null)
  const rest = schema.uniqueItems
    ? fc.uniqueArray(item, { minLength: restMin, maxLength: restMax, selector: canonical })
    : fc.array(item, { minLength: restMin, maxLength: restMax })
  return fc
    .tuple(fc.tuple(...prefix), rest, contains ?? fc.constant(undefined), fc.nat())
    .map(([head, tail, contained, at]) => {
      // Trailing prefix items are optional when nothing follows them.
      const kept =
        tail.length > 0 ? head.length : Math.max(minItems - reserved, at % (head.length + 1))
      const items = [...head.slice(0, kept), ...tail].slice(0, maxItems - reserved)
      if (contains !== undefined)
        items.splice(prefix.length + (at % (tail.length + 1)), 0, contained)
      return items
    })
}

// ---- objects -----------------------------------------------------------------------------------

function propertiesOf(schema: JsonSchema): Record<string, Subschema> {
  return (schema.properties ?? {}) as Record<string, Subschema>
}

/**
 * Every required property, a subset of the optional ones, and extra ones where
 * `additionalProperties` allows them, as many as min/maxProperties want.
 */
function objects(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = propertiesOf(schema)
  const required = (schema.required ?? []) as string[]
  const additional = (schema.additionalProperties ?? true) as Subschema
  const extraValue =
    additional === true
      ? anyJson
      : additional === false
        ? fc.constant(undefined)
        : valid(additional)
  const names = [...new Set([...Object.keys(properties), ...required])]
  const named = Object.fromEntries(
    names.map((name) => {
      const own = properties[name]
      return [name, own === undefined ? extraValue : valid(own)]
    }),
  )
  const optional = Object.keys(properties).filter((name) => !required.includes(name))
  const minProperties = (schema.minProperties as number | undefined) ?? 0
  const room = ((schema.maxProperties as number | undefined) ?? Infinity) - required.length
  const need = Math.max(0, minProperties - required.length)
  const open = additional !== false
  const chosen = fc.subarray(optional, {
    minLength: open ? 0 : Math.min(need, optional.length),
    maxLength: Math.max(0, Math.min(room, optional.length)),
  })
  const extraName = propertyName.filter((name) => !(name in named))
  const extras = open
    ? fc.dictionary(extraName, extraValue, { minKeys: need, maxKeys: need + 3 })
    : fc.constant({})
  return fc.tuple(fc.record(named), chosen, extras).map(([values, picked, more]) => {
    const object: Record<string, unknown> = {}
    for (const name of [...required, ...picked]) object[name] = values[name]
    const spare = Math.max(0, room - picked.length)
    for (const [name, value] of Object.entries(more).slice(0, spare)) object[name] = value
    return object
  })
}

// ---- any schema --------------------------------------------------------------------------------

function ofType(schema: JsonSchema, type: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return integers(schema, true).map(Number)
    case 'number':
      return numbers(schema)
    case 'string':
      return strings(schema)
    case 'array':
      return arrays(schema)
    case 'object':
      return objects(schema)
    default:
      throw new Error(`fuzz: schema type ${type} is not a JSON Schema type`)
  }
}

/** A copy, so that a test changing a generated value cannot change the schema's `enum`. */
const copy = (value: unknown): unknown => structuredClone(value)

/** Values built to satisfy `schema`, then kept only if the validator agrees. */
function valid(schema: Subschema): fc.Arbitrary<unknown> {
  if (schema === true) return anyJson
  if (schema === false) throw new Error('fuzz: schema false accepts no value')
  return build(schema).filter((value) => accepts(schema, value))
}

function build(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const).map(copy)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum).map(copy)
  if (Array.isArray(schema.allOf)) {
    return valid((schema.allOf as Subschema[]).reduce(merge, without(schema, 'allOf')))
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = schema[keyword]
    if (Array.isArray(branches)) {
      const rest = without(schema, keyword)
      return fc.oneof(...branches.map((branch: Subschema) => valid(merge(rest, branch))))
    }
  }
  if (schema.not !== undefined) return build(without(schema, 'not'))
  return fc.oneof(...typesOf(schema).map((type) => ofType(schema, type)))
}

/**
 * Values `schema` accepts, as JSON values: every keyword of the schema honoured, optional
 * properties present or not. `schema` is a dereferenced schema (`dereference` from
 * src/spec/document.ts); a keyword the generators do not know throws, naming it and its place.
 *
 * @example
 * ```ts
 * const newPet = dereference({ $ref: '#/components/schemas/NewPet' })
 * fc.assert(fc.asyncProperty(validValue(newPet), async (body) => { ... }))
 * ```
 */
export function validValue(schema: Subschema): fc.Arbitrary<unknown> {
  checkKeywords(schema)
  return valid(schema)
}

/**
 * What `validValue` draws from before the validator's final check: values built from the
 * keywords alone. A test holds it to being mostly valid, since a check that refused most values
 * would stall fast-check.
 */
export function constructedValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  checkKeywords(schema)
  return build(schema)
}

// ---- invalid values ----------------------------------------------------------------------------

const controls = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code))
const control = fc.oneof(controls, fc.constant('\u007f'))
const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code))

function insert(into: fc.Arbitrary<string>, piece: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(into, piece, fc.nat()).map(([text, part, at]) => {
    const chars = [...text]
    const index = at % (chars.length + 1)
    return [...chars.slice(0, index), part, ...chars.slice(index)].join('')
  })
}

/** Ways to break a string: too long, too short, control characters, lone surrogates, anything. */
export function brokenStrings(schema: JsonSchema): fc.Arbitrary<string> {
  const base = valid({ ...schema, type: 'string' }) as fc.Arbitrary<string>
  const maxLength = schema.maxLength as number | undefined
  const ways: fc.Arbitrary<string>[] = [
    insert(base, control),
    insert(base, loneSurrogate),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constant(''),
    fc.constant(' '),
    base.map((value) => value.toUpperCase()),
  ]
  if (maxLength !== undefined) {
    ways.push(
      fc
        .tuple(base, fc.integer({ min: 1, max: 40 }))
        .map(([value, extra]) => value + 'x'.repeat(maxLength + extra)),
    )
  }
  return fc.oneof(...ways)
}

const otherJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.array(fc.nat(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.nat(), { maxKeys: 2 }),
)

export const annotationOnly = (schema: Subschema) =>
  schema === true ||
  (typeof schema === 'object' && Object.keys(schema).every((keyword) => !constraints.has(keyword)))

const keywordsOfType: Record<string, readonly string[]> = {
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  object: ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'],
}

/**
 * The types whose values `schema` constrains: its `type`, or else the types its keywords apply
 * to (a value of any other type passes them, so breaking it that way is impossible).
 */
function constrainedTypes(schema: JsonSchema): string[] {
  if (schema.type !== undefined) return typesOf(schema)
  return Object.entries(keywordsOfType)
    .filter(([, keywords]) => keywords.some((keyword) => keyword in schema))
    .map(([type]) => type)
}

/** Ways a value of each type breaks `schema`; kept to those its keywords make possible. */
function broken(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const ways: fc.Arbitrary<unknown>[] = []
  const types = constrainedTypes(schema)
  if (schema.type !== undefined || 'enum' in schema || 'const' in schema) ways.push(otherJson)
  if (types.includes('integer') || types.includes('number')) {
    const { min, max } = integerBounds(schema, true)
    ways.push(fc.constantFrom(Number(min) - 1, Number(max) + 2, 1e300, -1e300))
    if (!types.includes('number') && min < max) {
      ways.push(fc.double({ min: Number(min), max: Number(max), noInteger: true }))
    }
    if (typeof schema.multipleOf === 'number') {
      ways.push(integers(schema, true).map((value) => Number(value) + 1))
    }
  }
  if (types.includes('string')) ways.push(brokenStrings(schema))
  if (types.includes('array')) ways.push(...brokenArrays(schema))
  if (types.includes('object')) {
    ways.push(...brokenObjects(schema).map((way) => way.map(({ value }) => value)))
  }
  // Breaking one branch breaks allOf; for anyOf and oneOf the validator filters what another
  // branch still accepts.
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const branches = (schema[keyword] ?? []) as Subschema[]
    for (const branch of branches) if (!annotationOnly(branch)) ways.push(invalid(branch))
  }
  if (schema.not !== undefined) ways.push(valid(schema.not as Subschema))
  return ways
}

function brokenArrays(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const ways: fc.Arbitrary<unknown>[] = []
  const item = schema.items as Subschema | undefined
  if (typeof schema.maxItems === 'number') {
    const count = schema.maxItems + 1
    const one = item === undefined || item === false ? anyJson : valid(item)
    ways.push(fc.array(one, { minLength: count, maxLength: count + 2 }))
  }
  const valids = arrays(schema)
  if (typeof schema.minItems === 'number' && schema.minItems > 0) {
    ways.push(valids.map((items) => items.slice(0, (schema.minItems as number) - 1)))
  }
  if (schema.uniqueItems === true) {
    ways.push(valids.filter((items) => items.length > 0).map((items) => [...items, items[0]]))
  }
  if (item !== undefined && !annotationOnly(item)) {
    ways.push(fc.tuple(valids, invalid(item)).map(([items, bad]) => [...items, bad]))
  }
  return ways
}

/** Ways to break an object: a property broken, an unknown one added, a required one removed. */
function brokenObjects(schema: JsonSchema): fc.Arbitrary<{ value: unknown; how: string }>[] {
  const properties = propertiesOf(schema)
  const required = (schema.required ?? []) as string[]
  const valids = objects(schema)
  const ways = Object.entries(properties)
    .filter(([, property]) => !annotationOnly(property))
    .map(([name, property]) =>
      fc.tuple(valids, invalid(property)).map(([object, bad]) => ({
        value: { ...object, [name]: bad },
        how: `body.${name} invalid`,
      })),
    )
  if (schema.additionalProperties === false) {
    const unknownName = propertyName.filter((name) => name !== '' && !(name in properties))
    ways.push(
      fc.tuple(valids, unknownName, fc.jsonValue({ maxDepth: 1 })).map(([object, name, extra]) => ({
        value: { ...object, [name]: extra },
        how: 'unknown property',
      })),
    )
  }
  if (required.length > 0) {
    ways.push(
      fc.tuple(valids, fc.constantFrom(...required)).map(([object, name]) => {
        const { [name]: _dropped, ...rest } = object
        return { value: rest, how: `body.${name} missing` }
      }),
    )
  }
  if (typeof schema.maxProperties === 'number') {
    const count = schema.maxProperties + 1
    ways.push(
      fc
        .dictionary(propertyName, anyJson, { minKeys: count, maxKeys: count })
        .map((value) => ({ value, how: 'too many properties' })),
    )
  }
  return ways
}

function invalid(schema: Subschema): fc.Arbitrary<unknown> {
  if (schema === false) return anyJson
  if (annotationOnly(schema)) throw new Error('fuzz: a schema without constraints refuses nothing')
  const ways = broken(schema as JsonSchema)
  if (ways.length === 0) throw new Error(`fuzz: no way to break ${JSON.stringify(schema)}`)
  return fc.oneof(...ways).filter((value) => !accepts(schema, value))
}

/** JSON values `schema` refuses: wrong types, out-of-range numbers, broken strings and so on. */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  checkKeywords(schema)
  return invalid(schema)
}

/** Objects `schema` refuses: a property broken, an unknown one added, a required one removed. */
export function invalidObject(schema: JsonSchema): fc.Arbitrary<{ value: unknown; how: string }> {
  checkKeywords(schema)
  const ways = [
    ...brokenObjects(schema),
    otherJson.map((value) => ({ value, how: 'not an object' })),
  ]
  return fc.oneof(...ways).filter(({ value }) => !accepts(schema, value))
}
