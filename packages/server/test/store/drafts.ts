/** What tests store and filter: drafts of a resource, and the fields a filter reads from them. */
import { componentSchema } from '../../src/spec/operations.js'

/** A field's value, its path read into nested objects (`medical.vaccinated`). */
export function fieldOf(item: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) =>
        node !== null && typeof node === 'object'
          ? (node as Record<string, unknown>)[key]
          : undefined,
      item,
    )
}

/** A resource's schema without `id`: what its store takes as a draft. */
export function draftSchema(schema: string) {
  const {
    properties,
    required = [],
    ...rest
  } = componentSchema(schema) as {
    properties: Record<string, unknown>
    required?: string[]
  }
  const { id: _, ...others } = properties
  return { ...rest, properties: others, required: required.filter((name) => name !== 'id') }
}
