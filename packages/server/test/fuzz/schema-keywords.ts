/**
 * The JSON Schema keywords the fuzz generators understand, and the check that a schema uses no
 * other. A keyword the generators do not know would be fuzzed wrong (values the server refuses
 * sent as valid ones), so a schema that uses one is refused up front, with the keyword, where it
 * sits in the spec and what to extend.
 */
import { schemaAnnotations, schemaConstraints } from '@petstore/scripts/support'
import { dereference, type JsonSchema, specDocument } from '../../src/spec/document.js'

/** A subschema: JSON Schema 2020-12 allows `true` (anything) and `false` (nothing). */
export type Subschema = JsonSchema | boolean

/** Keywords that decide validity, each one read by the generators in schema-arbitraries.ts. */
export const constraints: ReadonlySet<string> = new Set(schemaConstraints)

/**
 * Keywords that never change which values are valid (annotations, and OpenAPI's own, which the
 * server's Ajv ignores as well).
 */
const annotations: ReadonlySet<string> = new Set(schemaAnnotations)

/**
 * The formats the server's Ajv checks (src/spec/ajv.ts), as the integer range each allows. Ajv
 * ignores a format it does not know, so the server would not enforce it: such a format is refused
 * here rather than fuzzed as if it were.
 */
export const integerFormats: Readonly<Record<string, { min: bigint; max: bigint }>> = {
  int32: { min: -(2n ** 31n), max: 2n ** 31n - 1n },
  int64: { min: -(2n ** 63n), max: 2n ** 63n - 1n },
}

const here = 'packages/server/test/fuzz'

/** A JSON pointer from a list of reference tokens (RFC 6901). */
function pointer(tokens: readonly string[]): string {
  return ['#', ...tokens.map((t) => t.replaceAll('~', '~0').replaceAll('/', '~1'))].join('/')
}

/** The subschemas of `schema`, each with the tokens that lead to it. */
export function subschemasOf(schema: JsonSchema): [string[], Subschema][] {
  const found: [string[], Subschema][] = []
  for (const keyword of ['items', 'additionalProperties', 'contains', 'not']) {
    const child = schema[keyword]
    if (isSubschema(child)) found.push([[keyword], child])
  }
  for (const keyword of ['prefixItems', 'allOf', 'anyOf', 'oneOf']) {
    const children = schema[keyword]
    if (Array.isArray(children)) {
      children.forEach((child, index) => {
        found.push([[keyword, String(index)], child as Subschema])
      })
    }
  }
  const properties = (schema.properties ?? {}) as Record<string, Subschema>
  for (const [name, child] of Object.entries(properties)) found.push([['properties', name], child])
  return found
}

function isSubschema(value: unknown): value is Subschema {
  return typeof value === 'boolean' || (value !== null && typeof value === 'object')
}

/** Why a keyword at some place in the schema cannot be generated. */
function problem(keyword: string, schema: JsonSchema): string | undefined {
  if (keyword === '$ref') {
    return 'a reference: pass the schema through `dereference` (src/spec/document.ts) first'
  }
  if (keyword === 'format') {
    const format = String(schema.format)
    if (format in integerFormats || format === 'date-time') return undefined
    return (
      `format "${format}" is not checked by the server's Ajv: add it in ` +
      `packages/server/src/spec/ajv.ts and its values to \`integerFormats\` in ${here}/schema-keywords.ts`
    )
  }
  if (keyword === 'items' && Array.isArray(schema.items)) {
    return 'an array (draft 2019 tuples): OpenAPI 3.1 writes tuples with `prefixItems`'
  }
  if (constraints.has(keyword) || annotations.has(keyword) || keyword.startsWith('x-')) {
    return undefined
  }
  return (
    'not supported: add it to the support table (`schemaConstraints` in ' +
    'scripts/src/support/table.ts) and generate it ' +
    `in \`validValue\` (and \`invalidValue\`) in ${here}/schema-arbitraries.ts`
  )
}

interface Problem {
  keyword: string
  tokens: string[]
  why: string
}

function firstProblem(schema: Subschema, tokens: string[]): Problem | undefined {
  if (typeof schema === 'boolean') return undefined
  for (const keyword of Object.keys(schema)) {
    const why = problem(keyword, schema)
    if (why !== undefined) return { keyword, tokens, why }
  }
  for (const [path, child] of subschemasOf(schema)) {
    const found = firstProblem(child, [...tokens, ...path])
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Throws unless every keyword of `schema` and its subschemas is one the generators understand.
 * The message names the keyword, its place (a pointer into the bundled spec when the schema is
 * one of the spec's, dereferenced; else into `schema` itself) and what to extend.
 */
export function checkKeywords(schema: Subschema, document: object = specDocument): void {
  if (typeof schema === 'boolean') return
  const found = firstProblem(schema, [])
  if (found === undefined) return
  const where = locate(schema, document)
  const place =
    where === undefined
      ? `${pointer(found.tokens)} (of the schema given)`
      : pointer([...where, ...found.tokens])
  throw new Error(`fuzz: schema keyword ${found.keyword} at ${place}: ${found.why}`)
}

/** Where `document` holds `schema` (dereferenced), components first, as reference tokens. */
function locate(schema: JsonSchema, document: object): string[] | undefined {
  const wanted = JSON.stringify(schema)
  const { components, ...rest } = document as Record<string, unknown>
  const search = (node: unknown, tokens: string[]): string[] | undefined => {
    if (node === null || typeof node !== 'object') return undefined
    if (JSON.stringify(dereference(node, document)) === wanted) return tokens
    for (const [key, child] of Object.entries(node)) {
      const found = search(child, [...tokens, key])
      if (found !== undefined) return found
    }
    return undefined
  }
  return search(components, ['components']) ?? search(rest, [])
}
