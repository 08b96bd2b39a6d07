/**
 * Fastify's validator compiler for the spec's request schemas. Query and path parameters arrive
 * as raw strings: integers must match `^[1-9][0-9]*$` and fit their range (compared as BigInt,
 * so int64 bounds are exact) BEFORE they are coerced, and a parameter given twice is rejected.
 * Only then does Ajv check the coerced value against the spec schema. Bodies are checked by Ajv
 * (2020-12, defaults applied) and their strings must be text a store keeps (`unstorable`).
 */
import type { Ajv2020 } from 'ajv/dist/2020.js'
import type { FastifySchemaCompiler } from 'fastify'
import { problem } from '../errors.js'
import { badlyEncoded } from '../http/querystring.js'
import type { JsonSchema } from './document.js'
import { describeAjvError, descriptionOf } from './messages.js'

type Validation = { value: unknown } | { error: Error }
type Validator = (data: unknown) => Validation

const strictInteger = /^[1-9][0-9]*$/
const int64Max = 2n ** 63n - 1n
/**
 * What no store keeps as text: a lone surrogate (a string that is not well-formed UTF-16) and
 * U+0000, which PostgreSQL's text, and its JSON functions on a document holding `\u0000`
 * anywhere, refuse.
 */
const unstorable = (text: string) => text.includes('\0') || !text.isWellFormed()

/** Route schema parts: `querystring` and `params` (object of parameter schemas) and `body`. */
export function createValidatorCompiler(ajv: Ajv2020): FastifySchemaCompiler<JsonSchema> {
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') return compileBodyValidator(ajv, schema)
    if (httpPart === 'querystring') return compileParameterValidator(ajv, schema, 'query parameter')
    if (httpPart === 'params') return compileParameterValidator(ajv, schema, 'path parameter')
    throw new Error(`no validator for request part ${String(httpPart)}`)
  }
}

interface CompiledParameter {
  name: string
  required: boolean
  check: (raw: string) => Validation
  fallback?: unknown
}

function compileParameterValidator(ajv: Ajv2020, schema: JsonSchema, label: string): Validator {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  const parameters: CompiledParameter[] = Object.entries(properties).map(([name, property]) => ({
    name,
    required: required.has(name),
    check: compileParameter(ajv, property, `${label} ${name}`),
    fallback: property.default,
  }))
  return (data) => {
    const input = (data ?? {}) as Record<string, unknown>
    if (badlyEncoded(input)) return { error: problem('badQueryEncoding') }
    const output: Record<string, unknown> = {}
    for (const parameter of parameters) {
      const raw = input[parameter.name]
      if (Array.isArray(raw))
        return invalid(`${label} ${parameter.name} must be given at most once`)
      if (raw === undefined) {
        if (parameter.required) return invalid(`${label} ${parameter.name} is required`)
        if (parameter.fallback !== undefined) output[parameter.name] = parameter.fallback
        continue
      }
      if (unstorable(String(raw))) return invalid(`${label} ${parameter.name} is not valid text`)
      const checked = parameter.check(String(raw))
      if ('error' in checked) return checked
      output[parameter.name] = checked.value
    }
    return { value: output }
  }
}

function compileParameter(
  ajv: Ajv2020,
  schema: JsonSchema,
  subject: string,
): (raw: string) => Validation {
  const validate = ajv.compile(schema)
  const coerce = schema.type === 'integer' ? integerCoercion(schema, subject) : undefined
  return (raw) => {
    let value: unknown = raw
    if (coerce !== undefined) {
      const coerced = coerce(raw)
      if ('error' in coerced) return coerced
      value = coerced.value
    }
    if (!validate(value)) {
      const [first] = validate.errors ?? []
      return invalid(first ? describeAjvError(subject, first) : `${subject} is not valid`)
    }
    return { value }
  }
}

function integerCoercion(schema: JsonSchema, subject: string): (raw: string) => Validation {
  const minimum = bound(schema.minimum, 1n)
  const maximum = bound(schema.maximum, int64Max)
  const bounded = maximum <= BigInt(Number.MAX_SAFE_INTEGER)
  const shape = bounded
    ? `${subject} must be an integer from ${minimum} to ${maximum}`
    : `${subject} must be a positive integer`
  const tooLarge = bounded ? shape : `${subject} must be a positive integer of at most ${maximum}`
  return (raw) => {
    if (!strictInteger.test(raw)) return invalid(shape)
    if (raw.length > 20) return invalid(tooLarge)
    const big = BigInt(raw)
    if (big < minimum) return invalid(shape)
    if (big > maximum) return invalid(tooLarge)
    return { value: Number(raw) }
  }
}

/**
 * JSON numbers lose precision past 2^53, so the spec publishes no bound beyond it: an int64
 * parameter without `maximum` is bounded by its format, 2^63-1, applied here exactly.
 */
function bound(value: unknown, fallback: bigint): bigint {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value)) {
    throw new Error(`integer bound ${String(value)} is not exact in JSON; bound by format instead`)
  }
  return BigInt(value as number)
}

function compileBodyValidator(ajv: Ajv2020, schema: JsonSchema): Validator {
  const validate = ajv.compile(schema)
  return (data) => {
    if (data === undefined) return invalid('body is required: send a JSON object')
    if (!validate(data)) {
      const [first] = validate.errors ?? []
      return invalid(first ? describeAjvError('body', first) : 'body is not valid')
    }
    if (holdsUnstorable(data)) {
      return invalid(findUnstorable(data, ['body'], schema) ?? 'body is not valid text')
    }
    return { value: data }
  }
}

/**
 * Whether any string or property name in `value` is unstorable. Nearly every body holds none,
 * and this answers that without the path, the schema and the entries arrays that only a message
 * needs (findUnstorable), which runs only once this says there is something to name.
 */
function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return unstorable(value)
  if (value === null || typeof value !== 'object') return false
  for (const key in value) {
    if (unstorable(key) || holdsUnstorable((value as Record<string, unknown>)[key])) return true
  }
  return false
}

/**
 * Depth is bounded by the schema Ajv just accepted, so this walk is shallow. `path` leads from
 * `body` to `value`; it is written out only for a message.
 */
function findUnstorable(value: unknown, path: string[], schema: JsonSchema): string | undefined {
  if (typeof value === 'string') {
    return unstorable(value) ? `${path.join('.')} is not valid${descriptionOf(schema)}` : undefined
  }
  if (value === null || typeof value !== 'object') return undefined
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const items = (schema.items ?? {}) as JsonSchema
  for (const [key, child] of Object.entries(value)) {
    if (unstorable(key)) return `${path.join('.')} has a property name that is not valid text`
    const childSchema = Array.isArray(value) ? items : (properties[key] ?? {})
    path.push(key)
    const found = findUnstorable(child, path, childSchema)
    path.pop()
    if (found !== undefined) return found
  }
  return undefined
}

function invalid(message: string): { error: Error } {
  return { error: problem('invalidInput', { detail: message }) }
}
