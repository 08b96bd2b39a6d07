/**
 * Pets as the service stores them (issue 29): `id` in its own column and `doc`, the JSON text
 * of every other property in the Pet schema's order, exactly as `JSON.stringify` writes it. The
 * seeds write such documents in SQL; the ceilings read, filter and insert them as the service's
 * store does, so that they do the same data work.
 */
import type { NewPet } from '@petstore/types'
import { openapiDocument } from '@petstore/types/spec'

export type Dialect = 'sqlite' | 'postgres'

/** A pet as the ceilings read it: its id and its document's text. */
export interface StoredPet {
  id: number
  doc: string
}

/** One SQL expression per NewPet property: required ones required, a renamed one an error. */
export type PetSql = { [K in keyof NewPet]: string }

const schemas = openapiDocument.components.schemas

/** Pet's properties but `id`, in the order the spec declares them: a document's order. */
const documentOrder = Object.keys(schemas.Pet.properties).filter((name) => name !== 'id')

/** NewPet's defaults, which the service's validation fills in before storing a draft. */
const newPetDefaults = Object.entries(schemas.NewPet.properties).flatMap(([name, schema]) =>
  'default' in schema ? [[name, schema.default] as const] : [],
)

/**
 * The SQL expression reading the document's `status`: the expression `pets_status_id` indexes
 * on each store (the server's `filterIndex`), so that a filtered page walks that index.
 */
export const statusExpression: Readonly<Record<Dialect, string>> = {
  sqlite: `json_extract(doc, '$.status')`,
  postgres: `(doc->>'status')`,
}

/** A pet's JSON as the service answers it: `{"id":N,` spliced before the document's members. */
export function petJson(id: number, doc: string): string {
  return doc === '{}' ? `{"id":${id}}` : `{"id":${id},${doc.slice(1)}`
}

/** A page's JSON: what `JSON.stringify` makes of its pets. */
export function pageJson(pets: readonly StoredPet[]): string {
  let json = '['
  for (const [index, pet] of pets.entries()) {
    json += `${index === 0 ? '' : ','}${petJson(pet.id, pet.doc)}`
  }
  return `${json}]`
}

/** The document stored for a draft: its text, NewPet's defaults filled in as the service does. */
export function draftDocument(draft: NewPet): string {
  const stored: Record<string, unknown> = { ...draft }
  for (const [name, value] of newPetDefaults) stored[name] ??= value
  return JSON.stringify(stored)
}

/**
 * A document as SQL, from one expression per property, with the members in the document's
 * order and the compact text `JSON.stringify` writes: SQLite's `json_object` writes it so;
 * PostgreSQL's `json_build_object` would add spaces, so its text is formatted from `to_json` of
 * each value, and a `json` column keeps that text as written.
 *
 * @example
 * ```ts
 * documentSql('sqlite', { name: `'Rex'`, categoryId: '1' }) // json_object('name', 'Rex', 'categoryId', 1)
 * ```
 */
export function documentSql(dialect: Dialect, values: PetSql): string {
  const expressions = values as Record<string, string | undefined>
  const members = documentOrder.flatMap((name) => {
    const value = expressions[name]
    return value === undefined ? [] : [[name, value] as const]
  })
  if (dialect === 'sqlite') {
    return `json_object(${members.map(([name, value]) => `'${name}', ${value}`).join(', ')})`
  }
  const template = `{${members.map(([name]) => `"${name}":%s`).join(',')}}`
  return `format('${template}', ${members.map(([, value]) => `to_json(${value})`).join(', ')})::json`
}
