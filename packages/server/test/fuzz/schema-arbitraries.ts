/**
 * fast-check arbitraries read from the spec's JSON Schemas: values a schema accepts and values it
 * refuses, both as JSON values (bodies) and as the text a parameter carries on the wire. Only the
 * keywords the spec's request schemas use are understood; any other fails loudly, so a spec edit
 * that the generator cannot honour is noticed instead of silently fuzzed wrong.
 */
import fc from 'fast-check'
import { createAjv } from '../../src/spec/ajv.js'
import type { JsonSchema } from '../../src/spec/document.js'

const understood = new Set([
  'type',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'default',
  'description',
  'examples',
  'example',
])

function checkKeywords(schema: JsonSchema): void {
  for (const keyword of Object.keys(schema)) {
    if (!understood.has(keyword)) throw new Error(`fuzz: schema keyword ${keyword} not supported`)
  }
}

const ajv = createAjv()
const validators = new Map<JsonSchema, (value: unknown) => boolean>()

/** The spec's own verdict on a JSON value, plus well-formed Unicode (JSON text is UTF-8). */
export function accepts(schema: JsonSchema, value: unknown): boolean {
  let validate = validators.get(schema)
  if (validate === undefined) {
    const compiled = ajv.compile(schema)
    validate = (candidate) => compiled(candidate) === true
    validators.set(schema, validate)
  }
  return validate(value) && wellFormed(value)
}

/** No lone surrogate: with the `u` flag, a pair is one code point and never matches. */
export function wellFormedText(text: string): boolean {
  return !/\p{Cs}/u.test(text)
}

function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return wellFormedText(value)
  if (value === null || typeof value !== 'object') return true
  return Object.entries(value).every(([key, child]) => wellFormedText(key) && wellFormed(child))
}

/** int64 without `maximum` is bounded by its format (SERVICE.md: above 2^63-1 is 400). */
const int64Max = 2n ** 63n - 1n

function integerBounds(schema: JsonSchema, json: boolean): { min: bigint; max: bigint } {
  const min = BigInt((schema.minimum as number | undefined) ?? Number.MIN_SAFE_INTEGER)
  const fallback = json ? BigInt(Number.MAX_SAFE_INTEGER) : int64Max
  const max = schema.maximum === undefined ? fallback : BigInt(schema.maximum as number)
  return { min, max }
}

function integers(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  const near = min + 100n < max ? min + 100n : max
  return fc.oneof(fc.bigInt({ min, max: near }), fc.bigInt({ min, max }), fc.constantFrom(min, max))
}

/**
 * A parameter's raw text is valid when it is a strict integer in range (SERVICE.md: numbers on
 * the wire match `^[1-9][0-9]*$`) or a string the schema accepts.
 */
export function acceptsText(schema: JsonSchema, text: string): boolean {
  if (schema.type !== 'integer') return accepts(schema, text)
  if (!/^[1-9][0-9]*$/.test(text)) return false
  const { min, max } = integerBounds(schema, false)
  const value = BigInt(text)
  return value >= min && value <= max
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]))
  const minLength = (schema.minLength as number | undefined) ?? 0
  const maxLength = (schema.maxLength as number | undefined) ?? 300
  const shapes: fc.Arbitrary<string>[] = [
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    fc.string({ unit: 'binary', minLength, maxLength }),
  ]
  if (typeof schema.pattern === 'string') {
    shapes.unshift(fc.stringMatching(new RegExp(schema.pattern), { size: 'small' }))
  }
  return fc.oneof(...shapes).filter((value) => accepts(schema, value))
}

/** Values `schema` accepts, as JSON values. */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  checkKeywords(schema)
  switch (schema.type) {
    case 'integer': {
      const { min, max } = integerBounds(schema, true)
      return integers(min, max).map(Number)
    }
    case 'string':
      return validString(schema)
    case 'object':
      return validObject(schema)
    default:
      throw new Error(`fuzz: schema type ${String(schema.type)} not supported`)
  }
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return (schema.properties ?? {}) as Record<string, JsonSchema>
}

