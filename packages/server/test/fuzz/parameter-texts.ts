/**
 * Parameters as the wire carries them: the text of a path segment, of a header, or of a query
 * value, and for an array (query only) its items, each a query value of its own, the parameter
 * repeated (`?tag=a&tag=b`, OpenAPI's `form` style exploded). Every kind the support table lets a
 * parameter be (`parameter-type` in scripts/src/support/table.ts) is generated valid and broken:
 * integers, numbers, booleans and strings, enums of each, and arrays of those.
 *
 * The server reads each value in the one spelling that means it (src/spec/parameter-values.ts):
 * an integer in plain digits, a number in JSON's number syntax, a boolean as `true` or `false`.
 * Valid texts are written in those spellings (a number in each of its JSON forms: `1.5`,
 * `1.5e+0`, `15E-1`), broken ones as the near misses a client writes (`TRUE`, `1`, `+1`, `.5`,
 * `1.`, `0x10`, `NaN`, an item out of range, one item too many, the same value twice). Whether a
 * text is accepted (`acceptsTexts`) is decided here from those rules and the schema, not by the
 * server's reader, so a reader that took a near miss would be caught by the conformance fuzz.
 */
import fc from 'fast-check'
import type { JsonSchema } from '../../src/spec/document.js'
import {
  accepts,
  annotationOnly,
  brokenStrings,
  integerBounds,
  integers,
  numbers,
  validValue,
  wellFormedText,
} from './schema-arbitraries.js'
import { checkKeywords } from './schema-keywords.js'

/** What a parameter's value is read as. */
type Scalar = 'integer' | 'number' | 'boolean' | 'string'

const scalars: readonly string[] = ['integer', 'number', 'boolean', 'string']

/**
 * The type a scalar parameter's text is read as: its `type`, or for an enum without one, the
 * type of its members (integers when every member is one), as the support table and the server
 * read it.
 */
function scalarOf(schema: JsonSchema): Scalar | undefined {
  if (typeof schema.type === 'string') {
    return scalars.includes(schema.type) ? (schema.type as Scalar) : undefined
  }
  if (schema.type !== undefined || !Array.isArray(schema.enum) || schema.enum.length === 0) {
    return undefined
  }
  const members = schema.enum as unknown[]
  if (members.every((member) => Number.isInteger(member))) return 'integer'
  const types = new Set(members.map((member) => typeof member))
  const [type] = types
  return types.size === 1 && scalars.includes(String(type)) ? (type as Scalar) : undefined
}

const unsupported = (schema: JsonSchema, what: string) =>
  new Error(
    `fuzz: ${what} ${JSON.stringify(schema.type ?? schema.enum ?? 'any')} is not generated: the ` +
      'support table allows integer, number, boolean and string parameters, enums of each and ' +
      'arrays of those (scripts/src/support/table.ts `parameter-type`); generate a new kind in ' +
      'packages/server/test/fuzz/parameter-texts.ts',
  )

/** The scalar type of `schema`, which the generators know, or an error naming what to extend. */
function checkScalar(schema: JsonSchema): Scalar {
  checkKeywords(schema)
  const scalar = scalarOf(schema)
  if (scalar === undefined) throw unsupported(schema, 'parameter schema type')
  return scalar
}

/** The items' schema of an array parameter, a scalar, or an error naming what to extend. */
function checkItems(schema: JsonSchema): JsonSchema {
  checkKeywords(schema)
  const items = schema.items
  if (items === null || typeof items !== 'object' || Array.isArray(items)) {
    throw unsupported(schema, 'array parameter without an items schema, of type')
  }
  if (scalarOf(items as JsonSchema) === undefined) {
    throw unsupported(items as JsonSchema, 'array parameter of items of type')
  }
  return items as JsonSchema
}

const isArray = (schema: JsonSchema) => schema.type === 'array'

// ---- reading a text, as the rules say ----------------------------------------------------------

/** Integers in plain digits: no sign but a minus, no leading zero, no `-0`. */
const integerText = /^(0|-?[1-9][0-9]*)$/
/** JSON's number syntax (RFC 8259, section 6). */
const numberText = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/

