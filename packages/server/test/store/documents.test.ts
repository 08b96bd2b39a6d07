/**
 * A resource's document is what `JSON.stringify` writes of its draft with the schema's
 * properties first, in the schema's order, then any other the draft has: checked against that
 * reading, on drafts of any JSON values, for the spec's Pet and for schemas with names that
 * need escaping or that JSON.stringify puts first (array indexes).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { documentCodec } from '../../src/store/documents.js'

/** The order documents.ts promises, written the plain way. */
function expectedText(order: readonly string[], draft: Record<string, unknown>): string {
  const out: Record<string, unknown> = {}
  for (const name of order) if (draft[name] !== undefined) out[name] = draft[name]
  for (const name of Object.keys(draft)) if (!Object.hasOwn(out, name)) out[name] = draft[name]
  return JSON.stringify(out)
}

function schemaDocument(names: readonly string[]) {
  const properties = Object.fromEntries(names.map((name) => [name, {}]))
  return { components: { schemas: { Thing: { type: 'object', properties } } } }
}

const name = fc.oneof(
  fc.constantFrom('name', 'categoryId', 'status', 'a "quoted" name', '\u{1f415}', '7', '10'),
  fc.string({ maxLength: 4 }),
)

describe('documentCodec', () => {
  it('writes a Pet with its properties in the schema order', () => {
    const encoded = documentCodec('Pet').encode({ status: 'sold', name: 'Rex', categoryId: 1 })
    expect(encoded.text).toBe('{"name":"Rex","categoryId":1,"status":"sold"}')
    expect(JSON.stringify(encoded.withId(9))).toBe(
      '{"id":9,"name":"Rex","categoryId":1,"status":"sold"}',
    )
  })

  it('reads the order of a schema written with $ref and allOf through the spec reader', () => {
    const document = {
      components: {
        schemas: {
          NewThing: { type: 'object', properties: { name: {}, size: {} } },
          Thing: {
            allOf: [
              { type: 'object', properties: { id: {} } },
              { $ref: '#/components/schemas/NewThing' },
              { type: 'object', properties: { tags: {} } },
            ],
          },
        },
      },
    }
    const codec = documentCodec<{ id: number }>('Thing', document)
    expect(codec.encode({ tags: ['a'], size: 2, name: 'Rex' }).text).toBe(
      '{"name":"Rex","size":2,"tags":["a"]}',
    )
    expect(() => documentCodec('Nothing', document)).toThrow(/no object schema/)
  })

  it('writes any draft of any schema as JSON.stringify writes it in the schema order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { maxLength: 5 }),
        // A draft has no id: the store gives it one.
        fc.dictionary(
          name.filter((n) => n !== 'id'),
          fc.jsonValue(),
          { maxKeys: 6 },
        ),
        (declared, draft) => {
          const order = declared.filter((n) => n !== 'id')
          const codec = documentCodec<{ id: number }>('Thing', schemaDocument(declared))
          // A declared name absent from the draft, and one present but undefined, are left out.
          const values: Record<string, unknown> = { ...draft }
          if (order[0] !== undefined && !Object.hasOwn(values, order[0]))
            values[order[0]] = undefined
          const encoded = codec.encode(values)
          expect(encoded.text).toBe(expectedText(order, draft))
          const { id, ...rest } = encoded.withId(3) as Record<string, unknown>
          expect(id).toBe(3)
          expect(JSON.stringify(rest)).toBe(encoded.text)
        },
      ),
      { numRuns: 5_000 },
    )
  })
})
