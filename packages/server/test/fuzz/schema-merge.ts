/**
 * Two schemas as one to generate from: how `allOf`, and a chosen `anyOf`/`oneOf` branch with the
 * keywords beside it, become a single schema. The merge is a generation hint, not a proof: where
 * two keywords cannot be combined (two patterns, two `not`s), the first is kept and the validator
 * filters what the other refuses.
 */
import type { JsonSchema } from '../../src/spec/document.js'
import type { Subschema } from './schema-keywords.js'

const larger = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'])
const smaller = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'])

/** Canonical JSON text (keys sorted), so that equal values compare equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonical(child)}`).join(',')}}`
}

function typesOf(type: unknown): string[] {
  return Array.isArray(type) ? (type as string[]) : [type as string]
}

/** Types both accept: an integer is a number. */
function commonTypes(a: unknown, b: unknown): string[] {
  const right = typesOf(b)
  return typesOf(a).flatMap((type) => {
    if (right.includes(type)) return [type]
    if (type === 'integer' && right.includes('number')) return ['integer']
    if (type === 'number' && right.includes('integer')) return ['integer']
    return []
  })
}

function asObject(schema: Subschema): JsonSchema {
  if (schema === true) return {}
  if (schema === false) return { not: {} }
  return schema
}

/** One schema whose values, mostly, satisfy both `a` and `b`. */
export function merge(a: Subschema, b: Subschema): JsonSchema {
  const merged: JsonSchema = { ...asObject(a) }
  for (const [keyword, value] of Object.entries(asObject(b))) {
    const mine = merged[keyword]
    if (mine === undefined) merged[keyword] = value
    else if (larger.has(keyword)) merged[keyword] = Math.max(mine as number, value as number)
    else if (smaller.has(keyword)) merged[keyword] = Math.min(mine as number, value as number)
    else if (keyword === 'type') merged.type = commonTypes(mine, value)
    else if (keyword === 'required') {
      merged.required = [...new Set([...(mine as string[]), ...(value as string[])])]
    } else if (keyword === 'enum') {
      const theirs = new Set((value as unknown[]).map(canonical))
      merged.enum = (mine as unknown[]).filter((item) => theirs.has(canonical(item)))
    } else if (keyword === 'allOf') merged.allOf = [...(mine as []), ...(value as [])]
    else if (keyword === 'properties') {
      const properties = { ...(mine as Record<string, Subschema>) }
      for (const [name, schema] of Object.entries(value as Record<string, Subschema>)) {
        const own = properties[name]
        properties[name] = own === undefined ? schema : merge(own, schema)
      }
      merged.properties = properties
    }
  }
  return merged
}
