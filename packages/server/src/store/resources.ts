/**
 * The resources the service stores, each with its listing, its table and the rule of each filter
 * of its listing. A new resource is its definition here, under the name `Store` gives it, and its
 * table in a migration (migrations.ts: `resourceTable`, written out there because a released
 * migration never changes with the definitions); both stores build its store from this entry.
 */
import type { Order, Pet } from '@petstore/types'
import {
  defineResource,
  type Identified,
  type ListedResource,
  type ListOperationId,
  type ResourceDefinition,
  type ResourceStore,
} from './resource.js'

/** Every resource, under the name the Store holds its store by. */
export const resources = {
  pets: defineResource<'listPets', Pet>({
    list: 'listPets',
    table: 'pets',
    schema: 'Pet',
    filters: { status: { field: 'status', match: 'equals' } },
  }),
  orders: defineResource<'listOrders', Order>({
    list: 'listOrders',
    table: 'orders',
    schema: 'Order',
    filters: {
      status: { field: 'status', match: 'equals' },
      petId: { field: 'petId', match: 'equals' },
    },
    owned: true,
  }),
}

type Resources = typeof resources
type Listed = Resources[keyof Resources]['list']

/**
 * The list operations of the spec that no resource lists: a listing the spec adds is a compile
 * error here, naming it, until its resource is defined above.
 */
export const unlisted: [Exclude<ListOperationId, Listed>] extends [never]
  ? 'none'
  : Exclude<ListOperationId, Listed> = 'none'

/** The resource of each list operation (tests walk every listing from this table). */
export const listedResources = Object.fromEntries(
  Object.values(resources).map((definition) => [definition.list, definition]),
) as unknown as { [K in ListOperationId]: ListedResource<K> }

/** The store of each resource, as Store holds them. */
export type ResourceStores = {
  [N in keyof Resources]: Resources[N] extends ResourceDefinition<infer K, infer R>
    ? ResourceStore<K, R>
    : never
}

/** Every resource's table, in `resources`' order. */
export const resourceTables = Object.values(resources).map((definition) => definition.table)

/**
 * The store of every resource, each made by `make` (the SQLite or the PostgreSQL one, with its
 * cache).
 */
export function resourceStores(
  make: <K extends ListOperationId, R extends Identified>(
    definition: ResourceDefinition<K, R>,
  ) => ResourceStore<K, R>,
): ResourceStores {
  // Each entry is built alone; the compiler cannot follow a union of definitions into `make`.
  const build = make as (definition: unknown) => unknown
  const stores: Record<string, unknown> = {}
  for (const [name, definition] of Object.entries(resources)) stores[name] = build(definition)
  return stores as ResourceStores
}