/**
 * `derive(schema)`, made once per schema: the validator (`accepts`) compiles each schema object
 * it is given once, so a schema derived anew on every check would be compiled on every check.
 */
function once(derive: (schema: JsonSchema) => JsonSchema): (schema: JsonSchema) => JsonSchema {
  const made = new WeakMap<JsonSchema, JsonSchema>()
  return (schema) => {
    let derived = made.get(schema)
    if (derived === undefined) {
      derived = derive(schema)
      made.set(schema, derived)
    }
    return derived
  }
}

/** The schema without its bounds, which a BigInt checks exactly. */
const withoutBounds = once(
  ({ minimum, maximum, exclusiveMinimum, exclusiveMaximum, format, ...rest }) => rest,
)

/** An array schema but for its items, which are checked one by one as texts. */
const anyItems = once((schema) => ({ ...schema, items: true }))

/** The value `text` stands for, read as `scalar`; undefined when it is not spelled as one. */
function readAs(scalar: Scalar, text: string): unknown {
  switch (scalar) {
    case 'integer':
      return integerText.test(text) ? BigInt(text) : undefined
    case 'number': {
      const value = Number(text)
      return numberText.test(text) && Number.isFinite(value) ? value : undefined
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined
    case 'string':
      return text
  }
}

/** The value of one scalar text as JSON (an integer as a number), or undefined when refused. */
function readText(
  schema: JsonSchema,
  scalar: Scalar,
  text: string,
): { value: unknown } | undefined {
  if (!wellFormedText(text)) return undefined
  const read = readAs(scalar, text)
  if (read === undefined) return undefined
  if (typeof read !== 'bigint') return accepts(schema, read) ? { value: read } : undefined
  // An int64 bound is exact only as a BigInt; the rest of the schema is Ajv's on the number.
  const { min, max } = integerBounds(schema, false)
  if (read < min || read > max) return undefined
  const value = Number(read)
  return accepts(withoutBounds(schema), value) ? { value } : undefined
}

/** Whether the server takes `text` as the value of a scalar parameter of `schema`. */
export function acceptsText(schema: JsonSchema, text: string): boolean {
  return readText(schema, checkScalar(schema), text) !== undefined
}

/**
 * Whether the server takes `texts` as a parameter of `schema`: one text for a scalar (the same
 * parameter given twice is refused), each item's for an array, which then holds as a whole
 * (`minItems`, `maxItems`, `uniqueItems` of the values read). No text at all is the parameter
 * left out, which is a matter of `required`, not of the schema.
 */
export function acceptsTexts(schema: JsonSchema, texts: readonly string[]): boolean {
  if (!isArray(schema)) return texts.length === 1 && acceptsText(schema, texts[0] as string)
  const items = checkItems(schema)
  const scalar = checkScalar(items)
  const values: unknown[] = []
  for (const text of texts) {
    const read = readText(items, scalar, text)
    if (read === undefined) return false
    values.push(read.value)
  }
  return accepts(anyItems(schema), values)
}

// ---- valid texts -------------------------------------------------------------------------------

/** Each JSON spelling of a finite number: as JavaScript writes it, in exponent form, with `E`. */
function spellings(value: number): string[] {
  const plain = String(value)
  const exponent = value.toExponential()
  const forms = [plain, exponent, exponent.toUpperCase().replace('E+', 'E')]
  if (Number.isInteger(value) && !plain.includes('e')) forms.push(`${plain}.0`)
  return forms
}

const spelled = (values: fc.Arbitrary<number>) =>
  fc.tuple(values, fc.nat()).map(([value, at]) => {
    const forms = spellings(value)
    return forms[at % forms.length] as string
  })

/** Texts built to be valid for a scalar schema, before the rules' check. */
function builtText(schema: JsonSchema, scalar: Scalar): fc.Arbitrary<string> {
  if ('const' in schema || Array.isArray(schema.enum)) {
    const members = fc.constantFrom(...((schema.enum as unknown[]) ?? [schema.const]))
    return scalar === 'number'
      ? spelled(members as fc.Arbitrary<number>)
      : members.map((member) => String(member))
  }
  switch (scalar) {
    case 'integer':
      return integers(schema, false).map(String)
    case 'number':
      return spelled(numbers(schema))
    case 'boolean':
      return fc.constantFrom('true', 'false')
    case 'string':
      return validValue(schema) as fc.Arbitrary<string>
  }
}

/** Texts the server takes for a scalar parameter of `schema` (a path segment, a header, ...). */
export function validText(schema: JsonSchema): fc.Arbitrary<string> {
  const scalar = checkScalar(schema)
  return builtText(schema, scalar).filter((text) => readText(schema, scalar, text) !== undefined)
}

/** The canonical form of the value a text reads as: equal for two spellings of one value. */
const valueKey = (scalar: Scalar) => (text: string) => String(readAs(scalar, text))

/**
 * The texts the server takes for a parameter of `schema`: one for a scalar; for an array, its
 * items, each spelled its own way, as many as `minItems` and `maxItems` allow (none: the
 * parameter left out), different values where `uniqueItems` says so.
 */
export function validTexts(schema: JsonSchema): fc.Arbitrary<string[]> {
  if (!isArray(schema)) return validText(schema).map((text) => [text])
  const items = checkItems(schema)
  const item = validText(items)
  const minLength = (schema.minItems as number | undefined) ?? 0
  const maxLength = (schema.maxItems as number | undefined) ?? minLength + 4
  const texts =
    schema.uniqueItems === true
      ? fc.uniqueArray(item, { minLength, maxLength, selector: valueKey(checkScalar(items)) })
      : fc.array(item, { minLength, maxLength })
  return texts.filter((list) => acceptsTexts(schema, list))
}

// ---- broken texts ------------------------------------------------------------------------------

/** Near misses of an integer: other spellings of a valid one, and integers out of range. */
function brokenIntegers(schema: JsonSchema): fc.Arbitrary<string> {
  const { min, max } = integerBounds(schema, false)
  const valid = integers(schema, false)
  return fc.oneof(
    valid.map((value) => `0${value}`),
    valid.map((value) => `+${value}`),
    valid.map((value) => `${value}.0`),
    valid.map((value) => `${value}e0`),
    valid.map((value) => `0x${value.toString(16)}`),
    valid.map((value) => `-${value}`),
    valid.map((value) => ` ${value}`),
    fc.constantFrom('', '-0', '-', '1_000', '1,000'),
    fc.constant(String(min - 1n)),
    fc.constant(String(max + 1n)),
    fc.bigInt({ min: max + 1n, max: max * 1000n + 1000n }).map(String),
    fc.bigInt({ min: min * 1000n - 1000n, max: min - 1n }).map(String),
    // Within the bounds but not a member, or not a multiple.
    integersInRange(min, max).map(String),
    fc.string({ unit: 'binary', maxLength: 12 }),
  )
}

function integersInRange(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  return fc.bigInt({ min, max: min + 1000n < max ? min + 1000n : max })
}

/** Near misses of a number: what JavaScript or a careless client writes that JSON does not. */
function brokenNumbers(schema: JsonSchema): fc.Arbitrary<string> {
  const valid = fc.oneof(spelled(numbers(withoutBounds(schema))), fc.constantFrom('1', '0.5'))
  return fc.oneof(
    valid.map((text) => `+${text}`),
    valid.map((text) => `0${text}`),
    valid.map((text) => ` ${text}`),
    valid.map((text) => `${text}e`),
    valid.map((text) => text.replace('.', ',')),
    valid
      .filter((text) => /^-?[0-9]+$/.test(text))
      .chain((text) => fc.constantFrom(`${text}.`, `.${text.replace('-', '')}`)),
    fc.constantFrom('', '.5', '-.5', '5.', '1e400', '-1e400', 'NaN', 'Infinity', '-Infinity'),
    fc.constantFrom('0x10', '1_000', '1,5', '--1', '1e+', '١'),
    // Out of range, or within it but not a member or not a multiple.
    spelled(numbers(withoutBounds(schema))),
    fc.string({ unit: 'binary', maxLength: 12 }),
  )
}

/** Near misses of a boolean, and the other one where an enum allows only one. */
const brokenBooleans: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('TRUE', 'True', 'FALSE', 'False', '1', '0', 'yes', 'no', 'on', 'off'),
  fc.constantFrom('', 't', 'f', ' true', 'false ', '"true"', 'truee', 'null', 'true,false'),
  fc.constantFrom('true', 'false'),
  fc.string({ unit: 'binary', maxLength: 8 }),
)

