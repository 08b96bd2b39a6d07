/**
 * How a resource is stored: `id` in its own column (the key every page is read by) and every
 * other property in one JSON document beside it, written as `JSON.stringify` writes it with the
 * properties in the order the resource's schema declares them. A property the spec adds is then
 * stored, read back and listed without a code edit, on SQLite and PostgreSQL alike; what a
 * listing filters on is read from the document by an indexed expression (sqlite/resources.ts,
 * postgres/resources.ts).
 *
 * A page's JSON is the documents' text spliced after `{"id":N,` (or `{"id":N}` for an empty
 * document), never parsed or built again.
 */
import { schemaProperties } from '@petstore/types/openapi'
import { jsonString, jsonValue } from '../json-write.js'
import { specDocument } from '../spec/document.js'
import type { Draft, Identified } from './resource.js'

/** A draft put in its document's order once, for both things a create makes of it. */
export interface Encoded<R extends Identified> {
  /** The document stored for the draft, as JSON text. */
  text: string
  /** What `create` returns: `id` first, then the draft's properties in the document's order. */
  withId(id: number): R
}

export interface DocumentCodec<R extends Identified> {
  encode(draft: Draft<R>): Encoded<R>
}

/**
 * The codec of the resource described by `components/schemas/<schema>` of `document`: its
 * declared properties come first, in the schema's order, then any other the draft has (a schema
 * edited at run time, as tests do), so that nothing validated is ever dropped.
 *
 * @example
 * ```ts
 * const pets = documentCodec<Pet>('Pet')
 * pets.encode({ status: 'sold', name: 'Rex', categoryId: 1 }).text // '{"name":"Rex","categoryId":1,"status":"sold"}'
 * ```
 */
export function documentCodec<R extends Identified>(
  schema: string,
  document: Readonly<Record<string, unknown>> = specDocument,
): DocumentCodec<R> {
  const order = propertyOrder(document, schema)
  const declared = new Set(order)
  // Each declared member's start, quoted once: `{"name":` for the first, `,"name":` after it.
  const firsts = order.map((name) => `{${jsonString(name)}:`)
  const nexts = order.map((name) => `,${jsonString(name)}:`)
  return {
    encode(draft) {
      const values = draft as Record<string, unknown>
      const properties: Record<string, unknown> = {}
      let text = ''
      let given = 0
      for (let i = 0; i < order.length; i++) {
        const name = order[i] as string
        const value = values[name]
        if (value === undefined) continue
        given++
        properties[name] = value
        text += (given === 1 ? firsts[i] : nexts[i]) + jsonValue(value)
      }
      const names = Object.keys(values)
      if (names.length === given) {
        text = given === 0 ? '{}' : `${text}}`
      } else {
        // A schema edited at run time: the draft has properties the order does not name.
        for (const name of names) {
          if (values[name] !== undefined && !declared.has(name)) properties[name] = values[name]
        }
        text = JSON.stringify(properties)
      }
      return { text, withId: (id) => ({ id, ...properties }) as unknown as R }
    },
  }
}

/**
 * The names of the schema's properties but `id`, in the order the spec writes them, read
 * through the spec reader so that a schema made of `$ref`s and `allOf` branches (`Pet` as
 * `NewPet` and an `id`) has its order too.
 */
function propertyOrder(document: Readonly<Record<string, unknown>>, schema: string): string[] {
  const components = document.components as { schemas?: Record<string, unknown> } | undefined
  const found = components?.schemas?.[schema]
  if (found === null || typeof found !== 'object') {
    throw new Error(`the spec has no object schema components/schemas/${schema} to store`)
  }
  return [...schemaProperties(found, document).keys()].filter((name) => name !== 'id')
}
