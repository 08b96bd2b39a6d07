/**
 * Pets as the service stores them, for the ceilings, which read, filter and insert them as its
 * store does: `id` in its own column and `doc`, the document the service's own codec writes
 * (`store/documents.ts`), read back by the service's own filter expression
 * (`store/migrations.ts`). Nothing of the format is written here but the page's JSON, which the
 * ceilings build in JavaScript where the service builds it in SQL.
 */
import { documentCodec } from '@petstore/server/internal/documents'
import { fieldExpression } from '@petstore/server/internal/migrations'
import type { NewPet, Pet } from '@petstore/types'
import { schemaProperties } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'

export type Dialect = 'sqlite' | 'postgres'

/** A pet as the ceilings read it: its id and its document's text. */
export interface StoredPet {
  id: number
  doc: string
}

const pets = documentCodec<Pet>('Pet', openapiDocument)

/**
 * NewPet's defaults, which the service's validation fills in before storing a draft, read
 * through the spec reader (a property written with `$ref`, or NewPet with `allOf`, counts too).
 */
const newPetDefaults = [
  ...schemaProperties({ $ref: '#/components/schemas/NewPet' }, openapiDocument),
].flatMap(([name, schema]) => ('default' in schema ? [[name, schema.default] as const] : []))

/** The SQL expression reading a pet's `status`: the one `pets_status_id` indexes. */
export const statusExpression = (dialect: Dialect): string => fieldExpression(dialect, 'status')

/** A pet's JSON as the service answers it: `{"id":N,` spliced before the document's members. */
export function petJson(id: number, doc: string): string {
  return doc === '{}' ? `{"id":${id}}` : `{"id":${id},${doc.slice(1)}`
}

/** A page's JSON: what `JSON.stringify` makes of its pets. */
export function pageJson(stored: readonly StoredPet[]): string {
  let json = '['
  for (const [index, pet] of stored.entries()) {
    json += `${index === 0 ? '' : ','}${petJson(pet.id, pet.doc)}`
  }
  return `${json}]`
}

/** The document stored for a draft: NewPet's defaults filled in, written by the service's codec. */
export function draftDocument(draft: NewPet): string {
  const stored: Record<string, unknown> = { ...draft }
  for (const [name, value] of newPetDefaults) stored[name] ??= value
  return pets.encode(stored as Omit<Pet, 'id'>).text
}