/** Ways to break one scalar's text, before the rules' check. */
function brokenText(schema: JsonSchema, scalar: Scalar): fc.Arbitrary<string> {
  switch (scalar) {
    case 'integer':
      return brokenIntegers(schema)
    case 'number':
      return brokenNumbers(schema)
    case 'boolean':
      return brokenBooleans
    case 'string':
      return brokenStrings(schema)
  }
}

/**
 * Whether some text breaks a parameter of `schema`: every integer, number and boolean (their
 * spelling always can), a string only through a constraint (a bare `type: string` takes every
 * text), an array through an item or through `minItems` (past one: a single item is also
 * allowed to be left out), `maxItems` or `uniqueItems`.
 */
export function refusesSomeText(schema: JsonSchema): boolean {
  if (isArray(schema)) {
    return (
      refusesSomeText(checkItems(schema)) ||
      schema.maxItems !== undefined ||
      ((schema.minItems as number | undefined) ?? 0) > 1 ||
      schema.uniqueItems === true
    )
  }
  const { type, ...rest } = schema
  return checkScalar(schema) !== 'string' || !annotationOnly(rest)
}

/** Texts the server refuses for a scalar parameter of `schema`. */
export function invalidText(schema: JsonSchema): fc.Arbitrary<string> {
  const scalar = checkScalar(schema)
  return brokenText(schema, scalar).filter((text) => readText(schema, scalar, text) === undefined)
}

