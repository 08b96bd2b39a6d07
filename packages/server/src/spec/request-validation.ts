/**
 * Fastify's validator compiler for the spec's request schemas. Parameters arrive as raw strings
 * (path segments, query values, headers): each is read by its schema's type, strictly
 * (parameter-values.ts), before Ajv checks the value against the spec schema; a parameter given
 * twice is refused unless its schema is an array (a query parameter repeated, `form` style
 * exploded, as OpenAPI defaults it). Bodies are checked by Ajv (2020-12, defaults applied) and
 * their strings must be text a store keeps (`unstorable`).
 */
import type { Ajv2020 } from 'ajv/dist/2020.js'
import type { FastifySchemaCompiler } from 'fastify'
import { problem } from '../errors.js'
import { badlyEncoded } from '../http/querystring.js'
import type { JsonSchema } from './document.js'
import { describeAjvError, descriptionOf } from './messages.js'
import { type ValueReading, valueReader } from './parameter-values.js'

type Validation = { value: unknown } | { error: Error }
type Validator = (data: unknown) => Validation

/**
 * What no store keeps as text: a lone surrogate (a string that is not well-formed UTF-16) and
 * U+0000, which PostgreSQL's text, and its JSON functions on a document holding `\u0000`
 * anywhere, refuse.
 */
const unstorable = (text: string) => text.includes('\0') || !text.isWellFormed()

const labels = {
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
} as const

/** Route schema parts: `querystring`, `params` and `headers` (objects of parameter schemas) and `body`. */
export function createValidatorCompiler(ajv: Ajv2020): FastifySchemaCompiler<JsonSchema> {
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') return compileBodyValidator(ajv, schema)
    if (httpPart === 'querystring' || httpPart === 'params' || httpPart === 'headers') {
      return compileParameterValidator(ajv, schema, labels[httpPart])
    }
    throw new Error(`no validator for request part ${String(httpPart)}`)
  }
}

interface CompiledParameter {
  name: string
  required: boolean
  check: (raw: string | string[]) => Validation
  fallback?: unknown
}

/**
 * A validator of one part's parameters: only those the schema names are read and handed on, so
 * a handler sees declared parameters alone. Header names are matched in lower case, as Node
 * delivers them; the schema names them as the spec does.
 */
function compileParameterValidator(ajv: Ajv2020, schema: JsonSchema, label: string): Validator {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  const headers = label === labels.headers
  const parameters: CompiledParameter[] = Object.entries(properties).map(([name, property]) => ({
    name: headers ? name.toLowerCase() : name,
    required: required.has(name),
    check: compileParameter(ajv, property, `${label} ${name}`),
    fallback: property.default,
  }))
  return (data) => {
    const input = (data ?? {}) as Record<string, unknown>
    if (badlyEncoded(input)) return { error: problem('badQueryEncoding') }
    // Headers arrive as a fresh copy (Fastify's getter), which is handed on with every header.
    const output: Record<string, unknown> = headers ? input : {}
    for (const parameter of parameters) {
      const raw = input[parameter.name] as string | string[] | undefined
      if (raw === undefined) {
        if (parameter.required) return invalid(`${label} ${parameter.name} is required`)
        if (parameter.fallback !== undefined) output[parameter.name] = parameter.fallback
        continue
      }
      const checked = parameter.check(raw)
      if ('error' in checked) return checked
      output[parameter.name] = checked.value
    }
    return { value: output }
  }
}

/** Reads and checks one parameter's raw value (or values, for an array) by its schema. */
function compileParameter(
  ajv: Ajv2020,
  schema: JsonSchema,
  subject: string,
): (raw: string | string[]) => Validation {
  const validate = ajv.compile(schema)
  const checked = (value: unknown): Validation => {
    if (validate(value)) return { value }
    const [first] = validate.errors ?? []
    return invalid(first ? describeAjvError(subject, first) : `${subject} is not valid`)
  }
  if (schema.type === 'array') {
    const read = valueReader((schema.items ?? {}) as JsonSchema, `each ${subject}`)
    return (raw) => {
      const values: unknown[] = []
      for (const text of [raw].flat()) {
        const reading = readText(read, text, subject)
        if ('error' in reading) return invalid(reading.error)
        values.push(reading.value)
      }
      return checked(values)
    }
  }
  const read = valueReader(schema, subject)
  return (raw) => {
    if (Array.isArray(raw)) return invalid(`${subject} must be given at most once`)
    const reading = readText(read, raw, subject)
    return 'error' in reading ? invalid(reading.error) : checked(reading.value)
  }
}

function readText(
  read: (raw: string) => ValueReading,
  text: string,
  subject: string,
): ValueReading {
  return unstorable(text) ? { error: `${subject} is not valid text` } : read(text)
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