function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const required = (schema.required ?? []) as string[]
  const record = Object.fromEntries(
    Object.entries(propertiesOf(schema)).map(([name, property]) => [name, validValue(property)]),
  )
  return fc.record(record, { requiredKeys: required })
}

/** Raw texts `schema` accepts for a query, path or header parameter. */
export function validText(schema: JsonSchema): fc.Arbitrary<string> {
  checkKeywords(schema)
  if (schema.type === 'integer') {
    const { min, max } = integerBounds(schema, false)
    return integers(min > 0n ? min : 1n, max).map(String)
  }
  return validString(schema)
}

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
function brokenStrings(schema: JsonSchema): fc.Arbitrary<string> {
  const base = validString(schema)
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

/** Integer literals that are not strict, or outside the bounds. */
function brokenIntegers(schema: JsonSchema, json: boolean): fc.Arbitrary<string> {
  const { min, max } = integerBounds(schema, json)
  const valid = integers(min > 0n ? min : 1n, max)
  return fc.oneof(
    valid.map((value) => `0${value}`),
    valid.map((value) => `+${value}`),
    valid.map((value) => `${value}.0`),
    valid.map((value) => `${value}e0`),
    valid.map((value) => `0x${value.toString(16)}`),
    valid.map((value) => `-${value}`),
    valid.map((value) => ` ${value}`),
    fc.constant(String(min - 1n)),
    fc.constant(String(max + 1n)),
    fc.bigInt({ min: max + 1n, max: max * 1000n }).map(String),
    fc.string({ unit: 'binary', maxLength: 12 }),
  )
}

/** Raw texts `schema` refuses for a parameter. */
export function invalidText(schema: JsonSchema): fc.Arbitrary<string> {
  checkKeywords(schema)
  const broken = schema.type === 'integer' ? brokenIntegers(schema, false) : brokenStrings(schema)
  return broken.filter((text) => !acceptsText(schema, text))
}

const otherJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.array(fc.nat(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.nat(), { maxKeys: 2 }),
)

/** JSON values `schema` refuses: wrong types, out-of-range numbers, broken strings. */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  checkKeywords(schema)
  const ways: fc.Arbitrary<unknown>[] = [otherJson]
  if (schema.type === 'integer') {
    const { min, max } = integerBounds(schema, true)
    ways.push(
      fc.constantFrom(Number(min) - 1, Number(max) + 2, Number(min) + 0.5, 1e300, -1e300),
      fc.double({ min: Number(min), max: Number(max), noInteger: true }),
    )
  }
  if (schema.type === 'string') ways.push(brokenStrings(schema))
  return fc.oneof(...ways).filter((value) => !accepts(schema, value))
}

/** Objects `schema` refuses: a property broken, an unknown one added, a required one removed. */
export function invalidObject(schema: JsonSchema): fc.Arbitrary<{ value: unknown; how: string }> {
  const properties = propertiesOf(schema)
  const required = (schema.required ?? []) as string[]
  const valid = validObject(schema)
  const ways: fc.Arbitrary<{ value: unknown; how: string }>[] = Object.entries(properties).map(
    ([name, property]) =>
      fc.tuple(valid, invalidValue(property)).map(([object, broken]) => ({
        value: { ...object, [name]: broken },
        how: `body.${name} invalid`,
      })),
  )
  if (schema.additionalProperties === false) {
    const unknownName = fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !(n in properties))
    ways.push(
      fc.tuple(valid, unknownName, fc.jsonValue({ maxDepth: 1 })).map(([object, name, extra]) => ({
        value: { ...object, [name]: extra },
        how: 'unknown property',
      })),
    )
  }
  if (required.length > 0) {
    ways.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([object, name]) => {
        const { [name]: _dropped, ...rest } = object
        return { value: rest, how: `body.${name} missing` }
      }),
    )
  }
  ways.push(otherJson.map((value) => ({ value, how: 'not an object' })))
  return fc.oneof(...ways).filter(({ value }) => !accepts(schema, value))
}