/**
 * Texts the server refuses for a parameter of `schema`: one broken text for a scalar; for an
 * array, valid items with one broken among them, one item too many or too few, or one value
 * twice (in two spellings, where it has them). Never empty: that is the parameter left out.
 */
export function invalidTexts(schema: JsonSchema): fc.Arbitrary<string[]> {
  if (!refusesSomeText(schema)) throw new Error('fuzz: a parameter of this schema refuses nothing')
  if (!isArray(schema)) return invalidText(schema).map((text) => [text])
  const items = checkItems(schema)
  const valid = validTexts(schema)
  const item = validText(items)
  const ways: fc.Arbitrary<string[]>[] = []
  if (refusesSomeText(items)) {
    ways.push(
      fc.tuple(valid, invalidText(items), fc.nat()).map(([texts, bad, at]) => {
        const index = at % (texts.length + 1)
        return [...texts.slice(0, index), bad, ...texts.slice(index)]
      }),
    )
  }
  if (typeof schema.maxItems === 'number') {
    const count = schema.maxItems + 1
    ways.push(fc.array(item, { minLength: count, maxLength: count + 2 }))
  }
  if (typeof schema.minItems === 'number' && schema.minItems > 1) {
    ways.push(fc.array(item, { minLength: 1, maxLength: schema.minItems - 1 }))
  }
  if (schema.uniqueItems === true) {
    const scalar = checkScalar(items)
    ways.push(
      fc
        .tuple(
          valid.filter((texts) => texts.length > 0),
          fc.nat(),
        )
        .map(([texts, at]) => {
          const twice = texts[at % texts.length] as string
          const value = readAs(scalar, twice)
          const again = typeof value === 'number' ? spellings(value)[at % 3] : twice
          return [...texts, again as string]
        }),
    )
  }
  return fc.oneof(...ways).filter((texts) => texts.length > 0 && !acceptsTexts(schema, texts))
}
