/**
 * The resources the service stores, each with its table and the rule of each filter of its
 * listing. A new resource is one entry here, its table in a migration (migrations.ts:
 * `resourceTable`), and a line in `Store` (store.ts); both stores build it from this entry.
 */
import type { Pet } from '@petstore/types'
import type { Identified, ListOperationId, ResourceDefinition } from './resource.js'

export const pets: ResourceDefinition<'listPets', Pet> = {
  table: 'pets',
  schema: 'Pet',
  filters: { status: { field: 'status', match: 'equals' } },
}

/**
 * The resource of each list operation of the spec: one the spec adds is a compile error here
 * until its resource is defined (and tests walk every listing from this table).
 */
export const listedResources: { [K in ListOperationId]: ResourceDefinition<K, Identified> } = {
  listPets: pets as ResourceDefinition<'listPets', Identified>,
}
