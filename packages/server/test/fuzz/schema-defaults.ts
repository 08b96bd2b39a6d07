/**
 * What validation makes of a value before a handler sees it: the `default` of every property the
 * value lacks, at every depth, as the server's ajv (`useDefaults`) applies them.
 */
import type { JsonSchema } from '../../src/spec/document.js'

export function withDefaults(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined
    return items === undefined ? value : value.map((item) => withDefaults(items, item))
  }
  if (value === null || typeof value !== 'object') return value
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const out: Record<string, unknown> = { ...value }
  for (const [name, property] of Object.entries(properties)) {
    if (out[name] === undefined && property.default !== undefined) out[name] = property.default
    if (out[name] !== undefined) out[name] = withDefaults(property, out[name])
  }
  return out
}
